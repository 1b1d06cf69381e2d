/* model.h - a replayable program as JSON: what the replay made of a trace, kept without the trace.
 *
 * replay --export-model FILE writes the model program after the fits (fit.h: kernels' time alone, host functions'
 * streams and own times), each kernel's and copy's recorded start and end, the GPU, the fitted dispatch gap and
 * launch latency, the module loading and the recorded setting and span; replay --model FILE replays it as it would
 * the trace, at every setting, without SQLite or the recording. tests/data keeps the third-party programs so: a
 * recording is data gridlab made, the samples' code stays out. Format "gridlab-replay-model 1":
 *
 *   {"format": "gridlab-replay-model 1", "source": "...", "gpu": "...", "sms": 132, "major": 9, "minor": 0,
 *    "lazy": 1, "recorded_connections": 8, "event_trace": 1 (optional: CUPTI traced the records; absent, 0),
 *    "recorded_makespan_ms": 60.07, "dispatch_ns": .., "latency_ns": ..,
 *    "copy_after_kernel_ns": [h2d, d2h], "kernel_after_copy_ns": [h2d, d2h]   (optional: fit.h's; absent, 0),
 *    "sync_return_ns": ..   (optional: fit.h's, a synchronizing call's return after its work; absent, 0),
 *    "graph_dispatch_ns": .. (optional: fit.h's, a graph's chained kernel nodes' dispatch; absent, 0: the gap's),
 *    "graph_copy_after_kernel_ns": .., "graph_kernel_after_copy_ns": ..  (optional: fit.h's, the same for a copy
 *             or memset node after a kernel node and the reverse; absent, 0: the machine's copy costs),
 *    "graph_restart_ns": ..  (optional: fit.h's, a conditional body's node that begins it again; absent, 0: none),
 *    "copy_arrive_ns": ..    (optional: fit.h's, a copy's arrival beyond the launch latency; absent, 0: none),
 *    "recorded_by_connections": {"1": 330.27, ...}          (optional: other recordings' spans, for tests)
 *    "streams": [[kind, priority], ...], "events": N, "threads": T,
 *    "ops": [[kind, thread, stream, event, blocks, threads, blocks_per_sm, block_ns, issue_ns, dir, pageable,
 *             bytes, copy_ns, recorded_start_ns, recorded_end_ns, timed, after, wake, sm_demand, chained,
 *             handed], ...]}
 *             (NaN written as null;
 *             a SYNC's block_ns is its wake_ns: -1 none, 0 sync_return_ns, gl_sched_op.wake_ns;
 *             timed: a record that holds its queue behind a running kernel, gl_sched.h "Events"; after: the index
 *             of another thread's op whose return this one's call waits for, -1 none (gl_sched_op.after); wake: a
 *             HOSTFN's wake of the driver's thread as fitted (rp_fit_wakes), 0 the machine's, 0 for other kinds;
 *             sm_demand: a LAUNCH's share of an SM a block uses alone (gl_sched.h "Sharing"; fit.c), 0 for
 *             other kinds; chained: 1 for a LAUNCH or COPY that is a graph's node behind its launch's previous
 *             node in its stream (gl_sched_op.chained), 2 for a LAUNCH that begins a conditional body again (refused
 *             before session 29), 0 else (a COPY so marked is refused by a binary before session 28's last
 *             commits); handed: 1 for a COPY handed over as recorded (gl_sched_op.handed), 0 else; a file of
 *             20-field ops has none handed, one of 19 none chained, one of 18 no
 *             demands (0) either, one of 17 no wakes, one of 16 no after
 *             either; one of 15 is read with a record timed where "event_trace" is 1, as the importer marks a
 *             traced trace's) */
#ifndef RP_MODEL_H
#define RP_MODEL_H

#include "import.h"

/* Write p (with its recorded starts and ends rs, re) and what replaying it needs from t to path. Returns 0, or -1
 * when the file cannot be written. */
int rp_model_write(const char *path, const char *source, const rp_trace *t, const gl_sched_program *p, const double *rs,
                   const double *re, int recorded, double dispatch_ns, double latency_ns);

/* Read path into p, rs, re (the caller frees them) and t's GPU, loading, recorded setting, event trace and span
 * (gpu_first_ns 0, gpu_last_ns the span; no calls); dispatch_ns and latency_ns get the fitted ones. Returns 0, or 2
 * with the reason in err: not readable, not JSON, not this format, a field missing or out of range. */
int rp_model_read(const char *path, rp_trace *t, gl_sched_program *p, double **rs, double **re, double *dispatch_ns,
                  double *latency_ns, char *err, int errlen);

#endif
