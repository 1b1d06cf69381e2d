/* hostfns.cu - host functions in streams, measured (gl_hostfns.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_errors.h"
#include "gl_hostfns.h"
#include "gl_spans.h"
#include "gl_stats.h"

/* An empty host function, in both APIs' signatures. */
static void CUDART_CB empty_fn(void *) {}
static void CUDART_CB empty_cb(cudaStream_t, cudaError_t, void *) {}

void CUDART_CB gl_hostfn_hold_fn(void *arg)
{
    gl_hostfn_hold *h = (gl_hostfn_hold *)arg;
    h->start_ns = gl_host_ns();
    gl_host_spin(h->ns);
    h->end_ns = gl_host_ns();
}

static void queue_empty(int api, cudaStream_t s)
{
    if (api == GL_HOSTFN_LAUNCH) CUDA_CHECK(cudaLaunchHostFunc(s, empty_fn, NULL));
    else CUDA_CHECK(cudaStreamAddCallback(s, empty_cb, NULL, 0));
}

double gl_hostfn_wake_ns(cudaStream_t s, int reps)
{
    cudaEvent_t mid, end;
    CUDA_CHECK(cudaEventCreate(&mid));
    CUDA_CHECK(cudaEventCreate(&end));
    double *t = (double *)gl_xcalloc((size_t)(reps < 1 ? 1 : reps), sizeof(double));
    for (int r = -1; r < reps; r++) {
        gl_hold_launch(s, 200e3, NULL); /* GPU work, while the driver's thread sleeps */
        CUDA_CHECK(cudaEventRecord(mid, s));
        queue_empty(GL_HOSTFN_LAUNCH, s);
        CUDA_CHECK(cudaEventRecord(end, s));
        CUDA_CHECK(cudaEventSynchronize(end));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, mid, end));
        if (r >= 0) t[r] = ms * 1e6;
    }
    double med = gl_stats_of(t, reps < 1 ? 1 : reps).median;
    free(t);
    CUDA_CHECK(cudaEventDestroy(mid));
    CUDA_CHECK(cudaEventDestroy(end));
    return med;
}

void gl_hostfn_calibrate(int n, int reps, double hold_us, gl_hostfn_machine *m)
{
    memset(m, 0, sizeof *m);
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;
    cudaStream_t s[2];
    cudaEvent_t start, end;
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&end));
    double *call = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    double *in_stream = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    for (int api = 0; api < GL_HOSTFN_APIS; api++) {
        for (int r = -1; r < reps; r++) { /* r = -1: untimed, the API's first use */
            CUDA_CHECK(cudaEventRecord(start, s[0]));
            double t0 = gl_host_ns();
            for (int i = 0; i < n; i++) queue_empty(api, s[0]);
            double t1 = gl_host_ns();
            CUDA_CHECK(cudaEventRecord(end, s[0]));
            CUDA_CHECK(cudaEventSynchronize(end));
            float ms = 0;
            CUDA_CHECK(cudaEventElapsedTime(&ms, start, end));
            if (r >= 0) call[r] = (t1 - t0) / n, in_stream[r] = ms * 1e6 / n;
        }
        m->call_ns[api] = gl_stats_of(call, reps).median;
        m->in_stream_ns[api] = gl_stats_of(in_stream, reps).median;
    }
    /* Two holds in two streams, released together by one event. */
    double *both = call; /* reused: reps values */
    m->hold_ns = hold_us * 1e3;
    for (int r = 0; r < reps; r++) {
        gl_hostfn_hold h[2] = {{m->hold_ns, 0, 0}, {m->hold_ns, 0, 0}};
        CUDA_CHECK(cudaEventRecord(start, s[0]));
        CUDA_CHECK(cudaStreamWaitEvent(s[1], start, 0));
        for (int i = 0; i < 2; i++) CUDA_CHECK(cudaLaunchHostFunc(s[i], gl_hostfn_hold_fn, &h[i]));
        for (int i = 0; i < 2; i++) CUDA_CHECK(cudaStreamSynchronize(s[i]));
        double first = h[0].start_ns < h[1].start_ns ? h[0].start_ns : h[1].start_ns;
        double last = h[0].end_ns > h[1].end_ns ? h[0].end_ns : h[1].end_ns;
        both[r] = last - first;
    }
    m->two_streams_ns = gl_stats_of(both, reps).median;
    m->wake_ns = gl_hostfn_wake_ns(s[0], reps);
    m->one_at_a_time = m->two_streams_ns > 1.5 * m->hold_ns;
    free(call);
    free(in_stream);
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaStreamDestroy(s[i]));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(end));
}

void gl_hostfn_machine_apply(const gl_hostfn_machine *h, int api, gl_sched_machine *m)
{
    m->hostfn_ns = h->in_stream_ns[api];
    m->hostfn_wake_ns = h->wake_ns > h->in_stream_ns[api] ? h->wake_ns : h->in_stream_ns[api];
    m->hostfn_serial = h->one_at_a_time;
}

void gl_hostfn_print(const gl_hostfn_machine *m)
{
    printf("host functions: cudaLaunchHostFunc call %.2f us, %.2f us in its stream | cudaStreamAddCallback call "
           "%.2f us, %.2f us in its stream | one after GPU work (the driver's thread asleep) %.1f us | two of %.0f us "
           "in two streams: %.0f us, %s | measured now\n",
           m->call_ns[GL_HOSTFN_LAUNCH] / 1e3, m->in_stream_ns[GL_HOSTFN_LAUNCH] / 1e3,
           m->call_ns[GL_HOSTFN_CALLBACK] / 1e3, m->in_stream_ns[GL_HOSTFN_CALLBACK] / 1e3, m->wake_ns / 1e3,
           m->hold_ns / 1e3, m->two_streams_ns / 1e3, m->one_at_a_time ? "one at a time" : "side by side");
}
