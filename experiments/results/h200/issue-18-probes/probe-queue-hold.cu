/* probe-queue-hold.cu - which entries hold the one queue behind a running kernel: a wait, a memset, a D2D?
 *
 * With one queue: stream A runs a 2 ms kernel; then what each case puts in the queue; then stream B's 50 us
 * kernel. B starts about 2000 us after A where something between held the queue (or B's own stream waited).
 * validate-replay's random 13 at C=1 under nsys: a memset waited for another stream's running kernel, and a
 * kernel behind [kernel, untimed record] of another stream, with a wait on that record issued after, waited too.
 * Prints, per case, B's start less A's start over 15 runs (min, median, max, us).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                           \
            exit(3);                                                                                           \
        }                                                                                                      \
    } while (0)

__global__ void spin(unsigned long long *t, int slot, unsigned long long ns)
{
    unsigned long long a, b;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(a));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(b));
    } while (b - a < ns);
    t[2 * slot] = a;
    t[2 * slot + 1] = b;
}


enum { C_CONTROL, C_WAIT, C_WAIT_THREAD, C_MEMSET_OWN, C_MEMSET_OTHER, C_D2D_OWN, C_REC_WAITED, CASES };
static const char *names[] = {"control: A's 2 ms kernel, then B's kernel",
                              "C waits for A's record, then B's kernel",
                              "C (another thread) waits for A's record, then B's kernel",
                              "B: 4 KiB memset, then B's kernel",
                              "C: 4 KiB memset, then B's kernel",
                              "B: 4 KiB D2D, then B's kernel",
                              "A's record, B's kernel, then C waits for A's record"};

static cudaStream_t sa, sb, sc;
static cudaEvent_t ev;
static unsigned long long *d_t;
static char *d_buf;
static volatile int flag;

static void *thread_c(void *arg)
{
    (void)arg;
    CK(cudaSetDevice(0));
    CK(cudaStreamWaitEvent(sc, ev, 0));
    __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
    return NULL;
}

static double one(int c)
{
    flag = 0;
    pthread_t th;
    spin<<<1, 32, 0, sa>>>(d_t, 0, 2000000ull);
    if (c == C_WAIT || c == C_WAIT_THREAD || c == C_REC_WAITED) CK(cudaEventRecord(ev, sa));
    if (c == C_WAIT) CK(cudaStreamWaitEvent(sc, ev, 0));
    if (c == C_WAIT_THREAD) {
        pthread_create(&th, NULL, thread_c, NULL);
        while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) {
        }
        pthread_join(th, NULL);
    }
    if (c == C_MEMSET_OWN) CK(cudaMemsetAsync(d_buf, 0, 4096, sb));
    if (c == C_MEMSET_OTHER) CK(cudaMemsetAsync(d_buf, 0, 4096, sc));
    if (c == C_D2D_OWN) CK(cudaMemcpyAsync(d_buf + 4096, d_buf, 4096, cudaMemcpyDeviceToDevice, sb));
    spin<<<1, 32, 0, sb>>>(d_t, 1, 50000ull);
    if (c == C_REC_WAITED) CK(cudaStreamWaitEvent(sc, ev, 0));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long h[4];
    CK(cudaMemcpy(h, d_t, sizeof h, cudaMemcpyDeviceToHost));
    return ((double)h[2] - (double)h[0]) / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sc, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    CK(cudaMalloc(&d_t, 4 * sizeof(unsigned long long)));
    CK(cudaMalloc(&d_buf, 8192));
    const char *cenv = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    printf("CUDA_DEVICE_MAX_CONNECTIONS=%s\n", cenv ? cenv : "(unset)");
    for (int c = 0; c < CASES; c++) one(c); /* warm up */
    for (int c = 0; c < CASES; c++) {
        double v[15];
        for (int r = 0; r < 15; r++) v[r] = one(c);
        qsort(v, 15, sizeof *v, cmp);
        printf("%-60s B starts after A: min %8.1f  median %8.1f  max %8.1f us\n", names[c], v[0], v[7], v[14]);
    }
    return 0;
}
