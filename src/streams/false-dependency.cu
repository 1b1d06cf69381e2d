/* false-dependency.cu - independent streams that wait on each other anyway.
 *
 * Question: how long do S independent streams take when the host issues them depth-first or breadth-first through C hardware queues?
 * Build: none
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
 * The model treats a kernel as all-or-nothing: when one kernel's blocks do not
 * all fit on the GPU at once, its claims are SKIP with that reason.
 * Claims: median makespan within --tolerance (15%) of the model, plus twice
 * the %globaltimer tick; peak concurrency equal to the model. Before that, an
 * instrument check: recording spans must cost at most 2 us per kernel.
 *
 * Run:   make run-false-dependency ARGS="--connections 1"
 *        make sweep-connections      (C = 1,2,4,8,16,32: one process each, one merged table)
 * Nsight Systems (make profile-false-dependency ARGS="--connections 1"): rows
 * "stream 0".."stream S-1" show the staircase of depth-first issue; NVTX
 * ranges "order=depth C=..", "order=breadth C=.." and "span-cost" mark the phases.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "nvtx.h"
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

/* ---- one run of S x K kernels ------------------------------------------------------ */

typedef struct ctx {
    int streams, kernels;       /* S and K */
    int blocks, threads;        /* each kernel's shape */
    int order;                  /* ORDER_DEPTH or ORDER_BREADTH */
    double kernel_us;           /* T */
    double tick_ns;             /* the %globaltimer tick: a kernel may read that much short */
    cudaStream_t *stream;       /* the S streams, non-blocking so nothing else orders them */
    gl_spans spans;             /* one kernel record per launch (+ blocks with --trace) */
    unsigned long long *d_sink; /* where work kernels leave their result */
    gl_timeline tl;             /* the last run's timeline */
    int n_spans;                /* records fetched in the last run */
    int runs, runs_complete;    /* runs, and those in which every kernel ran its full time and left its result */
    double shortest_us;         /* shortest kernel seen in any run */
} ctx;

/* Issue every kernel in the chosen order, wait, and put the run's samples. */
static void run_order(gl_sample *smp, void *arg)
{
    ctx *c = (ctx *)arg;
    unsigned long long sink_before = 0, sink_after = 0;
    CUDA_CHECK(cudaMemcpy(&sink_before, c->d_sink, sizeof sink_before, cudaMemcpyDeviceToHost));
    gl_spans_reset(&c->spans);

    int outer = c->order == ORDER_DEPTH ? c->streams : c->kernels;
    int inner = c->order == ORDER_DEPTH ? c->kernels : c->streams;
    double t0 = gl_host_ns();
    for (int i = 0; i < outer; i++) {
        for (int j = 0; j < inner; j++) {
            int s = c->order == ORDER_DEPTH ? i : j, k = c->order == ORDER_DEPTH ? j : i;
            unsigned int slot = gl_spans_reserve(&c->spans, c->blocks);
            gl_work_launch(c->stream[s], c->blocks, c->threads, c->kernel_us, c->spans.dev, slot, k, s, c->d_sink);
        }
    }
    double t1 = gl_host_ns();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(&sink_after, c->d_sink, sizeof sink_after, cudaMemcpyDeviceToHost));
    c->n_spans = gl_spans_timeline(&c->spans, &c->tl);

    double shortest = INFINITY;
    for (int i = 0; i < c->tl.n; i++) shortest = fmin(shortest, (c->tl.k[i].end_ns - c->tl.k[i].start_ns) / 1e3);
    c->shortest_us = fmin(c->shortest_us, shortest);
    c->runs++;
    c->runs_complete += c->tl.n == c->streams * c->kernels && shortest >= c->kernel_us - c->tick_ns / 1e3 &&
                        sink_after - sink_before >= (unsigned long long)c->streams * c->kernels * c->blocks;

    gl_sample_put(smp, "makespan", c->tl.makespan_ns / 1e6);
    gl_sample_put(smp, "peak_concurrency", c->tl.peak_concurrency);
    gl_sample_put(smp, "avg_concurrency", c->tl.avg_concurrency);
    gl_sample_put(smp, "issue_per_launch", (t1 - t0) / 1e3 / (outer * inner));
}

/* ---- the instrument check: what recording a span costs ------------------------------ */

typedef struct cost_ctx {
    ctx *c;
    gl_spans spans;       /* records for one sample's kernels */
    gl_event_timer timer; /* around each back-to-back batch */
    int n;                /* kernels per batch */
    double us;            /* each kernel's duration */
} cost_ctx;

/* Time n work kernels back to back on one stream, with or without spans; us per kernel. */
static double per_kernel(cost_ctx *k, int with_spans)
{
    if (with_spans) gl_spans_reset(&k->spans);
    gl_timer_start(&k->timer, k->c->stream[0]);
    for (int i = 0; i < k->n; i++) {
        unsigned int slot = with_spans ? gl_spans_reserve(&k->spans, k->c->blocks) : GL_NO_SPAN;
        gl_work_launch(k->c->stream[0], k->c->blocks, k->c->threads, k->us, k->spans.dev, slot, 0, 0, k->c->d_sink);
    }
    gl_timer_stop(&k->timer, k->c->stream[0]);
    return gl_timer_ms(&k->timer) * 1e3 / k->n;
}

/* Without and with spans, back to back, so that drift hits both alike. */
static void run_cost(gl_sample *smp, void *arg)
{
    cost_ctx *k = (cost_ctx *)arg;
    double without = per_kernel(k, 0), with = per_kernel(k, 1);
    gl_sample_put(smp, "per_kernel_without_spans", without);
    gl_sample_put(smp, "per_kernel_with_spans", with);
    gl_sample_put(smp, "span_cost", with - without);
}

static void span_cost_row(ctx *c, gl_device *dev, const gl_common *common, gl_report *rep, int n)
{
    cost_ctx k;
    memset(&k, 0, sizeof k);
    k.c = c;
    k.n = n;
    k.us = 20;
    gl_spans_create(&k.spans, (unsigned)n * 1u, 0, 0);
    gl_timer_create(&k.timer);
    gl_sampler smp;
    gl_device_sampler(&smp, dev, common);
    if (smp.repeat < 5 && !common->profile) smp.repeat = 5; /* a difference of two times needs a few samples */
    gl_sampler_series(&smp, "per_kernel_without_spans", "us", 3, 0);
    gl_sampler_series(&smp, "per_kernel_with_spans", "us", 3, 0);
    gl_sampler_series(&smp, "span_cost", "us", 3, GL_SHOW_MIN | GL_SHOW_NOISE);

    gl_row *row = gl_report_row(rep, "span-cost", "span-cost");
    gl_row_param_num(row, "kernel_us", "", -1, k.us);
    gl_row_param_num(row, "kernels_per_sample", "", 0, n);
    gl_row_param_num(row, "blocks", "", 0, c->blocks);
    gl_row_param_num(row, "threads", "", 0, c->threads);
    gl_nvtx_push("span-cost");
    gl_sampler_run(&smp, row, run_cost, &k);
    gl_nvtx_pop();
    gl_claim_at_most(rep, row, GL_CLAIM_TIMING, "recording spans costs at most 2 us per kernel",
                     gl_row_find(row, "span_cost")->stats.median, 2.0, "us");
    gl_sampler_free(&smp);
    gl_timer_destroy(&k.timer);
    gl_spans_destroy(&k.spans);
}

/* ---- main --------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "false-dependency",
        "how long do S independent streams take when the host issues them depth-first or breadth-first through C "
        "hardware queues?",
        "Model: depth-first (ceil(S/C)*(K-1)+1)*T when S > C, else K*T; breadth-first K*T (up to the 128-grid limit).\n"
        "Vary C with --connections C (set before the runtime starts), or sweep it: --connections 1,2,4,8."};
    int streams = 16, kernels = 4, blocks = 1, threads = 32, order = ORDER_BOTH, cost_kernels = 500;
    double kernel_us = 1000, tolerance = 0.15;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 1, 1024, NULL, "4", "streams (S)", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, "3", "work kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200", "duration of each work kernel in us (T)", 0},
        {"blocks", GL_OPT_INT, &blocks, 1, 1024, NULL, NULL, "blocks per work kernel", 0},
        {"threads", GL_OPT_INT, &threads, 1, 1024, NULL, NULL, "threads per block", 0},
        {"order", GL_OPT_CHOICE, &order, 0, 0, "depth|breadth|both", NULL, "issue order", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
        {"span-cost-kernels", GL_OPT_INT, &cost_kernels, 10, 100000, NULL, "100",
         "kernels per sample in the span-cost check", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);
    int C = dev.max_connections;
    long long fit = (long long)gl_work_blocks_per_sm(threads) * dev.sms / blocks; /* kernels whose blocks all fit at once */
    int L = fit < dev.max_resident_grids ? (int)fit : dev.max_resident_grids;

    ctx c;
    memset(&c, 0, sizeof c);
    c.streams = streams;
    c.kernels = kernels;
    c.blocks = blocks;
    c.threads = threads;
    c.kernel_us = kernel_us;
    c.tick_ns = dev.tick_ns;
    c.stream = (cudaStream_t *)gl_xcalloc((size_t)streams, sizeof(cudaStream_t));
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
    span_cost_row(&c, &dev, &common, &rep, cost_kernels);

    gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, kernels};
    gl_trace trace;
    gl_trace_init(&trace);
    gl_sampler smp;
    gl_device_sampler(&smp, &dev, &common);
    gl_sampler_series(&smp, "makespan", "ms", 3, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(&smp, "peak_concurrency", "kernels", 0, 0);
    gl_sampler_series(&smp, "avg_concurrency", "kernels", 2, 0);
    gl_sampler_series(&smp, "issue_per_launch", "us", 2, 0);

    for (int o = ORDER_DEPTH; o <= ORDER_BREADTH; o++) {
        if (order != ORDER_BOTH && order != o) continue;
        gl_row *row = gl_report_row(&rep, "makespan", order_names[o]);
        gl_row_param_num(row, "streams", "", 0, streams);
        gl_row_param_num(row, "kernels", "", 0, kernels);
        gl_row_param_num(row, "kernel_us", "", -1, kernel_us);
        gl_row_param_num(row, "blocks", "", 0, blocks);
        gl_row_param_num(row, "threads", "", 0, threads);
        gl_row_param_num(row, "connections", "", 0, C);
        gl_row_param_num(row, "resident_grid_limit", "", 0, L);

        /* The prediction goes in before the measurement, so it reads first in the table. */
        model m = {0, 0, "n/a"};
        if (L >= 1) {
            m = predict(o, streams, kernels, kernel_us, C, L);
            gl_row_param(row, "model", "%s", m.formula);
            gl_row_number(row, "predicted_makespan", "ms", 3, 0, m.makespan_us / 1e3);
            gl_row_number(row, "predicted_peak", "kernels", 0, 0, m.peak);
        }
        c.order = o;
        c.runs = c.runs_complete = 0;
        c.shortest_us = INFINITY;
        gl_nvtx_push("order=%s C=%d", order_names[o], C);
        gl_sampler_run(&smp, row, run_order, &c);
        gl_nvtx_pop();
        gl_check(&rep, row, c.runs_complete == c.runs,
                 "order=%s: %d of %d runs recorded all %d kernels, each ran >= %g us (shortest %.3f us), and left its "
                 "result",
                 order_names[o], c.runs_complete, c.runs, streams * kernels, kernel_us, c.shortest_us);

        gl_stats mk = gl_row_find(row, "makespan")->stats, peak = gl_row_find(row, "peak_concurrency")->stats;
        char text[192];
        if (L < 1) {
            snprintf(text, sizeof text, "%s-first makespan matches the model", order_names[o]);
            gl_claim_skip(&rep, row, GL_CLAIM_TIMING, text,
                          "n/a: a kernel of %d blocks x %d threads does not fit on the GPU at once, and the model "
                          "treats a kernel as all-or-nothing",
                          blocks, threads);
        } else {
            gl_row_number(row, "deviation", "%", 1, 0, 100 * (mk.median - m.makespan_us / 1e3) / (m.makespan_us / 1e3));
            snprintf(text, sizeof text, "%s-first makespan matches the model %s", order_names[o], m.formula);
            gl_claim_near(&rep, row, GL_CLAIM_TIMING, text, m.makespan_us / 1e3, mk.median, tolerance,
                          2 * dev.tick_ns / 1e6, "ms");
            snprintf(text, sizeof text, "%s-first peak concurrency is %d kernels", order_names[o], m.peak);
            gl_claim_fact(&rep, row, GL_CLAIM_TIMING, (int)lround(peak.median) == m.peak, text,
                          "median over %d runs %.0f, range %.0f..%.0f", peak.n, peak.median, peak.min, peak.max);
        }
        char title[96];
        snprintf(title, sizeof title, "order=%s C=%d (last run)", order_names[o], C);
        gl_show_run(&trace, &common, title, &c.tl, c.spans.h_spans, c.n_spans, &names);
    }

    gl_trace_finish(&trace, &common, &rep);
    gl_sampler_free(&smp);
    gl_timeline_free(&c.tl);
    gl_spans_destroy(&c.spans);
    CUDA_CHECK(cudaFree(c.d_sink));
    for (int s = 0; s < streams; s++) CUDA_CHECK(cudaStreamDestroy(c.stream[s]));
    free(c.stream);
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
