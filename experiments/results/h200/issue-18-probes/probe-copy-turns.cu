/* probe-copy-turns.cu - does an engine cost more per copy when the copies come from many streams in turn?
 *
 * 64 pinned H2D copies of S bytes, issued back to back: all in one stream, or stream i % K for K = 2, 8, 32
 * (non-blocking streams). The host issues faster than the engine copies, so the engine is never idle: the time
 * from the first call to the last copy's end (host clock, after a device synchronize) is the engine's. Copy-overlap's
 * depth-first N = 32 rows went 46.5 us a 2 MiB H2D against 44.0 in the model. Prints min/median over 10 runs (us)
 * and the cost per copy beyond one stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                \
            exit(3);                                                                                           \
        }                                                                                                      \
    } while (0)

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { COPIES = 64, RUNS = 10 };

int main(void)
{
    cudaStream_t s[32];
    for (int i = 0; i < 32; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    size_t sizes[] = {512 << 10, 2 << 20, 8 << 20};
    int ks[] = {1, 2, 8, 32};
    char *h, *d;
    CK(cudaMallocHost(&h, (size_t)COPIES * (8 << 20)));
    CK(cudaMalloc(&d, (size_t)COPIES * (8 << 20)));
    for (int z = 0; z < 3; z++) {
        double base = 0;
        for (int k = 0; k < 4; k++) {
            double t[RUNS];
            for (int r = -1; r < RUNS; r++) {
                CK(cudaDeviceSynchronize());
                double t0 = now_us();
                for (int i = 0; i < COPIES; i++)
                    CK(cudaMemcpyAsync(d + (size_t)i * sizes[z], h + (size_t)i * sizes[z], sizes[z],
                                       cudaMemcpyHostToDevice, s[i % ks[k]]));
                CK(cudaDeviceSynchronize());
                if (r >= 0) t[r] = now_us() - t0;
            }
            qsort(t, RUNS, sizeof *t, cmp);
            if (k == 0) base = t[RUNS / 2];
            printf("%5zu KiB x %d, %2d stream%s in turn: min %8.1f  median %8.1f us  (%.2f us a copy beyond one stream)\n",
                   sizes[z] >> 10, COPIES, ks[k], ks[k] > 1 ? "s" : " ", t[0], t[RUNS / 2], (t[RUNS / 2] - base) / COPIES);
        }
    }
    return 0;
}
