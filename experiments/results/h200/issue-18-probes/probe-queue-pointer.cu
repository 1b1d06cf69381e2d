// probe: after a call that stays in its stream's queue (the tail rule), where does the next new stream's call go?
// Either after the queue the staying call used (the round-robin pointer follows every call) or after the last
// queue a call moved to (the pointer follows moves only). One host thread; every stream is fresh (used once).
// D is a 10 us kernel; L kernels spin 1 ms. D's start tells: ~0 when it went behind a running kernel, ~1 ms behind
// a kernel that waits for its stream's running one.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include "probe.cuh"
__global__ void spin(long long ns, unsigned long long *slot) {
    long long t0 = probe_now();
    if (threadIdx.x == 0) *slot = t0;
    probe_spin_from(t0, ns);
}
int main(int argc, char **argv) {
    const char *c = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    // patterns: letters are streams (fresh per rep), lower case = 1 ms kernel, 'D' = the 10 us probe kernel (last)
    const char *pats[] = {"abaD", "abcaD", "abceaD", "aabD", "abcD", "abcdaD"};
    int npat = sizeof pats / sizeof *pats, reps = 7;
    unsigned long long *slots; CK(cudaMallocManaged(&slots, 64 * sizeof *slots));
    std::vector<cudaStream_t> pool(npat * reps * 8);
    for (auto &s : pool) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int used = 0;
    for (int p = 0; p < npat; p++) {
        std::vector<double> d;
        for (int r = 0; r < reps; r++) {
            CK(cudaDeviceSynchronize());
            cudaStream_t st[26]; for (int i = 0; i < 26; i++) st[i] = 0;
            int n = strlen(pats[p]);
            for (int i = 0; i < n; i++) {
                char ch = pats[p][i];
                int k = ch == 'D' ? 25 : ch - 'a';
                if (!st[k]) st[k] = pool[used++];
                spin<<<1, 32, 0, st[k]>>>(ch == 'D' ? 10000 : 1000000, &slots[i]);
            }
            CK(cudaDeviceSynchronize());
            if (r) d.push_back((slots[n - 1] - slots[0]) / 1e3);
        }
        std::sort(d.begin(), d.end());
        printf("C=%s  %-8s D starts %7.1f us after the first (min %7.1f max %7.1f)\n", c ? c : "default", pats[p],
               d[d.size() / 2], d.front(), d.back());
    }
    return 0;
}
