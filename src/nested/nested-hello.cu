/* nested-hello.cu - the textbook's recursive "hello", rebuilt on CDP2.
 *
 * Question: does a kernel tail-launched by the top-level grid start only after every descendant grid has ended?
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
 * also checks that every child started after its own parent ended.
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

#include "device_check.cuh"
#include "gl_cuda.h"
#include "nvtx.h"
#include "spans.cuh"
#include "timeline.h"
#include "trace.h"

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

typedef struct run_result {
    double tree_us;            /* event time from the top-level launch to the end of the probe */
    int counts_ok;             /* device counters matched the prediction */
    gl_order join;             /* probe start vs. end of every hello grid */
    int children, late_children; /* children, and those that started after their parent ended */
} run_result;

typedef struct setup {
    int blocks, threads, size, depths;
    unsigned int grids[MAX_DEPTH], lines[MAX_DEPTH]; /* the prediction */
    hello_args args;
    gl_spans spans;
    cudaStream_t stream;
    gl_event_timer timer;
    gl_timeline tl; /* the last run's timeline */
    int n_spans;    /* records fetched in the last run */
} setup;

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

static run_result run_tree(setup *st, int quiet, int verbose)
{
    run_result r;
    memset(&r, 0, sizeof r);
    st->args.quiet = quiet;
    CUDA_CHECK(cudaMemset(st->args.counts, 0, sizeof(hello_counts)));
    gl_dev_error_reset(st->args.err);
    gl_spans_reset(&st->spans);
    unsigned int slot = gl_spans_reserve(&st->spans, st->blocks);

    gl_timer_start(&st->timer, st->stream);
    nested_hello<<<st->blocks, st->threads, 0, st->stream>>>(st->args, st->size, 0, slot, -1);
    CUDA_CHECK_LAUNCH("nested_hello");
    gl_timer_stop(&st->timer, st->stream);
    CUDA_CHECK(cudaStreamSynchronize(st->stream));
    gl_dev_error_check(st->args.err);
    r.tree_us = gl_timer_ms(&st->timer) * 1e3;

    hello_counts h;
    CUDA_CHECK(cudaMemcpy(&h, st->args.counts, sizeof h, cudaMemcpyDeviceToHost));
    r.counts_ok = compare_counts(st, &h, verbose);

    st->n_spans = gl_spans_fetch(&st->spans);
    gl_timeline_free(&st->tl);
    if (gl_timeline_build(&st->tl, st->spans.h_spans, st->n_spans) < 0) gl_die(GL_EXIT_CHECK, "corrupt spans");
    r.join = gl_timeline_after(&st->tl, gl_filter_label, &st->args.probe_label, gl_filter_not_label,
                               &st->args.probe_label, 0.0);
    /* Parent-child order, pair by pair (ids are span slots). */
    for (int i = 0; i < st->tl.n; i++) {
        const gl_interval *c = &st->tl.k[i];
        if (c->parent < 0 || c->label == st->args.probe_label) continue;
        for (int j = 0; j < st->tl.n; j++) {
            if (st->tl.k[j].kernel != c->parent) continue;
            r.children++;
            r.late_children += c->start_ns >= st->tl.k[j].end_ns;
        }
    }
    return r;
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
    if (!quiet && total_lines * (unsigned long long)modes > 100000ULL) {
        fprintf(stderr, "error: --blocks %d --threads %d would print %llu lines per mode; add --quiet\n", blocks,
                threads, total_lines);
        return GL_EXIT_USAGE;
    }

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);

    /* Device-side launch limits: every top-level block may have a child pending,
     * and every printed line must fit in the printf buffer (~64 bytes a line). */
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)(2 * blocks + 2048)));
    size_t fifo = (size_t)total_lines * 96 + (1u << 20);
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo));

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

    char label_buf[MAX_DEPTH + 1][24];
    const char *labels[MAX_DEPTH + 1];
    for (int d = 0; d < st.depths; d++) {
        snprintf(label_buf[d], sizeof label_buf[d], "hello depth %d", d);
        labels[d] = label_buf[d];
    }
    labels[st.depths] = "join probe";
    gl_names names = {labels, st.depths + 1, "depth"};
    gl_trace trace;
    gl_trace_init(&trace);

    printf("tree: %d depths, %llu grids, %llu hello lines per run; depth 0 = %d blocks x %d threads, size %d\n",
           st.depths, total_grids, total_lines, blocks, threads, st.size);
    static const char *headers[] = {"launch", "grids", "lines", "runs", "tree min us", "tree median us",
                                    "noise %", "join latency median us", "children started after parent ended"};
    gl_table table;
    gl_table_init(&table, GL_ARRAY_LEN(headers), headers);

    for (int m = 0; m < N_MODES; m++) {
        if (launch != LAUNCH_ALL && launch != m) continue;
        st.args.mode = m;
        gl_nvtx_push("launch=%s", mode_names[m]);
        printf("\n== launch=%s\n", mode_names[m]);

        /* The verification run prints (unless --quiet); the timed runs count quietly. */
        run_result first = run_tree(&st, quiet, 1);
        int runs = 1 + common.warmup + common.repeat, counts_ok = first.counts_ok, join_ok = first.join.holds;
        int children = first.children, late = first.late_children;
        double worst_margin = first.join.margin_ns;
        double *tree = (double *)calloc((size_t)common.repeat, sizeof(double));
        double *latency = (double *)calloc((size_t)common.repeat, sizeof(double));
        if (!tree || !latency) gl_die(GL_EXIT_CHECK, "out of host memory");
        for (int i = 0; i < common.warmup + common.repeat; i++) {
            run_result r = run_tree(&st, 1, 0);
            counts_ok &= r.counts_ok;
            join_ok &= r.join.holds;
            children += r.children;
            late += r.late_children;
            if (r.join.margin_ns < worst_margin) worst_margin = r.join.margin_ns;
            if (i >= common.warmup) {
                tree[i - common.warmup] = r.tree_us;
                latency[i - common.warmup] = r.join.margin_ns / 1e3;
            }
        }
        gl_nvtx_pop();
        gl_stats tree_st = gl_stats_of(tree, common.repeat), lat_st = gl_stats_of(latency, common.repeat);
        free(tree);
        free(latency);

        gl_row *row = gl_report_row(&rep, mode_names[m]);
        gl_row_param(row, "launch", "%s", mode_names[m]);
        gl_row_param(row, "blocks", "%d", blocks);
        gl_row_param(row, "threads", "%d", threads);
        gl_row_param(row, "size", "%d", st.size);
        gl_row_param(row, "depths", "%d", st.depths);
        gl_row_param(row, "grids", "%llu", total_grids);
        gl_row_metric(row, "tree_time", "us", tree_st);
        gl_row_metric(row, "join_latency", "us", lat_st);

        gl_check(&rep, counts_ok, "launch=%s: grids and lines per depth equal the prediction in all %d runs",
                 mode_names[m], runs);
        gl_claim_fact(&rep, 0, join_ok,
                      "the join probe tail-launched by the top grid starts after every descendant grid ended",
                      "%s in all %d runs; smallest margin %.3f us (probe start - last grid end), %llu grids per "
                      "run, timer tick %.0f ns",
                      join_ok ? "held" : "FAILED", runs, worst_margin / 1e3, total_grids, dev.tick_ns);
        if (m == LAUNCH_TAIL)
            gl_claim_fact(&rep, 0, children > 0 && late == children,
                          "every tail-launched child starts after its parent grid ended",
                          "%d of %d parent-child pairs over %d runs", late, children, runs);

        gl_table_cell(&table, "%s", mode_names[m]);
        gl_table_cell(&table, "%llu", total_grids);
        gl_table_cell(&table, "%llu", total_lines);
        gl_table_cell(&table, "%d", runs);
        gl_table_cell(&table, "%.1f", tree_st.min);
        gl_table_cell(&table, "%.1f", tree_st.median);
        gl_table_cell(&table, "%.1f", 100 * tree_st.rsd);
        gl_table_cell(&table, "%.2f", lat_st.median);
        gl_table_cell(&table, "%d of %d", late, children);

        char title[64];
        snprintf(title, sizeof title, "launch=%s (last run)", mode_names[m]);
        gl_show_run(&trace, &common, title, &st.tl, st.spans.h_spans, st.n_spans, &names);
    }

    printf("\n");
    gl_table_print(stdout, &table);
    gl_table_free(&table);
    gl_trace_finish(&trace, &common);
    gl_timeline_free(&st.tl);
    gl_timer_destroy(&st.timer);
    gl_spans_destroy(&st.spans);
    gl_dev_error_destroy(st.args.err);
    CUDA_CHECK(cudaFree(st.args.counts));
    CUDA_CHECK(cudaStreamDestroy(st.stream));
    return gl_report_finish(&rep);
}
