/* false-dependency.cu - independent streams that wait on each other anyway.
 *
 * Question: how long do S independent streams take when the host issues them depth-first or breadth-first through C hardware queues?
 *
 * The GPU takes work from the host through CUDA_DEVICE_MAX_CONNECTIONS
 * hardware queues (C, default 8, at most 32); streams share them round-robin.
 * A queue is in order: a kernel that waits for its own stream's previous
 * kernel also holds back everything behind it, even other streams' kernels.
 * That is the false dependency the textbook draws for Fermi's single queue,
 * and it comes back on Hopper whenever S > C.
 *
 * Setup: S streams (--streams) x K work kernels (--kernels) of T us
 * (--kernel-us), each --blocks x --threads, issued depth-first (stream by
 * stream) or breadth-first (kernel index by kernel index).
 *
 * Model (L = resident-grid limit, 128 on sm_70..sm_90, or fewer when the
 * blocks do not all fit on the SMs at once):
 *   depth-first,  S <= C:  K*T, every stream has its own queue
 *   depth-first,  S >  C:  (ceil(S/C)*(K-1) + 1) * T: a queue holds ceil(S/C)
 *                          streams back to back, and only the first kernel of
 *                          the next stream overlaps the last of the previous
 *   breadth-first:         K*T: every queue's head is always ready
 *   beyond L, either order is at least ceil(S*K/L)*T, which then is the model.
 * Peak concurrency: breadth-first min(S, L); depth-first min(S, 2C, L) when
 * S > C and K > 1 (two streams overlap per queue), else min(S, L).
 * Claims: median makespan within --tolerance (15%) of the model, plus twice
 * the %globaltimer tick; peak concurrency equal to the model. Before that, an
 * instrument check: recording spans must cost at most 2 us per kernel.
 *
 * Run:   make run-false-dependency ARGS="--connections 1"
 *        make sweep-connections      (C = 1 2 4 8 16 32 in one table)
 * Nsight Systems (make profile-false-dependency ARGS="--connections 1"): rows
 * "stream 0".."stream S-1" show the staircase of depth-first issue; NVTX
 * ranges "order=depth C=..", "order=breadth C=.." and "span-cost" mark the phases.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connections.h"
#include "gl_cuda.h"
#include "nvtx.h"
#include "timeline.h"
#include "trace.h"

enum { ORDER_DEPTH, ORDER_BREADTH, ORDER_BOTH };
static const char *const order_names[] = {"depth", "breadth"};

/* ---- the model ------------------------------------------------------------------- */

typedef struct model {
    double makespan_us; /* predicted makespan */
    int peak;           /* predicted peak concurrency */
    char formula[96];   /* how the prediction was reached, with the numbers */
} model;

static model predict(int order, int S, int K, double T, int C, int L)
{
    model m;
    int per_queue = (S + C - 1) / C;
    double floor_waves = ceil((double)S * K / L); /* no more than L grids at once */
    if (order == ORDER_DEPTH && S > C) {
        m.makespan_us = (per_queue * (K - 1) + 1) * T;
        snprintf(m.formula, sizeof m.formula, "(ceil(%d/%d)*(%d-1)+1)*%g us", S, C, K, T);
        m.peak = K > 1 ? (S < 2 * C ? S : 2 * C) : S;
    } else {
        m.makespan_us = K * T;
        snprintf(m.formula, sizeof m.formula, "%d*%g us", K, T);
        m.peak = S;
    }
    if (floor_waves * T > m.makespan_us) {
        m.makespan_us = floor_waves * T;
        snprintf(m.formula, sizeof m.formula, "ceil(%d*%d/%d)*%g us (resident-grid limit %d)", S, K, L, T, L);
    }
    if (m.peak > L) m.peak = L;
    return m;
}

/* ---- one run --------------------------------------------------------------------- */

typedef struct ctx {
    int streams, kernels, blocks, threads;
    double kernel_us;
    cudaStream_t *stream;     /* the S streams, non-blocking so nothing else orders them */
    gl_spans spans;           /* one kernel record per launch (+ blocks with --trace) */
    unsigned long long *d_sink; /* where work kernels leave their result */
    gl_timeline tl;           /* the last run's timeline */
    int n_spans;              /* records fetched in the last run */
} ctx;

typedef struct run_result {
    double makespan_us;  /* last kernel end - first kernel start, from spans */
    int peak;            /* most kernels running at once */
    double avg_conc;     /* kernel-time / makespan */
    double issue_us;     /* host time to issue one launch */
    int kernels_seen;    /* kernel records found */
    double min_dur_us;   /* shortest kernel */
    unsigned long long sink_growth; /* what the kernels added to the sink */
} run_result;

static run_result run_once(ctx *c, int order)
{
    run_result r;
    memset(&r, 0, sizeof r);
    unsigned long long sink_before = 0, sink_after = 0;
    CUDA_CHECK(cudaMemcpy(&sink_before, c->d_sink, sizeof sink_before, cudaMemcpyDeviceToHost));
    gl_spans_reset(&c->spans);

    int outer = order == ORDER_DEPTH ? c->streams : c->kernels;
    int inner = order == ORDER_DEPTH ? c->kernels : c->streams;
    double t0 = gl_host_ns();
    for (int i = 0; i < outer; i++) {
        for (int j = 0; j < inner; j++) {
            int s = order == ORDER_DEPTH ? i : j, k = order == ORDER_DEPTH ? j : i;
            unsigned int slot = gl_spans_reserve(&c->spans, c->blocks);
            gl_work_launch(c->stream[s], c->blocks, c->threads, c->kernel_us, c->spans.dev, slot, k, s, c->d_sink);
        }
    }
    double t1 = gl_host_ns();
    CUDA_CHECK(cudaDeviceSynchronize());
    r.issue_us = (t1 - t0) / 1e3 / (outer * inner);

    CUDA_CHECK(cudaMemcpy(&sink_after, c->d_sink, sizeof sink_after, cudaMemcpyDeviceToHost));
    r.sink_growth = sink_after - sink_before;
    c->n_spans = gl_spans_fetch(&c->spans);
    gl_timeline_free(&c->tl);
    if (gl_timeline_build(&c->tl, c->spans.h_spans, c->n_spans) < 0) gl_die(GL_EXIT_CHECK, "corrupt spans");
    r.kernels_seen = c->tl.n;
    r.makespan_us = c->tl.makespan_ns / 1e3;
    r.peak = c->tl.peak_concurrency;
    r.avg_conc = c->tl.avg_concurrency;
    r.min_dur_us = 1e30;
    for (int i = 0; i < c->tl.n; i++) {
        double d = (c->tl.k[i].end_ns - c->tl.k[i].start_ns) / 1e3;
        if (d < r.min_dur_us) r.min_dur_us = d;
    }
    return r;
}

/* ---- the instrument check: what recording a span costs ------------------------------ */

/* Time n work kernels of us microseconds back to back on one stream, with or
 * without spans, and return the time per kernel in us. */
static double time_per_kernel(ctx *c, gl_spans *cost, int n, double us, int with_spans, gl_event_timer *timer)
{
    if (with_spans) gl_spans_reset(cost);
    gl_timer_start(timer, c->stream[0]);
    for (int i = 0; i < n; i++) {
        unsigned int slot = with_spans ? gl_spans_reserve(cost, c->blocks) : GL_NO_SPAN;
        gl_work_launch(c->stream[0], c->blocks, c->threads, us, cost->dev, slot, 0, 0, c->d_sink);
    }
    gl_timer_stop(timer, c->stream[0]);
    return gl_timer_ms(timer) * 1e3 / n;
}

/* Alternate runs without and with spans, so that drift hits both alike, and
 * return the per-kernel difference's statistics. */
static gl_stats span_cost(ctx *c, const gl_common *common, int n, double us, gl_stats *without, gl_stats *with)
{
    gl_spans cost;
    gl_spans_create(&cost, (unsigned)n, 0, 0);
    gl_event_timer timer;
    gl_timer_create(&timer);
    int reps = common->repeat < 5 ? 5 : common->repeat;
    double *a = (double *)calloc((size_t)reps, sizeof(double)), *b = (double *)calloc((size_t)reps, sizeof(double));
    double *d = (double *)calloc((size_t)reps, sizeof(double));
    if (!a || !b || !d) gl_die(GL_EXIT_CHECK, "out of host memory");
    for (int i = 0; i < common->warmup + reps; i++) {
        double x = time_per_kernel(c, &cost, n, us, 0, &timer);
        double y = time_per_kernel(c, &cost, n, us, 1, &timer);
        if (i < common->warmup) continue;
        a[i - common->warmup] = x;
        b[i - common->warmup] = y;
        d[i - common->warmup] = y - x;
    }
    *without = gl_stats_of(a, reps);
    *with = gl_stats_of(b, reps);
    gl_stats diff = gl_stats_of(d, reps);
    free(a);
    free(b);
    free(d);
    gl_timer_destroy(&timer);
    gl_spans_destroy(&cost);
    return diff;
}

/* ---- main --------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "false-dependency",
        "how long do S independent streams take when the host issues them depth-first or breadth-first through C "
        "hardware queues?",
        "Model: depth-first (ceil(S/C)*(K-1)+1)*T when S > C, else K*T; breadth-first K*T (up to the 128-grid limit).\n"
        "Vary C with --connections C (sets CUDA_DEVICE_MAX_CONNECTIONS before the runtime starts) or the environment."};
    int streams = 16, kernels = 4, blocks = 1, threads = 32, order = ORDER_BOTH, connections = 0, cost_kernels = 500;
    double kernel_us = 1000, tolerance = 0.15;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 1, 1024, NULL, "4", "streams (S)", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, "3", "work kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200", "duration of each work kernel in us (T)", 0},
        {"blocks", GL_OPT_INT, &blocks, 1, 1024, NULL, NULL, "blocks per work kernel", 0},
        {"threads", GL_OPT_INT, &threads, 1, 1024, NULL, NULL, "threads per block", 0},
        {"order", GL_OPT_CHOICE, &order, 0, 0, "depth|breadth|both", NULL, "issue order", 0},
        {"connections", GL_OPT_INT, &connections, 0, 32, NULL, NULL,
         "set CUDA_DEVICE_MAX_CONNECTIONS (C) before the CUDA runtime starts (0: leave the environment alone)", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
        {"span-cost-kernels", GL_OPT_INT, &cost_kernels, 10, 100000, NULL, "100",
         "kernels per sample in the span-cost check", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);

    if (connections > 0) {
        char err[256];
        const char *before = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
        if (before && *before) printf("note: --connections %d overrides CUDA_DEVICE_MAX_CONNECTIONS=%s\n", connections, before);
        if (gl_connections_request(connections, err, sizeof err)) {
            fprintf(stderr, "error: --connections: %s\n", err);
            return GL_EXIT_USAGE;
        }
    }

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);
    int C = dev.max_connections;
    int resident = gl_work_resident_blocks(&dev, threads) / blocks;
    int L = resident < dev.max_concurrent_kernels ? resident : dev.max_concurrent_kernels;
    if (L < 1) gl_die(GL_EXIT_CHECK, "a work kernel of %d blocks x %d threads does not fit on the device", blocks, threads);

    ctx c;
    memset(&c, 0, sizeof c);
    c.streams = streams;
    c.kernels = kernels;
    c.blocks = blocks;
    c.threads = threads;
    c.kernel_us = kernel_us;
    c.stream = (cudaStream_t *)calloc((size_t)streams, sizeof(cudaStream_t));
    if (!c.stream) gl_die(GL_EXIT_CHECK, "out of host memory");
    for (int s = 0; s < streams; s++) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream[s], cudaStreamNonBlocking));
        gl_nvtx_name_stream(c.stream[s], "stream %d", s);
    }
    CUDA_CHECK(cudaMalloc((void **)&c.d_sink, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(c.d_sink, 0, sizeof(unsigned long long)));
    /* Block records only when a trace will show them. */
    int per_block = common.trace_path != NULL;
    gl_spans_create(&c.spans, (unsigned)(streams * kernels * (1 + (per_block ? blocks : 0))), 0, per_block);

    printf("setup: S=%d streams x K=%d kernels x T=%g us, %d block(s) x %d threads; C=%d connections; "
           "resident-grid limit L=%d\n",
           streams, kernels, kernel_us, blocks, threads, C, L);

    /* The instrument check: span recording must not distort what it measures. */
    const double cost_us = 20;
    gl_nvtx_push("span-cost");
    gl_stats without, with;
    gl_stats diff = span_cost(&c, &common, cost_kernels, cost_us, &without, &with);
    gl_nvtx_pop();
    gl_row *row = gl_report_row(&rep, "span-cost");
    gl_row_param(row, "kernel_us", "%g", cost_us);
    gl_row_param(row, "kernels_per_sample", "%d", cost_kernels);
    gl_row_param(row, "blocks", "%d", blocks);
    gl_row_param(row, "threads", "%d", threads);
    gl_row_metric(row, "per_kernel_without_spans", "us", without);
    gl_row_metric(row, "per_kernel_with_spans", "us", with);
    gl_row_metric(row, "span_cost", "us", diff);
    printf("span cost: %d kernels of %g us back to back: %.3f us/kernel without spans, %.3f with (median); "
           "cost %.3f us/kernel (min %.3f, noise %.1f%% of the per-kernel time)\n",
           cost_kernels, cost_us, without.median, with.median, diff.median, diff.min,
           100 * diff.stddev / (without.median > 0 ? without.median : 1));
    gl_claim_at_most(&rep, 1, "recording spans costs at most 2 us per kernel", diff.median, 2.0, "us");

    static const char *headers[] = {"order", "S", "K", "T us", "C", "model", "predicted ms", "median ms",
                                    "min ms", "noise %", "dev %", "peak pred", "peak meas", "avg conc",
                                    "issue us/launch", "verdict"};
    gl_table table;
    gl_table_init(&table, GL_ARRAY_LEN(headers), headers);
    static const char *klabels[] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11",
                                    "k12", "k13", "k14", "k15", "k16", "k17", "k18", "k19", "k20", "k21", "k22",
                                    "k23", "k24", "k25"};
    gl_names names = {klabels, kernels < 26 ? kernels : 26, "stream"};
    gl_trace trace;
    gl_trace_init(&trace);
    double *mk = (double *)calloc((size_t)common.repeat, sizeof(double));
    double *peaks = (double *)calloc((size_t)common.repeat, sizeof(double));
    double *issue = (double *)calloc((size_t)common.repeat, sizeof(double));
    double *conc = (double *)calloc((size_t)common.repeat, sizeof(double));
    if (!mk || !peaks || !issue || !conc) gl_die(GL_EXIT_CHECK, "out of host memory");

    for (int o = ORDER_DEPTH; o <= ORDER_BREADTH; o++) {
        if (order != ORDER_BOTH && order != o) continue;
        model m = predict(o, streams, kernels, kernel_us, C, L);
        gl_nvtx_push("order=%s C=%d", order_names[o], C);
        int all_seen = 1, all_long = 1, all_sink = 1;
        double shortest = 1e30;
        for (int i = 0; i < common.warmup + common.repeat; i++) {
            run_result r = run_once(&c, o);
            all_seen &= r.kernels_seen == streams * kernels;
            all_long &= r.min_dur_us >= kernel_us - dev.tick_ns / 1e3;
            all_sink &= r.sink_growth >= (unsigned long long)streams * kernels * blocks;
            if (r.min_dur_us < shortest) shortest = r.min_dur_us;
            if (i < common.warmup) continue;
            mk[i - common.warmup] = r.makespan_us / 1e3;
            peaks[i - common.warmup] = r.peak;
            issue[i - common.warmup] = r.issue_us;
            conc[i - common.warmup] = r.avg_conc;
        }
        gl_nvtx_pop();
        gl_stats mk_st = gl_stats_of(mk, common.repeat), peak_st = gl_stats_of(peaks, common.repeat);
        gl_stats issue_st = gl_stats_of(issue, common.repeat), conc_st = gl_stats_of(conc, common.repeat);
        int runs = common.warmup + common.repeat;

        row = gl_report_row(&rep, order_names[o]);
        gl_row_param(row, "order", "%s", order_names[o]);
        gl_row_param(row, "streams", "%d", streams);
        gl_row_param(row, "kernels", "%d", kernels);
        gl_row_param(row, "kernel_us", "%g", kernel_us);
        gl_row_param(row, "blocks", "%d", blocks);
        gl_row_param(row, "threads", "%d", threads);
        gl_row_param(row, "connections", "%d", C);
        gl_row_param(row, "resident_grid_limit", "%d", L);
        gl_row_param(row, "model", "%s", m.formula);
        gl_row_param(row, "predicted_makespan_ms", "%.6g", m.makespan_us / 1e3);
        gl_row_param(row, "predicted_peak", "%d", m.peak);
        gl_row_metric(row, "makespan", "ms", mk_st);
        gl_row_metric(row, "peak_concurrency", "kernels", peak_st);
        gl_row_metric(row, "avg_concurrency", "kernels", conc_st);
        gl_row_metric(row, "issue_per_launch", "us", issue_st);

        gl_check(&rep, all_seen && all_long && all_sink,
                 "order=%s: all %d runs recorded %d kernels, each ran >= %g us (shortest %.3f us), and left its result",
                 order_names[o], runs, streams * kernels, kernel_us, shortest);
        char text[192];
        snprintf(text, sizeof text, "%s-first makespan matches the model %s", order_names[o], m.formula);
        gl_verdict v1 = gl_claim_near(&rep, 1, text, m.makespan_us / 1e3, mk_st.median, tolerance,
                                      2 * dev.tick_ns / 1e6, "ms");
        snprintf(text, sizeof text, "%s-first peak concurrency is %d kernels", order_names[o], m.peak);
        gl_verdict v2 = gl_claim_fact(&rep, 1, (int)lround(peak_st.median) == m.peak, text,
                                      "median over %d runs %.0f, range %.0f..%.0f", common.repeat, peak_st.median,
                                      peak_st.min, peak_st.max);

        gl_table_cell(&table, "%s", order_names[o]);
        gl_table_cell(&table, "%d", streams);
        gl_table_cell(&table, "%d", kernels);
        gl_table_cell(&table, "%g", kernel_us);
        gl_table_cell(&table, "%d", C);
        gl_table_cell(&table, "%s", m.formula);
        gl_table_cell(&table, "%.3f", m.makespan_us / 1e3);
        gl_table_cell(&table, "%.3f", mk_st.median);
        gl_table_cell(&table, "%.3f", mk_st.min);
        gl_table_cell(&table, "%.2f", 100 * mk_st.rsd);
        gl_table_cell(&table, "%+.1f", 100 * (mk_st.median - m.makespan_us / 1e3) / (m.makespan_us / 1e3));
        gl_table_cell(&table, "%d", m.peak);
        gl_table_cell(&table, "%.0f", peak_st.median);
        gl_table_cell(&table, "%.2f", conc_st.median);
        gl_table_cell(&table, "%.2f", issue_st.median);
        gl_table_cell(&table, "%s", v1 == GL_FAIL || v2 == GL_FAIL ? "FAIL" : (v1 == GL_SKIP ? "SKIP" : "PASS"));

        char title[96];
        snprintf(title, sizeof title, "order=%s C=%d (last run)", order_names[o], C);
        gl_show_run(&trace, &common, title, &c.tl, c.spans.h_spans, c.n_spans, &names);
    }

    printf("\n");
    gl_table_print(stdout, &table);
    gl_table_free(&table);
    gl_trace_finish(&trace, &common);
    free(mk);
    free(peaks);
    free(issue);
    free(conc);
    gl_timeline_free(&c.tl);
    gl_spans_destroy(&c.spans);
    CUDA_CHECK(cudaFree(c.d_sink));
    for (int s = 0; s < streams; s++) CUDA_CHECK(cudaStreamDestroy(c.stream[s]));
    free(c.stream);
    return gl_report_finish(&rep);
}
