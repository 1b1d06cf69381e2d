// Exploration probe 2 for issue 18 (not part of gridlab): where copies, memsets, host functions and lazy loads queue.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(3);} } while (0)
__device__ __forceinline__ unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }
__global__ void spin(unsigned long long ns, unsigned long long *st, int slot) {
  unsigned long long t0 = gt(); st[slot] = t0; while (gt() - t0 < ns) {} st[slot + 1] = gt(); }
__global__ void stamp(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh1(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh2(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh3(unsigned long long *st, int slot) { st[slot] = gt(); }
__global__ void fresh4(unsigned long long *st, int slot) { st[slot] = gt(); }
static unsigned long long *st, *dst;
static double d(int a, int b) { return ((long long)(st[b] - st[a])) / 1e3; }
static cudaStream_t s[40];
static char *dbuf, *hpin, *hpage;
static void CUDART_CB sleep2ms(void *) { usleep(2000); }
enum { H2D, D2H, D2D, MEMSET, H2DPAGE, HOSTFN };
static const char *nm[] = {"H2D", "D2H", "D2D", "memset", "H2D-pageable", "hostfn-2ms"};
static void op(int kind, size_t n, cudaStream_t q) {
  switch (kind) {
  case H2D: CK(cudaMemcpyAsync(dbuf, hpin, n, cudaMemcpyHostToDevice, q)); break;
  case D2H: CK(cudaMemcpyAsync(hpin, dbuf, n, cudaMemcpyDeviceToHost, q)); break;
  case D2D: CK(cudaMemcpyAsync(dbuf + (128u << 20), dbuf, n, cudaMemcpyDeviceToDevice, q)); break;
  case MEMSET: CK(cudaMemsetAsync(dbuf, 0, n, q)); break;
  case H2DPAGE: CK(cudaMemcpyAsync(dbuf, hpage, n, cudaMemcpyHostToDevice, q)); break;
  case HOSTFN: CK(cudaLaunchHostFunc(q, sleep2ms, NULL)); break;
  }
}
int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "queue";
  printf("== %s CONN=%s LOAD=%s\n", part, getenv("CUDA_DEVICE_MAX_CONNECTIONS") ? getenv("CUDA_DEVICE_MAX_CONNECTIONS") : "-",
         getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING") : "-");
  CK(cudaHostAlloc(&st, 128 * 8, cudaHostAllocMapped)); memset(st, 0, 128 * 8); CK(cudaHostGetDevicePointer(&dst, st, 0));
  for (int i = 0; i < 40; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
  size_t big = 256u << 20; hpage = (char *)malloc(big); memset(hpage, 1, big);
  CK(cudaMalloc(&dbuf, big)); CK(cudaHostAlloc(&hpin, big, 0)); memset(hpin, 1, big);
  for (int i = 0; i < 40; i++) { spin<<<1, 1, 0, s[i]>>>(1000, dst, 100); stamp<<<1, 1, 0, s[i]>>>(dst, 102); for (int k = 0; k < 5; k++) op(k, 4096, s[i]); }
  CK(cudaDeviceSynchronize());
  if (!strcmp(part, "queue")) {
    // 1. A: spin 2ms, X; B: stamp.  Does X (blocked behind the spin) hold the head of A's queue for B's kernel?
    size_t sizes[] = {4096, 65536, 1u << 20};
    for (int kind = 0; kind <= HOSTFN; kind++) for (int z = 0; z < 3; z++) {
      if (kind == HOSTFN && z) continue;
      double m[3];
      for (int rep = 0; rep < 3; rep++) {
        spin<<<1, 1, 0, s[0]>>>(2000000, dst, 0); op(kind, sizes[z], s[0]); stamp<<<1, 1, 0, s[1]>>>(dst, 2);
        CK(cudaDeviceSynchronize()); m[rep] = d(0, 2);
      }
      printf(" kernel behind [A: spin 2ms, %-12s %7zu B]: B stamp at %7.1f %7.1f %7.1f us\n", nm[kind], sizes[z], m[0], m[1], m[2]);
    }
    // 2. A: spin 2ms, X; B: Y 4KiB, stamp.  Does B's copy wait for A's blocked X?
    for (int x = 0; x <= MEMSET; x++) for (int y = 0; y <= MEMSET; y++) {
      double m[3];
      for (int rep = 0; rep < 3; rep++) {
        spin<<<1, 1, 0, s[0]>>>(2000000, dst, 0); op(x, 4096, s[0]); op(y, 4096, s[1]); stamp<<<1, 1, 0, s[1]>>>(dst, 2);
        CK(cudaDeviceSynchronize()); m[rep] = d(0, 2);
      }
      printf(" %-6s behind [A: spin 2ms, %-6s]: B's stamp after it at %7.1f %7.1f %7.1f us\n", nm[y], nm[x], m[0], m[1], m[2]);
    }
    // 3. which streams share stream 0's copy queue: s0: spin 2ms, H2D 4K; s1..s32: H2D 4K, stamp
    for (int dir = 0; dir < 2; dir++) {
      spin<<<1, 1, 0, s[0]>>>(2000000, dst, 0); op(dir, 4096, s[0]);
      for (int j = 1; j <= 32; j++) { op(dir, 4096, s[j]); stamp<<<1, 1, 0, s[j]>>>(dst, 2 + j); }
      CK(cudaDeviceSynchronize());
      printf(" %s: streams whose copy+stamp waited for s0's blocked copy:", nm[dir]);
      for (int j = 1; j <= 32; j++) if (d(0, 2 + j) > 1500) printf(" %d", j);
      printf("\n");
    }
    // 4. a kernel behind [A: spin, H2D 64MiB, then nothing]: (copy that runs long, no kernel after it)
    { spin<<<1, 1, 0, s[0]>>>(1000000, dst, 0); op(H2D, 64u << 20, s[0]); stamp<<<1, 1, 0, s[0]>>>(dst, 40); stamp<<<1, 1, 0, s[1]>>>(dst, 41);
      CK(cudaDeviceSynchronize()); printf(" [A: spin 1ms, H2D 64MiB, stamp] [B: stamp]: A stamp %.1f, B stamp %.1f us\n", d(0, 40), d(0, 41)); }
    // 5. a host function: its stream after it, and another stream sharing the queue
    { op(HOSTFN, 0, s[0]); stamp<<<1, 1, 0, s[0]>>>(dst, 50); stamp<<<1, 1, 0, s[1]>>>(dst, 51); stamp<<<1, 1, 0, s[2]>>>(dst, 52);
      CK(cudaDeviceSynchronize()); printf(" [A: hostfn 2ms, stamp] [B: stamp]: A stamp - B stamp %.1f us\n", d(51, 50)); }
  } else if (!strcmp(part, "lazy")) {
    spin<<<1, 1, 0, s[0]>>>(3000000, dst, 0); fresh1<<<1, 1, 0, s[1]>>>(dst, 2); stamp<<<1, 1, 0, s[2]>>>(dst, 3);
    spin<<<1, 1, 0, s[3]>>>(1000000, dst, 4); CK(cudaDeviceSynchronize());
    printf(" [A: spin 3ms] [B: fresh1] [C: stamp] [D: spin 1ms]: fresh1 %.1f, C stamp %.1f, D spin start %.1f us\n", d(0, 2), d(0, 3), d(0, 4));
    op(H2D, big, s[0]); stamp<<<1, 1, 0, s[0]>>>(dst, 10); fresh2<<<1, 1, 0, s[1]>>>(dst, 11); CK(cudaDeviceSynchronize());
    printf(" [A: H2D 256MiB, stamp] [B: fresh2]: fresh2 - A stamp %.1f us\n", d(10, 11));
    // a load while only later work runs: B's spin issued after? fresh3 behind a spin in its own stream, C spin after
    spin<<<1, 1, 0, s[1]>>>(2000000, dst, 20); fresh3<<<1, 1, 0, s[1]>>>(dst, 22); spin<<<1, 1, 0, s[2]>>>(1000000, dst, 23);
    CK(cudaDeviceSynchronize());
    printf(" [B: spin 2ms, fresh3] [C: spin 1ms]: fresh3 %.1f, C spin start %.1f us\n", d(20, 22), d(20, 23));
    // host call cost of a first launch, device idle
    timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a); fresh4<<<1, 1, 0, s[5]>>>(dst, 30); clock_gettime(CLOCK_MONOTONIC, &b);
    CK(cudaDeviceSynchronize()); printf(" first launch, idle device: call %.1f us\n", (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3);
  }
  return 0;
}
