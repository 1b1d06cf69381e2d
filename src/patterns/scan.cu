/* scan.cu - prefix sums from the textbook's single-block scans to a single-pass decoupled look-back, beside CUB.
 *
 * Question: how close do the textbook's scans, a three-kernel hierarchy and a single-pass decoupled look-back come to CUB, for any n?
 * Build: rdc openmp cub
 * Sanitize: --quick --profile --n 50003 --skip-timing-claims
 *
 * Inclusive and exclusive sums (--kind) of --n (1..2^30) seeded random int32
 * in [-1000, 1000] (wrapping arithmetic, checked exactly) or floats in [-1, 1)
 * (checked within gl_tolerance_sum of a reference summed in double: every
 * partial sum of these inputs is exact in double, so the reference runs in
 * fixed blocks on every core). Every kernel is one template: the int32 run is
 * the exact check of the algorithm.
 * Variants: cpu (one pass); kogge-stone and brent-kung, the seed's block scans
 * made race-free, inside the textbook's scan-then-add pipeline (Kirk & Hwu
 * ch. 11) so that any n is exact; hierarchical (reduce each 4096-element tile,
 * scan the sums recursively, scan each tile from its prefix); hierarchical-cdp
 * (the same steps, each grid tail-launching the next); decoupled-lookback (one
 * pass, Merrill & Garland 2016); cub::DeviceScan.
 * Model: DRAM traffic per run, to first order: 4n elements for scan-then-add,
 * 3n for hierarchical, 2n for the single pass and cub (the "traffic" column);
 * at equal bandwidth a variant's ceiling against cub is 2n / its traffic.
 * Claims (input at least twice the L2): decoupled-lookback >= 0.9x cub and
 * hierarchical >= 0.6x cub, per type and kind. Launches are counted (cub's
 * from a stream capture) and checked against the prediction.
 * The tile scan: 128 threads x 32 elements, 16-byte loads, rows scanned with
 * shuffles. decoupled-lookback: block b scans tile b (or, --tile-order ticket,
 * the next tile from an atomic counter, which needs no block order), publishes
 * its aggregate, looks back over 32 tiles at once through one 64-bit status
 * word per tile (epoch, flag and value in one atomic store). The scan-nocdp
 * build (Makefile) leaves out hierarchical-cdp so that racecheck and synccheck
 * can check the rest. The design in full: experiments/results/FINDINGS.md.
 *
 * Run:   make run-scan                                             (2^28, int32 and float, inclusive and exclusive)
 *        make run-scan ARGS="--type int --kind inclusive --variant decoupled-lookback,hierarchical,cub --repeat 20"
 *        make run-scan ARGS="--n 1000 --variant kogge-stone,brent-kung --block 256"
 * Nsight Systems (make profile-scan): an NVTX range per configuration and variant on the
 * stream "scan"; device-launched grids (hierarchical-cdp) are not in its timeline.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_scan.cuh>
#include <cuda/atomic>

#include "gl_device_check.cuh"
#include "gl_lab.h"

enum { V_CPU, V_KS, V_BK, V_HIER, V_CDP, V_LOOKBACK, V_CUB, N_VARIANTS };
/* DRAM traffic per run in elements, to first order (the header's model). */
static const char *const variant_traffic[N_VARIANTS] = {"-", "4n", "4n", "3n", "3n", "2n", "2n"};

enum { T_INT, T_FLOAT, N_TYPES };
static const char *const type_names[N_TYPES] = {"int32", "float"};
static const char *const kind_names[2] = {"inclusive", "exclusive"};

enum {
    THREADS = 128,           /* block of the tile scan (a multiple of 32) */
    ITEMS = 32,              /* elements per thread of the tile scan */
    VEC = 4,                 /* elements per 16-byte load */
    ROWS = ITEMS / VEC,      /* 16-byte loads per thread */
    WARPS = THREADS / 32,    /* warps of the tile scan */
    WARP_CHUNK = 32 * ITEMS, /* contiguous elements a warp owns */
    TILE = THREADS * ITEMS,  /* elements per tile: 4096 */
    MAX_BLOCK = 1024,        /* largest --block */
    MAX_LEVELS = 8,          /* levels of sums + 1: 2^30 in sections of 32 needs 6 */
    /* decoupled-lookback: at least 8 blocks per SM (64 registers, a few spilled,
     * instead of 70 and 7 blocks). On an H100 at 2^28 + 5, against cub in the
     * same run: int32 0.93x and float 0.94x, from 0.90x and 0.90-0.91x; 128 x 24
     * tiles, streaming loads or stores, a poll back-off, 128 x 24 at 10 blocks
     * per SM or 128 x 32 at 12 (spills) were no better (0.66-0.93x). */
    LOOKBACK_BLOCKS_PER_SM = 8
};
static const unsigned FULL = 0xFFFFFFFFu;

/* ---- the element types ------------------------------------------------------------------
 * int32 adds wrap (computed as unsigned: signed overflow is undefined in C++),
 * so every order of additions gives the same bits. */

__host__ __device__ __forceinline__ int add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
__host__ __device__ __forceinline__ float add(float a, float b) { return a + b; }

template <typename T> struct vec4;
template <> struct vec4<int> { typedef int4 type; };
template <> struct vec4<float> { typedef float4 type; };

__device__ __forceinline__ unsigned to_bits(int v) { return (unsigned)v; }
__device__ __forceinline__ unsigned to_bits(float v) { return __float_as_uint(v); }
template <typename T> __device__ __forceinline__ T from_bits(unsigned u);
template <> __device__ __forceinline__ int from_bits<int>(unsigned u) { return (int)u; }
template <> __device__ __forceinline__ float from_bits<float>(unsigned u) { return __uint_as_float(u); }

/* Tiles of the tile scan over n elements. */
__host__ __device__ __forceinline__ long long tiles_of(long long n) { return (n + TILE - 1) / TILE; }

/* ---- the tile scan: 4096 elements per block, in registers ---------------------------------
 * Element (r, j) of thread (warp w, lane l) is tile element w*512 + r*128 + 4l + j. */

/* Load a tile: 16-byte loads when it is whole, else element by element with zeros past n. */
template <typename T>
__device__ __forceinline__ void load_tile(const T *in, long long n, long long base, T (&x)[ROWS][VEC])
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long first = base + (long long)warp * WARP_CHUNK + VEC * lane;
    if (base + TILE <= n) {
        typedef typename vec4<T>::type V;
        const V *p = (const V *)(in + first);
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            V q = p[r * 32];
            x[r][0] = q.x; x[r][1] = q.y; x[r][2] = q.z; x[r][3] = q.w;
        }
    } else {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
#pragma unroll
            for (int j = 0; j < VEC; j++) {
                long long i = first + r * 32 * VEC + j;
                x[r][j] = i < n ? in[i] : T(0);
            }
    }
}

/* Store a tile, the same way round. */
template <typename T>
__device__ __forceinline__ void store_tile(T *out, long long n, long long base, const T (&x)[ROWS][VEC])
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long first = base + (long long)warp * WARP_CHUNK + VEC * lane;
    if (base + TILE <= n) {
        typedef typename vec4<T>::type V;
        V *p = (V *)(out + first);
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            V q;
            q.x = x[r][0]; q.y = x[r][1]; q.z = x[r][2]; q.w = x[r][3];
            p[r * 32] = q;
        }
    } else {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
#pragma unroll
            for (int j = 0; j < VEC; j++) {
                long long i = first + r * 32 * VEC + j;
                if (i < n) out[i] = x[r][j];
            }
    }
}

/* Scan a loaded tile in place: x becomes each element's inclusive sum within
 * its lane's four, pre[r] the sum of everything before them in the tile.
 * Returns the tile's total, in every thread. One barrier. */
template <typename T>
__device__ __forceinline__ T tile_prefixes(T (&x)[ROWS][VEC], T (&pre)[ROWS], T *s_warp)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T inc[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
#pragma unroll
        for (int j = 1; j < VEC; j++) x[r][j] = add(x[r][j - 1], x[r][j]);
        inc[r] = x[r][VEC - 1];
    }
    /* The four rows' warp scans, interleaved so that their shuffles overlap. */
#pragma unroll
    for (int o = 1; o < 32; o <<= 1)
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            T y = __shfl_up_sync(FULL, inc[r], o);
            if (lane >= o) inc[r] = add(y, inc[r]);
        }
    T carry = T(0); /* the rows before row r, within the warp's chunk */
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        T before = __shfl_up_sync(FULL, inc[r], 1);
        T row_total = __shfl_sync(FULL, inc[r], 31);
        pre[r] = lane == 0 ? carry : add(carry, before);
        carry = add(carry, row_total);
    }
    if (lane == 0) s_warp[warp] = carry;
    __syncthreads();
    T warp_prefix = T(0), total = T(0);
#pragma unroll
    for (int w = 0; w < WARPS; w++) {
        if (w == warp) warp_prefix = total;
        total = add(total, s_warp[w]);
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) pre[r] = add(warp_prefix, pre[r]);
    return total;
}

/* Turn the tile's scan into the output, given everything before the tile. */
template <typename T>
__device__ __forceinline__ void finish_tile(T (&x)[ROWS][VEC], const T (&pre)[ROWS], T tile_prefix, int exclusive)
{
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        T p = add(tile_prefix, pre[r]);
        if (exclusive) {
#pragma unroll
            for (int j = VEC - 1; j > 0; j--) x[r][j] = add(p, x[r][j - 1]);
            x[r][0] = p;
        } else {
#pragma unroll
            for (int j = 0; j < VEC; j++) x[r][j] = add(p, x[r][j]);
        }
    }
}

/* hierarchical, step 1 of a level: block b's tile of in[0, n) to sums[b]. */
template <typename T>
__device__ __forceinline__ void reduce_tile_body(const T *in, long long n, T *sums)
{
    __shared__ T s_warp[WARPS];
    T x[ROWS][VEC];
    load_tile(in, n, (long long)blockIdx.x * TILE, x);
    T s = T(0);
#pragma unroll
    for (int r = 0; r < ROWS; r++)
#pragma unroll
        for (int j = 0; j < VEC; j++) s = add(s, x[r][j]);
    for (int o = 16; o > 0; o >>= 1) s = add(s, __shfl_xor_sync(FULL, s, o));
    if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        T total = T(0);
        for (int w = 0; w < WARPS; w++) total = add(total, s_warp[w]);
        sums[blockIdx.x] = total;
    }
}

/* hierarchical, step 3 of a level (and the one step of a level that fits one
 * tile): scan block b's tile, starting from prefixes[b - 1] (the inclusive
 * scan of the tile sums; NULL: nothing before). */
template <typename T>
__device__ __forceinline__ void scan_tile_body(const T *in, T *out, long long n, const T *prefixes, int exclusive)
{
    __shared__ T s_warp[WARPS];
    long long base = (long long)blockIdx.x * TILE;
    T x[ROWS][VEC], pre[ROWS];
    load_tile(in, n, base, x);
    tile_prefixes(x, pre, s_warp);
    T tile_prefix = prefixes && blockIdx.x > 0 ? prefixes[blockIdx.x - 1] : T(0);
    finish_tile(x, pre, tile_prefix, exclusive);
    store_tile(out, n, base, x);
}

template <typename T>
__global__ void __launch_bounds__(THREADS) reduce_tiles(const T *__restrict__ in, long long n, T *__restrict__ sums)
{
    reduce_tile_body(in, n, sums);
}

template <typename T>
__global__ void __launch_bounds__(THREADS) scan_tiles(const T *__restrict__ in, T *__restrict__ out, long long n,
                                                      const T *__restrict__ prefixes, int exclusive)
{
    scan_tile_body(in, out, n, prefixes, exclusive);
}

/* ---- hierarchical-cdp: the same steps, each grid tail-launching the next --------------------- */

/* Levels 0..levels: level 0 is the data, level k + 1 the tile sums of level k. */
template <typename T>
struct cdp_plan {
    const T *input;                   /* level 0's input */
    T *sums[MAX_LEVELS];              /* level k's input for k >= 1 (written by level k - 1's reduce) */
    T *out[MAX_LEVELS];               /* level k's scan (out[0]: the result) */
    long long n[MAX_LEVELS];          /* level k's length */
    int levels;                       /* L: levels with more than one tile; level L fits one */
    int exclusive;                    /* the result's kind (the sums are scanned inclusive) */
    gl_dev_error *err;                /* failed device-side launches */
    unsigned long long *launches;     /* device-side launches that succeeded */
};

/* The level step s works on: reduce 0..L-1 going up, scan L, scan L-1..0 coming down. */
__host__ __device__ __forceinline__ int level_of_step(int step, int levels)
{
    return step <= levels ? step : 2 * levels - step;
}

#ifndef SCAN_NO_CDP /* the scan-nocdp build (Makefile): no device runtime */
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
#endif

/* ---- decoupled-lookback ---------------------------------------------------------------------- */

enum { FLAG_EMPTY = 0, FLAG_AGGREGATE = 1, FLAG_PREFIX = 2 };

typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> status_ref;

/* Publish a tile's aggregate or inclusive prefix: flag and value in one store. */
template <typename T>
__device__ __forceinline__ void publish(unsigned long long *word, unsigned epoch, unsigned flag, T v)
{
    unsigned long long w = ((unsigned long long)((epoch << 2) | flag) << 32) | to_bits(v);
    status_ref(*word).store(w, cuda::memory_order_relaxed);
}

/* Warp 0: the sum of every tile before this one. Publishes this tile's
 * aggregate first and its inclusive prefix last. */
template <typename T>
__device__ __forceinline__ T look_back(unsigned long long *status, long long tile, T aggregate, unsigned epoch)
{
    const int lane = threadIdx.x;
    if (tile == 0) {
        if (lane == 0) publish(&status[0], epoch, FLAG_PREFIX, aggregate);
        return T(0);
    }
    if (lane == 0) publish(&status[tile], epoch, FLAG_AGGREGATE, aggregate);
    T prefix = T(0);
    for (long long last = tile - 1;; last -= 32) { /* a window of 32 tiles, lane i on tile last - i */
        long long idx = last - lane;
        unsigned flag;
        T v;
        do {
            flag = FLAG_PREFIX; /* before tile 0: never the nearest P, never waited for */
            v = T(0);
            if (idx >= 0) {
                unsigned long long w = status_ref(status[idx]).load(cuda::memory_order_relaxed);
                unsigned hi = (unsigned)(w >> 32);
                flag = (hi >> 2) == epoch ? (hi & 3u) : FLAG_EMPTY; /* an earlier run's word is empty */
                v = from_bits<T>((unsigned)w);
            }
        } while (!__all_sync(FULL, flag != FLAG_EMPTY));
        unsigned prefixes = __ballot_sync(FULL, flag == FLAG_PREFIX);
        int stop = prefixes ? __ffs(prefixes) - 1 : 31; /* the nearest inclusive prefix ends the look-back */
        if (lane > stop) v = T(0);
        for (int o = 16; o > 0; o >>= 1) v = add(v, __shfl_xor_sync(FULL, v, o));
        prefix = add(v, prefix);
        if (prefixes) break;
    }
    if (lane == 0) publish(&status[tile], epoch, FLAG_PREFIX, add(prefix, aggregate));
    return prefix;
}

template <typename T>
__global__ void __launch_bounds__(THREADS, LOOKBACK_BLOCKS_PER_SM) lookback_scan(const T *__restrict__ in, T *__restrict__ out, long long n,
                                                         unsigned long long *status, unsigned long long *tickets,
                                                         unsigned long long ticket_base, unsigned epoch, int exclusive,
                                                         int ticketed)
{
    __shared__ long long s_tile;
    __shared__ T s_warp[WARPS];
    __shared__ T s_prefix;
    if (threadIdx.x == 0) s_tile = ticketed ? (long long)(atomicAdd(tickets, 1ULL) - ticket_base) : (long long)blockIdx.x;
    __syncthreads();
    long long tile = s_tile, base = tile * TILE;
    T x[ROWS][VEC], pre[ROWS];
    load_tile(in, n, base, x);
    T aggregate = tile_prefixes(x, pre, s_warp);
    if (threadIdx.x < 32) {
        T prefix = look_back(status, tile, aggregate, epoch);
        if (threadIdx.x == 0) s_prefix = prefix;
    }
    __syncthreads();
    finish_tile(x, pre, s_prefix, exclusive);
    store_tile(out, n, base, x);
}

/* ---- the seed's block scans, in the textbook's scan-then-add pipeline ------------------------ */

/* kogge-stone: block b scans its blockDim.x elements, double-buffered: each
 * step reads one buffer and writes the other, so one barrier per step orders
 * every read before the next step's writes. sums[b]: the block's total. */
template <typename T>
__global__ void kogge_stone_blocks(const T *in, T *out, long long n, T *sums, int exclusive)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const unsigned tid = threadIdx.x, B = blockDim.x;
    T *src = (T *)smem, *dst = src + B;
    long long i = (long long)blockIdx.x * B + tid;
    src[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (unsigned stride = 1; stride < B; stride *= 2) {
        dst[tid] = tid >= stride ? add(src[tid - stride], src[tid]) : src[tid];
        __syncthreads();
        T *t = src; src = dst; dst = t;
    }
    if (i < n) out[i] = exclusive ? (tid ? src[tid - 1] : T(0)) : src[tid];
    if (sums && tid == B - 1) sums[blockIdx.x] = src[tid];
}

/* brent-kung's padded index: one slot skipped every 32 and every 1024 words.
 * Enumerating every warp's addresses for every block size from 32 to 1024: no
 * access of the kernel below (loads, both sweeps, output) has a bank conflict;
 * unpadded, the sweeps reach 32-way; with i/32 alone, 2-way. */
__host__ __device__ __forceinline__ unsigned pad(unsigned i) { return i + (i >> 5) + (i >> 10); }

/* brent-kung: block b scans its 2 x blockDim.x elements. The up-sweep is the
 * seed's reduction phase. The down-sweep is Blelloch's (GPU Gems 3, ch. 39):
 * it touches the same index pairs as the up-sweep, which the padding frees of
 * conflicts; the seed's distribution phase writes index + stride, a set that
 * spans three 32-word rows per warp, and no skew padding frees it of them.
 * The down-sweep leaves the exclusive scan; inclusive adds the element back.
 * A barrier before each step; within a step no two threads touch one index. */
template <typename T>
__global__ void brent_kung_blocks(const T *in, T *out, long long n, T *sums, int exclusive)
{
    extern __shared__ __align__(16) unsigned char smem[];
    T *xy = (T *)smem;
    const unsigned tid = threadIdx.x, B = blockDim.x, S = 2 * B;
    long long base = (long long)blockIdx.x * S;
    T lo = base + tid < n ? in[base + tid] : T(0), hi = base + tid + B < n ? in[base + tid + B] : T(0);
    xy[pad(tid)] = lo;
    xy[pad(tid + B)] = hi;
    for (unsigned stride = 1; stride <= B; stride *= 2) {
        __syncthreads();
        unsigned index = (tid + 1) * stride * 2 - 1;
        if (index < S) xy[pad(index)] = add(xy[pad(index - stride)], xy[pad(index)]);
    }
    T total = T(0);
    if (tid == 0) { /* thread 0 made the last up-sweep step: no barrier needed to read it */
        total = xy[pad(S - 1)];
        xy[pad(S - 1)] = T(0);
    }
    for (unsigned stride = B; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned index = (tid + 1) * stride * 2 - 1;
        if (index < S) {
            T left = xy[pad(index - stride)];
            xy[pad(index - stride)] = xy[pad(index)];
            xy[pad(index)] = add(left, xy[pad(index)]);
        }
    }
    __syncthreads();
    if (base + tid < n) out[base + tid] = exclusive ? xy[pad(tid)] : add(xy[pad(tid)], lo);
    if (base + tid + B < n) out[base + tid + B] = exclusive ? xy[pad(tid + B)] : add(xy[pad(tid + B)], hi);
    if (sums && tid == 0) sums[blockIdx.x] = total;
}

/* The textbook's third kernel: block b adds the scanned sum of blocks 0..b to section b + 1. */
template <typename T>
__global__ void add_back(T *out, long long n, const T *scanned, unsigned section)
{
    unsigned b = blockIdx.x + 1;
    T p = scanned[b - 1];
    long long base = (long long)b * section;
    for (unsigned j = threadIdx.x; j < section; j += blockDim.x)
        if (base + j < n) out[base + j] = add(p, out[base + j]);
}

/* ---- host: the references ---------------------------------------------------------------- */

enum { REF_BLOCK = 1 << 16 }; /* elements per block of the parallel reference: fixed, so its sums do not depend on the thread count */

/* y = the scan of x in Acc arithmetic (unsigned: wrapping int32; double: floats rounded once
 * per element), over fixed blocks in parallel: each block's sum, the sums' exclusive scan,
 * then each block from its prefix. Equal to one pass in order whenever Acc's additions are
 * exact (see the header). */
template <typename T, typename Acc>
static void scan_in_blocks(const T *x, T *y, long long n, int exclusive)
{
    long long blocks = (n + REF_BLOCK - 1) / REF_BLOCK;
    Acc *prefix = (Acc *)gl_xmalloc(sizeof(Acc) * (size_t)(blocks > 0 ? blocks : 1));
    GL_OMP(omp parallel for schedule(static))
    for (long long k = 0; k < blocks; k++) {
        long long end = (k + 1) * REF_BLOCK < n ? (k + 1) * REF_BLOCK : n;
        Acc sum = 0;
        for (long long i = k * REF_BLOCK; i < end; i++) sum += (Acc)x[i];
        prefix[k] = sum;
    }
    Acc run = 0;
    for (long long k = 0; k < blocks; k++) {
        Acc sum = prefix[k];
        prefix[k] = run;
        run += sum;
    }
    GL_OMP(omp parallel for schedule(static))
    for (long long k = 0; k < blocks; k++) {
        long long end = (k + 1) * REF_BLOCK < n ? (k + 1) * REF_BLOCK : n;
        Acc acc = prefix[k];
        for (long long i = k * REF_BLOCK; i < end; i++) {
            if (exclusive) y[i] = (T)acc;
            acc += (Acc)x[i];
            if (!exclusive) y[i] = (T)acc;
        }
    }
    free(prefix);
}

/* 1 when every partial sum of x is exact in double: each element a multiple of 2^-23 of
 * magnitude at most 1, and n <= 2^30 (every partial sum then needs at most 53 bits). */
static int double_sums_exact(const float *x, long long n)
{
    int exact = n <= (1LL << 30);
    GL_OMP(omp parallel for schedule(static) reduction(&& : exact))
    for (long long i = 0; i < n; i++) {
        double q = (double)x[i] * 0x1p23;
        exact = exact && q == floor(q) && fabs((double)x[i]) <= 1.0;
    }
    return exact;
}

/* What every variant must produce: int32 in wrapping arithmetic, floats summed
 * in double and rounded once per element. */
static void reference_scan(int type, const void *in, void *ref, long long n, int exclusive)
{
    if (type == T_INT) {
        scan_in_blocks<int, unsigned>((const int *)in, (int *)ref, n, exclusive);
    } else if (double_sums_exact((const float *)in, n)) {
        scan_in_blocks<float, double>((const float *)in, (float *)ref, n, exclusive);
    } else { /* one pass in order: the sums may round, and then only this order is the reference */
        const float *x = (const float *)in;
        float *y = (float *)ref;
        double acc = 0;
        for (long long i = 0; i < n; i++) {
            if (exclusive) y[i] = (float)acc;
            acc += x[i];
            if (!exclusive) y[i] = (float)acc;
        }
    }
}

/* The cpu variant: one pass in the element type. */
template <typename T>
static void cpu_scan(const T *in, T *out, long long n, int exclusive)
{
    T acc = T(0);
    for (long long i = 0; i < n; i++) {
        T next = add(acc, in[i]);
        out[i] = exclusive ? acc : next;
        acc = next;
    }
}

/* ---- host: the setup ------------------------------------------------------------------------ */

typedef struct bench {
    long long n;                      /* elements */
    int block;                        /* threads per block of kogge-stone and brent-kung */
    int ticketed;                     /* --tile-order ticket: tiles from the ticket counter, not blockIdx */
    int type, exclusive;              /* the configuration being run */
    void *h_in[N_TYPES];              /* the inputs (NULL: type not run) */
    void *d_in[N_TYPES];              /* the inputs on the device */
    void *d_out;                      /* every variant's result */
    void *d_sums[MAX_LEVELS];         /* level k >= 1: the block or tile sums of level k - 1 */
    void *d_scan[MAX_LEVELS];         /* level k >= 1: their scan */
    unsigned long long *d_status;     /* decoupled-lookback: one word per tile */
    unsigned long long *d_tickets;    /* decoupled-lookback: tiles handed out, over all runs */
    unsigned long long ticket_base;   /* tickets handed out by earlier runs */
    unsigned epoch;                   /* decoupled-lookback's run number (0: the zeroed array) */
    unsigned long long *d_launches;   /* hierarchical-cdp: device-side launches that succeeded (reset after each run) */
    gl_dev_error *err;                /* hierarchical-cdp: device-side launches that failed */
    void *d_cub;                      /* CUB's temporary storage */
    size_t cub_bytes;                 /* its size */
    long long host_launches;          /* kernels launched from the host by the last run */
    long long checked_host[N_VARIANTS];               /* ... and by each variant's check */
    unsigned long long checked_device[N_VARIANTS];    /* device-side launches of each variant's check */
    cudaStream_t stream;              /* the lab's */
    cudaStream_t capture_stream;      /* cub's launches are counted from a capture here */
} bench;

/* Levels of sums above n when each block covers section elements (0: one block). */
static int levels_of(long long n, long long section)
{
    int L = 0;
    for (; n > section; n = (n + section - 1) / section) L++;
    return L;
}

/* Elements one block of variant v covers. */
static long long section_of(const bench *b, int v)
{
    if (v == V_KS) return b->block;
    if (v == V_BK) return 2LL * b->block;
    return TILE;
}

/* Host launches one run of variant v makes (cub's are counted from a capture). */
static long long predicted_host_launches(const bench *b, int v)
{
    switch (v) {
    case V_KS: case V_BK: case V_HIER: return 2LL * levels_of(b->n, section_of(b, v)) + 1;
    case V_CDP: case V_LOOKBACK: return 1;
    default: return 0;
    }
}

static long long predicted_device_launches(const bench *b, int v)
{
    return v == V_CDP ? 2LL * levels_of(b->n, TILE) : 0;
}

#define LAUNCHED(b, what) do { CUDA_CHECK_LAUNCH(what); (b)->host_launches++; } while (0)

/* The textbook's scan-then-add at level k: scan the blocks of in into out
 * (sums into level k + 1), scan the sums the same way, add them back. */
template <typename T>
static void textbook_level(bench *b, int v, const T *in, T *out, long long n, int k, int exclusive, cudaStream_t s)
{
    unsigned B = (unsigned)b->block, S = (unsigned)section_of(b, v);
    long long m = (n + S - 1) / S;
    T *sums = m > 1 ? (T *)b->d_sums[k + 1] : NULL;
    if (v == V_KS) kogge_stone_blocks<T><<<(unsigned)m, B, 2 * B * sizeof(T), s>>>(in, out, n, sums, exclusive);
    else brent_kung_blocks<T><<<(unsigned)m, B, (pad(S - 1) + 1) * sizeof(T), s>>>(in, out, n, sums, exclusive);
    LAUNCHED(b, "a textbook block scan");
    if (m == 1) return;
    T *scanned = (T *)b->d_scan[k + 1];
    textbook_level(b, v, (const T *)sums, scanned, m, k + 1, 0, s);
    add_back<T><<<(unsigned)(m - 1), B, 0, s>>>(out, n, scanned, S);
    LAUNCHED(b, "add_back");
}

/* hierarchical at level k: reduce the tiles of in (sums into level k + 1),
 * scan the sums the same way, scan the tiles from their prefixes. */
template <typename T>
static void hier_level(bench *b, const T *in, T *out, long long n, int k, int exclusive, cudaStream_t s)
{
    long long m = tiles_of(n);
    if (m == 1) {
        scan_tiles<T><<<1, THREADS, 0, s>>>(in, out, n, NULL, exclusive);
        LAUNCHED(b, "scan_tiles (one tile)");
        return;
    }
    T *sums = (T *)b->d_sums[k + 1], *scanned = (T *)b->d_scan[k + 1];
    reduce_tiles<T><<<(unsigned)m, THREADS, 0, s>>>(in, n, sums);
    LAUNCHED(b, "reduce_tiles");
    hier_level(b, (const T *)sums, scanned, m, k + 1, 0, s);
    scan_tiles<T><<<(unsigned)m, THREADS, 0, s>>>(in, out, n, scanned, exclusive);
    LAUNCHED(b, "scan_tiles");
}

/* cub, queued into s. */
template <typename T>
static cudaError_t cub_scan(bench *b, const T *in, T *out, int exclusive, cudaStream_t s)
{
    size_t bytes = b->cub_bytes;
    return exclusive ? cub::DeviceScan::ExclusiveSum(b->d_cub, bytes, in, out, (int)b->n, s)
                     : cub::DeviceScan::InclusiveSum(b->d_cub, bytes, in, out, (int)b->n, s);
}

/* Queue one run of GPU variant v on the current configuration. */
template <typename T>
static void queue_run(bench *b, int v)
{
    cudaStream_t s = b->stream;
    const T *in = (const T *)b->d_in[b->type];
    T *out = (T *)b->d_out;
    int exclusive = b->exclusive;
    switch (v) {
    case V_KS: case V_BK: textbook_level<T>(b, v, in, out, b->n, 0, exclusive, s); break;
    case V_HIER: hier_level<T>(b, in, out, b->n, 0, exclusive, s); break;
#ifdef SCAN_NO_CDP
    case V_CDP: gl_die(GL_EXIT_INTERNAL, "scan-nocdp has no hierarchical-cdp (options_ok refuses it)");
#else
    case V_CDP: {
        cdp_plan<T> p;
        memset(&p, 0, sizeof p);
        p.input = in;
        p.levels = levels_of(b->n, TILE);
        p.exclusive = exclusive;
        p.err = b->err;
        p.launches = b->d_launches;
        p.n[0] = b->n;
        p.out[0] = out;
        for (int k = 1; k <= p.levels; k++) {
            p.n[k] = tiles_of(p.n[k - 1]);
            p.sums[k] = (T *)b->d_sums[k];
            p.out[k] = (T *)b->d_scan[k];
        }
        cdp_step<T><<<(unsigned)tiles_of(b->n), THREADS, 0, s>>>(p, 0);
        LAUNCHED(b, "cdp_step (step 0)");
        break;
    }
#endif
    case V_LOOKBACK:
        lookback_scan<T><<<(unsigned)tiles_of(b->n), THREADS, 0, s>>>(in, out, b->n, b->d_status, b->d_tickets,
                                                                     b->ticket_base, b->epoch, exclusive, b->ticketed);
        LAUNCHED(b, "lookback_scan");
        if (b->ticketed) b->ticket_base += (unsigned long long)tiles_of(b->n); /* every block takes one ticket */
        b->epoch++;
        break;
    case V_CUB: CUDA_CHECK(cub_scan<T>(b, in, out, exclusive, s)); break;
    }
}

/* One run of variant v (the lab times it): cpu on the host, the others queued on the lab's stream. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    if (v == V_CPU) {
        if (b->type == T_INT) cpu_scan((const int *)b->h_in[T_INT], (int *)gl_lab_host_out(L), b->n, b->exclusive);
        else cpu_scan((const float *)b->h_in[T_FLOAT], (float *)gl_lab_host_out(L), b->n, b->exclusive);
        return;
    }
    b->host_launches = 0;
    if (b->type == T_INT) queue_run<int>(b, v);
    else queue_run<float>(b, v);
}

/* After a GPU run: a failed device launch is exit 3; a check's launches are kept; the counter starts again at 0. */
static void after_run(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    gl_dev_error_check(b->err);
    if (!L->checking) return;
    b->checked_host[v] = b->host_launches;
    CUDA_CHECK(cudaMemcpy(&b->checked_device[v], b->d_launches, sizeof b->d_launches[0], cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemset(b->d_launches, 0, sizeof b->d_launches[0]));
}

/* Kernels one cub call launches: the kernel nodes of a stream capture of it
 * (nothing runs). NAN when the capture fails: cub's count is then unknown. */
template <typename T>
static double count_cub_kernels(bench *b)
{
    cudaStream_t cs = b->capture_stream;
    CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeRelaxed));
    cudaError_t queued = cub_scan<T>(b, (const T *)b->d_in[b->type], (T *)b->d_out, b->exclusive, cs);
    cudaGraph_t g = NULL;
    cudaError_t ended = cudaStreamEndCapture(cs, &g);
    if (queued != cudaSuccess || ended != cudaSuccess || !g) {
        (void)cudaGetLastError();
        if (g) CUDA_CHECK(cudaGraphDestroy(g));
        printf("cub: its launches could not be counted from a capture (%s)\n",
               cudaGetErrorName(queued != cudaSuccess ? queued : ended));
        return NAN;
    }
    size_t count = 0;
    CUDA_CHECK(cudaGraphGetNodes(g, NULL, &count));
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)gl_xmalloc(sizeof *nodes * (count ? count : 1));
    CUDA_CHECK(cudaGraphGetNodes(g, nodes, &count));
    int kernels = 0;
    for (size_t i = 0; i < count; i++) {
        cudaGraphNodeType t;
        CUDA_CHECK(cudaGraphNodeGetType(nodes[i], &t));
        kernels += t == cudaGraphNodeTypeKernel;
    }
    free(nodes);
    CUDA_CHECK(cudaGraphDestroy(g));
    return kernels;
}

/* Refused before the runtime starts. */
static void options_ok(gl_lab *L, void *ctx)
{
    const bench *b = (const bench *)ctx;
    if (b->block & (b->block - 1))
        gl_die(GL_EXIT_USAGE, "--block %d: must be a power of two (brent-kung's trees halve the block)", b->block);
#ifdef SCAN_NO_CDP
    if (gl_lab_chosen(L, "hierarchical-cdp"))
        gl_die(GL_EXIT_USAGE, "--variant hierarchical-cdp: scan-nocdp is built without the device runtime (so that "
               "racecheck and synccheck can check the other variants); run it in scan");
#else
    (void)L;
#endif
}

/* ---- host: main ------------------------------------------------------------------------- */

#ifdef SCAN_NO_CDP
enum { CDP_FLAGS = GL_LAB_GPU | GL_LAB_NOT_IN_ALL }; /* refused by options_ok; "all" leaves it out */
#else
enum { CDP_FLAGS = GL_LAB_GPU };
#endif
static const gl_lab_variant variants[N_VARIANTS] = {
    {"cpu", GL_LAB_HOST}, {"kogge-stone", GL_LAB_GPU}, {"brent-kung", GL_LAB_GPU}, {"hierarchical", GL_LAB_GPU},
    {"hierarchical-cdp", CDP_FLAGS}, {"decoupled-lookback", GL_LAB_GPU}, {"cub", GL_LAB_GPU | GL_LAB_BASELINE}};
static const gl_lab_claim claims[] = {
    {"decoupled-lookback %s is at least 0.9x as fast as cub (median, L2 flushed)", "decoupled-lookback", GL_LAB_FASTER,
     "cub", 0.9, 2},
    {"hierarchical %s is at least 0.6x as fast as cub (median, L2 flushed)", "hierarchical", GL_LAB_FASTER, "cub", 0.6,
     2}};

int main(int argc, char **argv)
{
    static bench b;
    unsigned long long n = 1ULL << 28;
    int type_choice = 2, kind_choice = 2, tile_order = 0;
    b.block = 1024;
    gl_option opts[] = {
        {"n", GL_OPT_U64, &n, 1, 1073741824.0, NULL, "1048583", "elements to scan (1..2^30)", 0},
        {"type", GL_OPT_CHOICE, &type_choice, 0, 0, "int|float|both", NULL, "element type: int32 or float", 0},
        {"kind", GL_OPT_CHOICE, &kind_choice, 0, 0, "inclusive|exclusive|both", NULL, "which prefix sum", 0},
        {"block", GL_OPT_INT, &b.block, 32, MAX_BLOCK, NULL, NULL,
         "threads per block of kogge-stone and brent-kung (a power of two)", 0},
        {"tile-order", GL_OPT_CHOICE, &tile_order, 0, 0, "block|ticket", NULL,
         "decoupled-lookback: tile b in block b (as CUB), or tiles from an atomic ticket as blocks start", 0},
    };
    static const gl_experiment exp = {
#ifdef SCAN_NO_CDP
        "scan-nocdp",
#else
        "scan",
#endif
        "how close do the textbook's scans, a three-kernel hierarchy and a single-pass decoupled look-back come to "
        "CUB, for any n?",
        "Inclusive and exclusive prefix sums of --n seeded random int32 (exact, wrapping arithmetic) or floats\n"
        "(within gl_tolerance_sum of a double reference), every variant checked before any is timed.\n"
        "kogge-stone and brent-kung are the seed's block scans inside the textbook's scan-then-add pipeline\n"
        "(--block threads per block); the tile scans use 128 threads x 32 elements. Claims (input at least\n"
        "twice the L2): decoupled-lookback >= 0.9x cub, hierarchical >= 0.6x cub."};
    gl_lab_spec spec = GL_LAB_SPEC(exp, variants, opts, claims, run_variant, &b);
    spec.axis = "configuration";
    spec.after_run = after_run;
    spec.options_ok = options_ok;
    spec.time_precision = 1;
    spec.slow_run_ms = 100;
    spec.guard_what = "launches and the cache, not the scan";
    spec.no_spans = 1;
    gl_lab L;
    gl_lab_open(&L, &spec, argc, argv);
    int types[N_TYPES] = {type_choice != 1, type_choice != 0};
    int kinds[2] = {kind_choice != 1, kind_choice != 0};
    b.ticketed = tile_order == 1;
    b.n = (long long)n;
    b.epoch = 1;
    b.stream = L.stream;

    /* ---- memory: levels sized for the smallest section run ---- */
    long long smallest = TILE;
    if (gl_lab_chosen(&L, "brent-kung")) smallest = 2LL * b.block;
    if (gl_lab_chosen(&L, "kogge-stone")) smallest = b.block;
    int levels = levels_of(b.n, smallest);
    if (levels + 1 > MAX_LEVELS) gl_die(GL_EXIT_INTERNAL, "%d levels of sums exceed MAX_LEVELS", levels);
    long long level_n[MAX_LEVELS] = {b.n};
    for (int k = 1; k <= levels; k++) level_n[k] = (level_n[k - 1] + smallest - 1) / smallest;
    for (int t = 0; t < N_TYPES; t++)
        for (int e = 0; e < 2 && gl_lab_chosen(&L, "cub"); e++) {
            if (!types[t] || !kinds[e]) continue;
            size_t need = 0;
            if (t == T_INT)
                CUDA_CHECK(e ? cub::DeviceScan::ExclusiveSum(NULL, need, (const int *)NULL, (int *)NULL, (int)b.n)
                             : cub::DeviceScan::InclusiveSum(NULL, need, (const int *)NULL, (int *)NULL, (int)b.n));
            else
                CUDA_CHECK(e ? cub::DeviceScan::ExclusiveSum(NULL, need, (const float *)NULL, (float *)NULL, (int)b.n)
                             : cub::DeviceScan::InclusiveSum(NULL, need, (const float *)NULL, (float *)NULL, (int)b.n));
            if (need > b.cub_bytes) b.cub_bytes = need;
        }
    size_t array_bytes = sizeof(float) * (size_t)b.n; /* int and float are both 4 bytes */
    gl_lab_need(&L, (double)array_bytes * (1 + types[T_INT] + types[T_FLOAT]), "--n %lld: the inputs and the output",
                b.n);
    for (int k = 1; k <= levels; k++) gl_lab_need(&L, 2.0 * sizeof(float) * level_n[k], "level %d's sums", k);
    gl_lab_need(&L, sizeof(unsigned long long) * (double)(tiles_of(b.n) + 2), "the tiles' status");
    gl_lab_need(&L, (double)b.cub_bytes, "cub's temporary storage");
    gl_lab_budget(&L);

    /* ---- the inputs, on the host and the device ---- */
    for (int t = 0; t < N_TYPES; t++) {
        if (!types[t]) continue;
        b.h_in[t] = gl_xmalloc(array_bytes);
        if (t == T_INT) gl_fill_i32((int32_t *)b.h_in[t], (size_t)b.n, L.common.seed, 0, -1000, 1000);
        else gl_fill_f32((float *)b.h_in[t], (size_t)b.n, L.common.seed, 1, -1.0f, 1.0f);
        b.d_in[t] = gl_lab_malloc(&L, array_bytes);
        CUDA_CHECK(cudaMemcpy(b.d_in[t], b.h_in[t], array_bytes, cudaMemcpyHostToDevice));
    }
    void *h_ref = gl_xmalloc(array_bytes);
    b.d_out = gl_lab_malloc(&L, array_bytes);
    for (int k = 1; k <= levels; k++) {
        b.d_sums[k] = gl_lab_malloc(&L, sizeof(float) * (size_t)level_n[k]);
        b.d_scan[k] = gl_lab_malloc(&L, sizeof(float) * (size_t)level_n[k]);
    }
    b.d_status = (unsigned long long *)gl_lab_malloc(&L, sizeof(unsigned long long) * (size_t)tiles_of(b.n));
    CUDA_CHECK(cudaMemset(b.d_status, 0, sizeof(unsigned long long) * (size_t)tiles_of(b.n))); /* epoch 0: empty */
    b.d_tickets = (unsigned long long *)gl_lab_malloc(&L, sizeof(unsigned long long));
    CUDA_CHECK(cudaMemset(b.d_tickets, 0, sizeof(unsigned long long)));
    b.d_launches = (unsigned long long *)gl_lab_malloc(&L, sizeof(unsigned long long));
    CUDA_CHECK(cudaMemset(b.d_launches, 0, sizeof(unsigned long long)));
    b.d_cub = gl_lab_malloc(&L, b.cub_bytes);
    b.err = gl_dev_error_create();
    CUDA_CHECK(cudaStreamCreateWithFlags(&b.capture_stream, cudaStreamNonBlocking));

    /* hierarchical-cdp: one pending tail launch at a time; the pool is set, at least the default, and read back. */
    size_t pool = 0;
    long long cdp_need = predicted_device_launches(&b, V_CDP);
    if (gl_lab_chosen(&L, "hierarchical-cdp")) {
        CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, cdp_need > 2048 ? (size_t)cdp_need : 2048));
        CUDA_CHECK(cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount));
        printf("hierarchical-cdp: %lld device-side launches per run; pending-launch pool %zu\n", cdp_need, pool);
    }

    double input_bytes = 4.0 * (double)b.n;
    printf("n = %lld (%.1f MB per array), %lld tiles of %d (%d threads x %d; decoupled-lookback takes them in %s order); "
           "kogge-stone sections of %d, brent-kung of %d; speed claims %s\n",
           b.n, input_bytes / 1e6, tiles_of(b.n), TILE, THREADS, ITEMS, b.ticketed ? "ticket" : "block", b.block,
           2 * b.block, input_bytes >= 2.0 * L.dev.l2_bytes ? "judged (the input is at least twice the L2)"
                                                             : "SKIP (the input is under twice the L2)");

    /* ---- one configuration per type and kind: the reference, then every variant checked ---- */
    int n_configs = 0;
    for (int t = 0; t < N_TYPES; t++)
        for (int e = 0; e < 2; e++) n_configs += types[t] && kinds[e];
    gl_lab_plan(&L, n_configs, 0);
    for (int t = 0; t < N_TYPES; t++)
        for (int e = 0; e < 2; e++) {
            if (!types[t] || !kinds[e]) continue;
            b.type = t;
            b.exclusive = e;
            reference_scan(t, b.h_in[t], h_ref, b.n, e);
            int c = gl_lab_add_config(&L, input_bytes, "%s %s", type_names[t], kind_names[e]);
            gl_lab_param(&L, "type", "%s", type_names[t]);
            gl_lab_param(&L, "kind", "%s", kind_names[e]);
            gl_lab_param_num(&L, "n", (double)b.n);
            for (int v = 0; v < N_VARIANTS; v++) {
                gl_row *row = gl_lab_row(&L, c, v);
                if (!row) continue;
                if (v == V_CPU) gl_row_param(row, "tile", "-");
                else if (v == V_CUB) gl_row_param(row, "tile", "cub's");
                else gl_row_param(row, "tile", "%lld", section_of(&b, v));
                gl_row_param(row, "traffic", "%s", variant_traffic[v]);
                if (v == V_CDP && (long long)pool < cdp_need)
                    gl_row_skip(row, "needs a pending-launch pool of %lld; the runtime gave %zu", cdp_need, pool);
            }
            gl_lab_work(&L, 8.0 * (double)b.n, (double)b.n); /* read n, write n: GB/s, % of peak, the L2 flush */
            double tol = t == T_INT ? 0 : gl_tolerance_sum((size_t)b.n, 1.0, 0);
            gl_lab_output(&L, t == T_INT ? GL_I32 : GL_F32, b.d_out, (size_t)b.n, h_ref, tol, 0);
            if (t == T_INT) gl_lab_check(&L, "%s %s matches the CPU exactly", type_names[t], kind_names[e]);
            else gl_lab_check(&L, "%s %s matches the CPU within %.3g", type_names[t], kind_names[e], tol);
            /* launches: counted against the prediction (cub's from a capture of one call) */
            for (int v = 0; v < N_VARIANTS; v++) {
                gl_row *row = gl_lab_row(&L, c, v);
                if (!row || row->skip_reason) continue;
                double host = 0, device = 0;
                if (v == V_CUB) {
                    host = t == T_INT ? count_cub_kernels<int>(&b) : count_cub_kernels<float>(&b);
                } else if (v != V_CPU) {
                    long long want_h = predicted_host_launches(&b, v), want_d = predicted_device_launches(&b, v);
                    host = (double)b.checked_host[v];
                    device = (double)b.checked_device[v];
                    gl_check(&L.rep, row, b.checked_host[v] == want_h && (long long)b.checked_device[v] == want_d,
                             "%s: %lld host and %llu device launches, %lld and %lld predicted", variants[v].name,
                             b.checked_host[v], b.checked_device[v], want_h, want_d);
                }
                gl_row_number(row, "launches_host", "", 0, 0, host);
                gl_row_number(row, "launches_device", "", 0, 0, device);
            }
        }

    /* ---- time, then the ratios to cub and the claims ---- */
    if (gl_lab_time(&L)) gl_lab_judge(&L);

    gl_dev_error_destroy(b.err);
    for (int t = 0; t < N_TYPES; t++) free(b.h_in[t]);
    CUDA_CHECK(cudaStreamDestroy(b.capture_stream));
    free(h_ref);
    return gl_lab_close(&L);
}
