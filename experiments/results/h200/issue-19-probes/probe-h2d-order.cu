/* probe-h2d-order.cu (session 18): with one queue, does a pinned H2D wait behind another stream's H2D that waits for
 * its own stream? Issue 18's probe (copies.cu's behind_ns, a 4 KiB copy behind a 4 KiB one) found D2H copies in
 * order and H2D copies not, but validate-replay's random programs at C=1 show pinned H2D copies of other streams
 * starting only once an earlier-issued H2D had started (700 of 743 such pairs). Stream 0: a 2 ms kernel, then copy
 * X0; stream 1: copy X1. Prints X1's end after the kernel's start (us; about 2000 or more: it waited), medians of
 * reps, for X0 and X1 of each kind and size. Build: nvcc -O2 -arch=sm_90 probe-h2d-order.cu
 * Run: probe-h2d-order [reps] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include "probe-threads.cuh"

struct cp { const char *name; int d2h; size_t bytes; };
static const cp kinds[] = {{"pinned H2D 4 KiB", 0, 4 << 10},   {"pinned H2D 64 KiB", 0, 64 << 10},
                           {"pinned H2D 1 MiB", 0, 1 << 20},   {"pinned H2D 16 MiB", 0, 16 << 20},
                           {"pinned D2H 4 KiB", 1, 4 << 10},   {"pinned D2H 1 MiB", 1, 1 << 20}};
enum { NK = sizeof kinds / sizeof kinds[0] };

static char *dev0, *dev1, *pin0, *pin1;
static void copy(const cp &c, cudaStream_t s, char *dev, char *pin)
{
    if (c.d2h) CK(cudaMemcpyAsync(pin, dev, c.bytes, cudaMemcpyDeviceToHost, s));
    else CK(cudaMemcpyAsync(dev, pin, c.bytes, cudaMemcpyHostToDevice, s));
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > 64) return 2;
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cudaStream_t s0, s1;
    cudaEvent_t start, end;
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&end));
    CK(cudaMalloc(&dev0, 16 << 20));
    CK(cudaMalloc(&dev1, 16 << 20));
    CK(cudaMallocHost(&pin0, 16 << 20));
    CK(cudaMallocHost(&pin1, 16 << 20));
    spin_k<<<1, 1, 0, s0>>>(1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s: X1's end after stream 0's 2 ms kernel began (us), medians of %d [min..max]; X1 alone first\n",
           c ? c : "unset", reps);
    for (int b = 0; b < NK; b++) {
        double alone[64];
        for (int r = 0; r < reps; r++) {
            float ms;
            CK(cudaEventRecord(start, s1));
            copy(kinds[b], s1, dev1, pin1);
            CK(cudaEventRecord(end, s1));
            CK(cudaEventSynchronize(end));
            CK(cudaEventElapsedTime(&ms, start, end));
            alone[r] = ms * 1e3;
        }
        std::sort(alone, alone + reps);
        printf("X1 %-18s alone %8.1f\n", kinds[b].name, alone[reps / 2]);
        for (int a = -1; a < NK; a++) { /* -1: X0 none, the kernel alone ahead */
            double t[64];
            for (int r = 0; r < reps; r++) {
                float ms;
                CK(cudaEventRecord(start, s0));
                spin_k<<<1, 1, 0, s0>>>(2000000);
                if (a >= 0) copy(kinds[a], s0, dev0, pin0);
                copy(kinds[b], s1, dev1, pin1);
                CK(cudaEventRecord(end, s1));
                CK(cudaDeviceSynchronize());
                CK(cudaEventElapsedTime(&ms, start, end));
                t[r] = ms * 1e3;
            }
            std::sort(t, t + reps);
            printf("   behind X0 %-18s %8.1f [%8.1f..%8.1f]\n", a < 0 ? "(none)" : kinds[a].name, t[reps / 2], t[0],
                   t[reps - 1]);
        }
    }
    return 0;
}
