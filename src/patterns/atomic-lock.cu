/* atomic-lock.cu - the textbook's atomic Lock: a dot product finished under it, what it costs, and why a warp no longer deadlocks on it.
 *
 * Question: what does the seed's atomicCAS lock cost against float atomics, a second pass and CUB, and does a per-thread lock still deadlock a warp?
 * Build: openmp cub
 * Sanitize: --quick --profile --n 10007 --acquires 64 --skip-timing-claims
 *
 * The seed (CUDA by Example, appendix A) builds a Lock from atomicCAS and
 * atomicExch, finishes a dot product by adding each block's partial sum under
 * it, and makes the threads of a warp take turns at a per-bucket lock, because
 * on the GPUs of its day a warp whose threads all spun on one lock never let
 * the winner reach its unlock. Three parts (--part, default all):
 *
 * 1. dot (table "dot"): a . b for --n floats (seeded, uniform in [0, 1)). Every
 *    GPU variant computes the same per-thread sums (grid-stride, 16-byte
 *    loads, float) and block sums (shuffles); only the final accumulation of
 *    the block partials differs:
 *      lock      the seed's: thread 0 of each block adds its partial to *c under
 *                one Lock for the grid
 *      atomic    thread 0 of each block: atomicAdd(c, partial) (float atomics, sm_20+)
 *      two-pass  partials to global memory, then one block of 1024 adds them
 *      cub       cub::DeviceReduce::TransformReduce over a counting iterator with
 *                a functor returning a[i] * b[i]: no products buffer, so CUB
 *                reads the same 8n bytes as the others (but through an
 *                iterator, so without its vectorized pointer loads)
 *      cpu-double  exact products, Neumaier-compensated double sum, in order on one
 *                core; the reference itself is the exact sum of the products (each
 *                a whole number of 2^-48: the inputs are 24-bit fractions), added in
 *                128-bit integers on every host core in any order and rounded once
 *                to double: the same on any number of threads, and within half an
 *                ulp of the true value (Neumaier's is within about one)
 *      cpu-float   a sequential float sum on the CPU, shown for its error only
 *    Each GPU variant's time (events around its launches, the stream held by
 *    the gate until all are queued) and its error against the reference: the
 *    worst absolute and relative error over every run, and the spread of its
 *    results over the runs (lock and atomic add the partials in whatever order
 *    the blocks arrive; two-pass and CUB always add in the same order). Each is
 *    checked within gl_tolerance_sum(n, 1, float). The input is positive so
 *    that a lost or doubled block partial (what a broken lock does) is far
 *    larger than the tolerance; with random signs it would not be.
 * 2. contention (table "contention"): for blocks of --threads threads (1 to 1024,
 *    powers of two) and --blocks-per-sm 1 to 4 (grid = that x #SMs, when the
 *    occupancy calculator says they fit at once; else the row is SKIP), thread
 *    0 of each taking block does acquire, a plain increment of a counter,
 *    release, in a loop; the other threads exit at once, as the seed's do after
 *    their reduction. Uncontended: one thread of one block does --acquires
 *    pairs. Contended: every block takes part (after a start barrier, so all
 *    takers really compete), --acquires in all (rounded up to a multiple of
 *    the takers). Times from %globaltimer on the
 *    device: time per acquire-release, all takers together (first start to last
 *    end, / acquisitions), and per taker (its own time per pair, waiting
 *    included). The counter, incremented with plain loads and stores under the
 *    lock, must equal the acquisitions exactly: that is mutual exclusion and
 *    the fences, checked.
 * 3. its (table "its"): one lock taken once by every thread of 1 x 32, 1 x 1024
 *    and --its-blocks x 1024 threads, first per thread with no warp-turn loop
 *    (the seed's comment says this deadlocks a warp), then with the seed's
 *    warp-turn loop (__syncwarp ends each turn: since Volta a warp is not
 *    reconverged after a branch unless asked to). Under the lock each thread
 *    writes its id into the next slot of an order array, so the check is exact:
 *    every thread took the lock exactly once. Time per acquire in both.
 *
 * Claims. Since sm_70 (independent thread scheduling) the per-thread lock
 * completes: no thread of any warp times out, in every run (a fact, checked on
 * the device, so it holds under compute-sanitizer too). The sums under the lock
 * match the reference within tolerance, and every block's partial went through
 * the lock exactly once (data checks). Nothing is claimed about speed: the
 * tables report it.
 *
 * Every spin ends. An acquire gives up when it has waited --timeout-ms (on
 * %globaltimer, checked every 64 failed attempts), or when any other thread
 * gave up; give-ups are counted and fail the row's check or claim. The host
 * waits for every run with gl_stream_wait and a timeout of its own, so a run
 * can fail, but never hang. --never-release makes the first holder of each
 * per-thread run keep the lock: every other thread must time out, and the
 * claim must FAIL (exit 1), which shows that the guard works.
 *
 * Run:   make run-atomic-lock
 *        make run-atomic-lock ARGS="--part dot --n 268435456 --repeat 20"
 *        make run-atomic-lock ARGS="--part contention --threads 32,256 --blocks-per-sm 1,4"
 *        make run-atomic-lock ARGS="--part its --its-blocks 132 --timeout-ms 10000"
 *        make run-atomic-lock ARGS="--part its --never-release --timeout-ms 200"   (a FAIL on purpose)
 * Nsight Systems (make profile-atomic-lock): NVTX ranges "dot=<variant>",
 * "contention threads=T bps=B" and "its=<variant> BxT" on the stream
 * "atomic-lock". In dot, lock and atomic are one kernel each (the lock's is
 * longer by the blocks' turns at the end), two-pass two, cub its own two; the
 * one-thread kernels before each are the gate and the record reset.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>

#include "check.h"
#include "gl_cuda.h"
#include "nvtx.h"
#include "spans.cuh"

enum { PART_ALL, PART_DOT, PART_CONTENTION, PART_ITS };
enum { V_CPU_DOUBLE, V_CPU_FLOAT, V_LOCK, V_ATOMIC, V_TWO_PASS, V_CUB, N_DOT };
static const char *const dot_names[N_DOT] = {"cpu-double", "cpu-float", "lock", "atomic", "two-pass", "cub"};
enum { ITS_PER_THREAD, ITS_WARP_TURN, N_ITS };
static const char *const its_names[N_ITS] = {"per-thread", "warp-turn"};

enum {
    DOT_THREADS = 256,   /* block of the dot kernels (a multiple of 32: shuffles) */
    SUM_THREADS = 1024,  /* the one block of the two-pass second kernel */
    ITS_THREADS = 1024,  /* block of the larger its shapes */
    SPIN_CHECK = 64      /* failed attempts between two looks at the clock */
};

/* ---- the lock ----------------------------------------------------------------------------
 *
 * Why the fences. atomicCAS and atomicExch are relaxed atomics: atomic on the
 * mutex, ordering nothing else. Without fences the holder's loads of the data
 * the lock protects could be served before its CAS succeeded (from its SM's L1,
 * or moved up by the compiler) and read a value older than the last holder's
 * store, and that store could still be in flight when the atomicExch frees
 * the lock. __threadfence() (fence.sc.gpu) after the successful CAS is the
 * acquire half: nothing of the critical section is performed before the lock
 * is held. __threadfence() before the atomicExch is the release half: every
 * write of the critical section is visible to the whole GPU before any other
 * thread can see the lock free. Fence-after-strong-read and fence-before-
 * strong-write are the PTX memory model's acquire and release patterns, so the
 * holders' plain loads and stores are ordered one after another and need no
 * volatile. The fences are GPU-scope, not block-scope, because the next holder
 * may run on another SM. (The seed has neither fence; its comment reasons about
 * pre-Volta warps, and its atomicExch is there only "for readability".) */

/* The lock and what is measured about it; one per run, reset before each. */
typedef struct lock_record {
    int mutex;                   /* the seed's Lock: 0 free, 1 held */
    int pad[31];                 /* the rest of the mutex's 128-byte line: spinners touch nothing else */
    unsigned int held;           /* the protected data: acquisitions, counted by the holders with plain loads and stores */
    unsigned int pad2[31];       /* its own line too, apart from the counters below that finished takers update */
    unsigned int timeouts;       /* acquires that gave up */
    int gave_up;                 /* set by the first give-up: every spinner then stops too */
    unsigned int arrived;        /* takers at the start barrier (contention) */
    unsigned long long first_ns; /* earliest taker start (%globaltimer) */
    unsigned long long last_ns;  /* latest taker end */
    unsigned long long taker_ns; /* summed over takers: own start to own end */
} lock_record;

/* Has this wait gone on too long? Starts the clock at its first call; true
 * past the deadline, or once any other thread gave up (then count this one). */
__device__ __forceinline__ bool spin_expired(lock_record *r, unsigned long long *deadline, unsigned long long timeout_ns)
{
    unsigned long long now = gl_globaltimer();
    if (*deadline == 0) *deadline = now + timeout_ns;
    if (now <= *deadline && *(volatile int *)&r->gave_up == 0) return false;
    atomicExch(&r->gave_up, 1);
    atomicAdd(&r->timeouts, 1u);
    return true;
}

/* Take the lock (the seed's while (atomicCAS(mutex, 0, 1) != 0);), then the
 * acquire fence. Returns false if this acquire waited timeout_ns, or if any
 * other thread gave up. */
__device__ __forceinline__ bool lock_acquire(lock_record *r, unsigned long long timeout_ns)
{
    unsigned int spins = 0;
    unsigned long long deadline = 0;
    while (atomicCAS(&r->mutex, 0, 1) != 0)
        if (++spins % SPIN_CHECK == 0 && spin_expired(r, &deadline, timeout_ns)) return false;
    __threadfence();
    return true;
}

/* The release fence, then free the lock (the seed's atomicExch(mutex, 0)). */
__device__ __forceinline__ void lock_release(lock_record *r)
{
    __threadfence();
    atomicExch(&r->mutex, 0);
}

/* Note one taker's interval. */
__device__ __forceinline__ void note_taker(lock_record *r, unsigned long long t0, unsigned long long t1)
{
    atomicMin(&r->first_ns, t0);
    atomicMax(&r->last_ns, t1);
    atomicAdd(&r->taker_ns, t1 - t0);
}

/* Put the record back to its start: lock free, nothing counted. */
__global__ void reset_record(lock_record *r)
{
    r->mutex = 0;
    r->held = 0;
    r->timeouts = 0;
    r->gave_up = 0;
    r->arrived = 0;
    r->first_ns = ~0ULL;
    r->last_ns = 0;
    r->taker_ns = 0;
}

/* ---- part 1: the dot product ------------------------------------------------------------ */

/* The sum of v over the block, valid in thread 0 (blockDim a multiple of 32; one call per kernel). */
__device__ __forceinline__ float block_sum(float v)
{
    __shared__ float warp_sums[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    return v;
}

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
    float s = block_sum(thread_dot(a, b, n));
    if (threadIdx.x != 0) return;
    if (V == V_LOCK) {
        if (lock_acquire(r, timeout_ns)) {
            *c += s;             /* the seed's critical section: plain load and store, ordered by the fences */
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
    v = block_sum(v);
    if (threadIdx.x == 0) *c = v;
}

/* CUB's transform: the i-th product. */
struct product_at {
    const float *a, *b; /* the inputs */
    __host__ __device__ float operator()(long long i) const { return a[i] * b[i]; }
};

/* ---- part 2: contention -------------------------------------------------------------------- */

/* Thread 0 of each taking block (block 0 only, or all): wait for every taker,
 * then iters times acquire, count, release. */
__global__ void contend(lock_record *r, int all_blocks, unsigned int iters, unsigned long long timeout_ns)
{
    if (threadIdx.x != 0 || (!all_blocks && blockIdx.x != 0)) return;
    unsigned int takers = all_blocks ? gridDim.x : 1;
    /* The start barrier: every block is resident (the host checked occupancy), so it ends; the clock bounds it anyway. */
    atomicAdd(&r->arrived, 1u);
    unsigned int spins = 0;
    unsigned long long deadline = 0;
    while (*(volatile unsigned int *)&r->arrived < takers)
        if (++spins % SPIN_CHECK == 0 && spin_expired(r, &deadline, timeout_ns)) return;
    unsigned long long t0 = gl_globaltimer();
    for (unsigned int k = 0; k < iters; k++) {
        if (!lock_acquire(r, timeout_ns)) break;
        r->held = r->held + 1;
        lock_release(r);
    }
    note_taker(r, t0, gl_globaltimer());
}

/* ---- part 3: independent thread scheduling ------------------------------------------------------ */

/* Every thread takes the lock once and writes its id into the next slot of
 * order. never_release: the first holder keeps the lock (every other thread must time out). */
__device__ __forceinline__ void take_once(lock_record *r, unsigned int *order, unsigned long long timeout_ns,
                                          int never_release)
{
    if (!lock_acquire(r, timeout_ns)) return;
    unsigned int slot = r->held;
    order[slot] = blockIdx.x * blockDim.x + threadIdx.x;
    r->held = slot + 1;
    if (never_release && slot == 0) return;
    lock_release(r);
}

/* Per thread, no warp-turn loop: all 32 threads of a warp spin on the lock at once. */
__global__ void its_per_thread(lock_record *r, unsigned int *order, unsigned long long timeout_ns, int never_release)
{
    unsigned long long t0 = gl_globaltimer();
    take_once(r, order, timeout_ns, never_release);
    note_taker(r, t0, gl_globaltimer());
}

/* The seed's warp-turn loop: lane i takes the lock in turn i, the others wait
 * at __syncwarp (the seed relied on the warp reconverging after the if). */
__global__ void its_warp_turn(lock_record *r, unsigned int *order, unsigned long long timeout_ns)
{
    unsigned long long t0 = gl_globaltimer();
    unsigned int lane = threadIdx.x & 31;
    for (unsigned int i = 0; i < 32; i++) {
        if (lane == i) take_once(r, order, timeout_ns, 0);
        __syncwarp();
    }
    note_taker(r, t0, gl_globaltimer());
}

/* ---- host: the setup ------------------------------------------------------------------------ */

typedef struct bench {
    gl_device *dev;                 /* the device */
    cudaStream_t stream;            /* everything runs here */
    gl_event_timer timer;           /* around one dot run */
    gl_gate gate;                   /* holds the stream until a dot run is queued */
    lock_record *d_rec;             /* the lock and its counters */
    unsigned long long timeout_ns;  /* --timeout-ms: how long one acquire may wait on the device */
    double host_timeout_s;          /* how long the host waits for one run */
    /* dot */
    long long n;                    /* elements */
    const float *h_a, *h_b;         /* the inputs */
    float *d_a, *d_b;               /* on the device */
    float *d_partials;              /* two-pass: one per block */
    float *d_result;                /* the dot product */
    void *d_cub;                    /* CUB's temporary storage */
    size_t cub_bytes;               /* its size */
    unsigned int dot_blocks;        /* grid of the dot kernels */
    double ref, tol;                /* the reference, and the tolerance of every variant */
    int variant;                    /* the dot variant being run */
    double worst_abs, lo, hi;       /* over every run of it: worst |got - ref|, smallest and largest result */
    int runs, bad_runs;             /* its runs, and those outside the tolerance or with the lock not taken by every block */
    /* contention */
    unsigned int con_blocks;        /* grid */
    int con_threads;                /* block */
    unsigned int unc_iters, con_iters; /* acquisitions per taker: one taker, or every block */
    /* its */
    unsigned int *d_order;          /* ids in the order they took the lock */
    int its_variant;                /* ITS_PER_THREAD or ITS_WARP_TURN */
    unsigned int its_blocks;        /* grid */
    int its_threads;                /* block */
    int never_release;              /* --never-release (per-thread rows) */
    long long its_runs, its_failed; /* runs, and runs with a give-up or a miscount */
    unsigned long long its_timeouts; /* give-ups over every run */
} bench;

/* The lock record after a run. */
static lock_record read_record(const bench *b)
{
    lock_record h;
    CUDA_CHECK(cudaMemcpy(&h, b->d_rec, sizeof h, cudaMemcpyDeviceToHost));
    return h;
}

/* ---- host: part 1 ---------------------------------------------------------------------------- */

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

/* What one dot run left. */
typedef struct dot_result {
    double got;            /* the dot product */
    double ms;             /* its time */
    unsigned int held;     /* lock: acquisitions counted under it */
    unsigned int timeouts; /* lock: give-ups */
} dot_result;

/* One run of dot variant v: queue behind the gate, time with events, wait, read back. */
static dot_result run_dot(bench *b, int v)
{
    dot_result r = {0, 0, 0, 0};
    if (v == V_CPU_DOUBLE || v == V_CPU_FLOAT) {
        double t0 = gl_host_ns();
        r.got = v == V_CPU_DOUBLE ? dot_neumaier(b->h_a, b->h_b, b->n) : (double)dot_cpu_float(b->h_a, b->h_b, b->n);
        r.ms = (gl_host_ns() - t0) / 1e6;
        return r;
    }
    cudaStream_t s = b->stream;
    CUDA_CHECK(cudaMemsetAsync(b->d_result, 0, sizeof(float), s)); /* setup, before the clock */
    reset_record<<<1, 1, 0, s>>>(b->d_rec);
    CUDA_CHECK_LAUNCH("reset_record");
    gl_gate_close(&b->gate, s); /* everything below starts together: the events time the device, not the issue */
    gl_timer_start(&b->timer, s);
    unsigned int g = b->dot_blocks;
    if (v == V_CUB) {
        CUDA_CHECK(cub::DeviceReduce::TransformReduce(b->d_cub, b->cub_bytes, thrust::counting_iterator<long long>(0),
                                                      b->d_result, b->n, cuda::std::plus<float>{},
                                                      product_at{b->d_a, b->d_b}, 0.0f, s));
    } else {
        decltype(&dot<V_LOCK>) kernel = v == V_LOCK ? dot<V_LOCK> : v == V_ATOMIC ? dot<V_ATOMIC> : dot<V_TWO_PASS>;
        kernel<<<g, DOT_THREADS, 0, s>>>(b->d_a, b->d_b, b->n, b->d_partials, b->d_result, b->d_rec, b->timeout_ns);
        CUDA_CHECK_LAUNCH("dot");
        if (v == V_TWO_PASS) sum_partials<<<1, SUM_THREADS, 0, s>>>(b->d_partials, g, b->d_result);
    }
    CUDA_CHECK_LAUNCH("the end of a dot variant");
    gl_timer_stop(&b->timer, s);
    if (!gl_gate_open(&b->gate))
        gl_die(GL_EXIT_INTERNAL, "queueing %s took longer than the gate waits: its time would include the host's", dot_names[v]);
    gl_stream_wait(s, b->host_timeout_s, dot_names[v]);
    r.ms = gl_timer_ms(&b->timer);
    float got = 0;
    CUDA_CHECK(cudaMemcpy(&got, b->d_result, sizeof got, cudaMemcpyDeviceToHost));
    r.got = got;
    if (v == V_LOCK) {
        lock_record h = read_record(b);
        r.held = h.held;
        r.timeouts = h.timeouts;
    }
    return r;
}

/* Fold one run's result into the variant's error and spread. */
static void note_dot(bench *b, const dot_result *r)
{
    double err = fabs(r->got - b->ref);
    if (b->runs == 0 || err > b->worst_abs || isnan(err)) b->worst_abs = err;
    if (b->runs == 0 || r->got < b->lo) b->lo = r->got;
    if (b->runs == 0 || r->got > b->hi) b->hi = r->got;
    b->runs++;
    int lock_ok = b->variant != V_LOCK || (r->held == b->dot_blocks && r->timeouts == 0);
    b->bad_runs += !(err <= b->tol) || !lock_ok;
}

/* One timed repetition of the current dot variant. */
static void sample_dot(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    dot_result r = run_dot(b, b->variant);
    if (b->variant != V_CPU_DOUBLE && b->variant != V_CPU_FLOAT) note_dot(b, &r);
    gl_sample_put(smp, "time", r.ms * 1e3);
}

static void part_dot(bench *b, gl_report *rep, const gl_common *common)
{
    gl_sampler smp;
    gl_device_sampler(&smp, b->dev, common);
    gl_sampler_series(&smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
    printf("dot: n = %lld floats in [0, 1) (%.1f MB read), reference %.17g, tolerance %.3g "
           "(gl_tolerance_sum, float); %u blocks of %d: the lock is taken %u times per run\n",
           b->n, 8.0 * b->n / 1e6, b->ref, b->tol, b->dot_blocks, DOT_THREADS, b->dot_blocks);
    gl_row *rows[N_DOT] = {NULL};
    for (int v = 0; v < N_DOT; v++) {
        gl_row *row = rows[v] = gl_report_row(rep, "dot", dot_names[v]);
        gl_row_param_num(row, "n", "", 0, (double)b->n);
        if (v == V_CUB) gl_row_param(row, "blocks", "cub's");
        else if (v <= V_CPU_FLOAT) gl_row_param(row, "blocks", "-");
        else gl_row_param(row, "blocks", "%u", b->dot_blocks);
        gl_nvtx_push("dot=%s", dot_names[v]);
        b->variant = v;
        b->runs = b->bad_runs = 0;
        b->worst_abs = b->lo = b->hi = 0;

        /* Validate first; a variant that fails is not timed. */
        dot_result r = run_dot(b, v);
        int ok = 1;
        if (v == V_CPU_FLOAT) {
            gl_claim_skip(rep, row, GL_CLAIM_DATA, "cpu-float matches the reference",
                          "shown, not checked: in sequential order the error bound grows as n^2 (check.h); "
                          "error %.3g against the tolerance %.3g of a tree", fabs(r.got - b->ref), b->tol);
        } else if (v != V_CPU_DOUBLE) {
            note_dot(b, &r);
            char text[96];
            snprintf(text, sizeof text, "%s: a . b matches the double reference", dot_names[v]);
            ok = gl_check_compare(rep, row, text, GL_F64, &b->ref, &r.got, 1, b->tol, 0);
            if (v == V_LOCK)
                ok &= gl_check(rep, row, r.held == b->dot_blocks && r.timeouts == 0,
                               "lock: every block's partial went through the lock once (%u of %u acquisitions, "
                               "%u timed out)", r.held, b->dot_blocks, r.timeouts);
        }
        if (ok) {
            gl_row_work(row, "time", 8.0 * (double)b->n, (double)b->n);
            gl_sampler_run(&smp, row, sample_dot, b);
        }
        if (v == V_CPU_FLOAT) {
            gl_row_number(row, "abs_error", "", -1, 0, fabs(r.got - b->ref));
            gl_row_number(row, "rel_error", "", -1, 0, b->ref != 0 ? fabs(r.got - b->ref) / fabs(b->ref) : 0);
        } else if (v != V_CPU_DOUBLE) {
            gl_row_number(row, "abs_error", "", -1, 0, b->worst_abs);
            gl_row_number(row, "rel_error", "", -1, 0, b->ref != 0 ? b->worst_abs / fabs(b->ref) : 0);
            gl_row_number(row, "spread", "", -1, 0, b->hi - b->lo);
            if (ok && b->runs > 1)
                gl_check(rep, row, b->bad_runs == 0, "%s: every run within the tolerance, warm-up and timed ones too "
                         "(%d of %d runs; worst error %.3g, results spread over %.3g)", dot_names[v],
                         b->runs - b->bad_runs, b->runs, b->worst_abs, b->hi - b->lo);
        }
        gl_nvtx_pop();
    }
    double cub_us = gl_row_median(rows[V_CUB], "time");
    for (int v = 0; v < N_DOT && !isnan(cub_us); v++)
        if (!isnan(gl_row_median(rows[v], "time")))
            gl_row_number(rows[v], "vs_cub", "x", 2, 0, gl_row_median(rows[v], "time") / cub_us);
    gl_sampler_free(&smp);
}

/* ---- host: part 2 ---------------------------------------------------------------------------- */

/* One contention run: block 0 alone, or every block, each taker iters times. */
static lock_record run_contend(bench *b, int all_blocks, unsigned int iters)
{
    reset_record<<<1, 1, 0, b->stream>>>(b->d_rec);
    CUDA_CHECK_LAUNCH("reset_record");
    contend<<<b->con_blocks, b->con_threads, 0, b->stream>>>(b->d_rec, all_blocks, iters, b->timeout_ns);
    CUDA_CHECK_LAUNCH("contend");
    gl_stream_wait(b->stream, b->host_timeout_s, all_blocks ? "contended lock" : "uncontended lock");
    return read_record(b);
}

/* Time per acquire-release over all takers, and per taker (waiting included), in ns. */
static double per_pair_ns(const lock_record *h) { return h->held ? (double)(h->last_ns - h->first_ns) / h->held : NAN; }
static double per_taker_ns(const lock_record *h) { return h->held ? (double)h->taker_ns / h->held : NAN; }

/* One timed repetition: the uncontended run, then the contended one. */
static void sample_contend(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    lock_record u = run_contend(b, 0, b->unc_iters);
    lock_record c = run_contend(b, 1, b->con_iters);
    gl_sample_put(smp, "uncontended", per_pair_ns(&u));
    gl_sample_put(smp, "contended", per_pair_ns(&c));
    gl_sample_put(smp, "per_taker", per_taker_ns(&c));
}

static void part_contention(bench *b, gl_report *rep, const gl_common *common, const gl_int_list *threads,
                            const gl_int_list *per_sm, unsigned long long acquires)
{
    gl_sampler smp;
    gl_sampler_init(&smp, common);
    gl_sampler_series(&smp, "uncontended", "ns", 0, GL_SHOW_MIN);
    gl_sampler_series(&smp, "contended", "ns", 0, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(&smp, "per_taker", "ns", 0, 0);
    for (int i = 0; i < threads->n; i++) {
        int T = threads->v[i], fit = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, contend, T, 0));
        for (int k = 0; k < per_sm->n; k++) {
            int bps = per_sm->v[k];
            gl_row *row = gl_report_row(rep, "contention", "lock");
            gl_row_param_num(row, "threads", "", 0, T);
            gl_row_param_num(row, "blocks_per_sm", "", 0, bps);
            b->con_blocks = (unsigned int)(bps * b->dev->sms);
            b->con_threads = T;
            gl_row_param_num(row, "takers", "", 0, b->con_blocks);
            if (bps > fit) {
                gl_row_skip(row, "%d blocks of %d threads per SM do not fit at once (occupancy: %d): late blocks "
                            "would wait for early ones to finish, not for the lock", bps, T, fit);
                continue;
            }
            b->unc_iters = (unsigned int)acquires;
            b->con_iters = (unsigned int)((acquires + b->con_blocks - 1) / b->con_blocks);
            unsigned int con_total = b->con_iters * b->con_blocks;
            gl_row_param_num(row, "acquires", "", 0, (double)con_total);
            gl_nvtx_push("contention threads=%d bps=%d", T, bps);
            lock_record u = run_contend(b, 0, b->unc_iters), c = run_contend(b, 1, b->con_iters);
            int ok = gl_check(rep, row, u.held == b->unc_iters && u.timeouts == 0 && c.held == con_total && c.timeouts == 0,
                              "%d threads x %d/SM: the counter under the lock is exact, none timed out (uncontended "
                              "%u of %u, contended %u of %u; %u + %u timed out)", T, bps, u.held, b->unc_iters,
                              c.held, con_total, u.timeouts, c.timeouts);
            if (ok) {
                gl_sampler_run(&smp, row, sample_contend, b);
                const gl_value *uv = gl_row_find(row, "uncontended"), *cv = gl_row_find(row, "contended");
                if (uv && cv && uv->stats.median > 0)
                    gl_row_number(row, "contended_vs_uncontended", "x", 2, 0, cv->stats.median / uv->stats.median);
            }
            gl_nvtx_pop();
        }
    }
    gl_sampler_free(&smp);
}

/* ---- host: part 3 ---------------------------------------------------------------------------- */

/* One its run of the current variant and shape. */
static lock_record run_its(bench *b)
{
    reset_record<<<1, 1, 0, b->stream>>>(b->d_rec);
    CUDA_CHECK_LAUNCH("reset_record");
    if (b->its_variant == ITS_PER_THREAD)
        its_per_thread<<<b->its_blocks, b->its_threads, 0, b->stream>>>(b->d_rec, b->d_order, b->timeout_ns,
                                                                       b->never_release);
    else
        its_warp_turn<<<b->its_blocks, b->its_threads, 0, b->stream>>>(b->d_rec, b->d_order, b->timeout_ns);
    CUDA_CHECK_LAUNCH("its kernel");
    gl_stream_wait(b->stream, b->host_timeout_s, its_names[b->its_variant]);
    lock_record h = read_record(b);
    unsigned int want = b->its_blocks * (unsigned int)b->its_threads;
    b->its_runs++;
    b->its_failed += h.timeouts != 0 || h.held != want;
    b->its_timeouts += h.timeouts;
    return h;
}

/* One timed repetition. */
static void sample_its(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    lock_record h = run_its(b);
    gl_sample_put(smp, "per_acquire", per_pair_ns(&h));
}

/* Did every thread take the lock exactly once? Counts the ids in order[0, held). */
static unsigned int distinct_takers(const unsigned int *order, unsigned int held, unsigned int want, unsigned char *seen)
{
    memset(seen, 0, want);
    unsigned int distinct = 0;
    for (unsigned int i = 0; i < held; i++)
        if (order[i] < want && !seen[order[i]]) {
            seen[order[i]] = 1;
            distinct++;
        }
    return distinct;
}

static void part_its(bench *b, gl_report *rep, const gl_common *common, int its_blocks)
{
    int shapes[3][2] = {{1, 32}, {1, ITS_THREADS}, {its_blocks, ITS_THREADS}};
    int n_shapes = its_blocks > 1 ? 3 : 2;
    unsigned int max_want = (unsigned int)(its_blocks > 1 ? its_blocks : 1) * ITS_THREADS;
    unsigned int *h_order = (unsigned int *)gl_xmalloc(sizeof(unsigned int) * max_want);
    unsigned char *seen = (unsigned char *)gl_xmalloc(max_want);
    gl_sampler smp;
    gl_sampler_init(&smp, common);
    gl_sampler_series(&smp, "per_acquire", "ns", 0, GL_SHOW_MIN | GL_SHOW_NOISE);
    int its_capable = b->dev->major >= 7;
    for (int s = 0; s < n_shapes; s++) {
        double per_thread_ns = NAN;
        for (int v = 0; v < N_ITS; v++) {
            b->its_variant = v;
            b->its_blocks = (unsigned int)shapes[s][0];
            b->its_threads = shapes[s][1];
            unsigned int want = b->its_blocks * (unsigned int)b->its_threads;
            gl_row *row = gl_report_row(rep, "its", its_names[v]);
            gl_row_param_num(row, "blocks", "", 0, b->its_blocks);
            gl_row_param_num(row, "threads", "", 0, b->its_threads);
            gl_row_param_num(row, "acquires", "", 0, want);
            gl_nvtx_push("its=%s %ux%d", its_names[v], b->its_blocks, b->its_threads);
            b->its_runs = b->its_failed = 0;
            b->its_timeouts = 0;

            lock_record h = run_its(b);
            unsigned int held = h.held < want ? h.held : want;
            CUDA_CHECK(cudaMemcpy(h_order, b->d_order, sizeof(unsigned int) * held, cudaMemcpyDeviceToHost));
            unsigned int distinct = distinct_takers(h_order, held, want, seen);
            int ok = gl_check(rep, row, h.held == want && distinct == want && h.timeouts == 0,
                              "%s %ux%d: every thread took the lock exactly once (%u acquisitions of %u, %u distinct "
                              "threads, %u timed out)", its_names[v], b->its_blocks, b->its_threads, h.held, want,
                              distinct, h.timeouts);
            if (b->its_threads == 32 && h.held > 0) {
                printf("%s 1x32: the lanes took the lock in the order", its_names[v]);
                for (unsigned int i = 0; i < held; i++) printf(" %u", h_order[i]);
                printf("\n");
            }
            if (ok) gl_sampler_run(&smp, row, sample_its, b);
            gl_row_text(row, "complete_runs", 0, "%lld of %lld", b->its_runs - b->its_failed, b->its_runs);
            gl_row_number(row, "timeouts", "", 0, 0, (double)b->its_timeouts);
            double med = gl_row_median(row, "per_acquire");
            if (v == ITS_PER_THREAD) per_thread_ns = med;
            else if (!isnan(med) && !isnan(per_thread_ns) && per_thread_ns > 0)
                gl_row_number(row, "vs_per_thread", "x", 2, 0, med / per_thread_ns);

            if (v == ITS_PER_THREAD) {
                char text[192];
                snprintf(text, sizeof text, "per-thread lock, %ux%d: every thread of every warp takes it without a "
                         "warp-turn loop, none times out (independent thread scheduling, sm_70+)",
                         b->its_blocks, b->its_threads);
                if (!its_capable)
                    gl_claim_skip(rep, row, GL_CLAIM_ORDERING, text, "compute capability %d.%d: before sm_70 a warp "
                                  "can deadlock on it (the device timeout would end the run)", b->dev->major, b->dev->minor);
                else if (b->its_failed == 0)
                    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 1, text, "%u of %u threads took it in each of %lld runs; "
                                  "0 timed out (device deadline %.0f ms per acquire)", want, want, b->its_runs,
                                  b->timeout_ns / 1e6);
                else
                    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 0, text, "timed out: %llu acquires gave up (the "
                                  "first after %.0f ms of waiting on the device) in %lld of %lld runs%s",
                                  b->its_timeouts, b->timeout_ns / 1e6, b->its_failed, b->its_runs,
                                  b->never_release ? " (--never-release: the first holder kept the lock)" : "");
            }
            gl_nvtx_pop();
        }
    }
    gl_sampler_free(&smp);
    free(seen);
    free(h_order);
}

/* ---- host: main ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "atomic-lock",
        "what does the seed's atomicCAS lock cost against float atomics, a second pass and CUB, and does a "
        "per-thread lock still deadlock a warp?",
        "Parts: dot (the seed's dot product finished under the lock, with atomicAdd, in two passes and by CUB,\n"
        "each against a double reference), contention (uncontended and contended acquire-release, per block size\n"
        "and blocks per SM), its (one lock taken by every thread, per thread and with the seed's warp-turn loop).\n"
        "Every spin gives up after --timeout-ms on the device: a timeout is a failed check or claim, never a hang."};
    unsigned long long n = 1ULL << 26, acquires = 16384;
    int part = PART_ALL, its_blocks = 8, never_release = 0;
    double timeout_ms = 2000;
    gl_int_list threads = {NULL, 0}, per_sm = {NULL, 0};
    gl_option opts[] = {
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|dot|contention|its", NULL, "which part to run", 0},
        {"n", GL_OPT_U64, &n, 1, 268435456.0, NULL, "1048583", "dot: elements of a and b (1..2^28)", 0},
        {"threads", GL_OPT_INT_LIST, &threads, 1, 1024, NULL, "1,32,1024",
         "contention: threads per block, powers of two (none given: 1,2,4,...,1024)", 0},
        {"blocks-per-sm", GL_OPT_INT_LIST, &per_sm, 1, 32, NULL, "1,4",
         "contention: blocks per SM, each block one lock taker (none given: 1,2,3,4)", 0},
        {"acquires", GL_OPT_U64, &acquires, 1, 1e7, NULL, "1024",
         "contention: acquire-release pairs per run (uncontended: all by one thread; contended: shared by the takers)", 0},
        {"its-blocks", GL_OPT_INT, &its_blocks, 1, 1024, NULL, "1",
         "its: blocks of 1024 threads in the largest shape (1: only the 1x32 and 1x1024 shapes)", 0},
        {"timeout-ms", GL_OPT_DOUBLE, &timeout_ms, 1, 600000, NULL, NULL,
         "how long one acquire may wait on the device before it gives up (a failed check, never a hang)", 0},
        {"never-release", GL_OPT_FLAG, &never_release, 0, 0, NULL, NULL,
         "its: the first holder of each per-thread run keeps the lock, so every other thread times out (a FAIL on purpose)", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    gl_gate_prepare(); /* before the runtime starts: see gl_cuda.h */
    if (common.trace_path || common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: atomic-lock records no spans (its timers are per run, not per block)");
    if (never_release && part != PART_ALL && part != PART_ITS)
        gl_die(GL_EXIT_USAGE, "--never-release applies to --part its (or all)");
    static int default_threads[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, default_per_sm[] = {1, 2, 3, 4};
    if (threads.n == 0) {
        threads.v = default_threads;
        threads.n = GL_ARRAY_LEN(default_threads);
    }
    if (per_sm.n == 0) {
        per_sm.v = default_per_sm;
        per_sm.n = GL_ARRAY_LEN(default_per_sm);
    }
    for (int i = 0; i < threads.n; i++)
        if (threads.v[i] & (threads.v[i] - 1))
            gl_die(GL_EXIT_USAGE, "--threads %d: must be a power of two (1, 2, 4, ..., 1024)", threads.v[i]);

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);

    bench b;
    memset(&b, 0, sizeof b);
    b.dev = &dev;
    b.n = (long long)n;
    b.never_release = never_release;
    b.timeout_ns = (unsigned long long)(timeout_ms * 1e6);
    /* A run that makes progress ends long before this; one that does not is ended by the device's own timeout first. */
    b.host_timeout_s = 60 + 4 * timeout_ms / 1e3;
    CUDA_CHECK(cudaMalloc((void **)&b.d_rec, sizeof(lock_record)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(b.stream, "atomic-lock");
    gl_timer_create(&b.timer);
    gl_gate_create(&b.gate, !common.skip_timing_claims); /* sanitizers serialize launches: no gate there */

    float *h_a = NULL, *h_b = NULL;
    if (part == PART_ALL || part == PART_DOT) {
        int per_sm_dot = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_dot, dot<V_LOCK>, DOT_THREADS, 0));
        long long want = (b.n / 4 + DOT_THREADS - 1) / DOT_THREADS; /* one float4 pair per thread at least */
        long long most = (long long)dev.sms * (per_sm_dot > 0 ? per_sm_dot : 1);
        b.dot_blocks = (unsigned int)(want < 1 ? 1 : want > most ? most : want);
        CUDA_CHECK(cub::DeviceReduce::TransformReduce(NULL, b.cub_bytes, thrust::counting_iterator<long long>(0),
                                                      (float *)NULL, b.n, cuda::std::plus<float>{},
                                                      product_at{NULL, NULL}, 0.0f, b.stream));
        size_t data_bytes = 2 * sizeof(float) * (size_t)b.n + sizeof(float) * ((size_t)b.dot_blocks + 1) + b.cub_bytes;
        size_t free_b = 0, total_b = 0;
        CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (data_bytes + 2 * (size_t)dev.l2_bytes + ((size_t)64 << 20) > free_b)
            gl_no_gpu("--n %lld needs %.2f GB of device memory; %.2f GB of %.2f GB is free", b.n, data_bytes / 1e9,
                      free_b / 1e9, total_b / 1e9);
        h_a = (float *)gl_xmalloc(sizeof(float) * (size_t)b.n);
        h_b = (float *)gl_xmalloc(sizeof(float) * (size_t)b.n);
        gl_fill_f32(h_a, (size_t)b.n, common.seed, 0, 0.0f, 1.0f);
        gl_fill_f32(h_b, (size_t)b.n, common.seed, 1, 0.0f, 1.0f);
        b.h_a = h_a;
        b.h_b = h_b;
        b.ref = dot_reference(h_a, h_b, b.n);
        b.tol = gl_tolerance_sum((size_t)b.n, 1.0, 0); /* every product is below 1 */
        CUDA_CHECK(cudaMalloc((void **)&b.d_a, sizeof(float) * (size_t)b.n));
        CUDA_CHECK(cudaMalloc((void **)&b.d_b, sizeof(float) * (size_t)b.n));
        CUDA_CHECK(cudaMemcpy(b.d_a, h_a, sizeof(float) * (size_t)b.n, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(b.d_b, h_b, sizeof(float) * (size_t)b.n, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMalloc((void **)&b.d_partials, sizeof(float) * b.dot_blocks));
        CUDA_CHECK(cudaMalloc((void **)&b.d_result, sizeof(float)));
        CUDA_CHECK(cudaMalloc(&b.d_cub, b.cub_bytes > 0 ? b.cub_bytes : 1));
        part_dot(&b, &rep, &common);
    }
    if (part == PART_ALL || part == PART_CONTENTION) {
        printf("contention: %llu acquire-release pairs per run; %d SMs\n", acquires, dev.sms);
        part_contention(&b, &rep, &common, &threads, &per_sm, acquires);
    }
    if (part == PART_ALL || part == PART_ITS) {
        CUDA_CHECK(cudaMalloc((void **)&b.d_order, sizeof(unsigned int) * (size_t)its_blocks * ITS_THREADS));
        part_its(&b, &rep, &common, its_blocks);
    }

    gl_timer_destroy(&b.timer);
    gl_gate_destroy(&b.gate);
    void *bufs[] = {b.d_rec, b.d_a, b.d_b, b.d_partials, b.d_result, b.d_cub, b.d_order};
    for (size_t i = 0; i < GL_ARRAY_LEN(bufs); i++) CUDA_CHECK(cudaFree(bufs[i]));
    CUDA_CHECK(cudaStreamDestroy(b.stream));
    if (threads.v != default_threads) free(threads.v);
    if (per_sm.v != default_per_sm) free(per_sm.v);
    free(h_a);
    free(h_b);
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
