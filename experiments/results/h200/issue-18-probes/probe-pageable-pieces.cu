// probe: a pageable D2H in flight, and a pinned D2H of another stream that becomes ready just after it started:
// does the pinned copy wait for the whole pageable copy, or go between its pieces? Stream A: a kernel of T - delta,
// then the pageable D2H of X bytes (the host waits in the call); stream B: a kernel of T, then a pinned D2H of 4 MiB.
// Times from an event before B's kernel; the pageable copy's end is an event recorded in A after the call returned.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "probe.cuh"
__global__ void spin(long long ns) { probe_spin_from(probe_now(), ns); }
int main() {
    size_t maxb = 16u << 20, pinb = 4u << 20;
    char *dsrc, *pin, *pg = (char *)malloc(maxb);
    for (size_t i = 0; i < maxb; i += 4096) pg[i] = 1;
    CK(cudaMalloc(&dsrc, maxb)); CK(cudaMallocHost(&pin, pinb));
    cudaStream_t A, B; CK(cudaStreamCreateWithFlags(&A, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&B, cudaStreamNonBlocking));
    cudaEvent_t e0, eA, eB, eK; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&eA)); CK(cudaEventCreate(&eB)); CK(cudaEventCreate(&eK));
    size_t sizes[] = {8192, 65536, 262144, 1u << 20, 4u << 20, 16u << 20};
    int delays[] = {-1000000, 20, 5};  // us: -1e6 = no pinned copy at all (the pageable alone)
    const long long T = 300000;
    for (size_t x : sizes) for (int dl : delays) {
        std::vector<float> pa, pb, pk;
        for (int rep = 0; rep < 8; rep++) {
            CK(cudaDeviceSynchronize());
            CK(cudaEventRecord(e0, B));
            spin<<<1, 32, 0, B>>>(T);
            CK(cudaEventRecord(eK, B));
            if (dl > -1000) CK(cudaMemcpyAsync(pin, dsrc, pinb, cudaMemcpyDeviceToHost, B));
            CK(cudaEventRecord(eB, B));
            spin<<<1, 32, 0, A>>>(dl > -1000 ? T - dl * 1000LL : T);
            CK(cudaMemcpyAsync(pg, dsrc, x, cudaMemcpyDeviceToHost, A));
            CK(cudaEventRecord(eA, A));
            CK(cudaDeviceSynchronize());
            float a, b, k; CK(cudaEventElapsedTime(&a, e0, eA)); CK(cudaEventElapsedTime(&b, e0, eB)); CK(cudaEventElapsedTime(&k, e0, eK));
            if (rep >= 2) pa.push_back(a * 1000), pb.push_back(b * 1000), pk.push_back(k * 1000);
        }
        std::sort(pa.begin(), pa.end()); std::sort(pb.begin(), pb.end()); std::sort(pk.begin(), pk.end());
        float ka = pk[pk.size() / 2];
        printf("pageable D2H %8zu B, A's kernel %s: B's kernel ends %6.1f, pageable ends +%7.1f, pinned 4 MiB ends +%7.1f us (after B's kernel)\n",
               x, dl > -1000 ? (dl == 20 ? "20 us shorter" : " 5 us shorter") : "alone (no pinned)", ka, pa[pa.size() / 2] - ka,
               dl > -1000 ? pb[pb.size() / 2] - ka : 0.0f);
    }
    // the pinned copy alone
    std::vector<float> pb;
    for (int rep = 0; rep < 8; rep++) {
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0, B)); spin<<<1, 32, 0, B>>>(T); CK(cudaEventRecord(eK, B));
        CK(cudaMemcpyAsync(pin, dsrc, pinb, cudaMemcpyDeviceToHost, B)); CK(cudaEventRecord(eB, B));
        CK(cudaDeviceSynchronize());
        float b, k; CK(cudaEventElapsedTime(&b, e0, eB)); CK(cudaEventElapsedTime(&k, e0, eK));
        if (rep >= 2) pb.push_back((b - k) * 1000);
    }
    std::sort(pb.begin(), pb.end());
    printf("pinned 4 MiB D2H alone after its kernel: +%.1f us\n", pb[pb.size() / 2]);
    return 0;
}
