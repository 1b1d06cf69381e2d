/* fit.h - what a trace does not say, fitted to it (replay.c calls these after import.h's rp_program). */
#ifndef RP_FIT_H
#define RP_FIT_H

#include "import.h"

/* The launch latency and dispatch gap the trace shows (ns), where it shows them: the dispatch gap is the median
 * over kernels that waited for their stream's previous kernel, and for nothing else (no other stream's kernel, a
 * launch's or a graph node's, ran at that one's end or started in the gap, and no other call of the stream lay
 * between them: fit.c, rp_fit), of the time from its end to their start; the launch latency, the tenth percentile over kernels launched into an idle stream of the time from their call's return to
 * their start, less that gap. n_gap and n_latency: how many kernels each came from (0: keep the caller's, also
 * where fewer than 8 kernels show it). The copy engines' gaps the trace shows, too, into t (gl_sched.h, "Copies": copy_after_kernel_ns and
 * kernel_after_copy_ns, H2D and D2H): the median over the pinned H2D and D2H copies whose call returned before
 * their stream's previous kernel ended of the time from its end to their start; and over the kernels that so waited
 * for their stream's previous H2D or D2H, the same less the dispatch gap (the fitted one, else the caller's). Each
 * needs RP_GAP_MIN such pairs, else stays 0 (each op's previous is its stream's previous kernel or copy of any
 * kind, memsets and D2D included, which then count for no pair), and t->gap_n gets each one's count. And into
 * t->sync_return_ns (machine sync_return_ns, gl_sched.h "Host"): the median over the device and stream syncs that
 * waited (their work, every kernel, copy and memset called before them, of their stream or of any, ended after they
 * were called) of the time from that work's end to their return, with RP_GAP_MIN of them, else 0 (a --range's own:
 * not the whole trace's); t->sync_return_n gets how many. And into t->graph_dispatch_ns the median over a graph
 * launch's kernel nodes that followed its previous kernel node in their stream of the time from that one's end to
 * their start, with RP_FIT_MIN of them, else 0; into t->graph_copy_after_kernel_ns the same for a
 * copy or memset node after a kernel node, and into t->graph_kernel_after_copy_ns for a kernel node after a copy or
 * memset node less the dispatch it takes (the graph's, else dispatch_ns's fit); into t->graph_restart_ns the
 * median over a conditional body's kernel nodes that begin the body again (rp_node_restarts: kept out of the
 * pairs above, as a copy node's are out of every pool) of the time from their stream's node before's end. And into
 * t->copy_arrive_ns (machine copy_arrive_ns, gl_sched.h "Host") the tenth percentile, less the launch latency, of
 * the time from an H2D or D2H copy's call's return to its start, over those that went into an idle stream with no
 * copy of their direction running, with RP_FIT_MIN of them, else 0; t->copy_arrive_n gets how many.
 * Returns how many of the four gaps were fitted. It also
 * pools the pairs for rp_fit_pool (t->gap_pool_ns and gap_pool_n: the copies after kernels, the kernels after
 * copies, all four kinds; the whole trace's three set to none). */
int rp_fit(rp_trace *t, double *dispatch_ns, int *n_gap, double *latency_ns, int *n_latency);
/* Each of the four gaps that its own kind could not fit (fewer than RP_GAP_MIN pairs, t->gap_n) takes the first
 * pool with RP_GAP_MIN pairs of: its own side's (copies after kernels, or kernels after copies), the whole trace's
 * own side's, all four kinds', the whole trace's all four. A copy after a kernel takes the pool's median, a kernel
 * after a copy that less dispatch_ns (0 at least). The two sides differ: callbacks' cudaStreamAddCallback pattern
 * at C=8 (session 16) shows three kernels 8.6-9.0 us after their H2D, three D2H 1.6-3.8 us after their kernel.
 * Without a pool, a trace with three kernels after an H2D had them follow at the dispatch gap, where nsys shows
 * 3-11 us (callbacks' recordings in session 15, 5.8-8.7 us at the median, where three of them had fewer than 4
 * such pairs or D2H after a kernel). Sets t->gap_pool_from and t->gap_pooled; returns how many took a pool. */
int rp_fit_pool(rp_trace *t, double dispatch_ns);
/* Each call's return after the work it waited for (ns), where it is a device or stream sync that waited for work
 * the trace shows (the calls that t->sync_return_ns is the median of; fit.c); NAN for any other call. order:
 * rp_calls_by_start's. The caller frees it. */
double *rp_sync_returns(const rp_trace *t, const int *order);
/* The indices of t's calls in the order they were made, on every thread (ties by index); the caller frees it. The
 * importer orders its own passes by it too. */
int *rp_calls_by_start(const rp_trace *t);
/* pairs a copy gap needs, syncs the return after a sync, and copies a --range's staging (replay.c) */
enum { RP_GAP_MIN = 4 };
enum { RP_POOL_COPIES, RP_POOL_KERNELS, RP_POOL_ALL, RP_POOLS }; /* t->gap_pool_*: + RP_POOLS, the whole trace's */
#define RP_GAP_MIN_TEXT "4" /* RP_GAP_MIN, for messages */
enum { RP_FIT_MIN = 8 };      /* kernels or copies a fitted dispatch gap, launch latency or copy arrival needs */
#define RP_FIT_MIN_TEXT "8" /* RP_FIT_MIN, for messages */

/* Kinds of kernel, as the sharing fit takes them: one name (the launch op's label, the trace's shortName) and one
 * grid (blocks, threads, blocks per SM). rp_sort_kinds sorts the op indices ix[0..n) so that each kind's launches
 * are together, in op order; rp_same_kind says whether two launches are of one kind. */
void rp_sort_kinds(const gl_sched_program *p, int *ix, int n);
int rp_same_kind(const gl_sched_op *a, const gl_sched_op *b);
/* The most kernels with a demand (fit_sharing's) that ran at once, by start[i] and end[i] (a recording's), or by the
 * ops' simulated start_ns and end_ns where those are NULL. How such kernels slow beside more of them than a
 * recording ran at once is the model's law, not the recording's (replay.c says so under its table). */
int rp_sharing_peak(const gl_sched_program *p, const double *start, const double *end);

/* Each kernel's time alone per wave (LAUNCH ops' block_ns), from what ran beside it: simulated on m (the recorded
 * setting), a kernel that shared the SMs (its blocks in more waves than alone, or later ones waiting for slots)
 * took longer than its waves alone would; its block time is scaled by recorded over simulated duration, three
 * times over, so that at the recorded setting each kernel lasts as recorded and elsewhere its blocks take their
 * own time. First, kernels that share the SMs' throughput (gl_sched.h "Sharing": gridlab's own kernels do not, a
 * GEMM does) get a demand per kind (one name, the op's label, and one grid) from how much slower they ran beside
 * others than alone, and keep their kind's time alone; the passes leave them be (fit.c, fit_sharing). Other
 * kernels slowed by sharing memory bandwidth, not SMs, keep the slower time. Returns the kernels whose
 * time changed by over 1%. A pageable copy the host waited for likewise gets its time alone (copy_ns): its pieces
 * waited behind the engine copies of its direction that ran meanwhile (gl_sched.h, "Pageable"), which the
 * simulation adds again, so what the simulation adds is taken off its recorded time (the simulated time from its
 * first piece, or from when an engine took it where the recording began it nearer then), bracketed over up to twelve
 * passes, keeping the times of the pass (after the kernels' last) whose simulation put the copies nearest the
 * recording; *copies_changed (if not NULL) gets how many such copies changed by over 1%. */
int rp_fit_kernels(gl_sched_program *p, const gl_sched_machine *m, const double *recorded_start,
                   const double *recorded_end, int *copies_changed);
/* Place each host function whose thread called into several streams lately (rp_call.cand) in the candidate whose
 * next kernel or copy starts latest behind its recorded start, simulated on m with every function taking no time
 * of its own (over 20 us: an unmodelled hold, which a function in that stream explains), where the stream of its
 * thread's previous call shows no such hold, or one under a third of the candidate's; else it stays there (a
 * candidate whose next work comes after another function in it shows none: that function held it). Each
 * lateness is taken less the function's own call's (its recorded return, recorded_return, less the simulated one):
 * the functions before it, not yet fitted, make the simulation early by as much everywhere after them. It is also
 * no more than that work waited in the recording itself, after its call (recorded_return: for a call that waits for
 * its own copy, the call's start) and its stream's recorded work before it (recorded_end) were done, which an
 * unfitted function further back does not move. A candidate's work issued after the thread waits (a
 * synchronization) is no sign: it is late by the wait. A candidate whose next work began before the driver's
 * thread ran at all after the call began (rp_trace.fn_runs) cannot be the function's: where that is the previous
 * call's stream, the function goes to the latest-held candidate that can. Returns how many moved. */
int rp_place_hostfns(const rp_trace *t, gl_sched_program *p, const gl_sched_machine *m, const double *recorded_start,
                     const double *recorded_end, const double *recorded_return);
/* Fit the host functions' own times (HOSTFN ops' block_ns) to the recording, which does not show them: simulated on
 * m (the recorded setting), where a function's stream's next kernel or copy starts earlier than recorded, the
 * function is made to end just before that recorded start (2 us: a function's end to its stream's next start), by
 * no more than that operation waited after its call returned in the recording (or, for a call that waits for its
 * own copy, after its call began: recorded_return holds that) (each pass). Where the first thing to follow the
 * function is instead the host's wait for it (a device or stream sync, or an event sync on an event recorded in
 * its stream behind it, nothing between), it is made to end just before that wait's recorded return
 * (recorded_return), by no more than the wait returned late. In passes (64 at most),
 * each fitting the functions that began before the first fitted one ended (the driver's one thread runs them in
 * turn), whose times the fit cannot move. Returns how many functions were fitted. */
int rp_fit_hostfns(gl_sched_program *p, const gl_sched_machine *m, const double *recorded_start,
                   const double *recorded_return);
/* Fit each host function's wake (HOSTFN ops' wake_ns) to when the driver's thread ran (rp_trace.fn_runs): simulated
 * on m, a function that finds the driver's thread idle (no function running) wakes it, and in the recording the
 * thread began its next run after that (the first run that ends after the simulated moment); the wake is the time
 * between, where the recording did not have the thread already running then, and no more than RP_WAKE_MAX_NS (a
 * longer one is taken as a different moment, not a wake). In passes, as rp_fit_hostfns. Returns how many. */
int rp_fit_wakes(const rp_trace *t, gl_sched_program *p, const gl_sched_machine *m);

#endif
