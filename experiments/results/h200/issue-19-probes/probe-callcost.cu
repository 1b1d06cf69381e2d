/* probe-callcost.cu (session 29): does what a CUDA call costs the host depend on CUDA_DEVICE_MAX_CONNECTIONS?
 * jacobiCudaGraphs under nsys (session 28) returned from its 2955 cudaStreamSynchronize calls in 1.6-1.7 us at C=1
 * and 2.5-3.4 us at C=16 and 32, and its recordings' spans split 76-79 ms against 91-109 ms by the host's pace.
 * One process at the C its environment gives, no tracer: after 300 rounds of warm-up, 3000 rounds of one-thread
 * empty kernels, each call timed by the host's clock; printed, the median of each kind (us):
 *   launch, launch_blocking_stream   a launch into a non-blocking / a cudaStreamCreate stream;
 *   sync_after_launch, sync_idle     cudaStreamSynchronize right after a launch, and again at once (nothing left);
 *   graph_launch, graph_sync          cudaGraphLaunch of three kernels, and the stream sync after it;
 *   record                            cudaEventRecord on an idle stream;
 *   device_sync_*, event_sync_*       cudaDeviceSynchronize, cudaEventSynchronize, after a launch and again;
 *   back_to_back                      a launch among 100 in a row (20 such rows).
 * Run it at each C as separate processes, the settings taking turns (a process's own pace varies, probe-numa).
 * Build: nvcc -O2 -arch=sm_90 probe-callcost.cu    Run: CUDA_DEVICE_MAX_CONNECTIONS=C probe-callcost */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 3000, WARM = 300, KINDS = 12 };
static const char *const names[KINDS] = {"launch", "sync_after_launch", "sync_idle", "graph_launch", "graph_sync",
                                         "record", "launch_blocking_stream", "device_sync_after_launch",
                                         "device_sync_idle", "event_sync_after_launch", "event_sync_idle",
                                         "back_to_back"};
static double took[KINDS][ROUNDS];

__global__ void empty(void) {}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_us(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2] / 1e3;
}

int main(void)
{
    cudaStream_t s, sb;
    cudaEvent_t e;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamCreate(&sb);
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    empty<<<1, 1, 0, s>>>();
    cudaDeviceSynchronize();
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int i = 0; i < 3; i++) empty<<<1, 1, 0, s>>>();
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, 0);
    for (int i = 0; i < WARM + ROUNDS; i++) {
        double t[14];
        t[0] = now_ns(), empty<<<1, 1, 0, s>>>(), t[1] = now_ns();
        cudaStreamSynchronize(s), t[2] = now_ns();
        cudaStreamSynchronize(s), t[3] = now_ns();
        cudaGraphLaunch(ge, s), t[4] = now_ns();
        cudaStreamSynchronize(s), t[5] = now_ns();
        cudaEventRecord(e, s), t[6] = now_ns();
        empty<<<1, 1, 0, sb>>>(), t[7] = now_ns();
        cudaStreamSynchronize(sb);
        empty<<<1, 1, 0, s>>>(), t[8] = now_ns();
        cudaDeviceSynchronize(), t[9] = now_ns();
        cudaDeviceSynchronize(), t[10] = now_ns();
        empty<<<1, 1, 0, s>>>(), cudaEventRecord(e, s), t[11] = now_ns();
        cudaEventSynchronize(e), t[12] = now_ns();
        cudaEventSynchronize(e), t[13] = now_ns();
        if (i < WARM) continue;
        int k = i - WARM;
        took[0][k] = t[1] - t[0], took[1][k] = t[2] - t[1], took[2][k] = t[3] - t[2], took[3][k] = t[4] - t[3];
        took[4][k] = t[5] - t[4], took[5][k] = t[6] - t[5], took[6][k] = t[7] - t[6], took[7][k] = t[9] - t[8];
        took[8][k] = t[10] - t[9], took[9][k] = t[12] - t[11], took[10][k] = t[13] - t[12];
    }
    for (int j = 0; j < 20; j++) {
        double t0 = now_ns();
        for (int i = 0; i < 100; i++) empty<<<1, 1, 0, s>>>();
        took[11][j] = (now_ns() - t0) / 100;
        cudaStreamSynchronize(s);
    }
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    printf("C=%-2s", c ? c : "-");
    for (int k = 0; k < KINDS; k++) printf(" %s %.2f", names[k], median_us(took[k], k == 11 ? 20 : ROUNDS));
    printf(" err=%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
