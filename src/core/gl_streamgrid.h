/* gl_streamgrid.h - S streams x K work kernels: issue them depth-first or
 * breadth-first, measure the run, and simulate that very run.
 *
 * The workload of false-dependency and hyperq, in one place. Each run records
 * the host's time for every call, builds the same program for the scheduling
 * model (gl_sched.h) with those times, simulates it, and compares the two
 * timelines kernel by kernel. With legacy_events the run is timed the way
 * most published samples time it: streams made with cudaStreamCreate
 * (blocking) and events recorded on the legacy default stream around the
 * launches; the model predicts the event-timed makespan too. */
#ifndef GL_STREAMGRID_H
#define GL_STREAMGRID_H

#include "gl_cuda.h"
#include "gl_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_streamgrid {
    /* what to run: set these, then call gl_streamgrid_create */
    int streams, kernels;    /* S and K */
    int blocks, threads;     /* each kernel's shape */
    int order;               /* GL_SCHED_DEPTH_FIRST or GL_SCHED_BREADTH_FIRST (may change between runs) */
    double kernel_us;        /* T */
    int blocking;            /* streams from cudaStreamCreate (else non-blocking) */
    int legacy_events;       /* time the launches with events on the legacy stream */
    int per_block;           /* record every block too (for traces) */
    /* made by gl_streamgrid_create */
    gl_sched_machine machine;   /* the model's machine, measured by the caller */
    double tick_ns;             /* %globaltimer tick: a kernel may read that much short */
    int per_sm;                 /* blocks of this shape on one SM */
    cudaStream_t *stream;       /* the S streams */
    gl_spans spans;             /* one record per launch (+ blocks with per_block) */
    unsigned long long *d_sink; /* where work kernels leave their result */
    unsigned int *slot;         /* span slot of each launch in issue order: the kernel ids */
    double t0_ns;               /* host clock when the last run began issuing */
    double *host_ns;            /* host clock after each call returned (launches and event records) */
    cudaEvent_t ev_start, ev_stop; /* legacy_events: recorded on the legacy stream */
    gl_sched_program prog;      /* the last run as a program for the model */
    /* the last run */
    gl_timeline tl;             /* measured */
    gl_timeline model_tl;       /* simulated */
    int n_spans;                /* records fetched */
    gl_sched_result sim;        /* the simulation's summary */
    gl_sched_errors errors;     /* measured against simulated, kernel by kernel */
    double event_ms;            /* legacy_events: elapsed between the two events */
    double model_event_ms;      /* legacy_events: the same, simulated */
    int runs, runs_complete;    /* runs, and those where every kernel ran its full time and left its result */
    double shortest_us;         /* shortest kernel seen in any run */
} gl_streamgrid;

/* Make the streams, buffers and events for the fields set above. */
void gl_streamgrid_create(gl_streamgrid *g, const gl_sched_machine *m, double tick_ns);
/* One run: issue, wait, measure, simulate, compare. */
void gl_streamgrid_run(gl_streamgrid *g);
/* Declare the series gl_streamgrid_put fills. */
void gl_streamgrid_series(gl_sampler *smp, int legacy_events);
/* A sampler callback: one run, and its samples (ctx is the gl_streamgrid). */
void gl_streamgrid_sample(gl_sample *smp, void *ctx);
/* The claims of a row sampled with gl_streamgrid_sample: every run complete;
 * makespan (and event-timed makespan) within tolerance of the simulation;
 * peak concurrency equal; median kernel start error at most 5% of T. Also
 * adds the model_error value. */
void gl_streamgrid_claims(gl_streamgrid *g, gl_report *rep, gl_row *row, double tolerance);
/* One row in table: the run's parameters and the textbook's forms, the
 * samples of gl_streamgrid_sample in g->order under an NVTX range, the
 * claims, and the last run beside its simulation as --timeline and --trace
 * ask. Returns the row. */
gl_row *gl_streamgrid_row(gl_streamgrid *g, gl_report *rep, const gl_common *common, gl_sampler *smp, gl_trace *trace,
                          const char *table, const char *variant, double tolerance);
/* Free the streams, buffers, events and timelines. */
void gl_streamgrid_destroy(gl_streamgrid *g);

#ifdef __cplusplus
}
#endif
#endif
