// probe: do memsets and D2D copies need SM room? A grid of another stream fills the SMs (or not); a memset, D2D,
// pinned H2D is issued right behind it in a second stream. Times from an event before the grid (stream A).
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
    size_t big = 64u << 20;
    char *d1, *d2, *h; int *sink;
    CK(cudaMalloc(&d1, big)); CK(cudaMalloc(&d2, big)); CK(cudaMallocHost(&h, big)); CK(cudaMalloc(&sink, 4));
    cudaStream_t s1, s2; CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e0, eA, eB; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&eA)); CK(cudaEventCreate(&eB));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    struct { const char *name; int blocks, threads; long long ns; } grids[] = {
        {"none", 0, 0, 0}, {"1 block", 1, 32, 900000}, {"3 waves of 128-thread blocks (16/SM)", 3 * 16 * sms, 128, 300000},
        {"1 wave of 128-thread blocks", 16 * sms, 128, 900000}, {"1 block of 1024 per SM (half the threads)", sms, 1024, 900000},
        {"2 blocks of 1024 per SM (all threads)", 2 * sms, 1024, 900000}};
    const char *ops[] = {"memset 64 MiB", "D2D 64 MiB", "pinned H2D 16 MiB", "memset 4 KiB", "D2D 4 KiB", "memset 1 MiB"};
    for (int g = 0; g < 6; g++) for (int kind = 0; kind < 6; kind++) {
        std::vector<float> a, b;
        for (int rep = 0; rep < 6; rep++) {
            CK(cudaDeviceSynchronize());
            CK(cudaEventRecord(e0, s1));
            if (grids[g].blocks) spin<<<grids[g].blocks, grids[g].threads, 0, s1>>>(grids[g].ns, sink);
            switch (kind) {
            case 0: CK(cudaMemsetAsync(d2, 1, big, s2)); break;
            case 1: CK(cudaMemcpyAsync(d2, d1, big, cudaMemcpyDeviceToDevice, s2)); break;
            case 2: CK(cudaMemcpyAsync(d2, h, 16u << 20, cudaMemcpyHostToDevice, s2)); break;
            case 3: CK(cudaMemsetAsync(d2, 1, 4096, s2)); break;
            case 4: CK(cudaMemcpyAsync(d2, d1, 4096, cudaMemcpyDeviceToDevice, s2)); break;
            case 5: CK(cudaMemsetAsync(d2, 1, 1u << 20, s2)); break;
            }
            CK(cudaEventRecord(eB, s2));
            CK(cudaEventRecord(eA, s1));
            CK(cudaDeviceSynchronize());
            float ta, tb; CK(cudaEventElapsedTime(&ta, e0, eA)); CK(cudaEventElapsedTime(&tb, e0, eB));
            if (rep) a.push_back(ta * 1000), b.push_back(tb * 1000);
        }
        std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end());
        printf("grid %-42s | %-18s: grid ends %7.1f us, op ends %7.1f us (min %7.1f max %7.1f)\n", grids[g].name, ops[kind],
               a[a.size() / 2], b[b.size() / 2], b.front(), b.back());
    }
    return 0;
}
