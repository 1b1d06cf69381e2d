/* test_check.c - seeded fills, comparisons, tolerances and mismatch reports. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gl_check.h"
#include "gl_common.h"
#include "harness.h"

/* How many of a[0..n-1] also occur anywhere in b[0..n-1]. */
static size_t shared_values(const uint32_t *a, const uint32_t *b, size_t n)
{
    size_t shared = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (a[i] == b[j]) {
                shared++;
                break;
            }
    return shared;
}

/* What gl_mismatch_print writes, read back from a temporary file. */
static char printed[1024];
static const char *print_to_text(const gl_mismatch *m, int indent)
{
    printed[0] = '\0';
    FILE *f = tmpfile();
    if (!f) return printed;
    gl_mismatch_print(m, f, indent);
    rewind(f);
    size_t len = fread(printed, 1, sizeof printed - 1, f);
    printed[len] = '\0';
    fclose(f);
    return printed;
}

/* The summary line of m, copied out of its buffer. */
static char summary[256];
static const char *summary_text(const gl_mismatch *m)
{
    gl_buf b = GL_BUF_INIT;
    gl_mismatch_summary(m, &b);
    snprintf(summary, sizeof summary, "%s", gl_buf_str(&b));
    gl_buf_free(&b);
    return summary;
}

enum { N = 10000 };

int main(void)
{
    /* ---- the generator against splitmix64's published outputs for state 0 ---- */
    uint8_t golden[16];
    gl_fill_bytes(golden, sizeof golden, 0, 0);
    const uint8_t first[8] = {0xAF, 0xCD, 0x1D, 0x7B, 0x39, 0xA8, 0x20, 0xE2};  /* 0xE220A8397B1DCDAF, low byte first */
    const uint8_t second[8] = {0xF4, 0x65, 0xB9, 0xA1, 0x6A, 0x9E, 0x78, 0x6E}; /* 0x6E789E6AA1B965F4 */
    test_cond("seed 0 stream 0 is splitmix64 from state 0: first draw 0xE220A8397B1DCDAF", memcmp(golden, first, 8) == 0);
    test_cond("and second draw 0x6E789E6AA1B965F4", memcmp(golden + 8, second, 8) == 0);
    uint32_t top[2];
    gl_fill_u32(top, 2, 0, 0, 0, UINT32_MAX);
    test_cond("a full-range u32 is the top half of each draw", top[0] == 0xE220A839u && top[1] == 0x6E789E6Au);

    /* ---- determinism and streams ---- */
    static uint32_t a[N], b[N];
    gl_fill_u32(a, N, 42, 0, 0, UINT32_MAX);
    gl_fill_u32(b, N, 42, 0, 0, UINT32_MAX);
    test_cond("the same seed and stream give the same data", memcmp(a, b, sizeof a) == 0);
    gl_fill_u32(b, 100, 42, 0, 0, UINT32_MAX);
    test_cond("a shorter fill is a prefix of a longer one", memcmp(a, b, 100 * sizeof a[0]) == 0);
    gl_fill_u32(b, N, 42, 1, 0, UINT32_MAX);
    test_cond("different streams give different data", memcmp(a, b, sizeof a) != 0);
    test_cond("different streams are not shifted copies", shared_values(a, b, 1000) < 5);
    gl_fill_u32(b, N, 43, 0, 0, UINT32_MAX);
    test_cond("different seeds give different data", memcmp(a, b, sizeof a) != 0 && shared_values(a, b, 1000) < 5);

    /* ---- integer ranges ---- */
    static int32_t s[N];
    gl_fill_i32(s, N, 7, 0, -3, 3);
    int seen[7] = {0}, inside = 1;
    for (int i = 0; i < N; i++) {
        if (s[i] < -3 || s[i] > 3) inside = 0;
        else seen[s[i] + 3]++;
    }
    test_cond("i32 in [-3, 3] stays inside", inside);
    test_cond("i32 in [-3, 3] draws both ends", seen[0] > 0 && seen[6] > 0);
    int even = 1;
    for (int v = 0; v < 7; v++)
        if (seen[v] < N / 7 - 300 || seen[v] > N / 7 + 300) even = 0;
    test_cond("i32 in [-3, 3] draws every value about equally often", even);

    gl_fill_u32(a, N, 7, 0, 5, 7);
    int lo_seen = 0, hi_seen = 0;
    inside = 1;
    for (int i = 0; i < N; i++) {
        if (a[i] < 5 || a[i] > 7) inside = 0;
        lo_seen |= a[i] == 5;
        hi_seen |= a[i] == 7;
    }
    test_cond("u32 in [5, 7] stays inside and draws both ends", inside && lo_seen && hi_seen);

    gl_fill_i32(s, N, 7, 0, 9, 9);
    int all_nine = 1;
    for (int i = 0; i < N; i++) all_nine &= s[i] == 9;
    test_cond("i32 in [9, 9] is all 9", all_nine);

    gl_fill_i32(s, N, 7, 0, INT32_MIN, INT32_MAX);
    int negative = 0, positive = 0, far_below = 0, far_above = 0;
    for (int i = 0; i < N; i++) {
        negative += s[i] < 0;
        positive += s[i] > 0;
        far_below += s[i] < -(1 << 30);
        far_above += s[i] > (1 << 30);
    }
    test_cond("full-range i32 gives negative and positive values", negative > 4500 && positive > 4500);
    test_cond("full-range i32 reaches past -2^30 and +2^30", far_below > 2000 && far_above > 2000);

    /* ---- float ranges ---- */
    static float f[N];
    gl_fill_f32(f, N, 7, 0, -1.0f, 1.0f);
    double mean = 0;
    inside = 1;
    for (int i = 0; i < N; i++) {
        inside &= f[i] >= -1.0f && f[i] < 1.0f;
        mean += f[i];
    }
    test_cond("f32 in [-1, 1) stays inside", inside);
    test_cond("f32 in [-1, 1) has a mean near 0", fabs(mean / N) < 0.05);
    float next_up = nextafterf(1.0f, 2.0f);
    gl_fill_f32(f, N, 7, 0, 1.0f, next_up);
    int all_lo = 1;
    for (int i = 0; i < N; i++) all_lo &= f[i] == 1.0f;
    test_cond("f32 never rounds up to hi: [1, next float) is all 1", all_lo);

    static double d[N];
    gl_fill_f64(d, N, 7, 0, 10.0, 20.0);
    inside = 1;
    for (int i = 0; i < N; i++) inside &= d[i] >= 10.0 && d[i] < 20.0;
    test_cond("f64 in [10, 20) stays inside", inside);
    gl_fill_f64(d, N, 7, 0, 1.0, nextafter(1.0, 2.0));
    all_lo = 1;
    for (int i = 0; i < N; i++) all_lo &= d[i] == 1.0;
    test_cond("f64 never rounds up to hi: [1, next double) is all 1", all_lo);

    /* ---- draws taken one at a time: the same as filling each stream's chunk, across chunk ends ---- */
    gl_draws dr;
    gl_draws_init(&dr, 11, 2000);
    static double chunks[2][GL_DRAW_CHUNK];
    gl_fill_f64(chunks[0], GL_DRAW_CHUNK, 11, 2000, 0.0, 1.0);
    gl_fill_f64(chunks[1], GL_DRAW_CHUNK, 11, 2001, 0.0, 1.0);
    int same = 1, ints_inside = 1, logs_inside = 1;
    for (int i = 0; i < 2 * GL_DRAW_CHUNK; i++) same &= gl_draw_u(&dr) == chunks[i / GL_DRAW_CHUNK][i % GL_DRAW_CHUNK];
    test_cond("draws one at a time are streams 2000, 2001, ... of the seed, chunk after chunk", same);
    int reached[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4000; i++) {
        int v = gl_draw_int(&dr, 3, 6), w = gl_draw_log_int(&dr, 2, 63);
        ints_inside &= v >= 3 && v <= 6;
        if (v >= 3 && v <= 6) reached[v - 3] = 1;
        logs_inside &= w >= 2 && w <= 63;
    }
    test_cond("integer draws stay in [lo, hi] and reach both ends; log-uniform ones stay in [lo, hi]",
              ints_inside && reached[0] && reached[1] && reached[2] && reached[3] && logs_inside);

    /* ---- bytes ---- */
    size_t mb = (size_t)1 << 20;
    uint8_t *bytes = (uint8_t *)gl_xmalloc(mb);
    gl_fill_bytes(bytes, mb, 3, 0);
    int byte_seen[256] = {0}, distinct = 0;
    for (size_t i = 0; i < mb; i++) byte_seen[bytes[i]] = 1;
    for (int v = 0; v < 256; v++) distinct += byte_seen[v];
    test_cond("1 MB of bytes holds all 256 values", distinct == 256);
    uint8_t tail[13];
    gl_fill_bytes(tail, sizeof tail, 3, 0);
    test_cond("a byte fill that is not a multiple of 8 is still a prefix", memcmp(tail, bytes, sizeof tail) == 0);
    free(bytes);

    /* ---- exact comparison ---- */
    int32_t ref[20], got[20];
    gl_fill_i32(ref, 20, 1, 0, -1000, 1000);
    memcpy(got, ref, sizeof ref);
    gl_mismatch m = gl_compare(GL_I32, ref, got, 20, 0, 0);
    test_cond("identical i32 arrays: no mismatch", m.n == 20 && m.count == 0 && m.type == GL_I32);
    test_cond("summary of a match", strcmp(summary_text(&m), "all 20 elements match") == 0);
    test_cond("a match prints nothing", strcmp(print_to_text(&m, 2), "") == 0);

    ref[2] = 5, got[2] = 6;
    ref[9] = -7, got[9] = 7;
    ref[17] = INT32_MIN, got[17] = INT32_MAX;
    m = gl_compare(GL_I32, ref, got, 20, 1e9, 1e9);
    test_cond("three planted differences are found despite huge tolerances", m.count == 3);
    test_cond("their indices, in order", m.index[0] == 2 && m.index[1] == 9 && m.index[2] == 17);
    test_cond("their expected values", m.expected[0] == 5 && m.expected[1] == -7 && m.expected[2] == INT32_MIN);
    test_cond("their results", m.got[0] == 6 && m.got[1] == 7 && m.got[2] == INT32_MAX);
    test_cond("first_text of the last one", strcmp(m.first_text[2], "[17] expected -2147483648, got 2147483647") == 0);
    test_cond("integer summary has no worst errors", strcmp(summary_text(&m), "3 of 20 elements differ") == 0);
    test_cond("printed with the indent",
              strcmp(print_to_text(&m, 2), "  [2] expected 5, got 6\n  [9] expected -7, got 7\n"
                                          "  [17] expected -2147483648, got 2147483647\n") == 0);

    uint32_t ua[100], ub[100];
    for (int i = 0; i < 100; i++) ua[i] = ub[i] = (uint32_t)i;
    for (int i = 10; i < 60; i += 5) ub[i] = 4000000000u; /* 10 differences */
    m = gl_compare(GL_U32, ua, ub, 100, 0, 0);
    int kept_right = 1;
    for (int k = 0; k < GL_MISMATCH_SHOWN; k++)
        kept_right &= m.index[k] == (size_t)(10 + 5 * k) && m.expected[k] == 10 + 5 * k && m.got[k] == 4e9;
    test_cond("more differences than shown: the count is right", m.count == 10);
    test_cond("and the first GL_MISMATCH_SHOWN are kept, in order", kept_right);
    const char *more = print_to_text(&m, 0);
    test_cond("print ends with \"... and 2 more\"", strstr(more, "[45] expected 45, got 4000000000\n... and 2 more\n") != NULL);
    test_cond("print shows the first kept line first", strncmp(more, "[10] expected 10, got 4000000000\n", 33) == 0);

    uint64_t big_ref[1] = {((uint64_t)1 << 63) + 1}, big_got[1] = {(uint64_t)1 << 63};
    m = gl_compare(GL_U64, big_ref, big_got, 1, 0, 0);
    test_cond("u64 past 2^53 that round to the same double still differ", m.count == 1 && m.expected[0] == m.got[0]);
    test_cond("and print exactly",
              strcmp(m.first_text[0], "[0] expected 9223372036854775809, got 9223372036854775808") == 0);
    int64_t small_ref[2] = {0, INT64_MIN}, small_got[2] = {0, INT64_MIN + 1};
    m = gl_compare(GL_I64, small_ref, small_got, 2, 0, 0);
    test_cond("i64 minimum prints exactly",
              m.count == 1 && strcmp(m.first_text[0], "[1] expected -9223372036854775808, got -9223372036854775807") == 0);
    uint8_t hist_ref[4] = {0, 255, 3, 4}, hist_got[4] = {0, 255, 4, 4};
    m = gl_compare(GL_U8, hist_ref, hist_got, 4, 0, 0);
    test_cond("u8 compare", m.count == 1 && m.index[0] == 2 && strcmp(m.first_text[0], "[2] expected 3, got 4") == 0);

    /* ---- float comparison ---- */
    double r1[1] = {1.0}, g1[1] = {1.25};
    test_cond("f64 exactly at the absolute tolerance passes", gl_compare(GL_F64, r1, g1, 1, 0.25, 0).count == 0);
    g1[0] = nextafter(1.25, 2.0);
    test_cond("f64 one ulp past it fails", gl_compare(GL_F64, r1, g1, 1, 0.25, 0).count == 1);
    float rf[1] = {1.0f}, gf[1] = {1.25f};
    test_cond("f32 exactly at the absolute tolerance passes", gl_compare(GL_F32, rf, gf, 1, 0.25, 0).count == 0);
    gf[0] = nextafterf(1.25f, 2.0f);
    test_cond("f32 one ulp past it fails", gl_compare(GL_F32, rf, gf, 1, 0.25, 0).count == 1);

    double rel = 0x1p-10;
    double rr[2] = {1.0, 1024.0}, rg[2] = {1.0 + 0x1p-10, 1025.0};
    test_cond("a relative tolerance scales with |ref|", gl_compare(GL_F64, rr, rg, 2, 0, rel).count == 0);
    rg[0] = 2.0;
    m = gl_compare(GL_F64, rr, rg, 2, 0, rel);
    test_cond("the same absolute error fails at a small |ref|", m.count == 1 && m.index[0] == 0);

    double nan = NAN, inf = INFINITY;
    double nr[1] = {1.0}, ng[1] = {nan};
    m = gl_compare(GL_F64, nr, ng, 1, 1e300, 1e300);
    test_cond("NaN against a number fails", m.count == 1 && isinf(m.worst_abs));
    test_cond("a NaN prints as nan", strcmp(m.first_text[0], "[0] expected 1, got nan") == 0);
    nr[0] = nan, ng[0] = 2.0;
    test_cond("a number against a NaN reference fails", gl_compare(GL_F64, nr, ng, 1, 1e300, 1e300).count == 1);
    nr[0] = nan, ng[0] = nan;
    test_cond("NaN against NaN passes", gl_compare(GL_F64, nr, ng, 1, 0, 0).count == 0);
    float fr[1] = {INFINITY}, fg[1] = {INFINITY};
    test_cond("+inf against +inf passes", gl_compare(GL_F32, fr, fg, 1, 0, 0).count == 0);
    fg[0] = -INFINITY;
    test_cond("+inf against -inf fails", gl_compare(GL_F32, fr, fg, 1, 1e300, 1e300).count == 1);
    nr[0] = inf, ng[0] = 1e308;
    test_cond("+inf against a large finite value fails", gl_compare(GL_F64, nr, ng, 1, 1e300, 1e300).count == 1);

    double wr[3] = {1.0, 100.0, 0.0}, wg[3] = {1.25, 101.0, 0.5};
    m = gl_compare(GL_F64, wr, wg, 3, 2.0, 0);
    test_cond("worst_abs is the largest |got - ref|, also when all match", m.count == 0 && m.worst_abs == 1.0);
    test_cond("worst_rel skips ref = 0", m.worst_rel == 0.25);
    test_cond("float summary gives the worst errors",
              strcmp(summary_text(&m), "all 3 elements match (worst abs 1, rel 0.25)") == 0);
    m = gl_compare(GL_F64, wr, wg, 3, 0.3, 0);
    test_cond("float summary of a failure", strcmp(summary_text(&m), "2 of 3 elements differ (worst abs 1, rel 0.25)") == 0);
    float tr[1] = {0.1f}, tg[1] = {0.2f};
    m = gl_compare(GL_F32, tr, tg, 1, 0, 0);
    test_cond("f32 prints with 9 digits", strcmp(m.first_text[0], "[0] expected 0.100000001, got 0.200000003") == 0);
    double pr[1] = {0.1}, pg[1] = {0.2};
    m = gl_compare(GL_F64, pr, pg, 1, 0, 0);
    test_cond("f64 prints with 17 digits",
              strcmp(m.first_text[0], "[0] expected 0.10000000000000001, got 0.20000000000000001") == 0);
    m = gl_compare(GL_F64, NULL, NULL, 0, 0, 0);
    test_cond("an empty comparison matches", m.count == 0 && m.n == 0);

    /* ---- the reduction tolerance ---- */
    double t_small = gl_tolerance_sum(1000, 1.0, 0), t_large = gl_tolerance_sum(1000000, 1.0, 0);
    test_cond("the tolerance grows with n", t_large > t_small && t_small > 0);
    test_cond("the tolerance grows with max_abs", gl_tolerance_sum(1000, 8.0, 0) > t_small);
    test_cond("float gets a larger tolerance than double", t_small > gl_tolerance_sum(1000, 1.0, 1));
    test_cond("the formula: (ceil(log2 n) + 1) * eps * n * max_abs",
              gl_tolerance_sum(1024, 2.0, 0) == 11 * FLT_EPSILON * 1024 * 2.0 &&
                  gl_tolerance_sum(1025, 2.0, 1) == 12 * DBL_EPSILON * 1025 * 2.0);
    test_cond("no terms, no tolerance", gl_tolerance_sum(0, 1.0, 0) == 0);

    /* The tolerance passes a correct float sum and fails one missing a term. */
    enum { TERMS = 1 << 16 };
    static float terms[TERMS], level[TERMS];
    gl_fill_f32(terms, TERMS, 11, 0, -1.0f, 1.0f);
    double exact = 0;
    for (int i = 0; i < TERMS; i++) exact += terms[i];
    float naive = 0;
    for (int i = 0; i < TERMS; i++) naive += terms[i];
    memcpy(level, terms, sizeof terms);
    for (int width = TERMS / 2; width >= 1; width /= 2)
        for (int i = 0; i < width; i++) level[i] += level[i + width];
    double sums_ref[1] = {exact}, sums_got[2] = {level[0], naive};
    double tol = gl_tolerance_sum(TERMS, 1.0, 0);
    test_cond("a float tree sum of 2^16 terms passes", gl_compare(GL_F64, sums_ref, &sums_got[0], 1, tol, 0).count == 0);
    test_cond("a naive float sum of 2^16 terms passes", gl_compare(GL_F64, sums_ref, &sums_got[1], 1, tol, 0).count == 0);
    float dropped = 0;
    int big = 0;
    for (int i = 0; i < 1000; i++)
        if (fabsf(terms[i]) > fabsf(terms[big])) big = i;
    for (int i = 0; i < 1000; i++)
        if (i != big) dropped += terms[i];
    double short_ref[1] = {0}, short_got[1] = {dropped};
    for (int i = 0; i < 1000; i++) short_ref[0] += terms[i];
    test_cond("a float sum of 1000 terms missing one fails",
              gl_compare(GL_F64, short_ref, short_got, 1, gl_tolerance_sum(1000, 1.0, 0), 0).count == 1);

    test_report();
}
