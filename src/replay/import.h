/* import.h - an Nsight Systems SQLite export, read into what the replay needs (issue 19).
 *
 * One process on one GPU: each host thread's CUDA runtime calls in order, with their times; each call's GPU work
 * found by its correlationId (CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET); event records (_CUDA_EVENT) and
 * waits and synchronizations (_SYNCHRONIZATION, recorded with --cuda-event-trace=true); the streams' flags and
 * priorities (TARGET_INFO_CUDA_STREAM), the legacy stream (TARGET_INFO_CUDA_CONTEXT_INFO), the GPU
 * (TARGET_INFO_GPU) and the recorded environment (META_DATA_CAPTURE). Calls the model has no operation for keep
 * their host time and are counted by name. Times are ns on the trace's clock. */
#ifndef RP_IMPORT_H
#define RP_IMPORT_H

#include <math.h>

#include "gl_sched.h"

/* A host function's time in its stream beyond its own, the driver's thread awake: the H200's, as callbacks
 * measured it (2.6 us, cudaLaunchHostFunc back to back); the replay's machine takes it, and the own-time
 * estimate leaves it out. */
#define RP_HOSTFN_NS 2600.0
/* A call linked to another thread's (an event wait to that thread's record of its event, a pageable D2H or an H2D
 * the host waits for to the one before it in the staging, a held host function's call to the call that held it)
 * and made this soon after that one returned waited for it: the gap before it was not its own time (import.c,
 * rp_program) */
#define RP_AFTER_RECORD_NS 20000.0
/* A host function's call this long that returned this soon after another thread's pageable call the host waited
 * for, or another held call, had returned was held by it (import.c, held_calls) */
#define RP_HELD_CALL_NS 200000.0
/* The largest pageable H2D that the driver stages at once, returning before its copy runs; over it the host waits
 * for the copy (gl_sched.h "Pageable", the H200's 2 MiB) */
#define RP_STAGED_BYTES (2 << 20)
#define RP_HELD_RETURN_NS 200000.0
/* H2D copies that take no engine, and keep no order on it with one queue (gl_sched.h "Engines"): a pageable one up
 * to RP_INLINE_BYTES goes inline (the model's pageable_inline_bytes), a pinned one up to RP_BESIDE_BYTES beside the
 * engine's copy (pinned_beside_bytes: 4-24 KiB ones ran inside a large one under nsys, none of 28 KiB) */
#define RP_INLINE_BYTES (64 << 10)
#define RP_BESIDE_BYTES (24 << 10)
/* How far after the return of the copy it followed on the engine, or before the one that followed it, a staged
 * H2D's push is put where the recorded order bounds it (rp_stage_busy_h2d; at most half way between them): the
 * simulated returns drift from the recorded by some microseconds */
#define RP_ORDER_NS 20000.0

/* The largest grid the replay takes: the model hands blocks out one at a time, about 1.2 s per 10^7 blocks a
 * setting on one core, so 2^26 blocks (67 million) cost seconds, 2^31 minutes. */
#define RP_MAX_BLOCKS (1LL << 26)

enum {
    RP_HOST,        /* host time only: a call the model has no operation for (counted by name) */
    RP_LAUNCH,      /* a kernel */
    RP_COPY,        /* a copy or a memset (dir) */
    RP_RECORD,      /* cudaEventRecord */
    RP_WAIT,        /* cudaStreamWaitEvent */
    RP_HOSTFN,      /* cudaLaunchHostFunc, cudaStreamAddCallback: its stream is its thread's previous call's */
    RP_SYNC_EVENT,  /* cudaEventSynchronize */
    RP_SYNC_STREAM, /* cudaStreamSynchronize */
    RP_SYNC_DEVICE, /* cudaDeviceSynchronize */
    RP_GRAPH,       /* cudaGraphLaunch whose nodes were traced (nsys --cuda-graph-trace=node): rp_call.node_* */
    RP_POLL         /* cudaEventQuery in a loop that ended when its event had: the loop's calls are a wait (poll) */
};

/* One node of a graph launch as it ran (a kernel, copy or memset row with a graphNodeId). */
typedef struct rp_node {
    int call;                        /* its launch's index in rp_trace.calls */
    int kind;                        /* RP_LAUNCH or RP_COPY */
    int stream;                      /* the stream it ran in: the launch's, or one the graph's branches took */
    double gpu_start_ns, gpu_end_ns; /* as recorded */
    int blocks, threads, blocks_per_sm; /* RP_LAUNCH */
    int kname;                       /* RP_LAUNCH: its kernel's name, the trace's StringIds id + 1 (0: unknown) */
    int dir, pageable;               /* RP_COPY */
    double bytes;                    /* RP_COPY */
    long long graph;                 /* its executable graph (the node id's upper 32 bits) */
    unsigned node;                   /* its place in that graph (the node id's lower 32 bits) */
    int body;                        /* a conditional node's body's (correlationId 0) */
} rp_node;
enum { RP_BODY_CALL = -3 }; /* rp_node.call while importing: a conditional body's node, its launch not found yet */

/* Whether node x begins its conditional body again after node y, its stream's node before it in its launch (a
 * while loop's next iteration): both the body's, x no later in its graph than y (gl_sched.h "Blocks", chained 2). */
static inline int rp_node_restarts(const rp_node *x, const rp_node *y)
{
    return x->body && y->body && x->graph == y->graph && x->node <= y->node;
}

/* Whether a node of nd[from..to) in another stream than x's ended between y's end and x's start, y being x's
 * stream's node before it: x may have waited for that one (a cross-stream edge the trace does not show). */
static inline int rp_node_crossed(const rp_node *nd, int from, int to, const rp_node *x, const rp_node *y)
{
    for (int z = from; z < to; z++)
        if (nd[z].stream != x->stream && nd[z].gpu_end_ns > y->gpu_end_ns && nd[z].gpu_end_ns <= x->gpu_start_ns)
            return 1;
    return 0;
}

/* A pageable copy that the host waits for, as the replay's machine has it (gl_sched.h "Staging", machine_for: the
 * driver stages RP_STAGED_BYTES at once): a D2H, or an H2D over that. */
static inline int rp_host_waits_pageable(int pageable, int dir, double bytes)
{
    return pageable && (dir == GL_SCHED_D2H || (dir == GL_SCHED_H2D && bytes > RP_STAGED_BYTES));
}

typedef struct rp_call {
    int kind;                    /* RP_* */
    int thread;                  /* its host thread, 0.. */
    double start_ns, end_ns;     /* the call */
    int name;                    /* its name's index in rp_trace.names */
    int stream, event;           /* the model's stream and event indices (-1: none) */
    double gpu_start_ns, gpu_end_ns; /* its GPU work as recorded (LAUNCH, COPY) */
    int blocks, threads, blocks_per_sm; /* LAUNCH: grid and block size, blocks that fit on one SM */
    int kname;                   /* LAUNCH: its kernel's name, the trace's StringIds id + 1 (0: unknown); the
                                  * launch's op carries it as its label, which the sharing fit groups by (fit.h) */
    int dir, pageable, sync;     /* COPY: GL_SCHED_H2D.., pageable host memory, a synchronous call (cudaMemcpy) */
    int staged_sync;             /* COPY: a cudaMemcpy of pageable memory to the device, staged at once (up to
                                  * RP_STAGED_BYTES): it waits for its stream, stages, and returns as the DMA is
                                  * issued, not after it (host_waits) */
    double bytes;                /* COPY */
    int load;                    /* LAUNCH: a first launch under lazy loading (its kernel looked up just before) */
    int waits;                   /* COPY: the call returns once the copy has ended (cudaMemcpy; a pageable one),
                                  * or, staged_sync, once its stream's work has (its time is the wait and after) */
    int cand[4], n_cand;         /* HOSTFN: the distinct streams of its thread's latest calls, the latest first */
    double pre_ns, post_ns;      /* such a call's own host time before its copy (the stream idle) and after it */
    double staged_from_ns;       /* COPY, an H2D the host waits for called into a busy stream: when its staging
                                  * could begin (its pre_ns: rp_stage_busy_h2d); NAN for any other call */
    int staging_prev;            /* COPY, a pageable D2H or an H2D the host waits for: the one before it in the
                                  * driver's staging of its direction (-1: none) */
    int held_by;                 /* HOSTFN: another thread's pageable copy call, or held call, that held this call
                                  * (-1: none) */
    int node_first, n_nodes;     /* GRAPH: its nodes, rp_trace.nodes[node_first..], by recorded start */
    int host_nodes;              /* GRAPH: its graph's host nodes, which no activity row shows */
    int captured;                /* made while its thread captured a stream into a graph: nothing ran */
    int ret;                     /* its return value (0 where the export has none) */
    int unfinished;              /* it returned cudaErrorNotReady (a query that found the work not done) */
    int poll;                    /* RP_POLL: 1 the loop's first query, 2 a later one, 3 its last (the work done) */
} rp_call;

typedef struct rp_trace {
    rp_call *calls;             /* every call, by thread, then start */
    int n_calls;
    int n_threads, n_events;
    gl_sched_stream *streams;   /* the model's streams: 0 is the legacy stream */
    int n_streams;
    char **names;               /* call names (without the _v<version> suffix) */
    int *name_counts;           /* how many calls of each name */
    int *name_kept;             /* how many of them stayed host time (no model operation) */
    int n_names;
    int sms, major, minor;      /* the GPU */
    char gpu[96], schema[32];   /* its name; the export's schema version */
    int recorded_connections;   /* CUDA_DEVICE_MAX_CONNECTIONS in the recorded environment (0: not set) */
    int event_trace;            /* CUPTI traced the event records (nsys --cuda-event-trace=true): each holds its queue */
    int lazy;                   /* CUDA_MODULE_LOADING: 1 lazy, 0 eager (unset: the CUDA 13 default, lazy) */
    double gpu_first_ns, gpu_last_ns; /* the recorded GPU span: first kernel, copy or memset start to last end */
    double copy_after_kernel_ns[2];   /* H2D, D2H: a copy that waited for its stream's kernel, from its end (fit.h) */
    double kernel_after_copy_ns[2];   /* a kernel that waited for its stream's copy, from its end, beyond dispatch */
    int gap_n[4];               /* how many pairs each of those four came from (fit.h; RP_GAP_MIN needed) */
    /* The pools for a gap whose kind shows too few pairs (fit.h, rp_fit_pool), each the median from the one's end
     * to the other's start: [RP_POOL_COPIES] copies after kernels (H2D and D2H), [RP_POOL_KERNELS] kernels after
     * copies, [RP_POOL_ALL] all four kinds; the same + RP_POOLS from the whole trace (a --range's, else 0 pairs). */
    double gap_pool_ns[6];
    int gap_pool_n[6];          /* how many pairs each came from (0: fewer than RP_GAP_MIN) */
    int gap_pool_from[4];       /* the pool each of the four gaps took (-1: its own kind's, or none) */
    int gap_pooled;             /* how many of the four took one */
    double copy_arrive_ns;      /* an H2D or D2H copy's start after its call's return, beyond the launch latency
                                 * (fit.h; 0: none) */
    int copy_arrive_n;          /* how many copies into idle streams that came from (0: too few) */
    double sync_return_ns;      /* a synchronizing call's return after the work it waited for ended (fit.h) */
    int sync_return_n;          /* how many calls that came from */
    double graph_dispatch_ns;   /* a graph's kernel node after its launch's previous kernel node in its stream, from
                                 * that one's end (fit.h; 0: not fitted, the dispatch gap as any) */
    double graph_copy_after_kernel_ns, graph_kernel_after_copy_ns; /* the same for a copy or memset node after a
                                 * kernel node, and a kernel node after one, less its dispatch (fit.h; 0: none) */
    double graph_restart_ns;    /* a conditional body's kernel node that begins the body again, from its stream's
                                 * previous node's end (fit.h; 0: none) */
    rp_node *nodes;             /* the nodes of graph launches traced node by node, by launch, then start */
    int n_nodes, graph_launches, graph_host_nodes; /* ...how many, of how many launches; host nodes run */
    int graphs_whole;           /* graph launches traced whole (CUPTI_ACTIVITY_KIND_GRAPH_TRACE): not replayed */
    int body_nodes;             /* nodes of conditional nodes' bodies (no call of their own), each in its launch */
    int dropped;                /* kernels, copies and memsets matched to no call or stream: left out */
    int um_migrations;          /* unified memory's page migrations (MEMCPY rows of copyKind 11-13): in the span,
                                 * no op */
    double um_bytes;            /* their bytes */
    long long too_big;          /* a grid of more blocks than the model counts (the trace is refused) */
    int hostfns, hostfns_lost;  /* host functions, and those with no earlier stream call on their thread (host time) */
    int held_calls;             /* host function calls another thread's pageable copy call held (rp_call.held_by) */
    int held_chained;           /* those of them held behind another held call */
    int waited_h2d;             /* pageable H2D copies the host waited for (over the 2 MiB staged at once) */
    double staging_ns;          /* the median time such a copy called into an idle stream took from its call (or
                                 * its staging predecessor's return) to its DMA: the host's staging of its first
                                 * part, and the engine's start (replay.c may put a --range's whole trace's here,
                                 * where the range shows too few) */
    int staging_n;              /* how many it came from (0: none, staging_ns 0) */
    int staged_busy;            /* such copies called into a busy stream, given that staging (rp_stage_busy_h2d) */
    int staged_ordered;         /* those of them whose staging the recorded order on the H2D engine moved */
    /* The driver's thread that runs host functions, where the trace holds its scheduling (SCHED_EVENTS, nsys's
     * default --cpuctxsw=process-tree): each time it ran on a CPU, [on, off) in pairs, in the trace's ns, from
     * shortly before the range (import.c, driver_runs). None where the trace has no such table or thread. */
    double *fn_runs;
    int n_fn_runs;
    int polls, poll_queries;    /* cudaEventQuery loops replayed as waits for their event, and their calls */
    char range[128];            /* --range: the NVTX range replayed ("" for the whole trace)... */
    double range_start_ns, range_end_ns; /* ...its time (the calls that began in it, on every thread, are replayed) */
    int ranges_matched;         /* how many ranges had that name (the first is replayed) */
} rp_trace;

/* Read the export at path into t. Returns 0, or 2 with a message in err naming what is wrong: not a file, not
 * SQLite, truncated, no CUDA trace, a table or column missing (with the export's schema version), more than one
 * process or GPU, no GPU work. */
int rp_import(const char *path, rp_trace *t, char *err, int errlen);
/* The same for the calls that began while the first NVTX range named range (the whole name, or its start followed
 * by a space: "random 3" names "random 3 (copies, seed 7)", not "random 30 ...") was open, on any thread; range
 * NULL or "" is the whole trace. lazy: 1 or 0 says the module loading it was recorded under, -1 takes the recorded
 * environment's (unset: lazy, the default since CUDA 12.2). A trace without NVTX ranges, or without one of that name, is refused (2). */
int rp_import_range(const char *path, const char *range, int lazy, rp_trace *t, char *err, int errlen);
void rp_trace_free(rp_trace *t);
/* A pageable H2D copy the host waits for goes on the H2D engine once the host has staged its first part, also when
 * its stream is busy: with one queue, a pinned H2D another thread called 25-50 us after an 8 or 32 MiB one ran
 * before it, 200 us and more after it, behind it (probe-h2d-push, session 24). Gives each such call into a busy
 * stream staging_ns of host time before its copy (at most until its recorded DMA; 0: none known). in_order
 * (recorded with one queue, where the engine keeps the order its copies went to it in): of the other H2D copies
 * that take the engine and went to it (at their return; a cudaMemcpy at its call) after this one's staging could
 * begin and before its DMA, the recording shows some before it on the engine and some after; its staging then
 * ends RP_ORDER_NS after the last of the first kind went, and RP_ORDER_NS before the first of the second (at most
 * half way between them). Sets t->staged_busy and t->staged_ordered (those whose time the order changed); returns
 * the first. */
int rp_stage_busy_h2d(rp_trace *t, double staging_ns, int in_order);

/* The program's time 0 in the trace's clock: its first call's start (rp_program's recorded times count from it). */
static inline double rp_time0(const rp_trace *t)
{
    double t0 = INFINITY;
    for (int i = 0; i < t->n_calls; i++) t0 = fmin(t0, t->calls[i].start_ns);
    return t0;
}
/* The recorded calls as a model program: each thread's calls in order with their recorded host times and the
 * recorded gaps between them as host work, each kernel's blocks at its recorded time per wave, each copy at its
 * recorded time; a wait on an event after another thread's record of it (in the recording) waits to see that record
 * returned (gl_sched_op.after), and a host function's call that another thread's pageable call held waits to see
 * that call returned, each taking as its own time only what followed that return (a gap before a call made within
 * RP_AFTER_RECORD_NS of it; a held call's time after it). recorded_start[i], _end[i] and _return[i] get op i's
 * recorded start and end and its call's return, or for a call that waits for its own copy its start, when it handed
 * the copy over (NAN where none; recorded_return may be NULL); the caller frees them. */
void rp_program(const rp_trace *t, gl_sched_program *p, double **recorded_start, double **recorded_end,
                double **recorded_return);

/* Rank p's kernels and copies by recorded start (gl_sched_op.rank, 1 the first; ties by op index; those with none
 * recorded, 0): on a machine with ranked_races (the recorded setting), kernels the simulation finds racing go in
 * the order they started in the recording (gl_sched.h "Heads"). rp_program and rp_model_read call it. */
void rp_rank_starts(gl_sched_program *p, const double *recorded_start);

/* A graph launch's nodes as model operations (graph.c), issued by thread th: each node in the stream it ran in;
 * the branches' first nodes wait for the launch stream's earlier work; a node waits for each other stream's
 * latest node of the launch that had ended before it started (the trace holds no edges); the launch stream
 * then waits for every branch, and runs the graph's host nodes (host functions, their time fitted later,
 * marked id RP_GRAPH_HOST_NODE). node_op[k] gets the op of the call's k-th node; *kernels counts kernel ids.
 * Returns the op that stands for the call (a record on the launch stream), which takes the call's host time. */
enum { RP_GRAPH_HOST_NODE = -2 };
/* One kernel or copy (w: a node, or a call's work in a node's shape) as a model op of thread th, at its recorded
 * time (a kernel's per wave; *kernels counts kernel ids); returns the op. */
int rp_work_op(const rp_trace *t, gl_sched_program *p, int th, const rp_node *w, int *kernels);
int rp_graph_ops(const rp_trace *t, const rp_call *c, int th, gl_sched_program *p, int *kernels, int *node_op);

#endif
