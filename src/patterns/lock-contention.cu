/* lock-contention.cu - what one acquire-release of the textbook's atomic Lock costs, alone and with every block competing.
 *
 * Question: what does one acquire-release of the seed's atomicCAS lock cost, alone and with one thread of every block competing for it?
 * Build: none
 * Sanitize: --quick --profile --acquires 64 --skip-timing-claims
 *
 * Per block size (--threads, powers of two to 1024) and --blocks-per-sm (grid = that x #SMs where the occupancy
 * calculator says they fit at once, else the row is SKIP), thread 0 of each taking block loops acquire, a plain
 * increment of a counter, release (lock.cuh's lock; the other threads exit at once, as the seed's do).
 * Uncontended: one thread of one block does --acquires pairs. Contended: every block, after a start barrier so that
 * all takers compete, --acquires in all (rounded up to a multiple of the takers).
 * Times come from %globaltimer: per acquire-release over all takers (first start to last end, / acquisitions) and
 * per taker (its own time per pair, waiting included). Check: the counter kept under the lock with plain loads and
 * stores equals the acquisitions exactly (mutual exclusion and the fences), no acquire timed out. No claims: the
 * table gives contended over uncontended.
 *
 * Run:   make run-lock-contention ARGS="--threads 32,256 --blocks-per-sm 1,4 --acquires 100000"
 * Nsight Systems (make profile-lock-contention): an NVTX range "contention threads=T bps=B" per row on the stream
 * "lock-contention"; each run is the one-thread reset kernel, then contend (uncontended: one block works, the others
 * exit at once; contended: thread 0 of every block).
 */
#include "lock.cuh" /* and math.h, stdio.h, stdlib.h, string.h */

/* ---- the kernel ----------------------------------------------------------------------------- */

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

/* ---- host ------------------------------------------------------------------------------------ */

typedef struct bench {
    lock_bench lb;                     /* report, device, stream, the lock */
    unsigned int blocks;               /* grid */
    int threads;                       /* block */
    unsigned int unc_iters, con_iters; /* acquisitions per taker: one taker, or every block */
} bench;

/* One run: block 0 alone, or every block, each taker iters times. */
static lock_record run_contend(bench *b, int all_blocks, unsigned int iters)
{
    lock_reset(b->lb.d_rec, b->lb.stream);
    contend<<<b->blocks, b->threads, 0, b->lb.stream>>>(b->lb.d_rec, all_blocks, iters, b->lb.timeout_ns);
    CUDA_CHECK_LAUNCH("contend");
    return lock_bench_wait(&b->lb, all_blocks ? "contended lock" : "uncontended lock");
}

/* Time per acquire-release of one taker, waiting included, averaged over the takers, in ns. */
static double per_taker_ns(const lock_record *h) { return h->held ? (double)h->taker_ns / h->held : NAN; }

/* One timed repetition: the uncontended run, then the contended one. */
static void sample_contend(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    lock_record u = run_contend(b, 0, b->unc_iters);
    lock_record c = run_contend(b, 1, b->con_iters);
    gl_sample_put(smp, "uncontended", lock_per_pair_ns(&u));
    gl_sample_put(smp, "contended", lock_per_pair_ns(&c));
    gl_sample_put(smp, "per_taker", per_taker_ns(&c));
}

/* One row per block size and blocks per SM: checked first, then timed. */
static void contention(bench *b, const gl_int_list *threads, const gl_int_list *per_sm, unsigned long long acquires)
{
    gl_report *rep = &b->lb.rep;
    gl_sampler smp;
    gl_sampler_init(&smp, &b->lb.common);
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
            b->blocks = (unsigned int)(bps * b->lb.dev.sms);
            b->threads = T;
            gl_row_param_num(row, "takers", "", 0, b->blocks);
            if (bps > fit) {
                gl_row_skip(row, "%d blocks of %d threads per SM do not fit at once (occupancy: %d): late blocks "
                            "would wait for early ones to finish, not for the lock", bps, T, fit);
                continue;
            }
            b->unc_iters = (unsigned int)acquires;
            b->con_iters = (unsigned int)((acquires + b->blocks - 1) / b->blocks);
            unsigned int con_total = b->con_iters * b->blocks;
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

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "lock-contention",
        "what does one acquire-release of the seed's atomicCAS lock cost, alone and with one thread of every block "
        "competing for it?",
        "Per block size (--threads) and blocks per SM (--blocks-per-sm): --acquires acquire-release pairs by one\n"
        "thread alone, then shared by thread 0 of every block, timed on the device; the counter kept under the lock\n"
        "must equal the acquisitions. Every spin gives up after --timeout-ms on the device: a timeout is a failed\n"
        "check, never a hang."};
    static bench b;
    unsigned long long acquires = 16384;
    gl_int_list threads = {NULL, 0}, per_sm = {NULL, 0};
    gl_option opts[] = {
        {"threads", GL_OPT_INT_LIST, &threads, 1, 1024, NULL, "1,32,1024",
         "threads per block, powers of two (none given: 1,2,4,...,1024)", 0},
        {"blocks-per-sm", GL_OPT_INT_LIST, &per_sm, 1, 32, NULL, "1,4",
         "blocks per SM, each block one lock taker (none given: 1,2,3,4)", 0},
        {"acquires", GL_OPT_U64, &acquires, 1, 1e7, NULL, "1024",
         "acquire-release pairs per run (uncontended: all by one thread; contended: shared by the takers)", 0},
        LOCK_TIMEOUT_OPTION(&b.lb.timeout_ms),
    };
    lock_bench_parse(&b.lb, &exp, opts, GL_ARRAY_LEN(opts), argc, argv);
    static int default_threads[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, default_per_sm[] = {1, 2, 3, 4};
    if (threads.n == 0) threads.v = default_threads, threads.n = GL_ARRAY_LEN(default_threads);
    if (per_sm.n == 0) per_sm.v = default_per_sm, per_sm.n = GL_ARRAY_LEN(default_per_sm);
    for (int i = 0; i < threads.n; i++)
        if (threads.v[i] & (threads.v[i] - 1))
            gl_die(GL_EXIT_USAGE, "--threads %d: must be a power of two (1, 2, 4, ..., 1024)", threads.v[i]);

    lock_bench_open(&b.lb, exp.name);
    printf("contention: %llu acquire-release pairs per run; %d SMs\n", acquires, b.lb.dev.sms);
    contention(&b, &threads, &per_sm, acquires);
    if (threads.v != default_threads) free(threads.v);
    if (per_sm.v != default_per_sm) free(per_sm.v);
    return lock_bench_close(&b.lb);
}
