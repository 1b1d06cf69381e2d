/* gl_schedrun.h - run a scheduling-model program on the GPU, and the model of that very run.
 *
 * An experiment describes its work once, as a gl_sched_program (streams of
 * each kind, events, and each host thread's calls in order). This module
 * makes the real streams and events, issues the same calls from the host
 * threads (work kernels for launches, cudaEventRecord, cudaStreamWaitEvent,
 * the synchronizing calls), records the host clock around every call and a
 * span for every kernel, then hands the program back to the simulator with
 * each call's measured host time, so that the prediction is of the run that
 * happened. Prediction and measurement then go through the same analysis.
 *
 *     gl_sched_run r;
 *     gl_sched_run_create(&r, &prog, &machine, 0);
 *     gl_sched_run_begin(&r);
 *     gl_sched_run_thread(&r, 0);          (each host thread calls this for itself)
 *     gl_sched_run_end(&r);                (wait, measure, simulate, compare)
 *
 * Streams: program stream 0 is the legacy default stream (cudaStreamLegacy);
 * BLOCKING streams come from cudaStreamCreate, NONBLOCKING ones from
 * cudaStreamCreateWithFlags(cudaStreamNonBlocking), and a PER_THREAD stream
 * is cudaStreamPerThread used from its own host thread. Every stream is made
 * before the run: a CREATE op issues nothing here.
 *
 * HOST ops call the experiment's host_call (for calls the model treats as host
 * time or as a synchronization, such as cudaMalloc), or spin for the op's
 * issue_ns when there is none. COPY ops are refused: the simulator models them (a first form), this
 * does not issue them yet. */
#ifndef GL_SCHEDRUN_H
#define GL_SCHEDRUN_H

#include "gl_cuda.h"
#include "gl_hostfns.h"
#include "gl_trace.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef struct gl_sched_run {
    /* given to gl_sched_run_create */
    gl_sched_program *prog;     /* the program (not owned; its ops get the measured and simulated times) */
    gl_sched_machine machine;   /* the model's machine, measured by the caller */
    int per_block;              /* record every block too (for traces) */
    int timed_events;           /* 1: events keep time (cudaEventDefault); 0: cudaEventDisableTiming */
    void (*host_call)(struct gl_sched_run *r, int op, void *ctx); /* runs a HOST op; NULL: spin its issue_ns */
    void *host_ctx;             /* passed to host_call */
    /* issues a LAUNCH or COPY op whose user field is set, into s: the caller's own kernel, whose blocks each
     * close the op's span (gl_span_block_end(r->spans.dev, r->slot[op], ...), gl_spans.cuh), or the caller's
     * own copy of the op's bytes between the caller's buffers (the run records its end event after it) */
    void (*user_op)(struct gl_sched_run *r, int op, cudaStream_t s, void *ctx);
    void *user_ctx;             /* passed to user_op */
    double timeout_s;           /* a run that does not finish in this long is hung (default 60 s + the kernels' time) */
    int no_copy_ends;           /* 1: record no copy_done after the copies (their ends NAN): a timed record behind a
                                 * copy costs its engine 1-3.5 us while both directions run (H200, 2 MiB copies),
                                 * which the model does not have; set or clear it between runs */
    const char *nvtx_range;     /* non-NULL: each run, from gl_sched_run_begin (before t0) through its calls (its
                                 * copies' end records too) to gl_sched_run_end's wait for them, in an NVTX range
                                 * so named, one per run (replay --range takes the first: a warm-up's, unless
                                 * recorded with --profile); validate-replay replays it as the program, without
                                 * the harness's readback, clock alignment and pageable timing around the run */
    int nvtx_open;              /* the range is open (gl_sched_run_begin to gl_sched_run_end's wait) */
    /* made by gl_sched_run_create */
    cudaStream_t *stream;       /* one per program stream */
    cudaEvent_t *event;         /* one per program event */
    gl_spans spans;             /* one record per launch (+ its blocks with per_block) */
    unsigned int *slot;         /* the span slot of each op (GL_NO_SPAN for ops that are not launches): kernel ids */
    unsigned long long *d_sink; /* where work kernels leave their result */
    double *call_ns;            /* host clock just before each op's call, last run */
    double *return_ns;          /* host clock just after it returned */
    /* the last run */
    double t0_ns;               /* host clock at gl_sched_run_begin */
    gl_timeline tl;             /* measured kernels */
    gl_timeline model_tl;       /* simulated kernels */
    int n_spans;                /* records fetched */
    gl_sched_result sim;        /* the simulation's summary */
    gl_sched_errors errors;     /* measured against simulated, kernel by kernel */
    int launches;               /* LAUNCH ops in the program */
    int runs, runs_complete;    /* runs, and those where every kernel ran its full time and left its result */
    double shortest_ratio;      /* shortest kernel's measured time over its asked time, over all runs */
    unsigned long long sink_seen; /* *d_sink after the last run: every block adds to it */
    /* copies (COPY ops): one set of buffers, each as large as the largest copy that uses it, shared by every
     * copy (their contents are not looked at); an event after each copy gives its end */
    int copies;                 /* COPY ops in the program */
    void *copy_pinned, *copy_pageable, *copy_dev[2]; /* host (pinned, pageable) and two device buffers */
    cudaEvent_t *copy_done;     /* per op: recorded right after its copy (NULL for other ops) */
    double *copy_end_ns;        /* per op: the copy's end on the kernels' axis (tl.origin_ns), last run (NAN: not a copy) */
    double copy_anchor_error_ns; /* how far those ends may be off: the anchor's event after its kernel */
    cudaStream_t anchor_stream; /* the anchor's own stream, events and reading (made once, with copies only) */
    cudaEvent_t anchor_before, anchor_after;
    unsigned long long *d_anchor;
    /* host functions (HOSTFN ops): each spins on the driver's thread for its block_ns */
    gl_hostfn_hold *hostfn;     /* per op: its time and when it ran, host clock, last run (others unused) */
    /* several host threads: before its call, an op waits (spins) until the calls of other threads it depends on
     * in program order have returned (gl_sched_run_begin: prior[prior_first[i]..prior_first[i+1]-1]) */
    int *prior_first, *prior;   /* per op, the other threads' ops whose calls must have returned first */
    int *issued;                /* per op: its call has returned, this run (set and read atomically) */
} gl_sched_run;

/* Make the streams, events and buffers for prog, run on machine m. Set
 * timed_events, host_call, host_ctx or timeout_s in r before calling to change
 * them (zeroed fields take the defaults). Usage errors in the program (an event
 * out of range, a copy in no direction) exit GL_EXIT_INTERNAL. A program with
 * copies needs a machine with copy engines (gl_copy_calibrate's fit). A LOAD op
 * launches one of the core's never-launched kernels (gl_loads.h): a run that
 * reaches a load when the pool is used up exits GL_EXIT_USAGE, saying so, in
 * gl_sched_run_thread (work already issued is lost): size runs by gl_load_left. */
void gl_sched_run_create(gl_sched_run *r, gl_sched_program *prog, const gl_sched_machine *m, int per_block);
/* Time each copy its host waits for (pageable, gl_sched_copy_blocks_host) alone, now, in program order, on the
 * run's own buffers as the run issues it, and give it that time (copy_ns): such a copy goes at the host's memory
 * pace, which switched between two levels a fraction of a second apart on the H200 (64 MiB H2D 6.8 and 9.2 GB/s,
 * the same buffer and core) and depends on the buffer (a cold one slower), so a run's model takes the times of
 * the moment before it. Each pageable H2D that returns once staged has its call timed so too (stage_ns: the most
 * host time its call in the run counts as its own, gl_sched_staged_call_ns). Call it before each run; it costs
 * about the run's pageable copies again. */
void gl_sched_run_time_pageable(gl_sched_run *r);
/* Start a run: every span slot is handed out here, so host threads never
 * share a counter, and the clock starts. With several host threads it also
 * works out what each call must wait for from the other threads, so that the
 * program means what its order says, as a correct threaded program makes sure
 * (by its own locks or flags): a wait or an event synchronization after the
 * record it refers to (the latest one before it in program order), and a
 * record again after the other threads' waits on the one before; an op after
 * its stream's latest op, whichever thread issued it; a legacy-stream op after
 * each other thread's latest op, before it, on a blocking stream, and a
 * blocking stream's op after each other thread's latest legacy op; a device
 * synchronization after each other thread's latest op; a stream
 * synchronization after that stream's latest op; every op after the other
 * threads' synchronizations before it. The wait (a spin) is part of the call's
 * measured host time, so the model sees it. */
void gl_sched_run_begin(gl_sched_run *r);
/* Issue host thread `thread`'s calls in program order, from the calling host
 * thread (an OpenMP experiment calls it once per thread, inside its parallel
 * region; a PER_THREAD stream means this host thread's own). A call may spin
 * until other threads' calls have returned (gl_sched_run_begin), so one OS
 * thread may run several program threads in turn only where no call of one
 * depends on another's (omp-streams: each thread its own streams, no events). */
void gl_sched_run_thread(gl_sched_run *r, int thread);
/* Finish a run: wait for the device (at most timeout_s), fetch the spans, give
 * every op its measured host time (its return minus the return of its
 * thread's previous call, or minus the run's start), simulate, and compare. */
void gl_sched_run_end(gl_sched_run *r);
/* Simulate the last run again and compare anew, with r->machine as it is now: for a parameter that the run itself
 * measured and that nothing before it foretells (callbacks: the driver's thread's wake). GRIDLAB_SCHED_DUMP keeps
 * gl_sched_run_end's simulation. */
void gl_sched_run_resimulate(gl_sched_run *r);
/* After a run: the host's pace in that run, for its model to take, and the run simulated again. The host's
 * memory pace and the driver's thread's wake both moved between a timing just before a run and the run (H200:
 * pageable copies 11-20% either way, the wake 48-470 us; FINDINGS, session 9). On one alignment of the host clock
 * to the GPU's (about a millisecond) and one scan of what each op waited for, as measured (its stream's work, an
 * event's, the legacy stream's):
 *   - each copy its host waited for (pageable) gets the time it took, from when it could start (its call reached
 *     the GPU, or what it waits for ended) to its call's return, less what the model adds for the shared link
 *     (gl_sched_fit_host_copies). It keeps the time it had where other copies of its direction were in flight
 *     (called, and done waiting for its stream) between its start and its return, and their times alone come
 *     to more than a twentieth of its time, or one of them is a copy the host waited for (its time holds
 *     their turns on the engine), where its time is within three times the clocks' alignment error plus how
 *     early the copies' ends may read (copy_anchor_error_ns), or with no_copy_ends set (no ends to tell);
 *   - the driver's thread's wake is the median over the host functions that woke it: each behind a kernel of
 *     its stream, issued before that kernel ended (as callbacks reads it), or issued with its stream's work
 *     done; no other function running or waiting then; its start less when it was ready (the kernel's end, or
 *     its call's return plus the launch latency, or what its stream waited for if later), plus hostfn_ns (the
 *     model starts a woken function wake - hostfn_ns after it is ready), and each of those functions keeps its
 *     own (gl_sched_op's wake_ns; the next run's end clears them). Where none did, the machine's wake stands.
 * The ops hold the new simulation; r->machine keeps its own wake for the next run. *wake_ns: the wake simulated.
 * Returns the copies so timed (0 also for a run without kernels: no axis beside the host's). */
int gl_sched_run_own_pace(gl_sched_run *r, double *wake_ns);
/* One whole run: threads 1.. started on the caller's device, each with a first
 * call made (slow under nsys) before the run begins; begin, each host thread's
 * calls (thread 0 from the calling thread), end. */
void gl_sched_run_once(gl_sched_run *r);
void gl_sched_run_destroy(gl_sched_run *r);

/* ---- a program's runs as a row: what every scheduling experiment samples and claims ---------- */

/* Declare the series gl_sched_run_put fills: model_makespan and makespan (ms; min and noise shown),
 * model_peak and peak_concurrency (kernels), start_error (us, the median over kernels). */
void gl_sched_run_series(gl_sampler *smp);
/* One run's samples of those series, from the run just made; kernels count as together when they
 * overlap for at least lasting_ns (the dispatch gap, so that a kernel starting as another ends does not). */
void gl_sched_run_put(gl_sample *s, const gl_sched_run *r, double lasting_ns);
/* A row sampled with those series: its model_error value (%), then the two claims, named by the
 * caller's prefix: "<peak_prefix> peak concurrency is the simulation's N kernels" (the medians, equal)
 * and "<makespan_prefix> makespan matches the simulation" (within tolerance plus slack_ns). */
void gl_sched_run_claims(gl_report *rep, gl_row *row, const char *peak_prefix, const char *makespan_prefix,
                         double tolerance, double slack_ns);
/* Show the last run and, beside it, its simulation, as --timeline and --trace ask: "<title> (last run)"
 * and "<title> (model of the last run)". */
void gl_sched_run_show(gl_trace *t, const gl_common *common, const gl_sched_run *r, const char *title,
                       const gl_names *names);
/* The same, with each op's host call as a slice too (label call_label, track first_host_track + the op's
 * thread): the run's from call to return, on the host clock mapped onto %globaltimer by clock (left out,
 * saying so in the title, when the clock is not aligned); the model's from call to submission. Both
 * timelines are rebuilt with the slices, so call it after the claims. */
void gl_sched_run_show_calls(gl_trace *t, const gl_common *common, gl_sched_run *r, const gl_clock_align *clock,
                             const char *title, const gl_names *names, int call_label, int first_host_track);

/* The measured interval of the kernel issued by op (its span slot), or NULL. */
const gl_interval *gl_sched_run_kernel(const gl_sched_run *r, int op);
/* The same kernel in the simulation, or NULL. */
const gl_interval *gl_sched_run_model_kernel(const gl_sched_run *r, int op);

#ifdef __cplusplus
}
#endif
#endif
