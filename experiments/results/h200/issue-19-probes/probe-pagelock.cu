/* probe-pagelock.cu (session 14): is pageable staging one at a time across host threads?
 * Thread A: kernel of 2 ms in stream sA, then a copy X in sA (its call waits for the kernel if X blocks the host).
 * Thread B, 200 us later: copy Y in its own idle stream sB. B's call time (and its call's end after A's) tells
 * whether Y waited for A's X. "same": one thread does both. Build: nvcc -O2 -arch=sm_90 probe-pagelock.cu -lpthread
 * Run: probe-pagelock 5 (both threads, every pair), probe-pagelock 5 two h (H2D pairs), probe-pagelock 5 same x. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include "probe-threads.cuh"

struct cp { const char *name; int d2h; int pageable; size_t bytes; };
static const cp kinds[] = {
    {"pageable D2H 1 MiB", 1, 1, 1 << 20}, {"pageable H2D 64 KiB", 0, 1, 64 << 10}, {"pageable H2D 1 MiB", 0, 1, 1 << 20},
    {"pageable H2D 8 MiB", 0, 1, 8 << 20}, {"pinned D2H 1 MiB", 1, 0, 1 << 20}, {"pinned H2D 1 MiB", 0, 0, 1 << 20},
    {"pageable D2H 8 KiB", 1, 1, 8 << 10}, {"pageable H2D 2 MiB", 0, 1, 2 << 20}, {"pageable H2D 128 KiB", 0, 1, 128 << 10},
    {"pageable H2D 1.5 MiB", 0, 1, 3 << 19}, {"pageable H2D 3 MiB", 0, 1, 3 << 20}};
enum { NK = sizeof kinds / sizeof kinds[0] };

static cudaStream_t sA, sB;
static char *dA, *dB, *pinA, *pinB, *pgA, *pgB;

static void copy(const cp &c, cudaStream_t s, char *dev, char *pin, char *pg) {
    char *h = c.pageable ? pg : pin;
    if (c.d2h) CK(cudaMemcpyAsync(h, dev, c.bytes, cudaMemcpyDeviceToHost, s));
    else CK(cudaMemcpyAsync(dev, h, c.bytes, cudaMemcpyHostToDevice, s));
}

static int kx, ky;
static double a_call, a_ret, b_call, b_ret;
static volatile int a_issued;
static void *thread_a(void *) {
    spin_k<<<1, 1, 0, sA>>>(2000000);
    a_issued = 1;
    a_call = now_us(); copy(kinds[kx], sA, dA, pinA, pgA); a_ret = now_us();
    return 0;
}
static int same;
static void *thread_b(void *) {
    if (same) { thread_a(0); spin_us(200); b_call = now_us(); copy(kinds[ky], sB, dB, pinB, pgB); b_ret = now_us(); return 0; }
    while (!a_issued) {}
    spin_us(200);
    b_call = now_us(); copy(kinds[ky], sB, dB, pinB, pgB); b_ret = now_us();
    return 0;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    same = argc > 2 && !strcmp(argv[2], "same");
    const char *only = argc > 3 ? argv[3] : "";
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&sA, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&sB, cudaStreamNonBlocking));
    size_t big = 8 << 20;
    CK(cudaMalloc(&dA, big)); CK(cudaMalloc(&dB, big)); CK(cudaMallocHost(&pinA, big)); CK(cudaMallocHost(&pinB, big));
    pgA = (char *)malloc(big); pgB = (char *)malloc(big); memset(pgA, 1, big); memset(pgB, 2, big);
    for (int i = 0; i < NK; i++) { copy(kinds[i], sA, dA, pinA, pgA); copy(kinds[i], sB, dB, pinB, pgB); }
    spin_k<<<1, 1, 0, sA>>>(1000); CK(cudaDeviceSynchronize());
    printf("%s\n", same ? "one thread: A's kernel and X, then Y" : "two threads");
    printf("B's call (us) and B's call end after A's call end (us), median of %d; A: 2 ms kernel then X in its stream\n", reps);
    printf("%-22s %-22s %10s %10s %10s %12s\n", "A's X", "B's Y", "B call", "B min", "B max", "B end - A end");
    for (kx = 0; kx < NK; kx++) {
        if (kx == 5) continue; // pinned D2H as X is the baseline: it holds nothing of the host
        if (*only == 'h' && (kinds[kx].d2h && kx != 4)) continue;
        for (ky = 0; ky < NK; ky++) {
            if (*only == 'h' && kinds[ky].d2h) continue;
            double v[32], w[32];
            for (int r = 0; r < reps; r++) {
                a_issued = 0;
                pthread_t ta, tb;
                if (same) { thread_b(0); } else {
                pthread_create(&ta, 0, thread_a, 0); pthread_create(&tb, 0, thread_b, 0);
                pthread_join(ta, 0); pthread_join(tb, 0); }
                CK(cudaDeviceSynchronize());
                v[r] = b_ret - b_call; w[r] = b_ret - a_ret;
            }
            std::sort(v, v + reps); std::sort(w, w + reps);
            printf("%-22s %-22s %10.1f %10.1f %10.1f %12.1f\n", kinds[kx].name, kinds[ky].name, v[reps / 2], v[0],
                   v[reps - 1], w[reps / 2]);
        }
    }
    return 0;
}
