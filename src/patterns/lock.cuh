/* lock.cuh - the textbook's atomic Lock (CUDA by Example, appendix A), with the fences it lacks and a deadline on
 * every spin; dot-lock, lock-contention and warp-lock all take it.
 *
 * atomicCAS and atomicExch are relaxed: atomic on the mutex, ordering nothing else. __threadfence() after the
 * successful CAS is the acquire half, the one before the atomicExch the release half (the PTX memory model's
 * fence-after-strong-read and fence-before-strong-write), so the holders' plain loads and stores are ordered one
 * after another and need no volatile; GPU scope, since the next holder may run on another SM. The seed has neither.
 * Every spin ends: an acquire gives up after --timeout-ms (%globaltimer, looked at every SPIN_CHECK failed attempts)
 * or once any other thread gave up; give-ups are counted, and fail a check or a claim. */
#ifndef GL_PATTERNS_LOCK_CUH
#define GL_PATTERNS_LOCK_CUH

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_spans.cuh"

enum { SPIN_CHECK = 64 }; /* failed attempts between two looks at the clock */

/* ---- the lock, on the device ------------------------------------------------------------ */

/* The lock and what is measured about it; one per run, reset before each. */
typedef struct lock_record {
    int mutex;                   /* the seed's Lock: 0 free, 1 held */
    int pad[31];                 /* the rest of the mutex's 128-byte line: spinners touch nothing else */
    unsigned int held;           /* the protected data: acquisitions, counted by the holders with plain loads and stores */
    unsigned int pad2[31];       /* its own line too, apart from the counters below that finished takers update */
    unsigned int timeouts;       /* acquires that gave up */
    int gave_up;                 /* set by the first give-up: every spinner then stops too */
    unsigned int arrived;        /* takers at the start barrier (lock-contention) */
    unsigned long long first_ns; /* earliest taker start (%globaltimer) */
    unsigned long long last_ns;  /* latest taker end */
    unsigned long long taker_ns; /* summed over takers: own start to own end */
} lock_record;

/* Has this wait gone on too long? Starts the clock at its first call; true
 * past the deadline, or once any other thread gave up (then count this one). */
__device__ __forceinline__ bool spin_expired(lock_record *r, unsigned long long *deadline, unsigned long long timeout_ns)
{
    unsigned long long now = gl_globaltimer();
    if (*deadline == 0) *deadline = now + timeout_ns;
    if (now <= *deadline && *(volatile int *)&r->gave_up == 0) return false;
    atomicExch(&r->gave_up, 1);
    atomicAdd(&r->timeouts, 1u);
    return true;
}

/* Take the lock (the seed's while (atomicCAS(mutex, 0, 1) != 0);), then the
 * acquire fence. Returns false if this acquire waited timeout_ns, or if any
 * other thread gave up. */
__device__ __forceinline__ bool lock_acquire(lock_record *r, unsigned long long timeout_ns)
{
    unsigned int spins = 0;
    unsigned long long deadline = 0;
    while (atomicCAS(&r->mutex, 0, 1) != 0)
        if (++spins % SPIN_CHECK == 0 && spin_expired(r, &deadline, timeout_ns)) return false;
    __threadfence();
    return true;
}

/* The release fence, then free the lock (the seed's atomicExch(mutex, 0)). */
__device__ __forceinline__ void lock_release(lock_record *r)
{
    __threadfence();
    atomicExch(&r->mutex, 0);
}

/* Note one taker's interval. */
__device__ __forceinline__ void note_taker(lock_record *r, unsigned long long t0, unsigned long long t1)
{
    atomicMin(&r->first_ns, t0);
    atomicMax(&r->last_ns, t1);
    atomicAdd(&r->taker_ns, t1 - t0);
}

/* Put the record back to its start: lock free, nothing counted, first_ns where atomicMin starts. */
__global__ void reset_record(lock_record *r)
{
    lock_record z = {};
    z.first_ns = ~0ULL;
    *r = z;
}

/* ---- the lock, from the host ------------------------------------------------------------- */

/* --timeout-ms, the same in every lock experiment (default: the initial content of *p, 2000). */
#define LOCK_TIMEOUT_OPTION(p)                                                                                        \
    {"timeout-ms", GL_OPT_DOUBLE, (p), 1, 600000, NULL, NULL,                                                         \
     "how long one acquire may wait on the device before it gives up (a failed check, never a hang)", 0}

/* How long the host waits for one run of a lock kernel whose acquires give up after timeout_ms on the device: a run
 * that makes progress ends long before this; one that does not is ended by the device's own timeout first, so a
 * broken lock is a failed check or claim, never a hang (nor exit 3). */
static inline double lock_host_timeout_s(double timeout_ms) { return 60 + 4 * timeout_ms / 1e3; }

/* Queue a reset of the record on stream s. */
static inline void lock_reset(lock_record *d_rec, cudaStream_t s)
{
    reset_record<<<1, 1, 0, s>>>(d_rec);
    CUDA_CHECK_LAUNCH("reset_record");
}

/* Time per acquire-release over all takers (first start to last end, / acquisitions), in ns. */
static inline double lock_per_pair_ns(const lock_record *h)
{
    return h->held ? (double)(h->last_ns - h->first_ns) / h->held : NAN;
}

/* ---- a lock experiment without the lab: lock-contention and warp-lock ------------------------ */

/* What they hold for the whole run. Their times come from %globaltimer inside the kernels, so there is no gate
 * and no event timer. */
typedef struct lock_bench {
    gl_common common;              /* the common options */
    double timeout_ms;             /* --timeout-ms: how long one acquire may wait on the device */
    unsigned long long timeout_ns; /* the same, in ns, for the kernels */
    gl_report rep;                 /* the tables and the verdict */
    gl_device dev;                 /* the device */
    cudaStream_t stream;           /* every run's stream, named after the experiment */
    lock_record *d_rec;            /* the lock and its counters */
} lock_bench;

/* Parse the options (opts holds LOCK_TIMEOUT_OPTION(&b->timeout_ms)) and refuse what records spans (nothing here
 * does): usage errors, before the runtime starts. */
static inline void lock_bench_parse(lock_bench *b, const gl_experiment *exp, gl_option *opts, int n_opts, int argc,
                                    char **argv)
{
    b->timeout_ms = 2000;
    gl_common_defaults(&b->common);
    gl_options_parse_or_exit(exp, opts, n_opts, &b->common, argc, argv);
    if (b->common.trace_path || b->common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: %s records no spans (its timers are per run, not per block)",
               exp->name);
}

/* Open the report and the device, make the stream and the lock. */
static inline void lock_bench_open(lock_bench *b, const char *name)
{
    gl_report_init(&b->rep, name, &b->common);
    gl_device_open(&b->dev, &b->common, &b->rep);
    b->timeout_ns = (unsigned long long)(b->timeout_ms * 1e6);
    CUDA_CHECK(cudaMalloc((void **)&b->d_rec, sizeof(lock_record)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(b->stream, name);
}

/* Wait for the run queued on the bench's stream (what: its name, should it not end), and read the record. */
static inline lock_record lock_bench_wait(const lock_bench *b, const char *what)
{
    lock_record h;
    gl_stream_wait(b->stream, lock_host_timeout_s(b->timeout_ms), what);
    CUDA_CHECK(cudaMemcpy(&h, b->d_rec, sizeof h, cudaMemcpyDeviceToHost));
    return h;
}

/* Free the lock and the stream, close the device, finish the report; returns the exit code. */
static inline int lock_bench_close(lock_bench *b)
{
    CUDA_CHECK(cudaFree(b->d_rec));
    CUDA_CHECK(cudaStreamDestroy(b->stream));
    gl_device_close(&b->dev);
    return gl_report_finish(&b->rep);
}

#endif
