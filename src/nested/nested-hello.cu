/* nested-hello.cu - the textbook's recursive "hello", rebuilt on CDP2.
 *
 * Question: does a kernel tail-launched by the top-level grid start only after every descendant grid has ended?
 * Build: rdc
 * Sanitize: --quick --skip-timing-claims
 *
 * The textbook's nested hello has thread 0 of every block launch a child grid
 * with half the threads, down to one thread. It relied on CDP1, where a parent
 * could wait for its children with device-side cudaDeviceSynchronize(); that
 * call is gone on sm_90. CDP2 offers three ways to launch the child instead:
 *   stream           a stream the block creates (cudaStreamNonBlocking)
 *   fire-and-forget  cudaStreamFireAndForget: runs independently of its parent
 *   tail             cudaStreamTailLaunch: runs after the launching grid ends
 * and one way to wait: the implicit parent-child join (a grid is not complete
 * until every grid it launched is complete), observed through a tail launch.
 *
 * Model. With B blocks of T threads at the top (size S = T unless --size is
 * given), depth 0 is one grid printing B*T lines; every depth d >= 1 has B
 * grids of floor(S / 2^d) threads, as long as the parent had more than one
 * thread. The host predicts grids and lines per depth, and the device counts
 * them. The top-level grid also tail-launches a one-thread "join probe" (from
 * the last of its blocks to launch, so that it is queued after every child).
 * CDP2 promises the probe cannot start before the top-level grid and all its
 * descendants have completed: the claim checks that the probe's measured start
 * is after the end of every descendant span, in every run. In tail mode it
 * also checks that every child started after its own parent ended (SKIP when
 * the tree has no children, e.g. --threads 1).
 *
 * The host sizes the pending-launch pool to the tree before the first launch
 * (CDP2 has no overflow pool), and a tree that does not finish within a minute
 * (plus a millisecond per grid) is reported as hung (exit 3).
 *
 * Run:   make run-nested-hello ARGS="--blocks 2 --threads 8 --launch tail"
 *        make run-nested-hello ARGS="--blocks 32 --threads 2 --size 64 --quiet"   (the blog's 64/2 layout)
 *        make run-nested-hello ARGS="--inject-launch-error"   (shows a device-side launch error surfacing: exit 3)
 * Nsight Systems (make profile-nested-hello): the NVTX range "launch=<mode>"
 * spans each mode and the stream "nested-hello top-level" carries the top
 * grid. To see the whole tree, one track per depth with every child grid and
 * the probe, write --trace FILE and open it in Perfetto.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_device_check.cuh"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_spans.cuh"
#include "gl_timeline.h"
#include "gl_trace.h"

enum { MAX_DEPTH = 12 }; /* 1024 threads halve to 1 in 10 steps: depths 0..10 */
enum { LAUNCH_STREAM, LAUNCH_FIRE_AND_FORGET, LAUNCH_TAIL, N_MODES, LAUNCH_ALL = N_MODES };
static const char *const mode_names[N_MODES] = {"stream", "fire-and-forget", "tail"};

/* Counters the device fills and the host predicts. */
typedef struct hello_counts {
    unsigned int grids[MAX_DEPTH];  /* grids that ran at each depth */
    unsigned int lines[MAX_DEPTH];  /* hello lines at each depth (printed, or counted under --quiet) */
    unsigned int blocks_launched;   /* top-level blocks done launching: the last one queues the probe */
    unsigned int printf_failures;   /* device printf calls that reported an error */
} hello_counts;

/* What every grid of the tree needs, passed by value. */
typedef struct hello_args {
    gl_span_buf spans;     /* where grids record their spans */
    hello_counts *counts;  /* device counters */
    gl_dev_error *err;     /* first failed device-side launch */
    int mode;              /* LAUNCH_STREAM, LAUNCH_FIRE_AND_FORGET or LAUNCH_TAIL */
    int quiet;             /* count lines instead of printing them */
    int inject_error;      /* make the depth-1 launches invalid, to show the error path */
    int probe_label;       /* label of the join probe (after the depth labels) */
} hello_args;

/* ---- kernels ------------------------------------------------------------------ */

/* The join probe: records only its own span. Its start time is the evidence. */
__global__ void join_probe(hello_args a, unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    gl_span_block_end(a.spans, slot, t0, a.probe_label, 0, parent);
}

__global__ void nested_hello(hello_args a, int size, int depth, unsigned int slot, int parent);

/* Launch one child grid of threads threads into the stream the mode names,
 * and record any launch error for the host. */
__device__ void launch_child(const hello_args &a, int threads, int size, int depth, unsigned int slot, int parent)
{
    if (a.mode == LAUNCH_STREAM) {
        cudaStream_t s;
        GL_DEVICE_CHECK(a.err, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        nested_hello<<<1, threads, 0, s>>>(a, size, depth, slot, parent);
        GL_DEVICE_CHECK(a.err, cudaGetLastError());
        /* Destroying the stream does not wait: the child still runs, and the
         * block's implicit join still covers it. */
        GL_DEVICE_CHECK(a.err, cudaStreamDestroy(s));
    } else if (a.mode == LAUNCH_FIRE_AND_FORGET) {
        nested_hello<<<1, threads, 0, cudaStreamFireAndForget>>>(a, size, depth, slot, parent);
        GL_DEVICE_CHECK(a.err, cudaGetLastError());
    } else {
        nested_hello<<<1, threads, 0, cudaStreamTailLaunch>>>(a, size, depth, slot, parent);
        GL_DEVICE_CHECK(a.err, cudaGetLastError());
    }
}

/* One level of the tree: every thread says hello; thread 0 of each block
 * launches a child with half of size; the top grid queues the join probe. */
__global__ void nested_hello(hello_args a, int size, int depth, unsigned int slot, int parent)
{
    unsigned long long t0 = gl_globaltimer();
    if (a.quiet) {
        atomicAdd(&a.counts->lines[depth], 1u);
    } else if (printf("depth %d block %d thread %d: hello\n", depth, (int)blockIdx.x, (int)threadIdx.x) >= 0) {
        atomicAdd(&a.counts->lines[depth], 1u);
    } else {
        atomicAdd(&a.counts->printf_failures, 1u);
    }
    if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(&a.counts->grids[depth], 1u);

    int child = size >> 1;
    if (threadIdx.x == 0 && child > 0 && depth + 1 < MAX_DEPTH) {
        unsigned int child_slot = gl_span_reserve(a.spans, 1);
        /* 2048 threads per block is never valid: the launch fails in device code. */
        int threads = (a.inject_error && depth == 0) ? 2048 : child;
        launch_child(a, threads, child, depth + 1, child_slot, (int)slot);
    }
    if (depth == 0 && threadIdx.x == 0) {
        /* The last top-level block to get here queues the probe, so that it is
         * behind every child in the grid's tail-launch queue too. */
        if (atomicAdd(&a.counts->blocks_launched, 1u) == gridDim.x - 1) {
            unsigned int probe_slot = gl_span_reserve(a.spans, 1);
            join_probe<<<1, 1, 0, cudaStreamTailLaunch>>>(a, probe_slot, (int)slot);
            GL_DEVICE_CHECK(a.err, cudaGetLastError());
        }
    }
    gl_span_block_end(a.spans, slot, t0, depth, depth, parent);
}

/* ---- host: the prediction ---------------------------------------------------- */

/* Grids and lines per depth that the tree must produce; returns the number of depths. */
static int predict(int blocks, int threads, int size, unsigned int grids[MAX_DEPTH], unsigned int lines[MAX_DEPTH])
{
    memset(grids, 0, sizeof(unsigned int) * MAX_DEPTH);
    memset(lines, 0, sizeof(unsigned int) * MAX_DEPTH);
    grids[0] = 1;
    lines[0] = (unsigned int)(blocks * threads);
    int depths = 1;
    for (int s = size >> 1; s > 0 && depths < MAX_DEPTH; s >>= 1, depths++) {
        grids[depths] = (unsigned int)blocks;
        lines[depths] = (unsigned int)(blocks * s);
    }
    return depths;
}

/* ---- host: one run of the tree ------------------------------------------------- */

typedef struct setup {
    int blocks, threads;   /* the top-level grid */
    int size, depths;      /* the size it is given, and the depths that makes */
    unsigned int grids[MAX_DEPTH], lines[MAX_DEPTH]; /* the prediction */
    hello_args args;       /* what every grid of the tree gets */
    gl_spans spans;        /* one record per grid */
    cudaStream_t stream;   /* the top-level grid's stream */
    gl_event_timer timer;  /* around the top-level launch */
    gl_timeline tl;        /* the last run's timeline */
    int n_spans;           /* records fetched in the last run */
    double timeout_s;      /* how long one tree may take before it counts as hung */
    /* what the runs of one mode showed, all runs together */
    int runs, runs_counted_ok;  /* runs, and those whose counters matched the prediction */
    int runs_with_probe;        /* runs whose probe left a span */
    gl_order worst_join;        /* the run whose probe started closest to (or before) the last grid's end */
    gl_order last_join;         /* the last run's probe start against its last grid's end */
    gl_lineage lineage;         /* parent-child pairs over all runs */
} setup;

/* Compare the device's counters with the prediction; say what differs when verbose. */
static int compare_counts(const setup *st, const hello_counts *h, int verbose)
{
    int ok = h->printf_failures == 0;
    for (int d = 0; d < MAX_DEPTH; d++) {
        if (h->grids[d] == st->grids[d] && h->lines[d] == st->lines[d]) continue;
        ok = 0;
        if (verbose)
            printf("  depth %d: predicted %u grids / %u lines, device counted %u / %u\n", d, st->grids[d],
                   st->lines[d], h->grids[d], h->lines[d]);
    }
    if (verbose && h->printf_failures) printf("  %u device printf calls failed\n", h->printf_failures);
    return ok;
}

/* Launch the tree once, wait for it, check it, and fold its facts into st.
 * Returns the event time from the top-level launch to the end of everything. */
static double run_tree(setup *st, int quiet, int verbose)
{
    st->args.quiet = quiet;
    CUDA_CHECK(cudaMemset(st->args.counts, 0, sizeof(hello_counts)));
    gl_dev_error_reset(st->args.err);
    gl_spans_reset(&st->spans);
    unsigned int slot = gl_spans_reserve(&st->spans, st->blocks);

    gl_timer_start(&st->timer, st->stream);
    nested_hello<<<st->blocks, st->threads, 0, st->stream>>>(st->args, st->size, 0, slot, -1);
    CUDA_CHECK_LAUNCH("nested_hello");
    gl_timer_stop(&st->timer, st->stream);
    gl_stream_wait(st->stream, st->timeout_s, "the nested-hello tree");
    gl_dev_error_check(st->args.err);
    double tree_us = gl_timer_ms(&st->timer) * 1e3;

    hello_counts h;
    CUDA_CHECK(cudaMemcpy(&h, st->args.counts, sizeof h, cudaMemcpyDeviceToHost));
    st->runs++;
    st->runs_counted_ok += compare_counts(st, &h, verbose);

    st->n_spans = gl_spans_timeline(&st->spans, &st->tl);
    gl_order join = gl_timeline_after(&st->tl, gl_filter_label, &st->args.probe_label, gl_filter_not_label,
                                       &st->args.probe_label, 0.0);
    st->runs_with_probe += join.n_a == 1;
    st->last_join = join;
    if (st->runs == 1 || join.margin_ns < st->worst_join.margin_ns) st->worst_join = join;
    gl_lineage l = gl_timeline_lineage(&st->tl, gl_filter_not_label, &st->args.probe_label, 0.0);
    if (st->lineage.pairs == 0 || l.worst_margin_ns < st->lineage.worst_margin_ns)
        st->lineage.worst_margin_ns = l.worst_margin_ns;
    st->lineage.pairs += l.pairs;
    st->lineage.after += l.after;
    st->lineage.orphans += l.orphans;
    return tree_us;
}

/* One timed repetition: a quiet tree. */
static void sample_tree(gl_sample *smp, void *arg)
{
    setup *st = (setup *)arg;
    double tree_us = run_tree(st, 1, 0);
    gl_sample_put(smp, "tree_time", tree_us);
    gl_sample_put(smp, "join_latency", st->last_join.margin_ns / 1e3);
}

/* Label names: one per depth, then the probe. */
static void label_name(int label, gl_buf *out, const void *ctx)
{
    if (label == *(const int *)ctx) gl_buf_puts(out, "join probe");
    else gl_buf_printf(out, "hello depth %d", label);
}

/* ---- host: main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "nested-hello",
        "does a kernel tail-launched by the top-level grid start only after every descendant grid has ended?",
        "Thread 0 of each block launches a child grid with half the threads, down to one thread (CDP2).\n"
        "Textbook layouts: --blocks 2 --threads 8 (the book), --blocks 32 --threads 2 --size 64 (the blog)."};
    int blocks = 2, threads = 8, size = 0, launch = LAUNCH_ALL, quiet = 0, inject = 0;
    gl_option opts[] = {
        {"blocks", GL_OPT_INT, &blocks, 1, 1024, NULL, NULL, "blocks in the top-level grid", 0},
        {"threads", GL_OPT_INT, &threads, 1, 1024, NULL, NULL, "threads per top-level block", 0},
        {"size", GL_OPT_INT, &size, 0, 1024, NULL, NULL, "size passed to the top grid; children get size/2 threads (0: --threads)", 0},
        {"launch", GL_OPT_CHOICE, &launch, 0, 0, "stream|fire-and-forget|tail|all", NULL, "device stream the children go into", 0},
        {"quiet", GL_OPT_FLAG, &quiet, 0, 0, NULL, NULL, "count the hello lines instead of printing them", 0},
        {"inject-launch-error", GL_OPT_FLAG, &inject, 0, 0, NULL, NULL,
         "make the depth-1 launches invalid (2048 threads), to show the error reaching the host (exit 3)", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);

    setup st;
    memset(&st, 0, sizeof st);
    st.blocks = blocks;
    st.threads = threads;
    st.size = size ? size : threads;
    st.depths = predict(blocks, threads, st.size, st.grids, st.lines);
    unsigned long long total_lines = 0, total_grids = 0;
    for (int d = 0; d < st.depths; d++) {
        total_lines += st.lines[d];
        total_grids += st.grids[d];
    }
    int modes = launch == LAUNCH_ALL ? N_MODES : 1;
    if (!quiet && total_lines * (unsigned long long)modes > 100000ULL)
        gl_die(GL_EXIT_USAGE, "--blocks %d --threads %d would print %llu lines per mode; add --quiet", blocks, threads,
               total_lines);

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);

    /* Every grid below the top, and the probe, is a device-side launch, and
     * any of them may be pending at once: the pool must hold them all. */
    size_t device_launches = (size_t)total_grids; /* total_grids - 1 children + 1 probe */
    size_t pool = device_launches > 2048 ? device_launches : 2048;
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, pool));
    /* Every printed line must fit in the printf buffer (~64 bytes a line). */
    size_t fifo = (size_t)total_lines * 96 + (1u << 20);
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, quiet ? (size_t)1 << 20 : fifo));

    CUDA_CHECK(cudaStreamCreateWithFlags(&st.stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(st.stream, "nested-hello top-level");
    CUDA_CHECK(cudaMalloc((void **)&st.args.counts, sizeof(hello_counts)));
    st.args.err = gl_dev_error_create();
    st.args.inject_error = inject;
    st.args.probe_label = st.depths;
    /* One host record for the top grid; the device reserves one per child and the probe. */
    gl_spans_create(&st.spans, 1, (unsigned)total_grids + 8, 0);
    st.args.spans = st.spans.dev;
    gl_timer_create(&st.timer);
    /* The slowest tree measured (tail launches, 10^4 grids) took 0.15 s; a
     * minute plus a millisecond per grid is hang, not slowness. */
    st.timeout_s = 60 + 1e-3 * (double)total_grids;

    gl_names names = {NULL, label_name, &st.args.probe_label, "depth %d", NULL, NULL, st.depths + 1};
    gl_trace trace;
    gl_trace_init(&trace);
    gl_sampler smp;
    gl_device_sampler(&smp, &dev, &common);
    gl_sampler_series(&smp, "tree_time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(&smp, "join_latency", "us", 2, 0);

    printf("tree: %d depths, %llu grids, %llu hello lines per run; depth 0 = %d blocks x %d threads, size %d; "
           "%zu device-side launches per run, pending-launch pool set to %zu\n",
           st.depths, total_grids, total_lines, blocks, threads, st.size, device_launches, pool);

    for (int m = 0; m < N_MODES; m++) {
        if (launch != LAUNCH_ALL && launch != m) continue;
        st.args.mode = m;
        st.runs = st.runs_counted_ok = st.runs_with_probe = 0;
        memset(&st.lineage, 0, sizeof st.lineage);
        gl_nvtx_push("launch=%s", mode_names[m]);
        printf("\n== launch=%s\n", mode_names[m]);

        gl_row *row = gl_report_row(&rep, "tree", mode_names[m]);
        gl_row_param_num(row, "blocks", "", 0, blocks);
        gl_row_param_num(row, "threads", "", 0, threads);
        gl_row_param_num(row, "size", "", 0, st.size);
        gl_row_param_num(row, "depths", "", 0, st.depths);
        gl_row_param_num(row, "grids", "", 0, (double)total_grids);

        /* Validate first: the verification run prints (unless --quiet); the timed runs count quietly. */
        run_tree(&st, quiet, 1);
        gl_sampler_run(&smp, row, sample_tree, &st);
        gl_nvtx_pop();

        gl_check(&rep, row, st.runs_counted_ok == st.runs && st.runs_with_probe == st.runs,
                 "launch=%s: grids and lines per depth equal the prediction, and the probe ran, in %d of %d runs",
                 mode_names[m], st.runs_counted_ok < st.runs_with_probe ? st.runs_counted_ok : st.runs_with_probe,
                 st.runs);
        gl_claim_order(&rep, row, GL_CLAIM_ORDERING,
                       "the join probe tail-launched by the top grid starts after every descendant grid ended",
                       &st.worst_join, "no probe span was recorded");
        gl_row_text(row, "children_after_parent", 0, "%d of %d", st.lineage.after, st.lineage.pairs);
        if (m == LAUNCH_TAIL)
            gl_claim_every(&rep, row, GL_CLAIM_ORDERING, "every tail-launched child starts after its parent grid ended",
                           st.lineage.after, st.lineage.pairs, "parent-child pairs over all runs",
                           "no parent-child pairs: a tree of size 1 launches no children");

        char title[64];
        snprintf(title, sizeof title, "launch=%s (last run)", mode_names[m]);
        gl_show_run(&trace, &common, title, &st.tl, st.spans.h_spans, st.n_spans, &names);
    }

    gl_trace_finish(&trace, &common, &rep);
    gl_sampler_free(&smp);
    gl_timeline_free(&st.tl);
    gl_timer_destroy(&st.timer);
    gl_spans_destroy(&st.spans);
    gl_dev_error_destroy(st.args.err);
    CUDA_CHECK(cudaFree(st.args.counts));
    CUDA_CHECK(cudaStreamDestroy(st.stream));
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
