/* warp-lock.cu - one atomic Lock taken by every thread of a warp: the textbook's deadlock, since independent thread scheduling.
 *
 * Question: since independent thread scheduling (sm_70), does a lock taken per thread still deadlock a warp, and what does the seed's warp-turn loop cost?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * The seed (CUDA by Example, appendix A) makes the threads of a warp take turns at a lock, because on the GPUs of
 * its day a warp whose threads all spun on one lock never let the winner reach its unlock. Here one lock (lock.cuh)
 * is taken once by every thread of 1 x 32, 1 x 1024 and --its-blocks x 1024 threads:
 *   per-thread  no warp-turn loop (the seed's comment says this deadlocks a warp)
 *   warp-turn   the seed's loop: lane i takes the lock in turn i; __syncwarp ends each turn
 * Under the lock each thread writes its id into the next slot of an order array, so the check is exact: every
 * thread took the lock exactly once, none timed out. Time per acquire (%globaltimer, first start to last end), and
 * warp-turn's against per-thread's; the lanes' order in one warp is printed.
 * Claim (per-thread rows): since sm_70 the per-thread lock completes, no thread timing out, in every run (a fact
 * checked on the device, so judged under compute-sanitizer too; SKIP before sm_70). --never-release makes the first
 * holder of each per-thread run keep the lock: every other thread must time out and the claim FAIL (exit 1).
 *
 * Run:   make run-warp-lock ARGS="--its-blocks 132 --timeout-ms 10000"
 *        make run-warp-lock ARGS="--never-release --timeout-ms 200"   (a FAIL on purpose)
 * Nsight Systems (make profile-warp-lock): an NVTX range "its=<variant> BxT" per row on the stream "warp-lock";
 * each run is the one-thread reset kernel, then its_per_thread or its_warp_turn.
 */
#include "lock.cuh" /* and math.h, stdio.h, stdlib.h, string.h */

enum { ITS_PER_THREAD, ITS_WARP_TURN, N_ITS };
static const char *const its_names[N_ITS] = {"per-thread", "warp-turn"};

enum { ITS_THREADS = 1024 }; /* block of the larger shapes */

/* ---- the kernels ------------------------------------------------------------------------------ */

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

/* ---- host ------------------------------------------------------------------------------------- */

typedef struct bench {
    lock_bench lb;                   /* report, device, stream, the lock */
    unsigned int *d_order;           /* ids in the order they took the lock */
    int variant;                     /* ITS_PER_THREAD or ITS_WARP_TURN */
    unsigned int blocks;             /* grid */
    int threads;                     /* block */
    int never_release;               /* --never-release (per-thread rows) */
    long long runs, failed;          /* runs of the row, and runs with a give-up or a miscount */
    unsigned long long timeouts;     /* give-ups over every run of the row */
} bench;

/* One run of the current variant and shape. */
static lock_record run_its(bench *b)
{
    lock_reset(b->lb.d_rec, b->lb.stream);
    if (b->variant == ITS_PER_THREAD)
        its_per_thread<<<b->blocks, b->threads, 0, b->lb.stream>>>(b->lb.d_rec, b->d_order, b->lb.timeout_ns,
                                                                   b->never_release);
    else
        its_warp_turn<<<b->blocks, b->threads, 0, b->lb.stream>>>(b->lb.d_rec, b->d_order, b->lb.timeout_ns);
    CUDA_CHECK_LAUNCH("its kernel");
    lock_record h = lock_bench_wait(&b->lb, its_names[b->variant]);
    unsigned int want = b->blocks * (unsigned int)b->threads;
    b->runs++;
    b->failed += h.timeouts != 0 || h.held != want;
    b->timeouts += h.timeouts;
    return h;
}

/* One timed repetition. */
static void sample_its(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    lock_record h = run_its(b);
    gl_sample_put(smp, "per_acquire", lock_per_pair_ns(&h));
}

/* Did every thread take the lock exactly once? Counts the distinct ids below want in order[0, held). */
static unsigned int distinct_takers(const unsigned int *order, unsigned int held, unsigned int want)
{
    unsigned int distinct = 0;
    unsigned char *seen = (unsigned char *)gl_xcalloc(want, 1);
    for (unsigned int i = 0; i < held; i++)
        if (order[i] < want && !seen[order[i]]) seen[order[i]] = 1, distinct++;
    free(seen);
    return distinct;
}

/* The claim of a per-thread row: since sm_70 every thread of every warp takes the lock, in every run. */
static void judge_per_thread(bench *b, gl_row *row, unsigned int want)
{
    const gl_device *dev = &b->lb.dev;
    char text[192];
    snprintf(text, sizeof text, "per-thread lock, %ux%d: every thread of every warp takes it without a "
             "warp-turn loop, none times out (independent thread scheduling, sm_70+)", b->blocks, b->threads);
    if (dev->major < 7)
        gl_claim_skip(&b->lb.rep, row, GL_CLAIM_ORDERING, text, "compute capability %d.%d: before sm_70 a warp "
                      "can deadlock on it (the device timeout would end the run)", dev->major, dev->minor);
    else if (b->failed == 0)
        gl_claim_fact(&b->lb.rep, row, GL_CLAIM_ORDERING, 1, text, "%u of %u threads took it in each of %lld runs; "
                      "0 timed out (device deadline %.0f ms per acquire)", want, want, b->runs,
                      b->lb.timeout_ns / 1e6);
    else
        gl_claim_fact(&b->lb.rep, row, GL_CLAIM_ORDERING, 0, text, "timed out: %llu acquires gave up (the "
                      "first after %.0f ms of waiting on the device) in %lld of %lld runs%s",
                      b->timeouts, b->lb.timeout_ns / 1e6, b->failed, b->runs,
                      b->never_release ? " (--never-release: the first holder kept the lock)" : "");
}

/* Per shape, both variants: checked exactly, timed, and the per-thread claim judged. */
static void every_shape(bench *b, int its_blocks)
{
    gl_report *rep = &b->lb.rep;
    int shapes[3][2] = {{1, 32}, {1, ITS_THREADS}, {its_blocks, ITS_THREADS}};
    int n_shapes = its_blocks > 1 ? 3 : 2;
    unsigned int max_want = (unsigned int)(its_blocks > 1 ? its_blocks : 1) * ITS_THREADS;
    unsigned int *h_order = (unsigned int *)gl_xmalloc(sizeof(unsigned int) * max_want);
    gl_sampler smp;
    gl_sampler_init(&smp, &b->lb.common);
    gl_sampler_series(&smp, "per_acquire", "ns", 0, GL_SHOW_MIN | GL_SHOW_NOISE);
    for (int s = 0; s < n_shapes; s++) {
        double per_thread_ns = NAN;
        for (int v = 0; v < N_ITS; v++) {
            b->variant = v;
            b->blocks = (unsigned int)shapes[s][0];
            b->threads = shapes[s][1];
            unsigned int want = b->blocks * (unsigned int)b->threads;
            gl_row *row = gl_report_row(rep, "its", its_names[v]);
            gl_row_param_num(row, "blocks", "", 0, b->blocks);
            gl_row_param_num(row, "threads", "", 0, b->threads);
            gl_row_param_num(row, "acquires", "", 0, want);
            gl_nvtx_push("its=%s %ux%d", its_names[v], b->blocks, b->threads);
            b->runs = b->failed = 0, b->timeouts = 0;
            lock_record h = run_its(b);
            unsigned int held = h.held < want ? h.held : want;
            CUDA_CHECK(cudaMemcpy(h_order, b->d_order, sizeof(unsigned int) * held, cudaMemcpyDeviceToHost));
            unsigned int distinct = distinct_takers(h_order, held, want);
            int ok = gl_check(rep, row, h.held == want && distinct == want && h.timeouts == 0,
                              "%s %ux%d: every thread took the lock exactly once (%u acquisitions of %u, %u distinct "
                              "threads, %u timed out)", its_names[v], b->blocks, b->threads, h.held, want,
                              distinct, h.timeouts);
            if (b->threads == 32 && h.held > 0) {
                printf("%s 1x32: the lanes took the lock in the order", its_names[v]);
                for (unsigned int i = 0; i < held; i++) printf(" %u", h_order[i]);
                printf("\n");
            }
            if (ok) gl_sampler_run(&smp, row, sample_its, b);
            gl_row_text(row, "complete_runs", 0, "%lld of %lld", b->runs - b->failed, b->runs);
            gl_row_number(row, "timeouts", "", 0, 0, (double)b->timeouts);
            double med = gl_row_median(row, "per_acquire");
            if (v == ITS_PER_THREAD) per_thread_ns = med, judge_per_thread(b, row, want);
            else if (!isnan(med) && !isnan(per_thread_ns) && per_thread_ns > 0)
                gl_row_number(row, "vs_per_thread", "x", 2, 0, med / per_thread_ns);
            gl_nvtx_pop();
        }
    }
    gl_sampler_free(&smp);
    free(h_order);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "warp-lock",
        "since independent thread scheduling (sm_70), does a lock taken per thread still deadlock a warp, and what "
        "does the seed's warp-turn loop cost?",
        "One lock taken once by every thread of 1x32, 1x1024 and --its-blocks x 1024 threads, per thread and with\n"
        "the seed's warp-turn loop; each thread's id is recorded under the lock, so the check is exact. Every spin\n"
        "gives up after --timeout-ms on the device: a timeout is a failed check or claim, never a hang."};
    static bench b;
    int its_blocks = 8;
    gl_option opts[] = {
        {"its-blocks", GL_OPT_INT, &its_blocks, 1, 1024, NULL, "1",
         "blocks of 1024 threads in the largest shape (1: only the 1x32 and 1x1024 shapes)", 0},
        LOCK_TIMEOUT_OPTION(&b.lb.timeout_ms),
        {"never-release", GL_OPT_FLAG, &b.never_release, 0, 0, NULL, NULL,
         "the first holder of each per-thread run keeps the lock, so every other thread times out (a FAIL on purpose)", 0},
    };
    lock_bench_parse(&b.lb, &exp, opts, GL_ARRAY_LEN(opts), argc, argv);
    lock_bench_open(&b.lb, exp.name);
    CUDA_CHECK(cudaMalloc((void **)&b.d_order, sizeof(unsigned int) * (size_t)its_blocks * ITS_THREADS));
    every_shape(&b, its_blocks);
    CUDA_CHECK(cudaFree(b.d_order));
    return lock_bench_close(&b.lb);
}
