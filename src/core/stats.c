/* stats.c - summary statistics and the host clock. */
#define _POSIX_C_SOURCE 200809L
#include "gl_stats.h"
#include "gl_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gl_stats_ones(gl_stats s) { return (int)lround(s.mean * s.n); }

gl_stats gl_stats_of(const double *x, int n)
{
    gl_stats s;
    memset(&s, 0, sizeof s);
    if (n <= 0) return s;
    double *v = (double *)gl_xmalloc(sizeof(double) * (size_t)n);
    memcpy(v, x, sizeof(double) * (size_t)n);
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    s.n = n;
    s.min = v[0];
    s.max = v[n - 1];
    s.median = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    s.mean = sum / n;
    if (n > 1) {
        double ss = 0;
        for (int i = 0; i < n; i++) ss += (v[i] - s.mean) * (v[i] - s.mean);
        s.stddev = sqrt(ss / (n - 1));
    }
    s.rsd = s.mean != 0 ? s.stddev / fabs(s.mean) : 0;
    free(v);
    return s;
}

double gl_quantile(const double *x, int n, double q)
{
    if (n <= 0) return 0;
    double *v = (double *)gl_xmalloc(sizeof(double) * (size_t)n);
    memcpy(v, x, sizeof(double) * (size_t)n);
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    int i = (int)ceil(q * n) - 1;
    double r = v[i < 0 ? 0 : i >= n ? n - 1 : i];
    free(v);
    return r;
}

double gl_host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void gl_host_spin(double ns)
{
    for (double end = gl_host_ns() + ns; gl_host_ns() < end;) {
    }
}
