// probe: does a memset / D2D queued behind another stream's running kernel (one hardware queue) wait for it?
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "probe.cuh"
__global__ void spin(long long ns, int *sink) {
    probe_spin_from(probe_now(), ns);
    if (threadIdx.x == 0) atomicAdd(sink, 1);
}
int main() {
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    size_t bytes = 64u << 20;
    char *d1, *d2, *h; int *sink;
    CK(cudaMalloc(&d1, bytes)); CK(cudaMalloc(&d2, bytes)); CK(cudaMallocHost(&h, bytes)); CK(cudaMalloc(&sink, 4));
    cudaStream_t s1, s2; CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e0, eA, eB; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&eA)); CK(cudaEventCreate(&eB));
    const char *names[] = {"memset 64MiB", "D2D 64MiB", "pinned H2D 64MiB", "kernel 10us", "memset 4KiB", "D2D 4KiB"};
    for (int kind = 0; kind < 6; kind++) {
        std::vector<float> a, b;
        for (int rep = 0; rep < 7; rep++) {
            CK(cudaDeviceSynchronize());
            CK(cudaEventRecord(e0, s1));
            spin<<<1, 32, 0, s1>>>(1000000, sink);
            switch (kind) {
            case 0: CK(cudaMemsetAsync(d2, 1, bytes, s2)); break;
            case 1: CK(cudaMemcpyAsync(d2, d1, bytes, cudaMemcpyDeviceToDevice, s2)); break;
            case 2: CK(cudaMemcpyAsync(d2, h, bytes, cudaMemcpyHostToDevice, s2)); break;
            case 3: spin<<<1, 32, 0, s2>>>(10000, sink); break;
            case 4: CK(cudaMemsetAsync(d2, 1, 4096, s2)); break;
            case 5: CK(cudaMemcpyAsync(d2, d1, 4096, cudaMemcpyDeviceToDevice, s2)); break;
            }
            CK(cudaEventRecord(eB, s2));
            CK(cudaEventRecord(eA, s1)); // after s2's: a record behind s1's running kernel holds its queue
            CK(cudaDeviceSynchronize());
            float ta, tb; CK(cudaEventElapsedTime(&ta, e0, eA)); CK(cudaEventElapsedTime(&tb, e0, eB));
            if (rep) a.push_back(ta * 1000), b.push_back(tb * 1000);
        }
        std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end());
        printf("C=%s  [1 ms kernel s1, %-18s s2]: kernel ends %7.1f us, s2's op ends %7.1f us (min %7.1f max %7.1f)\n",
               c ? c : "default", names[kind], a[a.size() / 2], b[b.size() / 2], b.front(), b.back());
    }
    return 0;
}
