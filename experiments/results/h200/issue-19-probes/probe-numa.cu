/* probe-numa.cu (session 8, issue 19) - the host's memory pace, process by process: one process's host memcpy of
 * 64 MiB, pageable cudaMemcpy H2D and D2H of 16 MiB, and a compare of 256 KiB (callbacks' host function's kind of
 * work), each the median of 9. Run 10 times unpinned and 6 times under taskset; probe-numa.txt has the machine's
 * topology (one NUMA node, 16 vCPUs) and the runs. Build: nvcc -O2 -o probe-numa probe-numa.cu */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <algorithm>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
static double med(double*v,int n){std::sort(v,v+n);return v[n/2];}
int main(){
  int cpu0=sched_getcpu();
  size_t big=64u<<20, cp=16u<<20;
  char*a=(char*)malloc(big),*b=(char*)malloc(big);memset(a,1,big);memset(b,2,big);
  double t[9];
  for(int r=0;r<9;r++){double s=now();memcpy(b,a,big);t[r]=now()-s;}
  double memgb=big/med(t,9);
  char*d;cudaMalloc(&d,cp);cudaFree(0);
  for(int r=0;r<9;r++){double s=now();cudaMemcpy(d,a,cp,cudaMemcpyHostToDevice);t[r]=now()-s;}
  double h2d=cp/med(t,9);
  for(int r=0;r<9;r++){double s=now();cudaMemcpy(b,d,cp,cudaMemcpyDeviceToHost);t[r]=now()-s;}
  double d2h=cp/med(t,9);
  unsigned*x=(unsigned*)a,*y=(unsigned*)b; volatile long cnt=0;
  for(int r=0;r<9;r++){double s=now();long c=0;for(int i=0;i<65536;i++)c+=x[i]!=y[i];cnt+=c;t[r]=now()-s;}
  double cmp=med(t,9)/1e3;
  printf("cpu %d->%d memcpy %.1f GB/s pageable H2D %.2f D2H %.2f GB/s compare256K %.1f us\n",cpu0,sched_getcpu(),memgb,h2d,d2h,cmp);
  return 0;}
