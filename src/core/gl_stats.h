/* gl_stats.h - summary statistics of repeated measurements, and the host clock.
 *
 * Every timed number gridlab prints is a gl_stats over warm, repeated samples:
 * min (the best the machine did), median (what it usually does) and the noise
 * (relative standard deviation) that says how far to trust either. */
#ifndef GL_STATS_H
#define GL_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_stats {
    int n;         /* number of samples */
    double min;    /* smallest sample */
    double max;    /* largest sample */
    double median; /* middle sample (mean of the two middle ones for even n) */
    double mean;   /* arithmetic mean */
    double stddev; /* sample standard deviation (n - 1); 0 for n < 2 */
    double rsd;    /* noise: stddev / mean; 0 when the mean is 0 */
} gl_stats;

/* Statistics of x[0..n-1]; x is not modified. n == 0 gives all zeros. */
gl_stats gl_stats_of(const double *x, int n);

/* Of a series of 0s and 1s (a claim held, run by run): how many were 1. */
int gl_stats_ones(gl_stats s);

/* The q-quantile (0 < q <= 1) of x[0..n-1] by the nearest rank: the
 * smallest value with at least q*n values at or below it. 0 for n == 0. */
double gl_quantile(const double *x, int n, double q);

/* Host monotonic clock (CLOCK_MONOTONIC) in nanoseconds, for launch and
 * dispatch costs, and the clock that gl_clock_align maps onto the GPU's. */
double gl_host_ns(void);
/* Spin on the host for ns (gl_host_ns): a wait that keeps its core, and ends within a clock read of its time. */
void gl_host_spin(double ns);

#ifdef __cplusplus
}
#endif
#endif
