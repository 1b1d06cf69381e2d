/* dot-lock.cu - the textbook's dot product finished under its atomic Lock, beside float atomics, a second pass and CUB.
 *
 * Question: what does the seed's atomicCAS lock cost as the last step of a dot product, against float atomics, a second pass and CUB?
 * Build: openmp cub
 * Sanitize: --quick --profile --n 10007 --skip-timing-claims
 *
 * a . b for --n floats (seeded, uniform in [0, 1)). The GPU variants share the per-thread sums (grid-stride, 16-byte
 * loads) and the block sums; only the final accumulation of the block partials differs:
 *   lock        thread 0 of each block adds its partial to *c under one lock for the grid (lock.cuh: the seed's)
 *   atomic      thread 0 of each block: atomicAdd(c, partial)
 *   two-pass    partials to global memory, then one block of 1024 adds them
 *   cub         cub::DeviceReduce::TransformReduce of a[i] * b[i] over a counting iterator (the same 8n bytes)
 *   cpu-double  exact products, Neumaier-compensated double sum, in order
 *   cpu-float   a sequential float sum on the CPU, shown for its error only
 * Checks, no claims: every GPU variant within gl_tolerance_sum(n, 1, float) of an exact reference in every run, and
 * every block's partial through the lock exactly once, none timing out. The table: time (events, behind the gate),
 * vs_cub, worst error and spread over the runs. Design notes: experiments/results/FINDINGS.md, "dot-lock".
 *
 * Run:   make run-dot-lock ARGS="--n 268435456 --repeat 20"            (or --variant lock,atomic,cub)
 * Nsight Systems (make profile-dot-lock): NVTX ranges "n=<n> variant=<name>" on the stream "dot-lock": lock and
 * atomic one kernel each (the lock's longer by the blocks' turns), two-pass two, cub its own two, each after an
 * untimed memset and reset kernel, then the gate kernel.
 */
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>

#include "gl_lab.h"
#include "gl_reduce.cuh"
#include "lock.cuh" /* and math.h, stdio.h, stdlib.h, string.h */
#include "gl_progress.h"

enum { V_CPU_DOUBLE, V_CPU_FLOAT, V_LOCK, V_ATOMIC, V_TWO_PASS, V_CUB, N_VARIANTS };

enum {
    DOT_THREADS = 256,  /* block of the dot kernels (a multiple of 32: shuffles) */
    SUM_THREADS = 1024  /* the one block of the two-pass second kernel */
};

/* ---- the kernels -------------------------------------------------------------------------- */

__device__ __forceinline__ float dot4(float4 x, float4 y) { return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w; }

/* This thread's share of a . b, grid-stride: 16-byte loads, four pairs in flight. */
__device__ __forceinline__ float thread_dot(const float *__restrict__ a, const float *__restrict__ b, long long n)
{
    long long step = (long long)gridDim.x * blockDim.x, j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long n4 = n / 4;
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b; /* cudaMalloc'd: 256-byte aligned */
    float acc = 0.0f;
    for (; j + 3 * step < n4; j += 4 * step) {
        float4 a0 = a4[j], a1 = a4[j + step], a2 = a4[j + 2 * step], a3 = a4[j + 3 * step];
        float4 b0 = b4[j], b1 = b4[j + step], b2 = b4[j + 2 * step], b3 = b4[j + 3 * step];
        acc += dot4(a0, b0) + dot4(a1, b1) + dot4(a2, b2) + dot4(a3, b3);
    }
    for (; j < n4; j += step) acc += dot4(a4[j], b4[j]);
    for (long long k = n4 * 4 + (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += step) acc += a[k] * b[k];
    return acc;
}

/* The dot kernel of variant V: one partial per block, then the variant's final accumulation. */
template <int V>
__global__ void __launch_bounds__(DOT_THREADS) dot(const float *__restrict__ a, const float *__restrict__ b, long long n,
                                                   float *partials, float *c, lock_record *r,
                                                   unsigned long long timeout_ns)
{
    float s = gl_block_sum(thread_dot(a, b, n));
    if (threadIdx.x != 0) return;
    if (V == V_LOCK) {
        if (lock_acquire(r, timeout_ns)) {
            *c += s;               /* the seed's critical section: plain load and store, ordered by the fences */
            r->held = r->held + 1; /* every block's partial went through the lock once */
            lock_release(r);
        }
    } else if (V == V_ATOMIC) {
        atomicAdd(c, s);
    } else {
        partials[blockIdx.x] = s;
    }
}

/* two-pass, second kernel: one block adds the m partials. */
__global__ void __launch_bounds__(SUM_THREADS) sum_partials(const float *partials, unsigned int m, float *c)
{
    float v = 0.0f;
    for (unsigned int i = threadIdx.x; i < m; i += blockDim.x) v += partials[i];
    v = gl_block_sum(v);
    if (threadIdx.x == 0) *c = v;
}

/* CUB's transform: the i-th product. */
struct product_at {
    const float *a, *b; /* the inputs */
    __host__ __device__ float operator()(long long i) const { return a[i] * b[i]; }
};

/* ---- host: the reference and the CPU variants ------------------------------------------------ */

/* cpu-double: exact products (24 + 24 bits fit in a double's 53), Neumaier-compensated sum, in order. */
static double dot_neumaier(const float *a, const float *b, long long n)
{
    double s = 0, comp = 0;
    for (long long i = 0; i < n; i++) {
        double x = (double)a[i] * (double)b[i], t = s + x;
        comp += fabs(s) >= fabs(x) ? (s - t) + x : (x - t) + s;
        s = t;
    }
    return s + comp;
}

/* The reference: a . b exactly, rounded once. gl_fill_f32 over [0, 1) draws multiples of 2^-24,
 * so a[i] * b[i] * 2^48 is a whole number below 2^48 and the sum of n <= 2^28 of them is below
 * 2^76: 128-bit integers hold it exactly, whatever the order the threads add in. Inputs that are
 * not such fractions (none here) take the compensated sum in order. */
static double dot_reference(const float *a, const float *b, long long n)
{
    int whole = n <= (1LL << 28);
    unsigned long long lo = 0, hi = 0; /* the sum, as two 64-bit halves (OpenMP reduces no 128-bit type) */
    GL_OMP(omp parallel reduction(&& : whole))
    {
        unsigned __int128 part = 0;
        GL_OMP(omp for schedule(static) nowait)
        for (long long i = 0; i < n; i++) {
            float qa = a[i] * 0x1p24f, qb = b[i] * 0x1p24f; /* exact: scaling by a power of two */
            int in = qa >= 0 && qa < 0x1p24f && qb >= 0 && qb < 0x1p24f;
            unsigned ka = in ? (unsigned)qa : 0, kb = in ? (unsigned)qb : 0;
            whole = whole && in && (float)ka == qa && (float)kb == qb;
            part += (unsigned long long)ka * kb;
        }
        GL_OMP(omp critical)
        {
            unsigned __int128 sum = ((unsigned __int128)hi << 64 | lo) + part;
            lo = (unsigned long long)sum;
            hi = (unsigned long long)(sum >> 64);
        }
    }
    if (!whole) return dot_neumaier(a, b, n);
    return ldexp((double)((unsigned __int128)hi << 64 | lo), -48); /* one rounding, then an exact scaling */
}

/* The naive CPU loop, in float and in order: its error grows with n, beyond any tree's. */
static float dot_cpu_float(const float *a, const float *b, long long n)
{
    float s = 0.0f;
    for (long long i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* ---- host: running a variant --------------------------------------------------------------- */

/* A GPU variant's results over all its runs: the check, the warm-up and the timed ones. */
typedef struct run_stats {
    int runs, bad_runs;       /* runs, and those outside the tolerance or with the lock not taken by every block */
    double worst_abs, lo, hi; /* over them: worst |got - ref|, smallest and largest result */
} run_stats;

/* What the runs read, and what they leave. */
typedef struct bench {
    long long n;                   /* elements */
    float *h_a, *h_b;              /* the inputs (one allocation) */
    float *d_a, *d_b;              /* on the device */
    float *d_partials;             /* two-pass: one per block */
    float *d_result;               /* the dot product */
    lock_record *d_rec;            /* the lock and its counters */
    void *d_cub;                   /* CUB's temporary storage */
    size_t cub_bytes;              /* its size */
    unsigned int blocks;           /* grid of the dot kernels */
    unsigned long long timeout_ns; /* --timeout-ms: how long one acquire may wait on the device */
    double ref, tol;               /* the reference, and the tolerance of every GPU variant */
    double got;                    /* the last run's result */
    lock_record rec;               /* the lock's record after the last lock run */
    double checked[N_VARIANTS];    /* each variant's result in its check run */
    run_stats stats[N_VARIANTS];   /* per GPU variant */
} bench;

/* Before every GPU run, outside its time (the lab's before_run, queued before the gate): zero the result and
 * free the lock, since the lock and atomic variants add into the result and the lock counts its holders. */
static void before_run(gl_lab *L, int v, void *ctx)
{
    const bench *b = (const bench *)ctx;
    if (v == V_CPU_DOUBLE || v == V_CPU_FLOAT) return;
    CUDA_CHECK(cudaMemsetAsync(b->d_result, 0, sizeof(float), L->stream));
    lock_reset(b->d_rec, L->stream);
}

/* One run of variant v (the lab times it): the CPU variants on the host, the others queued on the lab's stream. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    if (v == V_CPU_DOUBLE || v == V_CPU_FLOAT) {
        b->got = v == V_CPU_DOUBLE ? dot_neumaier(b->h_a, b->h_b, b->n) : (double)dot_cpu_float(b->h_a, b->h_b, b->n);
        return;
    }
    cudaStream_t s = L->stream;
    if (v == V_CUB) {
        CUDA_CHECK(cub::DeviceReduce::TransformReduce(b->d_cub, b->cub_bytes, thrust::counting_iterator<long long>(0),
                                                      b->d_result, b->n, cuda::std::plus<float>{},
                                                      product_at{b->d_a, b->d_b}, 0.0f, s));
    } else {
        decltype(&dot<V_LOCK>) kernel = v == V_LOCK ? dot<V_LOCK> : v == V_ATOMIC ? dot<V_ATOMIC> : dot<V_TWO_PASS>;
        kernel<<<b->blocks, DOT_THREADS, 0, s>>>(b->d_a, b->d_b, b->n, b->d_partials, b->d_result, b->d_rec,
                                                 b->timeout_ns);
        CUDA_CHECK_LAUNCH("dot");
        if (v == V_TWO_PASS) sum_partials<<<1, SUM_THREADS, 0, s>>>(b->d_partials, b->blocks, b->d_result);
    }
    CUDA_CHECK_LAUNCH("the end of a dot variant");
}

/* After each GPU run: read the result (and the lock's record), fold it into the variant's error and spread. */
static void after_run(gl_lab *L, int v, void *ctx)
{
    (void)L;
    bench *b = (bench *)ctx;
    float got = 0;
    CUDA_CHECK(cudaMemcpy(&got, b->d_result, sizeof got, cudaMemcpyDeviceToHost));
    b->got = got;
    if (v == V_LOCK) CUDA_CHECK(cudaMemcpy(&b->rec, b->d_rec, sizeof b->rec, cudaMemcpyDeviceToHost));
    run_stats *st = &b->stats[v];
    double err = fabs(b->got - b->ref);
    if (st->runs == 0 || err > st->worst_abs || isnan(err)) st->worst_abs = err;
    if (st->runs == 0 || b->got < st->lo) st->lo = b->got;
    if (st->runs == 0 || b->got > st->hi) st->hi = b->got;
    st->runs++;
    int lock_ok = v != V_LOCK || (b->rec.held == b->blocks && b->rec.timeouts == 0);
    st->bad_runs += !(err <= b->tol) || !lock_ok;
}

/* The check of variant v's first run: within the tolerance of the reference, and (lock) every block's
 * partial through the lock once. cpu-double is not checked, cpu-float is shown as SKIP with its error. */
static int check_variant(gl_lab *L, int v, gl_row *row, void *ctx)
{
    bench *b = (bench *)ctx;
    b->checked[v] = b->got;
    if (v == V_CPU_DOUBLE) return 1;
    if (v == V_CPU_FLOAT) {
        gl_claim_skip(&L->rep, row, GL_CLAIM_DATA, "cpu-float matches the reference",
                      "shown, not checked: in sequential order the error bound grows as n^2 (gl_check.h); "
                      "error %.3g against the tolerance %.3g of a tree", fabs(b->got - b->ref), b->tol);
        return 1;
    }
    char text[96];
    snprintf(text, sizeof text, "%s: a . b matches the double reference", L->spec->variants[v].name);
    int ok = gl_check_compare(&L->rep, row, text, GL_F64, &b->ref, &b->got, 1, b->tol, 0);
    if (v == V_LOCK)
        ok &= gl_check(&L->rep, row, b->rec.held == b->blocks && b->rec.timeouts == 0,
                       "lock: every block's partial went through the lock once (%u of %u acquisitions, "
                       "%u timed out)", b->rec.held, b->blocks, b->rec.timeouts);
    return ok;
}

/* ---- host: main ------------------------------------------------------------------------------- */

/* cub is no GL_LAB_BASELINE: the table's vs_cub is time over cub's time (the lab's speed_vs_ is the inverse). */
static const gl_lab_variant variants[N_VARIANTS] = {
    {"cpu-double", GL_LAB_HOST}, {"cpu-float", GL_LAB_HOST}, {"lock", GL_LAB_GPU},
    {"atomic", GL_LAB_GPU},      {"two-pass", GL_LAB_GPU},   {"cub", GL_LAB_GPU}};

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "dot-lock",
        "what does the seed's atomicCAS lock cost as the last step of a dot product, against float atomics, a second "
        "pass and CUB?",
        "a . b for --n floats in [0, 1), the block partials added under the seed's lock, with atomicAdd, in a\n"
        "second pass and by CUB, each checked in every run against an exact reference, every block through the\n"
        "lock once; cpu-double and cpu-float are shown beside them. Each spin on the lock gives up after\n"
        "--timeout-ms on the device: a timeout is a failed check, never a hang."};
    static bench b;
    unsigned long long n = 1ULL << 26;
    double timeout_ms = 2000;
    gl_option opts[] = {
        {"n", GL_OPT_U64, &n, 1, 268435456.0, NULL, "1048583", "elements of a and b (1..2^28)", 0},
        LOCK_TIMEOUT_OPTION(&timeout_ms),
    };
    gl_lab_spec spec = gl_lab_spec_of(&exp, variants, N_VARIANTS, opts, GL_ARRAY_LEN(opts), NULL, 0, run_variant, &b);
    spec.table = "dot", spec.axis = "n", spec.time_precision = 1, spec.no_spans = 1;
    spec.check = check_variant, spec.before_run = before_run, spec.after_run = after_run;
    gl_lab L;
    gl_lab_open(&L, &spec, argc, argv);
    b.n = (long long)n;
    b.timeout_ns = (unsigned long long)(timeout_ms * 1e6);
    L.timeout_s = lock_host_timeout_s(timeout_ms); /* a broken lock: a failed check, not exit 3 */

    /* sizes first: one float4 pair per thread at least, no more blocks than fit at once; then the memory */
    b.blocks = gl_lab_grid(&L, (const void *)dot<V_LOCK>, DOT_THREADS, b.n / 4);
    CUDA_CHECK(cub::DeviceReduce::TransformReduce(NULL, b.cub_bytes, thrust::counting_iterator<long long>(0),
                                                  (float *)NULL, b.n, cuda::std::plus<float>{},
                                                  product_at{NULL, NULL}, 0.0f, L.stream));
    size_t bytes = sizeof(float) * (size_t)b.n;
    const gl_lab_buffer bufs[] = {
        {&b.d_a, (double)bytes, "a"}, {&b.d_b, (double)bytes, "b"},
        {&b.d_partials, sizeof(float) * (double)b.blocks, "the partials"}, {&b.d_result, sizeof(float), "the result"},
        {&b.d_rec, sizeof(lock_record), "the lock"}, {&b.d_cub, (double)b.cub_bytes, "cub's temporary storage"}};
    gl_lab_buffers(&L, bufs, GL_ARRAY_LEN(bufs));

    /* the inputs and the reference, then the device copies */
    gl_lab_plan(&L, 1, 1);
    gl_progress_at("inputs and the reference");
    b.h_a = (float *)gl_xmalloc(2 * bytes), b.h_b = b.h_a + b.n;
    gl_fill_f32(b.h_a, (size_t)b.n, L.common.seed, 0, 0.0f, 1.0f);
    gl_fill_f32(b.h_b, (size_t)b.n, L.common.seed, 1, 0.0f, 1.0f);
    b.ref = dot_reference(b.h_a, b.h_b, b.n);
    b.tol = gl_tolerance_sum((size_t)b.n, 1.0, 0); /* every product is below 1 */
    CUDA_CHECK(cudaMemcpy(b.d_a, b.h_a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b.d_b, b.h_b, bytes, cudaMemcpyHostToDevice));
    gl_progress_step(1);
    gl_progress_clear();
    printf("dot: n = %lld floats in [0, 1) (%.1f MB read), reference %.17g, tolerance %.3g "
           "(gl_tolerance_sum, float); %u blocks of %d: the lock is taken %u times per run\n",
           b.n, 8.0 * b.n / 1e6, b.ref, b.tol, b.blocks, DOT_THREADS, b.blocks);

    /* one configuration: every variant checked, then timed */
    gl_lab_add_config(&L, 8.0 * (double)b.n, "%lld", b.n);
    gl_lab_param_num(&L, "n", (double)b.n);
    char blocks[16];
    snprintf(blocks, sizeof blocks, "%u", b.blocks);
    for (int v = 0; v < N_VARIANTS; v++)
        if (gl_lab_row(&L, 0, v))
            gl_row_param(gl_lab_row(&L, 0, v), "blocks", "%s", v == V_CUB ? "cub's" : v <= V_CPU_FLOAT ? "-" : blocks);
    gl_lab_work(&L, 8.0 * (double)b.n, (double)b.n);
    gl_lab_check(&L, "against the double reference"); /* check_variant writes each check's text */
    int timed = gl_lab_time(&L);

    /* the errors over every run, then each time against cub's */
    for (int v = V_CPU_FLOAT; v < N_VARIANTS; v++) {
        gl_row *row = gl_lab_row(&L, 0, v);
        if (!row) continue;
        const run_stats *st = &b.stats[v];
        double abs_err = v == V_CPU_FLOAT ? fabs(b.checked[v] - b.ref) : st->worst_abs;
        gl_row_number(row, "abs_error", "", -1, 0, abs_err);
        gl_row_number(row, "rel_error", "", -1, 0, b.ref != 0 ? abs_err / fabs(b.ref) : 0);
        if (v == V_CPU_FLOAT) continue;
        gl_row_number(row, "spread", "", -1, 0, st->hi - st->lo);
        if (timed && st->runs > 1)
            gl_check(&L.rep, row, st->bad_runs == 0, "%s: every run within the tolerance, warm-up and timed ones too "
                     "(%d of %d runs; worst error %.3g, results spread over %.3g)", variants[v].name,
                     st->runs - st->bad_runs, st->runs, st->worst_abs, st->hi - st->lo);
    }
    double cub_us = gl_lab_median(&L, 0, V_CUB);
    for (int v = 0; v < N_VARIANTS && !isnan(cub_us); v++)
        if (!isnan(gl_lab_median(&L, 0, v)))
            gl_row_number(gl_lab_row(&L, 0, v), "vs_cub", "x", 2, 0, gl_lab_median(&L, 0, v) / cub_us);
    free(b.h_a);
    return gl_lab_close(&L);
}
