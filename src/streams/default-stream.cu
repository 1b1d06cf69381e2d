/* default-stream.cu - the NULL stream as a barrier, and the calls that act like one.
 *
 * Question: when does a kernel on the NULL stream, or an ordinary call between launches, serialize the other streams?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --implicit-us 50 --skip-timing-claims
 *
 * The pattern (the textbook's "默认流的阻塞行为"): in each of S streams
 * (--streams) kernel_1 then kernel_2, issued stream by stream; then kernel_3
 * on the NULL stream; then kernel_4 in each stream. Every kernel runs T us
 * (--kernel-us), one block of 32 threads. Variants (--variant):
 *   blocking      cudaStreamCreate streams and the legacy NULL stream: kernel_3
 *                 waits for everything issued before it to a blocking stream, and
 *                 every blocking stream's next kernel waits for kernel_3.
 *   non-blocking  cudaStreamNonBlocking streams: the barrier disappears.
 *   per-thread    blocking streams, kernel_3 on the explicit cudaStreamPerThread
 *                 handle: the per-thread stream synchronizes with the legacy
 *                 stream only, so no barrier either.
 *   implicit      a kernel A (--implicit-us) in stream 1, an ordinary call, a
 *                 kernel B in stream 2, for eight calls, with non-blocking and
 *                 with blocking streams: does the call serialize A and B?
 * The same program built with --default-stream per-thread is the build variant
 * default-stream-per-thread (in the Makefile, with -DDS_PER_THREAD_BUILD=1):
 * there, stream 0 is the calling thread's per-thread stream, so the "blocking"
 * variant loses its barrier, and the implicit calls that take no stream
 * (cudaMemcpy, cudaMemset) or take stream 0 act on the per-thread stream.
 *
 * The textbook's explanation, as closed forms (one block per kernel, no host
 * cost, q = ceil(S/C) streams per queue, each queue holding its streams'
 * kernel_1, kernel_2 pairs back to back, so (q+1)*T for the first phase):
 *   blocking:                (q+3)*T: (q+1)*T, then kernel_3 alone, then all kernel_4
 *   non-blocking, per-thread: (q+2)*T: kernel_3 runs beside the first phase
 *   peak concurrency, S <= C: S with the barrier, S+1 without.
 * These are the textbook's; the code carries no closed form. Every prediction
 * is the core's scheduling simulation (gl_sched.h) of the very run it is
 * compared with (gl_sched_run, gl_schedrun.h), with the machine calibrated in the
 * same process and each call's measured host time.
 *
 * Claims, per variant: makespan within --tolerance (10%) of the simulation
 * plus two timer ticks; peak concurrency (overlaps lasting at least the
 * dispatch gap) equal to the simulation's; median kernel start error at most
 * 5% of T; and the ordering facts:
 *   - where the program has a legacy barrier (gl_sched_edges, GL_SCHED_EDGE_LEGACY):
 *     every edge holds in every run, on the GPU and in the model (an ordering
 *     claim: it holds under compute-sanitizer too, which only adds order);
 *   - where it has none: the barrier is absent, judged on the 2S orderings a
 *     legacy barrier would impose (kernel_2 of each stream before kernel_3,
 *     kernel_3 before kernel_4 of each stream): in every run at least one of
 *     them is broken by more than T/4 (kernel_3 starts before a kernel_2 ends,
 *     or a kernel_4 starts before kernel_3 ends), on the GPU and in the model
 *     alike. A timing claim: it needs kernels to run side by side, which a
 *     sanitizer prevents.
 * And a fact of the build: stream 0 is the legacy stream here, and the
 * per-thread stream in default-stream-per-thread (cudaStreamGetId).
 *
 * Implicit synchronization. The calls: cudaMalloc+cudaFree (1 MiB),
 * cudaMallocAsync+cudaFreeAsync on stream 2, cudaMemcpy host-to-device of
 * 64 KiB from pageable and from pinned memory (the direction in which the two
 * differ: the pageable copy may return once staged), cudaMemset, a
 * device-to-device cudaMemcpyAsync on stream 0, cudaDeviceSetLimit
 * (cudaLimitStackSize, set to its current value), cudaEventQuery on an event
 * recorded after A. The evidence: B's start minus A's end on the GPU, and the
 * call's host time against A's duration. A call serializes when B could not
 * start before A ended where the program without it (the call as the host
 * time of one plain call, simulated) would have let it. The finding picks the
 * model's op:
 *   - no serialization: a HOST op that makes the real call;
 *   - serialization, the host blocked for at least half of A: a SYNC on the
 *     device (the host waits for the device to be idle);
 *   - serialization, the host not blocked: a zero-length op on this build's
 *     default stream (a RECORD on GL_SCHED_LEGACY; in the per-thread build on
 *     thread 0's per-thread stream), which a blocking stream's next kernel waits for.
 * That program is simulated with the run's host times and claimed to match
 * the measured makespan; every run must agree with the median's verdict.
 *
 * Run:   make run-default-stream ARGS="--connections 1"
 *        make run-default-stream-per-thread
 * Nsight Systems (make profile-default-stream): NVTX ranges "<variant> S=.. C=.."
 * and "implicit <call> <streams> C=.."; streams are named "stream 0".."stream S-1",
 * the NULL stream's kernel_3 appears on the default stream's row. In the
 * blocking variant kernel_3 sits alone between the two phases; in the others
 * it runs beside kernel_1. --trace and --timeline show each variant's last run
 * beside the model's simulation of it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_trace.h"

/* The Makefile's default-stream-per-thread variant builds this file with
 * DS_PER_THREAD_BUILD=1: the experiment's name changes, and a launch on the NULL
 * stream means the calling thread's per-thread stream. */
#ifndef DS_PER_THREAD_BUILD
#define DS_PER_THREAD_BUILD 0
#endif
#if DS_PER_THREAD_BUILD && !defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "default-stream-per-thread must be compiled with --default-stream per-thread (its Makefile variant's needs)"
#endif
#if !DS_PER_THREAD_BUILD && defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "default-stream must be compiled with the legacy default stream"
#endif

#if DS_PER_THREAD_BUILD
#define DS_NAME "default-stream-per-thread"
#define DS_BUILD "per-thread"
/* Stream 0 of this build is the per-thread stream. The core, compiled with the
 * legacy default stream, reads 0 as the legacy stream, so schedrun launches
 * into it through the handle cudaStreamPerThread, which is the same stream
 * (checked with cudaStreamGetId). TODO(core): a launch hook in gl_sched_run,
 * so that these launches pass a literal 0 from this translation unit. */
#define DS_NULL_KIND GL_SCHED_STREAM_PER_THREAD
#define DS_NULL_NAME "per-thread (stream 0)"
#define DS_QUESTION                                                                                                    \
    "built with --default-stream per-thread, does a kernel on stream 0 still act as a barrier across blocking "       \
    "streams, and which ordinary calls serialize the others?"
#else
#define DS_NAME "default-stream"
#define DS_BUILD "legacy"
#define DS_NULL_KIND GL_SCHED_STREAM_LEGACY
#define DS_NULL_NAME "legacy (stream 0)"
#define DS_QUESTION                                                                                                    \
    "when does a kernel on the NULL stream, or an ordinary call between launches, serialize the other streams?"
#endif

enum { VAR_ALL, VAR_BLOCKING, VAR_NONBLOCKING, VAR_PER_THREAD, VAR_IMPLICIT };
static const char *const variant_name[] = {"all", "blocking", "non-blocking", "per-thread", "implicit"};
enum { THREADS = 32 }; /* one block of one warp per kernel */

/* ---- names in the timeline and the trace ------------------------------------------------ */

typedef struct track_names {
    int streams;           /* S: tracks 0..S-1 are the streams */
    const char *null_name; /* the name of track S, kernel_3's stream */
} track_names;

/* Tracks 0..S-1 are "stream s"; track S is kernel_3's. */
static void name_track(int index, gl_buf *out, const void *ctx)
{
    const track_names *t = (const track_names *)ctx;
    if (index < t->streams) gl_buf_printf(out, "stream %d", index);
    else gl_buf_printf(out, "%s stream", t->null_name);
}

/* The implicit probe's two kernels and streams. */
static void name_ab(int index, gl_buf *out, const void *ctx)
{
    (void)ctx;
    gl_buf_puts(out, index == 0 ? "A" : "B");
}
static void name_ab_stream(int index, gl_buf *out, const void *ctx)
{
    (void)ctx;
    gl_buf_printf(out, "stream %d (%s)", index + 1, index == 0 ? "A" : "B");
}

/* ---- the pattern as a program ------------------------------------------------------------ */

/* kernel_1, kernel_2 in each of S streams of stream_kind, stream by stream;
 * kernel_3 in a stream of null_kind (the legacy stream, or thread 0's
 * per-thread stream); kernel_4 in each stream. Labels are the kernel numbers,
 * tracks the stream indices (S for kernel_3). Any two programs built here with
 * the same S have the same ops at the same indices. */
static void build_pattern(gl_sched_program *p, int S, int stream_kind, int null_kind, double T_ns, int per_sm)
{
    gl_sched_program_init(p);
    int *s = (int *)gl_xcalloc((size_t)S, sizeof(int));
    for (int i = 0; i < S; i++) s[i] = gl_sched_stream_new(p, stream_kind, 0, -1);
    int null_stream = null_kind == GL_SCHED_STREAM_LEGACY ? GL_SCHED_LEGACY : gl_sched_stream_new(p, null_kind, 0, 0);
    for (int i = 0; i < S; i++)
        for (int k = 1; k <= 2; k++) {
            int op = gl_sched_launch(p, 0, s[i], 1, THREADS, per_sm, T_ns, 0);
            p->ops[op].label = k;
            p->ops[op].track = i;
        }
    int op = gl_sched_launch(p, 0, null_stream, 1, THREADS, per_sm, T_ns, 0);
    p->ops[op].label = 3;
    p->ops[op].track = S;
    for (int i = 0; i < S; i++) {
        op = gl_sched_launch(p, 0, s[i], 1, THREADS, per_sm, T_ns, 0);
        p->ops[op].label = 4;
        p->ops[op].track = i;
    }
    free(s);
}

/* One variant of the pattern: its program, the edges to check, its run, and tallies over every run. */
typedef struct pattern_case {
    gl_sched_program prog;     /* the pattern as this variant issues it */
    gl_sched_edge *edges;      /* the legacy barrier's edges in prog itself (none without a barrier) */
    int n_edges;
    gl_sched_edge *barrier;    /* the edges a legacy barrier would impose (the same ops, blocking streams,
                                  kernel_3 on the legacy stream) */
    int n_barrier;
    gl_sched_run run;          /* prog on the GPU, and its simulation */
    track_names names;         /* for the trace and for the evidence */
    double lasting_ns;         /* overlaps shorter than this do not count as concurrency */
    double slack_ns;           /* timer slack on an edge */
    double broken_ns;          /* an edge counts as broken when violated by more than this (T/4) */
    /* over every run, warm-up included: an ordering must hold each time */
    int runs;
    long long held, checked, model_held, model_checked; /* edges of prog */
    double worst_margin_ns;    /* smallest margin of an edge of prog on the GPU */
    int worst_edge;            /* its index in edges */
    int broken_runs, model_broken_runs; /* runs in which some barrier edge was broken */
    double weakest_break_ns;   /* the run nearest a barrier: its most broken edge's margin (GPU) */
    int weakest_edge;          /* that edge's index in barrier */
    double model_weakest_ns;   /* the same, in the model */
} pattern_case;

/* "kernel_2 of stream 3" or "kernel_3 on the legacy stream". */
static void op_name(const pattern_case *c, int op, gl_buf *out)
{
    const gl_sched_op *o = &c->prog.ops[op];
    if (o->track < c->names.streams) gl_buf_printf(out, "kernel_%d of stream %d", o->label, o->track);
    else gl_buf_printf(out, "kernel_%d on the %s stream", o->label, c->names.null_name);
}

/* "X started 12.3 us after Y ended", from an edge and its margin. */
static void edge_words(const pattern_case *c, const gl_sched_edge *e, double margin_ns, gl_buf *out)
{
    op_name(c, e->after, out);
    gl_buf_printf(out, " started %.1f us %s ", fabs(margin_ns) / 1e3, margin_ns >= 0 ? "after" : "before");
    op_name(c, e->before, out);
    gl_buf_puts(out, " ended");
}

/* One run of the pattern: the samples, and the ordering tallies. */
static void pattern_sample(gl_sample *smp, void *arg)
{
    pattern_case *c = (pattern_case *)arg;
    gl_sched_run *r = &c->run;
    gl_sched_run_once(r);
    c->runs++;
    gl_sched_run_put(smp, r, c->lasting_ns);
    gl_sample_put(smp, "issue", (r->return_ns[c->prog.n_ops - 1] - r->t0_ns) / 1e3);

    if (c->n_edges > 0) {
        gl_sched_edge_check m = gl_sched_edges_hold(&c->prog, c->edges, c->n_edges, &r->tl, c->slack_ns);
        gl_sched_edge_check s = gl_sched_edges_hold(&c->prog, c->edges, c->n_edges, &r->model_tl, c->slack_ns);
        c->held += m.held;
        c->checked += m.edges;
        c->model_held += s.held;
        c->model_checked += s.edges;
        if (m.worst >= 0 && m.worst_margin_ns < c->worst_margin_ns) {
            c->worst_margin_ns = m.worst_margin_ns;
            c->worst_edge = m.worst;
        }
    }
    /* Held within broken_ns: what is left was broken by more than that. */
    gl_sched_edge_check m = gl_sched_edges_hold(&c->prog, c->barrier, c->n_barrier, &r->tl, c->broken_ns);
    gl_sched_edge_check s = gl_sched_edges_hold(&c->prog, c->barrier, c->n_barrier, &r->model_tl, c->broken_ns);
    if (m.edges - m.missing - m.held > 0) {
        c->broken_runs++;
        if (m.worst_margin_ns > c->weakest_break_ns || c->weakest_edge < 0) {
            c->weakest_break_ns = m.worst_margin_ns;
            c->weakest_edge = m.worst;
        }
    }
    if (s.edges - s.missing - s.held > 0) {
        c->model_broken_runs++;
        c->model_weakest_ns = fmax(c->model_weakest_ns, s.worst_margin_ns);
    }
}

/* The claims of one pattern row. */
static void pattern_claims(pattern_case *c, gl_report *rep, gl_row *row, const char *variant, int S, double T_us,
                           double tolerance, double tick_ns)
{
    const gl_sched_run *r = &c->run;
    gl_check(rep, row, r->runs_complete == r->runs,
             "%s S=%d: %d of %d runs recorded all %d kernels, each ran its %g us (shortest %.3f of its time), and "
             "left its result",
             variant, S, r->runs_complete, r->runs, r->launches, T_us, r->shortest_ratio);
    gl_stats err = gl_row_find(row, "start_error")->stats;
    char text[224];
    snprintf(text, sizeof text, "%s S=%d", variant, S);
    gl_sched_run_claims(rep, row, text, text, tolerance, 2 * tick_ns);
    snprintf(text, sizeof text, "%s S=%d kernels start where the simulation puts them (median error <= 5%% of T)",
             variant, S);
    gl_claim_at_most(rep, row, GL_CLAIM_TIMING, text, err.median, 0.05 * T_us, "us");

    gl_buf ev = GL_BUF_INIT;
    if (c->n_edges > 0) {
        snprintf(text, sizeof text,
                 "%s S=%d: kernel_3 is a barrier: every one of the %d legacy-stream orderings holds in every run, on "
                 "the GPU and in the model",
                 variant, S, c->n_edges);
        gl_buf_printf(&ev, "GPU: %lld of %lld held over %d runs; model: %lld of %lld", c->held, c->checked, c->runs,
                      c->model_held, c->model_checked);
        if (c->worst_edge >= 0) {
            gl_buf_puts(&ev, "; closest: ");
            edge_words(c, &c->edges[c->worst_edge], c->worst_margin_ns, &ev);
        }
        int holds = c->checked > 0 && c->held == c->checked && c->model_held == c->model_checked;
        gl_claim_fact(rep, row, GL_CLAIM_ORDERING, holds, text, "%s", gl_buf_str(&ev));
    } else {
        snprintf(text, sizeof text,
                 "%s S=%d: no barrier: in every run kernel_3 starts before some kernel_2 ends or some kernel_4 starts "
                 "before kernel_3 ends (by more than T/4), on the GPU and in the model",
                 variant, S);
        gl_buf_printf(&ev,
                      "of the %d orderings a legacy barrier would impose, some broken in %d of %d runs on the GPU, "
                      "%d of %d in the model",
                      c->n_barrier, c->broken_runs, c->runs, c->model_broken_runs, c->runs);
        if (c->weakest_edge >= 0) {
            gl_buf_puts(&ev, "; the GPU run nearest a barrier: ");
            edge_words(c, &c->barrier[c->weakest_edge], c->weakest_break_ns, &ev);
            if (c->model_broken_runs > 0)
                gl_buf_printf(&ev, " (in the model: %.1f us before)", -c->model_weakest_ns / 1e3);
        }
        int holds = c->runs > 0 && c->broken_runs == c->runs && c->model_broken_runs == c->runs;
        gl_claim_fact(rep, row, GL_CLAIM_TIMING, holds, text, "%s", gl_buf_str(&ev));
    }
    gl_buf_free(&ev);
}

/* One variant of the pattern: build, run under the sampler, claim, show. */
static void pattern_row(const gl_device *dev, const gl_common *common, gl_report *rep, const gl_sched_machine *m,
                        gl_sampler *smp, gl_trace *trace, int variant, int S, double T_us, double tolerance)
{
    int stream_kind = variant == VAR_NONBLOCKING ? GL_SCHED_STREAM_NONBLOCKING : GL_SCHED_STREAM_BLOCKING;
    int null_kind = variant == VAR_PER_THREAD ? GL_SCHED_STREAM_PER_THREAD : DS_NULL_KIND;
    const char *null_name = variant == VAR_PER_THREAD ? "per-thread (cudaStreamPerThread)" : DS_NULL_NAME;
    int per_sm = gl_work_blocks_per_sm(THREADS);
    pattern_case c;
    memset(&c, 0, sizeof c);
    build_pattern(&c.prog, S, stream_kind, null_kind, T_us * 1e3, per_sm);
    gl_sched_program twin;
    build_pattern(&twin, S, GL_SCHED_STREAM_BLOCKING, GL_SCHED_STREAM_LEGACY, T_us * 1e3, per_sm);
    c.n_edges = gl_sched_edges(&c.prog, GL_SCHED_EDGE_LEGACY, &c.edges);
    c.n_barrier = gl_sched_edges(&twin, GL_SCHED_EDGE_LEGACY, &c.barrier);
    gl_sched_program_free(&twin);
    c.names.streams = S;
    c.names.null_name = null_kind == GL_SCHED_STREAM_LEGACY ? "legacy" : "per-thread";
    c.lasting_ns = m->dispatch_ns;
    c.slack_ns = 2 * dev->tick_ns;
    c.broken_ns = T_us * 1e3 / 4;
    c.worst_margin_ns = INFINITY;
    c.worst_edge = c.weakest_edge = -1;
    c.weakest_break_ns = c.model_weakest_ns = -INFINITY;
    gl_sched_run_create(&c.run, &c.prog, m, common->trace_path != NULL);
    for (int i = 0; i < S; i++) gl_nvtx_name_stream(c.run.stream[1 + i], "stream %d", i);

    const char *name = variant_name[variant];
    gl_row *row = gl_report_row(rep, "pattern", name);
    gl_row_param_num(row, "streams", "", 0, S);
    gl_row_param_num(row, "kernel_us", "", -1, T_us);
    gl_row_param_num(row, "connections", "", 0, m->connections);
    gl_row_param(row, "stream_kind", "%s", stream_kind == GL_SCHED_STREAM_BLOCKING ? "blocking" : "non-blocking");
    gl_row_param(row, "kernel_3_on", "%s", null_name);
    gl_row_param(row, "build", "%s", DS_BUILD);
    gl_nvtx_push("%s S=%d C=%d", name, S, m->connections);
    gl_sampler_run(smp, row, pattern_sample, &c);
    gl_nvtx_pop();
    gl_row_text(row, "barrier", 0, "%s", c.n_edges > 0 ? "yes" : "no");
    pattern_claims(&c, rep, row, name, S, T_us, tolerance, dev->tick_ns);

    gl_names names = {"kernel_%d", NULL, NULL, NULL, name_track, &c.names, 0};
    char title[128];
    snprintf(title, sizeof title, "%s S=%d C=%d", name, S, m->connections);
    gl_sched_run_show(trace, common, &c.run, title, &names);

    gl_sched_run_destroy(&c.run);
    gl_sched_program_free(&c.prog);
    free(c.edges);
    free(c.barrier);
}

/* ---- implicit synchronization: A, a call, B ------------------------------------------------ */

enum {
    CALL_MALLOC_FREE, CALL_MALLOC_ASYNC, CALL_MEMCPY_PAGEABLE, CALL_MEMCPY_PINNED, CALL_MEMSET, CALL_MEMCPY_ASYNC_NULL,
    CALL_SET_LIMIT, CALL_EVENT_QUERY, N_CALLS
};
static const char *const call_variant[N_CALLS] = {"malloc-free",  "malloc-async",      "memcpy-pageable",
                                                  "memcpy-pinned", "memset", "memcpy-async-null", "set-limit",
                                                  "event-query"};
static const char *const call_text[N_CALLS] = {
    "cudaMalloc + cudaFree (1 MiB)",     "cudaMallocAsync + cudaFreeAsync (1 MiB, stream 2)",
    "cudaMemcpy H2D 64 KiB, pageable",   "cudaMemcpy H2D 64 KiB, pinned",
    "cudaMemset 64 KiB",                 "cudaMemcpyAsync D2D 64 KiB, stream 0",
    "cudaDeviceSetLimit(cudaLimitStackSize, current)", "cudaEventQuery (event recorded after A)"};
enum { ALLOC_BYTES = 1 << 20, COPY_BYTES = 1 << 16 };

/* What the model makes of a call. */
enum { AS_HOST, AS_SYNC, AS_STREAM0, N_AS };
static const char *const as_name[N_AS] = {"host time", "device sync", DS_BUILD "-stream op"};
static const char *const as_series[N_AS] = {"model_host_makespan", "model_sync_makespan", "model_stream0_makespan"};

/* Buffers the calls use, made once. */
typedef struct call_bufs {
    void *d_src, *d_dst;  /* COPY_BYTES each */
    void *h_pageable;     /* malloc'd */
    void *h_pinned;       /* cudaMallocHost */
    size_t stack_bytes;   /* the stack size limit before the run: set again as it is */
} call_bufs;

/* The probe's ops. */
typedef struct probe_ops {
    int a, record, call, b; /* op indices (record: -1 when the call needs no event) */
    int stream2;            /* B's program stream */
    int ev_a;               /* the event recorded after A (-1: none) */
} probe_ops;

typedef struct implicit_case {
    int call;                /* CALL_* */
    int blocking;            /* A's and B's streams from cudaStreamCreate (else cudaStreamNonBlocking) */
    double us;               /* A's and B's duration */
    int per_sm;              /* blocks of the work kernel per SM */
    gl_sched_program prog;   /* A, [record], the call as a HOST op, B */
    probe_ops ops;
    gl_sched_run run;        /* host_call makes the real call */
    const call_bufs *bufs;
    double slack_ns;         /* timer slack on "B started after A ended" */
    int timed, serial_runs;  /* timed runs, and those in which B started after A ended */
} implicit_case;

/* A in stream 1, an event recorded after it (only where the call queries it),
 * the call as the op `as`, B in stream 2. */
static void build_probe(gl_sched_program *p, int call, int blocking, double us, int per_sm, int as, probe_ops *o)
{
    gl_sched_program_init(p);
    int kind = blocking ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING;
    int s1 = gl_sched_stream_new(p, kind, 0, -1);
    o->stream2 = gl_sched_stream_new(p, kind, 0, -1);
    o->ev_a = call == CALL_EVENT_QUERY ? gl_sched_event_new(p) : -1;
    o->a = gl_sched_launch(p, 0, s1, 1, THREADS, per_sm, us * 1e3, 0);
    p->ops[o->a].label = 0;
    p->ops[o->a].track = 0;
    o->record = o->ev_a >= 0 ? gl_sched_record(p, 0, s1, o->ev_a) : -1;
    if (as == AS_SYNC) {
        o->call = gl_sched_sync_stream(p, 0, -1);
    } else if (as == AS_STREAM0) {
        int s0 = DS_NULL_KIND == GL_SCHED_STREAM_LEGACY ? GL_SCHED_LEGACY : gl_sched_stream_new(p, DS_NULL_KIND, 0, 0);
        o->call = gl_sched_record(p, 0, s0, gl_sched_event_new(p));
    } else {
        o->call = gl_sched_host(p, 0, 0);
    }
    o->b = gl_sched_launch(p, 0, o->stream2, 1, THREADS, per_sm, us * 1e3, 0);
    p->ops[o->b].label = 1;
    p->ops[o->b].track = 1;
}

/* The real call: gl_sched_run's host_call for the probe's HOST op. Stream 0
 * and the stream-less calls mean this build's default stream. */
static void make_call(gl_sched_run *r, int op, void *arg)
{
    (void)op;
    implicit_case *c = (implicit_case *)arg;
    const call_bufs *b = c->bufs;
    void *d = NULL;
    switch (c->call) {
    case CALL_MALLOC_FREE:
        CUDA_CHECK(cudaMalloc(&d, ALLOC_BYTES));
        CUDA_CHECK(cudaFree(d));
        break;
    case CALL_MALLOC_ASYNC:
        CUDA_CHECK(cudaMallocAsync(&d, ALLOC_BYTES, r->stream[c->ops.stream2]));
        CUDA_CHECK(cudaFreeAsync(d, r->stream[c->ops.stream2]));
        break;
    case CALL_MEMCPY_PAGEABLE:
        CUDA_CHECK(cudaMemcpy(b->d_dst, b->h_pageable, COPY_BYTES, cudaMemcpyHostToDevice));
        break;
    case CALL_MEMCPY_PINNED: CUDA_CHECK(cudaMemcpy(b->d_dst, b->h_pinned, COPY_BYTES, cudaMemcpyHostToDevice)); break;
    case CALL_MEMSET: CUDA_CHECK(cudaMemset(b->d_dst, 0, COPY_BYTES)); break;
    case CALL_MEMCPY_ASYNC_NULL:
        CUDA_CHECK(cudaMemcpyAsync(b->d_dst, b->d_src, COPY_BYTES, cudaMemcpyDeviceToDevice, 0));
        break;
    case CALL_SET_LIMIT: CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, b->stack_bytes)); break;
    default: {
        /* Not ready is the expected answer while A runs, not an error. */
        cudaError_t e = cudaEventQuery(r->event[c->ops.ev_a]);
        if (e != cudaErrorNotReady) CUDA_CHECK(e);
        else if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
        break;
    }
    }
}

/* What the model predicts for the last run with the call as op `as`. */
typedef struct as_result {
    double makespan_ns;   /* first kernel start to last kernel end */
    double b_after_a_ns;  /* B's start minus A's end */
} as_result;

/* The probe's last run as a program in which the call is the op `as`, every op
 * with its measured host time (the call's own: call_ns when >= 0), simulated;
 * tl (if not NULL) gets its kernels. */
static as_result simulate_as_cost(implicit_case *c, int as, gl_timeline *tl, double call_ns)
{
    const gl_sched_run *r = &c->run;
    gl_sched_program p;
    probe_ops o;
    build_probe(&p, c->call, c->blocking, c->us, c->per_sm, as, &o);
    for (int i = 0; i < p.n_ops; i++) {
        p.ops[i].issue_ns = c->prog.ops[i].issue_ns;
        p.ops[i].id = c->prog.ops[i].id;
    }
    /* A wait's own cost is the machine's; the rest of the call's time is the wait the simulation makes. */
    if (as == AS_SYNC) p.ops[o.call].issue_ns = r->machine.issue_ns + (r->call_ns[o.call] - r->return_ns[o.call - 1]);
    if (call_ns >= 0) p.ops[o.call].issue_ns = call_ns + (r->call_ns[o.call] - r->return_ns[o.call - 1]);
    gl_sched_result res;
    char err[160];
    if (gl_sched_simulate(&p, &r->machine, &res, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "the scheduling model refused the %s probe: %s", call_variant[c->call], err);
    as_result out = {res.makespan_ns, p.ops[o.b].start_ns - p.ops[o.a].end_ns};
    if (tl) gl_sched_timeline(&p, tl);
    gl_sched_program_free(&p);
    return out;
}

/* The same, with the call at its recorded host time. */
static as_result simulate_as(implicit_case *c, int as, gl_timeline *tl) { return simulate_as_cost(c, as, tl, -1); }

/* One run of A, the call, B: the evidence, and the three models of it. */
static void implicit_sample(gl_sample *smp, void *arg)
{
    implicit_case *c = (implicit_case *)arg;
    gl_sched_run *r = &c->run;
    gl_sched_run_once(r);
    const gl_interval *a = gl_sched_run_kernel(r, c->ops.a), *b = gl_sched_run_kernel(r, c->ops.b);
    double a_ns = a ? a->end_ns - a->start_ns : NAN, b_after_a = a && b ? b->start_ns - a->end_ns : NAN;
    if (smp->timed) {
        c->timed++;
        c->serial_runs += b_after_a >= -c->slack_ns;
    }
    gl_sample_put(smp, "call_duration", (r->return_ns[c->ops.call] - r->call_ns[c->ops.call]) / 1e3);
    gl_sample_put(smp, "a_duration", a_ns / 1e3);
    gl_sample_put(smp, "b_after_a", b_after_a / 1e3);
    gl_sample_put(smp, "makespan", r->tl.makespan_ns / 1e6);
    for (int as = 0; as < N_AS; as++) {
        as_result m = simulate_as(c, as, NULL);
        gl_sample_put(smp, as_series[as], m.makespan_ns / 1e6);
    }
    /* Without the call's effect: the call as host time of one plain call, so
     * that a call which blocked the host does not explain itself. */
    as_result bare = simulate_as_cost(c, AS_HOST, NULL, r->machine.issue_ns);
    gl_sample_put(smp, "model_host_b_after_a", bare.b_after_a_ns / 1e3);
}

/* One call between A and B: measure, decide what it is, claim the model of that. */
static void implicit_row(const gl_device *dev, const gl_common *common, gl_report *rep, const gl_sched_machine *m,
                         gl_sampler *smp, gl_trace *trace, const call_bufs *bufs, int call, int blocking, double us,
                         double tolerance)
{
    implicit_case c;
    memset(&c, 0, sizeof c);
    c.call = call;
    c.blocking = blocking;
    c.us = us;
    c.per_sm = gl_work_blocks_per_sm(THREADS);
    c.bufs = bufs;
    c.slack_ns = 2 * dev->tick_ns;
    build_probe(&c.prog, call, blocking, us, c.per_sm, AS_HOST, &c.ops);
    c.run.host_call = make_call;
    c.run.host_ctx = &c;
    gl_sched_run_create(&c.run, &c.prog, m, common->trace_path != NULL);
    gl_nvtx_name_stream(c.run.stream[1], "stream 1 (A)");
    gl_nvtx_name_stream(c.run.stream[2], "stream 2 (B)");

    const char *kind = blocking ? "blocking" : "non-blocking";
    gl_row *row = gl_report_row(rep, "implicit", call_variant[call]);
    gl_row_param(row, "call", "%s", call_text[call]);
    gl_row_param(row, "stream_kind", "%s", kind);
    gl_row_param_num(row, "kernel_us", "", -1, us);
    gl_row_param_num(row, "connections", "", 0, m->connections);
    gl_row_param(row, "build", "%s", DS_BUILD);
    gl_nvtx_push("implicit %s %s C=%d", call_variant[call], kind, m->connections);
    gl_sampler_run(smp, row, implicit_sample, &c);
    gl_nvtx_pop();

    /* The decision, from the medians of what was measured. */
    gl_stats call_us = gl_row_find(row, "call_duration")->stats, a_us = gl_row_find(row, "a_duration")->stats;
    gl_stats gap = gl_row_find(row, "b_after_a")->stats, host_gap = gl_row_find(row, "model_host_b_after_a")->stats;
    double slack_us = c.slack_ns / 1e3;
    int serial = gap.median >= -slack_us;              /* B did not start before A ended */
    int serial_anyway = host_gap.median >= -slack_us;  /* the program does that without the call */
    int host_blocks = call_us.median >= 0.5 * a_us.median;
    int serializes = serial && !serial_anyway;
    int as = !serializes ? AS_HOST : host_blocks ? AS_SYNC : AS_STREAM0;
    gl_row_text(row, "serializes", 0, "%s", serializes ? "yes" : "no");
    gl_row_text(row, "host_blocks", 0, "%s", host_blocks ? "yes" : "no");
    gl_row_text(row, "model_op", 0, "%s", as_name[as]);
    gl_stats model = gl_row_find(row, as_series[as])->stats;
    gl_row_stats(row, "model_makespan", "ms", 3, 0, model);

    const gl_sched_run *r = &c.run;
    gl_check(rep, row, r->runs_complete == r->runs,
             "implicit %s, %s streams: %d of %d runs recorded A and B, each ran its %g us, and left its result",
             call_variant[call], kind, r->runs_complete, r->runs, us);
    char text[224];
    snprintf(text, sizeof text, "%s, %s streams: serializes: %s, in every run", call_text[call], kind,
             serializes ? "yes" : "no");
    int agree = serial ? c.serial_runs : c.timed - c.serial_runs;
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, c.timed > 0 && agree == c.timed, text,
                  "B's start - A's end %+.1f us (median; %+.1f..%+.1f), %d of %d runs agree; the call took %.1f us "
                  "while A ran %.1f us (host %s); without the call the model has B's start - A's end %+.1f us: %s",
                  gap.median, gap.min, gap.max, agree, c.timed, call_us.median, a_us.median,
                  host_blocks ? "blocked" : "not blocked", host_gap.median,
                  serial_anyway ? "it serializes without the call" : "B overlaps A");
    snprintf(text, sizeof text, "%s, %s streams, modelled as %s: makespan matches the simulation", call_text[call],
             kind, as_name[as]);
    gl_claim_near(rep, row, GL_CLAIM_TIMING, text, model.median, gl_row_find(row, "makespan")->stats.median,
                  tolerance, 2 * dev->tick_ns / 1e6, "ms");

    gl_names names = {NULL, name_ab, NULL, NULL, name_ab_stream, NULL, 2};
    char title[160];
    snprintf(title, sizeof title, "implicit %s %s C=%d (last run)", call_variant[call], kind, m->connections);
    gl_show_run(trace, common, title, &c.run.tl, c.run.spans.h_spans, c.run.n_spans, &names);
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    simulate_as(&c, as, &tl);
    snprintf(title, sizeof title, "implicit %s %s C=%d (model of the last run, call as %s)", call_variant[call], kind,
             m->connections, as_name[as]);
    gl_show_run(trace, common, title, &tl, NULL, 0, &names);
    gl_timeline_free(&tl);

    gl_sched_run_destroy(&c.run);
    gl_sched_program_free(&c.prog);
}

/* ---- what stream 0 is in this build ------------------------------------------------------ */

/* Stream 0 is the legacy stream, or in a per-thread build the per-thread stream. */
static void null_stream_row(gl_report *rep)
{
    unsigned long long id0 = 0, legacy = 0, per_thread = 0;
    CUDA_CHECK(cudaStreamGetId(0, &id0));
    CUDA_CHECK(cudaStreamGetId(cudaStreamLegacy, &legacy));
    CUDA_CHECK(cudaStreamGetId(cudaStreamPerThread, &per_thread));
    const char *is = id0 == legacy ? "legacy" : id0 == per_thread ? "per-thread" : "neither";
    gl_row *row = gl_report_row(rep, "null-stream", DS_BUILD);
    gl_row_param(row, "build", "%s", DS_BUILD);
    gl_row_text(row, "stream_0_is", 0, "%s", is);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, strcmp(is, DS_BUILD) == 0 && legacy != per_thread,
                  "in the " DS_BUILD " build, stream 0 is the " DS_BUILD " default stream",
                  "cudaStreamGetId: stream 0 -> %llu, cudaStreamLegacy -> %llu, cudaStreamPerThread -> %llu", id0,
                  legacy, per_thread);
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        DS_NAME,
        DS_QUESTION,
        "Variants: blocking (cudaStreamCreate + the NULL stream: a barrier), non-blocking, per-thread\n"
        "(cudaStreamPerThread), implicit (eight calls between two kernels: which serialize). Model: the core's\n"
        "scheduling simulation of each run. Built with --default-stream per-thread: default-stream-per-thread."};
    int variant = VAR_ALL, streams = 4;
    double kernel_us = 1000, implicit_us = 2000, tolerance = 0.10;
    gl_option opts[] = {
        {"variant", GL_OPT_CHOICE, &variant, 0, 0, "all|blocking|non-blocking|per-thread|implicit", NULL,
         "which variant to run", 0},
        {"streams", GL_OPT_INT, &streams, 1, 32, NULL, NULL, "streams (S) of the pattern", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200", "duration of each pattern kernel in us (T)", 0},
        {"implicit-us", GL_OPT_DOUBLE, &implicit_us, 1, 1e6, NULL, "500",
         "duration of kernels A and B of the implicit-synchronization probe in us", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    gl_sched_lab S;
    gl_sched_lab_open(&S, exp.name, &common);
    gl_sched_lab_calibrate(&S, THREADS, kernel_us);
    printf("setup: " DS_BUILD " build; pattern S=%d x 4 kernels of T=%g us; implicit probe A=B=%g us; C=%d "
           "connections\n",
           streams, kernel_us, implicit_us, S.machine.connections);

    null_stream_row(&S.rep);

    gl_sampler smp;
    gl_device_sampler(&smp, &S.dev, &common);
    gl_sched_run_series(&smp);
    gl_sampler_series(&smp, "issue", "us", 1, 0);
    for (int v = VAR_BLOCKING; v <= VAR_PER_THREAD; v++)
        if (variant == VAR_ALL || variant == v)
            pattern_row(&S.dev, &common, &S.rep, &S.machine, &smp, &S.trace, v, streams, kernel_us, tolerance);
    gl_sampler_free(&smp);

    if (variant == VAR_ALL || variant == VAR_IMPLICIT) {
        call_bufs bufs;
        memset(&bufs, 0, sizeof bufs);
        CUDA_CHECK(cudaMalloc(&bufs.d_src, COPY_BYTES));
        CUDA_CHECK(cudaMalloc(&bufs.d_dst, COPY_BYTES));
        CUDA_CHECK(cudaMemset(bufs.d_src, 1, COPY_BYTES));
        CUDA_CHECK(cudaMallocHost(&bufs.h_pinned, COPY_BYTES));
        bufs.h_pageable = gl_xmalloc(COPY_BYTES);
        memset(bufs.h_pageable, 2, COPY_BYTES);
        memset(bufs.h_pinned, 3, COPY_BYTES);
        CUDA_CHECK(cudaDeviceGetLimit(&bufs.stack_bytes, cudaLimitStackSize));
        CUDA_CHECK(cudaDeviceSynchronize());

        gl_device_sampler(&smp, &S.dev, &common);
        gl_sampler_series(&smp, "call_duration", "us", 1, 0);
        gl_sampler_series(&smp, "a_duration", "us", 1, 0);
        gl_sampler_series(&smp, "b_after_a", "us", 1, 0);
        gl_sampler_series(&smp, "makespan", "ms", 3, 0);
        gl_sampler_series(&smp, "model_host_makespan", "ms", 3, GL_HIDE);
        gl_sampler_series(&smp, "model_sync_makespan", "ms", 3, GL_HIDE);
        gl_sampler_series(&smp, "model_stream0_makespan", "ms", 3, GL_HIDE);
        gl_sampler_series(&smp, "model_host_b_after_a", "us", 1, GL_HIDE);
        for (int blocking = 0; blocking < 2; blocking++)
            for (int call = 0; call < N_CALLS; call++)
                implicit_row(&S.dev, &common, &S.rep, &S.machine, &smp, &S.trace, &bufs, call, blocking, implicit_us,
                             tolerance);
        gl_sampler_free(&smp);

        CUDA_CHECK(cudaFree(bufs.d_src));
        CUDA_CHECK(cudaFree(bufs.d_dst));
        CUDA_CHECK(cudaFreeHost(bufs.h_pinned));
        free(bufs.h_pageable);
    }
    return gl_sched_lab_close(&S, &common);
}
