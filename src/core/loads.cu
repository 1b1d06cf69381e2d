/* loads.cu - lazy module loading measured, and the pool of never-launched kernels (gl_loads.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_errors.h"
#include "gl_loads.h"
#include "gl_spans.cuh"
#include "gl_spans.h"
#include "gl_stats.h"

/* One kernel per N: each a function of its own, so each has its own first launch. It writes when it started
 * where asked (t may be NULL). */
template <int N> __global__ void gl_fresh(unsigned long long *t)
{
    if (t) t[0] = gl_globaltimer();
}
#define FRESH1(n) &gl_fresh<n>,
#define FRESH8(n) FRESH1(n) FRESH1(n + 1) FRESH1(n + 2) FRESH1(n + 3) FRESH1(n + 4) FRESH1(n + 5) FRESH1(n + 6) FRESH1(n + 7)
#define FRESH64(n) FRESH8(n) FRESH8(n + 8) FRESH8(n + 16) FRESH8(n + 24) FRESH8(n + 32) FRESH8(n + 40) FRESH8(n + 48) FRESH8(n + 56)
typedef void (*fresh_fn)(unsigned long long *);
static const fresh_fn pool[] = {FRESH64(0) FRESH64(64) FRESH64(128) FRESH64(192)};
static int used; /* the pool's kernels launched so far */

static int launch(int k, cudaStream_t s, unsigned long long *t)
{
    void *args[] = {&t};
    CUDA_CHECK(cudaLaunchKernel((const void *)pool[k], dim3(1), dim3(1), args, 0, s));
    return 0;
}

int gl_load_fresh(cudaStream_t s)
{
    int k = __atomic_fetch_add(&used, 1, __ATOMIC_RELAXED); /* host threads may load at once */
    if (k >= (int)(sizeof pool / sizeof pool[0])) return -1;
    return launch(k, s, NULL);
}

int gl_load_left(void)
{
    int left = (int)(sizeof pool / sizeof pool[0]) - used;
    return left > 0 ? left : 0;
}

void gl_load_calibrate(int reps, gl_load_machine *m)
{
    memset(m, 0, sizeof *m);
    if (reps > gl_load_left()) reps = gl_load_left();
    if (reps < 1) return;
    cudaStream_t s[2];
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    unsigned long long *d, h[2];
    CUDA_CHECK(cudaMalloc((void **)&d, 2 * sizeof *d));
    double *gap = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    double *call = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    double *again = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    gl_hold_launch(s[0], 1e3, d); /* loaded before the timing */
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        int k = used++;
        gl_hold_launch(s[0], 1e6, d);
        double t0 = gl_host_ns();
        launch(k, s[1], d + 1);
        call[r] = gl_host_ns() - t0;
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        gap[r] = (double)(long long)(h[1] - h[0]);
        t0 = gl_host_ns();
        launch(k, s[1], NULL);
        again[r] = gl_host_ns() - t0;
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    m->reps = reps;
    m->gap_ns = gl_stats_of(gap, reps).median;
    m->call_ns = gl_stats_of(call, reps).median;
    m->loaded_call_ns = gl_stats_of(again, reps).median;
    m->lazy = m->gap_ns > -0.5e6; /* eager: it ran beside the 1 ms kernel, about 1 ms before its end */
    free(gap);
    free(call);
    free(again);
    CUDA_CHECK(cudaFree(d));
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaStreamDestroy(s[i]));
}

void gl_load_machine_apply(const gl_load_machine *l, gl_sched_machine *m)
{
    m->load_ns = l->lazy ? fmax(0, l->gap_ns - m->dispatch_ns) : 0;
}

void gl_load_print(const gl_load_machine *l)
{
    if (l->reps < 1) {
        printf("module loads: not measured (the pool of unlaunched kernels is used up)\n");
        return;
    }
    printf("module loads: %s | a first launch in one stream starts %.1f us after another stream's 1 ms kernel ends "
           "| its call %.1f us, %.1f us once loaded | medians of %d, measured now\n",
           l->lazy ? "lazy (a first launch waits for the device)" : "eager (a first launch waits for nothing)",
           l->gap_ns / 1e3, l->call_ns / 1e3, l->loaded_call_ns / 1e3, l->reps);
}
