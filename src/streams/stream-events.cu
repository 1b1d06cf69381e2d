/* stream-events.cu - cross-stream dependencies with events: what they order, what they leave free, what they cost.
 *
 * Question: do events order exactly the dependencies they name (fan-in, fan-out, random DAGs), leave the rest concurrent, and what does an event cost?
 * Build: none
 *
 * cudaEventRecord(e, a) marks a point in stream a; cudaStreamWaitEvent(b, e)
 * holds everything issued to b after it until a has reached that point. The
 * textbook's example, the seed's fan-in, issues from one host thread:
 *     for i in 0..S-1: K kernels in stream i; record(e[i], stream i); wait(stream S-1, e[i])
 * Stream S-1's own kernels are issued after the waits for streams 0..S-2, so
 * they start only once every other stream's kernels have ended, while
 * streams 0..S-2 still run side by side.
 *
 * Hypothesis: an event orders exactly what it names. A record and a wait do
 * not hold their hardware queue themselves (gl_sched.h, "Events": measured
 * here, with one queue, in the fan-in); the waiting stream's next kernel
 * does, at the queue's head, so where it shares a queue with another stream's
 * calls it holds those back (a false dependency). A DAG takes
 * its critical path through the queues: the longest chain of kernels through
 * the dependencies and stream order, a dispatch gap per link, plus whatever
 * the queues add.
 *
 * Model: the core's scheduling simulation of the very run that was measured:
 * each part describes its work once, as a gl_sched_program, and schedrun.h
 * issues that program on real streams and events, records the host clock
 * around every call and a span for every kernel, and simulates the run with
 * those host times on a machine calibrated once in this run. No formula lives
 * in the code. The closed forms, when every stream has a queue of its own and
 * issue is much faster than T (one block per kernel, all resident at once):
 *     fan-in:  2*K*T (K*T of streams 0..S-2 side by side, then stream S-1's K*T), peak S-1
 *     fan-out: 2*K*T (the producer's K*T, then the S-1 consumers' side by side), peak S-1
 *     diamond: 3*T, peak 2
 *     DAG:     its critical path (printed as critical_path), plus a dispatch gap per link
 * They stop holding when the calls need more queues than C. The seed's order
 * alternates between stream i and stream S-1, 2(S-1) picks of a queue (the
 * call sequence picks queues on Hopper, gl_sched.h "Queues"); S = 4 takes 6 of
 * C = 8. With --streams 8 the calls share queues, and the model does not yet
 * follow: on the H200 a quick run's fan-in took 1.715 ms against 2.259 ms
 * predicted (its makespan claim fails). The tests claim S = 4 only.
 *
 * Parts (--part):
 *  fan-in   (table "pattern") the seed's pattern above, S x K kernels of T.
 *  fan-out  (table "pattern") stream 0 runs K kernels and records one event;
 *           streams 1..S-1 each wait for it, then run K kernels.
 *  dag      (table "dag") a diamond (A; B and C on two other streams, each
 *           waiting for A; D after both, on A's stream), then --dags random
 *           DAGs from --seed: S*K kernels in issue order; kernel j gets a
 *           stream uniformly from S, a duration uniformly in [T/2, 3T/2), and
 *           depends on each of the 2S kernels before it with probability 1/4
 *           (at most 3). A dependency on a kernel of another stream becomes a
 *           record right after the producer and a wait right before the
 *           consumer; one on the same stream is stream order.
 *  cost     (table "cost") chains of 32 kernels of 50 us, each waiting for the
 *           one before: in stream order (no event), through a record and a
 *           wait in the same stream, and across two streams (ping-pong), with
 *           cudaEventDisableTiming and without. The host's cost of each call
 *           (its host clock around it, median over the chain) and the device's:
 *           the gap between a kernel's end and the next one's start, against
 *           the stream-order chain (added_gap). Reported, not claimed: no
 *           published number says what they must be.
 *  accuracy (table "accuracy") cudaEventElapsedTime between two events around
 *           a region of 4 kernels in one stream, against the region's span
 *           (first kernel's first block start to last kernel's last block
 *           end, %globaltimer), for regions of 10 us, 100 us, 1 ms, 10 ms,
 *           100 ms (--quick: up to 1 ms); "queued": the stream is held by a
 *           200 us kernel while the host issues the region, so only the
 *           device is timed; "idle": the first event lands on an idle stream,
 *           as in most samples, and the host's issue time is timed too.
 *
 * Claims:
 *  fan-in, fan-out, diamond: every event edge (gl_sched_edges) holds in every
 *    run, within two %globaltimer ticks (ordering: enforced under sanitizers,
 *    which serialize kernels, as edges hold when serialized too); peak
 *    concurrency (kernels together for at least the dispatch gap) equal to the
 *    simulation's; median makespan within --tolerance (10%) of the
 *    simulation's (timing).
 *  dag: every dependency of every DAG (event edges and stream order) holds in
 *    every run (ordering); the median makespan is within --tolerance of the
 *    simulation's in every DAG (timing). Both over all DAGs at once, with the
 *    worst DAG named; the per-DAG numbers are rows of the table.
 *  cost: the event edges of each chain hold in every run (ordering).
 *  accuracy: the event interval is never shorter than the span, less 1 us
 *    (cudaEventElapsedTime's resolution is "around 0.5 us", runtime API) and
 *    two ticks: the two records bracket the region in stream order, and both
 *    clocks are the GPU's global timer (ordering).
 * Every row also checks that every kernel ran its full time and left its result.
 *
 * Run:   make run-stream-events ARGS="--part dag --dags 100 --seed 7"
 *        make run-stream-events ARGS="--part fan-in --streams 8 --connections 8,16"
 * Nsight Systems (make profile-stream-events ARGS=--quick): NVTX ranges
 * "fan-in S=..", "fan-out S=..", "diamond", "dag N", "cost ..", "accuracy ..";
 * streams are named "stream 0".."stream S-1". In fan-in the last stream's row
 * starts where the others end; in fan-out the consumers' rows start together
 * where the producer's ends. --trace and --timeline show each run beside its
 * simulation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gl_cuda.h"
#include "nvtx.h"
#include "schedrun.h"
#include "trace.h"

enum { PART_ALL, PART_FAN_IN, PART_FAN_OUT, PART_DAG, PART_COST, PART_ACCURACY };
enum { THREADS = 32 };        /* every work kernel is one block of one warp */
enum { COST_CHAIN = 32 };     /* kernels in a cost chain */
enum { REGION_KERNELS = 4 };  /* kernels in an accuracy region */
static const double COST_KERNEL_US = 50;     /* long enough that the host stays ahead of the chain */
static const double HOLD_US = 200;           /* holds a stream while the host issues an accuracy region */
static const double EVENT_RESOLUTION_NS = 1000; /* cudaEventElapsedTime: "around 0.5 us", doubled */
static const double REGION_US[] = {10, 100, 1000, 10000, 100000};

/* What every part needs: the device, the model's machine, the options, the outputs. */
typedef struct lab {
    gl_device dev;            /* the GPU */
    gl_sched_machine machine; /* calibrated once */
    const gl_common *common;  /* the common options */
    gl_report *rep;           /* rows and claims */
    gl_trace trace;           /* --trace */
    int per_sm;               /* work-kernel blocks that fit on one SM */
    int streams, kernels;     /* S and K */
    double kernel_us;         /* T */
    double tolerance;         /* of the makespan claims */
    double slack_ns;          /* two %globaltimer ticks */
} lab;

/* ---- a program on the GPU, sampled -------------------------------------------------- */

/* One program run by schedrun, and what its runs showed beyond the run itself. */
typedef struct run_ctx {
    lab *L;
    gl_sched_run run;           /* streams, events, the last run and its simulation */
    const gl_sched_edge *edges; /* dependencies every run must keep (op indices); NULL: none */
    int n_edges;                /* how many */
    long long checked, held;    /* edge checks over every run, warm-up included, and those that held */
    double worst_margin_ns;     /* smallest (start of after) - (end of before) seen */
    int region_first, region_last; /* accuracy: the region's first and last launch ops */
    int rec0, rec1;             /* accuracy: the record ops around the region */
    long long bracket_runs, bracketed; /* accuracy: runs, and those whose event interval covered the span */
    double worst_bracket_ns;    /* accuracy: smallest event interval - span */
} run_ctx;

/* Make the program's streams and events; timing: events that keep time. */
static void run_open(run_ctx *x, lab *L, gl_sched_program *p, int timing)
{
    memset(x, 0, sizeof *x);
    x->L = L;
    x->worst_margin_ns = INFINITY;
    x->worst_bracket_ns = INFINITY;
    x->run.timed_events = timing;
    gl_sched_run_create(&x->run, p, &L->machine, L->common->trace_path != NULL);
    for (int s = 1; s < p->n_streams; s++) gl_nvtx_name_stream(x->run.stream[s], "stream %d", s - 1);
}

/* Check the dependencies on the run just made. */
static void check_edges(run_ctx *x)
{
    if (x->n_edges == 0) return;
    gl_sched_edge_check c = gl_sched_edges_hold(x->run.prog, x->edges, x->n_edges, &x->run.tl, x->L->slack_ns);
    x->checked += c.edges;
    x->held += c.held;
    if (c.worst >= 0) x->worst_margin_ns = fmin(x->worst_margin_ns, c.worst_margin_ns);
}

/* A sampler from the common options with the pattern series declared. */
static void pattern_sampler(lab *L, gl_sampler *smp)
{
    gl_device_sampler(smp, &L->dev, L->common);
    gl_sampler_series(smp, "model_makespan", "ms", 3, 0);
    gl_sampler_series(smp, "makespan", "ms", 3, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(smp, "model_peak", "kernels", 0, 0);
    gl_sampler_series(smp, "peak_concurrency", "kernels", 0, 0);
    gl_sampler_series(smp, "start_error", "us", 2, 0);
}

/* One run of a pattern or DAG: makespans, peaks (kernels together for at
 * least the dispatch gap, as in streamgrid) and the start error. */
static void sample_pattern(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    gl_sched_run_once(r);
    check_edges(x);
    double lasting = x->L->machine.dispatch_ns;
    gl_sample_put(s, "model_makespan", r->sim.makespan_ns / 1e6);
    gl_sample_put(s, "makespan", r->tl.makespan_ns / 1e6);
    gl_sample_put(s, "model_peak", gl_timeline_peak_lasting(&r->model_tl, gl_filter_all, NULL, lasting));
    gl_sample_put(s, "peak_concurrency", gl_timeline_peak_lasting(&r->tl, gl_filter_all, NULL, lasting));
    gl_sample_put(s, "start_error", r->errors.start_median_ns / 1e3);
}

/* Sample x under an NVTX range into row, with the series smp declares. */
static void sample_row(run_ctx *x, gl_sampler *smp, gl_row *row, gl_sample_fn fn, const char *range)
{
    gl_nvtx_push("%s", range);
    gl_sampler_run(smp, row, fn, x);
    gl_nvtx_pop();
}

/* The data check every row makes: every kernel of every run ran its time and left its result. */
static void check_complete(lab *L, gl_row *row, const run_ctx *x, const char *what)
{
    const gl_sched_run *r = &x->run;
    gl_check(L->rep, row, r->runs_complete == r->runs,
             "%s: %d of %d runs recorded all %d kernels, each ran its time (the shortest %.3f x its own), and left "
             "its result",
             what, r->runs_complete, r->runs, r->launches, r->shortest_ratio);
}

/* Draw or trace the last run and, beside it, its simulation. */
static void show_run(lab *L, const run_ctx *x, const char *title, const gl_names *names)
{
    char t[160];
    snprintf(t, sizeof t, "%s (last run)", title);
    gl_show_run(&L->trace, L->common, t, &x->run.tl, x->run.spans.h_spans, x->run.n_spans, names);
    snprintf(t, sizeof t, "%s (model of the last run)", title);
    gl_show_run(&L->trace, L->common, t, &x->run.model_tl, NULL, 0, names);
}

/* Add a one-block work kernel of ns to stream, named label on track; returns its op. */
static int launch(lab *L, gl_sched_program *p, int stream, int track, int label, double ns)
{
    int op = gl_sched_launch(p, 0, stream, 1, THREADS, L->per_sm, ns, 0);
    p->ops[op].label = label;
    p->ops[op].track = track;
    return op;
}

/* n non-blocking streams; st[i] is the program's index of stream i. */
static void new_streams(gl_sched_program *p, int *st, int n)
{
    for (int i = 0; i < n; i++) st[i] = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
}

/* ---- fan-in and fan-out ---------------------------------------------------------------- */

/* The seed's fan-in: each stream's K kernels, its record, and the last stream's wait for it. */
static void build_fan_in(lab *L, gl_sched_program *p)
{
    int S = L->streams, *st = (int *)gl_xcalloc((size_t)S, sizeof(int));
    new_streams(p, st, S);
    for (int s = 0; s < S; s++) {
        for (int k = 0; k < L->kernels; k++) launch(L, p, st[s], s, k, L->kernel_us * 1e3);
        int ev = gl_sched_event_new(p);
        gl_sched_record(p, 0, st[s], ev);
        gl_sched_wait(p, 0, st[S - 1], ev);
    }
    free(st);
}

/* One producer, S-1 consumers of its one event. */
static void build_fan_out(lab *L, gl_sched_program *p)
{
    int S = L->streams, *st = (int *)gl_xcalloc((size_t)S, sizeof(int));
    new_streams(p, st, S);
    int ev = gl_sched_event_new(p);
    for (int k = 0; k < L->kernels; k++) launch(L, p, st[0], 0, k, L->kernel_us * 1e3);
    gl_sched_record(p, 0, st[0], ev);
    for (int s = 1; s < S; s++) {
        gl_sched_wait(p, 0, st[s], ev);
        for (int k = 0; k < L->kernels; k++) launch(L, p, st[s], s, k, L->kernel_us * 1e3);
    }
    free(st);
}

/* The claims of a pattern: every edge held, the peak is the model's, the makespan near the model's. */
static void pattern_claims(lab *L, gl_row *row, const run_ctx *x, const char *name, const char *edge_text)
{
    gl_stats mk = gl_row_find(row, "makespan")->stats, model_mk = gl_row_find(row, "model_makespan")->stats;
    gl_stats peak = gl_row_find(row, "peak_concurrency")->stats, model_peak = gl_row_find(row, "model_peak")->stats;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * (mk.median - model_mk.median) / model_mk.median);
    char text[256], what[160];
    check_complete(L, row, x, name);
    snprintf(text, sizeof text, "%s: %s", name, edge_text);
    snprintf(what, sizeof what, "edge checks (%d edges x %d runs; smallest margin %.3f us)", x->n_edges,
             x->run.runs, x->worst_margin_ns / 1e3);
    gl_claim_every(L->rep, row, GL_CLAIM_ORDERING, text, x->held, x->checked, what, "the program has no event edges");
    snprintf(text, sizeof text, "%s: everything else overlaps: peak concurrency is the simulation's %.0f kernels", name,
             model_peak.median);
    gl_claim_fact(L->rep, row, GL_CLAIM_TIMING, lround(peak.median) == lround(model_peak.median), text,
                  "measured median over %d runs %.0f, range %.0f..%.0f; simulated range %.0f..%.0f", peak.n,
                  peak.median, peak.min, peak.max, model_peak.min, model_peak.max);
    snprintf(text, sizeof text, "%s: makespan matches the simulation", name);
    gl_claim_near(L->rep, row, GL_CLAIM_TIMING, text, model_mk.median, mk.median, L->tolerance, L->slack_ns / 1e6,
                  "ms");
}

/* Run a fan-in or fan-out program as a row of table "pattern", with its claims. */
static void pattern_part(lab *L, const char *variant, void (*build)(lab *, gl_sched_program *), const char *edge_text)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    build(L, &p);
    gl_sched_edge *edges = NULL;
    run_ctx x;
    run_open(&x, L, &p, 0);
    x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
    x.edges = edges;

    gl_row *row = gl_report_row(L->rep, "pattern", variant);
    gl_row_param_num(row, "streams", "", 0, L->streams);
    gl_row_param_num(row, "kernels", "", 0, L->kernels);
    gl_row_param_num(row, "kernel_us", "", -1, L->kernel_us);
    gl_row_param_num(row, "connections", "", 0, L->machine.connections);
    gl_row_param_num(row, "edges", "", 0, x.n_edges);
    gl_row_param(row, "textbook", "2*K*T = 2*%d*%g us", L->kernels, L->kernel_us);
    gl_sampler smp;
    pattern_sampler(L, &smp);
    char name[64];
    snprintf(name, sizeof name, "%s S=%d", variant, L->streams);
    sample_row(&x, &smp, row, sample_pattern, name);
    pattern_claims(L, row, &x, name, edge_text);
    gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, L->kernels};
    char title[96];
    snprintf(title, sizeof title, "%s C=%d", name, L->machine.connections);
    show_run(L, &x, title, &names);
    gl_sampler_free(&smp);
    gl_sched_run_destroy(&x.run);
    free(edges);
    gl_sched_program_free(&p);
}

/* ---- DAGs ------------------------------------------------------------------------------- */

/* Kernels in issue order, each on a stream, each depending on earlier ones. */
typedef struct dag {
    int n;          /* kernels */
    int streams;    /* streams they use */
    int *stream;    /* each kernel's stream */
    double *ns;     /* each kernel's duration */
    int *first_dep; /* kernel j depends on dep[first_dep[j] .. first_dep[j+1]-1] */
    int *dep;       /* earlier kernels, each at most once per kernel */
} dag;

static void dag_alloc(dag *g, int n, int streams, int max_deps)
{
    g->n = n;
    g->streams = streams;
    g->stream = (int *)gl_xcalloc((size_t)n, sizeof(int));
    g->ns = (double *)gl_xcalloc((size_t)n, sizeof(double));
    g->first_dep = (int *)gl_xcalloc((size_t)n + 1, sizeof(int));
    g->dep = (int *)gl_xcalloc((size_t)n * max_deps + 1, sizeof(int));
}

static void dag_free(dag *g)
{
    free(g->stream);
    free(g->ns);
    free(g->first_dep);
    free(g->dep);
}

/* A -> {B, C} -> D: B and C on streams of their own, D on A's stream. */
static void dag_diamond(dag *g, double T_ns)
{
    static const int stream[4] = {0, 1, 2, 0}, first[5] = {0, 0, 1, 2, 4}, dep[4] = {0, 0, 1, 2};
    dag_alloc(g, 4, 3, 2);
    for (int j = 0; j < 4; j++) {
        g->stream[j] = stream[j];
        g->ns[j] = T_ns;
    }
    memcpy(g->first_dep, first, sizeof first);
    memcpy(g->dep, dep, sizeof dep);
}

/* A random DAG of S*K kernels, the same for the same seed and index on every
 * machine: every kernel takes its own fixed set of draws. */
static void dag_random(dag *g, int S, int K, double T_ns, unsigned long long seed, int index)
{
    enum { MAX_DEPS = 3 };
    int n = S * K, window = 2 * S, per = 2 + window;
    double *u = (double *)gl_xmalloc(sizeof(double) * (size_t)n * per);
    gl_fill_f64(u, (size_t)n * per, seed, 1000u + (unsigned)index, 0.0, 1.0);
    dag_alloc(g, n, S, MAX_DEPS);
    int nd = 0;
    for (int j = 0; j < n; j++) {
        const double *d = u + (size_t)j * per;
        g->stream[j] = (int)fmin(S - 1, floor(d[0] * S));
        g->ns[j] = T_ns * (0.5 + d[1]);
        g->first_dep[j] = nd;
        for (int w = 0; w < window && j - 1 - w >= 0; w++)
            if (d[2 + w] < 0.25 && nd - g->first_dep[j] < MAX_DEPS) g->dep[nd++] = j - 1 - w;
    }
    g->first_dep[n] = nd;
    free(u);
}

/* The longest path through dependencies and stream order, each kernel its full duration, nothing else. */
static double dag_critical_ns(const dag *g)
{
    double *end = (double *)gl_xcalloc((size_t)g->n, sizeof(double)), longest = 0;
    int *last = (int *)gl_xmalloc(sizeof(int) * (size_t)g->streams);
    for (int s = 0; s < g->streams; s++) last[s] = -1;
    for (int j = 0; j < g->n; j++) {
        double start = last[g->stream[j]] >= 0 ? end[last[g->stream[j]]] : 0;
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++) start = fmax(start, end[g->dep[d]]);
        end[j] = start + g->ns[j];
        last[g->stream[j]] = j;
        longest = fmax(longest, end[j]);
    }
    free(end);
    free(last);
    return longest;
}

/* The DAG as calls: for each kernel in order, a wait for each producer on
 * another stream, the launch, and a record when a kernel on another stream
 * depends on it. *edges gets every dependency (op indices; stream order too,
 * kind 0), and the program's own event edges must be exactly the cross-stream
 * ones. Returns the edge count; *waits gets the waits issued. */
static int dag_program(lab *L, const dag *g, gl_sched_program *p, gl_sched_edge **edges, int *waits)
{
    int *st = (int *)gl_xcalloc((size_t)g->streams, sizeof(int)), *ev = (int *)gl_xcalloc((size_t)g->n, sizeof(int));
    int *op = (int *)gl_xcalloc((size_t)g->n, sizeof(int));
    new_streams(p, st, g->streams);
    for (int j = 0; j < g->n; j++) ev[j] = -1;
    for (int j = 0; j < g->n; j++)
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++)
            if (g->stream[g->dep[d]] != g->stream[j] && ev[g->dep[d]] < 0) ev[g->dep[d]] = gl_sched_event_new(p);
    int n = g->first_dep[g->n], cross = 0;
    gl_sched_edge *e = (gl_sched_edge *)gl_xcalloc((size_t)n + 1, sizeof *e);
    *waits = 0;
    for (int j = 0; j < g->n; j++) {
        int s = st[g->stream[j]];
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++)
            if (g->stream[g->dep[d]] != g->stream[j]) {
                gl_sched_wait(p, 0, s, ev[g->dep[d]]);
                (*waits)++;
            }
        op[j] = launch(L, p, s, g->stream[j], j, g->ns[j]);
        if (ev[j] >= 0) gl_sched_record(p, 0, s, ev[j]);
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++) {
            int c = g->stream[g->dep[d]] != g->stream[j];
            e[d].before = op[g->dep[d]];
            e[d].after = op[j];
            e[d].kind = c ? GL_SCHED_EDGE_EVENT : 0;
            cross += c;
        }
    }
    /* The waits must promise exactly the cross-stream dependencies: a bug here would check the wrong thing. */
    gl_sched_edge *implied = NULL;
    int n_implied = gl_sched_edges(p, GL_SCHED_EDGE_EVENT, &implied), found = 0;
    for (int i = 0; i < n_implied; i++)
        for (int k = 0; k < n; k++)
            if (e[k].kind && e[k].before == implied[i].before && e[k].after == implied[i].after) {
                found++;
                break;
            }
    if (n_implied != cross || found != cross)
        gl_die(GL_EXIT_INTERNAL, "a DAG's waits imply %d edges (%d of them its own) for its %d cross-stream dependencies",
               n_implied, found, cross);
    free(implied);
    free(st);
    free(ev);
    free(op);
    *edges = e;
    return n;
}

/* What all the DAGs showed, for the claims made over all of them. */
typedef struct dag_summary {
    int dags, within;           /* DAGs, and those whose makespan was within tolerance of the model */
    int runs, runs_complete;    /* over all DAGs */
    long long checked, held;    /* edge checks, and those that held */
    double worst_margin_ns;     /* smallest start-after-end over every edge */
    int worst_margin_dag;       /* the DAG it was in */
    double worst_error;         /* the largest |makespan error| (fraction of the model's) */
    int worst_error_dag;        /* its DAG */
} dag_summary;

/* Run one DAG as a row of table "dag"; the diamond (index -1) makes its own claims. */
static void dag_row(lab *L, const dag *g, const char *variant, int index, dag_summary *sum)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    gl_sched_edge *edges = NULL;
    int waits = 0, n_edges = dag_program(L, g, &p, &edges, &waits);
    run_ctx x;
    run_open(&x, L, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;
    double critical = dag_critical_ns(g);

    gl_row *row = gl_report_row(L->rep, "dag", variant);
    gl_row_param_num(row, "streams", "", 0, g->streams);
    gl_row_param_num(row, "kernels", "", 0, g->n);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    gl_row_param_num(row, "waits", "", 0, waits);
    gl_row_param_num(row, "connections", "", 0, L->machine.connections);
    gl_row_number(row, "critical_path", "ms", 3, 0, critical / 1e6);
    gl_sampler smp;
    pattern_sampler(L, &smp);
    sample_row(&x, &smp, row, sample_pattern, variant);
    gl_stats mk = gl_row_find(row, "makespan")->stats, model_mk = gl_row_find(row, "model_makespan")->stats;
    double error = (mk.median - model_mk.median) / model_mk.median;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * error);
    gl_row_number(row, "edge_margin", "us", 2, GL_HIDE, x.worst_margin_ns / 1e3);

    if (index < 0) {
        pattern_claims(L, row, &x, variant,
                       "every wait holds: B and C start after A ends, D after both end (in every run)");
    } else {
        int ok = fabs(mk.median - model_mk.median) <= L->tolerance * model_mk.median + L->slack_ns / 1e6;
        gl_row_text(row, "edges_held", 0, "%lld/%lld", x.held, x.checked);
        gl_row_text(row, "model", 0, "%s", ok ? "within" : "outside");
        sum->dags++;
        sum->within += ok;
        sum->runs += x.run.runs;
        sum->runs_complete += x.run.runs_complete;
        sum->checked += x.checked;
        sum->held += x.held;
        if (x.worst_margin_ns < sum->worst_margin_ns) {
            sum->worst_margin_ns = x.worst_margin_ns;
            sum->worst_margin_dag = index;
        }
        if (fabs(error) > sum->worst_error) {
            sum->worst_error = fabs(error);
            sum->worst_error_dag = index;
        }
    }
    gl_names names = {"n%d", NULL, NULL, "stream %d", NULL, NULL, g->n};
    char title[96];
    snprintf(title, sizeof title, "%s C=%d", variant, L->machine.connections);
    show_run(L, &x, title, &names);
    gl_sampler_free(&smp);
    gl_sched_run_destroy(&x.run);
    free(edges);
    gl_sched_program_free(&p);
}

/* The diamond, then --dags random DAGs, and the claims over all of them. */
static void dag_part(lab *L, int n_dags)
{
    dag g;
    dag_summary sum;
    memset(&sum, 0, sizeof sum);
    sum.worst_margin_ns = INFINITY;
    dag_diamond(&g, L->kernel_us * 1e3);
    dag_row(L, &g, "diamond", -1, &sum);
    dag_free(&g);
    for (int d = 0; d < n_dags; d++) {
        char variant[32];
        snprintf(variant, sizeof variant, "dag %d", d);
        dag_random(&g, L->streams, L->kernels, L->kernel_us * 1e3, L->common->seed, d);
        dag_row(L, &g, variant, d, &sum);
        dag_free(&g);
    }

    gl_row *row = gl_report_row(L->rep, "dag", "all random");
    gl_row_param_num(row, "dags", "", 0, sum.dags);
    gl_row_param(row, "seed", "%llu", L->common->seed);
    gl_row_number(row, "worst_model_error", "%", 1, 0, 100 * sum.worst_error);
    gl_check(L->rep, row, sum.runs_complete == sum.runs,
             "%d random DAGs: %d of %d runs recorded all their kernels, each ran its time, and left its result", sum.dags,
             sum.runs_complete, sum.runs);
    char text[192], what[192];
    snprintf(text, sizeof text, "%d random DAGs: every dependency edge (event waits and stream order) holds in every run",
             sum.dags);
    snprintf(what, sizeof what, "edge checks over all DAGs and runs (smallest margin %.3f us, in dag %d)",
             sum.worst_margin_ns / 1e3, sum.worst_margin_dag);
    gl_claim_every(L->rep, row, GL_CLAIM_ORDERING, text, sum.held, sum.checked, what, "the DAGs have no dependencies");
    snprintf(text, sizeof text, "%d random DAGs: the makespan is within %.0f%% of the simulation's in every DAG",
             sum.dags, 100 * L->tolerance);
    snprintf(what, sizeof what, "DAGs (worst: dag %d, %.1f%% off)", sum.worst_error_dag, 100 * sum.worst_error);
    gl_claim_every(L->rep, row, GL_CLAIM_TIMING, text, sum.within, sum.dags, what, "no DAGs");
}

/* ---- cost: what a record and a wait cost the host and the device --------------------------- */

/* A chain of COST_CHAIN kernels, each after the one before: in one stream by
 * stream order (events 0), through a record and a wait in the same stream,
 * or handed between two streams (cross 1). */
static void build_chain(lab *L, gl_sched_program *p, int events, int cross)
{
    int st[2];
    new_streams(p, st, cross ? 2 : 1);
    for (int k = 0; k < COST_CHAIN; k++) {
        int s = cross ? k % 2 : 0;
        if (k > 0 && events) {
            int prev = cross ? (k - 1) % 2 : 0, ev = gl_sched_event_new(p);
            gl_sched_record(p, 0, st[prev], ev);
            gl_sched_wait(p, 0, st[s], ev);
        }
        launch(L, p, st[s], s, k, COST_KERNEL_US * 1e3);
    }
}

/* The median of x[0..n-1] (NAN for none). */
static double median_of(const double *x, int n) { return n ? gl_stats_of(x, n).median : NAN; }

/* One chain: the gaps between consecutive kernels (measured and simulated) and each kind of call's host time. */
static void sample_cost(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    const gl_sched_program *p = r->prog;
    gl_sched_run_once(r);
    check_edges(x);
    double *v = (double *)gl_xcalloc((size_t)p->n_ops * 5 + 5, sizeof(double));
    double *gap = v, *model_gap = v + p->n_ops, *host[3] = {v + 2 * p->n_ops, v + 3 * p->n_ops, v + 4 * p->n_ops};
    int n_gap = 0, n_host[3] = {0, 0, 0}, prev = -1;
    for (int i = 0; i < p->n_ops; i++) {
        int kind = p->ops[i].kind == GL_SCHED_LAUNCH ? 0 : p->ops[i].kind == GL_SCHED_RECORD ? 1 : 2;
        host[kind][n_host[kind]++] = r->return_ns[i] - r->call_ns[i];
        if (kind != 0) continue;
        if (prev >= 0) {
            const gl_interval *a = gl_sched_run_kernel(r, prev), *b = gl_sched_run_kernel(r, i);
            const gl_interval *ma = gl_sched_run_model_kernel(r, prev), *mb = gl_sched_run_model_kernel(r, i);
            if (a && b && ma && mb) {
                gap[n_gap] = b->start_ns - a->end_ns;
                model_gap[n_gap++] = mb->start_ns - ma->end_ns;
            }
        }
        prev = i;
    }
    gl_sample_put(s, "gap", median_of(gap, n_gap) / 1e3);
    gl_sample_put(s, "model_gap", median_of(model_gap, n_gap) / 1e3);
    gl_sample_put(s, "launch_host", median_of(host[0], n_host[0]) / 1e3);
    if (p->n_events > 0) {
        gl_sample_put(s, "record_host", median_of(host[1], n_host[1]) / 1e3);
        gl_sample_put(s, "wait_host", median_of(host[2], n_host[2]) / 1e3);
    }
    free(v);
}

/* The chains, with and without events and timing; each event row's added gap against stream order. */
static void cost_part(lab *L)
{
    static const struct {
        const char *variant; /* the row */
        int events, cross, timing;
    } chains[] = {
        {"stream order", 0, 0, 0},         {"same stream", 1, 0, 0},  {"same stream, timing", 1, 0, 1},
        {"cross stream", 1, 1, 0},         {"cross stream, timing", 1, 1, 1},
    };
    double baseline_gap = NAN;
    for (int c = 0; c < GL_ARRAY_LEN(chains); c++) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        build_chain(L, &p, chains[c].events, chains[c].cross);
        gl_sched_edge *edges = NULL;
        run_ctx x;
        run_open(&x, L, &p, chains[c].timing);
        x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
        x.edges = edges;

        gl_row *row = gl_report_row(L->rep, "cost", chains[c].variant);
        gl_row_param(row, "events", "%s", chains[c].events ? "record+wait" : "none");
        gl_row_param(row, "timing", "%s", chains[c].events ? (chains[c].timing ? "on" : "off") : "-");
        gl_row_param_num(row, "streams", "", 0, chains[c].cross ? 2 : 1);
        gl_row_param_num(row, "kernels", "", 0, COST_CHAIN);
        gl_row_param_num(row, "kernel_us", "", -1, COST_KERNEL_US);
        gl_sampler smp;
        gl_device_sampler(&smp, &L->dev, L->common);
        gl_sampler_series(&smp, "launch_host", "us", 2, 0);
        if (chains[c].events) {
            gl_sampler_series(&smp, "record_host", "us", 2, GL_SHOW_MIN);
            gl_sampler_series(&smp, "wait_host", "us", 2, GL_SHOW_MIN);
        }
        gl_sampler_series(&smp, "gap", "us", 2, GL_SHOW_MIN | GL_SHOW_NOISE);
        gl_sampler_series(&smp, "model_gap", "us", 2, 0);
        char range[64];
        snprintf(range, sizeof range, "cost %s", chains[c].variant);
        sample_row(&x, &smp, row, sample_cost, range);
        double gap = gl_row_find(row, "gap")->stats.median;
        if (!chains[c].events) baseline_gap = gap;
        else if (isfinite(baseline_gap)) gl_row_number(row, "added_gap", "us", 2, 0, gap - baseline_gap);

        check_complete(L, row, &x, range);
        if (chains[c].events) {
            char text[160], what[128];
            snprintf(text, sizeof text, "%s: each kernel starts after the one its wait names has ended (in every run)",
                     range);
            snprintf(what, sizeof what, "edge checks (smallest margin %.3f us)", x.worst_margin_ns / 1e3);
            gl_claim_every(L->rep, row, GL_CLAIM_ORDERING, text, x.held, x.checked, what, "no event edges");
        }
        gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, COST_CHAIN};
        show_run(L, &x, range, &names);
        gl_sampler_free(&smp);
        gl_sched_run_destroy(&x.run);
        free(edges);
        gl_sched_program_free(&p);
    }
}

/* ---- accuracy: cudaEventElapsedTime against the spans -------------------------------------- */

/* Names in an accuracy timeline: the holding kernel, then the region's. */
static void region_label(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    if (label == 0) gl_buf_puts(out, "hold");
    else gl_buf_printf(out, "region k%d", label - 1);
}

/* One run: the event interval, the span of the region, and the same two simulated. */
static void sample_accuracy(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    const gl_sched_program *p = r->prog;
    gl_sched_run_once(r);
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, r->event[p->ops[x->rec0].event], r->event[p->ops[x->rec1].event]));
    double start = INFINITY, end = -INFINITY, model_start = INFINITY, model_end = -INFINITY;
    int missing = 0;
    for (int i = x->region_first; i <= x->region_last; i++) {
        const gl_interval *k = gl_sched_run_kernel(r, i), *m = gl_sched_run_model_kernel(r, i);
        if (!k || !m) {
            missing = 1;
            continue;
        }
        start = fmin(start, k->start_ns);
        end = fmax(end, k->end_ns);
        model_start = fmin(model_start, m->start_ns);
        model_end = fmax(model_end, m->end_ns);
    }
    double event_ns = ms * 1e6, span_ns = missing ? NAN : end - start; /* a lost kernel fails the bracket */
    x->bracket_runs++;
    if (event_ns >= span_ns - EVENT_RESOLUTION_NS - x->L->slack_ns) x->bracketed++;
    if (isfinite(span_ns)) x->worst_bracket_ns = fmin(x->worst_bracket_ns, event_ns - span_ns);
    gl_sample_put(s, "event_time", event_ns / 1e3);
    gl_sample_put(s, "span_time", span_ns / 1e3);
    gl_sample_put(s, "difference", (event_ns - span_ns) / 1e3);
    gl_sample_put(s, "ratio", event_ns / span_ns);
    gl_sample_put(s, "model_event_time", (p->ops[x->rec1].end_ns - p->ops[x->rec0].end_ns) / 1e3);
    gl_sample_put(s, "model_span_time", (model_end - model_start) / 1e3);
}

/* Each region length, queued behind a holding kernel and on an idle stream. */
static void accuracy_part(lab *L)
{
    for (int i = 0; i < GL_ARRAY_LEN(REGION_US); i++) {
        if (L->common->quick && REGION_US[i] > 1000) continue;
        for (int held = 1; held >= 0; held--) {
            gl_sched_program p;
            gl_sched_program_init(&p);
            int st;
            new_streams(&p, &st, 1);
            if (held) launch(L, &p, st, 0, 0, HOLD_US * 1e3);
            int e0 = gl_sched_event_new(&p), e1 = gl_sched_event_new(&p);
            int rec0 = gl_sched_record(&p, 0, st, e0), first = p.n_ops;
            for (int k = 0; k < REGION_KERNELS; k++) launch(L, &p, st, 0, 1 + k, REGION_US[i] * 1e3 / REGION_KERNELS);
            int last = p.n_ops - 1, rec1 = gl_sched_record(&p, 0, st, e1);
            run_ctx x;
            run_open(&x, L, &p, 1);
            x.rec0 = rec0;
            x.rec1 = rec1;
            x.region_first = first;
            x.region_last = last;

            char variant[64];
            snprintf(variant, sizeof variant, "%g us %s", REGION_US[i], held ? "queued" : "idle");
            gl_row *row = gl_report_row(L->rep, "accuracy", variant);
            gl_row_param_num(row, "region_us", "", -1, REGION_US[i]);
            gl_row_param_num(row, "kernels", "", 0, REGION_KERNELS);
            gl_row_param(row, "stream", "%s", held ? "held by a 200 us kernel" : "idle");
            gl_sampler smp;
            gl_device_sampler(&smp, &L->dev, L->common);
            gl_sampler_series(&smp, "event_time", "us", 3, GL_SHOW_NOISE);
            gl_sampler_series(&smp, "span_time", "us", 3, 0);
            gl_sampler_series(&smp, "difference", "us", 3, GL_SHOW_MIN);
            gl_sampler_series(&smp, "ratio", "", 4, 0);
            gl_sampler_series(&smp, "model_event_time", "us", 3, GL_HIDE);
            gl_sampler_series(&smp, "model_span_time", "us", 3, GL_HIDE);
            char range[80];
            snprintf(range, sizeof range, "accuracy %s", variant);
            sample_row(&x, &smp, row, sample_accuracy, range);

            check_complete(L, row, &x, range);
            char text[192], what[128];
            snprintf(text, sizeof text,
                     "%s: cudaEventElapsedTime is never shorter than the region's span, less %.2f us of resolution",
                     range, (EVENT_RESOLUTION_NS + L->slack_ns) / 1e3);
            snprintf(what, sizeof what, "runs (smallest event - span %.3f us)", x.worst_bracket_ns / 1e3);
            gl_claim_every(L->rep, row, GL_CLAIM_ORDERING, text, x.bracketed, x.bracket_runs, what, "no runs");
            gl_names names = {NULL, region_label, NULL, "stream %d", NULL, NULL, REGION_KERNELS + 1};
            show_run(L, &x, range, &names);
            gl_sampler_free(&smp);
            gl_sched_run_destroy(&x.run);
            gl_sched_program_free(&p);
        }
    }
}

/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "stream-events",
        "do events order exactly the dependencies they name (fan-in, fan-out, random DAGs), leave the rest "
        "concurrent, and what does an event cost?",
        "Model: the core's scheduling simulation (gl_sched.h) of each run, issued through schedrun.h; claims: every\n"
        "event edge holds, peak concurrency and makespan match the simulation. --part picks one part; --dags N\n"
        "random DAGs from --seed."};
    int streams = 4, kernels = 4, dags = 20, part = PART_ALL;
    double kernel_us = 1000, tolerance = 0.10;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 2, 64, NULL, NULL, "streams (S) of fan-in, fan-out and the random DAGs", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, NULL, "kernels per stream (K); a random DAG has S*K", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200",
         "duration of each work kernel in us (T; a random DAG's kernels take T/2..3T/2)", 0},
        {"dags", GL_OPT_INT, &dags, 1, 1000, NULL, NULL, "random DAGs, seeded from --seed", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|fan-in|fan-out|dag|cost|accuracy", NULL, "which part to run", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    lab L;
    memset(&L, 0, sizeof L);
    L.common = &common;
    L.rep = &rep;
    L.streams = streams;
    L.kernels = kernels;
    L.kernel_us = kernel_us;
    L.tolerance = tolerance;
    gl_device_open(&L.dev, &common, &rep);
    L.per_sm = gl_work_blocks_per_sm(THREADS);
    if (L.per_sm < 1) gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", THREADS);
    L.slack_ns = 2 * L.dev.tick_ns;
    gl_sched_calibration cal;
    gl_sched_calibrate(&L.dev, &rep, THREADS, kernel_us, &L.machine, &cal);
    gl_trace_init(&L.trace);
    printf("setup: S=%d streams x K=%d kernels x T=%g us, 1 block x %d threads each; C=%d connections; %d random "
           "DAGs of %d kernels from seed %llu\n",
           streams, kernels, kernel_us, THREADS, L.machine.connections, dags, streams * kernels, common.seed);

    if (part == PART_ALL || part == PART_FAN_IN)
        pattern_part(&L, "fan-in", build_fan_in,
                     "every wait holds: the last stream's first kernel starts after every other stream's last kernel "
                     "ends (in every run)");
    if (part == PART_ALL || part == PART_FAN_OUT)
        pattern_part(&L, "fan-out", build_fan_out,
                     "every wait holds: each consumer's first kernel starts after the producer's last kernel ends (in "
                     "every run)");
    if (part == PART_ALL || part == PART_DAG) dag_part(&L, dags);
    if (part == PART_ALL || part == PART_COST) cost_part(&L);
    if (part == PART_ALL || part == PART_ACCURACY) accuracy_part(&L);

    gl_trace_finish(&L.trace, &common, &rep);
    gl_device_close(&L.dev);
    return gl_report_finish(&rep);
}
