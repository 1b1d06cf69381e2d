/* probe-pageable-hostfn.cu (session 18): does a call on another thread wait while a thread is inside a pageable
 * copy call the host waits for? validate-replay's random programs, under nsys, show cudaLaunchHostFunc calls that
 * took milliseconds whenever another thread was inside a pageable D2H or a pageable H2D over 2 MiB (294 of 316 at
 * C=1), and returned after it; kernels, records, pinned copies and memsets beside such calls did not wait.
 * Thread A: in stream sA, what the scenario holds (a 3 ms kernel, then its call). Thread B, 300 us after A's call
 * began: one call in its own idle stream sB. Prints B's call time, and B's return less A's return (negative: B
 * returned first), medians of reps. Build: nvcc -O2 -arch=sm_90 probe-pageable-hostfn.cu -lpthread
 * Run: probe-pageable-hostfn [reps] */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "probe-threads.cuh"

__global__ void empty_k() {}
static void CUDART_CB empty_fn(void *) {}
static void CUDART_CB empty_cb(cudaStream_t, cudaError_t, void *) {}
struct hold { double us; };
static void CUDART_CB hold_fn(void *p) { spin_us(((hold *)p)->us); }

enum { A_PG_D2H_HELD, A_PG_H2D_8M_HELD, A_PG_H2D_1M_HELD, A_PG_D2H_64M, A_SYNC_COPY_HELD, A_STREAM_SYNC_HELD,
       A_HOSTFN_RUNNING, A_N };
static const char *aname[A_N] = {"pageable D2H 1 MiB behind 3 ms kernel", "pageable H2D 8 MiB behind 3 ms kernel",
    "pageable H2D 1 MiB behind 3 ms kernel (staged)", "pageable D2H 64 MiB, idle stream",
    "cudaMemcpy pinned D2H 1 MiB behind 3 ms kernel", "cudaStreamSynchronize behind 3 ms kernel",
    "host function spinning 3 ms (A: launch)"};
enum { B_HOSTFN, B_CALLBACK, B_KERNEL, B_RECORD, B_PINNED, B_PG_H2D_4K, B_PG_D2H_4K, B_N };
static const char *bname[B_N] = {"cudaLaunchHostFunc", "cudaStreamAddCallback", "cudaLaunchKernel", "cudaEventRecord",
    "cudaMemcpyAsync pinned H2D 4K", "cudaMemcpyAsync pageable H2D 4K", "cudaMemcpyAsync pageable D2H 4K"};

static cudaStream_t sA, sB;
static cudaEvent_t evB;
static char *dA, *dB, *pinA, *pinB, *pgA, *pgB;
static int which_a, which_b;
static volatile int a_began;
static double a_call, a_ret, b_call, b_ret;
static hold H = {3000};

static void *thread_a(void *)
{
    if (which_a != A_PG_D2H_64M && which_a != A_HOSTFN_RUNNING) spin_k<<<1, 1, 0, sA>>>(3000000);
    a_call = now_us();
    a_began = 1;
    switch (which_a) {
    case A_PG_D2H_HELD: CK(cudaMemcpyAsync(pgA, dA, 1 << 20, cudaMemcpyDeviceToHost, sA)); break;
    case A_PG_H2D_8M_HELD: CK(cudaMemcpyAsync(dA, pgA, 8 << 20, cudaMemcpyHostToDevice, sA)); break;
    case A_PG_H2D_1M_HELD: CK(cudaMemcpyAsync(dA, pgA, 1 << 20, cudaMemcpyHostToDevice, sA)); break;
    case A_PG_D2H_64M: CK(cudaMemcpyAsync(pgA, dA, 64 << 20, cudaMemcpyDeviceToHost, sA)); break;
    case A_SYNC_COPY_HELD: CK(cudaMemcpy(pinA, dA, 1 << 20, cudaMemcpyDeviceToHost)); break;
    case A_STREAM_SYNC_HELD: CK(cudaStreamSynchronize(sA)); break;
    case A_HOSTFN_RUNNING: CK(cudaLaunchHostFunc(sA, hold_fn, &H)); break;
    }
    a_ret = now_us();
    return 0;
}

static void *thread_b(void *)
{
    while (!a_began) {
    }
    spin_us(a_call + 300 - now_us());
    b_call = now_us();
    switch (which_b) {
    case B_HOSTFN: CK(cudaLaunchHostFunc(sB, empty_fn, 0)); break;
    case B_CALLBACK: CK(cudaStreamAddCallback(sB, empty_cb, 0, 0)); break;
    case B_KERNEL: empty_k<<<1, 32, 0, sB>>>(); CK(cudaGetLastError()); break;
    case B_RECORD: CK(cudaEventRecord(evB, sB)); break;
    case B_PINNED: CK(cudaMemcpyAsync(dB, pinB, 4096, cudaMemcpyHostToDevice, sB)); break;
    case B_PG_H2D_4K: CK(cudaMemcpyAsync(dB, pgB, 4096, cudaMemcpyHostToDevice, sB)); break;
    case B_PG_D2H_4K: CK(cudaMemcpyAsync(pgB, dB, 4096, cudaMemcpyDeviceToHost, sB)); break;
    }
    b_ret = now_us();
    return 0;
}

/* One pair: both threads new, as event-programs' workers are (a thread's first call is slow under nsys), so each
 * first makes a warm-up call of its own, and the pair begins once both have. */
static pthread_barrier_t both_warm;
static void *warm_a(void *p) { CK(cudaStreamQuery(sA)); pthread_barrier_wait(&both_warm); return thread_a(p); }
static void *warm_b(void *p) { CK(cudaStreamQuery(sB)); pthread_barrier_wait(&both_warm); return thread_b(p); }

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > 64) return 2;
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    CK(cudaSetDevice(0));
    pthread_barrier_init(&both_warm, 0, 2);
    CK(cudaStreamCreateWithFlags(&sA, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sB, cudaStreamNonBlocking));
    CK(cudaEventCreate(&evB));
    CK(cudaMalloc(&dA, 64 << 20));
    CK(cudaMalloc(&dB, 1 << 20));
    CK(cudaMallocHost(&pinA, 1 << 20));
    CK(cudaMallocHost(&pinB, 1 << 20));
    pgA = (char *)malloc(64 << 20), pgB = (char *)malloc(1 << 20);
    memset(pgA, 1, 64 << 20), memset(pgB, 1, 1 << 20);
    spin_k<<<1, 1, 0, sA>>>(1000), empty_k<<<1, 32, 0, sB>>>();
    CK(cudaDeviceSynchronize());
    printf("C=%s: B's call (us) and B's return less A's return (us), medians of %d; A's call time after the name\n",
           c ? c : "unset", reps);
    for (which_a = 0; which_a < A_N; which_a++) {
        for (which_b = -1; which_b < B_N; which_b++) {
            int wb = which_b < 0 ? B_HOSTFN : which_b; /* -1: an unmeasured first pass, warming the path */
            double call[64], after[64], acall[64];
            for (int r = 0; r < reps; r++) {
                int save = which_b;
                which_b = wb;
                a_began = 0;
                pthread_t ta, tb;
                pthread_create(&tb, 0, warm_b, 0);
                pthread_create(&ta, 0, warm_a, 0);
                pthread_join(ta, 0), pthread_join(tb, 0);
                CK(cudaDeviceSynchronize());
                which_b = save;
                call[r] = b_ret - b_call, after[r] = b_ret - a_ret, acall[r] = a_ret - a_call;
            }
            if (which_b < 0) continue;
            std::sort(call, call + reps), std::sort(after, after + reps), std::sort(acall, acall + reps);
            printf("%-48s A %7.1f | %-32s %8.1f [%8.1f..%8.1f]  after A %8.1f\n", aname[which_a], acall[reps / 2],
                   bname[which_b], call[reps / 2], call[0], call[reps - 1], after[reps / 2]);
        }
    }
    return 0;
}
