/* probe-hostfn-queue.cu - where does a host function wait: in its hardware queue, or beside its stream's work?
 * Run with CUDA_DEVICE_MAX_CONNECTIONS=1 (and 8 for contrast): probe-hostfn-queue.txt. Build: nvcc -O2 -arch=sm_90. */
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <time.h>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s: %s\n",#x,cudaGetErrorString(e)); exit(1);} }while(0)
static double hns(){timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1e9+t.tv_nsec;}
__device__ unsigned long long gt(){unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;":"=l"(t)); return t;}
__global__ void spin(unsigned long long ns, unsigned long long *out){ unsigned long long t0=gt(); if(out) *out=t0; while(gt()-t0<ns); }
struct H { double start, end, ns; };
static void CUDART_CB hold(void *p){ H*h=(H*)p; h->start=hns(); while(hns()-h->start<h->ns); h->end=hns(); }
static double med(std::vector<double> v){ std::sort(v.begin(),v.end()); return v[v.size()/2]; }
int main(){
  cudaStream_t A,B,X; CK(cudaStreamCreateWithFlags(&A,cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&B,cudaStreamNonBlocking));
  CK(cudaStreamCreate(&X)); /* blocking: syncs with the legacy stream */
  size_t big=64<<20, small=1<<20; char *hp; void *d; CK(cudaMallocHost(&hp,big)); CK(cudaMalloc(&d,big));
  unsigned long long *ts; CK(cudaMallocManaged(&ts,16*sizeof(*ts)));
  for(int w=0; w<3; w++){ spin<<<1,32,0,A>>>(1000,0); spin<<<1,32,0,B>>>(1000,0); spin<<<1,32,0,X>>>(1000,0); CK(cudaMemcpyAsync(d,hp,small,cudaMemcpyHostToDevice,A)); CK(cudaDeviceSynchronize()); }
  const int R=10;
  // P1: [A: H2D 64 MB, hA], B: kB, A: kA2. kB start - k0 start: ~0 (not held) or ~copy (held)
  std::vector<double> p1kb, p1ha, p1ka;
  for(int r=0;r<R;r++){ H h={0,0,50e3}; double t=hns();
    spin<<<1,32,0,B>>>(1000,&ts[0]);
    CK(cudaMemcpyAsync(d,hp,big,cudaMemcpyHostToDevice,A)); CK(cudaLaunchHostFunc(A,hold,&h));
    spin<<<1,32,0,B>>>(1000,&ts[1]); spin<<<1,32,0,A>>>(1000,&ts[2]); CK(cudaDeviceSynchronize());
    p1kb.push_back((ts[1]-ts[0])/1e3); p1ha.push_back((h.start-t)/1e3); p1ka.push_back((ts[2]-ts[0])/1e3); }
  printf("P1 copy running (64 MB H2D, then hostfn; B's kernel behind): kB start %.1f us, hA start %.1f us (host, from issue), kA2 %.1f us\n", med(p1kb), med(p1ha), med(p1ka));
  for(int r=0;r<R;r++) printf("  P1 r%d kB %.1f hA %.1f\n", r, p1kb[r], p1ha[r]);
  // P2: A: H2D 1 MB (done early); X: k1 2 ms, k2; A: hA; B: kB. hA start (host from issue): ~0.1 ms (off queue) or ~2 ms (its turn)
  std::vector<double> p2ha, p2kb;
  for(int r=0;r<R;r++){ H h={0,0,50e3}; double t=hns();
    CK(cudaMemcpyAsync(d,hp,small,cudaMemcpyHostToDevice,A));
    spin<<<1,32,0,X>>>(2000000,&ts[0]); spin<<<1,32,0,X>>>(1000,0);
    CK(cudaLaunchHostFunc(A,hold,&h)); spin<<<1,32,0,B>>>(1000,&ts[1]); CK(cudaDeviceSynchronize());
    p2ha.push_back((h.start-t)/1e3); p2kb.push_back((ts[1]-ts[0])/1e3); }
  printf("P2 copy done early, queue held 2 ms by another stream's kernel ahead: hA start %.1f us (host, from issue), kB %.1f us after k1\n", med(p2ha), med(p2kb));
  for(int r=0;r<R;r++) printf("  P2 r%d hA %.1f kB %.1f\n", r, p2ha[r], p2kb[r]);
  // P3: A: H2D 1 MB; X(blocking): k1 2 ms; legacy: kL; A: hA. hA start: ~0.1 ms or ~2 ms
  std::vector<double> p3ha;
  for(int r=0;r<R;r++){ H h={0,0,50e3}; double t=hns();
    CK(cudaMemcpyAsync(d,hp,small,cudaMemcpyHostToDevice,A));
    spin<<<1,32,0,X>>>(2000000,&ts[0]); spin<<<1,32,0,0>>>(1000,0);
    CK(cudaLaunchHostFunc(A,hold,&h)); CK(cudaDeviceSynchronize());
    p3ha.push_back((h.start-t)/1e3); }
  printf("P3 copy done early, a legacy kernel ahead waiting 2 ms for a blocking stream: hA start %.1f us\n", med(p3ha));
  for(int r=0;r<R;r++) printf("  P3 r%d hA %.1f\n", r, p3ha[r]);
  // P4: as P2 but the hostfn after a kernel (control: the rule measured before: waits its turn)
  std::vector<double> p4ha;
  for(int r=0;r<R;r++){ H h={0,0,50e3}; double t=hns();
    spin<<<1,32,0,A>>>(1000,0);
    spin<<<1,32,0,X>>>(2000000,&ts[0]); spin<<<1,32,0,X>>>(1000,0);
    CK(cudaLaunchHostFunc(A,hold,&h)); CK(cudaDeviceSynchronize());
    p4ha.push_back((h.start-t)/1e3); }
  printf("P4 control, hostfn after a short kernel, queue held 2 ms ahead: hA start %.1f us\n", med(p4ha));
  // P5: as P2 with the copy still running when the queue reaches the hostfn... and a kernel of B behind
  std::vector<double> p5ha, p5kb;
  for(int r=0;r<R;r++){ H h={0,0,50e3}; double t=hns();
    CK(cudaMemcpyAsync(d,hp,big,cudaMemcpyHostToDevice,A)); /* 1.2 ms */
    spin<<<1,32,0,X>>>(500000,&ts[0]); spin<<<1,32,0,X>>>(1000,0); /* head free at 0.5 ms, copy ends 1.2 */
    CK(cudaLaunchHostFunc(A,hold,&h)); spin<<<1,32,0,B>>>(1000,&ts[1]); CK(cudaDeviceSynchronize());
    p5ha.push_back((h.start-t)/1e3); p5kb.push_back((ts[1]-ts[0])/1e3); }
  printf("P5 copy (1.2 ms) outlasts a 0.5 ms hold ahead: hA start %.1f us, kB %.1f us after k1\n", med(p5ha), med(p5kb));
  for(int r=0;r<R;r++) printf("  P5 r%d hA %.1f kB %.1f\n", r, p5ha[r], p5kb[r]);
  return 0;
}
