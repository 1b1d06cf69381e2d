/* histogram.cu - the textbook's parallel histogram, every variant made exact for any size, beside CUB and gridlab's own.
 *
 * Question: how fast can a GPU count bytes, from the textbook's global atomics to privatized shared atomics, against cub::DeviceHistogram, and does contention still slow atomics?
 * Build: openmp cub
 * Sanitize: --quick --profile --n 100003 --skip-timing-claims
 *
 * The histogram of --n bytes (1..2^31: 32-bit counters) in 256 bins or the seed's 7 letter groups, of four inputs:
 * uniform bytes, English-like text, Zipf-skewed bytes, one repeated value ('e'); by the seed's loop (cpu), the
 * textbook's five kernels, best (gridlab's own: 32 per-lane columns of counters, so that a warp's shared atomic
 * touches each bank once whatever the data) and cub::DeviceHistogram. A GPU variant's time includes zeroing its
 * output. Model (printed per input, not judged): a warp's shared atomic into one 256-counter array takes a pass
 * per distinct bin in its most loaded bank. Claim: best is at least as fast as cub on each input where --n is at
 * least twice the L2. Finding: each variant's time on the one value against uniform bytes (does contention still
 * slow atomics?). Design notes: experiments/results/FINDINGS.md, "histogram".
 *
 * Run:   make run-histogram                                          (2^28 bytes, every input and variant)
 *        make run-histogram ARGS="--n 1073741824 --variant best,cub --repeat 20"
 *        make run-histogram ARGS="--bins 7 --input text"                          (the seed's letter groups)
 * Nsight Systems (make profile-histogram): an NVTX range per input and variant, each run behind the gate kernel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_histogram.cuh>

#include "gl_lab.h"
#include "gl_progress.h"

enum { V_CPU, V_GLOBAL, V_BLOCK, V_INTERLEAVED, V_PRIVATIZED, V_AGGREGATED, V_BEST, V_CUB, N_VARIANTS };
enum { IN_UNIFORM, IN_TEXT, IN_ZIPF, IN_SINGLE, N_INPUTS };
static const char *const input_names[N_INPUTS] = {"uniform", "text", "zipf", "single"};

enum {
    TB_THREADS = 256,       /* block of the textbook variants */
    BEST_THREADS = 512,     /* block of best */
    BEST_PER_SM = 4,        /* best's resident blocks per SM: 2048 threads, 128 KB of columns */
    LANES = 32,             /* best keeps one column of counters per lane */
    BYTE_BINS = 256,        /* byte values */
    LETTER_BINS = 7,        /* the seed's letter groups */
    GEN_CHUNK = 1 << 20,    /* bytes generated per random stream (text, zipf) */
    MODEL_GROUPS = 1 << 16, /* 32-byte groups the bank model looks at */
    SLOW_RUN_MS = 100       /* a check run this long: the configuration is timed at most 3 times, no warm-up */
};

/* ---- the textbook's kernels ---------------------------------------------------------------- */

/* The bin of byte c, or -1: with 256 bins every byte counts; with 7, the seed's letter groups. */
template <int BINS> __host__ __device__ __forceinline__ int bin_of(unsigned int c)
{
    if (BINS == BYTE_BINS) return (int)c;
    unsigned int d = c - 'a';
    return d < 26u ? (int)(d / 4) : -1;
}

/* global-atomic: one thread per byte, atomicAdd on the global bin. */
template <int BINS> __global__ void global_atomic(const unsigned char *in, long long n, unsigned int *hist)
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
template <int BINS> __global__ void interleaved(const unsigned char *in, long long n, unsigned int *hist)
{
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int b = bin_of<BINS>(in[i]);
        if (b >= 0) atomicAdd(&hist[b], 1u);
    }
}

/* Add a block's shared copy to the global bins. */
template <int BINS> __device__ __forceinline__ void merge_block(const unsigned int *s_hist, unsigned int *hist)
{
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s_hist[b]) atomicAdd(&hist[b], s_hist[b]);
}

/* privatized: a copy of the bins per block in shared memory, grid-stride over the input. */
template <int BINS> __global__ void privatized(const unsigned char *in, long long n, unsigned int *hist)
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
template <int BINS> __global__ void aggregated(const unsigned char *in, long long n, unsigned int *hist)
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

template <int BINS> __global__ void __launch_bounds__(BEST_THREADS, BEST_PER_SM)
    best_histogram(const unsigned char *__restrict__ in, long long n, unsigned int *__restrict__ hist)
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
        for (int k = 0; k < LANES; k++) s += cols[v * LANES + ((k + v) & (LANES - 1))]; /* rotated: no conflicts */
        if (s) atomicAdd(&hist[out], s);
    }
}

/* ---- host: inputs, the reference, the model ---------------------------------------------------- */

/* Input `which` into x: text and zipf map 16-bit draws through a 65536-entry table that follows weights w; each
 * GEN_CHUNK bytes is its own random stream, so chunks are made on every core, the same on any number of them. */
static void generate(int which, uint8_t *x, long long n, unsigned long long seed)
{
    static const double letter_pct[26] = {8.167, 1.492, 2.782, 4.253, 12.702, 2.228, 2.015, 6.094, 6.966, 0.153,
                                          0.772, 4.025, 2.406, 6.749, 7.507,  1.929, 0.095, 5.987, 6.327, 9.056,
                                          2.758, 0.978, 2.360, 0.150, 1.974,  0.074};
    if (which == IN_UNIFORM) return gl_fill_bytes(x, (size_t)n, seed, 1);
    if (which == IN_SINGLE) return (void)memset(x, 'e', (size_t)n);
    int k = which == IN_TEXT ? 27 : BYTE_BINS; /* text: 26 letters and the space (18% of the characters) */
    double w[BYTE_BINS], total = 0, cum = 0;
    for (int i = 0; i < k; i++)
        total += w[i] = which == IN_ZIPF ? 1.0 / (i + 1) : i < 26 ? letter_pct[i] : 100.0 * 18.0 / 82.0;
    uint8_t table[65536];
    for (int u = 0, j = 0; u < 65536; u++) {
        double q = (u + 0.5) / 65536.0 * total;
        while (j < k - 1 && cum + w[j] <= q) cum += w[j++];
        table[u] = which == IN_TEXT && j == 26 ? (uint8_t)' ' : (uint8_t)('a' + j); /* zipf: 'a' + r, mod 256 */
    }
    long long chunks = (n + GEN_CHUNK - 1) / GEN_CHUNK;
    unsigned int stream0 = which == IN_TEXT ? 1u << 20 : 2u << 20;
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

/* The reference: a 4-way byte count (not the seed's loop) on every core, folded into bins; returns bytes in none. */
static long long reference(const uint8_t *x, long long n, int bins, unsigned int *ref)
{
    unsigned long long total[BYTE_BINS] = {0};
    long long quads = n / 4, nowhere = 0;
#pragma omp parallel
    {
        unsigned long long c[4][BYTE_BINS] = {{0}}; /* four counters a value: equal bytes in a row do not wait */
#pragma omp for schedule(static) nowait
        for (const uint8_t *p = x; p < x + 4 * quads; p += 4) c[0][p[0]]++, c[1][p[1]]++, c[2][p[2]]++, c[3][p[3]]++;
#pragma omp critical
        for (int v = 0; v < BYTE_BINS; v++) total[v] += c[0][v] + c[1][v] + c[2][v] + c[3][v];
    }
    for (long long i = 4 * quads; i < n; i++) total[x[i]]++;
    memset(ref, 0, sizeof(unsigned int) * bins);
    for (int v = 0; v < BYTE_BINS; v++) {
        int b = bins == BYTE_BINS ? v : bin_of<LETTER_BINS>((unsigned int)v);
        if (b < 0) nowhere += (long long)total[v];
        else ref[b] += (unsigned int)total[v];
    }
    return nowhere;
}

/* cpu: the seed's sequential_histogram, on one core (it is what the GPU variants are set against). */
static void cpu_histogram(const uint8_t *x, long long n, int bins, unsigned int *h)
{
    memset(h, 0, sizeof(unsigned int) * bins);
    if (bins == BYTE_BINS)
        for (long long i = 0; i < n; i++) h[x[i]]++;
    else
        for (long long i = 0; i < n; i++) {
            int alphabet_position = x[i] - 'a';
            if (alphabet_position >= 0 && alphabet_position < 26) h[alphabet_position / 4]++;
        }
}

/* The model: mean passes of a warp's shared atomic over 32 consecutive bytes into one 256-counter array, a pass
 * per distinct bin in the most loaded bank (bin b is in bank b % 32). NAN below 32 bytes. */
static double bank_passes(const uint8_t *x, long long n)
{
    long long groups = n / 32 < MODEL_GROUPS ? n / 32 : (long long)MODEL_GROUPS;
    double sum = 0;
    for (long long g = 0; g < groups; g++) {
        unsigned int rows[32] = {0}; /* rows[bank] bit r: bin r * 32 + bank is hit */
        int most = 0;
        for (const uint8_t *b = x + 32 * g; b < x + 32 * g + 32; b++) {
            int k = __builtin_popcount(rows[*b & 31] |= 1u << (*b >> 5));
            most = k > most ? k : most;
        }
        sum += most;
    }
    return groups ? sum / (double)groups : NAN;
}

/* ---- host: running a variant ------------------------------------------------------------------- */

typedef struct hist {
    long long n;                    /* bytes */
    int bins;                       /* 256 or 7 */
    uint8_t *h_ins[N_INPUTS];       /* per configuration: its input on the host */
    unsigned char *d_ins[N_INPUTS]; /* ... and on the device */
    const unsigned char *d_in;      /* the running configuration's */
    unsigned int *d_hist;           /* every GPU variant's output */
    int *d_levels;                  /* cub's bin edges for 7 bins */
    void *d_cub;                    /* cub's temporary storage */
    size_t cub_bytes;               /* its size */
    unsigned int grid[N_VARIANTS];  /* blocks of each GPU variant */
    long long section;              /* block-partition: bytes per thread */
    cudaStream_t stream;            /* the lab's */
} hist;

/* Grids for the bins in use. */
template <int BINS> static void size_grids(hist *h, const gl_lab *L)
{
    h->grid[V_GLOBAL] = (unsigned int)((h->n + TB_THREADS - 1) / TB_THREADS);
    const void *textbook[] = {(const void *)block_partition<BINS>, (const void *)interleaved<BINS>,
                              (const void *)privatized<BINS>, (const void *)aggregated<BINS>}; /* V_BLOCK.. */
    for (int v = V_BLOCK; v <= V_AGGREGATED; v++) h->grid[v] = gl_lab_grid(L, textbook[v - V_BLOCK], TB_THREADS, h->n);
    h->section = (h->n + (long long)h->grid[V_BLOCK] * TB_THREADS - 1) / ((long long)h->grid[V_BLOCK] * TB_THREADS);
    /* 4 blocks x 32 KB of columns: ask for the largest shared-memory carveout (a hint: the occupancy says what came) */
    CUDA_CHECK(cudaFuncSetAttribute((const void *)best_histogram<BINS>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
    h->grid[V_BEST] = gl_lab_grid(L, (const void *)best_histogram<BINS>, BEST_THREADS, h->n / 16);
}

/* Zero the output, then launch GPU variant v for the bins in use. */
template <int BINS> static void launch_kernel(const hist *h, int v)
{
    unsigned int g = h->grid[v];
    CUDA_CHECK(cudaMemsetAsync(h->d_hist, 0, sizeof(unsigned int) * h->bins, h->stream));
    switch (v) {
    case V_GLOBAL: global_atomic<BINS><<<g, TB_THREADS, 0, h->stream>>>(h->d_in, h->n, h->d_hist); break;
    case V_BLOCK: block_partition<BINS><<<g, TB_THREADS, 0, h->stream>>>(h->d_in, h->n, h->section, h->d_hist); break;
    case V_INTERLEAVED: interleaved<BINS><<<g, TB_THREADS, 0, h->stream>>>(h->d_in, h->n, h->d_hist); break;
    case V_PRIVATIZED: privatized<BINS><<<g, TB_THREADS, 0, h->stream>>>(h->d_in, h->n, h->d_hist); break;
    case V_AGGREGATED: aggregated<BINS><<<g, TB_THREADS, 0, h->stream>>>(h->d_in, h->n, h->d_hist); break;
    case V_BEST: best_histogram<BINS><<<g, BEST_THREADS, 0, h->stream>>>(h->d_in, h->n, h->d_hist); break;
    }
    CUDA_CHECK_LAUNCH("a histogram kernel");
}

/* cub::DeviceHistogram for the bins in use; with d_temp NULL, only sizes its storage. */
static cudaError_t cub_histogram(const hist *h, void *d_temp, size_t *bytes)
{
    if (h->bins == BYTE_BINS)
        return cub::DeviceHistogram::HistogramEven(d_temp, *bytes, h->d_in, h->d_hist, BYTE_BINS + 1, 0, (int)BYTE_BINS,
                                                   h->n, h->stream);
    return cub::DeviceHistogram::HistogramRange(d_temp, *bytes, h->d_in, h->d_hist, LETTER_BINS + 1,
                                                (const int *)h->d_levels, h->n, h->stream);
}

/* One run of variant v on configuration L->config's input (the lab times it). */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    hist *h = (hist *)ctx;
    size_t bytes = h->cub_bytes;
    h->d_in = h->d_ins[L->config];
    if (v == V_CPU) cpu_histogram(h->h_ins[L->config], h->n, h->bins, (unsigned int *)gl_lab_host_out(L));
    else if (v == V_CUB) CUDA_CHECK(cub_histogram(h, h->d_cub, &bytes));
    else if (h->bins == BYTE_BINS) launch_kernel<BYTE_BINS>(h, v);
    else launch_kernel<LETTER_BINS>(h, v);
}

/* ---- host: main ------------------------------------------------------------------------------- */

static const gl_lab_variant variants[N_VARIANTS] = {
    {"cpu", GL_LAB_HOST},  {"global-atomic", GL_LAB_GPU}, {"block-partition", GL_LAB_GPU},
    {"interleaved", GL_LAB_GPU}, {"privatized", GL_LAB_GPU}, {"aggregated", GL_LAB_GPU},
    {"best", GL_LAB_GPU}, {"cub", GL_LAB_GPU | GL_LAB_BASELINE}};
static const gl_lab_claim claims[] = {
    {"best is at least as fast as cub on %s bytes (median, L2 flushed)", "best", GL_LAB_FASTER, "cub", 1.0, 2}};

int main(int argc, char **argv)
{
    static hist h;
    unsigned long long n = 1ULL << 28;
    int input = 0, bins_choice = 0;
    gl_option opts[] = {
        {"n", GL_OPT_U64, &n, 1, 2147483648.0, NULL, "1048583", "bytes to count (1..2^31)", 0},
        {"input", GL_OPT_CHOICE, &input, 0, 0, "all|uniform|text|zipf|single", NULL,
         "which input: uniform bytes, English-like text, Zipf-skewed bytes, one repeated value ('e'), or all", 0},
        {"bins", GL_OPT_CHOICE, &bins_choice, 0, 0, "256|7", NULL,
         "256 (one per byte value) or 7 (the seed's letter groups; other bytes go nowhere)", 0},
    };
    static const gl_experiment exp = {
        "histogram",
        "how fast can a GPU count bytes, from the textbook's global atomics to privatized shared atomics, against "
        "cub::DeviceHistogram, and does contention still slow atomics?",
        "The histogram of --n bytes, every variant checked exactly against the CPU on every input before any is\n"
        "timed. --bins 7 is the seed's letter groups (a-d, e-h, i-l, m-p, q-t, u-x, y-z); other bytes go nowhere.\n"
        "best (per-lane shared columns, 16-byte loads) is claimed at least as fast as cub where --n is at least\n"
        "twice the L2; the single value's time against uniform bytes is printed as a finding per variant."};
    gl_lab_spec spec = GL_LAB_SPEC(exp, variants, opts, claims, run_variant, &h);
    spec.table = "histogram", spec.axis = "input", spec.guard_what = "launches, not the histogram";
    spec.time_precision = 1, spec.slow_run_ms = SLOW_RUN_MS, spec.no_spans = 1;
    gl_lab L;
    gl_lab_open(&L, &spec, argc, argv);
    int use[N_INPUTS], n_inputs = 0, config[N_INPUTS];
    for (int i = 0; i < N_INPUTS; i++) n_inputs += use[i] = input == 0 || input == i + 1; /* choice 0 is "all" */
    h.n = (long long)n, h.bins = bins_choice == 0 ? BYTE_BINS : LETTER_BINS, h.stream = L.stream;

    /* the budget (exit 77 where it does not fit): every input stays on the device, beside cub's storage */
    CUDA_CHECK(cub_histogram(&h, NULL, &h.cub_bytes)); /* sizes only: d_in and d_hist may be NULL */
    gl_lab_need(&L, (double)n_inputs * h.n, "%d input%s of %lld bytes", n_inputs, n_inputs > 1 ? "s" : "", h.n);
    const gl_lab_buffer cub_temp[] = {{&h.d_cub, (double)h.cub_bytes, "cub's temporary storage"}};
    gl_lab_buffers(&L, cub_temp, 1);
    h.d_hist = (unsigned int *)gl_lab_malloc(&L, sizeof(unsigned int) * BYTE_BINS);
    h.d_levels = (int *)gl_lab_malloc(&L, sizeof(int) * (LETTER_BINS + 1));
    static const int letter_levels[LETTER_BINS + 1] = {'a', 'e', 'i', 'm', 'q', 'u', 'y', 'z' + 1};
    CUDA_CHECK(cudaMemcpy(h.d_levels, letter_levels, sizeof letter_levels, cudaMemcpyHostToDevice));
    if (h.bins == BYTE_BINS) size_grids<BYTE_BINS>(&h, &L);
    else size_grids<LETTER_BINS>(&h, &L);
    printf("n = %lld bytes (%.1f MB), %d bins; grids: best %ux%d, textbook %ux%d, global-atomic %ux%d "
           "(block-partition: %lld bytes per thread)\n", h.n, h.n / 1e6, h.bins, h.grid[V_BEST], BEST_THREADS,
           h.grid[V_INTERLEAVED], TB_THREADS, h.grid[V_GLOBAL], TB_THREADS, h.section);

    /* one configuration per input: generate, count the reference, upload, check every variant */
    unsigned int ref[N_INPUTS][BYTE_BINS];
    gl_lab_plan(&L, n_inputs, 2);
    for (int i = 0; i < N_INPUTS; i++) {
        if (!use[i]) continue;
        const char *name = input_names[i];
        config[i] = gl_lab_add_config(&L, (double)h.n, "%s", name);
        uint8_t *x = h.h_ins[config[i]] = (uint8_t *)gl_xmalloc((size_t)h.n);
        unsigned char *d_in = h.d_ins[config[i]] = (unsigned char *)gl_lab_malloc(&L, (size_t)h.n);
        gl_progress_at("generating %s", name);
        generate(i, x, h.n, L.common.seed);
        gl_progress_step(1);
        gl_progress_at("reference %s", name);
        long long nowhere = reference(x, h.n, h.bins, ref[i]);
        CUDA_CHECK(cudaMemcpy(d_in, x, (size_t)h.n, cudaMemcpyHostToDevice));
        gl_progress_step(1);
        gl_progress_clear();
        printf("input %s: %lld bytes in no bin; model: a warp's 32 consecutive bytes into one 256-counter shared "
               "array take %.2f bank passes (best's per-lane columns: 1)\n", name, nowhere, bank_passes(x, h.n));
        gl_lab_param(&L, "input", "%s", name);
        gl_lab_param_num(&L, "bins", h.bins);
        gl_lab_param_num(&L, "n", (double)h.n);
        for (int v = 0; v < N_VARIANTS; v++) {
            gl_row *row = gl_lab_row(&L, config[i], v);
            if (row && (v == V_CPU || v == V_CUB)) gl_row_param(row, "grid", "%s", v == V_CPU ? "-" : "cub's");
            else if (row) gl_row_param(row, "grid", "%ux%d", h.grid[v], v == V_BEST ? BEST_THREADS : TB_THREADS);
        }
        gl_lab_work(&L, (double)h.n, (double)h.n);
        gl_lab_output(&L, GL_U32, h.d_hist, (size_t)h.bins, ref[i], 0, 0);
        gl_lab_check(&L, "on %s: %d bins of %lld bytes match the CPU reference exactly", name, h.bins, h.n);
    }

    /* time, judge; each variant's time against its time on uniform bytes, and on one value the contention finding */
    if (gl_lab_time(&L)) {
        gl_lab_judge(&L);
        int judged = h.n >= 2.0 * L.dev.l2_bytes;
        for (int i = 0; i < N_INPUTS && use[IN_UNIFORM]; i++)
            for (int v = 0; v < N_VARIANTS && use[i]; v++) {
                double u = gl_lab_median(&L, config[IN_UNIFORM], v), t = gl_lab_median(&L, config[i], v), r = t / u;
                if (isnan(t) || isnan(u)) continue;
                gl_row_number(gl_lab_row(&L, config[i], v), "time_vs_uniform", "x", 2, 0, r);
                if (i != IN_SINGLE || v == V_CPU) continue;
                const char *verdict = r > 1.25  ? "contention slows it"
                                      : r < 0.8 ? "it is faster on the single value: no contention penalty"
                                                : "about the same: no contention penalty";
                gl_report_finding(&L.rep, "%s takes %.2fx as long on one repeated value as on uniform bytes (%.1f us "
                                  "against %.1f us, %d bins): %s%s", variants[v].name, r, t, u, h.bins, verdict,
                                  judged ? "" : " (below twice the L2: these times are launches, not the histogram)");
            }
    }
    for (int k = 0; k < n_inputs; k++) free(h.h_ins[k]);
    return gl_lab_close(&L);
}
