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

#include "gl_sched.h"

enum {
    RP_HOST,        /* host time only: a call the model has no operation for (counted by name) */
    RP_LAUNCH,      /* a kernel */
    RP_COPY,        /* a copy or a memset (dir) */
    RP_RECORD,      /* cudaEventRecord */
    RP_WAIT,        /* cudaStreamWaitEvent */
    RP_SYNC_EVENT,  /* cudaEventSynchronize */
    RP_SYNC_STREAM, /* cudaStreamSynchronize */
    RP_SYNC_DEVICE  /* cudaDeviceSynchronize */
};

typedef struct rp_call {
    int kind;                    /* RP_* */
    int thread;                  /* its host thread, 0.. */
    double start_ns, end_ns;     /* the call */
    int name;                    /* its name's index in rp_trace.names */
    int stream, event;           /* the model's stream and event indices (-1: none) */
    double gpu_start_ns, gpu_end_ns; /* its GPU work as recorded (LAUNCH, COPY) */
    int blocks, threads, blocks_per_sm; /* LAUNCH: grid and block size, blocks that fit on one SM */
    int dir, pageable, sync;     /* COPY: GL_SCHED_H2D.., pageable host memory, a synchronous call (cudaMemcpy) */
    double bytes;                /* COPY */
    int load;                    /* LAUNCH: a first launch under lazy loading (its kernel looked up just before) */
} rp_call;

typedef struct rp_trace {
    rp_call *calls;             /* every call, by thread, then start */
    int n_calls;
    int n_threads, n_events;
    gl_sched_stream *streams;   /* the model's streams: 0 is the legacy stream */
    int n_streams;
    char **names;               /* call names (without the _v<version> suffix) */
    int *name_counts;           /* how many calls of each name */
    int *name_modelled;         /* whether calls of that name became model operations */
    int n_names;
    int sms, major, minor;      /* the GPU */
    char gpu[96], schema[32];   /* its name; the export's schema version */
    int recorded_connections;   /* CUDA_DEVICE_MAX_CONNECTIONS in the recorded environment (0: not set) */
    int lazy;                   /* CUDA_MODULE_LOADING: 1 lazy, 0 eager (unset: the CUDA 13 default, lazy) */
    double gpu_first_ns, gpu_last_ns; /* the recorded GPU span: first kernel, copy or memset start to last end */
    int graph_kernels;          /* kernels launched from graphs (not replayed node by node) */
    int dropped;                /* kernels, copies and memsets matched to no call or stream: left out */
    long long too_big;          /* a grid of more blocks than the model counts (the trace is refused) */
} rp_trace;

/* Read the export at path into t. Returns 0, or 2 with a message in err naming what is wrong: not a file, not
 * SQLite, truncated, no CUDA trace, a table or column missing (with the export's schema version), more than one
 * process or GPU, no GPU work. */
int rp_import(const char *path, rp_trace *t, char *err, int errlen);
void rp_trace_free(rp_trace *t);

/* The launch latency and dispatch gap the trace shows (ns), where it shows them: the dispatch gap is the median
 * over kernels that waited for their stream's previous kernel of the time from its end to their start; the launch
 * latency, the first quartile over kernels launched into an idle stream of the time from their call's return to
 * their start, less that gap. n_gap and n_latency: how many kernels each came from (0: keep the caller's). */
void rp_fit(const rp_trace *t, double *dispatch_ns, int *n_gap, double *latency_ns, int *n_latency);

/* The recorded calls as a model program: each thread's calls in order with their recorded host times and the
 * recorded gaps between them as host work, each kernel's blocks at its recorded time per wave, each copy at its
 * recorded time. recorded[i] gets op i's recorded start and end (NAN where none); the caller frees it. */
void rp_program(const rp_trace *t, gl_sched_program *p, double **recorded_start, double **recorded_end);

#endif
