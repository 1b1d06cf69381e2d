/* check.c - seeded random fills, result comparison and mismatch reports. */
#include "gl_check.h"

#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* ---- the generator --------------------------------------------------------------
 *
 * splitmix64: a Weyl sequence (add a fixed odd constant) passed through a
 * bijective mixing function. It passes BigCrush, has a 2^64 period, and its
 * published outputs make a golden test possible. */

#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ull

/* splitmix64's output function; a bijection of 64-bit words with mix(0) = 0. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The starting state for (seed, stream); mix spreads nearby stream numbers
 * across the whole cycle, so streams do not start close to one another. */
static uint64_t start(unsigned long long seed, unsigned stream)
{
    return (uint64_t)seed ^ mix(stream);
}

/* The next 64 random bits. */
static uint64_t next(uint64_t *state)
{
    *state += SPLITMIX_GAMMA;
    return mix(*state);
}

/* floor(r * range / 2^64) for range <= 2^32, in 64-bit arithmetic: the product
 * is split at bit 32 so that neither partial product overflows. */
static uint64_t scale(uint64_t r, uint64_t range)
{
    uint64_t low = ((r & 0xFFFFFFFFull) * range) >> 32;
    return ((r >> 32) * range + low) >> 32;
}

/* ---- fills ------------------------------------------------------------------------ */

void gl_fill_i32(int32_t *x, size_t n, unsigned long long seed, unsigned stream, int32_t lo, int32_t hi)
{
    if (lo > hi) gl_die(GL_EXIT_INTERNAL, "gl_fill_i32: empty range [%" PRId32 ", %" PRId32 "]", lo, hi);
    uint64_t state = start(seed, stream);
    uint64_t range = (uint64_t)((int64_t)hi - (int64_t)lo) + 1; /* 1 .. 2^32 */
    for (size_t i = 0; i < n; i++) x[i] = (int32_t)((int64_t)lo + (int64_t)scale(next(&state), range));
}

void gl_fill_u32(uint32_t *x, size_t n, unsigned long long seed, unsigned stream, uint32_t lo, uint32_t hi)
{
    if (lo > hi) gl_die(GL_EXIT_INTERNAL, "gl_fill_u32: empty range [%" PRIu32 ", %" PRIu32 "]", lo, hi);
    uint64_t state = start(seed, stream);
    uint64_t range = (uint64_t)hi - lo + 1;
    for (size_t i = 0; i < n; i++) x[i] = lo + (uint32_t)scale(next(&state), range);
}

void gl_fill_f32(float *x, size_t n, unsigned long long seed, unsigned stream, float lo, float hi)
{
    if (!(lo <= hi) || isinf(lo) || isinf(hi)) gl_die(GL_EXIT_INTERNAL, "gl_fill_f32: bad range [%g, %g)", lo, hi);
    uint64_t state = start(seed, stream);
    double width = (double)hi - (double)lo;
    /* lo + width*u can round up to hi itself; the float below hi stands in. */
    float below_hi = lo < hi ? nextafterf(hi, lo) : lo;
    for (size_t i = 0; i < n; i++) {
        double u = (double)(next(&state) >> 40) * 0x1p-24;
        float v = (float)(lo + width * u);
        x[i] = v < hi ? v : below_hi;
    }
}

void gl_fill_f64(double *x, size_t n, unsigned long long seed, unsigned stream, double lo, double hi)
{
    double width = hi - lo;
    if (!(lo <= hi) || !isfinite(width)) gl_die(GL_EXIT_INTERNAL, "gl_fill_f64: bad range [%g, %g)", lo, hi);
    uint64_t state = start(seed, stream);
    double below_hi = lo < hi ? nextafter(hi, lo) : lo;
    for (size_t i = 0; i < n; i++) {
        double v = lo + width * ((double)(next(&state) >> 11) * 0x1p-53);
        x[i] = v < hi ? v : below_hi;
    }
}

void gl_draws_init(gl_draws *d, unsigned long long seed, unsigned first_stream)
{
    d->seed = seed, d->stream = first_stream, d->next = GL_DRAW_CHUNK;
}

double gl_draw_u(gl_draws *d)
{
    if (d->next == GL_DRAW_CHUNK) {
        gl_fill_f64(d->u, GL_DRAW_CHUNK, d->seed, d->stream++, 0.0, 1.0);
        d->next = 0;
    }
    return d->u[d->next++];
}

int gl_draw_int(gl_draws *d, int lo, int hi)
{
    return lo + (int)fmin(hi - lo, floor(gl_draw_u(d) * (hi - lo + 1)));
}

int gl_draw_log_int(gl_draws *d, int lo, int hi)
{
    double x = exp(log((double)lo) + gl_draw_u(d) * (log(hi + 1.0) - log((double)lo)));
    return (int)fmax(lo, fmin(hi, floor(x)));
}

void gl_fill_bytes(uint8_t *x, size_t n, unsigned long long seed, unsigned stream)
{
    uint64_t state = start(seed, stream);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = next(&state);
        for (size_t b = 0; b < 8 && i + b < n; b++) x[i + b] = (uint8_t)(r >> (8 * b));
    }
}

/* ---- comparison ----------------------------------------------------------------- */

/* Element i of base as text, exactly as the type holds it, and as a double. */
static void describe(gl_elem_type type, const void *base, size_t i, char *text, size_t size, double *value)
{
    switch (type) {
    case GL_I32: {
        int32_t v = ((const int32_t *)base)[i];
        snprintf(text, size, "%" PRId32, v);
        *value = v;
        break;
    }
    case GL_U32: {
        uint32_t v = ((const uint32_t *)base)[i];
        snprintf(text, size, "%" PRIu32, v);
        *value = v;
        break;
    }
    case GL_I64: {
        int64_t v = ((const int64_t *)base)[i];
        snprintf(text, size, "%" PRId64, v);
        *value = (double)v;
        break;
    }
    case GL_U64: {
        uint64_t v = ((const uint64_t *)base)[i];
        snprintf(text, size, "%" PRIu64, v);
        *value = (double)v;
        break;
    }
    case GL_U8: {
        uint8_t v = ((const uint8_t *)base)[i];
        snprintf(text, size, "%u", (unsigned)v);
        *value = v;
        break;
    }
    case GL_F32: {
        float v = ((const float *)base)[i];
        snprintf(text, size, "%.9g", (double)v);
        *value = v;
        break;
    }
    case GL_F64: {
        double v = ((const double *)base)[i];
        snprintf(text, size, "%.17g", v);
        *value = v;
        break;
    }
    }
}

/* Count a mismatch at index i, and keep it while fewer than GL_MISMATCH_SHOWN
 * are kept. Called only for mismatches, so the switch in describe() costs
 * nothing on the common path. */
static void note(gl_mismatch *m, const void *ref, const void *got, size_t i)
{
    size_t k = m->count++;
    if (k >= GL_MISMATCH_SHOWN) return;
    char e[32], g[32];
    describe(m->type, ref, i, e, sizeof e, &m->expected[k]);
    describe(m->type, got, i, g, sizeof g, &m->got[k]);
    m->index[k] = i;
    snprintf(m->first_text[k], sizeof m->first_text[k], "[%zu] expected %s, got %s", i, e, g);
}

/* Whether got matches ref within the tolerance, updating the worst errors. */
static int float_matches(gl_mismatch *m, double ref, double got, double abs_tol, double rel_tol)
{
    if (!isfinite(ref) || !isfinite(got)) {
        int same = (isnan(ref) && isnan(got)) || ref == got;
        if (!same) m->worst_abs = m->worst_rel = INFINITY;
        return same;
    }
    double err = fabs(got - ref);
    if (err > m->worst_abs) m->worst_abs = err;
    if (ref != 0 && err / fabs(ref) > m->worst_rel) m->worst_rel = err / fabs(ref);
    return err <= abs_tol + rel_tol * fabs(ref);
}

/* One typed loop per integer type keeps the per-element work to one compare. */
#define COMPARE_EXACT(T)                                              \
    do {                                                              \
        const T *r = (const T *)ref, *g = (const T *)got;             \
        for (size_t i = 0; i < n; i++)                                \
            if (r[i] != g[i]) note(&m, ref, got, i);                  \
    } while (0)

#define COMPARE_FLOAT(T)                                                       \
    do {                                                                       \
        const T *r = (const T *)ref, *g = (const T *)got;                      \
        for (size_t i = 0; i < n; i++)                                         \
            if (!float_matches(&m, r[i], g[i], abs_tol, rel_tol)) note(&m, ref, got, i); \
    } while (0)

gl_mismatch gl_compare(gl_elem_type type, const void *ref, const void *got, size_t n, double abs_tol, double rel_tol)
{
    gl_mismatch m;
    memset(&m, 0, sizeof m);
    m.n = n;
    m.type = type;
    switch (type) {
    case GL_I32: COMPARE_EXACT(int32_t); break;
    case GL_U32: COMPARE_EXACT(uint32_t); break;
    case GL_I64: COMPARE_EXACT(int64_t); break;
    case GL_U64: COMPARE_EXACT(uint64_t); break;
    case GL_U8: COMPARE_EXACT(uint8_t); break;
    case GL_F32: COMPARE_FLOAT(float); break;
    case GL_F64: COMPARE_FLOAT(double); break;
    default: gl_die(GL_EXIT_INTERNAL, "gl_compare: unknown element type %d", (int)type);
    }
    return m;
}

double gl_tolerance_sum(size_t n, double max_abs, int is_double)
{
    if (n == 0) return 0;
    double eps = is_double ? DBL_EPSILON : FLT_EPSILON;
    int depth = 0; /* ceil(log2 n): the bit length of n - 1 */
    while (depth < (int)(sizeof(size_t) * CHAR_BIT) && ((n - 1) >> depth) != 0) depth++;
    return (depth + 1) * eps * (double)n * fabs(max_abs);
}

/* ---- reports ---------------------------------------------------------------------- */

void gl_mismatch_summary(const gl_mismatch *m, gl_buf *out)
{
    if (m->count == 0) gl_buf_printf(out, "all %zu elements match", m->n);
    else gl_buf_printf(out, "%zu of %zu elements differ", m->count, m->n);
    if (m->type == GL_F32 || m->type == GL_F64)
        gl_buf_printf(out, " (worst abs %.3g, rel %.3g)", m->worst_abs, m->worst_rel);
}

void gl_mismatch_print(const gl_mismatch *m, FILE *f, int indent)
{
    if (indent < 0) indent = 0;
    size_t shown = m->count < GL_MISMATCH_SHOWN ? m->count : GL_MISMATCH_SHOWN;
    for (size_t k = 0; k < shown; k++) fprintf(f, "%*s%s\n", indent, "", m->first_text[k]);
    if (m->count > shown) fprintf(f, "%*s... and %zu more\n", indent, "", m->count - shown);
}

int gl_check_compare(gl_report *r, gl_row *row, const char *text, gl_elem_type type, const void *ref,
                     const void *got, size_t n, double abs_tol, double rel_tol)
{
    gl_mismatch m = gl_compare(type, ref, got, n, abs_tol, rel_tol);
    gl_buf summary = GL_BUF_INIT;
    gl_mismatch_summary(&m, &summary);
    gl_check_evidence(r, row, m.count == 0, text, gl_buf_str(&summary));
    gl_buf_free(&summary);
    gl_mismatch_print(&m, stdout, 4);
    fflush(stdout);
    return m.count == 0;
}
