/* scan.cuh - what scan and scan-cdp share: the tile scan (4096 elements per block in registers), hierarchical's
 * kernels and host pipeline, cub, the CPU references, and the harness: the options, the memory, a configuration
 * per type and kind, every variant checked (its output and its launches) before anything is timed. */
#ifndef GL_PATTERNS_SCAN_CUH
#define GL_PATTERNS_SCAN_CUH

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_scan.cuh>

#include "gl_lab.h"

/* Every scan either experiment runs; an experiment's variant v is scan ids[v]. */
enum { V_CPU, V_KS, V_BK, V_HIER, V_CDP, V_LOOKBACK, V_CUB, N_IDS };
/* DRAM traffic per run in elements, to first order: at equal bandwidth a variant's ceiling against cub is 2n / it. */
static const char *const id_traffic[N_IDS] = {"-", "4n", "4n", "3n", "3n", "2n", "2n"};

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
    MAX_LEVELS = 8           /* levels of sums + 1: 2^30 in sections of 32 needs 6 */
};
static const unsigned FULL = 0xFFFFFFFFu;

/* ---- the element types ------------------------------------------------------------------------------------- */

/* int32 adds wrap (as unsigned: signed overflow is undefined in C++): any order of additions gives the same bits. */
__host__ __device__ __forceinline__ int add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
__host__ __device__ __forceinline__ float add(float a, float b) { return a + b; }

template <typename T> struct vec4;
template <> struct vec4<int> { typedef int4 type; };
template <> struct vec4<float> { typedef float4 type; };

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
    /* The rows' warp scans, interleaved so that their shuffles overlap. */
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

/* hierarchical, step 3 of a level (and the one step of a level that fits one tile): scan block b's tile,
 * starting from prefixes[b - 1] (the inclusive scan of the tile sums; NULL: nothing before). */
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

/* ---- host: the harness ----------------------------------------------------------------------- */

typedef struct scan_bench {
    gl_lab *L;                        /* the lab */
    const int *ids;                   /* per variant: which scan it is (V_*) */
    unsigned long long n_opt;         /* --n */
    int type_choice, kind_choice;     /* --type, --kind: 0, 1 or 2 (both) */
    int block;                        /* --block: threads per block of kogge-stone and brent-kung */
    long long n;                      /* elements */
    int type, exclusive;              /* the configuration being run */
    int config_type[4], config_exclusive[4]; /* each configuration's: the lab times them after all are added */
    void *h_in[N_TYPES], *d_in[N_TYPES]; /* the inputs on the host and the device (NULL: type not run) */
    void *h_ref, *d_out;              /* the reference, and every variant's result */
    long long level_n[MAX_LEVELS];    /* level k's length (0: no level k; level 0 is the data) */
    void *d_sums[MAX_LEVELS], *d_scan[MAX_LEVELS]; /* level k >= 1: the sums of level k - 1's blocks, their scan */
    void *d_cub;                      /* CUB's temporary storage */
    size_t cub_bytes;                 /* its size */
    char skip[N_IDS][128];            /* per scan: why its rows are SKIP ("": they run) */
    long long host_launches;          /* kernels launched from the host by the last run */
} scan_bench;

/* y = the scan of the input in Acc arithmetic, in blocks: each block's sum on every core, the sums scanned, then
 * each block from its prefix. One block: one pass in order (the cpu variant, in the element type). The reference:
 * blocks of 2^16, int32 in unsigned (wrapping), floats in double, rounded once per element: one pass's result, as
 * every partial sum of these floats is exact in double (multiples of 2^-23 of at most 1; n <= 2^30). */
/* y[from..to) = the scan of x[from..to), continuing from acc, in Acc arithmetic. */
template <typename T, typename Acc>
static void scan_span(const T *x, T *y, long long from, long long to, Acc acc, int exclusive)
{
    for (long long i = from; i < to; i++) {
        if (exclusive) y[i] = (T)acc;
        acc += (Acc)x[i];
        if (!exclusive) y[i] = (T)acc;
    }
}

template <typename T, typename Acc>
static void scan_in_blocks(const scan_bench *b, T *y, long long block)
{
    const T *x = (const T *)b->h_in[b->type];
    long long n = b->n, blocks = (n + block - 1) / block;
    if (blocks <= 1) { /* the cpu variant, which is timed: nothing allocated, no thread started */
        scan_span<T, Acc>(x, y, 0, n, (Acc)0, b->exclusive);
        return;
    }
    Acc *prefix = (Acc *)gl_xcalloc((size_t)blocks, sizeof(Acc));
    GL_OMP(omp parallel for schedule(static))
    for (long long k = 1; k < blocks; k++) /* block k - 1's sum; the last block's is never needed */
        for (long long i = (k - 1) * block; i < k * block; i++) prefix[k] += (Acc)x[i];
    for (long long k = 1; k < blocks; k++) prefix[k] += prefix[k - 1];
    GL_OMP(omp parallel for schedule(static))
    for (long long k = 0; k < blocks; k++)
        scan_span<T, Acc>(x, y, k * block, (k + 1) * block < n ? (k + 1) * block : n, prefix[k], b->exclusive);
    free(prefix);
}

/* Whether a --type or --kind choice (0, 1 or 2: both) takes type or kind i. */
static int takes(int choice, int i) { return choice == 2 || choice == i; }

/* Levels of sums above n when each block covers section elements (0: one block). */
static int levels_of(long long n, long long section)
{
    int L = 0;
    for (; n > section; n = (n + section - 1) / section) L++;
    return L;
}

/* Elements one block of scan id covers. */
static long long section_of(const scan_bench *b, int id)
{
    return id == V_KS ? b->block : id == V_BK ? 2LL * b->block : (long long)TILE;
}

#define LAUNCHED(b, what) do { CUDA_CHECK_LAUNCH(what); (b)->host_launches++; } while (0)

/* hierarchical at level k: reduce the tiles of in (sums into level k + 1), scan the sums the same way, scan the
 * tiles from their prefixes (the textbook's add-back folded into the second scan: 3n, not 4n). */
template <typename T>
static void hier_level(scan_bench *b, const T *in, T *out, long long n, int k, int exclusive)
{
    long long m = tiles_of(n);
    T *sums = (T *)b->d_sums[k + 1], *scanned = (T *)b->d_scan[k + 1];
    if (m > 1) {
        reduce_tiles<T><<<(unsigned)m, THREADS, 0, b->L->stream>>>(in, n, sums);
        LAUNCHED(b, "reduce_tiles");
        hier_level(b, (const T *)sums, scanned, m, k + 1, 0);
    }
    scan_tiles<T><<<(unsigned)m, THREADS, 0, b->L->stream>>>(in, out, n, m > 1 ? scanned : NULL, exclusive);
    LAUNCHED(b, "scan_tiles");
}

/* cub::DeviceScan, queued into s (tmp NULL: only its temporary storage's size, into bytes). */
template <typename T>
static cudaError_t cub_scan(void *tmp, size_t &bytes, const T *in, T *out, long long n, int exclusive,
                            cudaStream_t s)
{
    return exclusive ? cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (int)n, s)
                     : cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, (int)n, s);
}

/* Queue one run of the experiment's own scan id (each experiment defines it). */
template <typename T> static void queue_own(scan_bench *b, int id, const T *in, T *out);

/* Queue one run of GPU scan id on the current configuration. */
template <typename T>
static void queue_run(scan_bench *b, int id)
{
    const T *in = (const T *)b->d_in[b->type];
    T *out = (T *)b->d_out;
    size_t bytes = b->cub_bytes;
    if (id == V_HIER) hier_level<T>(b, in, out, b->n, 0, b->exclusive);
    else if (id == V_CUB) CUDA_CHECK(cub_scan<T>(b->d_cub, bytes, in, out, b->n, b->exclusive, b->L->stream));
    else queue_own<T>(b, id, in, out);
}

/* One run of variant v (the lab times it): cpu on the host, the others queued on the lab's stream. */
static void scan_run(gl_lab *L, int v, void *ctx)
{
    scan_bench *b = (scan_bench *)ctx;
    b->type = b->config_type[L->config], b->exclusive = b->config_exclusive[L->config];
    b->host_launches = 0;
    if (b->ids[v] == V_CPU && b->type == T_INT) scan_in_blocks<int, unsigned>(b, (int *)gl_lab_host_out(L), b->n);
    else if (b->ids[v] == V_CPU) scan_in_blocks<float, float>(b, (float *)gl_lab_host_out(L), b->n);
    else if (b->type == T_INT) queue_run<int>(b, b->ids[v]);
    else queue_run<float>(b, b->ids[v]);
}

/* Kernels one cub call launches: the kernel nodes of a stream capture of it (nothing runs). NAN when the
 * capture fails: cub's count is then unknown. */
template <typename T>
static double count_cub_kernels(scan_bench *b)
{
    size_t bytes = b->cub_bytes, count = 0;
    cudaGraph_t g = NULL;
    CUDA_CHECK(cudaStreamBeginCapture(b->L->stream, cudaStreamCaptureModeRelaxed)); /* idle: the check run is over */
    cudaError_t err = cub_scan<T>(b->d_cub, bytes, (const T *)b->d_in[b->type], (T *)b->d_out, b->n, b->exclusive,
                                  b->L->stream), ended = cudaStreamEndCapture(b->L->stream, &g);
    if (err == cudaSuccess) err = ended;
    if (err != cudaSuccess || !g) {
        (void)cudaGetLastError();
        if (g) CUDA_CHECK(cudaGraphDestroy(g));
        printf("cub: its launches could not be counted from a capture (%s)\n", cudaGetErrorName(err));
        return NAN;
    }
    CUDA_CHECK(cudaGraphGetNodes(g, NULL, &count));
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)gl_xcalloc(count + 1, sizeof *nodes);
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

/* After a check run: its launches (cub's from a capture of one call, device-side ones counted by the lab), checked
 * against the prediction: 2L + 1 for L levels of sums (hierarchical-cdp: 1, and 2L from the device), lookback 1. */
static void scan_after_run(gl_lab *L, int v, void *ctx)
{
    scan_bench *b = (scan_bench *)ctx;
    int id = b->ids[v];
    gl_row *row = gl_lab_row(L, L->config, v);
    if (!L->checking) return;
    long long levels = levels_of(b->n, section_of(b, id));
    long long want_h = id == V_CDP || id == V_LOOKBACK ? 1 : 2 * levels + 1, want_d = id == V_CDP ? 2 * levels : 0;
    double cub = id != V_CUB ? 0 : b->type == T_INT ? count_cub_kernels<int>(b) : count_cub_kernels<float>(b);
    gl_row_number(row, "launches_host", "", 0, 0, id == V_CUB ? cub : (double)b->host_launches);
    gl_row_number(row, "launches_device", "", 0, 0, (double)L->launches);
    if (id != V_CUB)
        gl_check(&L->rep, row, b->host_launches == want_h && (long long)L->launches == want_d,
                 "%s: %lld host and %llu device launches, %lld and %lld predicted", L->spec->variants[v].name,
                 b->host_launches, L->launches, want_h, want_d);
}

/* The options both experiments take, before their own (scan_open sets their defaults). */
#define SCAN_OPTIONS(b)                                                                                          \
    {"n", GL_OPT_U64, &(b).n_opt, 1, 1073741824.0, NULL, "1048583", "elements to scan (1..2^30)", 0},             \
    {"type", GL_OPT_CHOICE, &(b).type_choice, 0, 0, "int|float|both", NULL, "element type: int32 or float", 0},   \
    {"kind", GL_OPT_CHOICE, &(b).kind_choice, 0, 0, "inclusive|exclusive|both", NULL, "which prefix sum", 0}

/* Open the lab on spec (the reporting filled in here), then count what the shared buffers need: the inputs and
 * the output, the levels of sums (sized for the smallest section chosen), cub's temporary storage. */
static void scan_open(gl_lab *L, gl_lab_spec *spec, scan_bench *b, const int *ids, int argc, char **argv)
{
    b->L = L;
    b->ids = ids;
    b->n_opt = 1ULL << 28;
    b->type_choice = b->kind_choice = 2;
    spec->after_run = scan_after_run;
    spec->time_precision = 1;
    spec->slow_run_ms = 100;
    spec->guard_what = "launches and the cache, not the scan";
    spec->no_spans = 1;
    gl_lab_open(L, spec, argc, argv);
    b->n = b->level_n[0] = (long long)b->n_opt;
    long long smallest = TILE;
    for (int v = 0; v < spec->n_variants; v++)
        if (L->chosen[v] && ids[v] != V_CPU && ids[v] != V_CUB && section_of(b, ids[v]) < smallest)
            smallest = section_of(b, ids[v]);
    for (int e = 0; e < 4 && gl_lab_chosen(L, "cub"); e++) { /* int32, then float; inclusive, then exclusive */
        size_t need = 0;
        CUDA_CHECK(e < 2 ? cub_scan<int>(NULL, need, NULL, NULL, b->n, e, 0)
                         : cub_scan<float>(NULL, need, NULL, NULL, b->n, e - 2, 0));
        if (takes(b->type_choice, e / 2) && takes(b->kind_choice, e % 2) && need > b->cub_bytes) b->cub_bytes = need;
    }
    gl_lab_need(L, 4.0 * b->n * (1 + takes(b->type_choice, T_INT) + takes(b->type_choice, T_FLOAT)),
                "--n %lld: the inputs and the output", b->n);
    for (int k = 1; b->level_n[k - 1] > smallest; k++) {
        if (k + 1 > MAX_LEVELS) gl_die(GL_EXIT_INTERNAL, "%d levels of sums exceed MAX_LEVELS", k);
        b->level_n[k] = (b->level_n[k - 1] + smallest - 1) / smallest;
        gl_lab_need(L, 8.0 * b->level_n[k], "level %d's sums", k);
    }
    gl_lab_need(L, (double)b->cub_bytes, "cub's temporary storage");
}

/* The experiment's own buffers (gl_lab_buffers: counted, checked against the free memory, allocated, zeroed),
 * then the shared ones, and the inputs, from --seed. One configuration per type and kind: the reference, then
 * every variant checked (its launches too); then every row timed, the ratios and the claims. The exit code. */
static int scan_main(scan_bench *b, const gl_lab_buffer *own, int n_own)
{
    gl_lab *L = b->L;
    double input_bytes = 4.0 * (double)b->n;
    size_t array_bytes = sizeof(float) * (size_t)b->n; /* int and float are both 4 bytes */
    gl_lab_buffers(L, own, n_own);
    for (int t = 0; t < N_TYPES; t++) {
        if (!takes(b->type_choice, t)) continue;
        b->h_in[t] = gl_xmalloc(array_bytes);
        if (t == T_INT) gl_fill_i32((int32_t *)b->h_in[t], (size_t)b->n, L->common.seed, 0, -1000, 1000);
        else gl_fill_f32((float *)b->h_in[t], (size_t)b->n, L->common.seed, 1, -1.0f, 1.0f);
        b->d_in[t] = gl_lab_malloc(L, array_bytes);
        CUDA_CHECK(cudaMemcpy(b->d_in[t], b->h_in[t], array_bytes, cudaMemcpyHostToDevice));
    }
    b->h_ref = gl_xmalloc(array_bytes);
    b->d_out = gl_lab_malloc(L, array_bytes);
    for (int k = 1; k < MAX_LEVELS && b->level_n[k]; k++) {
        b->d_sums[k] = gl_lab_malloc(L, sizeof(float) * (size_t)b->level_n[k]);
        b->d_scan[k] = gl_lab_malloc(L, sizeof(float) * (size_t)b->level_n[k]);
    }
    b->d_cub = gl_lab_malloc(L, b->cub_bytes);
    printf("n = %lld (%.1f MB per array), %lld tiles of %d (%d threads x %d); speed claims %s\n", b->n,
           input_bytes / 1e6, tiles_of(b->n), TILE, THREADS, ITEMS, !L->spec->n_claims ? "none"
           : input_bytes >= 2.0 * L->dev.l2_bytes ? "judged (the input is at least twice the L2)"
                                                  : "SKIP (the input is under twice the L2)");
    gl_lab_plan(L, (1 + (b->type_choice == 2)) * (1 + (b->kind_choice == 2)), 0);
    for (int t = 0; t < N_TYPES; t++)
        for (int e = 0; e < 2; e++) {
            if (!takes(b->type_choice, t) || !takes(b->kind_choice, e)) continue;
            b->type = t;
            b->exclusive = e;
            if (t == T_INT) scan_in_blocks<int, unsigned>(b, (int *)b->h_ref, 1 << 16);
            else scan_in_blocks<float, double>(b, (float *)b->h_ref, 1 << 16);
            int c = gl_lab_add_config(L, input_bytes, "%s %s", type_names[t], kind_names[e]);
            b->config_type[c] = t, b->config_exclusive[c] = e;
            gl_lab_param(L, "type", "%s", type_names[t]);
            gl_lab_param(L, "kind", "%s", kind_names[e]);
            gl_lab_param_num(L, "n", (double)b->n);
            for (int v = 0; v < L->spec->n_variants; v++) {
                gl_row *row = gl_lab_row(L, c, v);
                int id = b->ids[v];
                if (!row) continue;
                if (id == V_CPU || id == V_CUB) gl_row_param(row, "tile", "%s", id == V_CPU ? "-" : "cub's");
                else gl_row_param(row, "tile", "%lld", section_of(b, id));
                gl_row_param(row, "traffic", "%s", id_traffic[id]);
                if (id == V_CPU) gl_row_number(row, "launches_host", "", 0, 0, 0); /* GPU rows': scan_after_run */
                if (id == V_CPU) gl_row_number(row, "launches_device", "", 0, 0, 0);
                if (b->skip[id][0]) gl_row_skip(row, "%s", b->skip[id]);
            }
            gl_lab_work(L, 8.0 * (double)b->n, (double)b->n); /* read n, write n: GB/s, % of peak, the L2 flush */
            double tol = t == T_INT ? 0 : gl_tolerance_sum((size_t)b->n, 1.0, 0);
            gl_lab_output(L, t == T_INT ? GL_I32 : GL_F32, b->d_out, (size_t)b->n, b->h_ref, tol, 0);
            if (t == T_INT) gl_lab_check(L, "%s %s matches the CPU exactly", type_names[t], kind_names[e]);
            else gl_lab_check(L, "%s %s matches the CPU within %.3g", type_names[t], kind_names[e], tol);
        }
    if (gl_lab_time(L)) gl_lab_judge(L);
    for (int t = 0; t < N_TYPES; t++) free(b->h_in[t]);
    free(b->h_ref);
    return gl_lab_close(L);
}

#endif
