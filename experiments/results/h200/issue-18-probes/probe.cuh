// probe.cuh - what the session-11 probes share: a CUDA call checked (exit 3 with the line, as gridlab's experiments
// exit on a CUDA error), and a spin on %globaltimer (the clock the probes' kernels report in).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(3); } } while (0)
__device__ inline long long probe_now() {
    long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
// Spin from t0 until ns have passed on %globaltimer.
__device__ inline void probe_spin_from(long long t0, long long ns) {
    while (probe_now() - t0 < ns) {}
}
