/* nested-reduce.cu - the textbook's recursive reductions on CDP2, race-free, beside the best flat reduction and CUB.
 *
 * Question: what does a recursive (device-launched) reduction cost against the best flat reduction, in each textbook variant made race-free?
 * Build: rdc cub openmp
 * Sanitize: --quick --profile --n 16387 --block 64 --skip-timing-claims
 *
 * The sum of n random 32-bit ints, accumulated in 64 bits (so every sum is
 * exact: 2^30 terms of at most 2^31 stay below 2^61), checked against the
 * exact sum on the CPU (OpenMP, every core). Variants (--variant all, the
 * default, or a comma-separated list):
 *   cpu-recursive  the reference itself, timed (a 64-bit copy, halved in place)
 *   neighbored     the seed's reduceNeighbored: a block of --block threads halves its
 *                  segment in place in global memory, with a barrier per step
 *   nested         the textbook's gpuRecursiveReduce on CDP2: thread 0 of each block
 *                  launches a one-block child on the lower half, down to 2 elements
 *   nested-nosync  the textbook's idea of dropping the per-level barrier, race-free
 *   nested2        the textbook's gpuRecursiveReduce2: one grid per level
 *   nested-tail    the CDP2 replacement for "launch a child, wait, use its result"
 *   flat           gridlab's flat reduction: 16-byte loads, shuffles, grid-stride, one pass
 *   cub            cub::DeviceReduce::Sum
 *   nested-agg     nested reduction with launches aggregated per level (KLAP, MICRO 2016)
 *   nested-nosync-racy  the textbook's racy nosync, as a demonstration (not in "all")
 * The textbook variants (neighbored .. nested2) leave one partial per block;
 * a flat pass over the partials, in the same stream and the same timed
 * region, turns them into the sum, so that every variant's time is the time
 * to one number on the device. The first level of every in-place variant reads
 * the int input and writes 64-bit halves into a workspace: the input is never
 * modified, and the zero padding of a last, partial block is done on the fly.
 *
 * Why the CDP2 ports are correct. Device-side cudaDeviceSynchronize is gone on
 * sm_90, so no parent waits for its child; each one leaves the work to it.
 *  - nested: every thread writes its half, fences, and meets the block barrier;
 *    then thread 0 launches the child (fire-and-forget). The guide promises the
 *    child sees every global write its launching thread could see at the launch;
 *    the barrier puts the whole block's writes in thread 0's view. The deepest
 *    child writes the chain's partial. The host's stream is complete only when
 *    the top grid and every descendant are (the implicit join), so the partials
 *    pass, queued after it, reads finished partials.
 *  - nested-nosync: the textbook dropped the barrier and read halves other
 *    threads had not written yet. Here no thread waits either: each writer
 *    fences and counts itself in on a per-chain counter, and the last one to
 *    arrive launches the child, after every write of the block is visible.
 *    (nested-nosync-racy keeps the textbook's form: thread 0 launches at once.
 *    The child can read halves the parent's other warps have not written. The
 *    demonstration stamps each parent's last write and each child's start, and
 *    counts children that started before their parent's last write, and wrong
 *    sums.)
 *  - nested2: block 0 of each level tail-launches the next level; a tail launch
 *    starts only after every block of the launching grid has finished, so no
 *    level reads a half that is still being written (the textbook launched it
 *    at once, racing the other blocks).
 *  - nested-tail: a grid reduces the first half of its range while a
 *    fire-and-forget child grid does the rest, recursively; a tail-launched
 *    one-thread continuation adds the child's total to the parent's. A tail
 *    launch starts after its grid and all of that grid's descendants, their
 *    continuations included, have finished: the child's total is final.
 *  - nested-agg: one grid for the first level, each block reducing a tile of
 *    8192 ints to one partial with a full block reduction; block 0
 *    tail-launches one block that adds the partials (at most 131072): one
 *    device launch instead of one per block per level.
 *
 * Model. Device-side launches per run are predicted on the host and counted on
 * the device: nested and nested-nosync make (log2(block) - 1) per block,
 * nested2 (log2(block) - 1) in all, nested-tail 2 per level that has a child,
 * nested-agg one when the input is more than one tile. The pending-launch pool has no
 * overflow in CDP2: before each variant's first launch the host sets it to
 * that variant's count (every launch could be pending at once), at least the
 * default 2048, and reads it back: the runtime clamps it without an error
 * (599186 on an H200). A tree with more launches than the pool is launched as
 * slices of whole chains, one host launch each, each within the pool; a
 * variant for which not even one chain fits is refused before it starts. The
 * pool is set per variant, not once for all, because a larger pool makes
 * every device launch slower (the limit can be changed after device launches:
 * cdp-limits measures both).
 *
 * Run:   make run-nested-reduce                              (2^20, the textbook's size: the K40c column)
 *        make run-nested-reduce ARGS="--n 268435456 --variant flat,cub,nested-agg --repeat 20"
 *        make run-nested-reduce ARGS="--variant nested-nosync-racy --repeat 50"
 *        make run-nested-reduce ARGS="--n 4096 --variant nested --trace tree.json"   (the tree in Perfetto)
 * Nsight Systems (make profile-nested-reduce) shows one NVTX range per variant
 * on the stream "nested-reduce"; it does not trace device-launched grids. The
 * nested tree (one track per depth, a flow from each parent to each child) is
 * in --trace FILE, from the validation run of each nested variant.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_reduce.cuh>

#include "check.h"
#include "device_check.cuh"
#include "gl_cuda.h"
#include "nvtx.h"
#include "spans.cuh"
#include "trace.h"
#include "work.cuh"

enum { V_CPU, V_NEIGHBORED, V_NESTED, V_NOSYNC, V_NESTED2, V_TAIL, V_FLAT, V_CUB, V_AGG, V_RACY, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = {"cpu-recursive", "neighbored", "nested", "nested-nosync",
                                                      "nested2", "nested-tail", "flat", "cub", "nested-agg",
                                                      "nested-nosync-racy"};
static const double FLAT_VS_CUB = 0.98, AGG_VS_FLAT = 1.25; /* the speed claims' bounds */
/* nested-agg's claim is judged from here: its one device launch and last block
 * cost 9 to 14 us on an H100 (the device runtime's tail launch), which is a
 * quarter of flat's time at 2.6e7 ints (1.29x at n = 26214401) and a tenth at
 * 2^26 (1.09x at 2^26 + 1). */
static const long long AGG_CLAIM_MIN_N = 1LL << 26;
/* The textbook's chapter-3 times on a Tesla K40c, 2^20 ints in blocks of 512 (seconds; 0: not in the book). */
static const double k40c_s[N_VARIANTS] = {0.000689, 0.000532, 0.172036, 0.059125, 0.000797, 0, 0, 0, 0, 0};

enum {
    FLAT_THREADS = 256,  /* block of flat, nested-tail and nested-agg (a multiple of 32: warp shuffles) */
    AGG_ITEMS = 32,      /* elements per thread in a nested-agg tile */
    AGG_LAST_THREADS = 1024, /* nested-agg's last level: one block */
    TAIL_LEAF = 1 << 18, /* nested-tail: a range this small is reduced by one grid, without a child */
    MAX_DEPTH = 32,      /* depth labels: log2(1024) levels, or 2^30 halved to TAIL_LEAF */
    LABEL_COMBINE = MAX_DEPTH, /* the nested-tail continuation */
    TRACE_GRID_CAP = 1 << 21,  /* grids a validation run records spans for (the ordering claims) */
    TRACE_FILE_CAP = 1 << 17   /* grids --trace and --timeline show (a larger trace is too big to open) */
};

/* ---- what every grid of a tree gets -------------------------------------------------- */

typedef struct tree {
    gl_span_buf spans;             /* grid records of a validation run */
    int record;                    /* record spans (validation run, when the tree is small enough) */
    gl_dev_error *err;             /* failed device-side launches */
    unsigned long long *launches;  /* device-side launches that succeeded */
    long long *out;                /* one partial per chain (textbook variants), or the sum */
    unsigned int *arrive;          /* nested-nosync: writers of the current level, per chain */
    unsigned long long *race_write; /* racy: the latest write of each chain at each depth (ns) */
    unsigned long long *race_start; /* racy: the start of each chain's grid at each depth (ns) */
    int depths;                    /* depths per chain (stride of the race arrays) */
    unsigned long long delay_ns;   /* --race-delay-us: every warp but the first waits this long before its level-0 write */
} tree;

/* A device-side launch was just made: count it, or record why it failed. */
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

/* Four ints widened and added. */
__device__ __forceinline__ long long sum4(int4 q) { return (long long)q.x + (long long)q.y + (long long)q.z + q.w; }

/* This thread's share of in[0, n), grid-stride: 16-byte loads, eight in flight
 * (on an H100 at 2^28, 359.9 us against 363.9 us with four; one contiguous
 * chunk per block instead of grid-stride took 383.7 us). */
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

/* flat: one pass. Each block leaves a partial; the last block to finish (a
 * counter, after a fence) adds the partials and resets the counter. */
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

/* ---- neighbored: the seed's reduceNeighbored --------------------------------------------- */

/* Block b widens its segment into work, then halves it in place with a barrier per step. */
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
 * Level 0 is host-launched with one block per chain, reads the int input and
 * writes halves to work; every deeper level is one block of size/2 threads
 * working in place on its segment (reading i and i + half, writing i < half:
 * no thread writes what another reads). */

/* What one block of a chain's level works on: its segment of the level's
 * input (elements past n are the zero padding), where its halves go, its chain. */
template <typename T>
struct segment {
    const T *in;        /* this block's segment */
    long long n;        /* elements of it that exist */
    long long *w;       /* where its halves go (in place below level 0) */
    long long chain;    /* which chain it belongs to: the index of its partial */
    unsigned int half;  /* halves it writes: size / 2 */
    /* Element i plus element i + half: one half of this level's output. */
    __device__ long long pair(unsigned int i) const { return at(in, i, n) + at(in, (long long)i + half, n); }
};

template <typename T>
__device__ __forceinline__ segment<T> segment_of(const T *in, long long n, long long *work, unsigned int size,
                                                 long long chain0)
{
    segment<T> g;
    g.in = in + (long long)blockIdx.x * size;
    g.n = n - (long long)blockIdx.x * size;
    g.half = size / 2;
    g.w = work + (long long)blockIdx.x * g.half;
    g.chain = chain0 + blockIdx.x;
    return g;
}

template <typename T>
__global__ void nested(tree t, const T *in, long long n, long long *work, unsigned int size, int depth,
                       unsigned int slot, int parent, long long chain0)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int tid = threadIdx.x;
    segment<T> g = segment_of(in, n, work, size, chain0);
    if (g.half == 1) {
        if (tid == 0) t.out[g.chain] = g.pair(0);
    } else {
        delay_other_warps(t, depth);
        if (tid < g.half) g.w[tid] = g.pair(tid);
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            unsigned int cs = child_slot(t);
            nested<long long><<<1, g.half, 0, cudaStreamFireAndForget>>>(t, g.w, g.half, g.w, g.half, depth + 1, cs,
                                                                       (int)slot, g.chain);
            launched(t);
        }
    }
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

template <typename T>
__global__ void nested_nosync(tree t, const T *in, long long n, long long *work, unsigned int size, int depth,
                              unsigned int slot, int parent, long long chain0)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int tid = threadIdx.x;
    segment<T> g = segment_of(in, n, work, size, chain0);
    if (g.half == 1) {
        if (tid == 0) t.out[g.chain] = g.pair(0);
    } else if (tid < g.half) {
        delay_other_warps(t, depth);
        g.w[tid] = g.pair(tid);
        __threadfence();
        /* The last writer of the block launches; nobody waits at a barrier. */
        if (atomicAdd(&t.arrive[g.chain], 1u) == g.half - 1) {
            __threadfence(); /* the other writers fenced before they counted in; this orders their writes before the launch */
            t.arrive[g.chain] = 0; /* ordered before the child's own arrivals by the launch */
            unsigned int cs = child_slot(t);
            nested_nosync<long long><<<1, g.half, 0, cudaStreamFireAndForget>>>(t, g.w, g.half, g.w, g.half, depth + 1, cs,
                                                                              (int)slot, g.chain);
            launched(t);
        }
    }
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* The textbook's nosync: thread 0 launches right after its own write. Racy on purpose. */
template <typename T>
__global__ void nested_nosync_racy(tree t, const T *in, long long n, long long *work, unsigned int size, int depth,
                                   unsigned int slot, int parent, long long chain0)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int tid = threadIdx.x;
    segment<T> g = segment_of(in, n, work, size, chain0);
    if (tid == 0) t.race_start[g.chain * t.depths + depth] = t0;
    if (g.half == 1) {
        if (tid == 0) t.out[g.chain] = g.pair(0);
    } else if (tid < g.half) {
        delay_other_warps(t, depth);
        g.w[tid] = g.pair(tid);
        atomicMax(&t.race_write[g.chain * t.depths + depth], gl_globaltimer());
        if (tid == 0) {
            unsigned int cs = child_slot(t);
            nested_nosync_racy<long long><<<1, g.half, 0, cudaStreamFireAndForget>>>(t, g.w, g.half, g.w, g.half, depth + 1,
                                                                                   cs, (int)slot, g.chain);
            launched(t);
        }
    }
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* ---- nested2: one grid per level, each tail-launching the next ---------------------------------
 * Level 0 reads block b's in_dim = 2 * stride ints and writes stride halves to
 * work[b * dim ...]; deeper levels halve work in place, in every block at once. */
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
            nested2<long long><<<gridDim.x, stride / 2, 0, cudaStreamTailLaunch>>>(t, work, LLONG_MAX, dim, work,
                                                                                  stride / 2, dim, depth + 1, cs,
                                                                                  (int)slot);
            launched(t);
        }
    }
    gl_span_block_end(t.spans, slot, t0, depth, depth, parent);
}

/* ---- nested-tail: my half now, the rest in a child, a continuation adds them --------------------- */

/* The continuation: the child's total into the parent's. */
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

/* sums[0] += the sum of in[0, n). A range above the leaf keeps its first half
 * (a multiple of 4, so the rest stays 16-byte aligned) and hands the rest to a child. */
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

/* The sum of block b's tile of in[0, n): AGG_ITEMS per thread, coalesced, every
 * load in flight at once. A whole tile is read as 16-byte vectors; the last,
 * partial tile of an odd n as predicated scalars, still all in flight: a
 * strided loop there would wait out one memory round trip per element and
 * hold the whole level back by the last block. */
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

/* The last level: one block of AGG_LAST_THREADS adds all m partials of the
 * first level (m <= 2^30 / 8192 = 131072: 128 per thread at most), eight loads
 * in flight per thread. One level, not a tree of tiles: each device launch
 * costs microseconds, far more than this block's reads (a second tiled level
 * at n = 2^26 + 1 cost 16 us, 1.26x flat, on an H100). */
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

/* The first level: one partial per tile into out, or the sum into t.out[0]
 * when one tile is all; block 0 tail-launches the last level, which starts
 * once every block of this grid has ended. */
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

/* ---- host: the reference ------------------------------------------------------------------ */

/* The seed's recursive pairwise reduction (any size; an odd element joins
 * element 0), with a 64-bit accumulator. Halves data in place. */
static long long cpu_recursive(long long *data, long long size)
{
    while (size > 1) { /* the seed's tail recursion, as a loop: 2^30 elements would still recurse only 30 deep */
        long long stride = size / 2;
        for (long long i = 0; i < stride; i++) data[i] += data[i + stride];
        if (size & 1) data[0] += data[size - 1];
        size = stride;
    }
    return data[0];
}

/* The exact sum on every core: 64-bit integer addition is associative, so the
 * order the threads add in cannot change it (cpu-recursive, the seed's order,
 * is a timed variant and is checked against this like the others). */
static long long reference_sum(const int *in, long long n)
{
    long long sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (long long i = 0; i < n; i++) sum += in[i];
    return sum;
}

/* ---- host: the setup --------------------------------------------------------------------- */

typedef struct bench {
    long long n;                /* elements */
    int block;                  /* the textbook variants' block (a power of two) */
    long long chains;           /* blocks of the textbook variants' first level: ceil(n / block) */
    int levels;                 /* log2(block): grids per chain */
    int flat_blocks;            /* flat's grid: SMs x resident blocks */
    const int *h_in;            /* the input */
    long long want;             /* the reference sum */
    long long *h_copy;          /* cpu-recursive's working copy */
    int *d_in;                  /* the input on the device */
    long long *d_work;          /* in-place variants' halves: chains * block / 2 */
    long long *d_out;           /* partials, one per chain (or the sum in d_out[0]) */
    long long *d_result;        /* the sum */
    long long *d_flat_partials; /* flat's per-block partials */
    unsigned int *d_flat_done;  /* flat's last-block counter */
    long long *d_agg;           /* nested-agg's first-level partials */
    long long *d_sums;          /* nested-tail: one running total per level */
    void *d_cub;                /* CUB's temporary storage */
    size_t cub_bytes;           /* its size */
    tree t;                     /* what the trees get */
    gl_spans spans;             /* grid records */
    cudaStream_t stream;        /* everything runs here */
    gl_event_timer timer;       /* around one run */
    gl_gate gate;               /* holds the stream until a run is queued */
    double timeout_s;           /* a run this long is hung */
    int variant;                /* the one being measured */
    size_t pool_given;          /* --pool, or 0 */
    size_t pool_margin;         /* device memory the run needs beside the pool */
    size_t pool;                /* the pending-launch pool set for the current variant */
    long long slice_chains;     /* chains per host launch of the top level, so that a slice's launches fit the pool */
    long long slices;           /* host launches of the top level */
} bench;

/* Device-side launches one run of variant v makes (the host's prediction). */
static long long predicted_launches(const bench *b, int v)
{
    switch (v) {
    case V_NESTED:
    case V_NOSYNC:
    case V_RACY: return b->chains * (b->levels - 1);
    case V_NESTED2: return b->levels - 1;
    case V_TAIL: {
        long long k = 0;
        for (long long n = b->n; n > TAIL_LEAF; n -= (n / 2) & ~3LL) k += 2;
        return k;
    }
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

/* Set the pending-launch pool for variant v before its first launch, and how
 * the top level is sliced. The pool is as small as the variant allows: a
 * larger pool makes every device launch slower (measured: one tail launch took
 * 28 us with the default 2048 and 285 us with 599186). The runtime clamps the
 * limit without an error (599186 on an H200, driver 580), so the value is read
 * back; a tree with more launches than the pool holds is launched as slices of
 * whole chains, one host launch each, so that the launches of one slice never
 * exceed the pool. A pool that leaves the run too little memory is halved.
 * Returns 0, with the reason, when not even one chain fits. */
static int size_pool(bench *b, int v, char *why, size_t whylen)
{
    long long need = predicted_launches(b, v);
    long long per_chain = (v == V_NESTED || v == V_NOSYNC || v == V_RACY) ? b->levels - 1 : need;
    size_t want = b->pool_given ? b->pool_given : need > 2048 ? (size_t)need : 2048;
    size_t free_b = 0, total_b = 0;
    for (;;) {
        CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, want));
        CUDA_CHECK(cudaDeviceGetLimit(&b->pool, cudaLimitDevRuntimePendingLaunchCount));
        CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (b->pool_given || per_chain == 0 || free_b >= b->pool_margin || want / 2 < (size_t)per_chain) break;
        want /= 2;
    }
    if (!b->pool_given && per_chain > 0 && (free_b < b->pool_margin || (long long)b->pool < per_chain)) {
        snprintf(why, whylen,
                 "needs a pending-launch pool of %lld (one chain's launches); the runtime gave %zu, leaving %.2f GB "
                 "free of %.2f GB",
                 per_chain, b->pool, free_b / 1e9, total_b / 1e9);
        return 0;
    }
    b->slice_chains = b->chains;
    if (!b->pool_given && per_chain > 0 && need > (long long)b->pool) b->slice_chains = (long long)b->pool / per_chain;
    b->slices = (b->chains + b->slice_chains - 1) / b->slice_chains;
    printf("%s: %lld device-side launches per run; pending-launch pool %zu%s", variant_names[v], need, b->pool,
           b->pool_given ? " (--pool)" : "");
    if (b->slices > 1) printf(", the top level launched in %lld slices of %lld chains", b->slices, b->slice_chains);
    printf("\n");
    return 1;
}

/* Launch variant v into the stream, timed by events from its first launch to its sum. */
static void launch_variant(bench *b, int v, unsigned int top_slot)
{
    cudaStream_t s = b->stream;
    tree t = b->t;
    unsigned int chains = (unsigned int)b->chains, B = (unsigned int)b->block;
    gl_gate_close(&b->gate, s); /* everything below starts together: the events time the device, not the issue */
    if (v == V_TAIL) CUDA_CHECK(cudaMemsetAsync(b->d_sums, 0, sizeof(long long), s)); /* setup, before the clock */
    gl_timer_start(&b->timer, s);
    switch (v) {
    case V_NEIGHBORED: neighbored<<<chains, B, 0, s>>>(t, b->d_in, b->n, b->d_work); break;
    case V_NESTED:
    case V_NOSYNC:
    case V_RACY: /* slice c0 covers chains [c0, c0 + k): its input, its halves and its partials */
        for (long long c0 = 0; c0 < b->chains; c0 += b->slice_chains) {
            long long k = b->chains - c0 < b->slice_chains ? b->chains - c0 : b->slice_chains;
            const int *in = b->d_in + c0 * B;
            long long n = b->n - c0 * B, *work = b->d_work + c0 * (B / 2);
            if (v == V_NESTED) nested<int><<<(unsigned int)k, B, 0, s>>>(t, in, n, work, B, 0, top_slot, -1, c0);
            else if (v == V_NOSYNC) nested_nosync<int><<<(unsigned int)k, B, 0, s>>>(t, in, n, work, B, 0, top_slot, -1, c0);
            else nested_nosync_racy<int><<<(unsigned int)k, B, 0, s>>>(t, in, n, work, B, 0, top_slot, -1, c0);
            CUDA_CHECK_LAUNCH("a slice of the top level");
        }
        break;
    case V_NESTED2:
        nested2<int><<<chains, B / 2, 0, s>>>(t, b->d_in, b->n, B, b->d_work, B / 2, B / 2, 0, top_slot, -1);
        break;
    case V_TAIL:
        nested_tail<<<grid_for(b->n, b->flat_blocks), FLAT_THREADS, 0, s>>>(t, b->d_in, b->n, b->d_sums,
                                                                          b->flat_blocks, 0, top_slot, -1);
        break;
    case V_FLAT:
        flat_reduce<int><<<grid_for(b->n, b->flat_blocks), FLAT_THREADS, 0, s>>>(b->d_in, b->n, b->d_flat_partials,
                                                                               b->d_flat_done, b->d_result);
        break;
    case V_CUB: CUDA_CHECK(cub::DeviceReduce::Sum(b->d_cub, b->cub_bytes, b->d_in, b->d_result, b->n, s)); break;
    case V_AGG:
        agg_level<<<(unsigned int)agg_blocks(b->n), FLAT_THREADS, 0, s>>>(t, b->d_in, b->n, b->d_agg, top_slot);
        break;
    }
    CUDA_CHECK_LAUNCH("a nested-reduce variant");
    if (v <= V_NESTED2 || v == V_RACY) { /* the partials pass: one flat pass over the chains' partials */
        flat_reduce<long long><<<grid_for(b->chains * 4, b->flat_blocks), FLAT_THREADS, 0, s>>>(
            b->d_out, b->chains, b->d_flat_partials, b->d_flat_done, b->d_result);
        CUDA_CHECK_LAUNCH("the partials pass");
    }
    gl_timer_stop(&b->timer, s);
    if (!gl_gate_open(&b->gate))
        gl_die(GL_EXIT_INTERNAL, "queueing %s took longer than the gate waits: its time would include the host's", variant_names[v]);
}

/* Where variant v leaves its sum. */
static const long long *sum_of(const bench *b, int v)
{
    if (v == V_TAIL) return b->d_sums;
    if (v == V_AGG) return b->d_out;
    return b->d_result;
}

/* What one run of a variant returned. */
typedef struct run_result {
    long long sum;               /* the sum it left */
    unsigned long long launches; /* device-side launches counted on the device */
    double ms;                   /* event time */
} run_result;

/* One run of variant v: launch, wait (at most timeout_s), check device errors, read the sum. */
static run_result run_variant(bench *b, int v, unsigned int top_slot)
{
    run_result r = {0, 0, 0};
    if (v == V_CPU) {
        for (long long i = 0; i < b->n; i++) b->h_copy[i] = b->h_in[i];
        double t0 = gl_host_ns();
        r.sum = cpu_recursive(b->h_copy, b->n);
        r.ms = (gl_host_ns() - t0) / 1e6;
        return r;
    }
    CUDA_CHECK(cudaMemsetAsync(b->t.launches, 0, sizeof(unsigned long long), b->stream));
    launch_variant(b, v, top_slot);
    gl_stream_wait(b->stream, b->timeout_s, variant_names[v]);
    gl_dev_error_check(b->t.err);
    r.ms = gl_timer_ms(&b->timer);
    CUDA_CHECK(cudaMemcpy(&r.sum, sum_of(b, v), sizeof r.sum, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&r.launches, b->t.launches, sizeof r.launches, cudaMemcpyDeviceToHost));
    return r;
}

/* One timed repetition. */
static void sample_variant(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    run_result r = run_variant(b, b->variant, GL_NO_SPAN);
    gl_sample_put(smp, "time", r.ms * 1e3);
}

/* Labels: one per depth, then the continuation; tracks: one per depth. */
static void label_name(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    if (label == LABEL_COMBINE) gl_buf_puts(out, "continuation (tail)");
    else gl_buf_printf(out, "depth %d", label);
}

/* ---- host: the racy demonstration ------------------------------------------------------------ */

/* Run the racy variant reps times; count wrong sums, and children that started
 * before their parent's last write. Makes the variant's one claim. */
static void demonstrate_race(bench *b, gl_report *rep, gl_row *row, int reps)
{
    size_t cells = (size_t)b->chains * (size_t)b->levels;
    unsigned long long *h_write = (unsigned long long *)gl_xmalloc(cells * sizeof *h_write);
    unsigned long long *h_start = (unsigned long long *)gl_xmalloc(cells * sizeof *h_start);
    long long wrong = 0, early = 0, children = 0;
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaMemset(b->t.race_write, 0, cells * sizeof *h_write));
        CUDA_CHECK(cudaMemset(b->t.race_start, 0xFF, cells * sizeof *h_start));
        run_result r = run_variant(b, V_RACY, GL_NO_SPAN);
        wrong += r.sum != b->want;
        CUDA_CHECK(cudaMemcpy(h_write, b->t.race_write, cells * sizeof *h_write, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(h_start, b->t.race_start, cells * sizeof *h_start, cudaMemcpyDeviceToHost));
        for (size_t c = 0; c < (size_t)b->chains; c++)
            for (int d = 1; d < b->levels; d++) {
                size_t k = c * (size_t)b->levels + (size_t)d;
                children++;
                early += h_start[k] < h_write[k - 1];
            }
    }
    gl_row_text(row, "wrong_sums", 0, "%lld of %d", wrong, reps);
    gl_row_text(row, "early_children", 0, "%lld of %lld", early, children);
    if (wrong || early)
        gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 1, "nested-nosync-racy races: a child can read halves not yet written",
                      "%lld of %d runs summed wrong; %lld of %lld children started before their parent's last write",
                      wrong, reps, early, children);
    else
        gl_claim_skip(rep, row, GL_CLAIM_ORDERING, "nested-nosync-racy races: a child can read halves not yet written",
                      "not observed in %d runs (%lld children, none started before its parent's last write); "
                      "to see it, use a first level that fits on the GPU at once and hold back the writers, e.g. "
                      "--n 65536 --race-delay-us 50",
                      reps, children);
    free(h_write);
    free(h_start);
}

/* ---- host: main ------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "nested-reduce",
        "what does a recursive (device-launched) reduction cost against the best flat reduction, in each textbook "
        "variant made race-free?",
        "The sum of --n random ints (64-bit accumulation), every variant checked exactly against the CPU.\n"
        "--block is the textbook variants' block (a power of two, 2..1024); flat, nested-tail and nested-agg\n"
        "use blocks of 256 threads, and cub chooses its own. At --n 1048576 --block 512 the textbook's K40c\n"
        "times are printed beside ours. nested-nosync-racy (not in 'all') demonstrates the textbook's race."};
    unsigned long long n = 1ULL << 20, pool_given = 0;
    int block = 512;
    const char *variants = "all";
    double race_delay_us = 0;
    gl_option opts[] = {
        {"n", GL_OPT_U64, &n, 1, 1073741824.0, NULL, NULL, "elements to sum (1..2^30)", 0},
        {"block", GL_OPT_INT, &block, 2, 1024, NULL, NULL, "threads per block of the textbook variants (a power of two)", 0},
        {"variant", GL_OPT_STRING, &variants, 0, 0, NULL, NULL,
         "all (every variant but the racy one), or a comma-separated list of: cpu-recursive, neighbored, nested, "
         "nested-nosync, nested2, nested-tail, flat, cub, nested-agg, nested-nosync-racy", 0},
        {"pool", GL_OPT_U64, &pool_given, 0, 1e8, NULL, NULL,
         "pending-launch pool to set instead of the computed one (0: computed); too small a pool shows the overflow (exit 3)", 0},
        {"race-delay-us", GL_OPT_DOUBLE, &race_delay_us, 0, 1e5, NULL, NULL,
         "hold back every warp but the first of each level-0 block this long before it writes (nested, nested-nosync, "
         "and the racy variant: a barrier-free launch then reads halves not yet written)", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    gl_gate_prepare(); /* before the runtime starts: see gl_cuda.h */
    if (block & (block - 1))
        gl_die(GL_EXIT_USAGE, "--block %d: must be a power of two (the textbook trees halve each block down to 2)", block);

    bench b;
    memset(&b, 0, sizeof b);
    b.n = (long long)n;
    b.block = block;
    b.chains = (b.n + block - 1) / block;
    for (int s = block; s > 1; s >>= 1) b.levels++;
    int run[N_VARIANTS] = {0};
    int n_run = gl_choose_names("variant", variants, variant_names, N_VARIANTS, run);
    if (strcmp(variants, "all") == 0) { /* all but the racy demonstration */
        run[V_RACY] = 0;
        n_run--;
    }
    if (common.trace_path || common.timeline)
        for (int v = V_NESTED; v < N_VARIANTS; v++)
            if (run[v] && predicted_grids(&b, v) > TRACE_FILE_CAP)
                gl_die(GL_EXIT_USAGE, "--trace/--timeline: %s at --n %lld makes %lld grids; the tree is recorded up to "
                       "%d (use a smaller --n, or a larger --block)",
                       variant_names[v], b.n, predicted_grids(&b, v), TRACE_FILE_CAP);

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);

    /* The input, and the reference on the CPU. */
    int *h_in = (int *)gl_xmalloc(sizeof(int) * (size_t)b.n);
    gl_fill_i32(h_in, (size_t)b.n, common.seed, 0, INT32_MIN, INT32_MAX);
    b.h_in = h_in;
    /* cpu-recursive's 64-bit working copy (8 GiB at 2^30): only when it runs */
    b.h_copy = run[V_CPU] ? (long long *)gl_xmalloc(sizeof(long long) * (size_t)b.n) : NULL;
    b.want = reference_sum(h_in, b.n);
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_reduce<int>, FLAT_THREADS, 0));
    b.flat_blocks = dev.sms * (per_sm > 0 ? per_sm : 1);

    /* ---- memory: the data, checked against what is free before anything is allocated ---- */
    long long agg0 = agg_blocks(b.n);
    size_t work_elems = (size_t)b.chains * (size_t)block; /* neighbored widens whole blocks; the trees use half */
    size_t data_bytes = sizeof(int) * (size_t)b.n + sizeof(long long) * (work_elems + (size_t)b.chains +
                        (size_t)b.flat_blocks + (size_t)agg0 + 2 * MAX_DEPTH + 4) +
                        sizeof(unsigned int) * (size_t)b.chains; /* nested-nosync's counters */
    if (run[V_RACY]) data_bytes += 2 * sizeof(unsigned long long) * (size_t)b.chains * (size_t)b.levels;
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, b.cub_bytes, (const int *)NULL, (long long *)NULL, b.n));
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (data_bytes + b.cub_bytes + (64u << 20) > free_b)
        gl_no_gpu("--n %lld needs %.2f GB of device memory for its data; %.2f GB of %.2f GB is free", b.n,
                  (data_bytes + b.cub_bytes) / 1e9, free_b / 1e9, total_b / 1e9);
    CUDA_CHECK(cudaMalloc((void **)&b.d_in, sizeof(int) * (size_t)b.n));
    CUDA_CHECK(cudaMemcpy(b.d_in, h_in, sizeof(int) * (size_t)b.n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMalloc((void **)&b.d_work, sizeof(long long) * work_elems));
    CUDA_CHECK(cudaMalloc((void **)&b.d_out, sizeof(long long) * (size_t)(b.chains > 1 ? b.chains : 1)));
    CUDA_CHECK(cudaMalloc((void **)&b.d_result, sizeof(long long)));
    CUDA_CHECK(cudaMalloc((void **)&b.d_flat_partials, sizeof(long long) * (size_t)b.flat_blocks));
    CUDA_CHECK(cudaMalloc((void **)&b.d_flat_done, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(b.d_flat_done, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc((void **)&b.d_agg, sizeof(long long) * (size_t)agg0));
    CUDA_CHECK(cudaMalloc((void **)&b.d_sums, sizeof(long long) * (MAX_DEPTH + 2)));
    CUDA_CHECK(cudaMalloc(&b.d_cub, b.cub_bytes > 0 ? b.cub_bytes : 1));
    CUDA_CHECK(cudaMalloc((void **)&b.t.launches, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc((void **)&b.t.arrive, sizeof(unsigned int) * (size_t)b.chains));
    CUDA_CHECK(cudaMemset(b.t.arrive, 0, sizeof(unsigned int) * (size_t)b.chains));
    b.t.err = gl_dev_error_create();
    b.t.out = b.d_out;
    b.t.depths = b.levels;
    if (run[V_RACY]) {
        size_t cells = (size_t)b.chains * (size_t)b.levels;
        CUDA_CHECK(cudaMalloc((void **)&b.t.race_write, cells * sizeof(unsigned long long)));
        CUDA_CHECK(cudaMalloc((void **)&b.t.race_start, cells * sizeof(unsigned long long)));
    }

    /* Room the run still needs beside the pool: the L2 flush buffer, and some slack. */
    b.pool_margin = 2 * (size_t)dev.l2_bytes + ((size_t)64 << 20); /* the L2 flush buffer is allocated at the first sample */
    b.pool_given = (size_t)pool_given;
    b.t.delay_ns = (unsigned long long)(race_delay_us * 1e3);

    CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(b.stream, "nested-reduce");
    gl_timer_create(&b.timer);
    gl_gate_create(&b.gate, !common.skip_timing_claims); /* sanitizers serialize launches: no gate there */
    long long max_grids = 0;
    for (int v = 0; v < N_VARIANTS; v++)
        if (run[v] && predicted_grids(&b, v) > max_grids) max_grids = predicted_grids(&b, v);
    unsigned int span_capacity = (unsigned int)(max_grids < (long long)TRACE_GRID_CAP ? max_grids : (long long)TRACE_GRID_CAP) + 8;
    gl_spans_create(&b.spans, 1, span_capacity, 0);
    b.t.spans = b.spans.dev;
    /* The slowest tree measured (nested at 2^26: a million grids) takes about a second. */
    b.timeout_s = 60 + 1e-5 * (double)max_grids;

    printf("n = %lld ints (%.1f MB), %lld chains of %d (textbook variants), reference sum %lld\n", b.n,
           4.0 * b.n / 1e6, b.chains, block, b.want);

    gl_trace trace;
    gl_trace_init(&trace);
    gl_names names = {NULL, label_name, NULL, "depth %d", NULL, NULL, 0};
    gl_sampler smp;
    gl_device_sampler(&smp, &dev, &common);
    gl_sampler_series(&smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_plan(&smp, n_run); /* the progress line counts every variant's runs */
    gl_row *rows[N_VARIANTS] = {NULL};
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);

    for (int v = 0; v < N_VARIANTS; v++) {
        if (!run[v]) continue;
        gl_row *row = rows[v] = gl_report_row(&rep, "nested-reduce", variant_names[v]);
        gl_row_param_num(row, "n", "", 0, (double)b.n);
        if (v == V_CPU) gl_row_param(row, "block", "-");
        else if (v == V_CUB) gl_row_param(row, "block", "cub's");
        else gl_row_param(row, "block", "%d", v >= V_TAIL && v != V_RACY ? FLAT_THREADS : block);
        if (v != V_CPU) {
            char why[256];
            if (!size_pool(&b, v, why, sizeof why)) {
                if (n_run == 1) gl_no_gpu("%s at --n %lld %s", variant_names[v], b.n, why);
                gl_row_skip(row, "%s", why);
                continue;
            }
            gl_row_param_num(row, "pool", "", 0, (double)b.pool);
            if (b.slices > 1) gl_row_param_num(row, "slices", "", 0, (double)b.slices);
        }
        gl_nvtx_push("variant=%s", variant_names[v]);
        b.variant = v;

        /* Validate first, recording the tree's grids when it is small enough. */
        long long grids = predicted_grids(&b, v);
        int record = v != V_CPU && v != V_CUB && v != V_FLAT && v != V_NEIGHBORED && grids <= TRACE_GRID_CAP;
        b.t.record = record;
        gl_spans_reset(&b.spans);
        unsigned int top = record ? gl_spans_reserve(&b.spans, 1) : GL_NO_SPAN;
        run_result r = run_variant(&b, v, top);
        b.t.record = 0;
        long long launches = predicted_launches(&b, v);
        gl_row_number(row, "launches", "", 0, 0, (double)r.launches);
        if (v == V_RACY) {
            gl_check(&rep, row, (long long)r.launches == launches, "%s: %llu device-side launches, %lld predicted",
                     variant_names[v], r.launches, launches);
        } else {
            gl_check(&rep, row, r.sum == b.want, "%s sums %lld ints exactly (got %lld, want %lld)", variant_names[v],
                     b.n, r.sum, b.want);
            gl_check(&rep, row, (long long)r.launches == launches, "%s: %llu device-side launches, %lld predicted",
                     variant_names[v], r.launches, launches);
        }
        if (record) {
            int n_spans = gl_spans_timeline(&b.spans, &tl);
            gl_check(&rep, row, tl.n == grids, "%s: %d grids recorded, %lld predicted", variant_names[v], tl.n, grids);
            if (v == V_NESTED2 || v == V_AGG) {
                gl_lineage l = gl_timeline_lineage(&tl, gl_filter_all, NULL, 0.0);
                gl_claim_every(&rep, row, GL_CLAIM_ORDERING, "each level starts after every block of the level before ended",
                               l.after, l.pairs, "parent-child pairs", "one level only: nothing is tail-launched");
            } else if (v == V_TAIL) {
                int combine = LABEL_COMBINE;
                gl_lineage l = gl_timeline_lineage(&tl, gl_filter_label, &combine, 0.0);
                gl_claim_every(&rep, row, GL_CLAIM_ORDERING, "each continuation starts after the grid that launched it ended",
                               l.after, l.pairs, "continuations", "the range fits one grid: no continuation");
            }
            char title[96];
            snprintf(title, sizeof title, "%s (validation run)", variant_names[v]);
            gl_show_run(&trace, &common, title, &tl, b.spans.h_spans, n_spans, &names);
        }
        if (v == V_RACY) demonstrate_race(&b, &rep, row, common.repeat);

        gl_row_work(row, "time", 4.0 * (double)b.n, (double)b.n);
        gl_sampler_run(&smp, row, sample_variant, &b);
        gl_nvtx_pop();
    }

    /* ---- ratios, the textbook's K40c, and the claims on speed ---- */
    double med[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; v++) med[v] = gl_row_median(rows[v], "time");
    int textbook = b.n == (1LL << 20) && block == 512;
    for (int v = 0; v < N_VARIANTS; v++) {
        if (!rows[v] || isnan(med[v])) continue;
        if (!isnan(med[V_FLAT])) gl_row_number(rows[v], "vs_flat", "x", 2, 0, med[v] / med[V_FLAT]);
        if (!isnan(med[V_NESTED])) gl_row_number(rows[v], "vs_nested", "x", 4, 0, med[v] / med[V_NESTED]);
        if (textbook && k40c_s[v] > 0) {
            gl_row_number(rows[v], "k40c", "us", 0, 0, k40c_s[v] * 1e6);
            gl_row_number(rows[v], "k40c_vs_nested", "x", 4, 0, k40c_s[v] / k40c_s[V_NESTED]);
        }
    }
    if (textbook && !isnan(med[V_NESTED]) && !isnan(med[V_NESTED2]))
        printf("\nnested / nested2: %.0fx here; %.0fx on the textbook's K40c\n", med[V_NESTED] / med[V_NESTED2],
               k40c_s[V_NESTED] / k40c_s[V_NESTED2]);
    /* The speed claims are about moving the data: they are judged where the
     * input is at least twice the L2, so that no sample can be served from the
     * cache and the time is not one launch's latency. Below that they are SKIP. */
    double bytes = 4.0 * (double)b.n, bound_bytes = 2.0 * dev.l2_bytes;
    /* Both reach the DRAM roofline at these sizes (flat 89% of the H100's
     * peak at 2^28, cub the same), where which one is faster by less than 2%
     * changed from one machine to the next: the claim is "as fast, within 2%". */
    const char *flat_cub = "flat is as fast as cub, within 2% (median, L2 flushed; both at the DRAM roofline)";
    const char *agg_flat = "nested-agg takes at most 1.25x the time of flat (n >= 2^26)";
    if (rows[V_FLAT] && rows[V_CUB]) {
        if (bytes >= bound_bytes)
            gl_claim_ratio_at_least(&rep, rows[V_FLAT], GL_CLAIM_TIMING, flat_cub, "cub", med[V_CUB], "flat",
                                    med[V_FLAT], FLAT_VS_CUB);
        else
            gl_claim_skip(&rep, rows[V_FLAT], GL_CLAIM_TIMING, flat_cub,
                          "%.1f MB of input is less than twice the L2 (%.0f MB): the times (flat %.1f us, cub %.1f us) "
                          "measure launch latency, not the reduction",
                          bytes / 1e6, bound_bytes / 1e6, med[V_FLAT], med[V_CUB]);
    }
    if (rows[V_AGG] && rows[V_FLAT]) {
        if (b.n >= AGG_CLAIM_MIN_N)
            gl_claim_ratio_at_most(&rep, rows[V_AGG], GL_CLAIM_TIMING, agg_flat, "nested-agg", med[V_AGG], "flat",
                                   med[V_FLAT], AGG_VS_FLAT);
        else
            gl_claim_skip(&rep, rows[V_AGG], GL_CLAIM_TIMING, agg_flat,
                          "judged from --n 2^26: below it, nested-agg's one device launch is more than a quarter of "
                          "flat's time (here %.1f us against %.1f us, %.2fx)",
                          med[V_AGG], med[V_FLAT], med[V_AGG] / med[V_FLAT]);
    }

    gl_trace_finish(&trace, &common, &rep);
    gl_timeline_free(&tl);
    gl_sampler_free(&smp);
    gl_spans_destroy(&b.spans);
    gl_timer_destroy(&b.timer);
    gl_gate_destroy(&b.gate);
    gl_dev_error_destroy(b.t.err);
    void *bufs[] = {b.d_in, b.d_work, b.d_out, b.d_result, b.d_flat_partials, b.d_flat_done, b.d_agg,
                    b.d_sums, b.d_cub, b.t.launches, b.t.arrive, b.t.race_write, b.t.race_start};
    for (size_t i = 0; i < GL_ARRAY_LEN(bufs); i++) CUDA_CHECK(cudaFree(bufs[i]));
    CUDA_CHECK(cudaStreamDestroy(b.stream));
    free(b.h_copy);
    free(h_in);
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
