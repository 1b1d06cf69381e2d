// probe-threads.cuh - what the session-14 probes share, beside issue 18's probe.cuh (the checked CUDA call, exit 3,
// and %globaltimer): the host's clock and a spin on it (their threads time calls), and a kernel that holds its
// stream for ns on %globaltimer; and the upper median of a run's samples (sessions 23 and 24). Factored out after
// they ran, the code the same.
#pragma once
#include <time.h>
#include <algorithm>
#include "../issue-18-probes/probe.cuh"
static inline double now_us() { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static inline void spin_us(double us) { double e = now_us() + us; while (now_us() < e) {} }
__global__ void spin_k(long long ns) { probe_spin_from(probe_now(), ns); }
static inline double median(double *v, int n) { std::sort(v, v + n); return v[n / 2]; }
