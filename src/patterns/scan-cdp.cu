/* scan-cdp.cu - scan's three-kernel hierarchy driven from the device, each grid tail-launching the next.
 *
 * Question: what does launching the hierarchical scan's grids from the device, each tail-launching the next, cost against the host and CUB?
 * Build: rdc openmp cub
 * Sanitize: --quick --profile --n 50003 --skip-timing-claims
 *
 * scan's inputs, checks and columns (scan.cuh). hierarchical: 2L + 1 host launches for L levels of tile sums.
 * hierarchical-cdp: the same 2L + 1 steps, one cdp_step grid each, whose block 0 tail-launches the next (which
 * begins only after the whole launching grid has ended, so it reads what that one finished): 1 host and 2L
 * device launches, counted on the device; a failed one is exit 3; the pending-launch pool (one launch pending
 * at a time) is set to max(2048, 2L) and read back. cub. speed_vs_hierarchical is what launching from the
 * device costs. The one rdc binary of the two: racecheck and synccheck refuse those, so scan is theirs.
 *
 * Run:   make run-scan-cdp                                         (2^28, int32 and float, inclusive and exclusive)
 *        make run-scan-cdp ARGS="--type int --kind inclusive --repeat 20"
 * Nsight Systems (make profile-scan-cdp): NVTX ranges as scan's; the device-launched grids are not in it.
 */
#include "gl_device_check.cuh"
#include "scan.cuh"

/* Levels 0..levels: level 0 is the data, level k + 1 the tile sums of level k. */
template <typename T>
struct cdp_plan {
    const T *input;               /* level 0's input */
    T *sums[MAX_LEVELS];          /* level k's input for k >= 1 (written by level k - 1's reduce) */
    T *out[MAX_LEVELS];           /* level k's scan (out[0]: the result) */
    long long n[MAX_LEVELS];      /* level k's length */
    int levels;                   /* L: levels with more than one tile; level L fits one */
    int exclusive;                /* the result's kind (the sums are scanned inclusive) */
    gl_dev_error *err;            /* failed device-side launches */
    unsigned long long *launches; /* device-side launches that succeeded */
};

/* The level step s works on: reduce 0..L-1 going up, scan L, scan L-1..0 coming down. */
__device__ __forceinline__ int level_of_step(int step, int levels) { return step <= levels ? step : 2 * levels - step; }

template <typename T>
__global__ void __launch_bounds__(THREADS) cdp_step(cdp_plan<T> p, int step)
{
    const int L = p.levels;
    if (step < 2 * L && blockIdx.x == 0 && threadIdx.x == 0) {
        /* Starts only after every block of this grid has ended. */
        long long next_n = p.n[level_of_step(step + 1, L)];
        cdp_step<T><<<(unsigned)tiles_of(next_n), THREADS, 0, cudaStreamTailLaunch>>>(p, step + 1);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess) atomicAdd(p.launches, 1ULL);
        else GL_DEVICE_CHECK(p.err, e);
    }
    int k = level_of_step(step, L);
    const T *in = k == 0 ? p.input : p.sums[k];
    int exclusive = k == 0 ? p.exclusive : 0;
    if (step < L) reduce_tile_body(in, p.n[k], p.sums[k + 1]);
    else scan_tile_body(in, p.out[k], p.n[k], step == L ? (const T *)NULL : p.out[k + 1], exclusive);
}

/* Queue one run of hierarchical-cdp: step 0, which launches the rest. */
template <typename T>
static void queue_own(scan_bench *b, int /* id: V_CDP */, const T *in, T *out)
{
    cdp_plan<T> p = {in, {}, {out}, {b->n}, levels_of(b->n, TILE), b->exclusive, b->L->dev_err, b->L->d_launches};
    for (int k = 1; k <= p.levels; k++) {
        p.n[k] = tiles_of(p.n[k - 1]);
        p.sums[k] = (T *)b->d_sums[k];
        p.out[k] = (T *)b->d_scan[k];
    }
    cdp_step<T><<<(unsigned)tiles_of(b->n), THREADS, 0, b->L->stream>>>(p, 0);
    LAUNCHED(b, "cdp_step (step 0)");
}

static const gl_lab_variant variants[] = {{"hierarchical", GL_LAB_GPU | GL_LAB_BASELINE},
                                          {"hierarchical-cdp", GL_LAB_GPU},
                                          {"cub", GL_LAB_GPU | GL_LAB_BASELINE}};
static const int ids[] = {V_HIER, V_CDP, V_CUB};

int main(int argc, char **argv)
{
    static scan_bench b;
    gl_option opts[] = {SCAN_OPTIONS(b)};
    static const gl_experiment exp = {
        "scan-cdp",
        "what does launching the hierarchical scan's grids from the device, each tail-launching the next, cost "
        "against the host and CUB?",
        "scan's inputs, checks and columns (see scan --help), for three variants: hierarchical launched from the\n"
        "host, hierarchical-cdp (one host launch; each grid tail-launches the next), and cub. The speed_vs_\n"
        "columns compare each with hierarchical and with cub."};
    gl_lab_spec spec = gl_lab_spec_of(&exp, variants, GL_ARRAY_LEN(variants), opts, GL_ARRAY_LEN(opts), NULL, 0,
                                      scan_run, &b);
    spec.device_launches = 1;
    gl_lab L;
    scan_open(&L, &spec, &b, ids, argc, argv);
    /* One pending tail launch at a time; the pool is set, at least the default, and read back. */
    long long need = 2LL * levels_of(b.n, TILE);
    if (gl_lab_chosen(&L, "hierarchical-cdp")) {
        size_t pool = 0;
        CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need > 2048 ? (size_t)need : 2048));
        CUDA_CHECK(cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount));
        printf("hierarchical-cdp: %lld device-side launches per run; pending-launch pool %zu\n", need, pool);
        if ((long long)pool < need)
            snprintf(b.skip[V_CDP], sizeof b.skip[V_CDP], "needs a pending-launch pool of %lld; the runtime gave %zu",
                     need, pool);
    }
    return scan_main(&b, NULL, 0);
}
