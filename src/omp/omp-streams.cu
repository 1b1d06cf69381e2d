/* omp-streams.cu - host threads dispatching streams: one OpenMP thread per stream, against one thread.
 *
 * Question: when does issuing S streams' kernels from several host threads (OpenMP) beat one thread, and what do the threads contend for?
 * Build: openmp
 * Sanitize: --quick --profile --kernel-us 10 --threads 1,4 --streams 8 --kernels 2 --skip-timing-claims
 *
 * The textbook's pattern: omp_set_num_threads(n_stream), then inside
 * "#pragma omp parallel" thread i launches its stream's kernels into
 * stream[i]. Its timeline showed launch overhead only (the kernels were
 * empty); here every kernel spins for T us and leaves a result.
 *
 * Setup: S non-blocking streams (--streams) x K work kernels (--kernels) of
 * T us (--kernel-us, a list: a short and a long case), one block of 32
 * threads each, dispatched four ways (--mode):
 *   depth       one thread, stream by stream (gl_sched_issue_order);
 *   breadth     one thread, kernel index by kernel index;
 *   omp         N OpenMP threads (--threads, a list), the S streams divided
 *               among them in contiguous blocks; each thread issues its own
 *               streams stream by stream (the seed's parallel region when N = S);
 *   per-thread  the same N threads, each launching its share into its own
 *               per-thread default stream (the cudaStreamPerThread handle
 *               from that thread: the binary is not built with
 *               --default-stream per-thread), so N streams, not S.
 * N > S leaves threads with nothing to issue: such a row is SKIP, saying so.
 *
 * Model: the core's scheduling simulation (gl_sched.h) of a program of N host
 * threads, each issuing its own calls in order, run on the GPU by
 * gl_sched_run (gl_schedrun.h) and then simulated with every call's measured
 * host time. The threads' contention on the driver's locks is in those
 * times, measured, not modelled: the model predicts what the device does
 * with calls that arrive when they did. Racing threads' calls overlap,
 * though, and the order in which they reached the driver inside their calls
 * is not recorded; the queue a call takes depends on it (gl_sched.h,
 * "Queues": a stream stays in its queue while nothing else went in behind
 * it). So each run is also simulated over that order
 * (gl_sched_simulate_spread: every call's submission moved within its own
 * call), and the prediction is the range of makespans that gives (with one
 * thread, whose calls keep their order, a narrow one). Its closed forms, the textbook's
 * explanation: with i(N) the host time per launch call when N threads
 * launch at once, one thread needs S*K*i(1) to issue everything and N
 * threads at best S*K*i(N)/N; the makespan is about
 *     max(issue window + launch latency + T, K*T (+ the false dependency
 *         when a queue holds several streams))
 * so parallel dispatch helps only when the issue window is the larger term
 * (short kernels, many streams) and only as far as i(N)/N falls below i(1).
 * With long kernels K*T dominates, and against breadth-first issue (no false
 * dependency) the speed-up is about 1. Against depth-first the issue order
 * matters too: depth-first at S > C queues whole streams behind one another
 * ((ceil(S/C)*(K-1)+1)*T), while calls from interleaved threads switch
 * streams at nearly every call and go round-robin over the queues, which can
 * free those streams (N = S) or tangle them further (a thread with several
 * streams behind another's). The simulation works out which; no closed form
 * here does.
 *
 * At C = 1 (--connections 1) every call goes into the one in-order queue in
 * the order the calls reach the driver: the queue holds the threads' calls
 * interleaved, so its stream order is no one thread's issue order, while
 * each thread's own kernels keep that thread's order.
 *
 * Report (one table per kernel duration): the host's time per launch call
 * (median of return minus call, all threads), one thread's dispatch time per
 * launch (its first call to its last return, over its launches, averaged
 * over the threads), the whole issue window per launch, the launch call's
 * cost against one thread's (the driver's locks), makespan and peak
 * concurrency beside the model's, and each speed-up over single-thread
 * depth-first and breadth-first dispatch beside the model's.
 *
 * Claims: every kernel ran its full time and left its result (check);
 * makespan within the simulation's range, run by run: each run against the
 * simulation of its own calls, within --tolerance (10%) plus twice the
 * %globaltimer tick, in at least half the runs (a run in which an OpenMP
 * thread started late is predicted as such); peak concurrency (kernels
 * together for at least the dispatch gap) within the simulations' range; for
 * omp and per-thread rows, the speed-up over single-thread depth-first and
 * over breadth-first, run by run within --tolerance of the range its own
 * simulation gives, in the model's words: makes no difference (the range
 * within --tolerance of 1), helps (above 1), is slower (below 1), or may help
 * or not, by how the calls race (across 1); the median measured speed-up is
 * printed beside the words (whether it agrees), not judged. At C = 1:
 * each thread's kernels start in the order it issued them (ordering: holds
 * under tools that serialize kernels); with N > 1 threads the start order interleaves the threads
 * exactly when the model says it does (counted as thread switches in the
 * start order; N - 1 would be one thread after another). The median start
 * error is reported, not claimed: with 10 us kernels 5% of T is 0.5 us,
 * within the spread of the launch latency itself.
 *
 * Run:   make run-omp-streams
 *        make run-omp-streams ARGS="--connections 1,8"
 *        make run-omp-streams ARGS="--mode omp --threads 1,2,4,8 --kernel-us 10 --streams 32"
 * Nsight Systems (make profile-omp-streams): NVTX ranges "omp-streams T=<us>
 * <variant> C=<C>"; streams are named "stream N"; the CUDA API rows of the
 * OpenMP threads show their cudaLaunchKernel calls side by side, and how
 * they stretch as threads are added. --trace and --timeline show each run's
 * host threads (one "launch call" slice per call, on the %globaltimer axis)
 * above its streams, and the model's timeline of the same run beside it.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_trace.h"

enum { MODE_ALL, MODE_OMP, MODE_DEPTH, MODE_BREADTH, MODE_PER_THREAD };
enum { BLOCK_THREADS = 32 };
enum { SPREAD_DRAWS = 32 }; /* simulations per run over the order the racing calls reached the driver */

static const char *mode_name(int mode)
{
    static const char *const names[] = {"all", "omp", "depth", "breadth", "per-thread"};
    return names[mode];
}

/* ---- one configuration: its program, its run, and what the samples need ---------------- */

typedef struct omp_row {
    int mode;                   /* MODE_DEPTH .. MODE_PER_THREAD */
    int threads;                /* host threads N (1 for depth and breadth) */
    int streams, kernels;       /* S and K */
    double kernel_us;           /* T */
    int device;                 /* CUDA ordinal, made current in every OpenMP thread */
    double slack_ns;            /* two %globaltimer ticks */
    gl_sched_program prog;      /* the work, as the model's program */
    gl_sched_run run;           /* the same program on the GPU */
    int *thread_of;             /* kernel id (span slot) -> the host thread that launched it */
    int n_ids;                  /* length of thread_of */
    int team_min;               /* the smallest OpenMP team any run got */
    gl_buf order;               /* the last run's kernel start order, by thread (evidence) */
    gl_buf each;                /* the last run's dispatch time per launch of each thread */
    double tolerance, slack_ms; /* --tolerance, and two timer ticks */
    double base_model[2];       /* single-thread depth-first and breadth-first rows' simulated makespan (ms), NAN if not run */
    double base_measured[2];    /* and their measured makespan */
} omp_row;

/* The work as a program: S streams (or N per-thread streams) x K kernels, each
 * thread's calls in the order it makes them. Labels are kernel indices,
 * tracks stream indices (per-thread: thread indices). */
static void build_program(omp_row *c, int per_sm)
{
    gl_sched_program *p = &c->prog;
    int S = c->streams, K = c->kernels, N = c->threads;
    double T_ns = c->kernel_us * 1e3;
    gl_sched_program_init(p);
    int *st = (int *)gl_xcalloc((size_t)S + (size_t)N, sizeof(int));
    if (c->mode == MODE_DEPTH || c->mode == MODE_BREADTH) {
        for (int s = 0; s < S; s++) st[s] = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        gl_sched_streams_by_kernels(p, st, S, K, c->mode == MODE_DEPTH ? GL_SCHED_DEPTH_FIRST : GL_SCHED_BREADTH_FIRST,
                                    1, BLOCK_THREADS, per_sm, T_ns);
    } else {
        int per_thread = c->mode == MODE_PER_THREAD;
        int n_st = per_thread ? N : S;
        for (int i = 0; i < n_st; i++)
            st[i] = per_thread ? gl_sched_stream_new(p, GL_SCHED_STREAM_PER_THREAD, 0, i)
                               : gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        for (int t = 0; t < N; t++)
            for (int s = t * S / N; s < (t + 1) * S / N; s++)
                for (int k = 0; k < K; k++) {
                    int op = gl_sched_launch(p, t, st[per_thread ? t : s], 1, BLOCK_THREADS, per_sm, T_ns, 0);
                    p->ops[op].label = k;
                    p->ops[op].track = per_thread ? t : s;
                }
    }
    free(st);
}

/* Which host thread launched each kernel id, from the slots gl_sched_run_begin handed out. */
static void map_ids(omp_row *c)
{
    const gl_sched_program *p = &c->prog;
    for (int i = 0; i < c->n_ids; i++) c->thread_of[i] = -1;
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH && p->ops[i].id >= 0 && p->ops[i].id < c->n_ids)
            c->thread_of[p->ops[i].id] = p->ops[i].thread;
}

/* Adjacent kernels in start order launched by different threads: N - 1 when
 * the threads' kernels came one thread after another, more when interleaved. */
static int thread_switches(const omp_row *c, const gl_timeline *tl, gl_buf *order)
{
    int prev = -1, switches = 0, shown = 0;
    for (int i = 0; i < tl->n; i++) {
        int id = tl->k[i].kernel;
        if (id < 0 || id >= c->n_ids || c->thread_of[id] < 0) continue;
        int th = c->thread_of[id];
        if (prev >= 0 && th != prev) switches++;
        prev = th;
        if (order && shown < 32) gl_buf_printf(order, shown++ ? " %d" : "%d", th);
    }
    return switches;
}

/* Kernels that started before a kernel their own thread launched earlier
 * (by more than the slack): 0 when each thread's calls keep their order. */
static int issue_order_violations(const omp_row *c, int model)
{
    const gl_sched_program *p = &c->prog;
    double *last = (double *)gl_xmalloc(sizeof(double) * (size_t)c->threads);
    for (int t = 0; t < c->threads; t++) last[t] = -INFINITY;
    int bad = 0;
    for (int i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind != GL_SCHED_LAUNCH) continue;
        const gl_interval *k = model ? gl_sched_run_model_kernel(&c->run, i) : gl_sched_run_kernel(&c->run, i);
        if (!k) continue; /* a missing kernel fails the completeness check */
        int t = p->ops[i].thread;
        if (k->start_ns < last[t] - c->slack_ns) bad++;
        last[t] = fmax(last[t], k->start_ns);
    }
    free(last);
    return bad;
}

typedef struct baseline {
    const gl_row *depth, *breadth; /* single-thread rows, when run */
} baseline;

static double median_of(const gl_row *row, const char *name)
{
    const gl_value *v = row ? gl_row_find(row, name) : NULL;
    return v && v->type == GL_VALUE_STATS ? v->stats.median : NAN;
}

/* ---- one sample: issue from the host threads, wait, measure, simulate ------------------ */

/* Empty a text buffer for reuse. */
static void buf_clear(gl_buf *b)
{
    b->len = 0;
    if (b->s) b->s[0] = '\0';
}

static void sample_row(gl_sample *smp, void *arg)
{
    omp_row *c = (omp_row *)arg;
    gl_sched_run *r = &c->run;
    gl_sched_run_begin(r);
    if (c->mode == MODE_DEPTH || c->mode == MODE_BREADTH) {
        gl_sched_run_thread(r, 0);
    } else {
        int team = c->threads, N = c->threads, device = c->device;
#pragma omp parallel num_threads(N)
        {
            int n = omp_get_num_threads(), me = omp_get_thread_num();
            /* The runtime's current device is per host thread: make it --device here too. */
            CUDA_CHECK(cudaSetDevice(device));
            /* A smaller team than asked still issues everything (so the run ends), and the row is then skipped. */
            for (int t = me; t < N; t += n) gl_sched_run_thread(r, t);
            if (me == 0) team = n;
        }
        if (team < c->team_min) c->team_min = team;
    }
    gl_sched_run_end(r);
    map_ids(c);

    /* Host side: every launch call on the shared host clock. */
    const gl_sched_program *p = &c->prog;
    int N = c->threads, launches = 0;
    double *call = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_ops + 1));
    double *first = (double *)gl_xmalloc(sizeof(double) * (size_t)N), *last = (double *)gl_xmalloc(sizeof(double) * (size_t)N);
    int *n_of = (int *)gl_xcalloc((size_t)N, sizeof(int));
    for (int t = 0; t < N; t++) first[t] = INFINITY, last[t] = -INFINITY;
    for (int i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind != GL_SCHED_LAUNCH) continue;
        int t = p->ops[i].thread;
        call[launches++] = r->return_ns[i] - r->call_ns[i];
        first[t] = fmin(first[t], r->call_ns[i]);
        last[t] = fmax(last[t], r->return_ns[i]);
        n_of[t]++;
    }
    double per_thread = 0, window_end = r->t0_ns, fork = 0;
    int active = 0;
    buf_clear(&c->each);
    for (int t = 0; t < N; t++) {
        if (!n_of[t]) continue;
        per_thread += (last[t] - first[t]) / n_of[t];
        gl_buf_printf(&c->each, "%s%.2f", active ? " " : "", (last[t] - first[t]) / n_of[t] / 1e3);
        window_end = fmax(window_end, last[t]);
        fork = fmax(fork, first[t] - r->t0_ns);
        active++;
    }
    gl_sample_put(smp, "launch_call", gl_stats_of(call, launches).median / 1e3);
    gl_sample_put(smp, "thread_per_launch", active ? per_thread / active / 1e3 : NAN);
    gl_sample_put(smp, "window_per_launch", launches ? (window_end - r->t0_ns) / launches / 1e3 : NAN);
    gl_sample_put(smp, "thread_start", fork / 1e3);
    free(call);
    free(first);
    free(last);
    free(n_of);

    /* Device side, beside the model of this very run. Racing threads' calls
     * reach the driver in an order known only to within each call's duration,
     * and the queues they take depend on it: the model's spread over that
     * order is its prediction (gl_sched_simulate_spread). */
    double lasting = r->machine.dispatch_ns;
    double *window = (double *)gl_xcalloc((size_t)p->n_ops + 1, sizeof(double));
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH) window[i] = r->return_ns[i] - r->call_ns[i];
    gl_sched_spread spread;
    char err[160];
    if (gl_sched_simulate_spread(&c->prog, &r->machine, window, SPREAD_DRAWS, (unsigned long long)r->runs, lasting,
                                 &spread, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "omp-streams: the scheduling model refused a run: %s", err);
    free(window);
    /* Each run against the simulation of its own calls: within the range? */
    double lo = spread.makespan_min_ns / 1e6, hi = spread.makespan_max_ns / 1e6, mk = r->tl.makespan_ns / 1e6;
    gl_sample_put(smp, "in_range", mk >= lo * (1 - c->tolerance) - c->slack_ms && mk <= hi * (1 + c->tolerance) + c->slack_ms);
    static const char *const in_range_vs[2] = {"in_range_vs_depth", "in_range_vs_breadth"};
    for (int i = 0; i < 2; i++) {
        if (isnan(c->base_model[i])) continue;
        double sp = c->base_measured[i] / mk, sp_lo = c->base_model[i] / hi, sp_hi = c->base_model[i] / lo;
        gl_sample_put(smp, in_range_vs[i], sp >= sp_lo * (1 - c->tolerance) && sp <= sp_hi * (1 + c->tolerance));
    }
    gl_sample_put(smp, "model_makespan_lo", spread.makespan_min_ns / 1e6);
    gl_sample_put(smp, "model_makespan_hi", spread.makespan_max_ns / 1e6);
    gl_sample_put(smp, "model_peak_lo", spread.peak_min);
    gl_sample_put(smp, "model_peak_hi", spread.peak_max);
    gl_sample_put(smp, "model_makespan", r->sim.makespan_ns / 1e6);
    gl_sample_put(smp, "makespan", r->tl.makespan_ns / 1e6);
    gl_sample_put(smp, "model_peak", gl_timeline_peak_lasting(&r->model_tl, gl_filter_all, NULL, lasting));
    gl_sample_put(smp, "peak_concurrency", gl_timeline_peak_lasting(&r->tl, gl_filter_all, NULL, lasting));
    gl_sample_put(smp, "start_error", r->errors.start_median_ns / 1e3);
    buf_clear(&c->order);
    gl_sample_put(smp, "thread_switches", thread_switches(c, &r->tl, &c->order));
    gl_sample_put(smp, "model_thread_switches", thread_switches(c, &r->model_tl, NULL));
    gl_sample_put(smp, "issue_order_violations", issue_order_violations(c, 0));
    gl_sample_put(smp, "model_issue_order_violations", issue_order_violations(c, 1));
}

static void declare_series(gl_sampler *smp, const omp_row *c)
{
    gl_sampler_series(smp, "launch_call", "us", 2, GL_SHOW_MIN);
    gl_sampler_series(smp, "thread_per_launch", "us", 2, 0);
    gl_sampler_series(smp, "window_per_launch", "us", 2, 0);
    gl_sampler_series(smp, "thread_start", "us", 1, GL_HIDE);
    gl_sampler_series(smp, "model_makespan", "ms", 3, 0);
    gl_sampler_series(smp, "in_range", "", 0, GL_HIDE);
    if (!isnan(c->base_model[0])) gl_sampler_series(smp, "in_range_vs_depth", "", 0, GL_HIDE);
    if (!isnan(c->base_model[1])) gl_sampler_series(smp, "in_range_vs_breadth", "", 0, GL_HIDE);
    gl_sampler_series(smp, "model_makespan_lo", "ms", 3, GL_HIDE);
    gl_sampler_series(smp, "model_makespan_hi", "ms", 3, GL_HIDE);
    gl_sampler_series(smp, "model_peak_lo", "kernels", 0, GL_HIDE);
    gl_sampler_series(smp, "model_peak_hi", "kernels", 0, GL_HIDE);
    gl_sampler_series(smp, "makespan", "ms", 3, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(smp, "model_peak", "kernels", 0, 0);
    gl_sampler_series(smp, "peak_concurrency", "kernels", 0, 0);
    gl_sampler_series(smp, "start_error", "us", 2, GL_HIDE);
    gl_sampler_series(smp, "thread_switches", "", 0, GL_HIDE);
    gl_sampler_series(smp, "model_thread_switches", "", 0, GL_HIDE);
    gl_sampler_series(smp, "issue_order_violations", "", 0, GL_HIDE);
    gl_sampler_series(smp, "model_issue_order_violations", "", 0, GL_HIDE);
}

/* ---- the trace: host launch calls above the streams, measured and simulated ------------ */

typedef struct track_names {
    int kernels;       /* labels 0..K-1 are kernels; K is a launch call */
    int device_tracks; /* tracks below this are streams; the rest are host threads */
    int per_thread;    /* the streams are per-thread default streams */
} track_names;

static void label_name(int index, gl_buf *out, const void *ctx)
{
    const track_names *n = (const track_names *)ctx;
    if (index < n->kernels) gl_buf_printf(out, "k%d", index);
    else gl_buf_puts(out, "launch call");
}

static void track_name(int index, gl_buf *out, const void *ctx)
{
    const track_names *n = (const track_names *)ctx;
    if (index >= n->device_tracks) gl_buf_printf(out, "host thread %d", index - n->device_tracks);
    else if (n->per_thread) gl_buf_printf(out, "per-thread stream of thread %d", index);
    else gl_buf_printf(out, "stream %d", index);
}

/* The last run's kernels and each launch call (host clock mapped onto
 * %globaltimer), then the model's kernels and calls of the same run. */
static void show_last_run(omp_row *c, gl_trace *trace, const gl_common *common, const gl_device *dev,
                          const char *title)
{
    if (!common->trace_path && !common->timeline) return;
    gl_sched_run *r = &c->run;
    const gl_sched_program *p = &c->prog;
    int device_tracks = c->mode == MODE_PER_THREAD ? c->threads : c->streams;
    track_names tn = {c->kernels, device_tracks, c->mode == MODE_PER_THREAD};
    gl_names names = {NULL, label_name, &tn, NULL, track_name, &tn, c->kernels + 1};
    int host_id = (int)r->spans.dev.capacity; /* ids past every span slot */
    gl_span *sp = (gl_span *)gl_xcalloc((size_t)r->n_spans + 2 * (size_t)p->n_ops + 1, sizeof *sp);
    int n = 0;
    for (int i = 0; i < r->n_spans; i++) sp[n++] = r->spans.h_spans[i];
    for (int i = 0; i < p->n_ops && dev->clock.valid; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH)
            sp[n++] = gl_host_span(&dev->clock, r->call_ns[i], r->return_ns[i], c->kernels,
                                   device_tracks + p->ops[i].thread, host_id + i);
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    char name[192];
    if (gl_timeline_build(&tl, sp, n) < 0) gl_die(GL_EXIT_INTERNAL, "omp-streams: a host call and a kernel share an id");
    snprintf(name, sizeof name, "%s C=%d (last run%s)", title, r->machine.connections,
             dev->clock.valid ? "" : "; no host calls: the host clock is not aligned");
    gl_show_run(trace, common, name, &tl, sp, n, &names);

    /* The model's kernels, and each call from its start to its submission, on the model's axis. */
    n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if (o->kind != GL_SCHED_LAUNCH || o->start_ns < 0 || o->end_ns < 0) continue;
        sp[n++] = gl_sched_op_span(o);
        gl_span *h = &sp[n++];
        *h = gl_host_span(&dev->clock, 0, 0, c->kernels, device_tracks + o->thread, host_id + i);
        h->start_ns = (unsigned long long)llround(GL_SCHED_ORIGIN_NS + o->call_ns);
        h->end_inv_ns = ~(unsigned long long)llround(GL_SCHED_ORIGIN_NS + o->submit_ns);
    }
    if (gl_timeline_build(&tl, sp, n) < 0) gl_die(GL_EXIT_INTERNAL, "omp-streams: two simulated intervals share an id");
    snprintf(name, sizeof name, "%s C=%d (model of the last run)", title, r->machine.connections);
    gl_show_run(trace, common, name, &tl, NULL, 0, &names);
    gl_timeline_free(&tl);
    free(sp);
}

/* ---- a row: run, sample, claim ----------------------------------------------------------- */

/* The speed-up of this row over a single-thread row, measured and simulated, as values. */
static void speedups(gl_row *row, const gl_row *base, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "speedup_vs_%s", name);
    gl_row_number(row, key, "x", 2, 0, median_of(base, "makespan") / median_of(row, "makespan"));
    snprintf(key, sizeof key, "model_speedup_vs_%s", name);
    gl_row_number(row, key, "x", 2, 0, median_of(base, "model_makespan") / median_of(row, "model_makespan"));
}

static void row_claims(omp_row *c, gl_report *rep, gl_row *row, const baseline *b, const char *title,
                       double tolerance, double tick_ns)
{
    gl_sched_run *r = &c->run;
    int S = c->streams, K = c->kernels, N = c->threads;
    gl_check(rep, row, r->runs_complete == r->runs,
             "%s: %d of %d runs recorded all %d kernels, each ran its %g us (shortest %.3f of its time), and left "
             "its result",
             title, r->runs_complete, r->runs, S * K, c->kernel_us, r->shortest_ratio);

    gl_stats mk = gl_row_find(row, "makespan")->stats, model_mk = gl_row_find(row, "model_makespan")->stats;
    gl_stats peak = gl_row_find(row, "peak_concurrency")->stats;
    gl_stats peak_lo = gl_row_find(row, "model_peak_lo")->stats, peak_hi = gl_row_find(row, "model_peak_hi")->stats;
    /* The prediction is a range: the medians over runs of each run's spread. */
    double lo = median_of(row, "model_makespan_lo"), hi = median_of(row, "model_makespan_hi");
    double slack_ms = 2 * tick_ns / 1e6;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * (mk.median - model_mk.median) / model_mk.median);
    gl_row_number(row, "model_range_lo", "ms", 3, GL_HIDE, lo);
    gl_row_number(row, "model_range_hi", "ms", 3, GL_HIDE, hi);
    char text[256];
    /* Judged run by run, each against the simulation of its own calls: a run in
     * which one OpenMP thread started milliseconds late is predicted as such. */
    gl_stats in = gl_row_find(row, "in_range")->stats;
    int n_in = (int)lround(in.mean * in.n);
    snprintf(text, sizeof text, "%s: makespan within the simulation's range, run by run", title);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, 2 * n_in >= in.n, text,
                  "%d of %d runs within the range the simulation of their own calls gives over the order racing calls "
                  "may have reached the driver (+/-%.0f%% + %.2g ms timer slack); medians: measured %.4g ms, "
                  "simulated %.4g ms with the calls as recorded, range %.4g..%.4g ms",
                  n_in, in.n, 100 * tolerance, slack_ms, mk.median, model_mk.median, lo, hi);
    snprintf(text, sizeof text, "%s: peak concurrency within the simulation's %.0f..%.0f kernels", title, peak_lo.min,
             peak_hi.max);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, lround(peak.median) >= lround(peak_lo.min) && lround(peak.median) <= lround(peak_hi.max),
                  text, "measured median over %d runs %.0f, range %.0f..%.0f", peak.n, peak.median, peak.min, peak.max);

    /* Parallel dispatch against one thread: the model's speed-up, in its own words. Against
     * depth-first it includes what the issue order does to the queues; against
     * breadth-first (no false dependency) it is the issue cost alone. */
    if (c->mode == MODE_OMP || c->mode == MODE_PER_THREAD) {
        const gl_row *base[2] = {b->depth, b->breadth};
        const char *base_name[2] = {"depth", "breadth"};
        if (b->depth) gl_row_number(row, "launch_call_vs_1", "x", 2, 0,
                                    median_of(row, "launch_call") / median_of(b->depth, "launch_call"));
        for (int i = 0; i < 2; i++) {
            snprintf(text, sizeof text, "%s: speed-up over single-thread %s-first dispatch as the model predicts", title,
                     base_name[i]);
            if (!base[i]) {
                gl_claim_skip(rep, row, GL_CLAIM_TIMING, text, "n/a: --mode %s runs no %s-first row to compare with",
                              mode_name(c->mode), base_name[i]);
                continue;
            }
            speedups(row, base[i], base_name[i]);
            char key[64];
            snprintf(key, sizeof key, "speedup_vs_%s", base_name[i]);
            double sp = gl_row_find(row, key)->number;
            /* The single-thread row's point prediction over this row's range. The words
             * say where that range lies against 1, and the runs must fall in the ranges
             * of their own simulations. The median measured speed-up is reported beside
             * the words, not judged against them: the words come from the medians of the
             * runs' ranges, and a median over three racing runs fell outside those
             * (1.03x against 0.56..0.92x, H100, --quick) while two of the three runs
             * fell within their own ranges. */
            double base_model = median_of(base[i], "model_makespan");
            double sp_lo = base_model / hi, sp_hi = base_model / lo;
            int same = sp_lo >= 1 - tolerance && sp_hi <= 1 + tolerance;
            const char *words = same        ? "makes no difference"
                                : sp_lo > 1 ? "helps"
                                : sp_hi < 1 ? "is slower"
                                            : "may help or not, by how the calls race";
            int agrees = same ? fabs(sp - 1) <= tolerance : sp_lo > 1 ? sp > 1 : sp_hi < 1 ? sp < 1 : 1;
            snprintf(text, sizeof text,
                     "%s: against single-thread %s-first dispatch it %s, as the model predicts (makespan speed-up)",
                     title, base_name[i], words);
            snprintf(key, sizeof key, "in_range_vs_%s", base_name[i]);
            gl_stats vs = gl_row_find(row, key)->stats;
            int vs_in = (int)lround(vs.mean * vs.n);
            gl_claim_fact(rep, row, GL_CLAIM_TIMING, 2 * vs_in >= vs.n, text,
                          "median measured %.3g x (%s the words); %d of %d runs within the range of their own "
                          "simulation (+/-%.0f%%); simulated %.3g..%.3g x", sp, agrees ? "matches" : "contradicts",
                          vs_in, vs.n, 100 * tolerance, sp_lo, sp_hi);
        }
    }

    /* One queue: the order the calls reach the driver is the order kernels start. */
    if (r->machine.connections != 1) return;
    gl_stats bad = gl_row_find(row, "issue_order_violations")->stats;
    gl_stats model_bad = gl_row_find(row, "model_issue_order_violations")->stats;
    snprintf(text, sizeof text, "%s, C=1: every host thread's kernels start in the order it issued them, across its "
             "streams (one in-order queue)", title);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, bad.max == 0 && model_bad.max == 0, text,
                  "kernels that started before one their thread issued earlier, most in one of %d runs: measured %.0f, "
                  "model %.0f (slack %.0f ns)",
                  bad.n, bad.max, model_bad.max, c->slack_ns);
    if (N < 2) return;
    gl_stats sw = gl_row_find(row, "thread_switches")->stats, model_sw = gl_row_find(row, "model_thread_switches")->stats;
    int model_mixed = model_sw.median > N - 1, mixed = sw.median > N - 1;
    snprintf(text, sizeof text, "%s, C=1: the one queue takes the threads' launches %s, as the model predicts", title,
             model_mixed ? "interleaved (its stream order is no one thread's issue order)"
                         : "one thread's after another's");
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, mixed == model_mixed, text,
                  "thread switches in the kernel start order, median of %d runs: measured %.0f, model %.0f (%d if "
                  "unmixed); last run's start order by thread: %s%s",
                  sw.n, sw.median, model_sw.median, N - 1, gl_buf_str(&c->order), S * K > 32 ? " ..." : "");
}

/* Keep the value just added out of the terminal table (it stays in the JSON and CSV).
 * TODO(core): gl_row_param and gl_row_param_num take no display flags; this sets the field they leave 0. */
static void hide_last(gl_row *row) { row->values[row->n_values - 1].flags |= GL_HIDE; }

/* One configuration: its row, its samples, its claims, its timelines. Returns the row. */
static gl_row *run_row(int mode, int N, int S, int K, double kernel_us, const gl_device *dev,
                       const gl_sched_machine *machine, const gl_common *common, gl_report *rep, gl_trace *trace,
                       const baseline *b, double tolerance, const char *table)
{
    char variant[64], title[128];
    if (mode == MODE_DEPTH || mode == MODE_BREADTH) snprintf(variant, sizeof variant, "%s", mode_name(mode));
    else snprintf(variant, sizeof variant, "%s %d thread%s", mode_name(mode), N, N > 1 ? "s" : "");
    snprintf(title, sizeof title, "T=%g us, %s", kernel_us, variant);
    gl_row *row = gl_report_row(rep, table, variant);
    /* What the table's title and the variant already say stays in the JSON and CSV only. */
    gl_row_param(row, "mode", "%s", mode_name(mode));
    hide_last(row);
    gl_row_param_num(row, "host_threads", "", 0, N);
    gl_row_param_num(row, "streams", "", 0, S);
    hide_last(row);
    gl_row_param_num(row, "kernels", "", 0, K);
    hide_last(row);
    gl_row_param_num(row, "device_streams", "", 0, mode == MODE_PER_THREAD ? N : S);
    gl_row_param_num(row, "kernel_us", "", -1, kernel_us);
    hide_last(row);
    gl_row_param_num(row, "connections", "", 0, machine->connections); /* tells merged --connections runs apart */
    gl_row_param(row, "stream_kind", "%s", mode == MODE_PER_THREAD ? "per-thread" : "non-blocking");
    hide_last(row);
    if (N > S) {
        gl_row_skip(row, "%d threads for %d streams would leave %d threads nothing to issue (use --streams %d or more)",
                    N, S, N - S, N);
        return row;
    }
    if (N > omp_get_thread_limit()) {
        gl_row_skip(row, "OpenMP allows at most %d threads here (OMP_THREAD_LIMIT)", omp_get_thread_limit());
        return row;
    }

    omp_row c;
    memset(&c, 0, sizeof c);
    c.mode = mode;
    c.threads = N;
    c.streams = S;
    c.kernels = K;
    c.kernel_us = kernel_us;
    c.device = dev->id;
    c.slack_ns = 2 * dev->tick_ns;
    c.team_min = N;
    c.tolerance = tolerance;
    c.slack_ms = 2 * dev->tick_ns / 1e6;
    const gl_row *base[2] = {b->depth, b->breadth};
    for (int i = 0; i < 2; i++) {
        int use = base[i] && (mode == MODE_OMP || mode == MODE_PER_THREAD);
        c.base_model[i] = use ? median_of(base[i], "model_makespan") : NAN;
        c.base_measured[i] = use ? median_of(base[i], "makespan") : NAN;
    }
    int per_sm = gl_work_blocks_per_sm(BLOCK_THREADS);
    if (per_sm < 1) gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", BLOCK_THREADS);
    build_program(&c, per_sm);
    gl_sched_run_create(&c.run, &c.prog, machine, common->trace_path != NULL);
    for (int s = 0; s < c.prog.n_streams; s++)
        if (c.prog.streams[s].kind == GL_SCHED_STREAM_NONBLOCKING) gl_nvtx_name_stream(c.run.stream[s], "stream %d", s - 1);
    c.n_ids = (int)c.run.spans.dev.capacity;
    c.thread_of = (int *)gl_xcalloc((size_t)c.n_ids + 1, sizeof(int));

    gl_sampler smp;
    gl_sampler_init(&smp, common);
    declare_series(&smp, &c);
    gl_nvtx_push("omp-streams T=%g us %s C=%d", kernel_us, variant, machine->connections);
    gl_sampler_run(&smp, row, sample_row, &c);
    gl_nvtx_pop();
    gl_sampler_free(&smp);

    gl_row_text(row, "thread_per_launch_last_run", GL_HIDE, "%s", gl_buf_str(&c.each));
    if (c.team_min < N)
        gl_row_skip(row, "OpenMP gave a team of %d threads where %d were asked for", c.team_min, N);
    else
        row_claims(&c, rep, row, b, title, tolerance, dev->tick_ns);
    show_last_run(&c, trace, common, dev, title);

    gl_sched_run_destroy(&c.run);
    gl_sched_program_free(&c.prog);
    gl_buf_free(&c.order);
    gl_buf_free(&c.each);
    free(c.thread_of);
    return row;
}

/* One line per kernel duration: the launch call's cost as threads are added. */
static void dispatch_finding(const gl_report *rep, int first_row, double kernel_us)
{
    gl_buf line = GL_BUF_INIT;
    for (int i = first_row; i < rep->n_rows; i++) {
        const gl_row *row = rep->rows[i];
        const gl_value *mode = gl_row_find(row, "mode");
        if (row->skip_reason || !mode || strcmp(mode->text, "omp") != 0) continue;
        gl_buf_printf(&line, "%s%.0f: %.2f us", line.len ? ", " : "", gl_row_find(row, "host_threads")->number,
                      median_of(row, "launch_call"));
    }
    if (line.len)
        printf("finding: T=%g us: one launch call takes (median, by OpenMP threads launching at once) %s\n", kernel_us,
               gl_buf_str(&line));
    gl_buf_free(&line);
}

/* ---- main --------------------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "omp-streams",
        "when does issuing S streams' kernels from several host threads (OpenMP) beat one thread, and what do the "
        "threads contend for?",
        "Model: the core's scheduling simulation of N host threads, fed with every call's measured host time.\n"
        "Modes: omp (N threads share the S streams), depth and breadth (one thread), per-thread (each thread's\n"
        "share into its own per-thread default stream). --connections 1 adds the one-queue ordering claims.\n"
        "Defaults: --kernel-us 10,1000 (a short, issue-bound case and a long one); --threads 1,2,4,8,16 and the\n"
        "machine's core count."};
    int streams = 16, kernels = 8, mode = MODE_ALL;
    double tolerance = 0.10;
    gl_int_list kernel_us = {NULL, 0}, threads = {NULL, 0};
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 1, 1024, NULL, NULL, "streams (S)", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, "4", "work kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_INT_LIST, &kernel_us, 1, 1000000, NULL, "10,500",
         "durations of the work kernels in us (T), one table each (none given: 10,1000)", 0},
        {"threads", GL_OPT_INT_LIST, &threads, 1, 1024, NULL, "1,4,16",
         "OpenMP thread counts N (none given: 1,2,4,8,16 and the core count)", 0},
        {"mode", GL_OPT_CHOICE, &mode, 0, 0, "all|omp|depth|breadth|per-thread", NULL, "dispatch modes to run", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL,
         "relative tolerance of the makespan and speed-up claims", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    if (kernel_us.n == 0) {
        static const int def[] = {10, 1000};
        kernel_us.v = (int *)gl_xmalloc(sizeof def);
        memcpy(kernel_us.v, def, sizeof def);
        kernel_us.n = GL_ARRAY_LEN(def);
    }
    if (threads.n == 0) {
        int def[] = {1, 2, 4, 8, 16, omp_get_num_procs()};
        threads.v = (int *)gl_xmalloc(sizeof def);
        for (int i = 0; i < GL_ARRAY_LEN(def); i++) {
            int dup = 0;
            for (int j = 0; j < threads.n; j++) dup |= threads.v[j] == def[i];
            if (!dup) threads.v[threads.n++] = def[i];
        }
        qsort(threads.v, (size_t)threads.n, sizeof(int), cmp_int);
    }
    omp_set_dynamic(0); /* a parallel region gets the threads it asks for, or the row says it did not */
    gl_sched_lab S;
    gl_sched_lab_open(&S, exp.name, &common);
    int shortest = kernel_us.v[0];
    for (int i = 1; i < kernel_us.n; i++) shortest = kernel_us.v[i] < shortest ? kernel_us.v[i] : shortest;
    gl_sched_lab_calibrate(&S, BLOCK_THREADS, shortest);

    gl_buf tlist = GL_BUF_INIT;
    for (int i = 0; i < threads.n; i++) gl_buf_printf(&tlist, "%s%d", i ? "," : "", threads.v[i]);
    printf("setup: S=%d streams x K=%d kernels of 1 block x %d threads; T=", streams, kernels, BLOCK_THREADS);
    for (int i = 0; i < kernel_us.n; i++) printf("%s%d", i ? "," : "", kernel_us.v[i]);
    printf(" us; OpenMP threads %s (%d cores); mode %s; C=%d connections\n", gl_buf_str(&tlist), omp_get_num_procs(),
           mode_name(mode), S.machine.connections);
    gl_buf_free(&tlist);
    for (int u = 0; u < kernel_us.n; u++) {
        double us = kernel_us.v[u];
        char table[64];
        snprintf(table, sizeof table, "kernels of %g us", us);
        baseline b = {NULL, NULL};
        int first_row = S.rep.n_rows;
        if (mode == MODE_ALL || mode == MODE_DEPTH)
            b.depth = run_row(MODE_DEPTH, 1, streams, kernels, us, &S.dev, &S.machine, &common, &S.rep, &S.trace, &b,
                              tolerance, table);
        if (mode == MODE_ALL || mode == MODE_BREADTH)
            b.breadth = run_row(MODE_BREADTH, 1, streams, kernels, us, &S.dev, &S.machine, &common, &S.rep, &S.trace,
                                &b, tolerance, table);
        for (int i = 0; i < threads.n; i++) {
            if (mode == MODE_ALL || mode == MODE_OMP)
                run_row(MODE_OMP, threads.v[i], streams, kernels, us, &S.dev, &S.machine, &common, &S.rep, &S.trace, &b,
                        tolerance, table);
            if (mode == MODE_ALL || mode == MODE_PER_THREAD)
                run_row(MODE_PER_THREAD, threads.v[i], streams, kernels, us, &S.dev, &S.machine, &common, &S.rep,
                        &S.trace, &b, tolerance, table);
        }
        dispatch_finding(&S.rep, first_row, us);
    }
    free(kernel_us.v);
    free(threads.v);
    return gl_sched_lab_close(&S, &common);
}
