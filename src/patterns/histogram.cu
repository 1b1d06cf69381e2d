/* histogram.cu - the textbook's parallel histogram, every variant made exact for any size, beside CUB and gridlab's own.
 *
 * Question: how fast can a GPU count bytes, from the textbook's global atomics to privatized shared atomics, against cub::DeviceHistogram, and does contention still slow atomics?
 * Build: openmp cub
 * Sanitize: --quick --profile --n 100003 --skip-timing-claims
 *
 * The histogram of --n bytes (1..2^31), checked exactly against the CPU for
 * every input and every variant before anything is timed.
 *
 * Inputs (--input all, the default, or one), generated on the host from --seed:
 *   uniform  every byte value equally likely (gl_fill_bytes)
 *   text     English-like: i.i.d. lowercase letters with English letter frequencies
 *            (Lewand) and a space about every 5.5 characters; no words, no punctuation
 *   zipf     skewed: rank r (0..255) drawn with weight 1/(r+1), and byte = 'a' + r
 *            (mod 256), so that both bin sets see the skew: 'a' alone is 16% of the
 *            bytes, the 26 letters 63%
 *   single   one value repeated, 'e' (a letter, so that with 7 bins too every byte
 *            lands in one bin): the worst case for atomics in the textbook's story
 *
 * Bins (--bins): 256, one per byte value; or 7, the seed's letter groups:
 * 'a'-'d' -> 0, 'e'-'h' -> 1, 'i'-'l' -> 2, 'm'-'p' -> 3, 'q'-'t' -> 4,
 * 'u'-'x' -> 5, 'y'-'z' -> 6. Every other byte (capitals, spaces, anything
 * outside 'a'..'z') goes nowhere, as in the seed; the run prints how many.
 *
 * Variants (--variant all, the default, or a comma-separated list):
 *   cpu              the seed's sequential_histogram (hist[byte]++, or its letter
 *                    arithmetic for 7 bins), timed; the reference it is checked
 *                    against is a separate 4-way byte count folded into the bins
 *   global-atomic    seed 003's kernel with one thread per byte, the launch both seeds
 *                    use (a grid as large as the input): atomicAdd on the global bins
 *   block-partition  seed 000's first kernel with a grid sized to the GPU (SMs x
 *                    resident blocks): each thread a contiguous section, so a warp's
 *                    loads are `section` bytes apart and do not coalesce
 *   interleaved      seed 000's interleaved kernel on the same grid: grid-stride, coalesced,
 *                    global atomics
 *   privatized       seed 000's shared-memory copy per block, on the same grid (the seed's
 *                    one 16-thread block per 16 bytes is not repeated), merged by atomics
 *   aggregated       privatized plus the seed's run aggregation: a thread adds a run of
 *                    equal bins with one atomic
 *   best             gridlab's own (below)
 *   cub              cub::DeviceHistogram: HistogramEven with levels 0..256 for 256 bins;
 *                    HistogramRange with levels a e i m q u y {, i.e. 97 101 105 109 113
 *                    117 121 123, for 7 bins (even levels cannot stop the last bin at 'z')
 * Every GPU variant's time includes zeroing its output (cub zeroes its own, in an
 * init kernel). Counters are 32-bit: 2^31 bytes fit.
 *
 * Host time. The inputs are generated (text and zipf chunk by chunk, each chunk
 * its own random stream, so the bytes do not depend on the thread count) and
 * the reference counted on every host core (OpenMP: per-thread counts, added
 * exactly); cpu stays the seed's loop on one core. A configuration whose
 * validation run took over SLOW_RUN_MS is timed at most SLOW_REPEAT times, without
 * warm-up (the validation run was its warm-up): at 2^30 bytes that is cpu
 * (0.6-3.2 s a run) and the three global-atomic forms (0.26-0.79 s, noise
 * 0.01%), which with 2 + 10 runs each took 120 of the 147 s the run took on an
 * H100; three runs say what twelve did, and --n 2^30 with every input and
 * variant takes under a minute.
 *
 * best. One kernel on a grid of SMs x resident blocks (512 threads, 4 per SM):
 *  - 16-byte loads, two in flight per thread, grid-stride; the tail of fewer than
 *    16 bytes is counted byte by byte, so every n is exact;
 *  - per-lane columns: the block's 256 counters are kept 32 times, counter b of
 *    lane l at word b*32 + l, which is always in bank l. A warp's shared atomic then
 *    touches 32 banks once each, whatever the data (no bank conflicts, no same-address
 *    lanes), at 32 KB of shared memory per block;
 *  - run aggregation where it is free: a 16-byte vector of one repeated value (the
 *    single input) is one atomic of 16, checked with one byte_perm and four compares;
 *  - the merge: each block sums a bin's 32 columns (rotated, so the reads do not
 *    conflict), folds it into the output bin (the 7 letter groups are a fold of the
 *    byte counts, as cub does for byte samples) and adds it to the global bin.
 *
 * Model (printed per input, not judged). A warp's shared atomic into one 256-counter
 * array (privatized with 256 bins, and cub's privatized layout for bytes) is taken to
 * need one pass per distinct bin in its most loaded bank (bank = bin mod 32), lanes on
 * the same bin merging. On the seeded inputs: uniform bytes 3.15 passes per instruction,
 * zipf 2.45, text 1 (its 27 values sit in 27 different banks), the single value 1.
 * best's columns need 1 on every input, so it should run at the DRAM's pace on all four.
 * The printed passes, next to each variant's time against uniform bytes, show whether
 * that model holds.
 *
 * Claims. best is at least as fast as cub (median, L2 flushed before each sample) on
 * each input: judged where the input is at least twice the L2, SKIP below (the times
 * are then launches, not the histogram). Finding (printed, and the time_vs_uniform
 * column): how much longer each GPU variant takes on the single value than on uniform
 * bytes: "contention kills atomics" measured, not assumed.
 *
 * Run:   make run-histogram                                          (2^28 bytes, every input and variant)
 *        make run-histogram ARGS="--n 1073741824 --variant best,cub --repeat 20"   (the Done-means size)
 *        make run-histogram ARGS="--bins 7 --input text"                          (the seed's letter groups)
 *        make run-histogram ARGS="--n 1073741824 --variant global-atomic,privatized --input all"  (contention)
 * Nsight Systems (make profile-histogram) shows one NVTX range per input and variant
 * on the stream "histogram": a memset and one kernel per GPU variant (cub: its init
 * kernel and its histogram kernel), each behind the gate kernel that holds the stream
 * until the run is queued, and the L2 flush on its own stream before each sample.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_histogram.cuh>

#include "check.h"
#include "gl_cuda.h"
#include "nvtx.h"
#include "progress.h"

enum { V_CPU, V_GLOBAL, V_BLOCK, V_INTERLEAVED, V_PRIVATIZED, V_AGGREGATED, V_BEST, V_CUB, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = {"cpu", "global-atomic", "block-partition", "interleaved",
                                                      "privatized", "aggregated", "best", "cub"};
enum { IN_UNIFORM, IN_TEXT, IN_ZIPF, IN_SINGLE, N_INPUTS };
static const char *const input_names[N_INPUTS] = {"uniform", "text", "zipf", "single"};

enum {
    TB_THREADS = 256,      /* block of the textbook variants */
    BEST_THREADS = 512,    /* block of best */
    BEST_PER_SM = 4,       /* best's resident blocks per SM: 2048 threads, 128 KB of columns */
    LANES = 32,            /* best keeps one column of counters per lane */
    BYTE_BINS = 256,       /* byte values */
    LETTER_BINS = 7,       /* the seed's letter groups */
    SINGLE_VALUE = 'e',    /* the single input's byte */
    GEN_CHUNK = 1 << 20,   /* bytes generated per random stream (text, zipf) */
    MODEL_GROUPS = 1 << 16, /* 32-byte groups the bank model looks at */
    SLOW_RUN_MS = 100,     /* a validation run this long: the configuration is timed SLOW_REPEAT times, no warm-up */
    SLOW_REPEAT = 3        /* timed runs of such a configuration, at most */
};

/* ---- bins -------------------------------------------------------------------------------- */

/* The bin of byte c, or -1: with 256 bins every byte counts; with 7, the seed's letter groups. */
template <int BINS>
__host__ __device__ __forceinline__ int bin_of(unsigned int c)
{
    if (BINS == BYTE_BINS) return (int)c;
    unsigned int d = c - 'a';
    return d < 26u ? (int)(d / 4) : -1;
}
static int bin_of_host(int bins, unsigned int c)
{
    return bins == BYTE_BINS ? bin_of<BYTE_BINS>(c) : bin_of<LETTER_BINS>(c);
}

/* ---- the textbook's kernels ---------------------------------------------------------------- */

/* global-atomic: one thread per byte, atomicAdd on the global bin. */
template <int BINS>
__global__ void global_atomic(const unsigned char *in, long long n, unsigned int *hist)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int b = bin_of<BINS>(in[i]);
    if (b >= 0) atomicAdd(&hist[b], 1u);
}

/* block-partition: thread t counts bytes [t * section, (t + 1) * section). */
template <int BINS>
__global__ void block_partition(const unsigned char *in, long long n, long long section, unsigned int *hist)
{
    long long begin = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * section;
    long long end = begin + section < n ? begin + section : n;
    for (long long i = begin; i < end; i++) {
        int b = bin_of<BINS>(in[i]);
        if (b >= 0) atomicAdd(&hist[b], 1u);
    }
}

/* interleaved: grid-stride, so that a warp reads 32 consecutive bytes. */
template <int BINS>
__global__ void interleaved(const unsigned char *in, long long n, unsigned int *hist)
{
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int b = bin_of<BINS>(in[i]);
        if (b >= 0) atomicAdd(&hist[b], 1u);
    }
}

/* Add a block's shared copy to the global bins. */
template <int BINS>
__device__ __forceinline__ void merge_block(const unsigned int *s_hist, unsigned int *hist)
{
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s_hist[b]) atomicAdd(&hist[b], s_hist[b]);
}

/* privatized: a copy of the bins per block in shared memory, grid-stride over the input. */
template <int BINS>
__global__ void privatized(const unsigned char *in, long long n, unsigned int *hist)
{
    __shared__ unsigned int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
    __syncthreads();
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int b = bin_of<BINS>(in[i]);
        if (b >= 0) atomicAdd(&s_hist[b], 1u);
    }
    merge_block<BINS>(s_hist, hist);
}

/* aggregated: privatized, and a thread's run of equal bins is one atomic (bytes in no bin do not end a run). */
template <int BINS>
__global__ void aggregated(const unsigned char *in, long long n, unsigned int *hist)
{
    __shared__ unsigned int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
    __syncthreads();
    int prev = -1;
    unsigned int run = 0;
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int b = bin_of<BINS>(in[i]);
        if (b < 0) continue;
        if (b == prev) {
            run++;
        } else {
            if (run) atomicAdd(&s_hist[prev], run);
            prev = b;
            run = 1;
        }
    }
    if (run) atomicAdd(&s_hist[prev], run);
    merge_block<BINS>(s_hist, hist);
}

/* ---- best: per-lane columns, 16-byte loads, free run aggregation ------------------------------- */

/* Count the four bytes of w in this lane's column (counter b at col[b * LANES]). */
__device__ __forceinline__ void count_word(unsigned int *col, unsigned int w)
{
    atomicAdd(col + (w & 0xFFu) * LANES, 1u);
    atomicAdd(col + ((w >> 8) & 0xFFu) * LANES, 1u);
    atomicAdd(col + ((w >> 16) & 0xFFu) * LANES, 1u);
    atomicAdd(col + (w >> 24) * LANES, 1u);
}

/* Count 16 bytes; 16 copies of one value are one atomic. */
__device__ __forceinline__ void count_vec(unsigned int *col, uint4 v)
{
    unsigned int r = __byte_perm(v.x, 0, 0); /* byte 0 of v.x, four times */
    if (v.x == r && v.y == r && v.z == r && v.w == r) {
        atomicAdd(col + (r & 0xFFu) * LANES, 16u);
        return;
    }
    count_word(col, v.x);
    count_word(col, v.y);
    count_word(col, v.z);
    count_word(col, v.w);
}

template <int BINS>
__global__ void __launch_bounds__(BEST_THREADS, BEST_PER_SM) best_histogram(const unsigned char *__restrict__ in,
                                                                          long long n, unsigned int *__restrict__ hist)
{
    __shared__ unsigned int cols[BYTE_BINS * LANES];
    for (int i = threadIdx.x; i < BYTE_BINS * LANES; i += BEST_THREADS) cols[i] = 0;
    __syncthreads();
    unsigned int *col = cols + (threadIdx.x & (LANES - 1));
    const uint4 *in16 = (const uint4 *)in; /* cudaMalloc'd: 256-byte aligned */
    long long n16 = n / 16, step = (long long)gridDim.x * BEST_THREADS;
    long long j = (long long)blockIdx.x * BEST_THREADS + threadIdx.x;
    for (; j + step < n16; j += 2 * step) {
        uint4 a = in16[j], b = in16[j + step];
        count_vec(col, a);
        count_vec(col, b);
    }
    if (j < n16) count_vec(col, in16[j]);
    for (long long i = n16 * 16 + (long long)blockIdx.x * BEST_THREADS + threadIdx.x; i < n; i += step)
        atomicAdd(col + in[i] * LANES, 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < BYTE_BINS; v += BEST_THREADS) {
        int out = bin_of<BINS>((unsigned int)v);
        if (out < 0) continue;
        unsigned int s = 0;
        for (int k = 0; k < LANES; k++) s += cols[v * LANES + ((k + v) & (LANES - 1))];
        if (s) atomicAdd(&hist[out], s);
    }
}

/* ---- host: inputs, the reference, the model ---------------------------------------------------- */

/* A 65536-entry table whose entries follow the weights w over the values v (k of each). */
static void table_from_weights(uint8_t *table, const double *w, const uint8_t *v, int k)
{
    double total = 0, cum = 0;
    for (int i = 0; i < k; i++) total += w[i];
    int j = 0;
    for (int u = 0; u < 65536; u++) {
        double q = (u + 0.5) / 65536.0 * total;
        while (j < k - 1 && cum + w[j] <= q) cum += w[j++];
        table[u] = v[j];
    }
}

/* x[i] = table[a 16-bit draw]; each chunk of GEN_CHUNK bytes is its own random stream, so
 * the chunks are generated on every core and the bytes are the same on any number of them. */
static void fill_from_table(uint8_t *x, long long n, unsigned long long seed, unsigned int stream0, const uint8_t *table)
{
    long long chunks = (n + GEN_CHUNK - 1) / GEN_CHUNK;
#pragma omp parallel
    {
        uint32_t *draw = (uint32_t *)gl_xmalloc(sizeof(uint32_t) * GEN_CHUNK);
#pragma omp for schedule(static)
        for (long long c = 0; c < chunks; c++) {
            long long base = c * GEN_CHUNK, len = n - base < GEN_CHUNK ? n - base : (long long)GEN_CHUNK;
            gl_fill_u32(draw, (size_t)len, seed, stream0 + (unsigned int)c, 0, 65535);
            for (long long i = 0; i < len; i++) x[base + i] = table[draw[i]];
        }
        free(draw);
    }
}

/* Generate input `which` into x. */
static void generate(int which, uint8_t *x, long long n, unsigned long long seed)
{
    static const double letter_pct[26] = {8.167, 1.492, 2.782, 4.253, 12.702, 2.228, 2.015, 6.094, 6.966,
                                          0.153, 0.772, 4.025, 2.406, 6.749,  7.507, 1.929, 0.095, 5.987,
                                          6.327, 9.056, 2.758, 0.978, 2.360,  0.150, 1.974, 0.074};
    double w[BYTE_BINS];
    uint8_t v[BYTE_BINS];
    uint8_t *table = (uint8_t *)gl_xmalloc(65536);
    switch (which) {
    case IN_UNIFORM: gl_fill_bytes(x, (size_t)n, seed, 1); break;
    case IN_TEXT:
        for (int i = 0; i < 26; i++) w[i] = letter_pct[i], v[i] = (uint8_t)('a' + i);
        w[26] = 100.0 * 18.0 / 82.0, v[26] = ' '; /* 18% of the characters are spaces */
        table_from_weights(table, w, v, 27);
        fill_from_table(x, n, seed, 1u << 20, table);
        break;
    case IN_ZIPF:
        for (int r = 0; r < BYTE_BINS; r++) w[r] = 1.0 / (r + 1), v[r] = (uint8_t)('a' + r);
        table_from_weights(table, w, v, BYTE_BINS);
        fill_from_table(x, n, seed, 2u << 20, table);
        break;
    case IN_SINGLE: memset(x, SINGLE_VALUE, (size_t)n); break;
    }
    free(table);
}

/* The reference: a 4-way byte count (independent of the seed's loop) on every core, each
 * thread over its own slice, the threads' counts added (integers: exact in any order),
 * folded into the bins. Returns bytes in no bin. */
static long long reference(const uint8_t *x, long long n, int bins, unsigned int *ref)
{
    unsigned long long total[BYTE_BINS] = {0};
    long long quads = n / 4;
#pragma omp parallel
    {
        unsigned long long c[4][BYTE_BINS]; /* four counters per value: consecutive equal bytes do not wait on one */
        memset(c, 0, sizeof c);
#pragma omp for schedule(static) nowait
        for (long long q = 0; q < quads; q++) {
            const uint8_t *p = x + 4 * q;
            c[0][p[0]]++;
            c[1][p[1]]++;
            c[2][p[2]]++;
            c[3][p[3]]++;
        }
#pragma omp critical
        for (int v = 0; v < BYTE_BINS; v++) total[v] += c[0][v] + c[1][v] + c[2][v] + c[3][v];
    }
    for (long long i = 4 * quads; i < n; i++) total[x[i]]++;
    long long nowhere = 0;
    memset(ref, 0, sizeof(unsigned int) * bins);
    for (int v = 0; v < BYTE_BINS; v++) {
        unsigned long long k = total[v];
        int b = bin_of_host(bins, (unsigned int)v);
        if (b < 0) nowhere += (long long)k;
        else ref[b] += (unsigned int)k;
    }
    return nowhere;
}

/* cpu: the seed's sequential_histogram, on one core (it is what the GPU variants are set against). */
static void cpu_histogram(const uint8_t *x, long long n, int bins, unsigned int *h)
{
    memset(h, 0, sizeof(unsigned int) * bins);
    if (bins == BYTE_BINS) {
        for (long long i = 0; i < n; i++) h[x[i]]++;
    } else {
        for (long long i = 0; i < n; i++) {
            int alphabet_position = x[i] - 'a';
            if (alphabet_position >= 0 && alphabet_position < 26) h[alphabet_position / 4]++;
        }
    }
}

/* The model: mean passes of a warp's shared atomic over 32 consecutive bytes into one 256-counter
 * array, a pass per distinct bin in the most loaded bank. NAN below 32 bytes. */
static double bank_passes(const uint8_t *x, long long n)
{
    long long groups = n / 32 < MODEL_GROUPS ? n / 32 : (long long)MODEL_GROUPS;
    if (groups == 0) return NAN;
    double sum = 0;
    for (long long g = 0; g < groups; g++) {
        uint32_t seen[BYTE_BINS / 32] = {0}; /* seen[row] bit bank: bin row * 32 + bank */
        for (int l = 0; l < 32; l++) seen[x[g * 32 + l] >> 5] |= 1u << (x[g * 32 + l] & 31);
        int most = 0;
        for (int bank = 0; bank < 32; bank++) {
            int k = 0;
            for (int row = 0; row < BYTE_BINS / 32; row++) k += (seen[row] >> bank) & 1u;
            most = k > most ? k : most;
        }
        sum += most;
    }
    return sum / (double)groups;
}

/* ---- host: running a variant ------------------------------------------------------------------- */

typedef struct bench {
    long long n;                   /* bytes */
    int bins;                      /* 256 or 7 */
    const uint8_t *h_in;           /* the current input on the host */
    const unsigned char *d_in;     /* the current input on the device */
    unsigned int *d_hist;          /* every GPU variant's output */
    int *d_levels;                 /* cub's bin edges for 7 bins */
    void *d_cub;                   /* cub's temporary storage */
    size_t cub_bytes;              /* its size */
    unsigned int grid[N_VARIANTS]; /* blocks of each GPU variant */
    int threads[N_VARIANTS];       /* threads per block */
    long long section;             /* block-partition: bytes per thread */
    cudaStream_t stream;           /* everything runs here */
    gl_event_timer timer;          /* around one run */
    gl_gate gate;                  /* holds the stream until a run is queued */
    int variant;                   /* the one being measured */
} bench;

/* Blocks of `threads` for a grid-stride pass over `work` items: the GPU's resident blocks, no more than the work. */
static unsigned int gpu_grid(const void *kernel, int threads, int sms, long long work)
{
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    long long full = (long long)sms * (per_sm > 0 ? per_sm : 1), want = (work + threads - 1) / threads;
    return (unsigned int)(want < 1 ? 1 : want < full ? want : full);
}

/* Grids for the bins in use. */
template <int BINS>
static void size_grids(bench *b, int sms)
{
    for (int v = 0; v < N_VARIANTS; v++) b->threads[v] = TB_THREADS;
    b->threads[V_BEST] = BEST_THREADS;
    b->grid[V_GLOBAL] = (unsigned int)((b->n + TB_THREADS - 1) / TB_THREADS);
    b->grid[V_BLOCK] = gpu_grid((const void *)block_partition<BINS>, TB_THREADS, sms, b->n);
    b->section = (b->n + (long long)b->grid[V_BLOCK] * TB_THREADS - 1) / ((long long)b->grid[V_BLOCK] * TB_THREADS);
    b->grid[V_INTERLEAVED] = gpu_grid((const void *)interleaved<BINS>, TB_THREADS, sms, b->n);
    b->grid[V_PRIVATIZED] = gpu_grid((const void *)privatized<BINS>, TB_THREADS, sms, b->n);
    b->grid[V_AGGREGATED] = gpu_grid((const void *)aggregated<BINS>, TB_THREADS, sms, b->n);
    /* 4 blocks x 32 KB of columns: ask for the largest shared-memory carveout (a hint: the occupancy says what it got) */
    CUDA_CHECK(cudaFuncSetAttribute((const void *)best_histogram<BINS>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
    b->grid[V_BEST] = gpu_grid((const void *)best_histogram<BINS>, BEST_THREADS, sms, b->n / 16);
}

template <int BINS>
static void launch_kernel(bench *b, int v)
{
    cudaStream_t s = b->stream;
    unsigned int g = b->grid[v];
    switch (v) {
    case V_GLOBAL: global_atomic<BINS><<<g, TB_THREADS, 0, s>>>(b->d_in, b->n, b->d_hist); break;
    case V_BLOCK: block_partition<BINS><<<g, TB_THREADS, 0, s>>>(b->d_in, b->n, b->section, b->d_hist); break;
    case V_INTERLEAVED: interleaved<BINS><<<g, TB_THREADS, 0, s>>>(b->d_in, b->n, b->d_hist); break;
    case V_PRIVATIZED: privatized<BINS><<<g, TB_THREADS, 0, s>>>(b->d_in, b->n, b->d_hist); break;
    case V_AGGREGATED: aggregated<BINS><<<g, TB_THREADS, 0, s>>>(b->d_in, b->n, b->d_hist); break;
    case V_BEST: best_histogram<BINS><<<g, BEST_THREADS, 0, s>>>(b->d_in, b->n, b->d_hist); break;
    }
    CUDA_CHECK_LAUNCH("a histogram kernel");
}

/* cub::DeviceHistogram for the bins in use; with d_temp NULL, only sizes its storage. */
static cudaError_t cub_histogram(const bench *b, void *d_temp, size_t *bytes)
{
    if (b->bins == BYTE_BINS)
        return cub::DeviceHistogram::HistogramEven(d_temp, *bytes, b->d_in, b->d_hist, BYTE_BINS + 1, 0, (int)BYTE_BINS,
                                                   b->n, b->stream);
    return cub::DeviceHistogram::HistogramRange(d_temp, *bytes, b->d_in, b->d_hist, LETTER_BINS + 1,
                                                (const int *)b->d_levels, b->n, b->stream);
}

/* Queue variant v behind the gate, timed by events from the zeroing of its output to its last kernel. */
static void launch_variant(bench *b, int v)
{
    cudaStream_t s = b->stream;
    gl_gate_close(&b->gate, s); /* everything below starts together: the events time the device, not the issue */
    gl_timer_start(&b->timer, s);
    if (v == V_CUB) {
        size_t bytes = b->cub_bytes;
        CUDA_CHECK(cub_histogram(b, b->d_cub, &bytes));
    } else {
        CUDA_CHECK(cudaMemsetAsync(b->d_hist, 0, sizeof(unsigned int) * b->bins, s));
        if (b->bins == BYTE_BINS) launch_kernel<BYTE_BINS>(b, v);
        else launch_kernel<LETTER_BINS>(b, v);
    }
    gl_timer_stop(&b->timer, s);
    if (!gl_gate_open(&b->gate))
        gl_die(GL_EXIT_INTERNAL, "queueing %s took longer than the gate waits: its time would include the host's",
               variant_names[v]);
}

/* One run of variant v into got (bins counters); returns its time in ms. */
static double run_variant(bench *b, int v, unsigned int *got)
{
    if (v == V_CPU) {
        double t0 = gl_host_ns();
        cpu_histogram(b->h_in, b->n, b->bins, got);
        return (gl_host_ns() - t0) / 1e6;
    }
    launch_variant(b, v);
    CUDA_CHECK(cudaStreamSynchronize(b->stream));
    double ms = gl_timer_ms(&b->timer);
    if (got) CUDA_CHECK(cudaMemcpy(got, b->d_hist, sizeof(unsigned int) * b->bins, cudaMemcpyDeviceToHost));
    return ms;
}

/* One timed repetition. */
static void sample_variant(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    static unsigned int got[BYTE_BINS];
    gl_sample_put(smp, "time", run_variant(b, b->variant, b->variant == V_CPU ? got : NULL) * 1e3);
}

/* ---- host: main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "histogram",
        "how fast can a GPU count bytes, from the textbook's global atomics to privatized shared atomics, against "
        "cub::DeviceHistogram, and does contention still slow atomics?",
        "The histogram of --n bytes, every variant checked exactly against the CPU on every input before any is\n"
        "timed. --bins 7 is the seed's letter groups (a-d, e-h, i-l, m-p, q-t, u-x, y-z); other bytes go nowhere.\n"
        "best (per-lane shared columns, 16-byte loads) is claimed at least as fast as cub where --n is at least\n"
        "twice the L2; the single value's time against uniform bytes is printed as a finding per variant."};
    unsigned long long n = 1ULL << 28;
    int input = 0, bins_choice = 0;
    const char *variants = "all";
    gl_option opts[] = {
        {"n", GL_OPT_U64, &n, 1, 2147483648.0, NULL, "1048583", "bytes to count (1..2^31)", 0},
        {"input", GL_OPT_CHOICE, &input, 0, 0, "all|uniform|text|zipf|single", NULL,
         "which input: uniform bytes, English-like text, Zipf-skewed bytes, one repeated value ('e'), or all", 0},
        {"bins", GL_OPT_CHOICE, &bins_choice, 0, 0, "256|7", NULL,
         "256 (one per byte value) or 7 (the seed's letter groups; other bytes go nowhere)", 0},
        {"variant", GL_OPT_STRING, &variants, 0, 0, NULL, NULL,
         "all, or a comma-separated list of: cpu, global-atomic, block-partition, interleaved, privatized, "
         "aggregated, best, cub", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    gl_gate_prepare(); /* before the runtime starts: see gl_cuda.h */
    if (common.trace_path || common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: histogram records no spans (one kernel per run, timed by events)");
    int run[N_VARIANTS];
    gl_choose_names("variant", variants, variant_names, N_VARIANTS, run);
    int use[N_INPUTS], n_inputs = 0;
    for (int i = 0; i < N_INPUTS; i++) {
        use[i] = input == 0 || input == i + 1; /* the choice list starts with "all" */
        n_inputs += use[i];
    }

    bench b;
    memset(&b, 0, sizeof b);
    b.n = (long long)n;
    b.bins = bins_choice == 0 ? BYTE_BINS : LETTER_BINS;

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);
    CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(b.stream, "histogram");

    /* ---- memory: every input stays on the device, checked against what is free before anything is allocated ---- */
    CUDA_CHECK(cub_histogram(&b, NULL, &b.cub_bytes)); /* sizes only: d_in and d_hist may be NULL */
    size_t data_bytes = (size_t)n_inputs * (size_t)b.n + b.cub_bytes + sizeof(unsigned int) * BYTE_BINS + 64;
    size_t free_b = 0, total_b = 0, room = 2 * (size_t)dev.l2_bytes + ((size_t)64 << 20); /* the L2 flush buffer, slack */
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (data_bytes + room > free_b)
        gl_no_gpu("--n %lld with %d input%s needs %.2f GB of device memory for its data; %.2f GB of %.2f GB is free",
                  b.n, n_inputs, n_inputs > 1 ? "s" : "", data_bytes / 1e9, free_b / 1e9, total_b / 1e9);
    unsigned char *d_in[N_INPUTS] = {NULL};
    uint8_t *h_in[N_INPUTS] = {NULL};
    for (int i = 0; i < N_INPUTS; i++)
        if (use[i]) CUDA_CHECK(cudaMalloc((void **)&d_in[i], (size_t)b.n));
    CUDA_CHECK(cudaMalloc((void **)&b.d_hist, sizeof(unsigned int) * BYTE_BINS));
    CUDA_CHECK(cudaMalloc((void **)&b.d_levels, sizeof(int) * (LETTER_BINS + 1)));
    static const int letter_levels[LETTER_BINS + 1] = {'a', 'e', 'i', 'm', 'q', 'u', 'y', 'z' + 1};
    CUDA_CHECK(cudaMemcpy(b.d_levels, letter_levels, sizeof letter_levels, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMalloc(&b.d_cub, b.cub_bytes > 0 ? b.cub_bytes : 1));
    if (b.bins == BYTE_BINS) size_grids<BYTE_BINS>(&b, dev.sms);
    else size_grids<LETTER_BINS>(&b, dev.sms);
    gl_timer_create(&b.timer);
    gl_gate_create(&b.gate, !common.skip_timing_claims); /* sanitizers serialize launches: no gate there */

    printf("n = %lld bytes (%.1f MB), %d bins; grids: best %ux%d, textbook %ux%d, global-atomic %ux%d "
           "(block-partition: %lld bytes per thread)\n",
           b.n, b.n / 1e6, b.bins, b.grid[V_BEST], BEST_THREADS, b.grid[V_INTERLEAVED], TB_THREADS, b.grid[V_GLOBAL],
           TB_THREADS, b.section);

    /* ---- validate every configuration before timing any ---- */
    gl_row *rows[N_INPUTS][N_VARIANTS];
    memset(rows, 0, sizeof rows);
    double check_ms[N_INPUTS][N_VARIANTS]; /* host time of each validation run: what a timed run will cost */
    unsigned int ref[BYTE_BINS], got[BYTE_BINS];
    int all_exact = 1, n_run = 0;
    for (int v = 0; v < N_VARIANTS; v++) n_run += run[v];
    gl_progress_begin(n_inputs * (3.0 + n_run), 0, "validation"); /* per input: generate, reference, upload, each variant */
    for (int i = 0; i < N_INPUTS; i++) {
        if (!use[i]) continue;
        h_in[i] = (uint8_t *)gl_xmalloc((size_t)b.n);
        gl_progress_at("generating %s", input_names[i]);
        generate(i, h_in[i], b.n, common.seed);
        gl_progress_step(1);
        gl_progress_at("reference %s", input_names[i]);
        long long nowhere = reference(h_in[i], b.n, b.bins, ref);
        gl_progress_step(1);
        gl_progress_at("uploading %s", input_names[i]);
        CUDA_CHECK(cudaMemcpy(d_in[i], h_in[i], (size_t)b.n, cudaMemcpyHostToDevice));
        gl_progress_step(1);
        double passes = bank_passes(h_in[i], b.n);
        gl_progress_clear();
        printf("input %s: %lld bytes in no bin; model: a warp's 32 consecutive bytes into one 256-counter shared "
               "array take %.2f bank passes (best's per-lane columns: 1)\n",
               input_names[i], nowhere, passes);
        b.h_in = h_in[i];
        b.d_in = d_in[i];
        for (int v = 0; v < N_VARIANTS; v++) {
            if (!run[v]) continue;
            gl_row *row = rows[i][v] = gl_report_row(&rep, "histogram", variant_names[v]);
            gl_row_param(row, "input", "%s", input_names[i]);
            gl_row_param_num(row, "bins", "", 0, b.bins);
            gl_row_param_num(row, "n", "", 0, (double)b.n);
            if (v == V_CPU) gl_row_param(row, "grid", "-");
            else if (v == V_CUB) gl_row_param(row, "grid", "cub's");
            else gl_row_param(row, "grid", "%ux%d", b.grid[v], b.threads[v]);
            if (v != V_CPU) /* poison: a bin the variant fails to zero or write shows */
                CUDA_CHECK(cudaMemset(b.d_hist, 0xA5, sizeof(unsigned int) * BYTE_BINS));
            gl_progress_at("checking %s on %s", variant_names[v], input_names[i]);
            double t0 = gl_host_ns();
            run_variant(&b, v, got);
            check_ms[i][v] = (gl_host_ns() - t0) / 1e6;
            gl_progress_step(1);
            char text[160];
            snprintf(text, sizeof text, "%s on %s: %d bins of %lld bytes match the CPU reference exactly",
                     variant_names[v], input_names[i], b.bins, b.n);
            all_exact &= gl_check_compare(&rep, row, text, GL_U32, ref, got, (size_t)b.bins, 0, 0);
        }
    }
    gl_progress_end();
    if (!all_exact) goto done; /* wrong histograms are not timed */

    /* ---- time: configurations of over SLOW_RUN_MS a run SLOW_REPEAT times, without warm-up ---- */
    {
        gl_sampler smp, slow_smp;
        gl_common slow_common = common;
        slow_common.repeat = common.repeat < SLOW_REPEAT ? common.repeat : SLOW_REPEAT;
        slow_common.warmup = 0; /* the validation run was its warm-up */
        gl_device_sampler(&smp, &dev, &common);
        gl_device_sampler(&slow_smp, &dev, &slow_common);
        gl_sampler_series(&smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
        gl_sampler_series(&slow_smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
        double runs = 0, cost = 0; /* the plan, for the progress line: runs, and their ms as validation measured them */
        gl_buf slow_list = GL_BUF_INIT;
        for (int v = 0; v < N_VARIANTS; v++) {
            int first = 1;
            for (int i = 0; i < N_INPUTS; i++) {
                if (!rows[i][v]) continue;
                int slow = check_ms[i][v] > SLOW_RUN_MS;
                const gl_sampler *s = slow ? &slow_smp : &smp;
                runs += s->warmup + s->repeat;
                cost += (s->warmup + s->repeat) * check_ms[i][v];
                if (!slow) continue;
                if (first) gl_buf_printf(&slow_list, "%s%s on %s", slow_list.len ? "; " : "", variant_names[v], input_names[i]);
                else gl_buf_printf(&slow_list, ", %s", input_names[i]);
                first = 0;
            }
        }
        if (slow_list.len)
            printf("\ntiming: over %d ms a run in validation, so timed %d time%s without warm-up: %s\n", (int)SLOW_RUN_MS,
                   slow_smp.repeat, slow_smp.repeat == 1 ? "" : "s", gl_buf_str(&slow_list));
        gl_buf_free(&slow_list);
        gl_progress_begin(runs, cost, "timing");
        for (int i = 0; i < N_INPUTS; i++) {
            if (!use[i]) continue;
            b.h_in = h_in[i];
            b.d_in = d_in[i];
            for (int v = 0; v < N_VARIANTS; v++) {
                if (!run[v]) continue;
                gl_nvtx_push("input=%s variant=%s", input_names[i], variant_names[v]);
                b.variant = v;
                gl_row_work(rows[i][v], "time", (double)b.n, (double)b.n);
                gl_progress_cost(check_ms[i][v]);
                gl_sampler_run(check_ms[i][v] > SLOW_RUN_MS ? &slow_smp : &smp, rows[i][v], sample_variant, &b);
                gl_nvtx_pop();
            }
        }
        gl_progress_end();
        gl_sampler_free(&smp);
        gl_sampler_free(&slow_smp);
    }

    /* ---- ratios, the contention finding, and the claims ---- */
    {
        double med[N_INPUTS][N_VARIANTS];
        for (int i = 0; i < N_INPUTS; i++)
            for (int v = 0; v < N_VARIANTS; v++) med[i][v] = gl_row_median(rows[i][v], "time");
        for (int i = 0; i < N_INPUTS; i++)
            for (int v = 0; v < N_VARIANTS; v++) {
                if (!rows[i][v] || isnan(med[i][v])) continue;
                if (!isnan(med[i][V_CUB])) gl_row_number(rows[i][v], "speed_vs_cub", "x", 2, 0, med[i][V_CUB] / med[i][v]);
                if (!isnan(med[IN_UNIFORM][v]))
                    gl_row_number(rows[i][v], "time_vs_uniform", "x", 2, 0, med[i][v] / med[IN_UNIFORM][v]);
            }
        double bytes = (double)b.n, bound_bytes = 2.0 * dev.l2_bytes;
        int judged = bytes >= bound_bytes;
        printf("\n");
        for (int v = V_GLOBAL; v < N_VARIANTS; v++) {
            double u = med[IN_UNIFORM][v], s = med[IN_SINGLE][v];
            if (isnan(u) || isnan(s)) continue;
            double r = s / u;
            const char *verdict = r > 1.25   ? "contention slows it"
                                  : r < 0.8 ? "it is faster on the single value: no contention penalty"
                                            : "about the same: no contention penalty";
            printf("finding: %s takes %.2fx as long on one repeated value as on uniform bytes (%.1f us against "
                   "%.1f us, %d bins): %s%s\n",
                   variant_names[v], r, s, u, b.bins, verdict,
                   judged ? "" : " (below twice the L2: these times are launches, not the histogram)");
        }
        for (int i = 0; i < N_INPUTS; i++) {
            if (!rows[i][V_BEST] || !rows[i][V_CUB]) continue;
            char text[128];
            snprintf(text, sizeof text, "best is at least as fast as cub on %s bytes (median, L2 flushed)",
                     input_names[i]);
            if (judged)
                gl_claim_ratio_at_least(&rep, rows[i][V_BEST], GL_CLAIM_TIMING, text, "cub", med[i][V_CUB], "best",
                                        med[i][V_BEST], 1.0);
            else
                gl_claim_skip(&rep, rows[i][V_BEST], GL_CLAIM_TIMING, text,
                              "%.1f MB of input is less than twice the L2 (%.0f MB): the times (best %.1f us, cub "
                              "%.1f us) measure launches, not the histogram",
                              bytes / 1e6, bound_bytes / 1e6, med[i][V_BEST], med[i][V_CUB]);
        }
    }

done:
    gl_timer_destroy(&b.timer);
    gl_gate_destroy(&b.gate);
    for (int i = 0; i < N_INPUTS; i++) {
        CUDA_CHECK(cudaFree(d_in[i]));
        free(h_in[i]);
    }
    void *bufs[] = {b.d_hist, b.d_levels, b.d_cub};
    for (int k = 0; k < GL_ARRAY_LEN(bufs); k++) CUDA_CHECK(cudaFree(bufs[k]));
    CUDA_CHECK(cudaStreamDestroy(b.stream));
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
