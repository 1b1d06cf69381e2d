/* test_stats.c - summary statistics and the host clock. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "gl_stats.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1); }

int main(void)
{
    /* Textbook set: mean 5, population sd 2, sample sd sqrt(32/7). */
    double x[] = {9, 2, 5, 4, 4, 7, 4, 5};
    double copy[8];
    memcpy(copy, x, sizeof x);
    gl_stats s = gl_stats_of(x, 8);
    test_cond("n, min and max", s.n == 8 && s.min == 2 && s.max == 9);
    test_cond("median of an even count is the mean of the middle two", close_to(s.median, 4.5));
    test_cond("mean", close_to(s.mean, 5));
    test_cond("sample standard deviation uses n - 1", close_to(s.stddev, sqrt(32.0 / 7.0)));
    test_cond("noise is stddev / mean", close_to(s.rsd, sqrt(32.0 / 7.0) / 5));
    test_cond("the input is not reordered", memcmp(x, copy, sizeof x) == 0);

    double odd[] = {3, 1, 2};
    s = gl_stats_of(odd, 3);
    test_cond("median of an odd count is the middle value", s.median == 2);

    double one[] = {42};
    s = gl_stats_of(one, 1);
    test_cond("one sample: no spread", s.n == 1 && s.median == 42 && s.stddev == 0 && s.rsd == 0);

    s = gl_stats_of(NULL, 0);
    test_cond("no samples: all zero", s.n == 0 && s.mean == 0 && s.median == 0);

    double zeros[] = {0, 0};
    s = gl_stats_of(zeros, 2);
    test_cond("a zero mean gives zero noise, not NaN", s.rsd == 0);

    double neg[] = {-2, -4};
    s = gl_stats_of(neg, 2);
    test_cond("noise of negative samples is positive", s.rsd > 0 && close_to(s.mean, -3));

    double held[] = {1, 0, 1, 1, 0, 1, 1};
    test_cond("gl_stats_ones counts the 1s of a 0/1 series (5 of 7; none of none)",
              gl_stats_ones(gl_stats_of(held, 7)) == 5 && gl_stats_ones(gl_stats_of(held, 0)) == 0);

    /* The clock must measure a known sleep in nanoseconds: 20 ms reads as
     * 20e6 ns, not 20e3 (microseconds) or 20 (milliseconds). */
    struct timespec nap = {0, 20 * 1000 * 1000};
    double a = gl_host_ns();
    nanosleep(&nap, NULL);
    double b = gl_host_ns();
    test_cond("a 20 ms sleep measures between 20e6 and 2e9 ns on the host clock", b - a >= 20e6 && b - a < 2e9);

    test_report();
}
