/* probe-record-hold.cu - does an event record behind a running kernel hold its hardware queue?
 *
 * With one queue (CUDA_DEVICE_MAX_CONNECTIONS=1): stream A runs a 2 ms kernel and records an event (no timing);
 * then stream B's 50 us kernel is issued. If the record holds the queue until A's kernel ends, B starts about
 * 2000 us after A; if not, at once. Cases: B issued by the same host thread or by another one (which waits on a
 * flag set after the record returned), no record (control), a timed record. Run alone and under nsys with
 * --cuda-event-trace=true and false: validate-replay's multi-threaded recordings at C=1 looked held.
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

enum { CASE_SAME, CASE_THREAD, CASE_NOREC_THREAD, CASE_TIMED_THREAD, CASE_REC_ON_B_THREAD, CASES };
static const char *names[] = {"same thread, record after A", "other thread, record after A",
                              "other thread, no record (control)", "other thread, timed record after A",
                              "other thread, record after B's kernel instead"};

static cudaStream_t sa, sb;
static cudaEvent_t ev, evt;
static unsigned long long *d_t;
static volatile int flag;
static int cur_case;

static void *thread_b(void *arg)
{
    (void)arg;
    CK(cudaSetDevice(0));
    while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) {
    }
    spin<<<1, 32, 0, sb>>>(d_t, 1, 50000ull);
    if (cur_case == CASE_REC_ON_B_THREAD) CK(cudaEventRecord(ev, sb));
    CK(cudaGetLastError());
    return NULL;
}

static double one(int c)
{
    cur_case = c;
    flag = 0;
    pthread_t th;
    int threaded = c != CASE_SAME;
    if (threaded) pthread_create(&th, NULL, thread_b, NULL);
    spin<<<1, 32, 0, sa>>>(d_t, 0, 2000000ull);
    if (c == CASE_SAME || c == CASE_THREAD) CK(cudaEventRecord(ev, sa));
    if (c == CASE_TIMED_THREAD) CK(cudaEventRecord(evt, sa));
    if (threaded) {
        __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
        pthread_join(th, NULL);
    } else {
        spin<<<1, 32, 0, sb>>>(d_t, 1, 50000ull);
    }
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
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    CK(cudaEventCreate(&evt));
    CK(cudaMalloc(&d_t, 4 * sizeof(unsigned long long)));
    const char *cenv = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    printf("CUDA_DEVICE_MAX_CONNECTIONS=%s\n", cenv ? cenv : "(unset)");
    for (int c = 0; c < CASES; c++) one(c); /* warm up */
    for (int c = 0; c < CASES; c++) {
        double v[15];
        for (int r = 0; r < 15; r++) v[r] = one(c);
        qsort(v, 15, sizeof *v, cmp);
        printf("%-48s B starts after A: min %8.1f  median %8.1f  max %8.1f us\n", names[c], v[0], v[7], v[14]);
    }
    return 0;
}
