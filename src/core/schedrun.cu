/* schedrun.cu - a scheduling-model program, run on the GPU and simulated (gl_schedrun.h). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_device.h"
#include "gl_loads.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_spans.cuh"

/* The anchor of copy ends: one thread reads %globaltimer as the kernel ends; an event recorded after it
 * in its stream puts that reading on the event clock. */
__global__ void copy_anchor(unsigned long long *t) { *t = gl_globaltimer(); }

/* The copies' buffers and events, when the program has copies. */
static void copies_create(gl_sched_run *r)
{
    const gl_sched_program *p = r->prog;
    size_t pinned = 0, pageable = 0, dev[2] = {0, 0};
    r->copies = 0; /* every field set here: gl_sched_run_create's callers need not zero r */
    r->copy_pinned = r->copy_pageable = r->copy_dev[0] = r->copy_dev[1] = NULL;
    r->copy_anchor_error_ns = 0;
    r->anchor_stream = NULL, r->anchor_before = r->anchor_after = NULL, r->d_anchor = NULL;
    r->copy_done = (cudaEvent_t *)gl_xcalloc((size_t)p->n_ops + 1, sizeof(cudaEvent_t));
    r->hostfn = (gl_hostfn_hold *)gl_xcalloc((size_t)p->n_ops + 1, sizeof *r->hostfn);
    r->copy_end_ns = (double *)gl_xcalloc((size_t)p->n_ops + 1, sizeof(double));
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        r->copy_end_ns[i] = NAN;
        if (o->kind != GL_SCHED_COPY) continue;
        size_t b = o->user ? 0 : (size_t)o->bytes; /* the caller's copies use the caller's buffers */
        r->copies++;
        size_t *host = o->dir >= GL_SCHED_D2D ? NULL : o->pageable ? &pageable : &pinned;
        if (host && b > *host) *host = b;
        dev[0] = b > dev[0] ? b : dev[0];
        if (o->dir == GL_SCHED_D2D) dev[1] = b > dev[1] ? b : dev[1];
        CUDA_CHECK(cudaEventCreate(&r->copy_done[i])); /* timed: its time is the copy's end */
    }
    if (pinned) CUDA_CHECK(cudaMallocHost(&r->copy_pinned, pinned));
    if (pageable) {
        r->copy_pageable = gl_xmalloc(pageable);
        memset(r->copy_pageable, 1, pageable); /* its pages present, as a program's data would be */
    }
    for (int k = 0; k < 2; k++)
        if (dev[k]) CUDA_CHECK(cudaMalloc(&r->copy_dev[k], dev[k]));
    if (r->copies == 0) return;
    CUDA_CHECK(cudaStreamCreateWithFlags(&r->anchor_stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&r->anchor_before));
    CUDA_CHECK(cudaEventCreate(&r->anchor_after));
    CUDA_CHECK(cudaMalloc((void **)&r->d_anchor, sizeof *r->d_anchor));
}

/* Queue op i's copy into s, then the event that marks its end. */
static void issue_copy(gl_sched_run *r, int i, cudaStream_t s)
{
    const gl_sched_op *o = &r->prog->ops[i];
    void *host = o->pageable ? r->copy_pageable : r->copy_pinned;
    size_t b = (size_t)o->bytes;
    if (o->dir == GL_SCHED_H2D) CUDA_CHECK(cudaMemcpyAsync(r->copy_dev[0], host, b, cudaMemcpyHostToDevice, s));
    else if (o->dir == GL_SCHED_D2H) CUDA_CHECK(cudaMemcpyAsync(host, r->copy_dev[0], b, cudaMemcpyDeviceToHost, s));
    else if (o->dir == GL_SCHED_D2D) CUDA_CHECK(cudaMemcpyAsync(r->copy_dev[1], r->copy_dev[0], b, cudaMemcpyDeviceToDevice, s));
    else CUDA_CHECK(cudaMemsetAsync(r->copy_dev[0], 0, b, s));
    if (!r->no_copy_ends) CUDA_CHECK(cudaEventRecord(r->copy_done[i], s));
}

/* The caller's own kernel or copy (its user field set): the caller issues it. */
static void user_op(gl_sched_run *r, int i, cudaStream_t s)
{
    if (!r->user_op) gl_die(GL_EXIT_INTERNAL, "op %d is the caller's (%d), and the run has no user_op hook", i, r->prog->ops[i].user);
    r->user_op(r, i, s, r->user_ctx);
}


void gl_sched_run_time_pageable(gl_sched_run *r)
{
    cudaEvent_t e[2];
    for (int k = 0; k < 2; k++) CUDA_CHECK(cudaEventCreate(&e[k]));
    for (int i = 0; i < r->prog->n_ops; i++) {
        gl_sched_op *o = &r->prog->ops[i];
        if (o->kind != GL_SCHED_COPY) continue;
        /* a pageable H2D that returns once staged: its call's time, the stream idle (room to stage) */
        int staged = isfinite(gl_sched_staged_call_ns(&r->machine, o));
        if (!staged && !gl_sched_copy_blocks_host(&r->machine, o)) continue;
        CUDA_CHECK(cudaEventRecord(e[0], r->anchor_stream));
        double t0 = gl_host_ns();
        if (o->user) user_op(r, i, r->anchor_stream);
        else issue_copy(r, i, r->anchor_stream);
        double call = gl_host_ns() - t0;
        CUDA_CHECK(cudaEventRecord(e[1], r->anchor_stream));
        CUDA_CHECK(cudaEventSynchronize(e[1]));
        if (staged) {
            o->stage_ns = call;
            continue;
        }
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e[0], e[1]));
        o->copy_ns = ms * 1e6;
    }
    for (int k = 0; k < 2; k++) CUDA_CHECK(cudaEventDestroy(e[k]));
}

/* After a run: each copy's end on the %globaltimer axis, from its event's time against an anchor's: a
 * kernel's %globaltimer reading, then an event in the same stream. The event completes a little after
 * the reading, so the ends come out early by that much, at most the anchor kernel's span between an
 * event before it and the one after (copy_anchor_error_ns). */
static void copies_end(gl_sched_run *r)
{
    if (r->copies == 0) return;
    unsigned long long t = 0;
    CUDA_CHECK(cudaEventRecord(r->anchor_before, r->anchor_stream));
    copy_anchor<<<1, 1, 0, r->anchor_stream>>>(r->d_anchor);
    CUDA_CHECK_LAUNCH("copy_anchor");
    CUDA_CHECK(cudaEventRecord(r->anchor_after, r->anchor_stream));
    CUDA_CHECK(cudaEventSynchronize(r->anchor_after));
    CUDA_CHECK(cudaMemcpy(&t, r->d_anchor, sizeof t, cudaMemcpyDeviceToHost));
    float span_ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&span_ms, r->anchor_before, r->anchor_after));
    r->copy_anchor_error_ns = span_ms * 1e6; /* the anchor's reading lies somewhere within it */
    /* On the kernels' axis (the timeline's origin; the anchor's reading when no kernel ran), as a difference
     * of integers first: a %globaltimer value as a double is only good to 256 ns. */
    double at = r->tl.n > 0 ? (double)(long long)(t - r->tl.origin_ns) : 0;
    for (int i = 0; i < r->prog->n_ops; i++) {
        if (!r->copy_done[i]) continue;
        if (r->no_copy_ends) { /* not recorded in this run */
            r->copy_end_ns[i] = NAN;
            continue;
        }
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, r->copy_done[i], r->anchor_after));
        r->copy_end_ns[i] = at - ms * 1e6;
    }
}

static void copies_destroy(gl_sched_run *r)
{
    for (int i = 0; i < r->prog->n_ops; i++)
        if (r->copy_done[i]) CUDA_CHECK(cudaEventDestroy(r->copy_done[i]));
    if (r->copy_pinned) CUDA_CHECK(cudaFreeHost(r->copy_pinned));
    free(r->copy_pageable);
    for (int k = 0; k < 2; k++)
        if (r->copy_dev[k]) CUDA_CHECK(cudaFree(r->copy_dev[k]));
    if (r->anchor_stream) {
        CUDA_CHECK(cudaStreamDestroy(r->anchor_stream));
        CUDA_CHECK(cudaEventDestroy(r->anchor_before));
        CUDA_CHECK(cudaEventDestroy(r->anchor_after));
        CUDA_CHECK(cudaFree(r->d_anchor));
    }
    free(r->copy_done);
    free(r->copy_end_ns);
    free(r->hostfn);
}

void gl_sched_run_create(gl_sched_run *r, gl_sched_program *prog, const gl_sched_machine *m, int per_block)
{
    r->prog = prog;
    r->prior_first = r->prior = r->issued = NULL;
    r->nvtx_range = NULL, r->nvtx_open = 0; /* set nvtx_range after this, where a run is a program of its own */
    r->machine = *m;
    r->per_block = per_block;
    double kernels_s = 0;
    long long records = 0;
    r->launches = 0;
    for (int i = 0; i < prog->n_ops; i++) {
        const gl_sched_op *o = &prog->ops[i];
        if (o->kind == GL_SCHED_COPY && (o->dir < 0 || o->dir >= GL_SCHED_DIRS || !(o->bytes >= 0)))
            gl_die(GL_EXIT_INTERNAL, "schedrun: op %d is a copy of %g bytes in direction %d", i, o->bytes, o->dir);
        if ((o->kind == GL_SCHED_RECORD || o->kind == GL_SCHED_WAIT || (o->kind == GL_SCHED_SYNC && o->event >= 0)) &&
            (o->event < 0 || o->event >= prog->n_events))
            gl_die(GL_EXIT_INTERNAL, "schedrun: op %d refers to event %d of %d", i, o->event, prog->n_events);
        if (o->kind != GL_SCHED_LAUNCH) continue;
        r->launches++;
        records += 1 + (per_block ? o->blocks : 0);
        kernels_s += o->block_ns * 1e-9 * ((double)o->blocks / (o->blocks_per_sm * (double)m->sms) + 1);
    }
    if (records > 0x7FFFFFFFLL) gl_die(GL_EXIT_USAGE, "%lld span records are too many: use fewer kernels or blocks", records);
    if (r->timeout_s <= 0) r->timeout_s = 60 + 2 * kernels_s;

    r->stream = (cudaStream_t *)gl_xcalloc((size_t)prog->n_streams, sizeof(cudaStream_t));
    for (int s = 0; s < prog->n_streams; s++) {
        switch (prog->streams[s].kind) {
        case GL_SCHED_STREAM_LEGACY: r->stream[s] = cudaStreamLegacy; break;
        case GL_SCHED_STREAM_PER_THREAD: r->stream[s] = cudaStreamPerThread; break;
        case GL_SCHED_STREAM_BLOCKING:
            CUDA_CHECK(cudaStreamCreateWithPriority(&r->stream[s], cudaStreamDefault, prog->streams[s].priority));
            break;
        default:
            CUDA_CHECK(cudaStreamCreateWithPriority(&r->stream[s], cudaStreamNonBlocking, prog->streams[s].priority));
            break;
        }
    }
    r->event = (cudaEvent_t *)gl_xcalloc((size_t)prog->n_events + 1, sizeof(cudaEvent_t));
    unsigned flags = r->timed_events ? cudaEventDefault : cudaEventDisableTiming;
    for (int e = 0; e < prog->n_events; e++) CUDA_CHECK(cudaEventCreateWithFlags(&r->event[e], flags));
    for (int i = 0; i < prog->n_ops; i++) /* a timed event's record behind a kernel holds its queue (gl_sched.h "Events") */
        if (prog->ops[i].kind == GL_SCHED_RECORD) prog->ops[i].timed = r->timed_events;
    gl_spans_create(&r->spans, (unsigned int)(records > 0 ? records : 1), 0, per_block);
    r->slot = (unsigned int *)gl_xcalloc((size_t)prog->n_ops + 1, sizeof *r->slot);
    r->call_ns = (double *)gl_xcalloc((size_t)prog->n_ops + 1, sizeof(double));
    r->return_ns = (double *)gl_xcalloc((size_t)prog->n_ops + 1, sizeof(double));
    CUDA_CHECK(cudaMalloc((void **)&r->d_sink, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(r->d_sink, 0, sizeof(unsigned long long)));
    memset(&r->tl, 0, sizeof r->tl);
    memset(&r->model_tl, 0, sizeof r->model_tl);
    r->runs = r->runs_complete = 0;
    r->shortest_ratio = INFINITY;
    copies_create(r);
}

/* The other threads' ops each op must see returned first (gl_schedrun.h, gl_sched_run_begin). */
static void cross_thread_order(gl_sched_run *r)
{
    const gl_sched_program *p = r->prog;
    int T = p->n_threads, n = 0, cap = 0;
    int *last_any = (int *)gl_xmalloc(sizeof(int) * 3 * (size_t)T), *last_blocking = last_any + T, *last_legacy = last_any + 2 * T;
    int *last_record = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_events + 1));
    int *last_on = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    int *last_sync = (int *)gl_xmalloc(sizeof(int) * (size_t)T); /* each thread's latest synchronizing call */
    int *waiters = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_events * T + 1)); /* per event and thread: its
                      latest wait or synchronization on the event since the event's last record */
    for (int t = 0; t < 3 * T; t++) last_any[t] = -1;
    for (int t = 0; t < T; t++) last_sync[t] = -1;
    for (int e = 0; e < p->n_events; e++) last_record[e] = -1;
    for (int k = 0; k < p->n_events * T; k++) waiters[k] = -1;
    for (int s = 0; s < p->n_streams; s++) last_on[s] = -1;
    r->prior_first = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_ops + 1));
#define PRIOR(j)                                                                                        \
    do {                                                                                                \
        int j_ = (j);                                                                                   \
        if (j_ >= 0 && p->ops[j_].thread != o->thread) {                                                \
            gl_grow((void **)&r->prior, &cap, n + 1, sizeof *r->prior);                                  \
            r->prior[n++] = j_;                                                                         \
        }                                                                                               \
    } while (0)
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        r->prior_first[i] = n;
        for (int t = 0; t < T; t++) PRIOR(last_sync[t]); /* what another thread issues after its sync comes after it */
        if ((o->kind == GL_SCHED_WAIT || o->kind == GL_SCHED_SYNC) && o->event >= 0) {
            PRIOR(last_record[o->event]);
            waiters[o->event * T + o->thread] = i;
        }
        if (o->kind == GL_SCHED_RECORD) /* a record again after the waits on its last one: they keep that one */
            for (int t = 0; t < T; t++) {
                PRIOR(waiters[o->event * T + t]);
                waiters[o->event * T + t] = -1;
            }
        if (o->stream >= 0 && o->kind != GL_SCHED_SYNC) PRIOR(last_on[o->stream]); /* a stream's order, any thread */
        if (o->kind == GL_SCHED_SYNC) last_sync[o->thread] = i;
        if (o->kind == GL_SCHED_SYNC && o->event < 0) {
            if (o->stream >= 0) PRIOR(last_on[o->stream]);
            else for (int t = 0; t < T; t++) PRIOR(last_any[t]);
        } else if (o->stream >= 0 && o->kind != GL_SCHED_SYNC) {
            const gl_sched_stream *ss = &p->streams[o->stream];
            if (ss->kind == GL_SCHED_STREAM_LEGACY)
                for (int t = 0; t < T; t++) PRIOR(last_blocking[t]);
            else if (gl_sched_stream_blocking(ss))
                for (int t = 0; t < T; t++) PRIOR(last_legacy[t]);
            last_any[o->thread] = last_on[o->stream] = i;
            if (ss->kind == GL_SCHED_STREAM_LEGACY) last_legacy[o->thread] = i;
            else if (gl_sched_stream_blocking(ss)) last_blocking[o->thread] = i;
            if (o->kind == GL_SCHED_RECORD) last_record[o->event] = i;
        }
    }
#undef PRIOR
    r->prior_first[p->n_ops] = n;
    free(last_any);
    free(last_record);
    free(last_on);
    free(last_sync);
    free(waiters);
}

void gl_sched_run_begin(gl_sched_run *r)
{
    gl_sched_program *p = r->prog;
    gl_spans_reset(&r->spans);
    for (int i = 0; i < p->n_ops; i++) {
        r->slot[i] = p->ops[i].kind == GL_SCHED_LAUNCH ? gl_spans_reserve(&r->spans, p->ops[i].blocks) : GL_NO_SPAN;
        if (p->ops[i].kind == GL_SCHED_LAUNCH) p->ops[i].id = (int)r->slot[i];
        r->call_ns[i] = r->return_ns[i] = NAN;
    }
    if (!r->issued) { /* the program's order across threads, worked out at its first run */
        r->issued = (int *)gl_xcalloc((size_t)p->n_ops + 1, sizeof *r->issued);
        if (p->n_threads > 1) cross_thread_order(r);
    }
    memset(r->issued, 0, sizeof *r->issued * ((size_t)p->n_ops + 1));
    /* Before t0: the push is no op's host time (under nsys it takes microseconds). */
    if (r->nvtx_range && !r->nvtx_open) gl_nvtx_push("%s", r->nvtx_range), r->nvtx_open = 1;
    r->t0_ns = gl_host_ns();
}

void gl_sched_run_thread(gl_sched_run *r, int thread)
{
    gl_sched_program *p = r->prog;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if (o->thread != thread) continue;
        cudaStream_t s = o->stream >= 0 ? r->stream[o->stream] : NULL;
        if (r->prior_first) /* the other threads' calls this one depends on (the model's after: measured_issue_times) */
            for (int k = r->prior_first[i]; k < r->prior_first[i + 1]; k++)
                while (!__atomic_load_n(&r->issued[r->prior[k]], __ATOMIC_ACQUIRE)) {
                }
        r->call_ns[i] = gl_host_ns();
        switch (o->kind) {
        case GL_SCHED_LAUNCH:
            if (o->user) {
                user_op(r, i, s);
            } else {
                gl_work_launch(s, o->blocks, o->threads, o->block_ns / 1e3, r->spans.dev, r->slot[i], o->label, o->track,
                               r->d_sink);
            }
            break;
        case GL_SCHED_RECORD: CUDA_CHECK(cudaEventRecord(r->event[o->event], s)); break;
        case GL_SCHED_WAIT: CUDA_CHECK(cudaStreamWaitEvent(s, r->event[o->event], 0)); break;
        case GL_SCHED_COPY:
            if (o->user) {
                user_op(r, i, s);
                if (!r->no_copy_ends) CUDA_CHECK(cudaEventRecord(r->copy_done[i], s));
            } else {
                issue_copy(r, i, s);
            }
            break;
        case GL_SCHED_HOSTFN:
            r->hostfn[i].ns = o->block_ns;
            CUDA_CHECK(cudaLaunchHostFunc(s, gl_hostfn_hold_fn, &r->hostfn[i]));
            break;
        case GL_SCHED_LOAD:
            if (gl_load_fresh(s) != 0)
                gl_die(GL_EXIT_USAGE, "this program has more first launches (lazy loads) than the core's %s",
                       "pool of never-launched kernels has left: run fewer repetitions or fewer loads");
            break;
        case GL_SCHED_SYNC:
            if (o->event >= 0) CUDA_CHECK(cudaEventSynchronize(r->event[o->event]));
            else if (o->stream >= 0) CUDA_CHECK(cudaStreamSynchronize(s));
            else CUDA_CHECK(cudaDeviceSynchronize());
            break;
        case GL_SCHED_HOST:
            if (r->host_call) r->host_call(r, i, r->host_ctx);
            else gl_host_spin(o->issue_ns); /* a HOST op without a host_call */
            break;
        default: break; /* CREATE: the stream was made before the run */
        }
        r->return_ns[i] = gl_host_ns();
        if (r->prior_first) __atomic_store_n(&r->issued[i], 1, __ATOMIC_RELEASE); /* other threads may wait on it */
    }
}

/* The measured host time of each op: its return minus its thread's previous
 * return (or the run's start), which counts the loop around the call too, as
 * the simulation's host thread has nothing else. A SYNC's own cost is the
 * machine's: the rest of its time is the wait, which the simulation makes.
 * A pageable H2D that returns once staged keeps at most the machine's issue
 * time plus what gl_sched_staged_call_ns allows (its copy at the host's
 * pageable pace, the longest staged call timed, or its own call timed alone
 * before the run, whichever is longer): beyond that the call waited for the
 * GPU. A call that first spun for another thread's calls starts its own time
 * as the last of them returned, which becomes its after. */
static void measured_issue_times(gl_sched_run *r)
{
    gl_sched_program *p = r->prog;
    double *prev = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_threads + 1));
    for (int t = 0; t <= p->n_threads; t++) prev[t] = r->t0_ns;
    for (int i = 0; i < p->n_ops; i++) {
        gl_sched_op *o = &p->ops[i];
        /* The thread spun until the other threads' calls this one depends on had returned: not host work of its
         * own, but a wait the simulation makes, for the one that returned last (gl_sched.h "Host", after). */
        double from = prev[o->thread];
        o->after = -1;
        for (int k = r->prior_first ? r->prior_first[i] : 0; r->prior_first && k < r->prior_first[i + 1]; k++)
            if (o->after < 0 || r->return_ns[r->prior[k]] > r->return_ns[o->after]) o->after = r->prior[k];
        if (o->after >= 0) from = fmax(from, fmin(r->return_ns[o->after], r->call_ns[i]));
        if (o->kind == GL_SCHED_SYNC || gl_sched_copy_blocks_host(&r->machine, o)) {
            o->issue_ns = r->machine.issue_ns + (r->call_ns[i] - from);
        } else {
            /* a staged pageable H2D's own part of its call, no more: the rest was a wait (gl_sched.h) */
            double held = r->return_ns[i] - r->call_ns[i];
            double own = isnan(held) ? held : fmin(held, r->machine.issue_ns + gl_sched_staged_call_ns(&r->machine, o));
            o->issue_ns = (r->call_ns[i] - from) + own;
        }
        prev[o->thread] = r->return_ns[i];
    }
    free(prev);
}

/* GRIDLAB_SCHED_DUMP's file, opened to append (NULL: unset). */
static FILE *dump_open(void)
{
    const char *path = getenv("GRIDLAB_SCHED_DUMP");
    if (!path || !*path) return NULL;
    FILE *f = fopen(path, "a");
    if (!f) gl_die(GL_EXIT_IO, "GRIDLAB_SCHED_DUMP: cannot open %s", path);
    return f;
}

/* GRIDLAB_SCHED_DUMP=FILE appends each run's ops, simulated and measured, one line each (us; the model's from
 * its first kernel's start, the run's from its first kernel's): a debugging aid for finding where a run parts
 * from its model, which the Perfetto trace (kernels only) cannot show for copies and host functions. which: ""
 * for the run's own simulation, or what a later one took from the run. */
static void dump_run(const gl_sched_run *r, const char *which)
{
    FILE *f = dump_open();
    if (!f) return;
    const gl_sched_program *p = r->prog;
    double m0 = INFINITY;
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH && p->ops[i].start_ns >= 0) m0 = fmin(m0, p->ops[i].start_ns);
    if (!isfinite(m0)) m0 = 0;
    fprintf(f, "# run %d%s: op kind thread stream queue dir bytes pageable own_us | model call submit go start end |"
               " measured start end (kernels), end (copies)\n", r->runs, which);
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        const gl_interval *k = o->kind == GL_SCHED_LAUNCH ? gl_sched_run_kernel(r, i) : NULL;
        double ms = k ? k->start_ns / 1e3 : NAN, me = k ? k->end_ns / 1e3 : NAN;
        if (o->kind == GL_SCHED_COPY && r->copy_end_ns) me = r->copy_end_ns[i] / 1e3;
        fprintf(f, "%d %d %d %d %d %d %.0f %d %.1f | %.1f %.1f %.1f %.1f %.1f | %.1f %.1f\n", i, o->kind, o->thread,
                o->stream, o->queue, o->dir, o->bytes, o->pageable,
                (o->kind == GL_SCHED_COPY ? o->copy_ns : o->block_ns) / 1e3, (o->call_ns - m0) / 1e3,
                (o->submit_ns - m0) / 1e3, (o->go_ns - m0) / 1e3, (o->start_ns - m0) / 1e3, (o->end_ns - m0) / 1e3,
                ms, me);
    }
    fclose(f);
}

void gl_sched_run_end(gl_sched_run *r)
{
    gl_sched_program *p = r->prog;
    unsigned long long sink_after = 0;
    /* Wait for everything: the legacy stream joins every blocking stream, so
     * wait on each stream, then the device. */
    for (int s = 0; s < p->n_streams; s++)
        if (p->streams[s].kind != GL_SCHED_STREAM_PER_THREAD) gl_stream_wait(r->stream[s], r->timeout_s, "a program's stream");
    CUDA_CHECK(cudaDeviceSynchronize());
    if (r->nvtx_open) gl_nvtx_pop(), r->nvtx_open = 0; /* the program is done: what follows is the harness's */
    CUDA_CHECK(cudaMemcpy(&sink_after, r->d_sink, sizeof sink_after, cudaMemcpyDeviceToHost));
    r->n_spans = gl_spans_timeline(&r->spans, &r->tl);
    copies_end(r);

    long long blocks = 0;
    int full = 1; /* every kernel ran at least its time, less two ticks of the timer */
    double shortest = INFINITY;
    for (int i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind != GL_SCHED_LAUNCH) continue;
        const gl_interval *k = gl_sched_run_kernel(r, i);
        if (!k) {
            full = 0;
            continue;
        }
        if (p->ops[i].user) continue; /* the caller's kernel: its time is its own, its result the caller's to check */
        blocks += p->ops[i].blocks;
        double d = k->end_ns - k->start_ns;
        if (d < p->ops[i].block_ns - 64) full = 0;
        if (p->ops[i].block_ns > 0) shortest = fmin(shortest, d / p->ops[i].block_ns);
    }
    r->shortest_ratio = fmin(r->shortest_ratio, shortest);
    r->runs++;
    /* The sink only grows: each block adds at least one. */
    r->runs_complete += r->tl.n == r->launches && full && sink_after - r->sink_seen >= (unsigned long long)blocks;
    r->sink_seen = sink_after;

    measured_issue_times(r);
    /* this run's own simulation starts from the calibrated wake, as the machine's: the last run's own wakes
     * (gl_sched_run_own_pace) were that run's */
    for (int i = 0; i < p->n_ops; i++) p->ops[i].wake_ns = 0;
    gl_sched_run_resimulate(r);
    dump_run(r, "");
}

void gl_sched_run_resimulate(gl_sched_run *r)
{
    char err[160];
    if (gl_sched_simulate(r->prog, &r->machine, &r->sim, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "the scheduling model refused this run: %s", err);
    gl_sched_timeline(r->prog, &r->model_tl);
    r->errors = gl_sched_compare(&r->tl, &r->model_tl);
}

/* When op i's work was done in the last run, on the host clock (NAN: no work of its own measured): a kernel's last
 * block, a copy's end event, a host function's return. */
static double done_host_ns(const gl_sched_run *r, int i, double to_host)
{
    const gl_sched_op *o = &r->prog->ops[i];
    if (o->kind == GL_SCHED_LAUNCH) {
        const gl_interval *k = gl_sched_run_kernel(r, i);
        return k ? k->end_ns + to_host : NAN;
    }
    if (o->kind == GL_SCHED_COPY) return r->copy_end_ns[i] + to_host;
    if (o->kind == GL_SCHED_HOSTFN) return r->hostfn[i].end_ns;
    return NAN;
}

/* When op i could start in the last run, on the host clock: its call reached the GPU (the model's issue time and
 * launch latency after the call began), or what it waits for (ready[i]) ended, whichever came later. */
static double could_start(const gl_sched_run *r, const double *ready, int i)
{
    return fmax(r->call_ns[i] + r->machine.issue_ns + r->machine.launch_latency_ns, ready[i]);
}

/* When each op could start in the last run, on the host clock, as measured (-INFINITY: nothing to wait for):
 * what it waits for, scanned in program order, as the run's issue order keeps it: its stream's work so far, an
 * event's recorded work, the legacy stream's barriers (gl_sched.h, "Streams"); its own call's arrival is the
 * caller's to add. prev[i]: the last op before it in its stream that is work of its own (a kernel, a copy, a
 * host function; -1: none). */
static void measured_ready(const gl_sched_run *r, double to_host, double *ready, int *prev)
{
    const gl_sched_program *p = r->prog;
    double *front = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_streams + 1));
    double *recorded = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_events + 1));
    int *last = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    for (int s = 0; s < p->n_streams; s++) front[s] = -INFINITY, last[s] = -1;
    for (int e = 0; e < p->n_events; e++) recorded[e] = -INFINITY;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        ready[i] = -INFINITY, prev[i] = -1;
        if (o->stream < 0 || o->kind == GL_SCHED_SYNC || o->kind == GL_SCHED_HOST || o->kind == GL_SCHED_CREATE) continue;
        const gl_sched_stream *ss = &p->streams[o->stream];
        double at = front[o->stream];
        if (ss->kind == GL_SCHED_STREAM_LEGACY) {
            for (int k = 0; k < p->n_streams; k++)
                if (gl_sched_stream_blocking(&p->streams[k])) at = fmax(at, front[k]);
        } else if (gl_sched_stream_blocking(ss)) {
            at = fmax(at, front[GL_SCHED_LEGACY]);
        }
        if (o->kind == GL_SCHED_WAIT && o->event >= 0) at = fmax(at, recorded[o->event]);
        if (o->kind == GL_SCHED_RECORD && o->event >= 0) recorded[o->event] = at;
        ready[i] = at, prev[i] = last[o->stream];
        double done = done_host_ns(r, i, to_host);
        front[o->stream] = fmax(at, isnan(done) ? -INFINITY : done);
        if (o->kind == GL_SCHED_LAUNCH || o->kind == GL_SCHED_COPY || o->kind == GL_SCHED_HOSTFN) last[o->stream] = i;
    }
    free(front), free(recorded), free(last);
}

/* The host clock less the kernels' axis for the last run, aligned now (NAN: not aligned), and how far off it may
 * be (*uncertainty_ns). */
static double host_axis(const gl_sched_run *r, double *uncertainty_ns)
{
    /* The clocks aligned now, not at the start: a drift of a few parts per million would be tens of us by then. */
    gl_clock_align clock = gl_clock_align_measure(32);
    *uncertainty_ns = clock.uncertainty_ns + 512; /* and two doubles of epoch size, each good to 256 ns */
    return clock.valid ? (double)r->tl.origin_ns - clock.offset_ns : NAN;
}

/* The own times in the last run of the copies its host waited for (own[op] > 0; NAN where a copy keeps the time
 * it had: see gl_sched_run_own_pace), with GRIDLAB_SCHED_DUMP's lines (and one per host function:
 * when it ran); returns how many. */
static int own_copy_times(const gl_sched_run *r, double to_host, double unc, const double *ready, double *own)
{
    const gl_sched_program *p = r->prog;
    FILE *dump = dump_open(); /* each copy's times, beside dump_run's (us, kernels' axis) */
    int n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        own[i] = NAN;
        if (dump && o->kind == GL_SCHED_HOSTFN) /* when each function ran, for the driver thread's order and wake */
            fprintf(dump, "fn %d stream %d | call %.1f ready %.1f start %.1f end %.1f | own %.1f\n", i, o->stream,
                    (r->call_ns[i] - to_host) / 1e3, (ready[i] - to_host) / 1e3, (r->hostfn[i].start_ns - to_host) / 1e3,
                    (r->hostfn[i].end_ns - to_host) / 1e3, o->block_ns / 1e3);
        if (dump && (o->kind == GL_SCHED_LAUNCH || o->kind == GL_SCHED_COPY)) /* each call's times, as measured */
            fprintf(dump, "at %d stream %d | call %.1f return %.1f ready %.1f\n", i, o->stream,
                    (r->call_ns[i] - to_host) / 1e3, (r->return_ns[i] - to_host) / 1e3, (ready[i] - to_host) / 1e3);
        if (r->no_copy_ends || !gl_sched_copy_blocks_host(&r->machine, o)) continue; /* no ends: none known alone */
        /* from when it could start (its call reached the GPU, or what it waits for ended) to its call's return */
        double start = could_start(r, ready, i);
        double t = r->return_ns[i] - start;
        /* Only a copy alone in its direction while it ran, or beside copies of its direction (engine copies, and
         * small H2D that go inline or beside the engine) whose times alone come to at most GL_SCHED_OWN_BESIDE
         * of its time: one that waited for another's turn on the engine, or paused while another ran, took a
         * time that tells its pace only through the model's own guess at that other copy (validate-model's
         * copies: a 368 KiB D2H waiting 2.9 ms behind a 126 MB one); a small one beside it can put at most that
         * much of the model's error into it (seed 20261178 at C=16: a 173 MB D2H took 12.3-15.8 ms in its runs,
         * beside three D2H of 4-144 KiB, and 12.8-16.1 timed before). Another copy still waiting for its stream
         * is not in the way (seed 20261139 at C=2: two D2H behind a host function, issued long before, ended
         * after an 8 KiB one ran alone). */
        double beside = 0;
        for (int j = 0; j < p->n_ops && t > 0; j++) {
            const gl_sched_op *q = &p->ops[j];
            if (j == i || q->kind != GL_SCHED_COPY || q->dir != o->dir) continue;
            if (could_start(r, ready, j) >= r->return_ns[i] || r->copy_end_ns[j] + to_host <= start) continue;
            if (gl_sched_copy_blocks_host(&r->machine, q)) t = 0; /* another the host waited for: NAN, unknown */
            else beside += gl_sched_op_copy_ns(&r->machine, q);
        }
        if (beside > GL_SCHED_OWN_BESIDE * t) t = 0;
        /* Within three times the clocks' error its time is too rough to take (a third off or more), and its time
         * before stands. Not more: small pageable D2H copies timed before ran twice as long as in the run (8 KiB:
         * 20-44 us before, 10-19 in the run, with the error about 1.5 us), and one such copy put two host
         * functions behind it in the wrong order (event-programs' copies seed 20261139 at C=2). */
        if (t < 3 * unc + r->copy_anchor_error_ns) t = 0; /* the ends may be early by the latter, all of them */
        if (t > 0) own[i] = t, n++;
        if (dump)
            fprintf(dump, "own %d dir %d bytes %.0f | call %.1f ready %.1f return %.1f end %.1f | own %.1f before %.1f\n",
                    i, o->dir, o->bytes, (r->call_ns[i] - to_host) / 1e3, (ready[i] - to_host) / 1e3,
                    (r->return_ns[i] - to_host) / 1e3, r->copy_end_ns[i] / 1e3, t / 1e3, o->copy_ns / 1e3);
    }
    if (dump) fclose(dump);
    return n;
}

/* The driver's thread's wake in the last run (ns; NAN: no host function woke it as such): the median over the
 * functions that waited for a kernel of their stream, issued before it ended, or were issued with their stream's
 * work done, with no other function running or waiting then, of their start less when they were ready (that
 * kernel's end, or their call's return plus the launch latency), plus hostfn_ns (the model starts a woken function
 * wake - hostfn_ns after it is ready; gl_sched.h, "Host functions"). own[i]: each such function's own (0: not one). */
static double own_wake(const gl_sched_run *r, const double *ready, const int *prev, double *own)
{
    const gl_sched_program *p = r->prog;
    const gl_hostfn_hold *h = r->hostfn;
    double *wake = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_ops + 1));
    int n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        own[i] = 0;
        if (o->kind != GL_SCHED_HOSTFN || !(h[i].start_ns > 0)) continue;
        /* behind a kernel (the callbacks' case: what it waits for is measured to the block, and no copy's engine
         * channel is in it), or with nothing to wait for but its call's arrival (event-programs' copies seed
         * 20261139 at C=2: its first function, so issued, began 143-170 us after its call, the calibration's wake
         * 54-57 us; the model then ran two later functions in the other order, 13-17% off). One median over
         * both kinds: a run may have one function of either, and the model has one wake. */
        int behind = prev[i] >= 0 && p->ops[prev[i]].kind == GL_SCHED_LAUNCH && ready[i] > r->return_ns[i];
        /* idle only where what its stream did before is known to have ended (measured_ready reads an unknown end
         * as nothing to wait for) */
        int idle = !(ready[i] > r->return_ns[i]) && !r->no_copy_ends &&
                   (prev[i] < 0 || !isnan(done_host_ns(r, prev[i], 0)));
        /* from where the model has it ready: the kernel's end, or its call's return plus the launch latency */
        double at = behind ? could_start(r, ready, i) : fmax(r->return_ns[i] + r->machine.launch_latency_ns, ready[i]);
        if (!(behind || idle) || !(h[i].start_ns >= at)) continue;
        int asleep = 1;
        for (int j = 0; j < p->n_ops && asleep; j++)
            if (j != i && p->ops[j].kind == GL_SCHED_HOSTFN && h[j].start_ns > 0 && h[j].start_ns < h[i].start_ns &&
                h[j].end_ns > at - r->machine.hostfn_ns)
                asleep = 0;
        if (asleep) own[i] = wake[n++] = h[i].start_ns - at + r->machine.hostfn_ns;
    }
    double median = n > 0 ? gl_stats_of(wake, n).median : NAN;
    free(wake);
    return median;
}

int gl_sched_run_own_pace(gl_sched_run *r, double *wake_ns)
{
    gl_sched_program *p = r->prog;
    double calibrated = r->machine.hostfn_wake_ns;
    *wake_ns = calibrated;
    int any = 0;
    for (int i = 0; i < p->n_ops; i++)
        any |= p->ops[i].kind == GL_SCHED_HOSTFN || gl_sched_copy_blocks_host(&r->machine, &p->ops[i]);
    if (!any || r->tl.n == 0) return 0; /* nothing the host paces, or no axis to put the host's calls on */
    double unc = 0, to_host = host_axis(r, &unc); /* the kernels' axis, plus to_host: the host clock */
    if (isnan(to_host)) return 0;
    double *ready = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_ops + 1));
    double *own = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_ops + 1));
    int *prev = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_ops + 1));
    measured_ready(r, to_host, ready, prev);
    double wake = own_wake(r, ready, prev, own);
    /* Each function that woke the thread wakes it in the model as it did in the run (event-programs' copies seed
     * 20261171 at C=16: 34 and 99 us in one run, 32-186 over one process's twelve; with the median for each of its
     * three functions in a row the model was 4-20% short in every population run that lists it); the others take
     * the median. */
    for (int i = 0; i < p->n_ops; i++)
        if (own[i] > 0) p->ops[i].wake_ns = fmax(r->machine.hostfn_ns, own[i]);
    int n = own_copy_times(r, to_host, unc, ready, own);
    if (!isnan(wake)) r->machine.hostfn_wake_ns = fmax(r->machine.hostfn_ns, wake);
    char err[160];
    if (n > 0 && gl_sched_fit_host_copies(p, &r->machine, own, err, sizeof err) < 0)
        gl_die(GL_EXIT_INTERNAL, "the scheduling model refused this run: %s", err);
    if (n > 0 || !isnan(wake)) {
        gl_sched_run_resimulate(r);
        dump_run(r, ", at its own pace");
    }
    *wake_ns = r->machine.hostfn_wake_ns;
    r->machine.hostfn_wake_ns = calibrated; /* the next run's own simulation starts from the calibrated wake */
    free(ready), free(own), free(prev);
    return n;
}

typedef struct run_thread_arg {
    gl_sched_run *r;
    int thread, device;
    pthread_barrier_t *warm; /* each new thread has made its first call */
    int *go;                 /* the run has begun (its clock and its NVTX range) */
} run_thread_arg;

static void *run_thread_main(void *arg)
{
    run_thread_arg *a = (run_thread_arg *)arg;
    CUDA_CHECK(cudaSetDevice(a->device)); /* a new thread starts on device 0 */
    /* A new thread's first call is slow under nsys, whatever the call (probe-hostfn-block: 340-840 us, 9-37 alone),
     * and the threads' first calls return one after another: the tracer taking each thread on. Made here, before
     * the run's clock and range, it is not timed as the program's (validate-replay's random programs under nsys:
     * the threads' first calls returned 1.2 ms into the run at the median, 2.4 ms at p90, in another order each
     * run; made here, 84 us and 107 us, H200, session 19). A query enqueues nothing; not ready is no error. */
    cudaError_t e = cudaStreamQuery(cudaStreamLegacy);
    if (e != cudaErrorNotReady) CUDA_CHECK(e);
    pthread_barrier_wait(a->warm);
    while (!__atomic_load_n(a->go, __ATOMIC_ACQUIRE)) { /* a spin: a barrier's wake would be timed as the call's */
    }
    gl_sched_run_thread(a->r, a->thread);
    return NULL;
}

void gl_sched_run_once(gl_sched_run *r)
{
    int T = r->prog->n_threads > 1 ? r->prog->n_threads : 1, device = 0;
    int go = 0;
    pthread_barrier_t warm;
    pthread_t *tid = (pthread_t *)gl_xcalloc((size_t)T, sizeof *tid);
    run_thread_arg *arg = (run_thread_arg *)gl_xcalloc((size_t)T, sizeof *arg);
    CUDA_CHECK(cudaGetDevice(&device));
    if (pthread_barrier_init(&warm, NULL, (unsigned)T) != 0) gl_die(GL_EXIT_INTERNAL, "schedrun: no barrier");
    for (int t = 1; t < T; t++) {
        arg[t].r = r;
        arg[t].thread = t;
        arg[t].device = device;
        arg[t].warm = &warm, arg[t].go = &go;
        if (pthread_create(&tid[t], NULL, run_thread_main, &arg[t]) != 0)
            gl_die(GL_EXIT_INTERNAL, "schedrun: could not start host thread %d of %d", t, T);
    }
    pthread_barrier_wait(&warm); /* every thread started and warm: now the run */
    gl_sched_run_begin(r);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    gl_sched_run_thread(r, 0);
    for (int t = 1; t < T; t++) pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&warm);
    free(tid);
    free(arg);
    gl_sched_run_end(r);
}

const gl_interval *gl_sched_run_kernel(const gl_sched_run *r, int op)
{
    if (op < 0 || op >= r->prog->n_ops || r->slot[op] == GL_NO_SPAN) return NULL;
    int k = gl_timeline_find(&r->tl, (int)r->slot[op]);
    return k < 0 ? NULL : &r->tl.k[k];
}

const gl_interval *gl_sched_run_model_kernel(const gl_sched_run *r, int op)
{
    if (op < 0 || op >= r->prog->n_ops || r->prog->ops[op].kind != GL_SCHED_LAUNCH) return NULL;
    int k = gl_timeline_find(&r->model_tl, r->prog->ops[op].id);
    return k < 0 ? NULL : &r->model_tl.k[k];
}

void gl_sched_run_destroy(gl_sched_run *r)
{
    gl_sched_program *p = r->prog;
    gl_timeline_free(&r->tl);
    gl_timeline_free(&r->model_tl);
    gl_spans_destroy(&r->spans);
    for (int s = 0; s < p->n_streams; s++)
        if (p->streams[s].kind == GL_SCHED_STREAM_BLOCKING || p->streams[s].kind == GL_SCHED_STREAM_NONBLOCKING)
            CUDA_CHECK(cudaStreamDestroy(r->stream[s]));
    for (int e = 0; e < p->n_events; e++) CUDA_CHECK(cudaEventDestroy(r->event[e]));
    CUDA_CHECK(cudaFree(r->d_sink));
    free(r->stream);
    free(r->event);
    free(r->slot);
    free(r->call_ns);
    free(r->return_ns);
    free(r->prior_first);
    free(r->prior);
    free(r->issued);
    copies_destroy(r);
}

/* ---- a program's runs as a row ------------------------------------------------------------ */

void gl_sched_run_series(gl_sampler *smp)
{
    gl_sampler_series(smp, "model_makespan", "ms", 3, 0);
    gl_sampler_series(smp, "makespan", "ms", 3, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(smp, "model_peak", "kernels", 0, 0);
    gl_sampler_series(smp, "peak_concurrency", "kernels", 0, 0);
    gl_sampler_series(smp, "start_error", "us", 2, 0);
}

void gl_sched_run_put(gl_sample *s, const gl_sched_run *r, double lasting_ns)
{
    gl_sample_put(s, "model_makespan", r->sim.makespan_ns / 1e6);
    gl_sample_put(s, "makespan", r->tl.makespan_ns / 1e6);
    gl_sample_put(s, "model_peak", gl_timeline_peak_lasting(&r->model_tl, gl_filter_all, NULL, lasting_ns));
    gl_sample_put(s, "peak_concurrency", gl_timeline_peak_lasting(&r->tl, gl_filter_all, NULL, lasting_ns));
    gl_sample_put(s, "start_error", r->errors.start_median_ns / 1e3);
}

void gl_sched_run_claims(gl_report *rep, gl_row *row, const char *peak_prefix, const char *makespan_prefix,
                         double tolerance, double slack_ns)
{
    gl_stats mk = gl_row_find(row, "makespan")->stats, model_mk = gl_row_find(row, "model_makespan")->stats;
    gl_stats peak = gl_row_find(row, "peak_concurrency")->stats, model_peak = gl_row_find(row, "model_peak")->stats;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * (mk.median - model_mk.median) / model_mk.median);
    char text[256];
    snprintf(text, sizeof text, "%s peak concurrency is the simulation's %.0f kernels", peak_prefix, model_peak.median);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, lround(peak.median) == lround(model_peak.median), text,
                  "measured median over %d runs %.0f, range %.0f..%.0f; simulated range %.0f..%.0f", peak.n,
                  peak.median, peak.min, peak.max, model_peak.min, model_peak.max);
    snprintf(text, sizeof text, "%s makespan matches the simulation", makespan_prefix);
    gl_claim_near(rep, row, GL_CLAIM_TIMING, text, model_mk.median, mk.median, tolerance, slack_ns / 1e6, "ms");
}

void gl_sched_run_show(gl_trace *t, const gl_common *common, const gl_sched_run *r, const char *title,
                       const gl_names *names)
{
    char name[224];
    snprintf(name, sizeof name, "%s (last run)", title);
    gl_show_run(t, common, name, &r->tl, r->spans.h_spans, r->n_spans, names);
    snprintf(name, sizeof name, "%s (model of the last run)", title);
    gl_show_run(t, common, name, &r->model_tl, NULL, 0, names);
}

void gl_sched_run_show_calls(gl_trace *t, const gl_common *common, gl_sched_run *r, const gl_clock_align *clock,
                             const char *title, const gl_names *names, int call_label, int first_host_track)
{
    if (!common->trace_path && !common->timeline) return;
    const gl_sched_program *p = r->prog;
    const gl_clock_align origin = {GL_SCHED_ORIGIN_NS, 0, 0, 1}; /* the model's axis */
    /* Slice ids past every kernel's: the run's are span slots, the model's op ids. */
    int host_id = (int)r->spans.dev.capacity > p->n_ops ? (int)r->spans.dev.capacity : p->n_ops;
    gl_span *sp = (gl_span *)gl_xcalloc((size_t)r->n_spans + 2 * (size_t)p->n_ops + 1, sizeof *sp);
    for (int model = 0; model < 2; model++) {
        int n = model ? 0 : r->n_spans;
        if (!model) memcpy(sp, r->spans.h_spans, sizeof *sp * (size_t)n);
        for (int i = 0; i < p->n_ops && (model || clock->valid); i++) {
            const gl_sched_op *o = &p->ops[i];
            if (model && o->kind == GL_SCHED_LAUNCH && o->start_ns >= 0 && o->end_ns >= 0)
                sp[n++] = gl_sched_op_span(o); /* a kernel: records, waits and host ops are slices only */
            if (model && (o->call_ns < 0 || o->submit_ns < 0)) continue;
            double from = model ? o->call_ns : r->call_ns[i], to = model ? o->submit_ns : r->return_ns[i];
            sp[n++] = gl_host_span(model ? &origin : clock, from, to, call_label, first_host_track + o->thread,
                                   host_id + i);
        }
        gl_timeline *tl = model ? &r->model_tl : &r->tl;
        gl_timeline_free(tl);
        if (gl_timeline_build(tl, sp, n) < 0)
            gl_die(GL_EXIT_INTERNAL, "gl_sched_run_show_calls: two intervals share an id");
    }
    char name[224]; /* as gl_sched_run_show, saying on the run's title when its calls could not be placed */
    snprintf(name, sizeof name, "%s (last run%s)", title,
             clock->valid ? "" : "; no host calls: the host clock is not aligned");
    gl_show_run(t, common, name, &r->tl, r->spans.h_spans, r->n_spans, names);
    snprintf(name, sizeof name, "%s (model of the last run)", title);
    gl_show_run(t, common, name, &r->model_tl, NULL, 0, names);
    free(sp);
}
