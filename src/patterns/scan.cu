/* scan.cu - prefix sums from the textbook's single-block scans to a single-pass decoupled look-back, beside CUB.
 *
 * Question: how close do the textbook's scans, a three-kernel hierarchy and a single-pass decoupled look-back come to CUB, for any n?
 * Build: openmp cub
 * Sanitize: --quick --profile --n 50003 --skip-timing-claims
 *
 * Inclusive and exclusive sums of --n seeded random int32 (wrapping, checked exactly) or floats (within
 * gl_tolerance_sum of a double reference); each kernel is one template, so int32 checks the algorithm exactly.
 * Variants: cpu; kogge-stone and brent-kung (the seed's block scans made race-free, in the textbook's
 * scan-then-add pipeline, Kirk & Hwu ch. 11); hierarchical (reduce each 4096-element tile, scan the sums
 * recursively, scan each tile from its prefix; scan-cdp launches it from the device); decoupled-lookback (one
 * pass, Merrill & Garland 2016: one 64-bit status word per tile, a look-back over 32 tiles at once; tiles in
 * block order or, --tile-order ticket, from an atomic counter); cub::DeviceScan.
 * Model: DRAM traffic per run (the "traffic" column): 4n elements for scan-then-add, 3n for hierarchical, 2n
 * for the single pass and cub; at equal bandwidth a variant's ceiling against cub is 2n / its traffic.
 * Claims (input at least twice the L2): decoupled-lookback >= 0.9x cub, hierarchical >= 0.6x cub. Launches
 * are counted (cub's from a stream capture) against the prediction. In full: FINDINGS.md, "scan".
 *
 * Run:   make run-scan                                             (2^28, int32 and float, inclusive and exclusive)
 *        make run-scan ARGS="--type int --kind inclusive --variant decoupled-lookback,hierarchical,cub --repeat 20"
 *        make run-scan ARGS="--n 1000 --variant kogge-stone,brent-kung --block 256"
 * Nsight Systems (make profile-scan): an NVTX range per configuration and variant on the stream "scan".
 */
#include <cuda/atomic>

#include "scan.cuh"

/* decoupled-lookback's occupancy: 64 registers, a few spilled; 0.93-0.94x cub on an H100, from 0.90x at 7. */
enum { LOOKBACK_BLOCKS_PER_SM = 8 };

/* ---- decoupled-lookback ---------------------------------------------------------------------- */

__device__ __forceinline__ unsigned to_bits(int v) { return (unsigned)v; }
__device__ __forceinline__ unsigned to_bits(float v) { return __float_as_uint(v); }
template <typename T> __device__ __forceinline__ T from_bits(unsigned u);
template <> __device__ __forceinline__ int from_bits<int>(unsigned u) { return (int)u; }
template <> __device__ __forceinline__ float from_bits<float>(unsigned u) { return __uint_as_float(u); }

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
__global__ void __launch_bounds__(THREADS, LOOKBACK_BLOCKS_PER_SM)
lookback_scan(const T *__restrict__ in, T *__restrict__ out, long long n, unsigned long long *status,
              unsigned long long *tickets, unsigned long long ticket_base, unsigned epoch, int exclusive, int ticketed)
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

/* brent-kung's padded index: one slot skipped every 32 and every 1024 words frees every access of the kernel below
 * of bank conflicts at every block size (unpadded, the sweeps reach 32-way; with i/32 alone, 2-way). */
__host__ __device__ __forceinline__ unsigned pad(unsigned i) { return i + (i >> 5) + (i >> 10); }

/* brent-kung: block b scans its 2 x blockDim.x elements: the seed's reduction phase, then Blelloch's down-sweep
 * (GPU Gems 3, ch. 39; the seed's distribution phase cannot be padded free of conflicts), which leaves the
 * exclusive scan. A barrier before each step; within a step no two threads touch one index. */
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

/* ---- host ------------------------------------------------------------------------------------ */

/* decoupled-lookback's state */
static int by_ticket;                  /* --tile-order ticket (1): tiles from the ticket counter, not blockIdx */
static unsigned long long *d_status;   /* one word per tile */
static unsigned long long *d_tickets;  /* tiles handed out, over all runs */
static unsigned long long ticket_base; /* tickets handed out by earlier runs */
static unsigned run_epoch = 1;         /* the run's number (0: the zeroed array) */

/* The textbook's scan-then-add at level k: scan the blocks of in into out
 * (sums into level k + 1), scan the sums the same way, add them back. */
template <typename T>
static void textbook_level(scan_bench *b, int id, const T *in, T *out, long long n, int k, int exclusive)
{
    unsigned B = (unsigned)b->block, S = (unsigned)section_of(b, id);
    long long m = (n + S - 1) / S;
    T *sums = m > 1 ? (T *)b->d_sums[k + 1] : NULL, *scanned = (T *)b->d_scan[k + 1];
    if (id == V_KS)
        kogge_stone_blocks<T><<<(unsigned)m, B, 2 * B * sizeof(T), b->L->stream>>>(in, out, n, sums, exclusive);
    else brent_kung_blocks<T><<<(unsigned)m, B, (pad(S - 1) + 1) * sizeof(T), b->L->stream>>>(in, out, n, sums, exclusive);
    LAUNCHED(b, "a textbook block scan");
    if (m == 1) return;
    textbook_level(b, id, (const T *)sums, scanned, m, k + 1, 0);
    add_back<T><<<(unsigned)(m - 1), B, 0, b->L->stream>>>(out, n, scanned, S);
    LAUNCHED(b, "add_back");
}

/* Queue one run of kogge-stone, brent-kung or decoupled-lookback. */
template <typename T>
static void queue_own(scan_bench *b, int id, const T *in, T *out)
{
    if (id != V_LOOKBACK) return textbook_level<T>(b, id, in, out, b->n, 0, b->exclusive);
    lookback_scan<T><<<(unsigned)tiles_of(b->n), THREADS, 0, b->L->stream>>>(
        in, out, b->n, d_status, d_tickets, ticket_base, run_epoch, b->exclusive, by_ticket);
    LAUNCHED(b, "lookback_scan");
    if (by_ticket) ticket_base += (unsigned long long)tiles_of(b->n); /* every block takes one ticket */
    run_epoch++;
}

/* Refused before the runtime starts. */
static void options_ok(gl_lab * /* L */, void *ctx)
{
    int block = ((const scan_bench *)ctx)->block;
    if (block & (block - 1))
        gl_die(GL_EXIT_USAGE, "--block %d: must be a power of two (brent-kung's trees halve the block)", block);
}

static const gl_lab_variant variants[] = {{"cpu", GL_LAB_HOST}, {"kogge-stone", GL_LAB_GPU}, {"brent-kung", GL_LAB_GPU},
    {"hierarchical", GL_LAB_GPU}, {"decoupled-lookback", GL_LAB_GPU}, {"cub", GL_LAB_GPU | GL_LAB_BASELINE}};
static const int ids[] = {V_CPU, V_KS, V_BK, V_HIER, V_LOOKBACK, V_CUB};
static const gl_lab_claim claims[] = {
    {"decoupled-lookback %s is at least 0.9x as fast as cub (median, L2 flushed)", "decoupled-lookback", GL_LAB_FASTER,
     "cub", 0.9, 2},
    {"hierarchical %s is at least 0.6x as fast as cub (median, L2 flushed)", "hierarchical", GL_LAB_FASTER, "cub", 0.6,
     2}};

int main(int argc, char **argv)
{
    static scan_bench b;
    b.block = 1024;
    gl_option opts[] = {
        SCAN_OPTIONS(b),
        {"block", GL_OPT_INT, &b.block, 32, 1024, NULL, NULL,
         "threads per block of kogge-stone and brent-kung (a power of two)", 0},
        {"tile-order", GL_OPT_CHOICE, &by_ticket, 0, 0, "block|ticket", NULL,
         "decoupled-lookback: tile b in block b (as CUB), or tiles from an atomic ticket as blocks start", 0},
    };
    static const gl_experiment exp = {
        "scan",
        "how close do the textbook's scans, a three-kernel hierarchy and a single-pass decoupled look-back come to "
        "CUB, for any n?",
        "Inclusive and exclusive prefix sums of --n seeded random int32 (exact, wrapping arithmetic) or floats\n"
        "(within gl_tolerance_sum of a double reference), every variant checked before any is timed.\n"
        "kogge-stone and brent-kung are the seed's block scans inside the textbook's scan-then-add pipeline\n"
        "(--block threads per block); the tile scans use 128 threads x 32 elements. Claims (input at least\n"
        "twice the L2): decoupled-lookback >= 0.9x cub, hierarchical >= 0.6x cub."};
    gl_lab_spec spec = GL_LAB_SPEC(exp, variants, opts, claims, scan_run, &b);
    spec.options_ok = options_ok;
    gl_lab L;
    scan_open(&L, &spec, &b, ids, argc, argv);
    gl_lab_buffer own[] = {{&d_status, 8.0 * (double)tiles_of(b.n), "the tiles' status"}, /* epoch 0: empty */
                           {&d_tickets, 8, "the ticket counter"}};
    printf("decoupled-lookback takes tiles in %s order; kogge-stone sections of %d, brent-kung of %d\n",
           by_ticket ? "ticket" : "block", b.block, 2 * b.block);
    return scan_main(&b, own, GL_ARRAY_LEN(own));
}
