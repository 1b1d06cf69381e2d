/* nested-reduce.cu - the textbook's recursive reductions on CDP2, race-free, beside the best flat reduction and CUB.
 *
 * Question: what does a recursive (device-launched) reduction cost against the best flat reduction, in each textbook variant made race-free?
 * Build: rdc cub openmp
 * Sanitize: --quick --profile --n 16387 --block 64 --skip-timing-claims
 *
 * The sum of --n random ints in 64 bits, every variant checked exactly against the CPU before any is timed
 * (the chains, flat and the harness: reduce.cuh, shared with nested-race). Variants (--variant):
 *   cpu-recursive  the seed's recursive pairwise sum, timed (on a 64-bit copy, halved in place)
 *   neighbored     the seed's reduceNeighbored: a block halves its segment in place, a barrier per step
 *   nested         gpuRecursiveReduce on CDP2: thread 0 of each block launches a one-block child on the lower half
 *   nested-nosync  its per-level barrier dropped, race-free: the last writer of a block launches the child
 *   nested2        gpuRecursiveReduce2: one grid per level, each tail-launching the next
 *   nested-tail    "launch a child, wait, use its result" on CDP2: a tail-launched continuation adds the child's total
 *   flat, cub      gridlab's flat reduction (16-byte loads, shuffles, grid-stride, one pass); cub::DeviceReduce::Sum
 *   nested-agg     launches aggregated per level (KLAP, MICRO 2016): a tile per block, one tail-launched last block
 * The textbook variants (neighbored .. nested2) leave a partial per block; a flat pass, timed with them, adds them.
 * What goes wrong without the race-free ports (the textbook's nosync) is nested-race's question.
 * Model: device-side launches per run, predicted and counted: nested(-nosync) log2(block) - 1 per block, nested2
 * log2(block) - 1, nested-tail 2 per level with a child, nested-agg 1 above one tile (a pending-launch pool each).
 * Claims: flat as fast as cub within 2%; nested-agg at most 1.25x flat (n >= 2^26); levels and continuations start
 * after what launched them ended. The model, the pool, the guards: experiments/results/FINDINGS.md (nested-reduce).
 *
 * Run:   make run-nested-reduce                              (2^20, the textbook's size: the K40c column)
 *        make run-nested-reduce ARGS="--n 268435456 --variant flat,cub,nested-agg --repeat 20"
 *        make run-nested-reduce ARGS="--n 4096 --variant nested --trace tree.json"   (a track per depth, in Perfetto)
 * Nsight Systems: an NVTX range per variant; device-launched grids are only in --trace FILE.
 */
#include <limits.h>
#include <math.h>
#include <cub/device/device_reduce.cuh>

#include "reduce.cuh"

enum {
    AGG_ITEMS = 32,            /* elements per thread in a nested-agg tile */
    AGG_TILE = FLAT_THREADS * AGG_ITEMS, /* elements per nested-agg block */
    AGG_LAST_THREADS = 1024,   /* nested-agg's last level: one block */
    TAIL_LEAF = 1 << 18        /* nested-tail: a range this small is reduced by one grid, without a child */
};

/* ---- neighbored and nested2: the textbook's other two trees ------------------------------------ */
/* neighbored: block b widens its segment into work, then halves it in place with a barrier per step. */
__global__ void neighbored(tree t, const int *in, long long n, long long *work)
{
    unsigned int tid = threadIdx.x;
    long long base = (long long)blockIdx.x * blockDim.x, *w = work + base;
    w[tid] = at(in + base, tid, n - base);
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) w[tid] += w[tid + stride];
        __syncthreads();
    }
    if (tid == 0) t.out[blockIdx.x] = w[0];
}

/* nested2: a grid per level, whose block 0 tail-launches the next (it starts after every block ended). Level 0
 * reads block b's in_dim = 2 * stride ints, writes stride halves to work[b * dim ...]; deeper levels halve in place. */
template <typename T>
__global__ void nested2(tree t, const T *in, long long n, long long in_dim, long long *work, unsigned int stride,
                        unsigned int dim, int depth, unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int tid = threadIdx.x;
    const T *seg = in + (long long)blockIdx.x * in_dim;
    long long seg_n = n - (long long)blockIdx.x * in_dim, *w = work + (long long)blockIdx.x * dim;
    if (stride == 1) {
        if (tid == 0) t.out[blockIdx.x] = at(seg, 0, seg_n) + at(seg, 1, seg_n);
    } else {
        w[tid] = at(seg, tid, seg_n) + at(seg, tid + stride, seg_n);
        if (tid == 0 && blockIdx.x == 0) {
            unsigned int cs = child_slot(t);
            nested2<long long><<<gridDim.x, stride / 2, 0, cudaStreamTailLaunch>>>(
                t, work, LLONG_MAX, dim, work, stride / 2, dim, depth + 1, cs, (int)slot);
            launched(t);
        }
    }
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* ---- nested-tail: my half now, the rest in a child, a continuation adds them ---------------------- */
/* The continuation: the child's total into the parent's (a tail launch: after the child's whole tree). */
__global__ void tail_combine(tree t, long long *sums, int depth, unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    sums[0] += sums[1];
    gl_span_block_end(t.spans, slot, t0, LABEL_COMBINE, depth, parent);
}

/* sums[0] += the sum of in[0, n). A range above the leaf keeps its first half (a multiple of 4, so the rest
 * stays 16-byte aligned) and hands the rest to a child. */
__global__ void __launch_bounds__(FLAT_THREADS) nested_tail(tree t, const int *in, long long n, long long *sums,
                                                            unsigned int max_blocks, int depth, unsigned int slot,
                                                            int parent)
{
    unsigned long long t0 = gl_globaltimer();
    long long mine = n > TAIL_LEAF ? (n / 2) & ~3LL : n;
    if (mine < n && blockIdx.x == 0 && threadIdx.x == 0) {
        sums[1] = 0; /* the child's total starts at zero; the launch orders this before it */
        long long rest = n - mine;
        unsigned int cs = child_slot(t);
        nested_tail<<<grid_for(rest, max_blocks), FLAT_THREADS, 0, cudaStreamFireAndForget>>>(
            t, in + mine, rest, sums + 1, max_blocks, depth + 1, cs, (int)slot);
        launched(t);
        unsigned int ks = child_slot(t);
        tail_combine<<<1, 1, 0, cudaStreamTailLaunch>>>(t, sums, depth, ks, (int)slot);
        launched(t);
    }
    long long s = gl_block_sum(thread_sum(in, mine, (long long)blockIdx.x * blockDim.x + threadIdx.x,
                                       (long long)gridDim.x * blockDim.x));
    if (threadIdx.x == 0) atomicAdd((unsigned long long *)sums, (unsigned long long)s); /* two's complement: exact */
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* ---- nested-agg: a tile per block, one partial each, the last level tail-launched ----------------- */
/* The sum of block b's tile: AGG_ITEMS per thread, coalesced, every load in flight at once; the ragged last
 * tile as predicated scalars (a strided loop there would hold the whole level back by one block). */
__device__ __forceinline__ long long tile_sum(const int *in, long long n)
{
    const long long tile = (long long)blockDim.x * AGG_ITEMS;
    long long base = (long long)blockIdx.x * tile, acc = 0;
    if (base + tile <= n) {
        const int4 *t4 = (const int4 *)(in + base);
        int4 q[AGG_ITEMS / 4];
#pragma unroll
        for (int k = 0; k < AGG_ITEMS / 4; k++) q[k] = t4[k * blockDim.x + threadIdx.x];
#pragma unroll
        for (int k = 0; k < AGG_ITEMS / 4; k++) acc += sum4(q[k]);
    } else {
        int v[AGG_ITEMS];
#pragma unroll
        for (int k = 0; k < AGG_ITEMS; k++) {
            long long i = base + (long long)k * blockDim.x + threadIdx.x;
            v[k] = i < n ? in[i] : 0;
        }
#pragma unroll
        for (int k = 0; k < AGG_ITEMS; k++) acc += v[k];
    }
    return acc;
}

/* Tiles of the first level: one block each. */
__host__ __device__ __forceinline__ long long agg_blocks(long long n) { return (n + AGG_TILE - 1) / AGG_TILE; }

/* The last level: one block adds all m partials (at most 131072), eight loads in flight per thread. One level,
 * not a tree of tiles: a device launch costs more than this block's reads. */
__global__ void __launch_bounds__(AGG_LAST_THREADS) agg_last(tree t, const long long *in, long long m, int depth,
                                                             unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    const long long step = blockDim.x;
    long long acc[8] = {0, 0, 0, 0, 0, 0, 0, 0}, i = threadIdx.x;
    for (; i + 7 * step < m; i += 8 * step) {
#pragma unroll
        for (int k = 0; k < 8; k++) acc[k] += in[i + k * step];
    }
    for (; i < m; i += step) acc[0] += in[i];
    long long s = gl_block_sum(acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7]);
    if (threadIdx.x == 0) t.out[0] = s;
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* The first level: a partial per tile into out, or the sum into t.out[0] when one tile is all; block 0
 * tail-launches the last level, which starts once every block of this grid has ended. */
__global__ void __launch_bounds__(FLAT_THREADS) agg_level(tree t, const int *in, long long n, long long *out,
                                                          unsigned int slot)
{
    unsigned long long t0 = gl_globaltimer();
    long long s = gl_block_sum(tile_sum(in, n));
    if (threadIdx.x == 0) { if (gridDim.x == 1) t.out[0] = s; else out[blockIdx.x] = s; }
    if (gridDim.x > 1 && blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned int cs = child_slot(t);
        agg_last<<<1, AGG_LAST_THREADS, 0, cudaStreamTailLaunch>>>(t, out, gridDim.x, 1, cs, (int)slot);
        launched(t);
    }
    gl_span_block_end(t.spans, slot, t0, 0, 0, -1);
}

/* ---- the variants: one run each (the lab calls run_variant for the check and for every sample) ------ */
/* The textbook's chapter-3 times on a Tesla K40c, 2^20 ints in blocks of 512 (seconds; 0: not in the book). */
static const double k40c_s[] = {0.000689, 0.000532, 0.172036, 0.059125, 0.000797, 0, 0, 0, 0};

/* The seed's recursive pairwise sum, as a loop (an odd element joins element 0), 64-bit. Halves data in place. */
static long long cpu_recursive(long long *data, long long size)
{
    for (; size > 1; size /= 2) {
        long long stride = size / 2;
        for (long long i = 0; i < stride; i++) data[i] += data[i + stride];
        if (size & 1) data[0] += data[size - 1];
    }
    return data[0];
}

static long long predicted_launches(const bench *b, int v)
{
    long long k = 0;
    if (v == V_NESTED || v == V_NOSYNC) return b->chains * (b->levels - 1);
    if (v == V_NESTED2) return b->levels - 1;
    if (v == V_AGG) return agg_blocks(b->n) > 1;
    for (long long n = b->n; v == V_TAIL && n > TAIL_LEAF; n -= (n / 2) & ~3LL) k += 2;
    return k;
}

/* Untimed: cpu-recursive's copy to halve; nested-tail's total zeroed, queued before the gate. */
static void before_run(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    for (long long i = 0; v == V_CPU && i < b->n; i++) b->h_copy[i] = b->h_in[i];
    if (v == V_TAIL) CUDA_CHECK(cudaMemsetAsync(b->d_sums, 0, sizeof(long long), L->stream));
}

/* Variant v, from its first launch to its sum on the device; the textbook variants add a partials pass. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    if (v == V_CPU) { b->sum = cpu_recursive(b->h_copy, b->n); return; }
    cudaStream_t s = L->stream;
    unsigned int top, chains = (unsigned int)b->chains, B = (unsigned int)b->block, H = B / 2, flat = b->flat_blocks;
    tree t = tree_for(L, b, v, &top);
    unsigned int g = grid_for(b->n, flat), tiles = (unsigned int)agg_blocks(b->n); /* flat's and nested-tail's grid */
    switch (v) {
    case V_NEIGHBORED: neighbored<<<chains, B, 0, s>>>(t, b->d_in, b->n, b->d_work); break;
    case V_NESTED: case V_NOSYNC: run_chains(L, b, v, t, top); break;
    case V_NESTED2: nested2<int><<<chains, H, 0, s>>>(t, b->d_in, b->n, B, b->d_work, H, H, 0, top, -1); break;
    case V_TAIL: nested_tail<<<g, FLAT_THREADS, 0, s>>>(t, b->d_in, b->n, b->d_sums, flat, 0, top, -1); break;
    case V_FLAT:
        flat_reduce<int><<<g, FLAT_THREADS, 0, s>>>(b->d_in, b->n, b->d_flat_partials, b->d_flat_done, b->d_result);
        break;
    case V_CUB: CUDA_CHECK(cub::DeviceReduce::Sum(b->d_cub, b->cub_bytes, b->d_in, b->d_result, b->n, s)); break;
    case V_AGG: agg_level<<<tiles, FLAT_THREADS, 0, s>>>(t, b->d_in, b->n, b->d_agg, top); break;
    }
    CUDA_CHECK_LAUNCH("a nested-reduce variant");
    if (v <= V_NESTED2) partials_pass(L, b);
}

/* The check of v's validation run: the shared checks, and the order of its recorded tree. */
static int check_variant(gl_lab *L, int v, gl_row *row, void *ctx)
{
    bench *b = (bench *)ctx;
    int ok = check_tree(L, b, v, row), combine = LABEL_COMBINE;
    if (!records(b, v)) return ok;
    if (v == V_NESTED2 || v == V_AGG) {
        gl_lineage l = gl_timeline_lineage(&L->tl, gl_filter_all, NULL, 0.0);
        gl_claim_every(&L->rep, row, GL_CLAIM_ORDERING, "each level starts after every block of the level before "
                       "ended", l.after, l.pairs, "parent-child pairs", "one level only: nothing is tail-launched");
    } else if (v == V_TAIL) {
        gl_lineage l = gl_timeline_lineage(&L->tl, gl_filter_label, &combine, 0.0);
        gl_claim_every(&L->rep, row, GL_CLAIM_ORDERING, "each continuation starts after the grid that launched it "
                       "ended", l.after, l.pairs, "continuations", "the range fits one grid: no continuation");
    }
    show_tree(L, v);
    return ok;
}

/* ---- main ------------------------------------------------------------------------------------- */
static const gl_lab_variant variants[] = {
    {"cpu-recursive", GL_LAB_HOST}, {"neighbored", GL_LAB_GPU}, {"nested", GL_LAB_GPU}, {"nested-nosync", GL_LAB_GPU},
    {"nested2", GL_LAB_GPU}, {"nested-tail", GL_LAB_GPU}, {"flat", GL_LAB_GPU}, {"cub", GL_LAB_GPU},
    {"nested-agg", GL_LAB_GPU}};
static const int ids[] = {V_CPU, V_NEIGHBORED, V_NESTED, V_NOSYNC, V_NESTED2, V_TAIL, V_FLAT, V_CUB, V_AGG};
/* Made only where both variants ran; at the DRAM roofline, which of flat and cub is ahead changed between machines. */
static const gl_lab_claim claims[] = {
    {"flat is as fast as cub, within 2%% (median, L2 flushed; both at the DRAM roofline)", "flat", GL_LAB_FASTER, "cub",
     0.98, 2},
    {"nested-agg takes at most 1.25x the time of flat (n >= 2^26)", "nested-agg", GL_LAB_SLOWER, "flat", 1.25, 0}};
static const gl_lab_claim_guard claim_guards[] = {{0, NULL, 1},
    {4.0 * (1LL << 26), "judged from --n 2^26: below it, nested-agg's one device launch is more than a quarter of "
                        "flat's time (here %.1f us against %.1f us, %.2fx)", 1}};

int main(int argc, char **argv)
{
    static bench b;
    b.n = 1LL << 20, b.block = 512; /* the defaults of --n and --block */
    gl_option opts[] = {REDUCE_OPTIONS(b)};
    static const gl_experiment exp = {
        "nested-reduce", "what does a recursive (device-launched) reduction cost against the best flat reduction, in "
        "each textbook variant made race-free?",
        "The sum of --n random ints (64-bit accumulation), every variant checked exactly against the CPU.\n"
        "--block is the textbook variants' block (a power of two, 2..1024); flat, nested-tail and nested-agg\n"
        "use blocks of 256 threads, and cub chooses its own. At --n 1048576 --block 512 the textbook's K40c\n"
        "times are printed beside ours. The textbook's racy nosync is nested-race's."};
    gl_lab_spec spec = GL_LAB_SPEC(exp, variants, opts, claims, run_variant, &b);
    spec.claim_guards = claim_guards, spec.before_run = before_run, spec.check = check_variant;
    gl_lab L;
    reduce_open(&L, &spec, &b, ids, argc, argv);
    /* cpu-recursive's 64-bit copy (8 GiB at 2^30) only when it runs. */
    b.h_copy = L.chosen[V_CPU] ? (long long *)gl_xmalloc(sizeof(long long) * (size_t)b.n) : NULL;
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, b.cub_bytes, (const int *)NULL, (long long *)NULL, b.n));
    const gl_lab_buffer own[] = {{&b.d_agg, 8.0 * agg_blocks(b.n), "nested-agg's partials"},
                                 {&b.d_sums, 8.0 * (LABEL_COMBINE + 2), "nested-tail's totals"},
                                 {&b.d_cub, (double)b.cub_bytes, "cub's temporary storage"}};
    reduce_check(&L, &b, own, GL_ARRAY_LEN(own));

    /* The times against flat and nested, the textbook's K40c, and the claims on speed. */
    if (gl_lab_time(&L)) {
        double med[N_IDS];
        for (int v = 0; v < V_RACY; v++) med[v] = gl_lab_median(&L, 0, v);
        int textbook = b.n == (1LL << 20) && b.block == 512;
        for (int v = 0; v < V_RACY; v++) {
            gl_row *row = gl_lab_row(&L, 0, v);
            if (isnan(med[v])) continue;
            if (!isnan(med[V_FLAT])) gl_row_number(row, "vs_flat", "x", 2, 0, med[v] / med[V_FLAT]);
            if (!isnan(med[V_NESTED])) gl_row_number(row, "vs_nested", "x", 4, 0, med[v] / med[V_NESTED]);
            if (textbook && k40c_s[v] > 0) {
                gl_row_number(row, "k40c", "us", 0, 0, k40c_s[v] * 1e6);
                gl_row_number(row, "k40c_vs_nested", "x", 4, 0, k40c_s[v] / k40c_s[V_NESTED]);
            }
        }
        if (textbook && !isnan(med[V_NESTED]) && !isnan(med[V_NESTED2]))
            printf("\nnested / nested2: %.0fx here; %.0fx on the textbook's K40c\n", med[V_NESTED] / med[V_NESTED2],
                   k40c_s[V_NESTED] / k40c_s[V_NESTED2]);
        gl_lab_judge(&L);
    }
    return reduce_close(&L, &b);
}
