/* events.cuh - what stream-events, event-programs, event-cost and event-timing share: work described once as a
 * scheduling-model program of work kernels on non-blocking streams, run through gl_schedrun.h, sampled as one row
 * and checked the same way in all four (a row reads the same whichever experiment made it); and the fan-in,
 * fan-out and random DAGs that stream-events runs and event-programs draws among its programs. */
#ifndef GL_STREAMS_EVENTS_CUH
#define GL_STREAMS_EVENTS_CUH

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_check.h"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_trace.h"

enum { THREADS = 32 };     /* one block of one warp: every work kernel of stream-events, event-cost, event-timing */
enum { MAX_STREAMS = 64 }; /* the most streams a fan-in, fan-out or DAG has (--streams, --streams-max) */

/* The grid of a program's work kernels: every kernel of one program has the same. */
typedef struct grid {
    int blocks;  /* blocks per kernel */
    int threads; /* threads per block */
    int per_sm;  /* blocks of this size that fit on one SM at once (the occupancy calculator) */
} grid;

/* What every event experiment needs: the report, device, model's machine and trace, the options. */
typedef struct events_lab {
    gl_sched_lab S;          /* rows and claims, the GPU, the machine (calibrated once), --trace */
    const gl_common *common; /* the common options */
    grid one;                /* one block of THREADS */
    double slack_ns;         /* two %globaltimer ticks */
} events_lab;

/* Open the report and the device, then measure the model's machine with
 * one-warp kernels of calibration_us (the model: line). A GPU on which one
 * warp of the work kernel does not fit is no suitable GPU (exit 77). */
static inline void events_lab_open(events_lab *L, const char *name, const gl_common *common, double calibration_us)
{
    memset(L, 0, sizeof *L);
    gl_sched_lab_open(&L->S, name, common);
    L->common = common;
    L->one = grid{1, THREADS, gl_work_blocks_per_sm(THREADS)};
    if (L->one.per_sm < 1)
        gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", THREADS);
    L->slack_ns = 2 * L->S.dev.tick_ns;
    gl_sched_lab_calibrate(&L->S, THREADS, calibration_us);
}

/* Parse an event experiment's options (its own n_opts, and the common ones), then open its lab, its machine measured
 * with kernels of *calibration_us as parsed. NULL: 1 ms kernels (200 us under --quick), stream-events' default T:
 * event-cost, event-timing and implicit-sync were parts of stream-events or default-stream until issue 17, and so
 * their model columns stay comparable with the runs recorded then. */
static inline void events_lab_start(events_lab *L, const gl_experiment *exp, gl_option *opts, int n_opts,
                                    gl_common *common, const double *calibration_us, int argc, char **argv)
{
    gl_common_defaults(common);
    gl_options_parse_or_exit(exp, opts, n_opts, common, argc, argv);
    events_lab_open(L, exp->name, common, calibration_us ? *calibration_us : common->quick ? 200 : 1000);
}

/* ---- a program on the GPU, sampled -------------------------------------------------- */

/* One program run by schedrun, and the dependencies its runs must keep. */
typedef struct run_ctx {
    events_lab *L;
    gl_sched_run run;           /* streams, events, the last run and its simulation */
    const gl_sched_edge *edges; /* dependencies every run must keep (op indices); NULL: none */
    int n_edges;                /* how many */
    long long checked, held;    /* edge checks over every run, warm-up included, and those that held */
    double worst_margin_ns;     /* smallest (start of after) - (end of before) seen */
} run_ctx;

/* Make the program's streams and events; timing: events that keep time. */
static inline void run_open(run_ctx *x, events_lab *L, gl_sched_program *p, int timing)
{
    memset(x, 0, sizeof *x);
    x->L = L;
    x->worst_margin_ns = INFINITY;
    x->run.timed_events = timing;
    gl_sched_run_create(&x->run, p, &L->S.machine, L->common->trace_path != NULL);
    for (int s = 1; s < p->n_streams; s++) gl_nvtx_name_stream(x->run.stream[s], "stream %d", s - 1);
}

/* Check the dependencies on the run just made. */
static inline void check_edges(run_ctx *x)
{
    if (x->n_edges == 0) return;
    gl_sched_edge_check c = gl_sched_edges_hold(x->run.prog, x->edges, x->n_edges, &x->run.tl, x->L->slack_ns);
    x->checked += c.edges;
    x->held += c.held;
    if (c.worst >= 0) x->worst_margin_ns = fmin(x->worst_margin_ns, c.worst_margin_ns);
}

/* Sample arg under an NVTX range into row, with the series smp declares. */
static inline void sample_row(gl_sampler *smp, gl_row *row, gl_sample_fn fn, void *arg, const char *range)
{
    gl_nvtx_push("%s", range);
    gl_sampler_run(smp, row, fn, arg);
    gl_nvtx_pop();
}

/* The data check every row makes: every kernel of every run ran its time and left its result. */
static inline void check_complete(events_lab *L, gl_row *row, const run_ctx *x, const char *what)
{
    const gl_sched_run *r = &x->run;
    gl_check(&L->S.rep, row, r->runs_complete == r->runs,
             "%s: %d of %d runs recorded all %d kernels, each ran its time (the shortest %.3f x its own), and left "
             "its result",
             what, r->runs_complete, r->runs, r->launches, r->shortest_ratio);
}

/* Show the last run beside its model, and free what one row's run used (edges may be NULL). */
static inline void run_close(events_lab *L, run_ctx *x, const char *title, const gl_names *names, gl_sampler *smp,
                             gl_sched_edge *edges, gl_sched_program *p)
{
    gl_sched_run_show(&L->S.trace, L->common, &x->run, title, names);
    gl_sampler_free(smp);
    gl_sched_run_destroy(&x->run);
    free(edges);
    gl_sched_program_free(p);
}

/* ---- building programs --------------------------------------------------------------- */

/* Add a work kernel of grid k whose blocks run ns to stream, named label on track; returns its op. */
static inline int launch(const grid *k, gl_sched_program *p, int stream, int track, int label, double ns)
{
    int op = gl_sched_launch(p, 0, stream, k->blocks, k->threads, k->per_sm, ns, 0);
    p->ops[op].label = label;
    p->ops[op].track = track;
    return op;
}

/* n non-blocking streams; st[i] is the program's index of stream i. */
static inline void new_streams(gl_sched_program *p, int *st, int n)
{
    for (int i = 0; i < n; i++) st[i] = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
}

/* ---- programs of stream-events and event-programs ---------------------------------------- */

/* The kinds of program event-programs draws (stream-events runs the first three), and each one's ordering claim. */
enum { KIND_FAN_IN, KIND_FAN_OUT, KIND_DAG, KIND_CROSS, KIND_LEGACY, N_KINDS };
static const char *const kind_name[N_KINDS] = {"fan-in", "fan-out", "dag", "cross", "legacy"};
static const char *const kind_edges[N_KINDS] = {
    "every wait holds: the last stream's first kernel starts after every other stream's last kernel ends (in every "
    "run)",
    "every wait holds: each consumer's first kernel starts after the producer's last kernel ends (in every run)",
    "every dependency edge (event waits and stream order) holds in every run",
    "every wait holds: the waiting stream's next kernel starts after the recorded stream's kernel before the record "
    "ends (in every run)",
    "every wait and every legacy-stream barrier holds (in every run)"};

/* One run of a program: makespans, peaks (kernels together for at least the
 * dispatch gap, as in streamgrid), the start error; its edges checked. A program
 * with copies (event-programs' copies population) is judged on the model with the
 * host's pace in the run itself (gl_sched_run_own_pace), and puts two more
 * series: model_makespan_before, the model with the pace timed before the run and
 * the calibrated wake, and wake, the driver's thread's wake simulated (us). */
static inline void sample_program(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run_once(&x->run);
    check_edges(x);
    if (x->run.copies > 0) {
        double wake = 0;
        gl_sample_put(s, "model_makespan_before", x->run.sim.makespan_ns / 1e6);
        gl_sched_run_own_pace(&x->run, &wake);
        gl_sample_put(s, "wake", wake / 1e3);
    }
    gl_sched_run_put(s, &x->run, x->L->S.machine.dispatch_ns);
}

/* A program's claims, named: every edge held (edge_text), the peak is the model's, the makespan near it. */
static inline void program_claims(events_lab *L, double tolerance, gl_row *row, const run_ctx *x, const char *name,
                                  const char *edge_text)
{
    char text[256], what[160], overlaps[160], prefix[128];
    check_complete(L, row, x, name);
    snprintf(text, sizeof text, "%s: %s", name, edge_text);
    snprintf(what, sizeof what, "edge checks (%d edges x %d runs; smallest margin %.3f us)", x->n_edges, x->run.runs,
             x->worst_margin_ns / 1e3);
    gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, x->held, x->checked, what,
                   "the program has no event edges");
    snprintf(overlaps, sizeof overlaps, "%s: everything else overlaps:", name);
    snprintf(prefix, sizeof prefix, "%s:", name);
    gl_sched_run_claims(&L->S.rep, row, overlaps, prefix, tolerance, L->slack_ns);
}

/* What a set of programs showed, for what is said over all of them. */
typedef struct programs_summary {
    int programs, within;      /* rows, and those whose median makespan was within tolerance of the model's */
    int peak_equal, all_held;  /* those whose median peak was the model's, and whose every edge held */
    int runs, runs_complete;   /* their runs, and those in which every kernel ran its time */
    long long checked, held;   /* edge checks, and those that held */
    double worst_margin_ns;    /* smallest start-after-end over every edge (the first program's, then less) */
    double worst_error;        /* the largest |makespan error| (fraction of the model's) */
    long long worst_margin_at; /* the program it was in (an index or a seed) */
    long long worst_error_at;  /* and this one's */
} programs_summary;

/* Add a sampled row and its runs to sum as program `at`; returns its makespan error (fraction of the model's). */
static inline double summary_add(programs_summary *sum, const events_lab *L, double tolerance, const gl_row *row,
                                 const run_ctx *x, long long at)
{
    double mk = gl_row_median(row, "makespan"), model_mk = gl_row_median(row, "model_makespan");
    double error = (mk - model_mk) / model_mk;
    sum->programs++;
    sum->within += fabs(mk - model_mk) <= tolerance * model_mk + L->slack_ns / 1e6; /* the timer's slack too */
    sum->peak_equal += lround(gl_row_median(row, "peak_concurrency")) == lround(gl_row_median(row, "model_peak"));
    sum->all_held += x->held == x->checked;
    sum->runs += x->run.runs;
    sum->runs_complete += x->run.runs_complete;
    sum->checked += x->checked;
    sum->held += x->held;
    if (sum->programs == 1 || x->worst_margin_ns < sum->worst_margin_ns) {
        sum->worst_margin_ns = x->worst_margin_ns;
        sum->worst_margin_at = at;
    }
    if (!(fabs(error) <= sum->worst_error)) {
        sum->worst_error = fabs(error);
        sum->worst_error_at = at;
    }
    return error;
}

/* The seed's fan-in: each of S streams' K kernels of T_ns, its record, and the last stream's wait for it. */
static inline void build_fan_in(gl_sched_program *p, const grid *k, int S, int K, double T_ns)
{
    int st[MAX_STREAMS];
    new_streams(p, st, S);
    for (int s = 0; s < S; s++) {
        for (int j = 0; j < K; j++) launch(k, p, st[s], s, j, T_ns);
        int ev = gl_sched_event_new(p);
        gl_sched_record(p, 0, st[s], ev);
        gl_sched_wait(p, 0, st[S - 1], ev);
    }
}

/* One producer of K kernels, S-1 consumers of its one event, K kernels each. */
static inline void build_fan_out(gl_sched_program *p, const grid *k, int S, int K, double T_ns)
{
    int st[MAX_STREAMS];
    new_streams(p, st, S);
    int ev = gl_sched_event_new(p);
    for (int j = 0; j < K; j++) launch(k, p, st[0], 0, j, T_ns);
    gl_sched_record(p, 0, st[0], ev);
    for (int s = 1; s < S; s++) {
        gl_sched_wait(p, 0, st[s], ev);
        for (int j = 0; j < K; j++) launch(k, p, st[s], s, j, T_ns);
    }
}

enum { DAG_MAX_DEPS = 3 }; /* dependencies of a DAG's kernel, at most */

/* A kernel of a DAG. */
typedef struct dag_kernel {
    int stream;            /* 0..streams-1 */
    double ns;             /* its duration */
    int n_deps;            /* how many earlier kernels it depends on */
    int dep[DAG_MAX_DEPS]; /* which, each at most once */
} dag_kernel;

/* Kernels in issue order, each on a stream, each depending on earlier ones. */
typedef struct dag {
    int n, streams; /* kernels, and the streams they use */
    dag_kernel *k;  /* the kernels (heap) */
} dag;

/* A random DAG of S*K kernels, the same for the same seed and index on every
 * machine: every kernel takes its own fixed set of draws. */
static inline dag dag_random(int S, int K, double T_ns, unsigned long long seed, int index)
{
    int n = S * K, window = 2 * S, per = 2 + window;
    dag g = {n, S, (dag_kernel *)gl_xcalloc((size_t)n, sizeof(dag_kernel))};
    double *u = (double *)gl_xmalloc(sizeof(double) * (size_t)n * per);
    gl_fill_f64(u, (size_t)n * per, seed, 1000u + (unsigned)index, 0.0, 1.0);
    for (int j = 0; j < n; j++) {
        const double *d = u + (size_t)j * per;
        dag_kernel *k = &g.k[j];
        k->stream = (int)fmin(S - 1, floor(d[0] * S));
        k->ns = T_ns * (0.5 + d[1]);
        for (int w = 0; w < window && j - 1 - w >= 0; w++)
            if (d[2 + w] < 0.25 && k->n_deps < DAG_MAX_DEPS) k->dep[k->n_deps++] = j - 1 - w;
    }
    free(u);
    return g;
}

/* The DAG as calls: for each kernel in order, a wait for each producer on another stream, the launch, and a record
 * when a kernel on another stream depends on it. *edges gets every dependency (op indices; on one stream, kind 0),
 * and the program's own event edges must be exactly the cross-stream ones. Returns the edge count. */
static inline int dag_program(const grid *kg, const dag *g, gl_sched_program *p, gl_sched_edge **edges)
{
    int st[MAX_STREAMS], n = 0, cross = 0, found = 0;
    int *ev = (int *)gl_xmalloc(sizeof(int) * 2 * (size_t)g->n), *op = ev + g->n; /* each kernel's event and op */
    gl_sched_edge *e = (gl_sched_edge *)gl_xcalloc((size_t)g->n * DAG_MAX_DEPS + 1, sizeof *e);
    new_streams(p, st, g->streams);
    for (int j = 0; j < g->n; j++) ev[j] = -1;
    for (int j = 0; j < g->n; j++)
        for (int d = 0; d < g->k[j].n_deps; d++) {
            int i = g->k[j].dep[d];
            if (g->k[i].stream != g->k[j].stream && ev[i] < 0) ev[i] = gl_sched_event_new(p);
        }
    for (int j = 0; j < g->n; j++) {
        const dag_kernel *k = &g->k[j];
        for (int d = 0; d < k->n_deps; d++)
            if (g->k[k->dep[d]].stream != k->stream) gl_sched_wait(p, 0, st[k->stream], ev[k->dep[d]]);
        op[j] = launch(kg, p, st[k->stream], k->stream, j, k->ns);
        if (ev[j] >= 0) gl_sched_record(p, 0, st[k->stream], ev[j]);
        for (int d = 0; d < k->n_deps; d++) {
            int c = g->k[k->dep[d]].stream != k->stream;
            e[n++] = (gl_sched_edge){op[k->dep[d]], op[j], c ? GL_SCHED_EDGE_EVENT : 0};
            cross += c;
        }
    }
    /* The waits must promise exactly the cross-stream dependencies: a bug here would check the wrong thing. */
    gl_sched_edge *implied = NULL;
    int n_implied = gl_sched_edges(p, GL_SCHED_EDGE_EVENT, &implied);
    for (int i = 0; i < n_implied; i++) {
        int d = 0;
        while (d < n && !(e[d].kind && e[d].before == implied[i].before && e[d].after == implied[i].after)) d++;
        found += d < n;
    }
    if (n_implied != cross || found != cross)
        gl_die(GL_EXIT_INTERNAL, "a DAG's waits imply %d edges (%d of them its own) for its %d cross-stream dependencies",
               n_implied, found, cross);
    free(implied);
    free(ev);
    *edges = e;
    return n;
}

#endif
