/* probe-thread-hold.cu (session 26): does the rule of probe-traced-wait hold across host threads? There, a call that
 * found no queue idle did not go behind a held record (a timed event's record behind a running kernel) that was the
 * latest entry: it took the next queue. The model applies that whatever thread made the record; the probe had one.
 * Here L (2 ms) goes on the legacy stream and P (2 ms) on a stream of its own: two queues, neither idle at C=2. Then
 * a record on the legacy stream, behind L, and a kernel X (100 us) on a new stream S. Variants:
 *   no record       X behind nothing that waits: it starts at once;
 *   untimed, same   an untimed record (holds nothing alone), then X, one thread: at once;
 *   timed, same     a timed record (held until L ends), then X from the same thread: at once if X skips the
 *                   record's queue, else about 2 ms, when L ends and the record lets its queue go;
 *   timed, other    the same record, then X from another thread, called once the record returned.
 * Printed: X's start after L's (us), the median over reps. At C=1 the held record's queue is the only one (about
 * 2 ms in the timed variants: the hold's control).
 * Build: nvcc -O2 -arch=sm_90 probe-thread-hold.cu -lpthread    Run: probe-thread-hold [reps], at C = 1 and 2. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe-threads.cuh"

enum { NO_RECORD, UNTIMED_SAME, TIMED_SAME, TIMED_OTHER, N_V, RMAX = 101 };
static const char *vname[N_V] = {"no record", "untimed, same thread", "timed, same thread", "timed, other thread"};
static cudaStream_t sp, sx;
static long long *stamps;
static volatile int go, done;

static void launch_x() { stamp_spin_k<<<1, 1, 0, sx>>>(stamps + 1, 100000); CK(cudaGetLastError()); }

static void *worker(void *)
{
    CK(cudaFree(0)); /* the thread's first call, before any timed one */
    for (;;) {
        while (!go) {}
        go = 0;
        if (done) return 0;
        launch_x();
        __sync_synchronize();
        done = 2; /* X issued */
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 9;
    if (reps < 1 || reps > RMAX) {
        fprintf(stderr, "probe-thread-hold: reps must be 1..%d\n", RMAX);
        return 2;
    }
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cudaEvent_t timed, untimed;
    CK(cudaStreamCreateWithFlags(&sp, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sx, cudaStreamNonBlocking));
    CK(cudaEventCreate(&timed));
    CK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    CK(cudaMalloc(&stamps, 2 * sizeof(long long)));
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    stamp_spin_k<<<1, 1>>>(stamps, 1000); /* load the kernels before the first timed rep */
    spin_k<<<1, 1>>>(1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s, L and P 2 ms each, X 100 us; medians of %d reps\n", c ? c : "8 (unset)", reps);
    printf("| variant | X's start after L's, us |\n|---|---:|\n");
    for (int v = 0; v < N_V; v++) {
        double at[RMAX];
        for (int r = 0; r < reps; r++) {
            stamp_spin_k<<<1, 1, 0, cudaStreamLegacy>>>(stamps, 2000000);
            spin_k<<<1, 1, 0, sp>>>(2000000);
            if (v == UNTIMED_SAME) CK(cudaEventRecord(untimed, cudaStreamLegacy));
            if (v == TIMED_SAME || v == TIMED_OTHER) CK(cudaEventRecord(timed, cudaStreamLegacy));
            if (v == TIMED_OTHER) {
                done = 0;
                __sync_synchronize();
                go = 1;
                while (done != 2) {}
            } else {
                launch_x();
            }
            CK(cudaDeviceSynchronize());
            long long h[2];
            CK(cudaMemcpy(h, stamps, sizeof h, cudaMemcpyDeviceToHost));
            at[r] = (h[1] - h[0]) / 1e3;
        }
        printf("| %s | %.0f |\n", vname[v], median(at, reps));
    }
    done = 1;
    go = 1;
    pthread_join(t, 0);
    return 0;
}
