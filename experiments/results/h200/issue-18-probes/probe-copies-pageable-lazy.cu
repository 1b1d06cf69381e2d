// Exploration probe for issue 18 (not part of gridlab): copy queue-head, pageable calls, lazy loading.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(3);} } while (0)
__device__ __forceinline__ unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }
__global__ void spin(unsigned long long ns, unsigned long long *st, int slot) {
  unsigned long long t0 = gt(); if (threadIdx.x == 0 && blockIdx.x == 0) st[slot] = t0;
  while (gt() - t0 < ns) {}
  if (threadIdx.x == 0 && blockIdx.x == 0) st[slot + 1] = gt();
}
__global__ void stamp(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh1(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh2(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh3(unsigned long long *st, int slot) { st[slot] = gt(); }
static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static unsigned long long *st; // mapped pinned
static void rel(const char *what, int a, int b) { printf("  %-40s %9.1f us\n", what, ((long long)(st[b] - st[a])) / 1e3); }

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "head";
  unsigned flags = (argc > 2 && !strcmp(argv[2], "blocking")) ? cudaStreamDefault : cudaStreamNonBlocking;
  printf("== %s  streams=%s  CONN=%s LOAD=%s\n", part, flags ? "non-blocking" : "blocking",
         getenv("CUDA_DEVICE_MAX_CONNECTIONS") ? getenv("CUDA_DEVICE_MAX_CONNECTIONS") : "-",
         getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING") : "-");
  double t_init = now_us(); CK(cudaFree(0)); printf("  init %.0f us\n", now_us() - t_init);
  CK(cudaHostAlloc(&st, 64 * 8, cudaHostAllocMapped)); memset(st, 0, 64 * 8);
  unsigned long long *dst; CK(cudaHostGetDevicePointer(&dst, st, 0));
  cudaStream_t a, b; CK(cudaStreamCreateWithFlags(&a, flags)); CK(cudaStreamCreateWithFlags(&b, flags));
  size_t big = 256u << 20, mid = 64u << 20;
  char *dbuf, *hpin, *hpage = (char *)malloc(big); memset(hpage, 1, big);
  CK(cudaMalloc(&dbuf, big)); CK(cudaHostAlloc(&hpin, big, 0)); memset(hpin, 1, big);
  if (!strcmp(part, "head")) {
    for (int rep = 0; rep < 3; rep++) {
      // warm
      spin<<<1, 32, 0, a>>>(1000, dst, 60); stamp<<<1, 1, 0, b>>>(dst, 62); CK(cudaMemcpyAsync(dbuf, hpin, 4096, cudaMemcpyHostToDevice, a)); CK(cudaDeviceSynchronize());
      printf(" rep %d case a: A: spin 2ms, H2D 64MiB, stamp; B: stamp\n", rep);
      spin<<<1, 32, 0, a>>>(2000000, dst, 0);
      CK(cudaMemcpyAsync(dbuf, hpin, mid, cudaMemcpyHostToDevice, a)); stamp<<<1, 1, 0, a>>>(dst, 2);
      stamp<<<1, 1, 0, b>>>(dst, 3); CK(cudaDeviceSynchronize());
      rel("spin end (from spin start)", 0, 1); rel("A copy end~ (stamp after copy)", 0, 2); rel("B stamp", 0, 3);
      printf(" rep %d case b: A: stamp, H2D 256MiB, stamp; B: stamp (issued after)\n", rep);
      stamp<<<1, 1, 0, a>>>(dst, 4); CK(cudaMemcpyAsync(dbuf, hpin, big, cudaMemcpyHostToDevice, a)); stamp<<<1, 1, 0, a>>>(dst, 5);
      stamp<<<1, 1, 0, b>>>(dst, 6); CK(cudaDeviceSynchronize());
      rel("A copy end~", 4, 5); rel("B stamp", 4, 6);
      printf(" rep %d case c: A: stamp, H2D 256MiB; B: H2D 64MiB, stamp (same direction)\n", rep);
      stamp<<<1, 1, 0, a>>>(dst, 7); CK(cudaMemcpyAsync(dbuf, hpin, big, cudaMemcpyHostToDevice, a)); stamp<<<1, 1, 0, a>>>(dst, 8);
      CK(cudaMemcpyAsync(dbuf, hpin + mid, mid, cudaMemcpyHostToDevice, b)); stamp<<<1, 1, 0, b>>>(dst, 9); CK(cudaDeviceSynchronize());
      rel("A copy end~", 7, 8); rel("B copy end~", 7, 9);
      printf(" rep %d case d: A: stamp, H2D 256MiB; B: D2H 64MiB, stamp (opposite)\n", rep);
      stamp<<<1, 1, 0, a>>>(dst, 10); CK(cudaMemcpyAsync(dbuf, hpin, big, cudaMemcpyHostToDevice, a)); stamp<<<1, 1, 0, a>>>(dst, 11);
      CK(cudaMemcpyAsync(hpin + mid, dbuf + mid, mid, cudaMemcpyDeviceToHost, b)); stamp<<<1, 1, 0, b>>>(dst, 12); CK(cudaDeviceSynchronize());
      rel("A copy end~", 10, 11); rel("B copy end~", 10, 12);
      printf(" rep %d case e: A: spin 2ms, H2D 64MiB; B: H2D 4KiB, stamp (copy behind a blocked copy)\n", rep);
      spin<<<1, 32, 0, a>>>(2000000, dst, 13); CK(cudaMemcpyAsync(dbuf, hpin, mid, cudaMemcpyHostToDevice, a)); stamp<<<1, 1, 0, a>>>(dst, 15);
      CK(cudaMemcpyAsync(dbuf + mid, hpin, 4096, cudaMemcpyHostToDevice, b)); stamp<<<1, 1, 0, b>>>(dst, 16); CK(cudaDeviceSynchronize());
      rel("spin end", 13, 14); rel("A copy end~", 13, 15); rel("B copy+stamp", 13, 16);
    }
  } else if (!strcmp(part, "pageable")) {
    for (int rep = 0; rep < 3; rep++) {
      size_t sz[] = {4096, 1u << 20, mid};
      for (int k = 0; k < 3; k++) for (int dir = 0; dir < 2; dir++) for (int busy = 0; busy < 2; busy++) {
        CK(cudaDeviceSynchronize());
        if (busy) spin<<<1, 32, 0, a>>>(2000000, dst, 20); else stamp<<<1, 1, 0, a>>>(dst, 20);
        CK(cudaStreamSynchronize(b)); stamp<<<1,1,0,b>>>(dst, 30);
        double t0 = now_us();
        if (dir == 0) CK(cudaMemcpyAsync(dbuf, hpage, sz[k], cudaMemcpyHostToDevice, a));
        else CK(cudaMemcpyAsync(hpage, dbuf, sz[k], cudaMemcpyDeviceToHost, a));
        double t1 = now_us();
        stamp<<<1, 1, 0, b>>>(dst, 31);  // B work issued right after the call returns
        stamp<<<1, 1, 0, a>>>(dst, 22);
        CK(cudaDeviceSynchronize()); double t2 = now_us();
        printf(" rep %d pageable %s %8zu B, stream %s: call %8.1f us, call..sync %8.1f us; copy end~ after A start %8.1f us, B stamp after A start %8.1f us\n",
               rep, dir ? "D2H" : "H2D", sz[k], busy ? "busy 2ms" : "idle", t1 - t0, t2 - t1,
               ((long long)(st[22] - st[20])) / 1e3, ((long long)(st[31] - st[20])) / 1e3);
      }
    }
  } else if (!strcmp(part, "lazy")) {
    // stamp and spin are used first (so loaded); fresh1..3 never launched before.
    spin<<<1, 32, 0, a>>>(1000, dst, 40); stamp<<<1, 1, 0, b>>>(dst, 41); CK(cudaDeviceSynchronize());
    printf(" case 1: A: spin 3ms; B: first launch of fresh1\n");
    spin<<<1, 32, 0, a>>>(3000000, dst, 0);
    double t0 = now_us(); fresh1<<<1, 1, 0, b>>>(dst, 2); double t1 = now_us(); CK(cudaDeviceSynchronize());
    printf("  fresh1 call %.1f us\n", t1 - t0); rel("spin end", 0, 1); rel("fresh1 start", 0, 2);
    printf(" case 2: A: spin 3ms; host sleeps 1 ms; B: first launch of fresh2 (spin running)\n");
    spin<<<1, 32, 0, a>>>(3000000, dst, 3);
    { double w = now_us(); while (now_us() - w < 1000) {} }
    t0 = now_us(); fresh2<<<1, 1, 0, b>>>(dst, 5); t1 = now_us(); stamp<<<1, 1, 0, b>>>(dst, 6); CK(cudaDeviceSynchronize());
    printf("  fresh2 call %.1f us\n", t1 - t0); rel("spin end", 3, 4); rel("fresh2 start", 3, 5); rel("B stamp after", 3, 6);
    printf(" case 3: A: spin 3ms; legacy stream: first launch of fresh3\n");
    spin<<<1, 32, 0, a>>>(3000000, dst, 7);
    t0 = now_us(); fresh3<<<1, 1>>>(dst, 9); t1 = now_us(); CK(cudaDeviceSynchronize());
    printf("  fresh3 call %.1f us\n", t1 - t0); rel("spin end", 7, 8); rel("fresh3 start", 7, 9);
    printf(" case 4: second launch of fresh1 behind A spin (loaded now)\n");
    spin<<<1, 32, 0, a>>>(3000000, dst, 10);
    t0 = now_us(); fresh1<<<1, 1, 0, b>>>(dst, 12); t1 = now_us(); CK(cudaDeviceSynchronize());
    printf("  fresh1 call %.1f us\n", t1 - t0); rel("spin end", 10, 11); rel("fresh1 start", 10, 12);
  }
  int ver; cudaRuntimeGetVersion(&ver); printf("  runtime %d\n", ver);
  return 0;
}
