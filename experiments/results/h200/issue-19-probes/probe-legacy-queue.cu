/* probe-legacy-queue.cu (written in session 25, run in session 26: probe-legacy-queue.txt. Alone the towers took
 * their queues in every variant; under nsys's event trace, busy+record ran as one queue at C=2, which
 * probe-traced-wait then took apart: a record that holds its queue keeps the next stream out of it). Do other
 * streams' kernels keep out of the hardware queue that holds the legacy stream's unfinished work? A PyTorch job's
 * towers (experiments/torch-job.py: 8 pool streams, 3 GEMMs each, each tower after a record of the legacy stream,
 * whose work is still pending) ran at C=2 as if all in one queue, where the replay's tail rule puts them in both:
 * the replay of its own C=2 recording was -46%. A trial in which other streams skip the queue holding the legacy
 * stream's unfinished work put it at -1.6% (and C=4 from -11.9% to -2.5%); see h200/session25/README.md.
 * One thread, S non-blocking streams ("towers"), each a chain of K one-block kernels of T us (each stamps its start
 * on %globaltimer). Before them, by variant:
 *   idle         nothing on the legacy stream;
 *   busy         a 2 ms one-block kernel L on the legacy stream, the towers not waiting for it;
 *   busy+record  L, then before each tower a record of an event (cudaEventDisableTiming, as PyTorch's) on the
 *                legacy stream that the tower waits for (PyTorch's wait_stream);
 *   idle+record  the records and waits with nothing on the legacy stream.
 * A tower "overlaps" when its first kernel starts before the previous tower's last kernel starts: in one queue a
 * tower's second kernel, waiting for its first, holds the queue's head, so the next tower goes only once the one
 * before it has put its last kernel on the SMs; in queues of their own the towers run side by side. Printed per
 * variant (medians of reps): the towers that overlap the one before them, of S - 1, and the towers' span from the
 * first tower's first start (us). Run at each C: for c in 1 2 4 8; do CUDA_DEVICE_MAX_CONNECTIONS=$c ./probe-legacy-queue; done
 * Build: nvcc -O2 -arch=sm_90 probe-legacy-queue.cu    Run: probe-legacy-queue [reps] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe-threads.cuh"

enum { S = 4, K = 3, T_US = 300, L_US = 2000 };
enum { IDLE, BUSY, BUSY_RECORD, IDLE_RECORD, N_VARIANTS };
static const char *vname[N_VARIANTS] = {"idle", "busy", "busy+record", "idle+record"};

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 9;
    if (reps < 1 || reps > 1000) {
        fprintf(stderr, "probe-legacy-queue: reps must be 1..1000\n");
        return 2;
    }
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cudaStream_t st[S];
    cudaEvent_t ev[S];
    for (int i = 0; i < S; i++) {
        CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
        CK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
    }
    long long *stamps, host[S * K];
    CK(cudaMalloc(&stamps, sizeof host + sizeof(long long)));
    spin_k<<<1, 1>>>(1000); /* load the kernels before the first timed rep */
    stamp_spin_k<<<1, 1>>>(stamps, 1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s, %d towers of %d kernels of %d us, one block each; L = %d us; medians of %d reps\n",
           c ? c : "8 (unset)", S, K, T_US, L_US, reps);
    printf("| legacy stream | towers overlapping the one before, of %d | span from the first tower's start, us |\n",
           S - 1);
    printf("|---|---:|---:|\n");
    for (int v = 0; v < N_VARIANTS; v++) {
        double overlap[1000], span[1000];
        for (int r = 0; r < reps; r++) {
            if (v == BUSY || v == BUSY_RECORD) spin_k<<<1, 1, 0, cudaStreamLegacy>>>((long long)L_US * 1000);
            for (int i = 0; i < S; i++) {
                if (v == BUSY_RECORD || v == IDLE_RECORD) {
                    CK(cudaEventRecord(ev[i], cudaStreamLegacy));
                    CK(cudaStreamWaitEvent(st[i], ev[i], 0));
                }
                for (int k = 0; k < K; k++) stamp_spin_k<<<1, 1, 0, st[i]>>>(stamps + i * K + k, (long long)T_US * 1000);
            }
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(host, stamps, sizeof host, cudaMemcpyDeviceToHost));
            int n;
            tower_span(host, S, K, (long long)T_US * 1000, &n, &span[r]);
            overlap[r] = n;
        }
        printf("| %s | %.0f | %.0f |\n", vname[v], median(overlap, reps), median(span, reps));
    }
    return 0;
}
