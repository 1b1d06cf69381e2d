/* false-dependency.cu - independent streams that wait on each other anyway.
 *
 * Question: how long do S independent streams take when the host issues them depth-first or breadth-first through C hardware queues?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --span-cost-kernels 10 --skip-timing-claims
 *
 * The GPU takes work from the host through CUDA_DEVICE_MAX_CONNECTIONS
 * hardware queues (C, default 8, at most 32); streams share them round-robin.
 * A queue is in order: a kernel that waits for its own stream's previous
 * kernel also holds back everything behind it, even other streams' kernels.
 * That is the false dependency the textbook draws for Fermi's single queue,
 * and it comes back on Hopper whenever S > C.
 *
 * Setup: S non-blocking streams (--streams) x K work kernels (--kernels) of
 * T us (--kernel-us), each --blocks x --threads, issued depth-first (stream
 * by stream) or breadth-first (kernel index by kernel index); the core's
 * streamgrid runs them, records every call's host time, and simulates the
 * same run.
 *
 * Model: the core's scheduling simulation (gl_sched.h), fed with this run's
 * own numbers: the queues (C), the resident-grid limit, the SMs and the blocks
 * of this shape that fit on one, the gap between dependent kernels, the work
 * distributor's time per block, and the host's time for each launch call,
 * recorded call by call in every run. Each
 * run is simulated and compared kernel by kernel with what the GPU did.
 *
 * The textbook's closed forms (derived in gl_sched.h) are printed beside it;
 * they hold only for kernels much longer than the host's issue time, one block each.
 *
 * Claims: makespan within --tolerance of the simulation, peak concurrency equal
 * to its, the median start error at most 5% of T; spans cost at most 2 us a kernel.
 *
 * Run:   make run-false-dependency ARGS="--connections 1"
 *        make sweep-connections      (C = 1,2,4,8,16,32: one process each, one merged table)
 * Nsight Systems (make profile-false-dependency ARGS="--connections 1"): rows
 * "stream 0".."stream S-1" show the staircase of depth-first issue; NVTX
 * ranges "makespan depth C=..", "makespan breadth C=.." and "span-cost" mark
 * the phases. --trace and --timeline show the model's timeline of each run
 * beside the measured one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_streamgrid.h"
#include "gl_trace.h"

enum { ORDER_DEPTH = GL_SCHED_DEPTH_FIRST, ORDER_BREADTH = GL_SCHED_BREADTH_FIRST, ORDER_BOTH };

/* ---- the instrument check: what recording a span costs ------------------------------ */

typedef struct cost_ctx {
    gl_streamgrid *g;
    gl_spans spans;       /* records for one sample's kernels */
    gl_event_timer timer; /* around each back-to-back batch */
    int n;                /* kernels per batch */
    double us;            /* each kernel's duration */
} cost_ctx;

/* Time n work kernels back to back on one stream, with or without spans; us per kernel. */
static double per_kernel(cost_ctx *k, int with_spans)
{
    cudaStream_t s = k->g->stream[0];
    if (with_spans) gl_spans_reset(&k->spans);
    gl_timer_start(&k->timer, s);
    for (int i = 0; i < k->n; i++) {
        unsigned int slot = with_spans ? gl_spans_reserve(&k->spans, k->g->blocks) : GL_NO_SPAN;
        gl_work_launch(s, k->g->blocks, k->g->threads, k->us, k->spans.dev, slot, 0, 0, k->g->d_sink);
    }
    gl_timer_stop(&k->timer, s);
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

/* The span-cost row: n kernels back to back, without and with spans, and the claim on the difference. */
static void span_cost_row(gl_streamgrid *g, gl_device *dev, const gl_common *common, gl_report *rep, int n)
{
    cost_ctx k;
    memset(&k, 0, sizeof k);
    k.g = g;
    k.n = n;
    k.us = 20;
    gl_spans_create(&k.spans, (unsigned)n, 0, 0);
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
    gl_row_param_num(row, "blocks", "", 0, g->blocks);
    gl_row_param_num(row, "threads", "", 0, g->threads);
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
        "Model: the core's scheduling simulation (gl_sched.h), fed with this run's measured costs; the textbook's\n"
        "closed forms are printed beside it. Vary C with --connections C (set before the runtime starts), or sweep\n"
        "it: --connections 1,2,4,8."};
    int streams = 16, kernels = 4, blocks = 1, threads = 32, order = ORDER_BOTH, cost_kernels = 500;
    double kernel_us = 1000, tolerance = 0.10;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 1, 1024, NULL, "4", "streams (S)", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, "3", "work kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200", "duration of each work kernel in us (T)", 0},
        {"blocks", GL_OPT_INT, &blocks, 1, 1 << 20, NULL, NULL, "blocks per work kernel", 0},
        {"threads", GL_OPT_INT, &threads, 1, 1024, NULL, NULL, "threads per block", 0},
        {"order", GL_OPT_CHOICE, &order, 0, 0, "depth|breadth|both", NULL, "issue order", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claim", 0},
        {"span-cost-kernels", GL_OPT_INT, &cost_kernels, 10, 100000, NULL, "100",
         "kernels per sample in the span-cost check", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    /* A trace keeps a record per block: refuse what the span buffer cannot index, before any GPU work. */
    if (common.trace_path && (long long)streams * kernels * (1 + (long long)blocks) > 0x7FFFFFFFLL)
        gl_die(GL_EXIT_USAGE, "--trace with %d x %d kernels of %d blocks would record more than 2^31 blocks; use fewer",
               streams, kernels, blocks);
    gl_sched_lab S;
    gl_sched_lab_open(&S, exp.name, &common);
    gl_sched_lab_calibrate(&S, threads, kernel_us);

    gl_streamgrid g;
    memset(&g, 0, sizeof g);
    g.streams = streams;
    g.kernels = kernels;
    g.blocks = blocks;
    g.threads = threads;
    g.kernel_us = kernel_us;
    g.per_block = common.trace_path != NULL; /* block records only when a trace will show them */
    gl_streamgrid_create(&g, &S.machine, S.dev.tick_ns);
    printf("setup: S=%d streams x K=%d kernels x T=%g us, %d block(s) x %d threads (%d per SM, %d at once on the "
           "GPU); C=%d connections; resident-grid limit %d\n",
           streams, kernels, kernel_us, blocks, threads, g.per_sm, g.per_sm * S.dev.sms, S.machine.connections,
           S.machine.resident_grids);

    /* The instrument check: span recording must not distort what it measures. */
    span_cost_row(&g, &S.dev, &common, &S.rep, cost_kernels);
    gl_sampler smp;
    gl_device_sampler(&smp, &S.dev, &common);
    gl_streamgrid_series(&smp, 0);
    for (int o = ORDER_DEPTH; o <= ORDER_BREADTH; o++) {
        if (order != ORDER_BOTH && order != o) continue;
        g.order = o;
        gl_streamgrid_row(&g, &S.rep, &common, &smp, &S.trace, "makespan", gl_sched_order_name(o), tolerance);
    }
    gl_sampler_free(&smp);
    gl_streamgrid_destroy(&g);
    return gl_sched_lab_close(&S, &common);
}
