// Exploration probe 3 for issue 18 (not part of gridlab): pageable pace and the host thread's core, when an event record completes, the gaps between copies and kernels in one stream (read under nsys).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <algorithm>
#include <vector>
#include <sched.h>
#include <unistd.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(3);} } while (0)
__device__ __forceinline__ unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }
__global__ void spin(unsigned long long ns, unsigned long long *st, int slot) {
  unsigned long long t0 = gt(); if (st) st[slot] = t0; while (gt() - t0 < ns) {} if (st) st[slot + 1] = gt(); }
static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static cudaStream_t s[16];
static int cpus_near[256], n_near, cpus_all;

static void read_near()
{
  char bus[64], path[256], buf[512];
  CK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  for (char *c = bus; *c; c++) *c = (char)tolower(*c);
  snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/local_cpulist", bus);
  FILE *f = fopen(path, "r");
  if (!f) { printf("no %s\n", path); return; }
  if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
  fclose(f);
  printf("GPU %s local_cpulist %s", bus, buf);
  for (char *p = buf; *p;) {
    int a = (int)strtol(p, &p, 10), b = a;
    if (*p == '-') b = (int)strtol(p + 1, &p, 10);
    for (int i = a; i <= b && n_near < 256; i++) cpus_near[n_near++] = i;
    if (*p == ',') p++; else break;
  }
  cpus_all = (int)sysconf(_SC_NPROCESSORS_ONLN);
  printf("online cpus %d, near %d\n", cpus_all, n_near);
}

static void pin_to(int cpu)
{
  cpu_set_t set; CPU_ZERO(&set);
  if (cpu < 0) { for (int i = 0; i < cpus_all; i++) CPU_SET(i, &set); }
  else CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set)) perror("sched_setaffinity");
}

static void pageable()
{
  read_near();
  size_t big = 64u << 20;
  char *h = (char *)malloc(big), *d;
  memset(h, 1, big);
  CK(cudaMalloc(&d, big));
  size_t sizes[] = {64u << 10, 256u << 10, 1u << 20, 4u << 20, 16u << 20, 64u << 20};
  int far = -1;
  for (int c = 0; c < cpus_all; c++) { int isnear = 0; for (int i = 0; i < n_near; i++) isnear |= cpus_near[i] == c; if (!isnear) { far = c; break; } }
  struct { const char *name; int cpu; } modes[] = {{"unpinned", -1}, {"near", n_near ? cpus_near[n_near / 2] : 0}, {"far", far}, {"unpinned", -1}};
  for (int pass = 0; pass < 2; pass++)
    for (int m = 0; m < 4; m++) {
      if (modes[m].cpu < -1 || (m == 2 && far < 0)) continue;
      pin_to(modes[m].cpu);
      for (int dir = 0; dir < 2; dir++)
        for (size_t z : sizes) {
          std::vector<double> t;
          for (int r = 0; r < 8; r++) {
            double a = now_us();
            if (dir == 0) CK(cudaMemcpy(d, h, z, cudaMemcpyHostToDevice)); else CK(cudaMemcpy(h, d, z, cudaMemcpyDeviceToHost));
            t.push_back(now_us() - a);
          }
          std::sort(t.begin() + 1, t.end());
          double med = t[4];
          printf("pass %d %-8s cpu %3d %s %8zu KiB: first %8.1f med %8.1f min %8.1f max %8.1f us  med %6.2f GB/s  (on cpu %d)\n",
                 pass, modes[m].name, modes[m].cpu, dir ? "D2H" : "H2D", z >> 10, t[0], med, t[1], t[7], z / med / 1e3,
                 sched_getcpu());
        }
    }
  // a fresh buffer's first copy (program start: pages present but never copied)
  pin_to(-1);
  for (int dir = 0; dir < 2; dir++) {
    char *f = (char *)malloc(big); memset(f, 2, big);
    double a = now_us();
    if (dir == 0) CK(cudaMemcpy(d, f, big, cudaMemcpyHostToDevice)); else CK(cudaMemcpy(f, d, big, cudaMemcpyDeviceToHost));
    double t1 = now_us() - a; a = now_us();
    if (dir == 0) CK(cudaMemcpy(d, f, big, cudaMemcpyHostToDevice)); else CK(cudaMemcpy(f, d, big, cudaMemcpyDeviceToHost));
    printf("fresh 64 MiB %s: first %.1f us, second %.1f us\n", dir ? "D2H" : "H2D", t1, now_us() - a);
    free(f);
  }
}

// when does a record complete: elapsed from a start event recorded first (all queues empty then)
static void records()
{
  cudaEvent_t e0, e[4];
  CK(cudaEventCreate(&e0)); for (int i = 0; i < 4; i++) CK(cudaEventCreate(&e[i]));
  const unsigned long long ms = 1000000ull;
  cudaStream_t A = s[0], B = s[1], X = s[2], Y = s[3];
  const char *names[] = {
    "b  [A: 1,1] [X: rec E0]",
    "c  [A: 1,1] [B: 3,1] [X: rec E0]",
    "d  [X: 1,1] [Y: rec E0] [X: rec E1]",
    "e  [X: 1] [A: 2,1] [X: rec E0] [A: rec E1]",
    "g  [A: 1,1] [legacy: rec E0]",
    "h  [A: 1, D2D 4K] [X: rec E0]",
    "i  [A: 1,1] [B: 1,1] [X: rec E0] [Y: rec E1] [A: rec E2] [B: rec E3]",
    "j  [A: 1,1] [B: 2,1] [C: 3,1] [X: rec E0]",
  };
  char *dbuf; CK(cudaMalloc(&dbuf, 1 << 20));
  for (int c = 0; c < 8; c++) {
    for (int rep = 0; rep < 3; rep++) {
      CK(cudaDeviceSynchronize());
      CK(cudaEventRecord(e0, s[7]));
      int n = 1;
      switch (c) {
      case 0: spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,A>>>(ms, 0, 0); CK(cudaEventRecord(e[0], X)); break;
      case 1: spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,B>>>(3*ms, 0, 0); spin<<<1,1,0,B>>>(ms, 0, 0);
              CK(cudaEventRecord(e[0], X)); break;
      case 2: spin<<<1,1,0,X>>>(ms, 0, 0); spin<<<1,1,0,X>>>(ms, 0, 0); CK(cudaEventRecord(e[0], Y)); CK(cudaEventRecord(e[1], X)); n = 2; break;
      case 3: spin<<<1,1,0,X>>>(ms, 0, 0); spin<<<1,1,0,A>>>(2*ms, 0, 0); spin<<<1,1,0,A>>>(ms, 0, 0);
              CK(cudaEventRecord(e[0], X)); CK(cudaEventRecord(e[1], A)); n = 2; break;
      case 4: spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,A>>>(ms, 0, 0); CK(cudaEventRecord(e[0], 0)); break;
      case 5: spin<<<1,1,0,A>>>(ms, 0, 0); CK(cudaMemcpyAsync(dbuf + 8192, dbuf, 4096, cudaMemcpyDeviceToDevice, A));
              CK(cudaEventRecord(e[0], X)); break;
      case 6: spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,B>>>(ms, 0, 0); spin<<<1,1,0,B>>>(ms, 0, 0);
              CK(cudaEventRecord(e[0], X)); CK(cudaEventRecord(e[1], Y)); CK(cudaEventRecord(e[2], A)); CK(cudaEventRecord(e[3], B)); n = 4; break;
      case 7: spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,A>>>(ms, 0, 0); spin<<<1,1,0,B>>>(2*ms, 0, 0); spin<<<1,1,0,B>>>(ms, 0, 0);
              spin<<<1,1,0,s[4]>>>(3*ms, 0, 0); spin<<<1,1,0,s[4]>>>(ms, 0, 0); CK(cudaEventRecord(e[0], X)); break;
      }
      CK(cudaDeviceSynchronize());
      printf("C=%s %-70s:", getenv("CUDA_DEVICE_MAX_CONNECTIONS"), names[c]);
      for (int i = 0; i < n; i++) { float f; CK(cudaEventElapsedTime(&f, e0, e[i])); printf(" E%d %.3f ms", i, f); }
      printf("\n");
    }
  }
}

// chains for nsys: copy -> kernel -> copy in one stream, and pageable copies, host functions, events
static void CUDART_CB nop(void *) {}
static void gaps()
{
  size_t z = 4u << 20;
  char *hp, *d, *pg = (char *)malloc(16u << 20); memset(pg, 1, 16u << 20);
  CK(cudaMallocHost(&hp, 16u << 20)); CK(cudaMalloc(&d, 32u << 20));
  cudaEvent_t ev; CK(cudaEventCreate(&ev));
  for (int rep = 0; rep < 12; rep++) {
    spin<<<1,1,0,s[0]>>>(50000, 0, 0);
    CK(cudaMemcpyAsync(d, hp, z, cudaMemcpyHostToDevice, s[0]));
    spin<<<1,1,0,s[0]>>>(50000, 0, 0);
    CK(cudaMemcpyAsync(hp, d, z, cudaMemcpyDeviceToHost, s[0]));
    CK(cudaMemcpyAsync(d, hp, z, cudaMemcpyHostToDevice, s[0]));
    CK(cudaMemcpyAsync(d + z, hp + z, z, cudaMemcpyHostToDevice, s[0]));
    spin<<<1,1,0,s[0]>>>(50000, 0, 0);
    spin<<<1,1,0,s[0]>>>(50000, 0, 0);
    CK(cudaMemsetAsync(d, 0, z, s[0]));
    spin<<<1,1,0,s[0]>>>(50000, 0, 0);
    CK(cudaMemcpyAsync(d + z, d, z, cudaMemcpyDeviceToDevice, s[0]));
    spin<<<1,1,0,s[0]>>>(50000, 0, 0);
    CK(cudaEventRecord(ev, s[0]));
    CK(cudaStreamWaitEvent(s[1], ev, 0));
    spin<<<1,1,0,s[1]>>>(50000, 0, 0);
    CK(cudaLaunchHostFunc(s[1], nop, NULL));
    spin<<<1,1,0,s[1]>>>(50000, 0, 0);
    CK(cudaDeviceSynchronize());
  }
  for (int rep = 0; rep < 3; rep++) {
    CK(cudaMemcpyAsync(d, pg, 16u << 20, cudaMemcpyHostToDevice, s[2]));
    CK(cudaMemcpyAsync(d, pg, 1u << 20, cudaMemcpyHostToDevice, s[2]));
    CK(cudaMemcpyAsync(d, pg, 32u << 10, cudaMemcpyHostToDevice, s[2]));
    CK(cudaMemcpyAsync(pg, d, 16u << 20, cudaMemcpyDeviceToHost, s[2]));
    CK(cudaMemcpyAsync(pg, d, 1u << 20, cudaMemcpyDeviceToHost, s[2]));
    CK(cudaDeviceSynchronize());
  }
  printf("gaps done\n");
}

int main(int argc, char **argv)
{
  const char *part = argc > 1 ? argv[1] : "records";
  CK(cudaFree(0));
  for (int i = 0; i < 16; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
  spin<<<1,1,0,s[0]>>>(1000, 0, 0); CK(cudaDeviceSynchronize());
  if (!strcmp(part, "pageable")) pageable();
  else if (!strcmp(part, "records")) records();
  else if (!strcmp(part, "gaps")) gaps();
  return 0;
}
