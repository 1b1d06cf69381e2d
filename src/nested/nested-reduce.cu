/* nested-reduce.cu - the textbook's recursive reductions on CDP2, race-free, beside the best flat reduction and CUB.
 *
 * Question: what does a recursive (device-launched) reduction cost against the best flat reduction, in each textbook variant made race-free?
 * Build: rdc cub openmp
 * Sanitize: --quick --profile --n 16387 --block 64 --skip-timing-claims
 *
 * The sum of --n random 32-bit ints in 64 bits (exact: 2^30 terms of at most 2^31 stay below 2^61), every
 * variant checked against the exact sum on the CPU (OpenMP) before any is timed. Variants (--variant):
 *   cpu-recursive  the seed's recursive pairwise sum, timed (on a 64-bit copy, halved in place)
 *   neighbored     the seed's reduceNeighbored: a block halves its segment in place, a barrier per step
 *   nested         gpuRecursiveReduce on CDP2: thread 0 of each block launches a one-block child on the lower half
 *   nested-nosync  its per-level barrier dropped, race-free: the last writer of a block launches the child
 *   nested2        gpuRecursiveReduce2: one grid per level, each tail-launching the next
 *   nested-tail    "launch a child, wait, use its result" on CDP2: a tail-launched continuation adds the child's total
 *   flat           gridlab's flat reduction: 16-byte loads, shuffles, grid-stride, one pass
 *   cub            cub::DeviceReduce::Sum
 *   nested-agg     launches aggregated per level (KLAP, MICRO 2016): a tile per block, one tail-launched last block
 *   nested-nosync-racy  the textbook's racy nosync, a demonstration (not in "all"): wrong sums, early children
 * The textbook variants (neighbored .. nested2) leave a partial per block; a flat pass over them in the same timed
 * region makes the sum. Why each CDP2 port is correct: experiments/results/FINDINGS.md (nested-reduce).
 *
 * Model: device-side launches per run, predicted and counted on the device: nested and nested-nosync
 * (log2(block) - 1) per block, nested2 log2(block) - 1, nested-tail 2 per level with a child, nested-agg 1 when
 * the input is more than one tile. The pending-launch pool is set per variant (a larger pool slows every device
 * launch): its launches, at least 2048, read back (the runtime clamps it: 599186 on an H200); a larger tree is
 * launched in slices of whole chains. Claims: flat as fast as cub within 2% (input at least twice the L2);
 * nested-agg at most 1.25x flat (n >= 2^26); nested2's and nested-agg's levels, and nested-tail's continuations,
 * start after what launched them ended (spans of the validation run).
 *
 * Run:   make run-nested-reduce                              (2^20, the textbook's size: the K40c column)
 *        make run-nested-reduce ARGS="--n 268435456 --variant flat,cub,nested-agg --repeat 20"
 *        make run-nested-reduce ARGS="--variant nested-nosync-racy --repeat 50"
 *        make run-nested-reduce ARGS="--n 4096 --variant nested --trace tree.json"   (the tree in Perfetto)
 * Nsight Systems (make profile-nested-reduce): an NVTX range per variant on the stream "nested-reduce"; it does
 * not trace device-launched grids. --trace FILE has each nested variant's tree from its validation run (a track
 * per depth, a flow from each parent to each child).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>

#include "gl_device_check.cuh"
#include "gl_lab.h"
#include "gl_spans.cuh"
#include "gl_work.cuh"

enum { V_CPU, V_NEIGHBORED, V_NESTED, V_NOSYNC, V_NESTED2, V_TAIL, V_FLAT, V_CUB, V_AGG, V_RACY, N_VARIANTS };
/* The textbook's chapter-3 times on a Tesla K40c, 2^20 ints in blocks of 512 (seconds; 0: not in the book). */
static const double k40c_s[N_VARIANTS] = {0.000689, 0.000532, 0.172036, 0.059125, 0.000797, 0, 0, 0, 0, 0};

enum {
    FLAT_THREADS = 256,        /* block of flat, nested-tail and nested-agg (a multiple of 32: warp shuffles) */
    AGG_ITEMS = 32,            /* elements per thread in a nested-agg tile */
    AGG_LAST_THREADS = 1024,   /* nested-agg's last level: one block */
    TAIL_LEAF = 1 << 18,       /* nested-tail: a range this small is reduced by one grid, without a child */
    MAX_DEPTH = 32,            /* depth labels: log2(1024) levels, or 2^30 halved to TAIL_LEAF */
    LABEL_COMBINE = MAX_DEPTH, /* the nested-tail continuation */
    TRACE_GRID_CAP = 1 << 21,  /* grids a validation run records spans for (the ordering claims) */
    TRACE_FILE_CAP = 1 << 17   /* grids --trace and --timeline show (a larger trace is too big to open) */
};

/* ---- what every grid of a tree gets -------------------------------------------------------- */

typedef struct tree {
    gl_span_buf spans;              /* the lab's: grid records of a validation run */
    int record;                     /* record spans (validation run, when the tree is small enough) */
    gl_dev_error *err;              /* the lab's: failed device-side launches */
    unsigned long long *launches;   /* the lab's: device-side launches that succeeded */
    long long *out;                 /* one partial per chain (textbook variants), or the sum */
    unsigned int *arrive;           /* nested-nosync: writers of the current level, per chain */
    unsigned long long *race_write; /* racy: the latest write of each chain at each depth (ns) */
    unsigned long long *race_start; /* racy: the start of each chain's grid at each depth (ns) */
    int depths;                     /* depths per chain (stride of the race arrays) */
    unsigned long long delay_ns;    /* --race-delay-us: warps but the first wait this long before their level-0 write */
} tree;

/* A device-side launch was just made: count it, or record why it failed (the host exits 3 on it). */
__device__ __forceinline__ void launched(const tree &t)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) atomicAdd(t.launches, 1ULL);
    else GL_DEVICE_CHECK(t.err, e);
}

/* The span record of a grid about to be launched from device code. */
__device__ __forceinline__ unsigned int child_slot(const tree &t)
{
    return t.record ? gl_span_reserve(t.spans, 1) : GL_NO_SPAN;
}

/* --race-delay-us: hold back every warp of a level-0 block but the one that launches (warp 0). */
__device__ __forceinline__ void delay_other_warps(const tree &t, int depth)
{
    if (t.delay_ns && depth == 0 && threadIdx.x >= 32) gl_work_spin(gl_globaltimer(), t.delay_ns);
}

/* Element i of a segment of seg_n elements; past the end, the zero padding. */
template <typename T>
__device__ __forceinline__ long long at(const T *seg, long long i, long long seg_n)
{
    return i < seg_n ? (long long)seg[i] : 0;
}

/* ---- block and grid sums (flat, the partials pass, nested-tail, nested-agg) ---------------- */

/* The sum of v over the block, valid in thread 0 (blockDim a multiple of 32). */
__device__ __forceinline__ long long block_sum(long long v)
{
    __shared__ long long warp_sums[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads(); /* warp_sums may still be read by a previous call */
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[lane] : 0;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    return v;
}

__device__ __forceinline__ long long sum4(int4 q) { return (long long)q.x + (long long)q.y + (long long)q.z + q.w; }

/* This thread's share of in[0, n), grid-stride: 16-byte loads, eight in flight (faster than four at 2^28). */
__device__ __forceinline__ long long thread_sum(const int *in, long long n, long long first, long long step)
{
    enum { IN_FLIGHT = 8 };
    long long acc = 0, n4 = n / 4;
    const int4 *in4 = (const int4 *)in; /* callers pass 16-byte aligned ranges */
    long long j = first;
    for (; j + (IN_FLIGHT - 1) * step < n4; j += IN_FLIGHT * step) {
        int4 q[IN_FLIGHT];
#pragma unroll
        for (int k = 0; k < IN_FLIGHT; k++) q[k] = in4[j + k * step];
#pragma unroll
        for (int k = 0; k < IN_FLIGHT; k++) acc += sum4(q[k]);
    }
    for (; j < n4; j += step) acc += sum4(in4[j]);
    for (long long k = n4 * 4 + first; k < n; k += step) acc += in[k];
    return acc;
}
__device__ __forceinline__ long long thread_sum(const long long *in, long long n, long long first, long long step)
{
    long long acc = 0;
    for (long long j = first; j < n; j += step) acc += in[j];
    return acc;
}

/* flat: one pass. Each block leaves a partial; the last block to finish (a counter, after a fence) adds them
 * and resets the counter. */
template <typename T>
__global__ void __launch_bounds__(FLAT_THREADS) flat_reduce(const T *__restrict__ in, long long n, long long *partials,
                                                            unsigned int *done, long long *result)
{
    __shared__ int is_last;
    long long step = (long long)gridDim.x * blockDim.x;
    long long s = block_sum(thread_sum(in, n, (long long)blockIdx.x * blockDim.x + threadIdx.x, step));
    if (gridDim.x == 1) { /* a small n: no partials, no counter */
        if (threadIdx.x == 0) *result = s;
        return;
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
        __threadfence();
        is_last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    __threadfence(); /* every other block's partial is visible past this point */
    long long total = block_sum(thread_sum((const long long *)partials, gridDim.x, threadIdx.x, blockDim.x));
    if (threadIdx.x == 0) {
        *result = total;
        *done = 0;
    }
}

/* neighbored: block b widens its segment into work, then halves it in place with a barrier per step. */
__global__ void neighbored(tree t, const int *in, long long n, long long *work)
{
    unsigned int tid = threadIdx.x;
    long long base = (long long)blockIdx.x * blockDim.x;
    long long *w = work + base;
    w[tid] = at(in + base, tid, n - base);
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) w[tid] += w[tid + stride];
        __syncthreads();
    }
    if (tid == 0) t.out[blockIdx.x] = w[0];
}

/* ---- nested, nested-nosync, nested-nosync-racy: one chain of one-block grids per block ----------
 * Level 0 is host-launched, a block per chain, reads the int input and writes halves to work; every deeper
 * level is one block of size/2 threads in place on its segment (reading i and i + half, writing i < half: no
 * thread writes what another reads). The three differ only in when a block launches its child. */
enum { CHAIN_NESTED, CHAIN_NOSYNC, CHAIN_RACY };

template <typename T>
struct segment {
    const T *in;       /* this block's segment of the level's input */
    long long n;       /* elements of it that exist (past them, the zero padding) */
    long long *w;      /* where its halves go (in place below level 0) */
    long long chain;   /* its chain: the index of its partial */
    unsigned int half; /* halves it writes: size / 2 */
    __device__ long long pair(unsigned int i) const { return at(in, i, n) + at(in, (long long)i + half, n); }
};

template <int MODE, typename T>
__global__ void chain_level(tree t, const T *in, long long n, long long *work, unsigned int size, int depth,
                            unsigned int slot, int parent, long long chain0);

/* The next level of g's chain: one block of g.half threads, fire-and-forget, on g's halves. */
template <int MODE, typename T>
__device__ __forceinline__ void launch_child(const tree &t, const segment<T> &g, int depth, unsigned int slot)
{
    unsigned int cs = child_slot(t);
    chain_level<MODE, long long><<<1, g.half, 0, cudaStreamFireAndForget>>>(t, g.w, g.half, g.w, g.half, depth + 1,
                                                                           cs, (int)slot, g.chain);
    launched(t);
}

template <int MODE, typename T>
__global__ void chain_level(tree t, const T *in, long long n, long long *work, unsigned int size, int depth,
                            unsigned int slot, int parent, long long chain0)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int tid = threadIdx.x;
    segment<T> g = {in + (long long)blockIdx.x * size, n - (long long)blockIdx.x * size,
                    work + (long long)blockIdx.x * (size / 2), chain0 + blockIdx.x, size / 2};
    if (MODE == CHAIN_RACY && tid == 0) t.race_start[g.chain * t.depths + depth] = t0;
    if (g.half == 1) {
        if (tid == 0) t.out[g.chain] = g.pair(0);
    } else if (MODE == CHAIN_NESTED) { /* the barrier puts the block's writes in thread 0's view at the launch */
        delay_other_warps(t, depth);
        if (tid < g.half) g.w[tid] = g.pair(tid);
        __threadfence();
        __syncthreads();
        if (tid == 0) launch_child<MODE>(t, g, depth, slot);
    } else if (tid < g.half) {
        delay_other_warps(t, depth);
        g.w[tid] = g.pair(tid);
        if (MODE == CHAIN_RACY) { /* the textbook's: thread 0 launches right after its own write */
            atomicMax(&t.race_write[g.chain * t.depths + depth], gl_globaltimer());
            if (tid == 0) launch_child<MODE>(t, g, depth, slot);
        } else { /* the last writer of the block launches; nobody waits at a barrier */
            __threadfence();
            if (atomicAdd(&t.arrive[g.chain], 1u) == g.half - 1) {
                __threadfence(); /* the others fenced before they counted in: their writes precede the launch */
                t.arrive[g.chain] = 0; /* ordered before the child's own arrivals by the launch */
                launch_child<MODE>(t, g, depth, slot);
            }
        }
    }
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* ---- nested2: one grid per level; block 0 tail-launches the next, which starts after every block ended --
 * Level 0 reads block b's in_dim = 2 * stride ints and writes stride halves to work[b * dim ...]; deeper levels
 * halve work in place, in every block at once. */
template <typename T>
__global__ void nested2(tree t, const T *in, long long n, long long in_dim, long long *work, unsigned int stride,
                        unsigned int dim, int depth, unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int tid = threadIdx.x;
    const T *seg = in + (long long)blockIdx.x * in_dim;
    long long seg_n = n - (long long)blockIdx.x * in_dim;
    long long *w = work + (long long)blockIdx.x * dim;
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

/* Blocks for a grid-stride pass over n ints: enough for every SM, no more than the work. */
__host__ __device__ __forceinline__ unsigned int grid_for(long long n, unsigned int max_blocks)
{
    long long want = (n / 4 + FLAT_THREADS - 1) / FLAT_THREADS;
    return want < 1 ? 1u : want > (long long)max_blocks ? max_blocks : (unsigned int)want;
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
    long long s = block_sum(thread_sum(in, mine, (long long)blockIdx.x * blockDim.x + threadIdx.x,
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
__host__ __device__ __forceinline__ long long agg_blocks(long long n)
{
    return (n + (long long)FLAT_THREADS * AGG_ITEMS - 1) / ((long long)FLAT_THREADS * AGG_ITEMS);
}

/* The last level: one block adds all m partials (at most 131072), eight loads in flight per thread. One level,
 * not a tree of tiles: a device launch costs more than this block's reads. */
__global__ void __launch_bounds__(AGG_LAST_THREADS) agg_last(tree t, const long long *in, long long m, int depth,
                                                             unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    const long long step = blockDim.x;
    long long acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    long long i = threadIdx.x;
    for (; i + 7 * step < m; i += 8 * step) {
#pragma unroll
        for (int k = 0; k < 8; k++) acc[k] += in[i + k * step];
    }
    for (; i < m; i += step) acc[0] += in[i];
    long long s = block_sum(acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7]);
    if (threadIdx.x == 0) t.out[0] = s;
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* The first level: a partial per tile into out, or the sum into t.out[0] when one tile is all; block 0
 * tail-launches the last level, which starts once every block of this grid has ended. */
__global__ void __launch_bounds__(FLAT_THREADS) agg_level(tree t, const int *in, long long n, long long *out,
                                                          unsigned int slot)
{
    unsigned long long t0 = gl_globaltimer();
    long long s = block_sum(tile_sum(in, n));
    if (threadIdx.x == 0) {
        if (gridDim.x == 1) t.out[0] = s;
        else out[blockIdx.x] = s;
    }
    if (gridDim.x > 1 && blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned int cs = child_slot(t);
        agg_last<<<1, AGG_LAST_THREADS, 0, cudaStreamTailLaunch>>>(t, out, gridDim.x, 1, cs, (int)slot);
        launched(t);
    }
    gl_span_block_end(t.spans, slot, t0, 0, 0, -1);
}

/* ---- host: the reference and the plan ----------------------------------------------------- */

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

/* The exact sum on every core: 64-bit integer addition is associative, so no order of the threads changes it. */
static long long reference_sum(const int *in, long long n)
{
    long long sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (long long i = 0; i < n; i++) sum += in[i];
    return sum;
}

typedef struct bench {
    long long n;                   /* elements (--n, which writes it as its unsigned twin) */
    int block;                     /* the textbook variants' block (--block, a power of two) */
    unsigned long long pool_given; /* --pool, or 0 */
    double race_delay_us;          /* --race-delay-us */
    long long chains;              /* blocks of the textbook variants' first level: ceil(n / block) */
    int levels;                    /* log2(block): grids per chain */
    unsigned int flat_blocks;      /* flat's largest grid: SMs x resident blocks */
    const int *h_in;               /* the input */
    long long want, sum;           /* the reference sum, and the last run's */
    long long *h_copy;             /* cpu-recursive's working copy */
    int *d_in;                     /* the input on the device */
    long long *d_work;             /* in-place variants' halves */
    long long *d_out, *d_result;   /* partials, one per chain (or the sum in d_out[0]); the sum */
    long long *d_flat_partials;    /* flat's per-block partials */
    unsigned int *d_flat_done;     /* flat's last-block counter */
    long long *d_agg, *d_sums;     /* nested-agg's first-level partials; nested-tail's running total per level */
    void *d_cub;                   /* CUB's temporary storage */
    size_t cub_bytes;              /* its size */
    tree t;                        /* what the trees get */
    long long slice_chains[N_VARIANTS]; /* chains per host launch of the top level: a slice's launches fit the pool */
} bench;

/* Device-side launches one run of variant v makes (the host's prediction). */
static long long predicted_launches(const bench *b, int v)
{
    long long k = 0;
    switch (v) {
    case V_NESTED: case V_NOSYNC: case V_RACY: return b->chains * (b->levels - 1);
    case V_NESTED2: return b->levels - 1;
    case V_TAIL:
        for (long long n = b->n; n > TAIL_LEAF; n -= (n / 2) & ~3LL) k += 2;
        return k;
    case V_AGG: return agg_blocks(b->n) > 1;
    default: return 0;
    }
}

/* Grids one run of variant v runs on the device (host- and device-launched; the partials pass aside). */
static long long predicted_grids(const bench *b, int v)
{
    if (v == V_CPU || v == V_CUB) return 0;
    if (v == V_NEIGHBORED || v == V_FLAT) return 1;
    return 1 + predicted_launches(b, v);
}

/* Whether the validation run of v records its grids: the trees, when small enough. */
static int records(const bench *b, int v)
{
    return v != V_CPU && v != V_CUB && v != V_FLAT && v != V_NEIGHBORED && predicted_grids(b, v) <= TRACE_GRID_CAP;
}

/* ---- host: one run (the lab calls these for the check and for every sample) -------------------- */

/* Untimed: cpu-recursive's copy to halve; nested-tail's total zeroed, queued before the gate. */
static void before_run(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    if (v == V_CPU)
        for (long long i = 0; i < b->n; i++) b->h_copy[i] = b->h_in[i];
    if (v == V_TAIL) CUDA_CHECK(cudaMemsetAsync(b->d_sums, 0, sizeof(long long), L->stream));
}

/* Variant v, from its first launch to its sum on the device; the textbook variants add a partials pass. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    if (v == V_CPU) {
        b->sum = cpu_recursive(b->h_copy, b->n);
        return;
    }
    cudaStream_t s = L->stream;
    tree t = b->t;
    t.record = L->checking && records(b, v);
    unsigned int top = t.record ? gl_spans_reserve(&L->spans, 1) : GL_NO_SPAN;
    unsigned int chains = (unsigned int)b->chains, B = (unsigned int)b->block, flat = b->flat_blocks;
    switch (v) {
    case V_NEIGHBORED: neighbored<<<chains, B, 0, s>>>(t, b->d_in, b->n, b->d_work); break;
    case V_NESTED: case V_NOSYNC: case V_RACY: /* slice c0 covers chains [c0, c0 + k): its input, halves, partials */
        for (long long c0 = 0, step = b->slice_chains[v]; c0 < b->chains; c0 += step) {
            unsigned int k = (unsigned int)(b->chains - c0 < step ? b->chains - c0 : step);
            const int *in = b->d_in + c0 * B;
            long long n = b->n - c0 * B, *work = b->d_work + c0 * (B / 2);
            if (v == V_NESTED) chain_level<CHAIN_NESTED, int><<<k, B, 0, s>>>(t, in, n, work, B, 0, top, -1, c0);
            else if (v == V_NOSYNC) chain_level<CHAIN_NOSYNC, int><<<k, B, 0, s>>>(t, in, n, work, B, 0, top, -1, c0);
            else chain_level<CHAIN_RACY, int><<<k, B, 0, s>>>(t, in, n, work, B, 0, top, -1, c0);
            CUDA_CHECK_LAUNCH("a slice of the top level");
        }
        break;
    case V_NESTED2:
        nested2<int><<<chains, B / 2, 0, s>>>(t, b->d_in, b->n, B, b->d_work, B / 2, B / 2, 0, top, -1);
        break;
    case V_TAIL:
        nested_tail<<<grid_for(b->n, flat), FLAT_THREADS, 0, s>>>(t, b->d_in, b->n, b->d_sums, flat, 0, top, -1);
        break;
    case V_FLAT:
        flat_reduce<int><<<grid_for(b->n, flat), FLAT_THREADS, 0, s>>>(b->d_in, b->n, b->d_flat_partials,
                                                                     b->d_flat_done, b->d_result);
        break;
    case V_CUB: CUDA_CHECK(cub::DeviceReduce::Sum(b->d_cub, b->cub_bytes, b->d_in, b->d_result, b->n, s)); break;
    case V_AGG:
        agg_level<<<(unsigned int)agg_blocks(b->n), FLAT_THREADS, 0, s>>>(t, b->d_in, b->n, b->d_agg, top);
        break;
    }
    CUDA_CHECK_LAUNCH("a nested-reduce variant");
    if (v <= V_NESTED2 || v == V_RACY) { /* the partials pass: one flat pass over the chains' partials */
        flat_reduce<long long><<<grid_for(b->chains * 4, flat), FLAT_THREADS, 0, s>>>(
            b->d_out, b->chains, b->d_flat_partials, b->d_flat_done, b->d_result);
        CUDA_CHECK_LAUNCH("the partials pass");
    }
}

/* After a GPU run (the lab has checked its device-side launches): the sum it left. */
static void after_run(gl_lab *L, int v, void *ctx)
{
    (void)L;
    bench *b = (bench *)ctx;
    const long long *where = v == V_TAIL ? b->d_sums : v == V_AGG ? b->d_out : b->d_result;
    CUDA_CHECK(cudaMemcpy(&b->sum, where, sizeof b->sum, cudaMemcpyDeviceToHost));
}

/* ---- host: the checks and the race ------------------------------------------------------------ */

/* Labels: one per depth, then the continuation; tracks: one per depth. */
static void label_name(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    if (label == LABEL_COMBINE) gl_buf_puts(out, "continuation (tail)");
    else gl_buf_printf(out, "depth %d", label);
}

/* Run the racy variant --repeat times; count wrong sums, and children that started before their parent's last
 * write. Makes the variant's one claim. */
static void demonstrate_race(gl_lab *L, bench *b, gl_row *row)
{
    size_t cells = (size_t)b->chains * (size_t)b->levels;
    unsigned long long *h_write = (unsigned long long *)gl_xmalloc(cells * sizeof *h_write);
    unsigned long long *h_start = (unsigned long long *)gl_xmalloc(cells * sizeof *h_start);
    long long wrong = 0, early = 0, children = 0;
    int reps = L->common.repeat;
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaMemsetAsync(b->t.race_write, 0, cells * sizeof *h_write, L->stream)); /* before the run */
        CUDA_CHECK(cudaMemsetAsync(b->t.race_start, 0xFF, cells * sizeof *h_start, L->stream));
        gl_lab_run(L, V_RACY);
        wrong += b->sum != b->want;
        CUDA_CHECK(cudaMemcpy(h_write, b->t.race_write, cells * sizeof *h_write, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(h_start, b->t.race_start, cells * sizeof *h_start, cudaMemcpyDeviceToHost));
        for (size_t c = 0; c < (size_t)b->chains; c++)
            for (int d = 1; d < b->levels; d++, children++)
                early += h_start[c * b->levels + d] < h_write[c * b->levels + d - 1];
    }
    gl_row_text(row, "wrong_sums", 0, "%lld of %d", wrong, reps);
    gl_row_text(row, "early_children", 0, "%lld of %lld", early, children);
    const char *text = "nested-nosync-racy races: a child can read halves not yet written";
    if (wrong || early)
        gl_claim_fact(&L->rep, row, GL_CLAIM_ORDERING, 1, text,
                      "%lld of %d runs summed wrong; %lld of %lld children started before their parent's last write",
                      wrong, reps, early, children);
    else
        gl_claim_skip(&L->rep, row, GL_CLAIM_ORDERING, text,
                      "not observed in %d runs (%lld children, none started before its parent's last write); "
                      "to see it, use a first level that fits on the GPU at once and hold back the writers, e.g. "
                      "--n 65536 --race-delay-us 50",
                      reps, children);
    free(h_write);
    free(h_start);
}

/* The check of v's validation run: the exact sum (the racy one aside), the launches, the recorded tree. */
static int check_variant(gl_lab *L, int v, gl_row *row, void *ctx)
{
    bench *b = (bench *)ctx;
    const char *name = L->spec->variants[v].name;
    long long launches = predicted_launches(b, v), grids = predicted_grids(b, v);
    int ok = 1, combine = LABEL_COMBINE;
    gl_row_number(row, "launches", "", 0, 0, (double)L->launches);
    if (v != V_RACY)
        ok &= gl_check(&L->rep, row, b->sum == b->want, "%s sums %lld ints exactly (got %lld, want %lld)", name, b->n,
                       b->sum, b->want);
    ok &= gl_check(&L->rep, row, (long long)L->launches == launches, "%s: %llu device-side launches, %lld predicted",
                   name, L->launches, launches);
    if (records(b, v)) {
        const gl_timeline *tl = gl_lab_timeline(L);
        ok &= gl_check(&L->rep, row, tl->n == grids, "%s: %d grids recorded, %lld predicted", name, tl->n, grids);
        if (v == V_NESTED2 || v == V_AGG) {
            gl_lineage l = gl_timeline_lineage(tl, gl_filter_all, NULL, 0.0);
            gl_claim_every(&L->rep, row, GL_CLAIM_ORDERING, "each level starts after every block of the level before "
                           "ended", l.after, l.pairs, "parent-child pairs", "one level only: nothing is tail-launched");
        } else if (v == V_TAIL) {
            gl_lineage l = gl_timeline_lineage(tl, gl_filter_label, &combine, 0.0);
            gl_claim_every(&L->rep, row, GL_CLAIM_ORDERING, "each continuation starts after the grid that launched it "
                           "ended", l.after, l.pairs, "continuations", "the range fits one grid: no continuation");
        }
        char title[96];
        snprintf(title, sizeof title, "%s (validation run)", name);
        gl_names names = {NULL, label_name, NULL, "depth %d", NULL, NULL, 0};
        gl_lab_show(L, title, &names);
    }
    if (v == V_RACY) demonstrate_race(L, b, row);
    return ok;
}

/* Refused before the runtime starts: a --block the trees cannot halve, a trace too big to open. */
static void options_ok(gl_lab *L, void *ctx)
{
    bench *b = (bench *)ctx;
    if (b->block & (b->block - 1))
        gl_die(GL_EXIT_USAGE, "--block %d: must be a power of two (the textbook trees halve each block down to 2)",
               b->block);
    b->chains = (b->n + b->block - 1) / b->block;
    for (int s = b->block; s > 1; s >>= 1) b->levels++;
    for (int v = 0; v < N_VARIANTS && (L->common.trace_path || L->common.timeline); v++)
        if (L->chosen[v] && predicted_grids(b, v) > TRACE_FILE_CAP)
            gl_die(GL_EXIT_USAGE, "--trace/--timeline: %s at --n %lld makes %lld grids; the tree is recorded up to %d "
                   "(use a smaller --n, or a larger --block)",
                   L->spec->variants[v].name, b->n, predicted_grids(b, v), TRACE_FILE_CAP);
}

/* ---- host: main ------------------------------------------------------------------------- */

static const gl_lab_variant variants[N_VARIANTS] = {
    {"cpu-recursive", GL_LAB_HOST}, {"neighbored", GL_LAB_GPU}, {"nested", GL_LAB_GPU},
    {"nested-nosync", GL_LAB_GPU},  {"nested2", GL_LAB_GPU},    {"nested-tail", GL_LAB_GPU},
    {"flat", GL_LAB_GPU},           {"cub", GL_LAB_GPU},        {"nested-agg", GL_LAB_GPU},
    {"nested-nosync-racy", GL_LAB_GPU | GL_LAB_NOT_IN_ALL}};
/* Made only where both variants ran. flat and cub both reach the DRAM roofline, where which is faster by under 2%
 * changed between machines. Below 2^26, nested-agg's one device launch (9 to 14 us on an H100) is more than a
 * quarter of flat's time. */
static const gl_lab_claim claims[] = {
    {"flat is as fast as cub, within 2%% (median, L2 flushed; both at the DRAM roofline)", "flat", GL_LAB_FASTER, "cub",
     0.98, 2},
    {"nested-agg takes at most 1.25x the time of flat (n >= 2^26)", "nested-agg", GL_LAB_SLOWER, "flat", 1.25, 0}};
static const gl_lab_claim_guard claim_guards[] = {
    {0, NULL, 1},
    {4.0 * (1LL << 26), "judged from --n 2^26: below it, nested-agg's one device launch is more than a quarter of "
                        "flat's time (here %.1f us against %.1f us, %.2fx)", 1}};

int main(int argc, char **argv)
{
    static bench b;
    b.n = 1LL << 20;
    b.block = 512;
    gl_option opts[] = {
        {"n", GL_OPT_U64, &b.n, 1, 1073741824.0, NULL, NULL, "elements to sum (1..2^30)", 0},
        {"block", GL_OPT_INT, &b.block, 2, 1024, NULL, NULL, "threads per block of the textbook variants (a power of two)", 0},
        {"pool", GL_OPT_U64, &b.pool_given, 0, 1e8, NULL, NULL,
         "pending-launch pool to set instead of the computed one (0: computed); too small a pool shows the overflow (exit 3)", 0},
        {"race-delay-us", GL_OPT_DOUBLE, &b.race_delay_us, 0, 1e5, NULL, NULL,
         "hold back every warp but the first of each level-0 block this long before it writes (nested, nested-nosync, "
         "and the racy variant: a barrier-free launch then reads halves not yet written)", 0},
    };
    static const gl_experiment exp = {
        "nested-reduce",
        "what does a recursive (device-launched) reduction cost against the best flat reduction, in each textbook "
        "variant made race-free?",
        "The sum of --n random ints (64-bit accumulation), every variant checked exactly against the CPU.\n"
        "--block is the textbook variants' block (a power of two, 2..1024); flat, nested-tail and nested-agg\n"
        "use blocks of 256 threads, and cub chooses its own. At --n 1048576 --block 512 the textbook's K40c\n"
        "times are printed beside ours. nested-nosync-racy (not in 'all') demonstrates the textbook's race."};
    gl_lab_spec spec = GL_LAB_SPEC(exp, variants, opts, claims, run_variant, &b);
    spec.table = "nested-reduce";
    spec.axis = "n";
    spec.claim_guards = claim_guards;
    spec.before_run = before_run;
    spec.after_run = after_run;
    spec.check = check_variant;
    spec.options_ok = options_ok;
    spec.time_precision = 1;
    spec.guard_what = "launch latency, not the reduction";
    spec.device_launches = 1;
    gl_lab L;
    gl_lab_open(&L, &spec, argc, argv);

    /* The input, and the reference on the CPU; cpu-recursive's 64-bit copy (8 GiB at 2^30) only when it runs. */
    int *h_in = (int *)gl_xmalloc(sizeof(int) * (size_t)b.n);
    gl_fill_i32(h_in, (size_t)b.n, L.common.seed, 0, INT32_MIN, INT32_MAX);
    b.h_in = h_in;
    b.h_copy = L.chosen[V_CPU] ? (long long *)gl_xmalloc(sizeof(long long) * (size_t)b.n) : NULL;
    b.want = reference_sum(h_in, b.n);
    b.flat_blocks = gl_lab_grid(&L, (const void *)flat_reduce<int>, FLAT_THREADS, 1LL << 40); /* as many as fit */
    long long max_grids = 0;
    for (int v = 0; v < N_VARIANTS; v++)
        if (L.chosen[v] && predicted_grids(&b, v) > max_grids) max_grids = predicted_grids(&b, v);
    unsigned int span_slots = (unsigned int)(max_grids < TRACE_GRID_CAP ? max_grids : (long long)TRACE_GRID_CAP) + 8;

    /* ---- memory: the data, checked against what is free before anything is allocated ---- */
    long long agg0 = agg_blocks(b.n), racy_cells = L.chosen[V_RACY] ? b.chains * b.levels : 0;
    double work = (double)b.chains * b.block; /* neighbored widens whole blocks; the trees use half */
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, b.cub_bytes, (const int *)NULL, (long long *)NULL, b.n));
    const gl_lab_buffer bufs[] = {
        {&b.d_in, 4.0 * b.n, "the input"},
        {&b.d_work, 8.0 * work, "the halves"},
        {&b.d_out, 8.0 * b.chains, "the chains' partials"},
        {&b.d_result, 8, "the sum"},
        {&b.d_flat_partials, 8.0 * b.flat_blocks, "flat's partials"},
        {&b.d_flat_done, 4, "flat's counter"},
        {&b.d_agg, 8.0 * agg0, "nested-agg's partials"},
        {&b.d_sums, 8.0 * (MAX_DEPTH + 2), "nested-tail's totals"},
        {&b.d_cub, (double)b.cub_bytes, "cub's temporary storage"},
        {&b.t.arrive, 4.0 * b.chains, "nested-nosync's counters"},
        {&b.t.race_write, 8.0 * racy_cells, "the race's write stamps"},
        {&b.t.race_start, 8.0 * racy_cells, "the race's start stamps"}};
    gl_lab_need(&L, sizeof(gl_span) * (double)span_slots, "the spans");
    gl_lab_buffers(&L, bufs, GL_ARRAY_LEN(bufs));
    CUDA_CHECK(cudaMemcpy(b.d_in, h_in, sizeof(int) * (size_t)b.n, cudaMemcpyHostToDevice));
    b.t.err = L.dev_err;
    b.t.launches = L.d_launches;
    b.t.out = b.d_out;
    b.t.depths = b.levels;
    b.t.delay_ns = (unsigned long long)(b.race_delay_us * 1e3);
    gl_lab_spans(&L, 1, span_slots, 0);
    b.t.spans = L.spans.dev;
    L.timeout_s = 60 + 1e-5 * (double)max_grids; /* the slowest tree measured (nested at 2^26, a million grids): 1 s */

    printf("n = %lld ints (%.1f MB), %lld chains of %d (textbook variants), reference sum %lld\n", b.n, 4.0 * b.n / 1e6,
           b.chains, b.block, b.want);

    /* ---- one configuration: every variant's pool, its check, then the times ---- */
    gl_lab_plan(&L, 1, 0);
    gl_lab_add_config(&L, 4.0 * (double)b.n, "%lld", b.n);
    gl_lab_param_num(&L, "n", (double)b.n);
    for (int v = 0; v < N_VARIANTS; v++) {
        gl_row *row = gl_lab_row(&L, 0, v);
        if (!row) continue;
        if (v == V_CPU) gl_row_param(row, "block", "-");
        else if (v == V_CUB) gl_row_param(row, "block", "cub's");
        else gl_row_param(row, "block", "%d", v >= V_TAIL && v != V_RACY ? FLAT_THREADS : b.block);
        if (v == V_CPU) continue;
        int chained = v == V_NESTED || v == V_NOSYNC || v == V_RACY; /* a chain per block: sliced by whole chains */
        long long units = chained ? b.chains : 1;
        b.slice_chains[v] = gl_lab_pool(&L, v, predicted_launches(&b, v), units, "chain", b.pool_given);
        if (!b.slice_chains[v] && L.n_chosen == 1) /* nothing else to run */
            gl_no_gpu("%s at --n %lld %s", variants[v].name, b.n, row->skip_reason);
    }
    gl_lab_work(&L, 4.0 * (double)b.n, (double)b.n);
    gl_lab_check(&L, "sums %lld ints exactly", b.n);

    /* ---- the times against flat and nested, the textbook's K40c, and the claims on speed ---- */
    if (gl_lab_time(&L)) {
        double med[N_VARIANTS];
        for (int v = 0; v < N_VARIANTS; v++) med[v] = gl_lab_median(&L, 0, v);
        int textbook = b.n == (1LL << 20) && b.block == 512;
        for (int v = 0; v < N_VARIANTS; v++) {
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
    free(b.h_copy);
    free(h_in);
    return gl_lab_close(&L);
}
