// probe: which memset sizes need SM room? A grid fills every SM for 900 us; a memset of each size in a second stream.
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
    char *d2; int *sink;
    CK(cudaMalloc(&d2, 64u << 20)); CK(cudaMalloc(&sink, 4));
    cudaStream_t s1, s2; CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e0, eA, eB; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&eA)); CK(cudaEventCreate(&eB));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t sizes[] = {1, 4096, 4097, 6144, 8192, 12288, 16384, 32768, 65536, 131072, 262144, 524288, 1u << 20, 3u << 20};
    for (int full = 0; full < 2; full++) for (size_t z : sizes) for (int val = 0; val < 2; val++) {
        std::vector<float> a, b;
        for (int rep = 0; rep < 6; rep++) {
            CK(cudaDeviceSynchronize());
            CK(cudaEventRecord(e0, s1));
            if (full) spin<<<2 * sms, 1024, 0, s1>>>(900000, sink);
            CK(cudaMemsetAsync(d2, val ? 0x5a : 0, z, s2));
            CK(cudaEventRecord(eB, s2));
            CK(cudaEventRecord(eA, s1));
            CK(cudaDeviceSynchronize());
            float ta, tb; CK(cudaEventElapsedTime(&ta, e0, eA)); CK(cudaEventElapsedTime(&tb, e0, eB));
            if (rep) a.push_back(ta * 1000), b.push_back(tb * 1000);
        }
        std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end());
        printf("%s memset %9zu bytes value %s: grid ends %7.1f us, memset ends %7.1f us (min %7.1f max %7.1f)\n",
               full ? "full grid" : "idle GPU ", z, val ? "0x5a" : "0   ", a[a.size() / 2], b[b.size() / 2], b.front(), b.back());
    }
    return 0;
}
