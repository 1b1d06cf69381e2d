// Do the waits inside other calls cost more per connection, as the synchronize calls do? medians in us.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__global__ void empty(void) {}
static double now_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
enum { N = 3000, W = 300, K = 5 };
static double v[K][N];
int main(void) {
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t e; cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  int *d, *hp, hv; cudaMalloc(&d, 64); cudaMallocHost(&hp, 64);
  empty<<<1, 1, 0, s>>>(); cudaDeviceSynchronize();
  for (int i = 0; i < W + N; i++) {
    double t[10];
    t[0] = now_ns(); empty<<<1, 1, 0, s>>>(); t[1] = now_ns(); cudaStreamSynchronize(s); t[2] = now_ns();
    empty<<<1, 1, 0, 0>>>(); t[3] = now_ns(); cudaMemcpy(&hv, d, 4, cudaMemcpyDeviceToHost); t[4] = now_ns();
    empty<<<1, 1, 0, 0>>>(); t[5] = now_ns(); cudaMemcpy(hp, d, 4, cudaMemcpyDeviceToHost); t[6] = now_ns();
    empty<<<1, 1, 0, s>>>(); cudaEventRecord(e, s); t[7] = now_ns(); while (cudaEventQuery(e) != cudaSuccess) {} t[8] = now_ns();
    cudaMemcpy(&hv, d, 4, cudaMemcpyDeviceToHost); t[9] = now_ns();
    if (i < W) continue;
    int k = i - W;
    v[0][k] = t[2] - t[1]; v[1][k] = t[4] - t[3]; v[2][k] = t[6] - t[5]; v[3][k] = t[8] - t[7]; v[4][k] = t[9] - t[8];
  }
  const char *names[K] = {"stream_sync_after_launch", "memcpy_pageable_d2h_after_launch", "memcpy_pinned_d2h_after_launch", "event_query_loop_after_launch", "memcpy_pageable_d2h_idle"};
  const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  printf("C=%-2s", c ? c : "-");
  for (int k = 0; k < K; k++) { qsort(v[k], N, sizeof(double), cmp); printf(" %s %.2f", names[k], v[k][N / 2] / 1e3); }
  printf(" err=%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
