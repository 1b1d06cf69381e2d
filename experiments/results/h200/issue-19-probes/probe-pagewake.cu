/* probe-pagewake.cu (session 14): how the driver's pageable D2H staging passes from one thread to the next.
 * Thread A: a kernel of H ms in sA, then a pageable D2H of 8 KiB in sA (its call waits for the kernel); after it
 * returns, A spins G us and makes another 8 KiB pageable D2H in sC (idle). Thread B, 200 us after A's first call:
 * an 8 KiB pageable D2H in sB (idle), which waits for A's. Per (H, G), medians of 7: B's return and A's second
 * return after A's first return, and how often B went before A's second call.
 * Build: nvcc -O2 -arch=sm_90 probe-pagewake.cu -lpthread */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include "probe-threads.cuh"

static cudaStream_t sA, sB, sC;
static char *dA, *dB, *dC, *pA, *pB, *pC;
static double hold_ms, gap_us, a1, a2, b;
static volatile int a_called;
static void *thread_a(void *) {
    spin_k<<<1, 1, 0, sA>>>((long long)(hold_ms * 1e6));
    a_called = 1;
    CK(cudaMemcpyAsync(pA, dA, 8192, cudaMemcpyDeviceToHost, sA));
    a1 = now_us();
    if (gap_us >= 0) { spin_us(gap_us); CK(cudaMemcpyAsync(pC, dC, 8192, cudaMemcpyDeviceToHost, sC)); a2 = now_us(); }
    return 0;
}
static void *thread_b(void *) {
    while (!a_called) {}
    spin_us(200);
    CK(cudaMemcpyAsync(pB, dB, 8192, cudaMemcpyDeviceToHost, sB));
    b = now_us();
    return 0;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&sA, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&sB, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sC, cudaStreamNonBlocking));
    CK(cudaMalloc(&dA, 8192)); CK(cudaMalloc(&dB, 8192)); CK(cudaMalloc(&dC, 8192));
    pA = (char *)malloc(8192); pB = (char *)malloc(8192); pC = (char *)malloc(8192);
    memset(pA, 1, 8192); memset(pB, 1, 8192); memset(pC, 1, 8192);
    CK(cudaMemcpy(pA, dA, 8192, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(pB, dB, 8192, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(pC, dC, 8192, cudaMemcpyDeviceToHost));
    printf("%8s %8s | %12s %12s %10s\n", "hold ms", "gap us", "B after A1", "A2 after A1", "B first");
    const double holds[] = {1, 2, 5, 10, 20}, gaps[] = {-1, 0, 25, 50, 100, 200};
    for (double h : holds)
        for (double g : gaps) {
            double vb[32], va[32];
            int bfirst = 0;
            hold_ms = h, gap_us = g;
            for (int r = 0; r < reps; r++) {
                a_called = 0;
                pthread_t ta, tb;
                pthread_create(&ta, 0, thread_a, 0); pthread_create(&tb, 0, thread_b, 0);
                pthread_join(ta, 0); pthread_join(tb, 0);
                CK(cudaDeviceSynchronize());
                vb[r] = b - a1; va[r] = g >= 0 ? a2 - a1 : 0;
                bfirst += g >= 0 && b < a2;
            }
            std::sort(vb, vb + reps); std::sort(va, va + reps);
            if (g < 0) printf("%8.0f %8s | %12.1f %12s %10s\n", h, "none", vb[reps / 2], "-", "-");
            else printf("%8.0f %8.0f | %12.1f %12.1f %7d/%d\n", h, g, vb[reps / 2], va[reps / 2], bfirst, reps);
        }
    return 0;
}
