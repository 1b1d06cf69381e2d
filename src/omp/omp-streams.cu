/* omp-streams.cu - host threads dispatching streams: one OpenMP thread per stream, against one thread.
 *
 * Question: when does issuing S streams' kernels from several host threads (OpenMP) beat one thread, and what do the threads contend for?
 * Build: openmp
 * Sanitize: --quick --profile --kernel-us 10 --threads 1,4 --streams 8 --kernels 2 --skip-timing-claims
 *
 * The textbook's pattern: inside "#pragma omp parallel" thread i launches its stream's (empty) kernels into
 * stream[i]. Here S non-blocking streams x K kernels of T us (one block of 32 threads spinning T and leaving a
 * result) are issued four ways (--mode): depth, breadth (one thread); omp (N OpenMP threads, --threads, each
 * issuing its contiguous share of the streams depth-first: the seed when N = S); per-thread (each thread into
 * its own cudaStreamPerThread: N streams, not S). A row with N > S leaves threads nothing to issue: SKIP.
 *
 * Model: the scheduling simulation (gl_sched.h) of the N threads' calls, each with its measured host time (the
 * driver's locks are measured, not modelled), over every order in which racing calls may reach the driver: a
 * range. Threads help only while the issue window dominates (short kernels), as far as i(N)/N falls below i(1),
 * i(N) being a launch call's host time with N threads launching at once.
 *
 * Claims: every kernel ran its time and left its result (check); in at least half the runs, the makespan within
 * --tolerance (+ two timer ticks) of its own run's simulated range; peak concurrency within the simulated range;
 * omp and per-thread rows: the speed-up over one depth-first and one breadth-first thread, run by run within its
 * range, in the model's words; at C=1, each thread's kernels start in its issue order, and the one queue
 * interleaves the threads exactly when the model does. A finding per T gives the launch call's cost by thread
 * count. FINDINGS.md has the argument in full.
 *
 * Run:   make run-omp-streams
 *        make run-omp-streams ARGS="--connections 1,8"
 *        make run-omp-streams ARGS="--mode omp --threads 1,2,4,8 --kernel-us 10 --streams 32"
 * Nsight Systems (make profile-omp-streams): NVTX ranges "omp-streams T=<us> <variant> C=<C>", streams "stream
 * N"; the OpenMP threads' CUDA API rows show their launch calls side by side, stretching as threads are added.
 * --trace and --timeline: each run's launch calls per host thread above its streams, and the model's run beside.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_nvtx.h"
#include "gl_schedrun.h"

enum { MODE_ALL, MODE_OMP, MODE_DEPTH, MODE_BREADTH, MODE_PER_THREAD };
static const char *const mode_names[] = {"all", "omp", "depth", "breadth", "per-thread"};
enum { BLOCK_THREADS = 32 }; /* threads of a work kernel's one block */
enum { SPREAD_DRAWS = 32 };  /* simulations per run over the order the racing calls reached the driver */

/* The experiment, and the row being run: its program, its run, and what its samples leave for the claims. */
typedef struct omp_lab {
    gl_sched_lab S;          /* report, device, the model's machine, trace */
    const gl_common *common; /* the common options */
    int streams, kernels;    /* S and K */
    double tolerance;        /* --tolerance */
    const gl_row *base[2];   /* the table's depth-first and breadth-first rows, for omp and per-thread rows, or NULL */
    int mode, threads;       /* the row's MODE_*, and its host threads N (1 for depth and breadth) */
    int team_min;            /* the smallest OpenMP team any run got */
    double kernel_us;        /* T */
    gl_sched_program prog;   /* the work as the model's program: launches only, so op i is launch i */
    gl_sched_run run;        /* the same program on the GPU */
    gl_buf order, each;      /* the last run's kernel start order by thread, and each thread's time per launch */
} omp_lab;

/* ---- the work, who launched what, and one sample of it ---------------------------------------- */

/* Thread t issues its share of the streams (all of them with one thread) in the mode's order, thread by thread.
 * Labels are kernel indices, tracks stream indices (per-thread: thread indices). */
static void build_program(omp_lab *L, int per_sm)
{
    gl_sched_program *p = &L->prog;
    int S = L->streams, K = L->kernels, N = L->threads, pt = L->mode == MODE_PER_THREAD;
    gl_sched_program_init(p); /* stream 0 is the legacy stream: the work's streams are 1.. */
    for (int i = 0; i < (pt ? N : S); i++)
        gl_sched_stream_new(p, pt ? GL_SCHED_STREAM_PER_THREAD : GL_SCHED_STREAM_NONBLOCKING, 0, pt ? i : -1);
    for (int t = 0; t < N; t++) {
        int s0 = t * S / N, share = (t + 1) * S / N - s0;
        for (int n = 0; n < share * K; n++) {
            int s, k;
            gl_sched_issue_order(L->mode == MODE_BREADTH ? GL_SCHED_BREADTH_FIRST : GL_SCHED_DEPTH_FIRST, share, K, n,
                                 &s, &k);
            int track = pt ? t : s0 + s;
            int op = gl_sched_launch(p, t, 1 + track, 1, BLOCK_THREADS, per_sm, L->kernel_us * 1e3, 0);
            p->ops[op].label = k;
            p->ops[op].track = track;
        }
    }
}

/* Thread t's calls are ops first_op(t) .. first_op(t + 1) - 1, one after another. */
static int first_op(const omp_lab *L, int t) { return t * L->streams / L->threads * L->kernels; }

/* Adjacent kernels in start order launched by different threads (a track's thread: the one whose share holds
 * that stream, or the per-thread stream's): N - 1 when one thread's came after another's, more when interleaved. */
static int thread_switches(const omp_lab *L, const gl_timeline *tl, gl_buf *order)
{
    int prev = -1, switches = 0;
    for (int i = 0; i < tl->n; i++) {
        int s = tl->k[i].stream, th = L->mode == MODE_PER_THREAD ? s : ((s + 1) * L->threads - 1) / L->streams;
        switches += prev >= 0 && th != prev;
        prev = th;
        if (order && i < 32) gl_buf_printf(order, i ? " %d" : "%d", th);
    }
    return switches;
}

/* Kernels that started before one their own thread launched earlier (by more than the slack): 0 in order. */
static int issue_order_violations(const omp_lab *L, int model)
{
    int bad = 0;
    for (int t = 0; t < L->threads; t++) {
        double last = -INFINITY;
        for (int i = first_op(L, t); i < first_op(L, t + 1); i++) {
            const gl_interval *k = model ? gl_sched_run_model_kernel(&L->run, i) : gl_sched_run_kernel(&L->run, i);
            if (!k) continue; /* a missing kernel fails the completeness check */
            bad += k->start_ns < last - 2 * L->S.dev.tick_ns;
            last = fmax(last, k->start_ns);
        }
    }
    return bad;
}

/* One sample: issue from the host threads, wait, measure, simulate. */
static void sample_row(gl_sample *smp, void *arg)
{
    omp_lab *L = (omp_lab *)arg;
    gl_sched_run *r = &L->run;
    int N = L->threads, n_ops = L->prog.n_ops;
    gl_sched_run_begin(r);
    if (L->mode == MODE_DEPTH || L->mode == MODE_BREADTH) {
        gl_sched_run_thread(r, 0);
    } else {
        int team = N, device = L->S.dev.id;
#pragma omp parallel num_threads(N)
        {
            int n = omp_get_num_threads(), me = omp_get_thread_num();
            /* The runtime's current device is per host thread: make it --device here too. */
            CUDA_CHECK(cudaSetDevice(device));
            /* A smaller team than asked still issues everything (so the run ends), and the row is then skipped. */
            for (int t = me; t < N; t += n) gl_sched_run_thread(r, t);
            if (me == 0) team = n;
        }
        if (team < L->team_min) L->team_min = team;
    }
    gl_sched_run_end(r);

    /* Host side: every launch call on the shared host clock; each thread from its first call to its last return. */
    double *window = (double *)gl_xcalloc((size_t)n_ops + 1, sizeof(double));
    for (int i = 0; i < n_ops; i++) window[i] = r->return_ns[i] - r->call_ns[i];
    double per_thread = 0, window_end = r->t0_ns, fork = 0;
    gl_buf_free(&L->each);
    for (int t = 0; t < N; t++) {
        int i0 = first_op(L, t), i1 = first_op(L, t + 1);
        double each = (r->return_ns[i1 - 1] - r->call_ns[i0]) / (i1 - i0);
        per_thread += each;
        gl_buf_printf(&L->each, "%s%.2f", t ? " " : "", each / 1e3);
        window_end = fmax(window_end, r->return_ns[i1 - 1]);
        fork = fmax(fork, r->call_ns[i0] - r->t0_ns);
    }
    gl_sample_put(smp, "launch_call", gl_stats_of(window, n_ops).median / 1e3);
    gl_sample_put(smp, "thread_per_launch", per_thread / N / 1e3);
    gl_sample_put(smp, "window_per_launch", (window_end - r->t0_ns) / n_ops / 1e3);
    gl_sample_put(smp, "thread_start", fork / 1e3);

    /* Device side, beside the model of this very run, simulated over the order in which the calls may have
     * reached the driver (each somewhere within its window): that spread is the prediction. */
    double lasting = r->machine.dispatch_ns, tol = L->tolerance, slack_ms = 2 * L->S.dev.tick_ns / 1e6;
    gl_sched_spread spread;
    char err[160];
    if (gl_sched_simulate_spread(&L->prog, &r->machine, window, SPREAD_DRAWS, (unsigned long long)r->runs, lasting,
                                 &spread, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "omp-streams: the scheduling model refused a run: %s", err);
    free(window);
    double lo = spread.makespan_min_ns / 1e6, hi = spread.makespan_max_ns / 1e6, mk = r->tl.makespan_ns / 1e6;
    gl_sample_put(smp, "in_range", mk >= lo * (1 - tol) - slack_ms && mk <= hi * (1 + tol) + slack_ms);
    for (int i = 0; i < 2; i++) /* the speed-up over a single-thread row, against this run's simulated range */
        if (L->base[i]) {
            double sp = gl_row_median(L->base[i], "makespan") / mk, model = gl_row_median(L->base[i], "model_makespan");
            gl_sample_put(smp, i ? "in_range_vs_breadth" : "in_range_vs_depth",
                          sp >= model / hi * (1 - tol) && sp <= model / lo * (1 + tol));
        }
    gl_sample_put(smp, "model_makespan_lo", lo);
    gl_sample_put(smp, "model_makespan_hi", hi);
    gl_sample_put(smp, "model_peak_lo", spread.peak_min);
    gl_sample_put(smp, "model_peak_hi", spread.peak_max);
    gl_sched_run_put(smp, r, lasting);
    gl_buf_free(&L->order);
    gl_sample_put(smp, "thread_switches", thread_switches(L, &r->tl, &L->order));
    gl_sample_put(smp, "model_thread_switches", thread_switches(L, &r->model_tl, NULL));
    gl_sample_put(smp, "issue_order_violations", issue_order_violations(L, 0));
    gl_sample_put(smp, "model_issue_order_violations", issue_order_violations(L, 1));
}

/* ---- a row: its claims, its trace, its runs ----------------------------------------------------- */

static void row_claims(omp_lab *L, gl_row *row, const char *title)
{
    gl_report *rep = &L->S.rep;
    gl_sched_run *r = &L->run;
    int S = L->streams, K = L->kernels, N = L->threads;
    double tolerance = L->tolerance, slack_ns = 2 * L->S.dev.tick_ns;
    gl_check(rep, row, r->runs_complete == r->runs, "%s: %d of %d runs recorded all %d kernels, each ran its %g us "
             "(shortest %.3f of its time), and left its result", title, r->runs_complete, r->runs, S * K, L->kernel_us,
             r->shortest_ratio);
    gl_stats mk = gl_row_stats_of(row, "makespan"), model_mk = gl_row_stats_of(row, "model_makespan");
    gl_stats in = gl_row_stats_of(row, "in_range");
    gl_stats peak = gl_row_stats_of(row, "peak_concurrency"), peak_lo = gl_row_stats_of(row, "model_peak_lo");
    gl_stats peak_hi = gl_row_stats_of(row, "model_peak_hi");
    /* The prediction is a range: the medians over runs of each run's spread. */
    double lo = gl_row_median(row, "model_makespan_lo"), hi = gl_row_median(row, "model_makespan_hi");
    gl_row_number(row, "model_error", "%", 1, 0, 100 * (mk.median - model_mk.median) / model_mk.median);
    gl_row_number(row, "model_range_lo", "ms", 3, GL_HIDE, lo);
    gl_row_number(row, "model_range_hi", "ms", 3, GL_HIDE, hi);
    char text[256], key[64];
    /* Run by run, each against the simulation of its own calls: one thread starting milliseconds late is predicted. */
    snprintf(text, sizeof text, "%s: makespan within the simulation's range, run by run", title);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, 2 * gl_stats_ones(in) >= in.n, text,
                  "%d of %d runs within the range the simulation of their own calls gives over the order racing calls "
                  "may have reached the driver (+/-%.0f%% + %.2g ms timer slack); medians: measured %.4g ms, "
                  "simulated %.4g ms with the calls as recorded, range %.4g..%.4g ms",
                  gl_stats_ones(in), in.n, 100 * tolerance, slack_ns / 1e6, mk.median, model_mk.median, lo, hi);
    snprintf(text, sizeof text, "%s: peak concurrency within the simulation's %.0f..%.0f kernels", title, peak_lo.min,
             peak_hi.max);
    int peak_in = lround(peak.median) >= lround(peak_lo.min) && lround(peak.median) <= lround(peak_hi.max);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, peak_in, text, "measured median over %d runs %.0f, range %.0f..%.0f",
                  peak.n, peak.median, peak.min, peak.max);
    /* Parallel dispatch against one thread, in the model's words: against depth-first the speed-up includes what
     * the issue order does to the queues; against breadth-first (no false dependency) it is the issue cost alone. */
    if (L->mode == MODE_OMP || L->mode == MODE_PER_THREAD) {
        if (L->base[0])
            gl_row_number(row, "launch_call_vs_1", "x", 2, 0,
                          gl_row_median(row, "launch_call") / gl_row_median(L->base[0], "launch_call"));
        for (int i = 0; i < 2; i++) {
            const char *base = mode_names[MODE_DEPTH + i];
            snprintf(text, sizeof text, "%s: speed-up over single-thread %s-first dispatch as the model predicts",
                     title, base);
            if (!L->base[i]) {
                gl_claim_skip(rep, row, GL_CLAIM_TIMING, text, "n/a: --mode %s runs no %s-first row to compare with",
                              mode_names[L->mode], base);
                continue;
            }
            /* The single-thread row's point prediction over this row's range: the words say where that range lies
             * against 1, and the runs must fall in their own simulations' ranges. The median is printed, not judged:
             * one of three racing runs fell outside (1.03x against 0.56..0.92x, H100, 3 runs), two within. */
            double sp = gl_row_median(L->base[i], "makespan") / mk.median;
            double model = gl_row_median(L->base[i], "model_makespan"), sp_lo = model / hi, sp_hi = model / lo;
            snprintf(key, sizeof key, "speedup_vs_%s", base);
            gl_row_number(row, key, "x", 2, 0, sp);
            snprintf(key, sizeof key, "model_speedup_vs_%s", base);
            gl_row_number(row, key, "x", 2, 0, model / model_mk.median);
            int same = sp_lo >= 1 - tolerance && sp_hi <= 1 + tolerance;
            const char *words = same ? "makes no difference" : sp_lo > 1 ? "helps" : sp_hi < 1 ? "is slower" :
                                "may help or not, by how the calls race";
            int agrees = same ? fabs(sp - 1) <= tolerance : sp_lo > 1 ? sp > 1 : sp_hi < 1 ? sp < 1 : 1;
            snprintf(text, sizeof text, "%s: against single-thread %s-first dispatch it %s, as the model predicts "
                     "(makespan speed-up)", title, base, words);
            snprintf(key, sizeof key, "in_range_vs_%s", base);
            gl_stats vs = gl_row_stats_of(row, key);
            gl_claim_fact(rep, row, GL_CLAIM_TIMING, 2 * gl_stats_ones(vs) >= vs.n, text,
                          "median measured %.3g x (%s the words); %d of %d runs within the range of their own "
                          "simulation (+/-%.0f%%); simulated %.3g..%.3g x", sp, agrees ? "matches" : "contradicts",
                          gl_stats_ones(vs), vs.n, 100 * tolerance, sp_lo, sp_hi);
        }
    }

    /* One queue: the order the calls reach the driver is the order kernels start. */
    if (r->machine.connections != 1) return;
    gl_stats bad = gl_row_stats_of(row, "issue_order_violations");
    gl_stats model_bad = gl_row_stats_of(row, "model_issue_order_violations");
    snprintf(text, sizeof text, "%s, C=1: every host thread's kernels start in the order it issued them, across its "
             "streams (one in-order queue)", title);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, bad.max == 0 && model_bad.max == 0, text,
                  "kernels that started before one their thread issued earlier, most in one of %d runs: measured %.0f, "
                  "model %.0f (slack %.0f ns)", bad.n, bad.max, model_bad.max, slack_ns);
    if (N < 2) return;
    gl_stats sw = gl_row_stats_of(row, "thread_switches"), model_sw = gl_row_stats_of(row, "model_thread_switches");
    int model_mixed = model_sw.median > N - 1, mixed = sw.median > N - 1;
    snprintf(text, sizeof text, "%s, C=1: the one queue takes the threads' launches %s, as the model predicts", title,
             model_mixed ? "interleaved (its stream order is no one thread's issue order)"
                         : "one thread's after another's");
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, mixed == model_mixed, text,
                  "thread switches in the kernel start order, median of %d runs: measured %.0f, model %.0f (%d if "
                  "unmixed); last run's start order by thread: %s%s", sw.n, sw.median, model_sw.median, N - 1,
                  gl_buf_str(&L->order), S * K > 32 ? " ..." : "");
}

/* Trace labels 0..K-1 are kernels, K a launch call; tracks past the device streams are host threads. */
static void label_name(int i, gl_buf *out, const void *ctx)
{
    if (i < ((const omp_lab *)ctx)->kernels) gl_buf_printf(out, "k%d", i);
    else gl_buf_puts(out, "launch call");
}

static void track_name(int i, gl_buf *out, const void *ctx)
{
    const omp_lab *L = (const omp_lab *)ctx;
    int pt = L->mode == MODE_PER_THREAD, d = pt ? L->threads : L->streams;
    if (i >= d) gl_buf_printf(out, "host thread %d", i - d);
    else gl_buf_printf(out, pt ? "per-thread stream of thread %d" : "stream %d", i);
}

/* One configuration's row: its parameters, then its runs, claims and timelines, or SKIP with the reason. */
static const gl_row *run_row(omp_lab *L, int mode, int N, double kernel_us, const char *table)
{
    static const char *const hidden[] = {"mode", "streams", "kernels", "kernel_us", "stream_kind", "start_error"};
    static const char *const counts[] = {"in_range", "in_range_vs_depth", "in_range_vs_breadth", "thread_switches",
                                         "model_thread_switches", "issue_order_violations",
                                         "model_issue_order_violations"};
    int S = L->streams, pt = mode == MODE_PER_THREAD, per_sm = gl_work_blocks_per_sm(BLOCK_THREADS);
    char variant[64], title[128];
    snprintf(variant, sizeof variant, mode == MODE_DEPTH || mode == MODE_BREADTH ? "%s" : "%s %d thread%s",
             mode_names[mode], N, N > 1 ? "s" : "");
    snprintf(title, sizeof title, "T=%g us, %s", kernel_us, variant);
    gl_row *row = gl_report_row(&L->S.rep, table, variant);
    gl_row_param(row, "mode", "%s", mode_names[mode]);
    gl_row_param_num(row, "host_threads", "", 0, N);
    gl_row_param_num(row, "streams", "", 0, S);
    gl_row_param_num(row, "kernels", "", 0, L->kernels);
    gl_row_param_num(row, "device_streams", "", 0, pt ? N : S);
    gl_row_param_num(row, "kernel_us", "", -1, kernel_us);
    gl_row_param_num(row, "connections", "", 0, L->S.machine.connections); /* tells merged --connections runs apart */
    gl_row_param(row, "stream_kind", "%s", pt ? "per-thread" : "non-blocking");
    if (N > S) {
        gl_row_skip(row, "%d threads for %d streams would leave %d threads nothing to issue (use --streams %d or more)",
                    N, S, N - S, N);
    } else if (N > omp_get_thread_limit()) {
        gl_row_skip(row, "OpenMP allows at most %d threads here (OMP_THREAD_LIMIT)", omp_get_thread_limit());
    } else if (per_sm < 1) {
        gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", BLOCK_THREADS);
    } else {
        L->mode = mode, L->threads = L->team_min = N, L->kernel_us = kernel_us;
        build_program(L, per_sm);
        memset(&L->run, 0, sizeof L->run); /* the fields gl_sched_run_create does not set take their defaults */
        gl_sched_run_create(&L->run, &L->prog, &L->S.machine, L->common->trace_path != NULL);
        for (int s = 1; s < L->prog.n_streams && !pt; s++) gl_nvtx_name_stream(L->run.stream[s], "stream %d", s - 1);
        gl_sampler smp;
        gl_sampler_init(&smp, L->common);
        gl_sampler_series(&smp, "launch_call", "us", 2, GL_SHOW_MIN);
        gl_sampler_series(&smp, "thread_per_launch", "us", 2, 0);
        gl_sampler_series(&smp, "window_per_launch", "us", 2, 0);
        gl_sampler_series(&smp, "thread_start", "us", 1, GL_HIDE);
        gl_sched_run_series(&smp); /* model_makespan, makespan, model_peak, peak_concurrency, start_error */
        gl_sampler_series(&smp, "model_makespan_lo", "ms", 3, GL_HIDE);
        gl_sampler_series(&smp, "model_makespan_hi", "ms", 3, GL_HIDE);
        gl_sampler_series(&smp, "model_peak_lo", "kernels", 0, GL_HIDE);
        gl_sampler_series(&smp, "model_peak_hi", "kernels", 0, GL_HIDE);
        for (int i = 0; i < GL_ARRAY_LEN(counts); i++) /* in_range_vs_<base> where there is that base */
            if ((i != 1 && i != 2) || L->base[i - 1]) gl_sampler_series(&smp, counts[i], "", 0, GL_HIDE);
        gl_nvtx_push("omp-streams T=%g us %s C=%d", kernel_us, variant, L->S.machine.connections);
        gl_sampler_run(&smp, row, sample_row, L);
        gl_nvtx_pop();
        gl_sampler_free(&smp);
        gl_row_text(row, "thread_per_launch_last_run", GL_HIDE, "%s", gl_buf_str(&L->each));
        if (L->team_min < N)
            gl_row_skip(row, "OpenMP gave a team of %d threads where %d were asked for", L->team_min, N);
        else row_claims(L, row, title);
        gl_names names = {NULL, label_name, L, NULL, track_name, L, L->kernels + 1};
        char name[160];
        snprintf(name, sizeof name, "%s C=%d", title, L->run.machine.connections);
        gl_sched_run_show_calls(&L->S.trace, L->common, &L->run, &L->S.dev.clock, name, &names, L->kernels,
                                pt ? N : S); /* each launch call a slice on its host thread's track */
        gl_sched_run_destroy(&L->run);
        gl_sched_program_free(&L->prog);
        gl_buf_free(&L->order);
        gl_buf_free(&L->each);
    }
    /* What the table's title and the variant already say, and the start error, stay in the JSON and CSV only.
     * TODO(core): gl_row_param and gl_sched_run_series take no display flags; this sets the field they leave 0. */
    for (int i = 0; i < row->n_values; i++)
        for (int j = 0; j < GL_ARRAY_LEN(hidden); j++)
            if (!strcmp(row->values[i].name, hidden[j])) row->values[i].flags |= GL_HIDE;
    return row;
}

/* ---- main --------------------------------------------------------------------------- */

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
    static omp_lab L; /* zeroed: no row yet */
    L.streams = 16, L.kernels = 8, L.tolerance = 0.10;
    int mode = MODE_ALL, default_us[] = {10, 1000}, default_threads[6];
    gl_int_list kernel_us = {NULL, 0}, threads = {NULL, 0};
    gl_common common;
    gl_common_defaults(&common);
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &L.streams, 1, 1024, NULL, NULL, "streams (S)", 0},
        {"kernels", GL_OPT_INT, &L.kernels, 1, 64, NULL, "4", "work kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_INT_LIST, &kernel_us, 1, 1000000, NULL, "10,500",
         "durations of the work kernels in us (T), one table each (none given: 10,1000)", 0},
        {"threads", GL_OPT_INT_LIST, &threads, 1, 1024, NULL, "1,4,16",
         "OpenMP thread counts N (none given: 1,2,4,8,16 and the core count)", 0},
        {"mode", GL_OPT_CHOICE, &mode, 0, 0, "all|omp|depth|breadth|per-thread", NULL, "dispatch modes to run", 0},
        {"tolerance", GL_OPT_DOUBLE, &L.tolerance, 0, 10, NULL, NULL,
         "relative tolerance of the makespan and speed-up claims", 0},
        /* The common option with its own --quick value: racing threads' claims are a majority of runs, and with 3
         * the quick table failed in 7 of 120 processes, with 9 in 1 of 60 (H200, h200/session30/README.md). */
        {"repeat", GL_OPT_INT, &common.repeat, 1, 100000, NULL, "9", "timed repetitions per configuration", 0},
    };
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    L.common = &common;
    int cores = omp_get_num_procs();
    if (kernel_us.n == 0) kernel_us.v = default_us, kernel_us.n = 2;
    if (threads.n == 0) { /* 1, 2, 4, 8, 16 and the core count, in order, each once */
        threads.v = default_threads;
        for (int t = 1; t <= 16; t *= 2) {
            if (cores < t && cores > t / 2) threads.v[threads.n++] = cores;
            threads.v[threads.n++] = t;
        }
        if (cores > 16) threads.v[threads.n++] = cores;
    }
    int shortest = gl_int_list_min(kernel_us);
    omp_set_dynamic(0); /* a parallel region gets the threads it asks for, or the row says it did not */
    gl_sched_lab_open(&L.S, exp.name, &common);
    gl_sched_lab_calibrate(&L.S, BLOCK_THREADS, shortest);
    printf("setup: S=%d streams x K=%d kernels of 1 block x %d threads; T=", L.streams, L.kernels, BLOCK_THREADS);
    for (int i = 0; i < kernel_us.n; i++) printf("%s%d", i ? "," : "", kernel_us.v[i]);
    printf(" us; OpenMP threads ");
    for (int i = 0; i < threads.n; i++) printf("%s%d", i ? "," : "", threads.v[i]);
    printf(" (%d cores); mode %s; C=%d connections\n", cores, mode_names[mode], L.S.machine.connections);
#define RUNS(m) (mode == MODE_ALL || mode == (m))
    for (int u = 0; u < kernel_us.n; u++) {
        double us = kernel_us.v[u];
        char table[64];
        snprintf(table, sizeof table, "kernels of %g us", us);
        L.base[0] = L.base[1] = NULL; /* the single-thread rows compare with none */
        const gl_row *depth = RUNS(MODE_DEPTH) ? run_row(&L, MODE_DEPTH, 1, us, table) : NULL;
        L.base[1] = RUNS(MODE_BREADTH) ? run_row(&L, MODE_BREADTH, 1, us, table) : NULL;
        L.base[0] = depth;
        gl_buf line = GL_BUF_INIT; /* the finding: the launch call's cost as threads are added */
        for (int i = 0; i < threads.n; i++) {
            const gl_row *row = RUNS(MODE_OMP) ? run_row(&L, MODE_OMP, threads.v[i], us, table) : NULL;
            if (row && !row->skip_reason)
                gl_buf_printf(&line, "%s%d: %.2f us", line.len ? ", " : "", threads.v[i],
                              gl_row_median(row, "launch_call"));
            if (RUNS(MODE_PER_THREAD)) run_row(&L, MODE_PER_THREAD, threads.v[i], us, table);
        }
        if (line.len)
            printf("finding: T=%g us: one launch call takes (median, by OpenMP threads launching at once) %s\n", us,
                   gl_buf_str(&line));
        gl_buf_free(&line);
    }
    if (kernel_us.v != default_us) free(kernel_us.v);
    if (threads.v != default_threads) free(threads.v);
    return gl_sched_lab_close(&L.S, &common);
}
