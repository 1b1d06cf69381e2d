/* probe-bidir-sizes.cu - what a pinned H2D of S bytes takes, back to back, while D2H copies of S run beside it.
 *
 * 64 H2D of S in stream A and 64 D2H of S in stream B, issued interleaved so both engines stay busy: the time from
 * the first call to the end of each direction's last copy (events), per copy. Alone (each direction by itself) too,
 * and at 2 MiB with an event record (timed or not) after each copy, as gridlab's runs record one after each copy.
 * copy-overlap's N = 32 rows (2 MiB copies) went 46.5 us an H2D in the run against 44.0 in the model, whose
 * shared-link line is fitted through pairs of 512 KiB and 64 MiB. Prints medians of 7 runs (us per copy).
 */
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                \
            exit(3);                                                                                           \
        }                                                                                                      \
    } while (0)

static int cmp(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

enum { COPIES = 64, RUNS = 7 };

int main(void)
{
    cudaStream_t s[2];
    for (int i = 0; i < 2; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    cudaEvent_t start, end[2], rec[2][COPIES], urec[2][COPIES];
    CK(cudaEventCreate(&start));
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < COPIES; k++) {
            CK(cudaEventCreate(&rec[i][k]));
            CK(cudaEventCreateWithFlags(&urec[i][k], cudaEventDisableTiming));
        }
    for (int i = 0; i < 2; i++) CK(cudaEventCreate(&end[i]));
    size_t sizes[] = {512 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20};
    char *h[2], *d[2];
    for (int i = 0; i < 2; i++) {
        CK(cudaMallocHost(&h[i], (size_t)COPIES * (16 << 20)));
        CK(cudaMalloc(&d[i], (size_t)COPIES * (16 << 20)));
    }
    for (int z = 0; z < 5; z++) {
        size_t S = sizes[z];
        for (int mode = 0; mode < 7; mode++) { /* 0: H2D alone, 1: D2H alone, 2: both; 3-4: both, a timed (3) or
                                                 * untimed (4) record after each copy; 5-6: H2D alone so */
            if (mode >= 3 && S != (2 << 20)) continue;
            float t[2][RUNS];
            for (int r = -1; r < RUNS; r++) {
                CK(cudaDeviceSynchronize());
                CK(cudaEventRecord(start, s[0]));
                CK(cudaStreamWaitEvent(s[1], start, 0));
                for (int i = 0; i < COPIES; i++) {
                    int h2d = mode != 1, d2h = mode != 0 && mode < 5;
                    if (h2d) CK(cudaMemcpyAsync(d[0] + i * S, h[0] + i * S, S, cudaMemcpyHostToDevice, s[0]));
                    if (h2d && (mode == 3 || mode == 5)) CK(cudaEventRecord(rec[0][i], s[0]));
                    if (h2d && (mode == 4 || mode == 6)) CK(cudaEventRecord(urec[0][i], s[0]));
                    if (d2h) CK(cudaMemcpyAsync(h[1] + i * S, d[1] + i * S, S, cudaMemcpyDeviceToHost, s[1]));
                    if (d2h && mode == 3) CK(cudaEventRecord(rec[1][i], s[1]));
                    if (d2h && mode == 4) CK(cudaEventRecord(urec[1][i], s[1]));
                }
                for (int i = 0; i < 2; i++) CK(cudaEventRecord(end[i], s[i]));
                CK(cudaDeviceSynchronize());
                for (int i = 0; i < 2 && r >= 0; i++) CK(cudaEventElapsedTime(&t[i][r], start, end[i]));
            }
            for (int i = 0; i < 2; i++) qsort(t[i], RUNS, sizeof(float), cmp);
            const char *m[] = {"H2D alone", "D2H alone", "both", "both, a timed record after each",
                               "both, an untimed record after each", "H2D alone, a timed record after each",
                               "H2D alone, an untimed record after each"};
            int d2h = mode != 0 && mode < 5;
            printf("%6zu KiB x %d, %-39s: H2D %7.2f us a copy, D2H %7.2f us a copy\n", S >> 10, COPIES, m[mode],
                   mode == 1 ? 0 : t[0][RUNS / 2] * 1e3 / COPIES, d2h ? t[1][RUNS / 2] * 1e3 / COPIES : 0);
        }
    }
    return 0;
}
