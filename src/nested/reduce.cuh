/* reduce.cuh - what nested-reduce and nested-race share: the textbook's chains of one-block grids on CDP2 (nested,
 * nested-nosync and the racy nosync), the flat reduction that adds their partials, and the host's harness (the
 * input and its exact sum, the pool's slices, a tree's checks, one configuration). Why each port is correct and
 * the model: experiments/results/FINDINGS.md, "nested-reduce". */
#ifndef GL_NESTED_REDUCE_CUH
#define GL_NESTED_REDUCE_CUH

#include <stdlib.h>
#include "gl_device_check.cuh"
#include "gl_lab.h"
#include "gl_reduce.cuh"
#include "gl_work.cuh"

enum {
    FLAT_THREADS = 256,        /* block of flat, nested-tail and nested-agg (a multiple of 32: warp shuffles) */
    LABEL_COMBINE = 32,        /* the nested-tail continuation's label, above every depth (the deepest: 12) */
    TRACE_GRID_CAP = 1 << 21,  /* grids a validation run records spans for (the ordering claims) */
    TRACE_FILE_CAP = 1 << 17   /* grids --trace and --timeline show (more: too big to open) */
};

/* ---- what every grid of a tree gets: its span (depth, parent) recorded, its launches counted ------ */
typedef struct tree {
    gl_span_buf spans;            /* the lab's: grid records of a validation run */
    int record;                   /* record spans (validation run, when the tree is small enough) */
    gl_dev_error *err;            /* the lab's: failed device-side launches */
    unsigned long long *launches; /* the lab's: device-side launches that succeeded */
    long long *out;               /* one partial per chain (textbook variants), or the sum */
    unsigned int *arrive;         /* nested-nosync: writers of the current level, per chain */
    unsigned long long *race_write, *race_start; /* racy, per chain and depth: the last write, the grid's start (ns) */
    int depths;                   /* depths per chain (stride of the race arrays) */
    unsigned long long delay_ns;  /* --race-delay-us: warps but the first wait this long before their level-0 write */
} tree;

/* A device-side launch was just made: count it, or record why it failed (the host exits 3 on it). */
__device__ __forceinline__ void launched(const tree &t)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) atomicAdd(t.launches, 1ULL); else GL_DEVICE_CHECK(t.err, e);
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

/* Element i of a segment of n elements; past the end, the zero padding. */
template <typename T>
__device__ __forceinline__ long long at(const T *s, long long i, long long n) { return i < n ? (long long)s[i] : 0; }

/* ---- block and grid sums (flat, the partials pass, nested-tail, nested-agg) ---------------- */
__device__ __forceinline__ long long sum4(int4 q) { return (long long)q.x + (long long)q.y + (long long)q.z + q.w; }

/* This thread's share of in[0, n), grid-stride: 16-byte loads, eight in flight (faster than four at 2^28). */
__device__ __forceinline__ long long thread_sum(const int *in, long long n, long long first, long long step)
{
    enum { IN_FLIGHT = 8 };
    long long acc = 0, n4 = n / 4, j = first;
    const int4 *in4 = (const int4 *)in; /* callers pass 16-byte aligned ranges */
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

/* flat: one pass. Each block leaves a partial; the last to finish (a counter, after a fence) adds them, resets it. */
template <typename T>
__global__ void __launch_bounds__(FLAT_THREADS) flat_reduce(const T *__restrict__ in, long long n, long long *partials,
                                                            unsigned int *done, long long *result)
{
    __shared__ int is_last;
    long long step = (long long)gridDim.x * blockDim.x;
    long long s = gl_block_sum(thread_sum(in, n, (long long)blockIdx.x * blockDim.x + threadIdx.x, step));
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
    long long total = gl_block_sum(thread_sum((const long long *)partials, gridDim.x, threadIdx.x, blockDim.x));
    if (threadIdx.x == 0) { *result = total; *done = 0; }
}

/* Blocks for a grid-stride pass over n ints: enough for every SM, no more than the work. */
__host__ __device__ __forceinline__ unsigned int grid_for(long long n, unsigned int max_blocks)
{
    long long want = (n / 4 + FLAT_THREADS - 1) / FLAT_THREADS;
    return want < 1 ? 1u : want > (long long)max_blocks ? max_blocks : (unsigned int)want;
}

/* ---- nested, nested-nosync, nested-nosync-racy: a chain of one-block grids per block, differing only in when a
 * block launches its child. Level 0 (a block per chain) reads the ints and writes halves to work; each deeper level
 * (size/2 threads) works in place, reading i and i + half, writing i < half: no thread writes what another reads. */
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

/* ---- the host: one configuration of --n ints, every variant checked exactly, then timed ---------- */
/* Every variant of both experiments; each experiment's table maps its own to these (bench.ids). */
enum { V_CPU, V_NEIGHBORED, V_NESTED, V_NOSYNC, V_NESTED2, V_TAIL, V_FLAT, V_CUB, V_AGG, V_RACY, N_IDS };

typedef struct bench {
    const int *ids;                /* per variant: which one it is (V_*) */
    long long n;                   /* elements (--n, which writes it as its unsigned twin) */
    int block;                     /* the textbook variants' block (--block, a power of two) */
    unsigned long long pool_given; /* --pool, or 0 */
    long long chains;              /* blocks of the textbook variants' first level: ceil(n / block) */
    int levels;                    /* log2(block): grids per chain */
    unsigned int flat_blocks;      /* flat's largest grid: SMs x resident blocks */
    int *h_in, *d_in;              /* the input, on the host and on the device */
    long long want, sum, *h_copy;  /* the reference sum; the last run's; cpu-recursive's working copy */
    long long *d_work, *d_out;     /* the in-place variants' halves; a partial per chain (nested-agg: the sum) */
    long long *d_result, *d_sums;  /* the sum; nested-tail's running total per level */
    long long *d_flat_partials, *d_agg; /* flat's per-block partials; nested-agg's first-level partials */
    unsigned int *d_flat_done;     /* flat's last-block counter */
    void *d_cub;                   /* CUB's temporary storage */
    size_t cub_bytes;              /* its size */
    tree t;                        /* what the trees get */
    long long slice_chains[N_IDS]; /* per variant: chains per host launch of the top level (fitting the pool) */
} bench;

/* Device-side launches one run of id makes (the host's prediction; each experiment predicts its own). */
static long long predicted_launches(const bench *b, int id);

/* The grids one run of id runs (the partials pass aside); whether its validation run records them (a tree's, when
 * few enough). */
static long long predicted_grids(const bench *b, int id)
{
    return (id != V_CPU && id != V_CUB) + predicted_launches(b, id);
}
static int records(const bench *b, int id)
{
    return id != V_CPU && id != V_CUB && id != V_FLAT && id != V_NEIGHBORED && predicted_grids(b, id) <= TRACE_GRID_CAP;
}

/* The tree variant v's run gets (it records in a validation run, when small enough), and its top grid's span. */
static tree tree_for(gl_lab *L, const bench *b, int v, unsigned int *top)
{
    tree t = b->t;
    t.record = L->checking && records(b, b->ids[v]);
    *top = t.record ? gl_spans_reserve(&L->spans, 1) : GL_NO_SPAN;
    return t;
}

/* nested, nested-nosync or the racy nosync: the top level in slices (slice c0 covers chains [c0, c0 + k): its
 * input, halves, partials), each a host launch whose launches fit the pool. */
static void run_chains(gl_lab *L, const bench *b, int v, const tree &t, unsigned int top)
{
    unsigned int B = (unsigned int)b->block, H = B / 2;
    int id = b->ids[v];
    for (long long c0 = 0, step = b->slice_chains[v]; c0 < b->chains; c0 += step) {
        unsigned int k = (unsigned int)(b->chains - c0 < step ? b->chains - c0 : step);
        const int *in = b->d_in + c0 * B;
        long long n = b->n - c0 * B, *work = b->d_work + c0 * H;
        cudaStream_t s = L->stream;
        if (id == V_NESTED) chain_level<CHAIN_NESTED, int><<<k, B, 0, s>>>(t, in, n, work, B, 0, top, -1, c0);
        else if (id == V_NOSYNC) chain_level<CHAIN_NOSYNC, int><<<k, B, 0, s>>>(t, in, n, work, B, 0, top, -1, c0);
        else chain_level<CHAIN_RACY, int><<<k, B, 0, s>>>(t, in, n, work, B, 0, top, -1, c0);
        CUDA_CHECK_LAUNCH("a slice of the top level");
    }
}

/* The textbook variants' partials pass: one flat pass over the chains' partials, in the variant's timed run. */
static void partials_pass(gl_lab *L, const bench *b)
{
    flat_reduce<long long><<<grid_for(b->chains * 4, b->flat_blocks), FLAT_THREADS, 0, L->stream>>>(
        b->d_out, b->chains, b->d_flat_partials, b->d_flat_done, b->d_result);
    CUDA_CHECK_LAUNCH("the partials pass");
}

/* After a GPU run (the lab has checked its device-side launches): the sum it left. */
static void after_run(gl_lab *, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    const long long *where = b->ids[v] == V_TAIL ? b->d_sums : b->ids[v] == V_AGG ? b->d_out : b->d_result;
    CUDA_CHECK(cudaMemcpy(&b->sum, where, sizeof b->sum, cudaMemcpyDeviceToHost));
}

/* The checks every variant's validation run gets: the exact sum (the racy one aside), the launches, the grids
 * recorded. Returns whether they passed. */
static int check_tree(gl_lab *L, const bench *b, int v, gl_row *row)
{
    const char *name = L->spec->variants[v].name;
    long long launches = predicted_launches(b, b->ids[v]), grids = predicted_grids(b, b->ids[v]);
    int ok = 1;
    gl_row_number(row, "launches", "", 0, 0, (double)L->launches);
    if (b->ids[v] != V_RACY)
        ok &= gl_check(&L->rep, row, b->sum == b->want, "%s sums %lld ints exactly (got %lld, want %lld)", name, b->n,
                       b->sum, b->want);
    ok &= gl_check(&L->rep, row, (long long)L->launches == launches, "%s: %llu device-side launches, %lld predicted",
                   name, L->launches, launches);
    const gl_timeline *tl = records(b, b->ids[v]) ? gl_lab_timeline(L) : NULL;
    if (tl) ok &= gl_check(&L->rep, row, tl->n == grids, "%s: %d grids recorded, %lld predicted", name, tl->n, grids);
    return ok;
}

/* Labels: one per depth, then the continuation; tracks: one per depth. */
static void label_name(int label, gl_buf *out, const void *)
{
    gl_buf_printf(out, label == LABEL_COMBINE ? "continuation (tail)" : "depth %d", label);
}

/* A recorded tree, drawn with --timeline and added to --trace. */
static void show_tree(gl_lab *L, int v)
{
    char title[96];
    snprintf(title, sizeof title, "%s (validation run)", L->spec->variants[v].name);
    gl_names names = {NULL, label_name, NULL, "depth %d", NULL, NULL, 0};
    gl_lab_show(L, title, &names);
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
    for (int v = 0; v < L->spec->n_variants && (L->common.trace_path || L->common.timeline); v++)
        if (L->chosen[v] && predicted_grids(b, b->ids[v]) > TRACE_FILE_CAP)
            gl_die(GL_EXIT_USAGE, "--trace/--timeline: %s at --n %lld makes %lld grids; the tree is recorded up to %d "
                   "(use a smaller --n, or a larger --block)", L->spec->variants[v].name, b->n,
                   predicted_grids(b, b->ids[v]), TRACE_FILE_CAP);
}

/* The options both experiments take, before their own. */
#define REDUCE_OPTIONS(b)                                                                                          \
    {"n", GL_OPT_U64, &(b).n, 1, 1073741824.0, NULL, NULL, "elements to sum (1..2^30)", 0},                        \
    {"block", GL_OPT_INT, &(b).block, 2, 1024, NULL, NULL, "threads per block of the textbook variants (a power of two)", 0}, \
    {"pool", GL_OPT_U64, &(b).pool_given, 0, 1e8, NULL, NULL,                                                      \
     "pending-launch pool to set instead of the computed one (0: computed); too small a pool shows the overflow (exit 3)", 0}

/* Open the lab on spec (the hooks both share filled in here); the input, from --seed, and its exact sum. */
static void reduce_open(gl_lab *L, gl_lab_spec *spec, bench *b, const int *ids, int argc, char **argv)
{
    b->ids = ids;
    spec->table = spec->exp.name, spec->axis = "n", spec->after_run = after_run, spec->options_ok = options_ok;
    spec->time_precision = 1, spec->guard_what = "launch latency, not the reduction", spec->device_launches = 1;
    gl_lab_open(L, spec, argc, argv);
    int *h_in = b->h_in = (int *)gl_xmalloc(sizeof(int) * (size_t)b->n);
    gl_fill_i32(h_in, (size_t)b->n, L->common.seed, 0, INT32_MIN, INT32_MAX);
    long long want = 0; /* exact on every core: 64-bit integer addition is associative, any order gives it */
#pragma omp parallel for reduction(+ : want) schedule(static)
    for (long long i = 0; i < b->n; i++) want += h_in[i];
    b->want = want;
    b->flat_blocks = gl_lab_grid(L, (const void *)flat_reduce<int>, FLAT_THREADS, 1LL << 40); /* as many as fit */
}

/* The data (the shared buffers, then the experiment's own: at most 8), checked against what is free before anything
 * is allocated; then the one configuration: every variant's pool, and its check. */
static void reduce_check(gl_lab *L, bench *b, const gl_lab_buffer *own, int n_own)
{
    long long max_grids = 0;
    for (int v = 0; v < L->spec->n_variants; v++)
        if (L->chosen[v] && predicted_grids(b, b->ids[v]) > max_grids) max_grids = predicted_grids(b, b->ids[v]);
    unsigned int span_slots = (unsigned int)(max_grids < TRACE_GRID_CAP ? max_grids : (long long)TRACE_GRID_CAP) + 8;
    double work = (double)b->chains * b->block; /* neighbored widens whole blocks; the trees use half */
    gl_lab_buffer bufs[16] = {
        {&b->d_in, 4.0 * b->n, "the input"}, {&b->d_work, 8.0 * work, "the halves"},
        {&b->d_out, 8.0 * b->chains, "the chains' partials"}, {&b->d_result, 8, "the sum"},
        {&b->d_flat_partials, 8.0 * b->flat_blocks, "flat's partials"}, {&b->d_flat_done, 4, "flat's counter"},
        {&b->t.arrive, 4.0 * b->chains, "nested-nosync's counters"}};
    for (int i = 0; i < n_own; i++) bufs[7 + i] = own[i];
    gl_lab_need(L, sizeof(gl_span) * (double)span_slots, "the spans");
    gl_lab_buffers(L, bufs, 7 + n_own);
    CUDA_CHECK(cudaMemcpy(b->d_in, b->h_in, sizeof(int) * (size_t)b->n, cudaMemcpyHostToDevice));
    gl_lab_spans(L, 1, span_slots, 0);
    b->t.spans = L->spans.dev, b->t.err = L->dev_err, b->t.launches = L->d_launches, b->t.out = b->d_out;
    L->timeout_s = 60 + 1e-5 * (double)max_grids; /* the slowest tree measured (nested at 2^26, a million grids): 1 s */
    printf("n = %lld ints (%.1f MB), %lld chains of %d (textbook variants), reference sum %lld\n", b->n,
           4.0 * b->n / 1e6, b->chains, b->block, b->want);

    gl_lab_plan(L, 1, 0);
    gl_lab_add_config(L, 4.0 * (double)b->n, "%lld", b->n);
    gl_lab_param_num(L, "n", (double)b->n);
    for (int v = 0; v < L->spec->n_variants; v++) {
        gl_row *row = gl_lab_row(L, 0, v);
        int id = b->ids[v];
        if (!row) continue;
        if (id == V_CPU || id == V_CUB) gl_row_param(row, "block", "%s", id == V_CPU ? "-" : "cub's");
        else gl_row_param(row, "block", "%d", id >= V_TAIL && id != V_RACY ? FLAT_THREADS : b->block);
        if (id == V_CPU) continue;
        long long units = id == V_NESTED || id == V_NOSYNC || id == V_RACY ? b->chains : 1; /* sliced by whole chains */
        b->slice_chains[v] = gl_lab_pool(L, v, predicted_launches(b, id), units, "chain", b->pool_given);
        if (!b->slice_chains[v] && L->n_chosen == 1) /* nothing else to run */
            gl_no_gpu("%s at --n %lld %s", L->spec->variants[v].name, b->n, row->skip_reason);
    }
    gl_lab_work(L, 4.0 * (double)b->n, (double)b->n);
    gl_lab_check(L, "sums %lld ints exactly", b->n);
}

/* Free the host's copies; close the lab (the tables, the verdict); the exit code. */
static int reduce_close(gl_lab *L, bench *b)
{
    free(b->h_copy);
    free(b->h_in);
    return gl_lab_close(L);
}

#endif
