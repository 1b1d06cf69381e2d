/* default-stream.cu - the NULL stream as a barrier across the other streams.
 *
 * Question: when does a kernel on the NULL stream serialize the other streams?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --skip-timing-claims
 *
 * The pattern (the textbook's "默认流的阻塞行为"): kernel_1, kernel_2 in each of
 * S streams (--streams), stream by stream; kernel_3 on the NULL stream;
 * kernel_4 in each stream; every kernel T us (--kernel-us), one warp.
 * Variants (--variant): blocking (cudaStreamCreate streams: kernel_3 waits for
 * what came before it, and each stream's next kernel waits for kernel_3),
 * non-blocking (cudaStreamNonBlocking: no barrier), per-thread (kernel_3 on
 * cudaStreamPerThread, which synchronizes with the legacy stream only: none
 * either). Built with --default-stream per-thread (the Makefile's variant
 * default-stream-per-thread), stream 0 is the per-thread stream, and blocking
 * loses its barrier. implicit-sync asks the same of ordinary calls.
 *
 * Model: the core's scheduling simulation (gl_sched.h) of the very run it is
 * compared with (gl_schedrun.h); the textbook's closed forms are in FINDINGS.
 * Claims: makespan within --tolerance of it plus two timer ticks, peak
 * concurrency equal, median kernel start error <= 5% of T; where the program
 * has a legacy barrier (gl_sched_edges), every edge of it holds in every run
 * (ordering: it holds under compute-sanitizer too); where it has none, every
 * run breaks one of the 2S edges a barrier would impose by more than T/4
 * (timing); on the GPU and in the model alike. And which stream stream 0 is
 * in this build (cudaStreamGetId).
 *
 * Run:   make run-default-stream ARGS="--connections 1"
 *        make run-default-stream-per-thread
 * Nsight Systems (make profile-default-stream): NVTX ranges "<variant> S=.. C=..";
 * streams "stream 0".."stream S-1"; kernel_3 on the default stream's row, alone
 * between the two phases in blocking, beside kernel_1 in the others. --trace
 * and --timeline show each variant's last run beside its simulation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "null-stream.cuh"

enum { VAR_ALL, VAR_BLOCKING, VAR_NONBLOCKING, VAR_PER_THREAD };
static const char *const variant_name[] = {"all", "blocking", "non-blocking", "per-thread"};

/* kernel_1, kernel_2 in each of S streams of stream_kind (program streams 1..S), stream by stream; kernel_3
 * in null_stream(null_kind); kernel_4 in each stream. Labels are the kernel numbers, tracks the streams (S:
 * kernel_3's). Two patterns of one S have the same ops at the same indices. */
static void build_pattern(gl_sched_program *p, const grid *g, int S, int stream_kind, int null_kind, double T_ns)
{
    gl_sched_program_init(p);
    for (int i = 0; i < S; i++) gl_sched_stream_new(p, stream_kind, 0, -1);
    int s3 = null_stream(p, null_kind);
    for (int i = 0; i < S; i++)
        for (int k = 1; k <= 2; k++) launch(g, p, 1 + i, i, k, T_ns);
    launch(g, p, s3, S, 3, T_ns);
    for (int i = 0; i < S; i++) launch(g, p, 1 + i, i, 4, T_ns);
}

/* One variant of the pattern, and its edge tallies over every run (warm-up included: an ordering must hold
 * each time), [0] on the GPU and [1] in the model. */
typedef struct pattern_case {
    events_lab *L;
    gl_sched_program prog; /* the pattern as this variant issues it */
    gl_sched_run run;      /* prog on the GPU, and its simulation */
    int S;                 /* tracks 0..S-1 are the streams, track S is kernel_3's */
    const char *null_name; /* kernel_3's stream: "legacy" or "per-thread" */
    int barrier;           /* prog has a legacy barrier: the edges are its own, else those one would impose */
    gl_sched_edge *edges;  /* the legacy barrier's edges, by op index */
    int n_edges;
    double slack_ns;       /* an edge holds within this (without a barrier T/4: a break is larger) */
    long long held[2], checked[2];
    int broken_runs[2];    /* runs in which some edge did not hold */
    double near_ns[2];     /* with a barrier the smallest margin, else the largest margin of a break */
    int near_edge[2];      /* that edge (-1: none) */
} pattern_case;

/* Tracks 0..S-1 are "stream s"; track S is kernel_3's ("legacy stream"). */
static void name_track(int index, gl_buf *out, const void *ctx)
{
    const pattern_case *c = (const pattern_case *)ctx;
    if (index < c->S) gl_buf_printf(out, "stream %d", index);
    else gl_buf_printf(out, "%s stream", c->null_name);
}

/* "kernel_4 of stream 3 started 12.3 us after kernel_3 on the legacy stream ended": edge i and its margin. */
static void edge_words(const pattern_case *c, int i, double margin_ns, gl_buf *out)
{
    for (int side = 0; side < 2; side++) {
        const gl_sched_op *o = &c->prog.ops[side ? c->edges[i].before : c->edges[i].after];
        if (o->track < c->S) gl_buf_printf(out, "kernel_%d of stream %d", o->label, o->track);
        else gl_buf_printf(out, "kernel_%d on the %s stream", o->label, c->null_name);
        if (!side)
            gl_buf_printf(out, " started %.1f us %s ", fabs(margin_ns) / 1e3, margin_ns >= 0 ? "after" : "before");
    }
    gl_buf_puts(out, " ended");
}

/* One run of the pattern: the samples, and the edges on both timelines. */
static void pattern_sample(gl_sample *smp, void *arg)
{
    pattern_case *c = (pattern_case *)arg;
    gl_sched_run *r = &c->run;
    gl_sched_run_once(r);
    gl_sched_run_put(smp, r, c->L->S.machine.dispatch_ns);
    gl_sample_put(smp, "issue", (r->return_ns[c->prog.n_ops - 1] - r->t0_ns) / 1e3);
    for (int w = 0; w < 2; w++) {
        gl_sched_edge_check e =
            gl_sched_edges_hold(&c->prog, c->edges, c->n_edges, w ? &r->model_tl : &r->tl, c->slack_ns);
        int broken = e.edges - e.missing - e.held > 0;
        c->held[w] += e.held;
        c->checked[w] += e.edges;
        c->broken_runs[w] += broken;
        if (c->barrier ? e.worst >= 0 && e.worst_margin_ns < c->near_ns[w]
                       : broken && e.worst_margin_ns > c->near_ns[w]) {
            c->near_ns[w] = e.worst_margin_ns;
            c->near_edge[w] = e.worst;
        }
    }
}

/* The ordering claim: with a legacy barrier, every edge held in every run; without, some edge a barrier
 * would impose was broken in every run; on the GPU and in the model alike. */
static void barrier_claim(const pattern_case *c, gl_row *row, const char *name)
{
    char text[224];
    gl_buf ev = GL_BUF_INIT;
    int runs = c->run.runs, holds;
    if (c->barrier) {
        snprintf(text, sizeof text,
                 "%s S=%d: kernel_3 is a barrier: every one of the %d legacy-stream orderings holds in every run, on "
                 "the GPU and in the model",
                 name, c->S, c->n_edges);
        gl_buf_printf(&ev, "GPU: %lld of %lld held over %d runs; model: %lld of %lld", c->held[0], c->checked[0],
                      runs, c->held[1], c->checked[1]);
        holds = c->checked[0] > 0 && c->held[0] == c->checked[0] && c->held[1] == c->checked[1];
    } else {
        snprintf(text, sizeof text,
                 "%s S=%d: no barrier: in every run kernel_3 starts before some kernel_2 ends or some kernel_4 starts "
                 "before kernel_3 ends (by more than T/4), on the GPU and in the model",
                 name, c->S);
        gl_buf_printf(&ev,
                      "of the %d orderings a legacy barrier would impose, some broken in %d of %d runs on the GPU, "
                      "%d of %d in the model",
                      c->n_edges, c->broken_runs[0], runs, c->broken_runs[1], runs);
        holds = runs > 0 && c->broken_runs[0] == runs && c->broken_runs[1] == runs;
    }
    if (c->near_edge[0] >= 0) {
        gl_buf_puts(&ev, c->barrier ? "; closest: " : "; the GPU run nearest a barrier: ");
        edge_words(c, c->near_edge[0], c->near_ns[0], &ev);
        if (!c->barrier && c->broken_runs[1] > 0)
            gl_buf_printf(&ev, " (in the model: %.1f us before)", -c->near_ns[1] / 1e3);
    }
    gl_claim_fact(&c->L->S.rep, row, c->barrier ? GL_CLAIM_ORDERING : GL_CLAIM_TIMING, holds, text, "%s",
                  gl_buf_str(&ev));
    gl_buf_free(&ev);
}

/* One variant of the pattern as a row: build, run under the sampler, claim, show. */
static void pattern_row(events_lab *L, gl_sampler *smp, int variant, int S, double T_us, double tolerance)
{
    int stream_kind = variant == VAR_NONBLOCKING ? GL_SCHED_STREAM_NONBLOCKING : GL_SCHED_STREAM_BLOCKING;
    int null_kind = variant == VAR_PER_THREAD ? GL_SCHED_STREAM_PER_THREAD : DS_NULL_KIND;
    pattern_case c;
    memset(&c, 0, sizeof c);
    c.L = L;
    c.S = S;
    c.null_name = null_kind == GL_SCHED_STREAM_LEGACY ? "legacy" : "per-thread";
    build_pattern(&c.prog, &L->one, S, stream_kind, null_kind, T_us * 1e3);
    c.n_edges = gl_sched_edges(&c.prog, GL_SCHED_EDGE_LEGACY, &c.edges);
    c.barrier = c.n_edges > 0;
    if (!c.barrier) { /* the same ops on blocking streams, kernel_3 on the legacy stream */
        gl_sched_program twin;
        build_pattern(&twin, &L->one, S, GL_SCHED_STREAM_BLOCKING, GL_SCHED_STREAM_LEGACY, T_us * 1e3);
        c.n_edges = gl_sched_edges(&twin, GL_SCHED_EDGE_LEGACY, &c.edges);
        gl_sched_program_free(&twin);
    }
    c.slack_ns = c.barrier ? L->slack_ns : T_us * 1e3 / 4;
    c.near_ns[0] = c.near_ns[1] = c.barrier ? INFINITY : -INFINITY;
    c.near_edge[0] = c.near_edge[1] = -1;
    gl_sched_run_create(&c.run, &c.prog, &L->S.machine, L->common->trace_path != NULL);
    for (int i = 0; i < S; i++) gl_nvtx_name_stream(c.run.stream[1 + i], "stream %d", i);

    const char *name = variant_name[variant];
    char range[128], text[224];
    snprintf(range, sizeof range, "%s S=%d C=%d", name, S, L->S.machine.connections);
    gl_row *row = gl_report_row(&L->S.rep, "pattern", name);
    gl_row_param_num(row, "streams", "", 0, S);
    gl_row_param_num(row, "kernel_us", "", -1, T_us);
    gl_row_param_num(row, "connections", "", 0, L->S.machine.connections);
    gl_row_param(row, "stream_kind", "%s", stream_kind == GL_SCHED_STREAM_BLOCKING ? "blocking" : "non-blocking");
    gl_row_param(row, "kernel_3_on", "%s",
                 variant == VAR_PER_THREAD ? "per-thread (cudaStreamPerThread)" : DS_BUILD " (stream 0)");
    gl_row_param(row, "build", "%s", DS_BUILD);
    sample_row(smp, row, pattern_sample, &c, range);
    gl_row_text(row, "barrier", 0, "%s", c.barrier ? "yes" : "no");

    const gl_sched_run *r = &c.run;
    gl_check(&L->S.rep, row, r->runs_complete == r->runs,
             "%s S=%d: %d of %d runs recorded all %d kernels, each ran its %g us (shortest %.3f of its time), and "
             "left its result",
             name, S, r->runs_complete, r->runs, r->launches, T_us, r->shortest_ratio);
    snprintf(text, sizeof text, "%s S=%d", name, S);
    gl_sched_run_claims(&L->S.rep, row, text, text, tolerance, L->slack_ns);
    snprintf(text, sizeof text, "%s S=%d kernels start where the simulation puts them (median error <= 5%% of T)",
             name, S);
    gl_claim_at_most(&L->S.rep, row, GL_CLAIM_TIMING, text, gl_row_find(row, "start_error")->stats.median,
                     0.05 * T_us, "us");
    barrier_claim(&c, row, name);

    gl_names names = {"kernel_%d", NULL, NULL, NULL, name_track, &c, 0};
    gl_sched_run_show(&L->S.trace, L->common, &c.run, range, &names);
    gl_sched_run_destroy(&c.run);
    gl_sched_program_free(&c.prog);
    free(c.edges);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
#if DS_PER_THREAD_BUILD
        "default-stream-per-thread",
        "built with --default-stream per-thread, does a kernel on stream 0 still act as a barrier across blocking "
        "streams?",
#else
        "default-stream",
        "when does a kernel on the NULL stream serialize the other streams?",
#endif
        "Variants: blocking (cudaStreamCreate + the NULL stream: a barrier), non-blocking, per-thread\n"
        "(cudaStreamPerThread). Model: the core's scheduling simulation of each run. Built with --default-stream\n"
        "per-thread: default-stream-per-thread. Ordinary calls between launches: implicit-sync."};
    int variant = VAR_ALL, streams = 4;
    double kernel_us = 1000, tolerance = 0.10;
    gl_option opts[] = {
        {"variant", GL_OPT_CHOICE, &variant, 0, 0, "all|blocking|non-blocking|per-thread", NULL, "which variant to run",
         0},
        {"streams", GL_OPT_INT, &streams, 1, 32, NULL, NULL, "streams (S) of the pattern", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200", "duration of each pattern kernel in us (T)", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
    };
    gl_common common;
    events_lab L;
    events_lab_start(&L, &exp, opts, GL_ARRAY_LEN(opts), &common, &kernel_us, argc, argv);
    printf("setup: " DS_BUILD " build; pattern S=%d x 4 kernels of T=%g us; C=%d connections\n", streams, kernel_us,
           L.S.machine.connections);
    null_stream_row(&L.S.rep);

    gl_sampler smp;
    gl_device_sampler(&smp, &L.S.dev, &common);
    gl_sched_run_series(&smp);
    gl_sampler_series(&smp, "issue", "us", 1, 0);
    for (int v = VAR_BLOCKING; v <= VAR_PER_THREAD; v++)
        if (variant == VAR_ALL || variant == v) pattern_row(&L, &smp, v, streams, kernel_us, tolerance);
    gl_sampler_free(&smp);
    return gl_sched_lab_close(&L.S, &common);
}
