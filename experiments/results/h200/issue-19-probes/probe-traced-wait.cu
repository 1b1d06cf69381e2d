/* probe-traced-wait.cu (session 26): why did probe-legacy-queue's towers run as one queue at C=2 under nsys
 * (--cuda-event-trace=true) and not alone? Which part of "each tower waits for a record on a busy legacy stream"
 * does it: the legacy stream, the records being pending, one record per tower, or records issued between the
 * towers? One thread, S non-blocking streams ("towers"), each a chain of K one-block kernels of T us (each stamps
 * its start on %globaltimer), after a 2 ms one-block kernel L. Scenes:
 *   legacy, rec each   L on the legacy stream; before each tower a record on it that the tower waits for
 *                      (PyTorch's wait_stream: what probe-legacy-queue's busy+record did);
 *   other, rec each    the same with L and the records on a non-blocking stream P;
 *   legacy, one rec    L, one record on the legacy stream, every tower waits for it;
 *   legacy, recs first L, then all S records, then the S towers, each waiting for its own;
 *   legacy, no wait    L, and the towers wait for nothing.
 * Printed per scene: the median over reps of the towers' span from the first tower's first start (us), of the
 * towers that start before the one before them has started its last kernel (of S - 1), and for the rep of the
 * median span each tower's first start after the first tower's (us). One queue gives span (S-1)*(K-1)*T + K*T
 * and no overlap; S queues give K*T.
 * With "timed" as the third argument the events are cudaEventDefault's (timed: a record behind a running kernel
 * holds its queue alone too, probe-record-hold), else cudaEventDisableTiming's, as PyTorch's.
 * Build: nvcc -O2 -arch=sm_90 probe-traced-wait.cu    Run: probe-traced-wait [towers] [reps] [timed], at each C. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe-threads.cuh"

enum { SMAX = 16, K = 3, T_US = 300, L_US = 2000, RMAX = 101 };
enum { LEG_EACH, OTHER_EACH, LEG_ONE, LEG_FIRST, LEG_NOWAIT, N_SCENES };
static const char *sname[N_SCENES] = {"legacy, rec each", "other, rec each", "legacy, one rec", "legacy, recs first",
                                      "legacy, no wait"};

int main(int argc, char **argv)
{
    int S = argc > 1 ? atoi(argv[1]) : 6, reps = argc > 2 ? atoi(argv[2]) : 7;
    int timed = argc > 3 && !strcmp(argv[3], "timed");
    if (S < 2 || S > SMAX || reps < 1 || reps > RMAX || (argc > 3 && !timed)) {
        fprintf(stderr, "probe-traced-wait: towers must be 2..%d, reps 1..%d, and the third argument 'timed' or none\n",
                SMAX, RMAX);
        return 2;
    }
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cudaStream_t st[SMAX], p;
    cudaEvent_t ev[SMAX];
    CK(cudaStreamCreateWithFlags(&p, cudaStreamNonBlocking));
    for (int i = 0; i < S; i++) {
        CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
        CK(cudaEventCreateWithFlags(&ev[i], timed ? cudaEventDefault : cudaEventDisableTiming));
    }
    long long *stamps, host[SMAX * K];
    CK(cudaMalloc(&stamps, sizeof host));
    spin_k<<<1, 1>>>(1000); /* load the kernels before the first timed rep */
    stamp_spin_k<<<1, 1>>>(stamps, 1000);
    CK(cudaDeviceSynchronize());
    printf("C=%s, %d towers of %d kernels of %d us, one block each, after L = %d us; %s events; medians of %d reps\n",
           c ? c : "8 (unset)", S, K, T_US, L_US, timed ? "timed" : "untimed", reps);
    printf("one queue: span %d us; %d queues: %d us\n", ((S - 1) * (K - 1) + K) * T_US, S, K * T_US);
    printf("| scene | span us | overlapping, of %d | first starts, us |\n|---|---:|---:|---|\n", S - 1);
    for (int v = 0; v < N_SCENES; v++) {
        double span[RMAX], overlap[RMAX], sorted[RMAX];
        static long long firsts[RMAX][SMAX];
        for (int r = 0; r < reps; r++) {
            cudaStream_t rs = v == OTHER_EACH ? p : cudaStreamLegacy;
            spin_k<<<1, 1, 0, rs>>>((long long)L_US * 1000);
            if (v == LEG_ONE) CK(cudaEventRecord(ev[0], rs));
            if (v == LEG_FIRST)
                for (int i = 0; i < S; i++) CK(cudaEventRecord(ev[i], rs));
            for (int i = 0; i < S; i++) {
                if (v == LEG_EACH || v == OTHER_EACH) CK(cudaEventRecord(ev[i], rs));
                if (v == LEG_ONE) CK(cudaStreamWaitEvent(st[i], ev[0], 0));
                if (v == LEG_EACH || v == OTHER_EACH || v == LEG_FIRST) CK(cudaStreamWaitEvent(st[i], ev[i], 0));
                for (int k = 0; k < K; k++) stamp_spin_k<<<1, 1, 0, st[i]>>>(stamps + i * K + k, (long long)T_US * 1000);
            }
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(host, stamps, S * K * sizeof(long long), cudaMemcpyDeviceToHost));
            int n;
            long long first = tower_span(host, S, K, (long long)T_US * 1000, &n, &span[r]);
            for (int i = 0; i < S; i++) firsts[r][i] = host[i * K] - first;
            overlap[r] = n;
            sorted[r] = span[r];
        }
        double ms = median(sorted, reps);
        int at = 0;
        for (int r = 0; r < reps; r++)
            if (span[r] == ms) at = r;
        printf("| %s | %.0f | %.0f |", sname[v], ms, median(overlap, reps));
        for (int i = 0; i < S; i++) printf(" %.0f", firsts[at][i] / 1e3);
        printf(" |\n");
    }
    return 0;
}
