/* probe-attach.cu (session 30): does cudaStreamAttachMemAsync hold its hardware queue behind its stream's kernel?
 * NVIDIA's UnifiedMemoryStreams (4 threads, each [attach x3, cublasDgemv] into its own stream) replayed 15% short at
 * C=1 in one recording of three: a kernel of one stream, its call returned at 11.49 ms, began at 13.25 ms, 4.5 us after
 * another stream's kernel ended, and that stream's thread had called an attach right after launching it (11.37 ms,
 * returning 12.07). The replay keeps an attach as host time. Taking every attach as a record that holds its queue
 * behind its stream's kernel (a traced record's rule) put the replay 24-33% long on other recordings.
 * Here: kernel K1 (2 ms, 1 block) into stream A; then, from the same thread, the case's calls; then kernel K2 (1
 * block, 10 us) into stream B. K2's start less K1's start (globaltimer, us) says whether K2 waited for K1:
 *   none            nothing between K1 and K2
 *   attach_other    attach (single) into A of managed memory K1 does not touch
 *   attach_used     attach (single) into A of the managed memory K1 writes
 *   attach_host     attach (host) into A of untouched managed memory
 *   attach_idle     attach (single) into B, an idle stream, of untouched memory
 *   record          a cudaEventRecord into A (not timed: created with cudaEventDisableTiming)
 * and the attach call's own time (host clock, us). 20 rounds each after 3 of warm-up; medians and ranges printed.
 * As run in session 30 (probe-attach.txt): a warm-up round skips the re-attach to global at its end, so the first
 * measured round of each case begins with its memory attached as the case left it; the "median" is the 11th of 20.
 * Neither moves the finding: every C=1 round of the three attach-into-A cases read 2002.7-2003.2 us.
 * Build: nvcc -O2 -arch=sm_90 probe-attach.cu    Run: CUDA_DEVICE_MAX_CONNECTIONS=C probe-attach */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 20, WARM = 3, CASES = 6 };
static const char *const names[CASES] = {"none", "attach_other", "attach_used", "attach_host", "attach_idle",
                                         "record"};

__device__ unsigned long long gtime(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Spins for ns, writes its start to stamp[0] and touches buf. */
__global__ void spin(unsigned long long ns, unsigned long long *stamp, double *buf)
{
    unsigned long long t0 = gtime();
    stamp[0] = t0;
    while (gtime() - t0 < ns) {
    }
    if (buf) buf[0] += 1.0;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                                  \
            exit(3);                                                                                                   \
        }                                                                                                              \
    } while (0)

int main(void)
{
    cudaStream_t a, b;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    unsigned long long *stamps;
    double *used, *other;
    CK(cudaMallocManaged(&stamps, 2 * sizeof *stamps));
    CK(cudaMallocManaged(&used, 1 << 20));
    CK(cudaMallocManaged(&other, 1 << 20));
    cudaEvent_t ev;
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    double wait[CASES][ROUNDS], call[CASES][ROUNDS];
    for (int k = 0; k < CASES; k++)
        for (int r = -WARM; r < ROUNDS; r++) {
            CK(cudaDeviceSynchronize());
            spin<<<1, 32, 0, a>>>(2000000ULL, stamps, used);
            double t = now_us();
            switch (k) {
            case 1: CK(cudaStreamAttachMemAsync(a, other, 0, cudaMemAttachSingle)); break;
            case 2: CK(cudaStreamAttachMemAsync(a, used, 0, cudaMemAttachSingle)); break;
            case 3: CK(cudaStreamAttachMemAsync(a, other, 0, cudaMemAttachHost)); break;
            case 4: CK(cudaStreamAttachMemAsync(b, other, 0, cudaMemAttachSingle)); break;
            case 5: CK(cudaEventRecord(ev, a)); break;
            default: break;
            }
            double took = now_us() - t;
            spin<<<1, 32, 0, b>>>(10000ULL, stamps + 1, NULL);
            CK(cudaDeviceSynchronize());
            if (r < 0) continue;
            wait[k][r] = ((double)stamps[1] - (double)stamps[0]) / 1e3;
            call[k][r] = took;
            /* back to where each case starts: both buffers attached globally again */
            CK(cudaStreamAttachMemAsync(a, used, 0, cudaMemAttachGlobal));
            CK(cudaStreamAttachMemAsync(a, other, 0, cudaMemAttachGlobal));
            CK(cudaStreamAttachMemAsync(b, other, 0, cudaMemAttachGlobal));
        }
    printf("C=%s  K2's start after K1's (us): median [min..max] over %d rounds; the case's call (us)\n", c ? c : "8",
           ROUNDS);
    for (int k = 0; k < CASES; k++) {
        qsort(wait[k], ROUNDS, sizeof(double), cmp);
        qsort(call[k], ROUNDS, sizeof(double), cmp);
        printf("  %-13s %8.1f [%8.1f..%8.1f]   call %7.1f [%7.1f..%7.1f]\n", names[k], wait[k][ROUNDS / 2],
               wait[k][0], wait[k][ROUNDS - 1], call[k][ROUNDS / 2], call[k][0], call[k][ROUNDS - 1]);
    }
    return 0;
}
