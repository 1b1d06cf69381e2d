/* probe-held-chain.cu (session 23): two questions from validate-replay's random 28 at C=1, where four threads'
 * cudaLaunchHostFunc calls waited 7.6-11.6 ms behind another thread's 45 MB pageable H2D and returned one by one, 65,
 * 656, 785 and 902 us after it, and where two pageable H2D copies the host waited for ran one after the other.
 * Chain: thread A is inside a pageable D2H (1 MiB behind a 3 ms kernel); threads B1, B2 and B3 each call
 * cudaLaunchHostFunc in an idle stream of their own, 300, 600 and 900 us after A's call began. Do they return
 * together once A returns, or one by one, and how far apart? Printed: each B's return less A's return, and less
 * the B's before it (B1: less A's), medians of reps, and how often they returned in the order they called.
 * H2D: thread A's pageable H2D (the host waits for it) behind a 3 ms kernel, thread B's in an idle stream 300 us
 * later: does B's wait for A's copy (the whole H2D staging), and does a pageable D2H? Printed: B's call time and
 * B's return less A's return.
 * Build: nvcc -O2 -arch=sm_90 probe-held-chain.cu -lpthread    Run: probe-held-chain [reps] */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe-threads.cuh"

static void CUDART_CB empty_fn(void *) {}

enum { NB = 3 };
static cudaStream_t sA, sB[NB];
static char *dA, *dB, *pgA, *pgB;
static volatile int a_began;
static double a_call, a_ret, b_call[NB], b_ret[NB];
static int scenario;
static pthread_barrier_t warm;

enum { CHAIN, H2D_8M, H2D_32M, H2D_8M_D2H, N_SCEN };
static const char *sname[N_SCEN] = {"chain: A pageable D2H 1 MiB behind 3 ms kernel; B1-B3 cudaLaunchHostFunc",
    "A pageable H2D 8 MiB behind 3 ms kernel; B pageable H2D 8 MiB, idle stream",
    "A pageable H2D 32 MiB behind 3 ms kernel; B pageable H2D 32 MiB, idle stream",
    "A pageable H2D 8 MiB behind 3 ms kernel; B pageable D2H 8 MiB, idle stream"};
static size_t bytes_of(int s) { return s == H2D_32M ? (size_t)32 << 20 : (size_t)8 << 20; }

static void *thread_a(void *)
{
    CK(cudaStreamQuery(sA)); /* a thread's first call is slow under nsys: warm it before the pair begins */
    pthread_barrier_wait(&warm);
    spin_k<<<1, 1, 0, sA>>>(3000000);
    a_call = now_us();
    a_began = 1;
    if (scenario == CHAIN) CK(cudaMemcpyAsync(pgA, dA, 1 << 20, cudaMemcpyDeviceToHost, sA));
    else CK(cudaMemcpyAsync(dA, pgA, bytes_of(scenario), cudaMemcpyHostToDevice, sA));
    a_ret = now_us();
    return 0;
}

static void *thread_b(void *p)
{
    int i = (int)(long)p;
    CK(cudaStreamQuery(sB[i]));
    pthread_barrier_wait(&warm);
    while (!a_began) {
    }
    spin_us(a_call + 300 * (i + 1) - now_us());
    b_call[i] = now_us();
    if (scenario == CHAIN) CK(cudaLaunchHostFunc(sB[i], empty_fn, 0));
    else if (scenario == H2D_8M_D2H) CK(cudaMemcpyAsync(pgB, dB, bytes_of(scenario), cudaMemcpyDeviceToHost, sB[i]));
    else CK(cudaMemcpyAsync(dB, pgB, bytes_of(scenario), cudaMemcpyHostToDevice, sB[i]));
    b_ret[i] = now_us();
    return 0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > 64) return 2;
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&sA, cudaStreamNonBlocking));
    for (int i = 0; i < NB; i++) CK(cudaStreamCreateWithFlags(&sB[i], cudaStreamNonBlocking));
    CK(cudaMalloc(&dA, 32 << 20));
    CK(cudaMalloc(&dB, 32 << 20));
    pgA = (char *)malloc(32 << 20), pgB = (char *)malloc(32 << 20);
    memset(pgA, 1, 32 << 20), memset(pgB, 1, 32 << 20);
    spin_k<<<1, 1, 0, sA>>>(1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s: medians of %d (us); after A: a B's return less A's return\n", c ? c : "unset", reps);
    for (scenario = 0; scenario < N_SCEN; scenario++) {
        int nb = scenario == CHAIN ? NB : 1, in_order = 0;
        double acall[64], bcall[NB][64], after[NB][64], gap[NB][64];
        for (int r = -1; r < reps; r++) { /* r = -1: an unmeasured pass, warming the path */
            a_began = 0;
            pthread_barrier_init(&warm, 0, nb + 1);
            pthread_t ta, tb[NB];
            for (int i = 0; i < nb; i++) pthread_create(&tb[i], 0, thread_b, (void *)(long)i);
            pthread_create(&ta, 0, thread_a, 0);
            pthread_join(ta, 0);
            for (int i = 0; i < nb; i++) pthread_join(tb[i], 0);
            CK(cudaDeviceSynchronize());
            pthread_barrier_destroy(&warm);
            if (r < 0) continue;
            acall[r] = a_ret - a_call;
            int ok = 1;
            for (int i = 0; i < nb; i++) {
                bcall[i][r] = b_ret[i] - b_call[i], after[i][r] = b_ret[i] - a_ret;
                gap[i][r] = i > 0 ? b_ret[i] - b_ret[i - 1] : b_ret[i] - a_ret;
                if (i > 0 && b_ret[i] < b_ret[i - 1]) ok = 0;
            }
            in_order += ok;
        }
        printf("%s\n  A's call %8.1f\n", sname[scenario], median(acall, reps));
        for (int i = 0; i < nb; i++) {
            double lo, hi;
            std::sort(after[i], after[i] + reps), lo = after[i][0], hi = after[i][reps - 1];
            printf("  B%d's call %8.1f  after A %8.1f [%8.1f..%8.1f]  after the one before %8.1f\n", i + 1,
                   median(bcall[i], reps), after[i][reps / 2], lo, hi, median(gap[i], reps));
        }
        if (nb > 1) printf("  returned in the order called: %d of %d\n", in_order, reps);
    }
    return 0;
}
