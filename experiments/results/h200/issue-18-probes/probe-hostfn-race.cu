/* probe-hostfn-race.cu - a host function behind a copy that has not run yet at the call, with the queue held ahead
 * for longer than the copy: does it wait for its turn in the queue (seed 20261124 did in about half its runs)?
 * Run at CUDA_DEVICE_MAX_CONNECTIONS=1 and 8. Build: nvcc -O2 -arch=sm_90. */
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
__global__ void stamp(unsigned long long *out){ *out=gt(); }
struct H { double start, end, ns; };
static void CUDART_CB hold(void *p){ H*h=(H*)p; h->start=hns(); while(hns()-h->start<h->ns); h->end=hns(); }
int main(int argc, char **argv){
  int R = argc>1 ? atoi(argv[1]) : 20;
  cudaStream_t A,B,C; CK(cudaStreamCreateWithFlags(&A,cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&B,cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&C,cudaStreamNonBlocking));
  cudaEvent_t eA,eC; CK(cudaEventCreateWithFlags(&eA,cudaEventDisableTiming)); CK(cudaEventCreateWithFlags(&eC,cudaEventDisableTiming));
  size_t big=32<<20, mid=8<<20, small=512<<10; char *hp; char *d; CK(cudaMallocHost(&hp,2*big)); CK(cudaMalloc(&d,2*big));
  unsigned long long *ts; CK(cudaMallocManaged(&ts,16*sizeof(*ts)));
  for(int w=0; w<3; w++){ spin<<<1,32,0,A>>>(1000,0); spin<<<1,32,0,B>>>(1000,0); CK(cudaMemcpyAsync(d,hp,small,cudaMemcpyHostToDevice,B)); CK(cudaMemcpyAsync(d+big,hp+big,big,cudaMemcpyHostToDevice,C)); CK(cudaDeviceSynchronize()); }
  /* every case: A: k0 150 us, rec eA; [B: wait eA]; B: copy; C: H2D 32 MB (~600 us), rec eC; A: wait eC, k1 300 us; B: hostfn (50 us), stamp.
   * hostfn start from k0's start: ~150-400 (off the queue) or >= 600 (its turn, behind A's wait). */
  const char *name[] = {"P6 B waits eA, H2D 512 KiB, hostfn last", "P7 B no wait, H2D 8 MiB, hostfn last",
                        "P8 as P6, hostfn issued before C's copy", "P9 as P6, a 1-block kernel after B's copy",
                        "P10 as P6, D2H 512 KiB", "P11 as P6, the copy replaced by a memset",
                        "P12 B waits eA, D2H 512 KiB; C waits eA, D2H 32 MiB", "P13 B waits eA, D2H 512 KiB; C D2H 32 MiB, no wait"};
  for(int c=0;c<8;c++){
    std::vector<double> hs, bs;
    for(int r=0;r<R;r++){ H h={0,0,50e3};
      CK(cudaDeviceSynchronize()); double t=hns();
      stamp<<<1,1,0,A>>>(&ts[0]); spin<<<1,32,0,A>>>(150000,0); CK(cudaEventRecord(eA,A));
      if(c!=1) CK(cudaStreamWaitEvent(B,eA,0));
      if(c==1) CK(cudaMemcpyAsync(d,hp,mid,cudaMemcpyHostToDevice,B));
      else if(c==4||c>=6) CK(cudaMemcpyAsync(hp,d,small,cudaMemcpyDeviceToHost,B));
      else if(c==5) CK(cudaMemsetAsync(d,1,small,B));
      else CK(cudaMemcpyAsync(d,hp,small,cudaMemcpyHostToDevice,B));
      if(c==3) spin<<<1,32,0,B>>>(1000,0);
      if(c==2) CK(cudaLaunchHostFunc(B,hold,&h));
      if(c==6) CK(cudaStreamWaitEvent(C,eA,0));
      if(c>=6) CK(cudaMemcpyAsync(hp+big,d+big,big,cudaMemcpyDeviceToHost,C));
      else CK(cudaMemcpyAsync(d+big,hp+big,big,cudaMemcpyHostToDevice,C));
      CK(cudaEventRecord(eC,C));
      CK(cudaStreamWaitEvent(A,eC,0)); spin<<<1,32,0,A>>>(300000,&ts[1]);
      if(c!=2) CK(cudaLaunchHostFunc(B,hold,&h));
      stamp<<<1,1,0,B>>>(&ts[2]);
      CK(cudaDeviceSynchronize());
      double k0 = ts[0];
      bs.push_back((ts[2]-k0)/1e3); hs.push_back((double)(ts[1]-k0)/1e3); (void)t;
      printf("  %s r%d: host fn start %.1f us after issue; B's stamp %.1f us after k0; k1 start %.1f\n", name[c]+0, r, (h.start-t)/1e3, (ts[2]-k0)/1e3, (ts[1]-k0)/1e3);
    }
  }
  return 0;
}
