// probe-threads.cuh - what the session-14 probes share, beside issue 18's probe.cuh (the checked CUDA call, exit 3,
// and %globaltimer): the host's clock and a spin on it (their threads time calls), and a kernel that holds its
// stream for ns on %globaltimer; and the upper median of a run's samples (sessions 23 and 24). Factored out after
// they ran, the code the same. Session 26's two tower probes share the towers' reading, and with session 24's
// probe-h2d-push the kernel that stamps its start (factored out after all three ran).
#pragma once
#include <time.h>
#include <algorithm>
#include "../issue-18-probes/probe.cuh"
static inline double now_us() { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static inline void spin_us(double us) { double e = now_us() + us; while (now_us() < e) {} }
__global__ void spin_k(long long ns) { probe_spin_from(probe_now(), ns); }
static inline double median(double *v, int n) { std::sort(v, v + n); return v[n / 2]; }

/* A kernel that stamps its start at *at and holds its stream for ns. */
__global__ void stamp_spin_k(long long *at, long long ns)
{
    long long t0 = probe_now();
    *at = t0;
    probe_spin_from(t0, ns);
}

/* S towers of K kernels of t_ns each, their starts stamped at starts[i * K + k]: *overlap counts the towers that
 * started before the one before them started its last kernel, *span_us the time from the earliest first start to
 * the last end. Returns the earliest first start. */
static inline long long tower_span(const long long *starts, int S, int K, long long t_ns, int *overlap, double *span_us)
{
    int n = 0;
    long long first = starts[0], last_end = 0;
    for (int i = 0; i < S; i++) {
        if (i > 0 && starts[i * K] < starts[(i - 1) * K + K - 1]) n++;
        if (starts[i * K] < first) first = starts[i * K];
        long long end = starts[i * K + K - 1] + t_ns;
        if (end > last_end) last_end = end;
    }
    *overlap = n;
    *span_us = (last_end - first) / 1e3;
    return first;
}
