/* gl_check.h - seeded random input and the comparison of results with a CPU reference.
 *
 * Every gridlab experiment verifies what the GPU computed before it times
 * anything: it fills its input from --seed, computes the answer on the CPU as
 * well, and compares the two element by element. Integers, bytes and histograms
 * must match exactly; floating point matches when |got - ref| <= abs + rel*|ref|,
 * with abs scaled to the length of the reduction (gl_tolerance_sum). A failed
 * comparison says how many elements differ and shows the first few as index,
 * expected and got; the experiment then exits with GL_EXIT_CHECK.
 *
 *     gl_fill_f32(h_x, n, common.seed, 0, -1.0f, 1.0f);
 *     ... run the kernel into h_got, compute h_ref on the CPU in double ...
 *     if (!gl_check_compare(&rep, row, "sum matches the CPU reference", GL_F32, h_ref, h_got, n,
 *                           gl_tolerance_sum(n, 1.0, 0), 0))
 *         return gl_report_finish(&rep);   (validate before timing: stop, exit 1)
 *
 * The random input is never rand(): it is splitmix64 (Steele, Lea and Flood,
 * 2014; the generator behind Java's SplittableRandom and the seeding of
 * xoshiro), implemented here, so that the same seed gives the same data on
 * every machine. */
#ifndef GL_CHECK_H
#define GL_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gl_common.h"
#include "gl_report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- seeded random fills -----------------------------------------------------
 *
 * The same (seed, stream) gives the same data everywhere, and filling n
 * elements gives the first n of any longer fill. Different stream numbers give
 * independent sequences from one --seed, so that two arrays filled from the
 * same seed are not copies of each other: stream s starts splitmix64 at
 * seed XOR mix(s), where mix is splitmix64's bijective output function and
 * mix(0) = 0. Stream 0 is therefore plain splitmix64 seeded with seed, and the
 * published outputs for state 0 test it. Every element costs exactly one 64-bit
 * draw, so element i depends only on (seed, stream, i).
 *
 * Integers are mapped onto [lo, hi] by 64-bit multiply-shift
 * (floor(draw * range / 2^64)), not by rejection: with range <= 2^32 the bias
 * is below 2^-32, far under anything a test could see, and no draw is skipped.
 * A bad range (lo > hi, a NaN or an infinite width) is a programming error and
 * exits with GL_EXIT_USAGE. */

/* Uniform integers in [lo, hi], both ends included; the full int32 range works. */
void gl_fill_i32(int32_t *x, size_t n, unsigned long long seed, unsigned stream, int32_t lo, int32_t hi);
void gl_fill_u32(uint32_t *x, size_t n, unsigned long long seed, unsigned stream, uint32_t lo, uint32_t hi);

/* Uniform floats in [lo, hi), from 24 (float) or 53 (double) random bits; lo == hi fills with lo. */
void gl_fill_f32(float *x, size_t n, unsigned long long seed, unsigned stream, float lo, float hi);
void gl_fill_f64(double *x, size_t n, unsigned long long seed, unsigned stream, double lo, double hi);

/* Uniform bytes over all 256 values, eight to a draw, low byte first. */
void gl_fill_bytes(uint8_t *x, size_t n, unsigned long long seed, unsigned stream);

/* Draws taken one at a time, as a random program is built: uniform in [0, 1), a
 * chunk at a time from streams first_stream, first_stream + 1, ... of one seed,
 * so that a seed gives the same sequence on every machine. */
enum { GL_DRAW_CHUNK = 256 };
typedef struct gl_draws {
    unsigned long long seed; /* the sequence's seed */
    unsigned stream;         /* the stream of the next chunk */
    int next;                /* the next unused draw in u (GL_DRAW_CHUNK: none left) */
    double u[GL_DRAW_CHUNK]; /* the current chunk */
} gl_draws;

void gl_draws_init(gl_draws *d, unsigned long long seed, unsigned first_stream);
/* The next draw, in [0, 1). */
double gl_draw_u(gl_draws *d);
/* An integer uniformly in [lo, hi]. */
int gl_draw_int(gl_draws *d, int lo, int hi);
/* An integer in [lo, hi], log-uniformly: as many of 2..3 as of 32..63. */
int gl_draw_log_int(gl_draws *d, int lo, int hi);

/* ---- comparison --------------------------------------------------------------- */

typedef enum { GL_I32, GL_U32, GL_I64, GL_U64, GL_U8, GL_F32, GL_F64 } gl_elem_type;

enum { GL_MISMATCH_SHOWN = 8 }; /* mismatches kept for printing */

/* What a comparison found. It holds no pointers, so it can be returned and
 * copied freely. */
typedef struct gl_mismatch {
    size_t n;                            /* elements compared */
    size_t count;                        /* elements that did not match */
    size_t index[GL_MISMATCH_SHOWN];     /* the first min(count, GL_MISMATCH_SHOWN) mismatching indices, in order */
    double expected[GL_MISMATCH_SHOWN];  /* reference values at those indices; exact except for 64-bit integers past 2^53 */
    double got[GL_MISMATCH_SHOWN];       /* results at those indices, likewise */
    char first_text[GL_MISMATCH_SHOWN][96]; /* "[i] expected E, got G" printed from the original values, so even 64-bit
                                               integers are exact; floats use %.9g or %.17g, which round-trip. 96 holds
                                               the longest case (20-digit index, two 24-character doubles). */
    double worst_abs; /* floats: largest |got - ref| over all elements; infinite if a NaN or infinity mismatched; 0 for integers */
    double worst_rel; /* floats: largest |got - ref| / |ref| where ref != 0, likewise */
    gl_elem_type type; /* what was compared */
} gl_mismatch;

/* Compare got with ref, n elements of the given type, in one pass without
 * allocating. Integers and bytes must be equal, and abs_tol and rel_tol are
 * ignored. Floats match when |got - ref| <= abs_tol + rel_tol*|ref| (computed
 * in double); a NaN matches only a NaN, and an infinity only the same infinity. */
gl_mismatch gl_compare(gl_elem_type type, const void *ref, const void *got, size_t n, double abs_tol, double rel_tol);

/* An absolute tolerance for one sum of n terms, each of magnitude at most
 * max_abs, accumulated in float (is_double = 0) or double:
 *
 *     tolerance = (ceil(log2 n) + 1) * eps * n * max_abs,  eps = FLT_EPSILON or DBL_EPSILON
 *
 * GPU reductions are trees (lanes, warps, blocks, grid), and a tree passes each
 * term through ceil(log2 n) roundings, so its error is at most about
 * ceil(log2 n) * u * sum|x_i| (Higham, Accuracy and Stability of Numerical
 * Algorithms, section 4.2), with u = eps/2 and sum|x_i| <= n * max_abs. Using
 * eps rather than u, and the + 1, leave room for a reduction that is not a
 * perfect tree (a last level of atomics) and for rounding in the reference.
 * The bound for strictly sequential order, n * u * sum|x_i|, grows as n^2 and
 * would pass almost any bug at n = 2^30; the typical error of random signs,
 * about sqrt(n) * u * max_abs, would fail correct reductions of positive data,
 * whose last addition alone can lose u * |sum|. So: large reductions are not
 * failed for rounding, and for small n the tolerance stays far below one
 * missing or doubled term.
 *
 * n is the number of terms summed into one output (K for a matrix product),
 * not the number of outputs. Compute the reference in double (for double data,
 * pairwise or compensated) so that its own error is negligible. n = 0 gives 0. */
double gl_tolerance_sum(size_t n, double max_abs, int is_double);

/* One line about m, without a newline: "all N elements match" or
 * "M of N elements differ"; floats add " (worst abs E, rel R)" to either. */
void gl_mismatch_summary(const gl_mismatch *m, gl_buf *out);

/* The kept mismatches, one line each, indented by indent spaces:
 * "[index] expected E, got G", then "... and K more" when more differed.
 * Prints nothing when everything matched. */
void gl_mismatch_print(const gl_mismatch *m, FILE *f, int indent);

/* Compare, and record the outcome as a data check of row (NULL: the run):
 * prints "CHECK <text>: PASS|FAIL (<summary>)" and, on failure, the first
 * mismatches. Returns 1 when everything matched. */
int gl_check_compare(gl_report *r, gl_row *row, const char *text, gl_elem_type type, const void *ref,
                     const void *got, size_t n, double abs_tol, double rel_tol);

#ifdef __cplusplus
}
#endif
#endif
