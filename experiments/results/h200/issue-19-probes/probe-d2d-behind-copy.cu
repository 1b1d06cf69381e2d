/* probe-d2d-behind-copy.cu (session 23): does a D2D copy or a memset wait for a pinned H2D or D2H copy of another
 * stream? validate-replay's random 21 at C=1: a D2D copy and a memset, each ready for over 0.3 ms, began 9 us after
 * an 18.9 MB pinned H2D of another stream ended, and a kernel queued behind them with them; the model gives D2D
 * copies and memsets engines of their own, and started them 0.37 ms early.
 * Stream A: a 2 ms kernel, then X (a 16 MiB D2D copy, a 16 MiB memset, or a 1-block kernel: the control). Stream B:
 * a 256 MiB pinned copy (H2D or D2H, about 4.7 ms), called just before or just after X. Printed: when X ended and
 * when the big copy ended, from an event recorded before the kernel (medians of reps, ms). X ending near 2 ms: it
 * did not wait; near the big copy's end: it waited for it.
 * Build: nvcc -O2 -arch=sm_90 probe-d2d-behind-copy.cu    Run: probe-d2d-behind-copy [reps] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include "probe-threads.cuh"

__global__ void one_k(int *p) { p[threadIdx.x] = 1; }

enum { X_D2D, X_MEMSET, X_KERNEL, X_N };
static const char *xname[X_N] = {"D2D 16 MiB", "memset 16 MiB", "kernel (control)"};

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > 64) return 2;
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    size_t big = (size_t)256 << 20, small = (size_t)16 << 20;
    cudaStream_t sA, sB;
    cudaEvent_t e0, eX, eBig;
    char *dBig, *d1, *d2, *pin;
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&sA, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sB, cudaStreamNonBlocking));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&eX));
    CK(cudaEventCreate(&eBig));
    CK(cudaMalloc(&dBig, big));
    CK(cudaMalloc(&d1, small));
    CK(cudaMalloc(&d2, small));
    CK(cudaMallocHost(&pin, big));
    spin_k<<<1, 1, 0, sA>>>(1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s: X's end and the 256 MiB copy's end, ms from before the 2 ms kernel (medians of %d)\n", c ? c : "unset",
           reps);
    for (int dir = 0; dir < 2; dir++)
        for (int before = 0; before < 2; before++)
            for (int x = 0; x < X_N; x++) {
                float tx[64], tb[64];
                for (int r = -1; r < reps; r++) { /* r = -1: unmeasured, warming the path */
                    CK(cudaEventRecord(e0, sA));
                    CK(cudaStreamWaitEvent(sB, e0, 0));
                    spin_k<<<1, 1, 0, sA>>>(2000000);
                    if (before)
                        CK(cudaMemcpyAsync(dir ? pin : dBig, dir ? dBig : pin, big,
                                           dir ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice, sB));
                    if (x == X_D2D) CK(cudaMemcpyAsync(d2, d1, small, cudaMemcpyDeviceToDevice, sA));
                    else if (x == X_MEMSET) CK(cudaMemsetAsync(d2, 0, small, sA));
                    else one_k<<<1, 32, 0, sA>>>((int *)d2);
                    CK(cudaEventRecord(eX, sA));
                    if (!before)
                        CK(cudaMemcpyAsync(dir ? pin : dBig, dir ? dBig : pin, big,
                                           dir ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice, sB));
                    CK(cudaEventRecord(eBig, sB));
                    CK(cudaDeviceSynchronize());
                    if (r < 0) continue;
                    CK(cudaEventElapsedTime(&tx[r], e0, eX));
                    CK(cudaEventElapsedTime(&tb[r], e0, eBig));
                }
                std::sort(tx, tx + reps), std::sort(tb, tb + reps);
                printf("%s called %s X: X = %-16s ends %7.3f [%7.3f..%7.3f]  the big copy ends %7.3f\n",
                       dir ? "D2H" : "H2D", before ? "before" : "after ", xname[x], tx[reps / 2], tx[0],
                       tx[reps - 1], tb[reps / 2]);
            }
    return 0;
}
