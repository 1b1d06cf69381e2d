/* probe-hostfn-block.cu (session 14): does a CUDA call on another stream block while a host function runs or waits?
 * From the same thread and from a new one. Build: nvcc -O2 -arch=sm_90 probe-hostfn-block.cu -lpthread */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include "probe-threads.cuh"

__global__ void empty_k() {}

struct hold { double us, start, end; };
static void CUDART_CB hold_fn(void *p) { hold *h = (hold *)p; h->start = now_us(); spin_us(h->us); h->end = now_us(); }
static void CUDART_CB empty_fn(void *) {}
static void CUDART_CB empty_cb(cudaStream_t, cudaError_t, void *) {}

static cudaStream_t s1, s2, s3;
static cudaEvent_t ev_done, ev2;
static char *dbuf, *pinned, *pageable;

enum { A_KERNEL, A_RECORD, A_COPY_PINNED, A_MEMSET, A_HOSTFN, A_CALLBACK, A_WAIT, A_QUERY_EV, A_QUERY_ST, A_COPY_PAGEABLE,
       A_COPY_PAGEABLE_D2H, A_N };
static const char *aname[A_N] = {"cudaLaunchKernel", "cudaEventRecord", "cudaMemcpyAsync pinned 4K", "cudaMemsetAsync",
    "cudaLaunchHostFunc", "cudaStreamAddCallback", "cudaStreamWaitEvent", "cudaEventQuery", "cudaStreamQuery",
    "cudaMemcpyAsync pageable H2D 4K", "cudaMemcpyAsync pageable D2H 4K"};

static double call(int a) {
    double t0 = now_us();
    switch (a) {
    case A_KERNEL: empty_k<<<1, 32, 0, s2>>>(); break;
    case A_RECORD: CK(cudaEventRecord(ev2, s2)); break;
    case A_COPY_PINNED: CK(cudaMemcpyAsync(dbuf, pinned, 4096, cudaMemcpyHostToDevice, s2)); break;
    case A_MEMSET: CK(cudaMemsetAsync(dbuf, 0, 4096, s2)); break;
    case A_HOSTFN: CK(cudaLaunchHostFunc(s2, empty_fn, 0)); break;
    case A_CALLBACK: CK(cudaStreamAddCallback(s2, empty_cb, 0, 0)); break;
    case A_WAIT: CK(cudaStreamWaitEvent(s2, ev_done, 0)); break;
    case A_QUERY_EV: cudaEventQuery(ev_done); break;
    case A_QUERY_ST: cudaStreamQuery(s2); break;
    case A_COPY_PAGEABLE: CK(cudaMemcpyAsync(dbuf, pageable, 4096, cudaMemcpyHostToDevice, s2)); break;
    case A_COPY_PAGEABLE_D2H: CK(cudaMemcpyAsync(pageable, dbuf, 4096, cudaMemcpyDeviceToHost, s2)); break;
    }
    return now_us() - t0;
}

// scenarios: what s1 holds when the call on s2 is made, 300 us after s1's work was issued
enum { S_IDLE, S_FN_RUNNING, S_FN_PENDING, S_KERNEL_ONLY, S_FN_RUNNING_S3_BUSY, S_N };
static const char *sname[S_N] = {"idle", "hostfn running (3 ms spin)", "hostfn pending (behind 3 ms kernel)",
    "3 ms kernel only", "hostfn running, call's stream behind 3 ms kernel"};
static hold H;
static double from_thread_result;
static int thread_api;

static void setup(int sc) {
    H.us = 3000; H.start = H.end = 0;
    if (sc == S_FN_RUNNING) CK(cudaLaunchHostFunc(s1, hold_fn, &H));
    if (sc == S_FN_PENDING) { spin_k<<<1, 1, 0, s1>>>(3000000); CK(cudaLaunchHostFunc(s1, empty_fn, 0)); }
    if (sc == S_KERNEL_ONLY) spin_k<<<1, 1, 0, s1>>>(3000000);
    if (sc == S_FN_RUNNING_S3_BUSY) { CK(cudaLaunchHostFunc(s1, hold_fn, &H)); spin_k<<<1, 1, 0, s2>>>(3000000); }
    spin_us(300);
}
static void *thread_main(void *) { from_thread_result = call(thread_api); return 0; }

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
    CK(cudaEventCreate(&ev_done)); CK(cudaEventCreate(&ev2));
    CK(cudaMalloc(&dbuf, 1 << 20)); CK(cudaMallocHost(&pinned, 1 << 20)); pageable = (char *)malloc(1 << 20);
    memset(pageable, 1, 1 << 20);
    CK(cudaEventRecord(ev_done, s3));
    spin_k<<<1, 1, 0, s1>>>(1000); empty_k<<<1, 32>>>(); CK(cudaDeviceSynchronize());
    for (int a = 0; a < A_N; a++) call(a); // warm every path
    CK(cudaDeviceSynchronize());
    printf("%-50s", "call's time (us, median of reps; same thread / other thread)");
    for (int sc = 0; sc < S_N; sc++) printf(" | %s", sname[sc]);
    printf("\n");
    for (int a = 0; a < A_N; a++) {
        printf("%-34s", aname[a]);
        for (int sc = 0; sc < S_N; sc++) {
            double v[64], w[64], fnlate[64];
            for (int r = 0; r < reps; r++) {
                setup(sc); v[r] = call(a); fnlate[r] = H.start; CK(cudaDeviceSynchronize());
                setup(sc); thread_api = a; pthread_t th; pthread_create(&th, 0, thread_main, 0); pthread_join(th, 0);
                w[r] = from_thread_result; CK(cudaDeviceSynchronize());
            }
            std::sort(v, v + reps); std::sort(w, w + reps);
            printf(" | %8.1f %8.1f [%6.1f..%6.1f]", v[reps / 2], w[reps / 2], v[0], v[reps - 1]);
        }
        printf("\n");
    }
    // the host function's own start after its launch, when idle
    double t0 = now_us(); H.us = 10; CK(cudaLaunchHostFunc(s1, hold_fn, &H)); CK(cudaStreamSynchronize(s1));
    printf("idle hostfn start after launch: %.1f us\n", H.start - t0);
    return 0;
}
