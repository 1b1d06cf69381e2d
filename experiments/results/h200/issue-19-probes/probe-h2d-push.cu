/* probe-h2d-push.cu (session 24): when does a pageable H2D copy that the host waits for (over the 2 MiB staged at
 * once), called in a stream busy behind a kernel, put its DMA on the H2D engine: at its call, or only once the host
 * has staged its first part? validate-replay's random 38 at C=1: a 4.97 MB one called 252 us into the range, its
 * stream busy until 862 us, began at 1577 us, just after a pinned H2D that another thread called at 373 us and
 * that waited for its own stream's kernel until 1564 us; the replay issued it at its call, and started it at
 * 832 us, before that one. With one queue, H2D copies of 64 KiB and more keep their issue order on the engine
 * (probe-h2d-order, session 18).
 * Thread A: a 2 ms kernel K1 (one block) in stream A, then a copy X in stream A. Thread B: D us after A's call
 * began, Y in stream B, idle: a pinned 1 MiB H2D (then cudaStreamSynchronize), or a one-block kernel K2 (the
 * hardware queue, not the engine). Y ends near D if it went before X, and after K1's end (about 2000 us) if behind
 * it, as X waits for K1. Printed per X, Y and D (medians of reps, us): for the copy, when B's synchronize returned
 * after A's call; for K2, its start less K1's start on %globaltimer; how many reps Y ended or began before K1 ended;
 * B's call, when it began and returned after A's call. X: a pageable H2D of 8 or 32 MiB (the host waits), of
 * 1 MiB (staged: the call returns), a pinned 8 MiB H2D (the control: issued at its call).
 * Build: nvcc -O2 -arch=sm_90 probe-h2d-push.cu -lpthread    Run: probe-h2d-push [reps] */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe-threads.cuh"

enum { PAGE_8M, PAGE_32M, PAGE_1M, PINNED_8M, N_X };
static const char *xname[N_X] = {"pageable H2D 8 MiB", "pageable H2D 32 MiB", "pageable H2D 1 MiB (staged)",
                                 "pinned H2D 8 MiB (control)"};
static size_t bytes_of(int x) { return x == PAGE_32M ? (size_t)32 << 20 : x == PAGE_1M ? (size_t)1 << 20 : (size_t)8 << 20; }
static const double delays[] = {25, 50, 100, 150, 200, 300, 500};
enum { N_D = sizeof delays / sizeof delays[0] };

enum { Y_COPY, Y_KERNEL, N_Y };
static const char *yname[N_Y] = {"Y = pinned H2D 1 MiB, B's synchronize after A's call",
                                 "Y = kernel K2, its start after K1's"};

static cudaStream_t sA, sB;
static char *dA, *dB, *pg, *pin;
static long long *stamps; /* device: K1's start, K2's start */
static volatile int a_began;
static double a_call, b_call, b_ret, b_done, delay;
static int xkind, ykind;
static pthread_barrier_t warm;

static void *thread_a(void *)
{
    CK(cudaStreamQuery(sA)); /* a thread's first call is slow under nsys: warm it before the pair begins */
    pthread_barrier_wait(&warm);
    stamp_spin_k<<<1, 1, 0, sA>>>(stamps, 2000000);
    a_call = now_us();
    a_began = 1;
    CK(cudaMemcpyAsync(dA, xkind == PINNED_8M ? pin : pg, bytes_of(xkind), cudaMemcpyHostToDevice, sA));
    return 0;
}

static void *thread_b(void *)
{
    CK(cudaStreamQuery(sB));
    pthread_barrier_wait(&warm);
    while (!a_began) {
    }
    spin_us(a_call + delay - now_us());
    b_call = now_us();
    if (ykind == Y_COPY) CK(cudaMemcpyAsync(dB, pin + (16 << 20), 1 << 20, cudaMemcpyHostToDevice, sB));
    else stamp_spin_k<<<1, 1, 0, sB>>>(stamps + 1, 1000);
    b_ret = now_us();
    CK(cudaStreamSynchronize(sB));
    b_done = now_us();
    return 0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > 64) return 2;
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&sA, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sB, cudaStreamNonBlocking));
    CK(cudaMalloc(&dA, 32 << 20));
    CK(cudaMalloc(&dB, 1 << 20));
    CK(cudaMalloc(&stamps, 2 * sizeof(long long)));
    CK(cudaMallocHost(&pin, 32 << 20));
    pg = (char *)malloc(32 << 20);
    memset(pg, 1, 32 << 20), memset(pin, 1, 32 << 20);
    stamp_spin_k<<<1, 1, 0, sA>>>(stamps, 1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s: medians of %d (us) [how many reps Y ended (the copy) or began (K2) before K1 ended]; B's call, "
           "began .. returned after A's call\n", c ? c : "unset", reps);
    for (int v = 0; v < N_Y * N_X; v++) {
        ykind = v / N_X, xkind = v % N_X;
        printf("%s; X = %s\n", yname[ykind], xname[xkind]);
        for (int d = 0; d < N_D; d++) {
            delay = delays[d];
            double y[64], bc[64], br[64];
            int early = 0;
            for (int r = -1; r < reps; r++) { /* r = -1: an unmeasured pass, warming the path */
                a_began = 0;
                pthread_barrier_init(&warm, 0, 2);
                pthread_t ta, tb;
                pthread_create(&tb, 0, thread_b, 0);
                pthread_create(&ta, 0, thread_a, 0);
                pthread_join(ta, 0);
                pthread_join(tb, 0);
                CK(cudaDeviceSynchronize());
                pthread_barrier_destroy(&warm);
                if (r < 0) continue;
                long long h[2];
                CK(cudaMemcpy(h, stamps, sizeof h, cudaMemcpyDeviceToHost));
                y[r] = ykind == Y_COPY ? b_done - a_call : (h[1] - h[0]) / 1e3;
                bc[r] = b_call - a_call, br[r] = b_ret - a_call;
                early += y[r] < 1900;
            }
            printf("  D %5.0f  Y %8.1f [%d of %d]  B's call %7.1f .. %7.1f\n", delay, median(y, reps), early, reps,
                   median(bc, reps), median(br, reps));
        }
    }
    return 0;
}
