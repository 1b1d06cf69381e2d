/* events.cuh - what stream-events, event-cost and event-timing share: work
 * described once as a scheduling-model program of one-warp kernels on
 * non-blocking streams, run through gl_schedrun.h, sampled as one row, and
 * checked the same way in all three (so that a row reads the same whichever
 * experiment made it). */
#ifndef GL_STREAMS_EVENTS_CUH
#define GL_STREAMS_EVENTS_CUH

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gl_check.h"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_trace.h"

enum { THREADS = 32 }; /* every work kernel is one block of one warp */

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
    L->one.blocks = 1;
    L->one.threads = THREADS;
    L->one.per_sm = gl_work_blocks_per_sm(THREADS);
    if (L->one.per_sm < 1)
        gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", THREADS);
    L->slack_ns = 2 * L->S.dev.tick_ns;
    gl_sched_lab_calibrate(&L->S, THREADS, calibration_us);
}

/* Parse the options of an event experiment that has only the common ones, then
 * open its lab. Its model's machine is measured with 1 ms kernels (200 us under
 * --quick), stream-events' default T: event-cost and event-timing were parts of
 * stream-events until issue 17, and so their model columns stay comparable
 * with the runs recorded then. */
static inline void events_lab_start(events_lab *L, const gl_experiment *exp, gl_common *common, int argc, char **argv)
{
    gl_common_defaults(common);
    gl_options_parse_or_exit(exp, NULL, 0, common, argc, argv);
    events_lab_open(L, exp->name, common, common->quick ? 200 : 1000);
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

#endif
