/* probe-hostfn-release.cu (session 15): after a host function ends, when does its stream's next op start? Found
 * in validate-model's copies seed 20261190 at C=32: a 15 MB D2D behind a host function ended as another stream's
 * 1-block kernel ended (681-686 us, the kernel 677), however early the function had ended (475-668 us).
 * Stream B: a stamp kernel, [an H2D of 16 KiB], a host function spinning 100 us, X, a stamp kernel. Stream A: a
 * 1-block kernel of K us issued first (none, 2000, 4000). Prints B's second stamp less its first (us).
 * Build: nvcc -O2 -arch=sm_90 probe-hostfn-release.cu; run at CUDA_DEVICE_MAX_CONNECTIONS=1, 8, 32. */
#include <algorithm>
#include "probe-threads.cuh"

__global__ void stamp_k(long long *at) { *at = probe_now(); }
static void CUDART_CB fn_100us(void *) { spin_us(100); }

enum { X_KERNEL, X_D2D, X_H2D, X_MEMSET, X_NONE, X_N };
static const char *xname[X_N] = {"kernel", "D2D 15 MiB", "H2D pinned 16 KiB", "memset 1 MiB", "nothing"};

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 10;
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cudaStream_t a, b;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    char *d1, *d2, *pinned;
    long long *ts;
    CK(cudaMalloc(&d1, 16 << 20)); CK(cudaMalloc(&d2, 16 << 20)); CK(cudaMallocHost(&pinned, 1 << 20));
    CK(cudaMallocHost(&ts, 4 * sizeof(long long)));
    spin_k<<<1, 1, 0, a>>>(1000); stamp_k<<<1, 1, 0, b>>>(ts); CK(cudaLaunchHostFunc(b, fn_100us, 0));
    CK(cudaMemcpyAsync(d2, d1, 15 << 20, cudaMemcpyDeviceToDevice, b)); CK(cudaDeviceSynchronize());
    printf("C=%s: B's stamp after [H2D], a 100 us host function and X, less B's stamp before (us; median [min..max] of %d)\n",
           c ? c : "default", reps);
    const int kus[3] = {0, 2000, 4000};
    for (int pre = 0; pre < 2; pre++)
        for (int x = 0; x < X_N; x++) {
            printf("%-8s %-18s", pre ? "H2D+fn" : "fn", xname[x]);
            for (int k = 0; k < 3; k++) {
                double v[64];
                for (int r = 0; r < reps; r++) {
                    if (kus[k]) spin_k<<<1, 1, 0, a>>>(kus[k] * 1000LL);
                    stamp_k<<<1, 1, 0, b>>>(ts);
                    if (pre) CK(cudaMemcpyAsync(d1, pinned, 16 << 10, cudaMemcpyHostToDevice, b));
                    CK(cudaLaunchHostFunc(b, fn_100us, 0));
                    if (x == X_KERNEL) stamp_k<<<1, 1, 0, b>>>(ts + 2);
                    if (x == X_D2D) CK(cudaMemcpyAsync(d2, d1, 15 << 20, cudaMemcpyDeviceToDevice, b));
                    if (x == X_H2D) CK(cudaMemcpyAsync(d1, pinned, 16 << 10, cudaMemcpyHostToDevice, b));
                    if (x == X_MEMSET) CK(cudaMemsetAsync(d2, 0, 1 << 20, b));
                    stamp_k<<<1, 1, 0, b>>>(ts + 1);
                    CK(cudaDeviceSynchronize());
                    v[r] = (ts[1] - ts[0]) / 1e3;
                }
                std::sort(v, v + reps);
                printf(" | K=%4d: %7.1f [%7.1f..%7.1f]", kus[k], v[reps / 2], v[0], v[reps - 1]);
            }
            printf("\n");
        }
    return 0;
}
