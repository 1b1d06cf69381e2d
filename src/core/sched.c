/* sched.c - the scheduling model's simulator. The rules are in gl_sched.h, which is not
 * called sched.h because that name is a system header. */
#include "gl_sched.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"
#include "gl_check.h"
#include "gl_stats.h"
#include "gl_timeline.h"

/* ---- building a program ----------------------------------------------------------- */

void gl_sched_program_init(gl_sched_program *p)
{
    memset(p, 0, sizeof *p);
    gl_sched_stream_new(p, GL_SCHED_STREAM_LEGACY, 0, -1); /* GL_SCHED_LEGACY is the first stream */
}

void gl_sched_program_free(gl_sched_program *p)
{
    free(p->ops);
    free(p->streams);
    memset(p, 0, sizeof *p);
}

int gl_sched_stream_new(gl_sched_program *p, int kind, int priority, int thread)
{
    gl_grow((void **)&p->streams, &p->cap_streams, p->n_streams + 1, sizeof *p->streams);
    gl_sched_stream *s = &p->streams[p->n_streams];
    s->kind = kind;
    s->priority = priority;
    s->thread = thread;
    return p->n_streams++;
}

int gl_sched_event_new(gl_sched_program *p) { return p->n_events++; }

/* Append an op with everything but its kind-specific fields cleared. */
static gl_sched_op *add_op(gl_sched_program *p, int kind, int thread, int stream)
{
    if (thread < 0) gl_die(GL_EXIT_INTERNAL, "sched: host thread %d is negative", thread);
    if (kind != GL_SCHED_SYNC && kind != GL_SCHED_HOST && (stream < 0 || stream >= p->n_streams))
        gl_die(GL_EXIT_INTERNAL, "sched: stream %d does not exist (%d streams)", stream, p->n_streams);
    gl_grow((void **)&p->ops, &p->cap_ops, p->n_ops + 1, sizeof *p->ops);
    gl_sched_op *o = &p->ops[p->n_ops++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->thread = thread;
    o->stream = stream;
    o->event = -1;
    o->after = -1;
    o->issue_ns = -1;
    o->id = p->n_ops - 1;
    o->label = 0;
    o->track = stream;
    o->queue = -1;
    if (thread + 1 > p->n_threads) p->n_threads = thread + 1;
    return o;
}

int gl_sched_launch(gl_sched_program *p, int thread, int stream, int blocks, int threads, int blocks_per_sm,
                    double block_ns, int id)
{
    gl_sched_op *o = add_op(p, GL_SCHED_LAUNCH, thread, stream);
    o->blocks = blocks;
    o->threads = threads;
    o->blocks_per_sm = blocks_per_sm;
    o->block_ns = block_ns;
    o->id = id;
    return p->n_ops - 1;
}

int gl_sched_record(gl_sched_program *p, int thread, int stream, int event)
{
    add_op(p, GL_SCHED_RECORD, thread, stream)->event = event;
    return p->n_ops - 1;
}

int gl_sched_wait(gl_sched_program *p, int thread, int stream, int event)
{
    add_op(p, GL_SCHED_WAIT, thread, stream)->event = event;
    return p->n_ops - 1;
}

int gl_sched_sync_stream(gl_sched_program *p, int thread, int stream)
{
    if (stream < -1 || stream >= p->n_streams) gl_die(GL_EXIT_INTERNAL, "sched: no stream %d to wait for", stream);
    add_op(p, GL_SCHED_SYNC, thread, stream);
    return p->n_ops - 1;
}

int gl_sched_sync_event(gl_sched_program *p, int thread, int event)
{
    add_op(p, GL_SCHED_SYNC, thread, -1)->event = event;
    return p->n_ops - 1;
}

int gl_sched_stream_create(gl_sched_program *p, int thread, int kind, int priority)
{
    int stream = gl_sched_stream_new(p, kind, priority, kind == GL_SCHED_STREAM_PER_THREAD ? thread : -1);
    add_op(p, GL_SCHED_CREATE, thread, stream);
    return stream;
}

int gl_sched_host(gl_sched_program *p, int thread, double ns)
{
    add_op(p, GL_SCHED_HOST, thread, -1)->issue_ns = ns;
    return p->n_ops - 1;
}

int gl_sched_copy(gl_sched_program *p, int thread, int stream, int dir, double bytes, int pageable)
{
    gl_sched_op *o = add_op(p, GL_SCHED_COPY, thread, stream);
    o->dir = dir;
    o->bytes = bytes;
    o->pageable = pageable;
    return p->n_ops - 1;
}

int gl_sched_hostfn(gl_sched_program *p, int thread, int stream, double ns)
{
    add_op(p, GL_SCHED_HOSTFN, thread, stream)->block_ns = ns;
    return p->n_ops - 1;
}

int gl_sched_load(gl_sched_program *p, int thread, int stream)
{
    add_op(p, GL_SCHED_LOAD, thread, stream);
    return p->n_ops - 1;
}

int gl_sched_copy_blocks_host(const gl_sched_machine *m, const gl_sched_op *o)
{
    return o->kind == GL_SCHED_COPY && o->pageable &&
           (o->dir == GL_SCHED_D2H ||
            (o->dir == GL_SCHED_H2D && o->bytes > m->pageable_stage_bytes && o->bytes > m->pageable_inline_bytes));
}

double gl_sched_staged_call_ns(const gl_sched_machine *m, const gl_sched_op *o)
{
    if (o->kind != GL_SCHED_COPY || !o->pageable || o->dir != GL_SCHED_H2D || gl_sched_copy_blocks_host(m, o) ||
        o->bytes <= m->pageable_inline_bytes || !(m->pageable_gbps[GL_SCHED_H2D] > 0))
        return INFINITY;
    /* a small one's staging costs more than its bytes at the pace: 46 us for 256 KiB behind a held stream on the
     * H200, against 32 us at the pace; no call with room to stage took longer than the longest the calibration timed,
     * or than itself timed so on its own buffer (copy-overlap's 2 MiB H2D: 263-283 us on average, where the pace
     * timed on the calibration's buffer read 13.1 GB/s, 160 us, and the run took 29-38% longer than the model) */
    double own = o->stage_ns > 0 && o->stage_ns < INFINITY ? o->stage_ns - m->issue_ns : 0; /* the whole call's:
                                                                                             * the caller adds it */
    return fmax(fmax(m->pageable_latency_ns[GL_SCHED_H2D] + o->bytes / m->pageable_gbps[GL_SCHED_H2D],
                     m->pageable_stage_call_ns),
                own);
}

/* Whether a copy is an entry of its stream's queue (gl_sched.h "Queue copies"), not only an engine's. */
static int copy_queued(const gl_sched_machine *m, const gl_sched_op *o)
{
    return o->dir == GL_SCHED_D2D || o->dir == GL_SCHED_MEMSET ||
           (o->dir == GL_SCHED_H2D && o->pageable && o->bytes <= m->pageable_inline_bytes);
}

/* A pinned H2D small enough to go beside the engine's copy ("Engines"). */
static int copy_beside(const gl_sched_machine *m, const gl_sched_op *o)
{
    return o->dir == GL_SCHED_H2D && !o->pageable && o->bytes <= m->pinned_beside_bytes;
}

/* A copy that takes no engine: a small pageable H2D goes inline, in the queue's own commands (gl_sched.h "Queue
 * copies"), a pinned H2D of at most pinned_beside_bytes goes beside the engine's copy ("Engines"), and a pageable
 * copy the host waits for holds none between its pieces ("Pageable"). */
static int copy_inline(const gl_sched_machine *m, const gl_sched_op *o)
{
    if (gl_sched_copy_blocks_host(m, o)) return 1; /* host-paced: its pieces go between the engine's copies */
    return o->dir == GL_SCHED_H2D && (o->pageable ? o->bytes <= m->pageable_inline_bytes : copy_beside(m, o));
}

/* A copy that runs on the SMs, as a grid of the driver's (gl_sched.h "SM copies"): every D2D, and a memset over
 * sm_memset_bytes, where the machine says such copies need room there. */
static int copy_on_sms(const gl_sched_machine *m, const gl_sched_op *o)
{
    return o->kind == GL_SCHED_COPY && m->sm_copy_share > 0 &&
           (o->dir == GL_SCHED_D2D || (o->dir == GL_SCHED_MEMSET && o->bytes > m->sm_memset_bytes));
}

static int fail(char *err, int errlen, const char *fmt, ...);

double gl_sched_copy_ns(const gl_sched_machine *m, int dir, double bytes)
{
    int n = m->copy_points;
    if (n < 2) return m->copy_latency_ns[dir] + bytes / m->copy_gbps[dir];
    const double *b = m->copy_point_bytes, *t = m->copy_point_ns[dir];
    int i = 0; /* the segment [i, i + 1] bytes falls in, or the nearest one */
    while (i < n - 2 && bytes > b[i + 1]) i++;
    double v = t[i] + (bytes - b[i]) * (t[i + 1] - t[i]) / (b[i + 1] - b[i]);
    return v > 0 ? v : 0;
}

double gl_sched_op_copy_ns(const gl_sched_machine *m, const gl_sched_op *o)
{
    if (o->copy_ns > 0) return o->copy_ns;
    if (gl_sched_copy_blocks_host(m, o)) return m->pageable_latency_ns[o->dir] + o->bytes / m->pageable_gbps[o->dir];
    return gl_sched_copy_ns(m, o->dir, o->bytes);
}

int gl_sched_copy_fit(const gl_sched_copy_times *t, gl_sched_machine *m, char *err, int errlen)
{
    static const char *const names[GL_SCHED_DIRS] = {"H2D", "D2H", "D2D", "memset"};
    gl_sched_machine fit = *m;
    double span = t->large_bytes - t->small_bytes;
    memset(m->copy_engines, 0, sizeof m->copy_engines); /* refused until the fit holds */
    if (err && errlen > 0) err[0] = 0;
    char device_side[320] = ""; /* a D2D or memset left without engines, and why */
    for (int d = 0; d < GL_SCHED_DIRS; d++) {
        double dt = t->large_ns[d] - t->small_ns[d];
        if (!(t->small_ns[d] > 0 && dt > 0 && span > 0 && t->pair_ns[d] > 0)) {
            if (d < GL_SCHED_D2D)
                return fail(err, errlen, "%s: no usable times (%g ns for %g bytes, %g ns for %g, a pair %g ns)",
                            names[d], t->small_ns[d], t->small_bytes, t->large_ns[d], t->large_bytes, t->pair_ns[d]);
            fit.copy_engines[d] = 0, fit.copy_gbps[d] = fit.copy_latency_ns[d] = 0;
            size_t used = strlen(device_side);
            snprintf(device_side + used, sizeof device_side - used, "%s%s: no usable times (%g ns for %g bytes, %g ns "
                     "for %g, a pair %g ns): its copies are refused", used ? "; " : "", names[d], t->small_ns[d],
                     t->small_bytes, t->large_ns[d], t->large_bytes, t->pair_ns[d]);
            continue;
        }
        fit.copy_gbps[d] = span / dt;
        fit.copy_latency_ns[d] = fmax(0, t->small_ns[d] - t->small_bytes / fit.copy_gbps[d]);
        fit.copy_engines[d] = t->pair_ns[d] < 1.5 * t->large_ns[d] ? 2 : 1;
    }
    double alone = fmax(t->large_ns[GL_SCHED_H2D], t->large_ns[GL_SCHED_D2H]);
    if (!(fmin(t->opposite_ns[0], t->opposite_ns[1]) > 0))
        return fail(err, errlen, "H2D and D2H at once were not timed (%g and %g ns; one alone %g)", t->opposite_ns[0],
                    t->opposite_ns[1], alone);
    /* The first to end (f) shared the link all along; the other (o) until then, then ran alone. */
    int f = t->opposite_ns[0] <= t->opposite_ns[1] ? 0 : 1, o = 1 - f;
    double shared = t->opposite_ns[f] - fit.copy_latency_ns[f];
    fit.copy_bidir_gbps[f] = fmin(fit.copy_gbps[f], t->large_bytes / shared);
    double moved = t->large_bytes - (t->opposite_ns[o] - t->opposite_ns[f]) * fit.copy_gbps[o];
    double shared_o = t->opposite_ns[f] - fit.copy_latency_ns[o];
    fit.copy_bidir_gbps[o] = shared_o > 0 && moved > 0 ? fmin(fit.copy_gbps[o], moved / shared_o) : fit.copy_gbps[o];
    for (int d = 0; d < 2; d++) { /* a dependency's cost (a kernel's dispatch is in both chains it is taken from) */
        fit.copy_after_kernel_ns[d] = fmax(0, t->after_kernel_ns[d]);
        fit.kernel_after_copy_ns[d] = fmax(0, t->before_kernel_ns[d]);
    }
    for (int d = 0; d < 2; d++) /* the small pair: ends close together, each taken as shared all along */
        fit.copy_bidir_latency_ns[d] = t->opposite_small_bytes > 0 && t->opposite_small_ns[d] > 0
            ? fmax(fit.copy_latency_ns[d], t->opposite_small_ns[d] - t->opposite_small_bytes / fit.copy_bidir_gbps[d])
            : 0;
    for (int d = 0; d < 2; d++) {
        /* Pageable: slope and intercept like the pinned copies, where the small copy was timed and was faster;
         * else bytes over the time beyond the pinned latency. */
        double dt = t->pageable_ns[d] - t->pageable_small_ns[d];
        if (t->pageable_small_ns[d] > 0 && dt > 0 && span > 0) {
            fit.pageable_gbps[d] = span / dt;
            fit.pageable_latency_ns[d] = fmax(0, t->pageable_small_ns[d] - t->small_bytes / fit.pageable_gbps[d]);
        } else {
            double paged = t->pageable_ns[d] - fit.copy_latency_ns[d];
            fit.pageable_gbps[d] = paged > 0 ? t->large_bytes / paged : 0;
            fit.pageable_latency_ns[d] = fit.copy_latency_ns[d];
        }
        /* behind_ns times a 4 KiB copy, which as an H2D goes beside the held one (probe-h2d-order: H2D copies of
         * 64 KiB and more keep the order with one queue): so H2D reads out of order here, and the lab's model,
         * without pinned_beside_bytes, keeps it so; the replay's machine has both */
        fit.copy_in_order[d] = t->hold_ns > 0 && t->behind_ns[d] > 0.5 * t->hold_ns;
    }
    fit.pageable_stage_bytes = fit.pageable_stage_call_ns = 0;
    for (int i = 0; i < t->n_stage; i++)
        if (t->stage_call_ns[i] < 0.5 * t->hold_ns) {
            fit.pageable_stage_bytes = fmax(fit.pageable_stage_bytes, t->stage_bytes[i]);
            fit.pageable_stage_call_ns = fmax(fit.pageable_stage_call_ns, t->stage_call_ns[i]);
        }
    fit.pageable_inline_bytes = 65536;
    fit.sm_copy_share = 0.5, fit.sm_memset_bytes = 4096; /* probed, not timed here (gl_sched.h "SM copies") */
    fit.pageable_piece_ns = 62000;                        /* probed too (gl_sched.h "Pageable") */
    fit.pageable_d2h_serial = 1, fit.pageable_stage_slots = 2; /* probed too (gl_sched.h "Staging") */
    fit.pageable_d2h_handover_ns = 25000;
    fit.copy_points = 0;
    if (t->n_points >= 2) { /* the curve, where every size was timed and grew */
        int ok = t->n_points <= GL_SCHED_COPY_POINTS;
        for (int i = 0; ok && i < t->n_points; i++)
            for (int d = 0; d < GL_SCHED_DIRS; d++)
                ok &= t->point_ns[d][i] > 0 && (i == 0 || t->point_bytes[i] > t->point_bytes[i - 1]);
        if (ok) {
            fit.copy_points = t->n_points;
            memcpy(fit.copy_point_bytes, t->point_bytes, sizeof t->point_bytes);
            memcpy(fit.copy_point_ns, t->point_ns, sizeof t->point_ns);
        }
    }
    *m = fit;
    if (device_side[0] && err && errlen > 0) snprintf(err, (size_t)errlen, "%s", device_side);
    return 0;
}

gl_sched_machine gl_sched_machine_default(void)
{
    gl_sched_machine m;
    memset(&m, 0, sizeof m);
    m.connections = 1;
    m.resident_grids = 128;
    m.sms = 1;
    m.queue_rule = GL_SCHED_QUEUE_TAIL;
    m.release_rule = GL_SCHED_RELEASE_LAUNCH;
    return m;
}

int gl_sched_queue_rule_env(int fallback, char *err, int errlen)
{
    static const char *const names[] = {"tail", "switch", "stream"}; /* GL_SCHED_QUEUE_* order */
    const char *v = getenv("GRIDLAB_QUEUE_RULE");
    if (!v || !*v) return fallback;
    for (int i = 0; i < GL_ARRAY_LEN(names); i++)
        if (strcmp(v, names[i]) == 0) return i;
    snprintf(err, (size_t)errlen, "GRIDLAB_QUEUE_RULE: '%s' is not a queue rule; accepted: tail, switch, stream", v);
    return -1;
}

/* ---- the simulation's state ---------------------------------------------------------- */

/* What an event is: a host call returns, an op reaches its queue, a kernel
 * reaches the work distributor, blocks end, a queue's time per entry is up. */
enum { EV_HOST, EV_ARRIVE, EV_ACCEPT, EV_BLOCKS, EV_WAKE, EV_COPIED, EV_HOSTFN, EV_LOADED, EV_DRIVER, EV_SHARED };

typedef struct event {
    double t;           /* when it happens */
    long long seq;      /* order of scheduling: ties go first-scheduled first */
    int kind;           /* EV_* */
    int op;             /* the op it concerns (EV_HOST: the thread; EV_WAKE: -1) */
    int sm, n;          /* EV_BLOCKS: n blocks end on this SM; EV_WAKE: sm is the queue (-1: a cost's end, a
                           staging handover or a sync's return);
                           EV_COPIED: n, the version; EV_SHARED: n, the version (sim.share_version) */
} event;

/* Blocks of a kernel that shares the SMs' throughput ("Sharing"), handed out together. Every such block runs at the
 * one speed the load gives (1 / gl_sched_share_slowdown(load / SMs)), so the groups keep one clock between them,
 * the work a block alone would have done since the simulation began (sim.share_work): a group ends when it
 * reaches the group's done_at, and the groups wait in a heap by that (processor sharing; one event, for the first
 * to end, whatever the number running). */
typedef struct shared_group {
    int op, n;          /* n blocks of kernel op */
    int *sms, cap_sms;  /* the SMs they are on, an SM once for each block (their slots free at the end) */
    double done_at;     /* share_work when they end */
} shared_group;

typedef struct op_state {
    int dep_first, n_deps; /* its dependencies in sim.deps */
    int chain_prev;        /* a chained op's (gl_sched_op.chained): its stream's kernel or copy before it, -1 */
    int arrived;           /* it reached its queue */
    int finished;          /* it is done (a kernel: all blocks ended) */
    int remaining;         /* LAUNCH, and a copy on the SMs: blocks not yet on an SM */
    int started;           /* an engine copy or a load has begun */
    int version;           /* an engine copy's: which of its EV_COPIED events is the live one */
    double left_ns, rate, since_ns; /* an engine copy: time left at full speed, its speed now (1 alone), since when */
    double full_ns;        /* an engine copy: its whole time at full speed */
    double piece_ns[2];    /* a pageable copy the host waits for: when its piece in flight began, and ends */
    int running;           /* LAUNCH, and a copy on the SMs: blocks on SMs now */
    double sm_ns;          /* a copy on the SMs: its one block's time there */
    int mark_queue, mark_pos; /* RECORD: the queue it is reached in, and how many entries were put in it before */
    int dep_next;          /* its dependencies before this one are known to have finished (deps_done resumes here) */
    int watch_next;        /* an engine copy waiting on a dependency: the next copy waiting on the same one (-1) */
    int ready;             /* an engine copy that has arrived, with its dependencies finished, not started */
    double cost_wake;      /* when a wake for its dependencies' costs was scheduled (0: none) */
    long long order;       /* submission order: heads compete by it */
    double accept_ns;      /* LAUNCH: when its EV_ACCEPT is due (accepting lists it until then) */
    int deferred;          /* LAUNCH: its arrival at the distributor was put after a ranked one's (accept_race) */
} op_state;

typedef struct queue {
    int *fifo;      /* op indices in arrival order */
    int head;       /* the index in fifo of the head: entries before it have gone */
    int n, cap;     /* entries put in, and room for them */
    int unfinished; /* ops put in it that have not finished: 0 means idle */
    int holding;    /* GL_SCHED_RELEASE_DISPATCHED: the kernel it waits on, else -1 */
    double next_ns; /* the next entry may not leave before this: the queue's time per entry */
    double wake_ns; /* when an EV_WAKE for next_ns was scheduled (-1: none) */
} queue;

typedef struct thread_state {
    int *ops;      /* its ops, in order */
    int n, cap;    /* how many, and room for them */
    int pc;        /* the next one to issue */
    int blocked;   /* op index of the SYNC it waits in, else -1 */
    int calling;   /* a call is in progress (an EV_HOST is pending) */
    double d2h_waiting_ns; /* since when its next call, a pageable D2H, has waited for the staging (-INF: not) */
    double sync_done_ns;   /* when the SYNC it waits in returns, once its target has finished (NAN: not yet): that
                            * op's wake_ns, else the machine's sync_return_ns, after the target where it waited,
                            * at once where it found it done; gl_sched_sync_extra_ns later (an EV_WAKE then) */
} thread_state;

typedef struct sim {
    gl_sched_program *p;       /* the program, whose ops receive the results */
    const gl_sched_machine *m; /* the machine */
    double now;                /* simulated time, ns */
    event *heap;               /* pending events, a binary min-heap by (t, seq) */
    int n_heap, cap_heap;      /* events in it, and room */
    long long seq;             /* events scheduled so far: the tie-breaker */
    long long submitted;       /* calls returned so far: an op's submission order */
    op_state *os;              /* per op, what the simulation knows of it */
    int *deps;                 /* every op's dependencies, each op's in one run */
    int n_deps, cap_deps;      /* entries in deps, and room */
    queue *q;                  /* the C hardware queues */
    thread_state *th;          /* the host threads */
    int *stream_last;  /* last op submitted to each stream, -1 */
    int *stream_queued; /* last op of each stream that moved the queue rule (not a record or wait), -1 */
    int *stream_work;   /* last op of each stream that is not a record (the stream's next op waits not for one), -1 */
    int *stream_node;   /* last kernel or copy of each stream, -1: a chained op's predecessor (gl_sched_op.chained) */
    int *stream_rec;    /* last record of each stream, -1: with stream_last, all issued to it (add_stream_dep) */
    int *event_last;   /* last RECORD submitted for each event, -1 */
    double *sm_free;   /* free share of each SM, 1 = empty */
    double share_load; /* the demands of the sharing blocks running ("Sharing"): over the SMs, they slow */
    double share_work, share_since, share_rate; /* their clock (shared_group), when it was last read, its speed */
    int share_version;          /* which EV_SHARED event is the live one */
    shared_group *groups;       /* every sharing group, running or free */
    int n_groups, cap_groups;   /* made, and room */
    int *running_groups, n_running_groups, cap_running_groups; /* a min-heap of the running ones by done_at */
    int *free_groups, n_free_groups, cap_free_groups;          /* the others, to reuse */
    double free_sum;   /* sum of sm_free: no block fits when below the smallest share */
    double cwd_busy;   /* when the work distributor has handed out the blocks given to it so far */
    int *pending;      /* records, waits and loads that arrived and whose dependencies finished, not done yet */
    int n_pending, cap_pending; /* how many, and room */
    int *accepting;    /* kernels that left their queues and have not reached the work distributor yet */
    int n_accepting, cap_accepting; /* how many, and room */
    int ranked;        /* times a rank decided which went first (gl_sched_result.ranked) */
    int *cwd;          /* the compute work distributor: kernels (and SM copies) with blocks left, in dispatch order */
    int n_cwd, cap_cwd;           /* entries in it, and room */
    int resident;                 /* kernels between leaving their queue and ending */
    int max_resident, max_depth;  /* the most resident kernels, the deepest queue */
    int last_stream, last_queue;  /* the queue rule's memory */
    int held_rec;                 /* the latest entry put in a queue when that is a record holding it, else -1 */
    int copying[GL_SCHED_DIRS];   /* copy engines of each direction busy now */
    double piece_wake[2];         /* H2D, D2H: when a wake for a pageable piece's end was scheduled */
    int linked[2];                /* H2D, D2H copies on the link now (engine copies and queued small H2D) */
    /* Engine copies (not queue entries), kept so that each event costs little however many wait: per direction,
     * every one submitted in order (wfifo, whead: the first not started), those ready to start in order (ready),
     * and those running. A copy waiting on a dependency is watched by it (watch_head: the first copy waiting on
     * an op, -1), and looked at again only when that op finishes. */
    int *wfifo[GL_SCHED_DIRS], wn[GL_SCHED_DIRS], wcap[GL_SCHED_DIRS], whead[GL_SCHED_DIRS];
    int *ready[GL_SCHED_DIRS], rn[GL_SCHED_DIRS], rcap[GL_SCHED_DIRS];
    int *running, n_running, cap_running;
    int *watch_head;
    int *seen, stamp; /* per stream: the stamp of the last wait_homed_copies that took its copy */
    /* Copies per direction and home queue (copy_home) not yet seen
     * finished, in submission order, those that take no engine too: a host function behind one waits for the
     * latest of each stream (wait_homed_copies, "Host functions"). */
    int *homed[GL_SCHED_DIRS][GL_SCHED_MAX_QUEUES], hn[GL_SCHED_DIRS][GL_SCHED_MAX_QUEUES],
        hcap[GL_SCHED_DIRS][GL_SCHED_MAX_QUEUES];
    int hostfn_busy;              /* host functions running on the driver's thread */
    int *hostfns;                 /* host functions handed to the driver's thread, in the order they came */
    int hostfn_head;              /* the first of them not started */
    int n_hostfns, cap_hostfns;   /* how many were put in since it was last empty, and room */
    int driver_waking;            /* an EV_DRIVER is pending */
    int driver_awake;             /* the driver's thread took a function since it last woke */
    double driver_idle_ns;        /* when it last found nothing left (-1: never) */
    int load;                     /* the last lazy load submitted: everything after waits for it (-1: none) */
    int d2h_staging;              /* the pageable D2H whose call holds the driver's D2H staging (-1: none) */
    double d2h_freed_ns;          /* when the D2H staging was last freed (-INFINITY: never)... */
    int d2h_freed_by;             /* ...and by which thread's copy (-1: none) */
    int stage_used;               /* parts of the H2D staging buffer held by calls made and copies not ended */
    int finished_ops;             /* ops done: all of them, at the end, or a deadlock */
} sim;

/* Schedule an event. */
static void heap_push(sim *s, double t, int kind, int op, int sm, int n)
{
    gl_grow((void **)&s->heap, &s->cap_heap, s->n_heap + 1, sizeof *s->heap);
    event e = {t, s->seq++, kind, op, sm, n};
    int i = s->n_heap++;
    while (i > 0) {
        int up = (i - 1) / 2;
        event *u = &s->heap[up];
        if (u->t < e.t || (u->t == e.t && u->seq < e.seq)) break;
        s->heap[i] = *u;
        i = up;
    }
    s->heap[i] = e;
}

/* Take the earliest event (first scheduled among equal times). */
static event heap_pop(sim *s)
{
    event top = s->heap[0], last = s->heap[--s->n_heap];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= s->n_heap) break;
        if (c + 1 < s->n_heap &&
            (s->heap[c + 1].t < s->heap[c].t || (s->heap[c + 1].t == s->heap[c].t && s->heap[c + 1].seq < s->heap[c].seq)))
            c++;
        if (last.t < s->heap[c].t || (last.t == s->heap[c].t && last.seq < s->heap[c].seq)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    s->heap[i] = last;
    return top;
}

/* Record that the op being submitted waits for op on (none when on < 0). */
static void add_dep(sim *s, int on)
{
    if (on < 0) return;
    gl_grow((void **)&s->deps, &s->cap_deps, s->n_deps + 1, sizeof *s->deps);
    s->deps[s->n_deps++] = on;
}

/* Everything issued to stream st: its last op and its last record, which its later ops do not wait for, so that
 * a sync, a legacy barrier or a load waits for the records too (records chain to each other). */
static void add_stream_dep(sim *s, int st)
{
    add_dep(s, s->stream_last[st]);
    if (s->stream_rec[st] != s->stream_last[st]) add_dep(s, s->stream_rec[st]);
}

/* The first op that op waits for and that has not finished, -1 if none. */
static int first_unfinished(const sim *s, int op)
{
    op_state *st = &s->os[op];
    for (; st->dep_next < st->n_deps; st->dep_next++) /* a finished op stays finished: no need to look again */
        if (!s->os[s->deps[st->dep_first + st->dep_next]].finished) return s->deps[st->dep_first + st->dep_next];
    return -1;
}

static int deps_done(const sim *s, int op) { return first_unfinished(s, op) < 0; }

/* Whether a stream synchronizes with the legacy stream. */
int gl_sched_stream_blocking(const gl_sched_stream *st)
{
    return st->kind == GL_SCHED_STREAM_BLOCKING || st->kind == GL_SCHED_STREAM_PER_THREAD;
}

/* "Sharing": a sharing block's slowdown at a load of load_per_sm an SM (gl_sched.h). */
double gl_sched_share_slowdown(double load_per_sm) { return fmax(1.0, load_per_sm); }

/* The launch latency, and an own copy's arrival beyond it (gl_sched.h "Host"). */
double gl_sched_arrival_ns(const gl_sched_machine *m, const gl_sched_op *o)
{
    int own_copy =
        o->kind == GL_SCHED_COPY && o->dir < 2 && !o->chained && !o->handed && !gl_sched_copy_blocks_host(m, o);
    return m->launch_latency_ns + (own_copy ? m->copy_arrive_ns : 0);
}

double gl_sched_sync_extra_ns(const gl_sched_machine *m)
{
    return m->timed_connections > 0 ? m->sync_connection_ns * (m->connections - m->timed_connections) : 0;
}

/* An op that is no queue entry (an engine copy, record, wait, load, or a host function off the queues) and has
 * arrived: once its dependencies have finished, a copy is ready to start and the others are pending (a record may
 * still wait for its queue); until then it waits on the first that has not, and is looked at again only when that
 * one finishes. */
static void op_watch(sim *s, int op)
{
    op_state *st = &s->os[op];
    int d = first_unfinished(s, op);
    if (d >= 0) {
        st->watch_next = s->watch_head[d];
        s->watch_head[d] = op;
        return;
    }
    if (s->p->ops[op].kind != GL_SCHED_COPY) {
        gl_grow((void **)&s->pending, &s->cap_pending, s->n_pending + 1, sizeof *s->pending);
        s->pending[s->n_pending++] = op;
        return;
    }
    int dir = s->p->ops[op].dir, i = s->rn[dir];
    gl_grow((void **)&s->ready[dir], &s->rcap[dir], s->rn[dir] + 1, sizeof **s->ready);
    while (i > 0 && s->os[s->ready[dir][i - 1]].order > st->order) { /* in submission order */
        s->ready[dir][i] = s->ready[dir][i - 1];
        i--;
    }
    s->ready[dir][i] = op;
    s->rn[dir]++;
    st->ready = 1;
}

static int stage_parts(const sim *s, const gl_sched_op *o);

/* Mark op done now; its queue may become idle. */
static void finish(sim *s, int op)
{
    gl_sched_op *o = &s->p->ops[op];
    s->os[op].finished = 1;
    if (s->d2h_staging == op) { /* the staging it held is free: its thread's next call first ("Staging") */
        s->d2h_staging = -1;
        s->d2h_freed_ns = s->now, s->d2h_freed_by = o->thread;
        if (s->m->pageable_d2h_handover_ns > 0)
            heap_push(s, s->now + s->m->pageable_d2h_handover_ns, EV_WAKE, -1, -1, 0);
    }
    s->stage_used -= stage_parts(s, o);
    s->finished_ops++;
    if (o->kind != GL_SCHED_LAUNCH && o->kind != GL_SCHED_COPY && o->kind != GL_SCHED_HOSTFN && o->kind != GL_SCHED_LOAD)
        o->start_ns = s->now;
    o->end_ns = s->now;
    if (o->queue >= 0) s->q[o->queue].unfinished--;
    for (int w = s->watch_head[op], next; w >= 0; w = next) { /* the engine copies that waited on it look again */
        next = s->os[w].watch_next;
        op_watch(s, w);
    }
    s->watch_head[op] = -1;
}

/* ---- the host side: issuing calls -------------------------------------------------------- */

/* The parts of the H2D staging buffer a pageable H2D's call takes until its copy ends (gl_sched.h "Staging"): all
 * of them for one the host waits for, as many as its bytes fill for one staged whole, none for an inline one. */
static int stage_parts(const sim *s, const gl_sched_op *o)
{
    const gl_sched_machine *m = s->m;
    int n = m->pageable_stage_slots;
    if (n <= 0 || o->kind != GL_SCHED_COPY || !o->pageable || o->dir != GL_SCHED_H2D ||
        o->bytes <= m->pageable_inline_bytes)
        return 0;
    if (!(m->pageable_stage_bytes > 0)) return n;
    int k = (int)ceil(o->bytes / (m->pageable_stage_bytes / n) - 1e-9); /* over the stage size: all of them */
    return k < 1 ? 1 : k > n ? n : k;
}

/* A pageable D2H under the rule that such calls go one at a time ("Staging"). */
static int staged_d2h(const sim *s, const gl_sched_op *o)
{
    return s->m->pageable_d2h_serial && o->kind == GL_SCHED_COPY && o->pageable && o->dir == GL_SCHED_D2H;
}

/* Whether op's call may be made now: another thread's op it waits to see returned has (a call that blocks its
 * thread, a synchronization or a copy the host waits for, returns as it finishes), and a pageable copy finds the
 * driver's staging free ("Staging"). */
static int call_free(const sim *s, int op)
{
    const gl_sched_op *o = &s->p->ops[op];
    if (o->after >= 0) {
        const gl_sched_op *a = &s->p->ops[o->after];
        if (a->submit_ns < 0) return 0;
        if ((a->kind == GL_SCHED_SYNC || gl_sched_copy_blocks_host(s->m, a)) && !s->os[o->after].finished) return 0;
    }
    if (staged_d2h(s, o)) {
        if (s->d2h_staging >= 0) return 0;
        /* a thread that was waiting as the staging was freed takes it over only after the handover */
        double since = s->th[o->thread].d2h_waiting_ns;
        if (o->thread != s->d2h_freed_by && since > -INFINITY && since <= s->d2h_freed_ns &&
            s->now < s->d2h_freed_ns + s->m->pageable_d2h_handover_ns)
            return 0;
    }
    int parts = stage_parts(s, o);
    return parts == 0 || s->stage_used + parts <= s->m->pageable_stage_slots;
}

/* Start the thread's next call, if it has one and is free to. */
static void host_next(sim *s, int t)
{
    thread_state *th = &s->th[t];
    if (th->calling || th->blocked >= 0 || th->pc >= th->n) return;
    int op = th->ops[th->pc];
    gl_sched_op *o = &s->p->ops[op];
    if (!call_free(s, op)) { /* parked: progress() calls again once it is */
        if (staged_d2h(s, o) && isinf(th->d2h_waiting_ns)) th->d2h_waiting_ns = s->now;
        return;
    }
    th->d2h_waiting_ns = -INFINITY;
    if (staged_d2h(s, o)) s->d2h_staging = op;
    s->stage_used += stage_parts(s, o);
    o->call_ns = s->now;
    th->calling = 1;
    heap_push(s, s->now + (o->issue_ns >= 0 ? o->issue_ns : s->m->issue_ns), EV_HOST, t, 0, 0);
}

/* The hardware queue a call goes to, by the machine's rule. prev is the
 * stream's previous op (-1: none yet). commit: the call goes there and the
 * rule remembers it; else the queue is only looked up (an event record). */
static int choose_queue(sim *s, int stream, int prev, int commit)
{
    int C = s->m->connections, pick = -1;
    if (s->m->queue_rule == GL_SCHED_QUEUE_STREAM) return stream == GL_SCHED_LEGACY ? 0 : (stream - 1) % C;
    if (s->m->queue_rule == GL_SCHED_QUEUE_SWITCH && stream == s->last_stream) pick = s->last_queue;
    if (pick < 0 && s->m->queue_rule == GL_SCHED_QUEUE_TAIL && prev >= 0) {
        /* Stay where the stream's last call went while nothing else was put behind it. */
        const queue *q = &s->q[s->p->ops[prev].queue];
        if (q->n > 0 && s->p->ops[q->fifo[q->n - 1]].stream == stream) pick = s->p->ops[prev].queue;
    }
    for (int i = 1; pick < 0 && i <= C; i++) {
        int c = (s->last_queue + i) % C;
        if (s->q[c].unfinished == 0) pick = c;
    }
    if (pick < 0) {
        pick = (s->last_queue + 1) % C;
        /* Not behind the record that was the latest entry, while it holds its queue (gl_sched.h, "Events"). */
        if (C > 1 && s->held_rec >= 0 && !s->os[s->held_rec].finished && pick == s->p->ops[s->held_rec].queue)
            pick = (pick + 1) % C;
    }
    if (commit) {
        s->last_stream = stream;
        s->last_queue = pick;
    }
    return pick;
}

/* The queue whose engine channel a stream's copies go to: where its last queue entry went, or before it has one
 * its own by number (which channel the driver gives such a stream is not measured; with one queue it is that). */
static int copy_home(const sim *s, int stream)
{
    int last = s->stream_queued[stream];
    return last >= 0 ? s->p->ops[last].queue : stream == GL_SCHED_LEGACY ? 0 : (stream - 1) % s->m->connections;
}

/* A host function behind an unfinished engine copy of direction d waits for every copy of d submitted before it
 * whose home is queue c, its own stream's (gl_sched.h, "Host functions"). A stream's earlier copy ends before its
 * later one (stream order), so, from the latest, only each stream's latest unfinished copy is waited for and
 * kept: the list stays as long as the streams with copies in flight, however many functions a loop issues. */
static void wait_homed_copies(sim *s, int d, int c)
{
    int *l = s->homed[d][c], n = s->hn[d][c], kept = n;
    s->stamp++;
    for (int i = n - 1; i >= 0; i--) { /* kept > i throughout: each write lands where was already read */
        int op = l[i], st = s->p->ops[op].stream;
        if (s->os[op].finished || s->seen[st] == s->stamp) continue;
        s->seen[st] = s->stamp;
        l[--kept] = op;
        add_dep(s, op);
    }
    if (kept > 0) memmove(l, l + kept, sizeof *l * (size_t)(n - kept));
    s->hn[d][c] = n - kept;
}

/* The call returns: work out what the op depends on and put it in its queue. */
static void submit(sim *s, int t)
{
    thread_state *th = &s->th[t];
    int op = th->ops[th->pc++];
    gl_sched_program *p = s->p;
    gl_sched_op *o = &p->ops[op];
    op_state *st = &s->os[op];
    th->calling = 0;
    o->submit_ns = s->now;
    st->order = s->submitted++;
    st->dep_first = s->n_deps;

    if (o->kind == GL_SCHED_HOST || o->kind == GL_SCHED_CREATE) {
        finish(s, op);
    } else if (o->kind == GL_SCHED_SYNC) {
        if (o->event >= 0)
            add_dep(s, s->event_last[o->event]);
        else if (o->stream >= 0)
            add_stream_dep(s, o->stream);
        else
            for (int i = 0; i < p->n_streams; i++) add_stream_dep(s, i);
        st->n_deps = s->n_deps - st->dep_first;
        th->blocked = op; /* finished when its dependencies are, in progress() */
    } else {
        const gl_sched_stream *ss = &p->streams[o->stream];
        int prev = s->stream_work[o->stream]; /* its stream's last op before it but records, -1: none */
        if (o->kind != GL_SCHED_RECORD) s->stream_work[o->stream] = op;
        st->chain_prev = o->chained ? s->stream_node[o->stream] : -1; /* a graph node's predecessor node */
        if (o->kind == GL_SCHED_LAUNCH || o->kind == GL_SCHED_COPY) s->stream_node[o->stream] = op;
        /* A record holds not its stream's next op (gl_sched.h, "Events"): that waits for the op before it. */
        if (o->kind == GL_SCHED_RECORD) add_stream_dep(s, o->stream);
        else add_dep(s, prev);
        add_dep(s, s->load); /* a lazy load holds back everything issued after it */
        if (o->kind == GL_SCHED_LOAD) {
            for (int i = 0; i < p->n_streams; i++) add_stream_dep(s, i);
            s->load = op;
        }
        if (ss->kind == GL_SCHED_STREAM_LEGACY) {
            for (int i = 0; i < p->n_streams; i++)
                if (gl_sched_stream_blocking(&p->streams[i])) add_stream_dep(s, i);
        } else if (gl_sched_stream_blocking(ss)) {
            add_stream_dep(s, GL_SCHED_LEGACY);
        }
        if (o->kind == GL_SCHED_WAIT) add_dep(s, s->event_last[o->event]);
        int behind_copy = prev >= 0 && !s->os[prev].finished && p->ops[prev].kind == GL_SCHED_COPY && p->ops[prev].queue < 0;
        if (o->kind == GL_SCHED_HOSTFN && behind_copy) /* its trigger goes in that copy's engine channel */
            wait_homed_copies(s, p->ops[prev].dir, copy_home(s, o->stream));
        st->n_deps = s->n_deps - st->dep_first;
        s->stream_last[o->stream] = op;
        if (o->kind == GL_SCHED_RECORD) s->event_last[o->event] = s->stream_rec[o->stream] = op;
        if (o->kind == GL_SCHED_LAUNCH) st->remaining = o->blocks;
        /* A record that holds its queue: a timed (or traced) one behind a running kernel of its stream. */
        int holds = o->kind == GL_SCHED_RECORD && o->timed && prev >= 0 && !s->os[prev].finished &&
                    p->ops[prev].kind == GL_SCHED_LAUNCH;
        if ((o->kind == GL_SCHED_RECORD && !holds) || o->kind == GL_SCHED_WAIT || o->kind == GL_SCHED_LOAD) {
            /* Not a queue entry: it moves no queue rule and holds no queue
             * (gl_sched.h, "Events"); it finishes once what it waits for has,
             * and a record also once the queue the rule gives it has let go
             * of everything put in it before. */
            o->queue = -1;
            if (o->kind == GL_SCHED_RECORD) {
                st->mark_queue = choose_queue(s, o->stream, s->stream_queued[o->stream], 0);
                st->mark_pos = s->q[st->mark_queue].n;
            }
        } else if (o->kind == GL_SCHED_HOSTFN && (prev < 0 || s->os[prev].finished || p->ops[prev].queue < 0 ||
                                              p->ops[prev].kind == GL_SCHED_HOSTFN)) {
            /* Only an unfinished queue entry of its own stream (a kernel) holds a host function in its queue:
             * behind what is no queue entry (an engine's copy, a wait, another function, which leaves its queue
             * for the driver's thread), or with its stream's work done at the call, it waits off the queues for
             * its stream and goes to the driver's thread (gl_sched.h, "Host functions"). */
            o->queue = -1;
        } else if (o->kind == GL_SCHED_COPY && !copy_queued(s->m, o)) {
            o->queue = -1; /* an engine's alone (gl_sched.h, "Engines") */
            gl_grow((void **)&s->wfifo[o->dir], &s->wcap[o->dir], s->wn[o->dir] + 1, sizeof **s->wfifo);
            s->wfifo[o->dir][s->wn[o->dir]++] = op;
            int home = copy_home(s, o->stream), d = o->dir;
            gl_grow((void **)&s->homed[d][home], &s->hcap[d][home], s->hn[d][home] + 1, sizeof **s->homed[d]);
            s->homed[d][home][s->hn[d][home]++] = op;
            if (gl_sched_copy_blocks_host(s->m, o)) th->blocked = op; /* the call returns when it has ended */
        } else { /* a queue entry; a record in it leaves the queue rule's memory alone, as every record does */
            o->queue = choose_queue(s, o->stream, s->stream_queued[o->stream], !holds);
            if (!holds) s->stream_queued[o->stream] = op;
            queue *q = &s->q[o->queue];
            gl_grow((void **)&q->fifo, &q->cap, q->n + 1, sizeof *q->fifo);
            q->fifo[q->n++] = op;
            q->unfinished++;
            s->held_rec = holds ? op : -1;
            if (q->n - q->head > s->max_depth) s->max_depth = q->n - q->head;
        }
        heap_push(s, s->now + gl_sched_arrival_ns(s->m, o), EV_ARRIVE, op, 0, 0);
    }
    host_next(s, t); /* nothing, when the thread waits */
}

static void copies_rerate(sim *s);
static void hostfn_ready(sim *s, int op);

/* ---- the device side: queues, the work distributor, SMs ------------------------------------------ */

/* A chained op's own cost after its predecessor node where the machine sets one (gl_sched.h "Blocks"), else 0: a
 * copy after a kernel, a kernel after a copy. */
static double graph_cost(const sim *s, const gl_sched_op *o, int pred)
{
    if (pred < 0) return 0;
    int after = s->p->ops[pred].kind;
    if (o->kind == GL_SCHED_COPY && after == GL_SCHED_LAUNCH) return s->m->graph_copy_after_kernel_ns;
    if (o->kind == GL_SCHED_LAUNCH && after == GL_SCHED_COPY) return s->m->graph_kernel_after_copy_ns;
    return 0;
}

/* Whether op begins a conditional body again behind its predecessor node, with the machine's restart to take. */
static int restarts(const sim *s, int op)
{
    return s->p->ops[op].chained == 2 && s->os[op].chain_prev >= 0 && s->m->graph_restart_ns > 0;
}

/* A kernel's dispatch when its queue lets it go (dispatch: the queue's): a conditional body's node that begins the
 * body again takes the machine's restart where set; a graph's chained kernel takes the graph's, behind a kernel
 * node, or behind a copy node where the graph's cost after a copy is set too (that cost was fitted less this
 * dispatch). */
static double kernel_dispatch(const sim *s, int op, double dispatch)
{
    int pred = s->p->ops[op].chained ? s->os[op].chain_prev : -1;
    if (restarts(s, op)) return s->m->graph_restart_ns;
    if (pred < 0 || !(s->m->graph_dispatch_ns > 0)) return dispatch;
    return s->p->ops[pred].kind == GL_SCHED_LAUNCH || graph_cost(s, &s->p->ops[op], pred) > 0
               ? s->m->graph_dispatch_ns
               : dispatch;
}

/* Whether the costs of op's dependencies between a copy and a kernel have passed (gl_sched.h, "Engines"): an
 * H2D or D2H starts copy_after_kernel_ns after a kernel it waits for ends, and an engine's H2D or D2H as long after
 * a queue copy (a D2D, a memset, an inline pageable H2D: the engine learns of either's end alike; a queue copy
 * behind one is in the same queue, measured nothing); a kernel goes kernel_after_copy_ns after such a copy ends.
 * A graph's chained node takes its graph's cost after its predecessor node instead, where the machine sets one
 * (graph_cost), whatever lies between them in its stream (a wait on another stream's node); a conditional body's
 * kernel that begins the body again, none: its restart (kernel_dispatch) is the whole time from that node's end. If
 * not passed, the simulation looks again when they have. */
static int dep_costs_passed(sim *s, int op)
{
    const gl_sched_op *o = &s->p->ops[op];
    op_state *st = &s->os[op];
    int pred = o->chained ? st->chain_prev : -1;
    int restart = restarts(s, op); /* its restart holds it all */
    double graph = restart ? 0 : graph_cost(s, o, pred);
    double ok = graph > 0 ? s->p->ops[pred].end_ns + graph : -INFINITY;
    for (int i = 0; i < st->n_deps; i++) {
        int dep = s->deps[st->dep_first + i];
        const gl_sched_op *d = &s->p->ops[dep];
        if ((graph > 0 || restart) && dep == pred) continue; /* its graph's cost, above, or its restart */
        if (o->kind == GL_SCHED_COPY && o->dir < 2 &&
            (d->kind == GL_SCHED_LAUNCH || (d->kind == GL_SCHED_COPY && d->queue >= 0 && !copy_queued(s->m, o))))
            ok = fmax(ok, d->end_ns + s->m->copy_after_kernel_ns[o->dir]);
        else if (o->kind == GL_SCHED_LAUNCH && d->kind == GL_SCHED_COPY && d->dir < 2)
            ok = fmax(ok, d->end_ns + s->m->kernel_after_copy_ns[d->dir]);
    }
    if (s->now >= ok) return 1;
    if (st->cost_wake != ok) heap_push(s, ok, EV_WAKE, -1, -1, 0);
    st->cost_wake = ok;
    return 0;
}

/* Whether the queue's head may leave now. */
static int head_ready(sim *s, const queue *q)
{
    if (q->head >= q->n || q->holding >= 0 || s->now < q->next_ns) return 0;
    int op = q->fifo[q->head];
    if (!s->os[op].arrived) return 0;
    if (!deps_done(s, op) || !dep_costs_passed(s, op)) return 0;
    if (s->p->ops[op].kind == GL_SCHED_LAUNCH && s->resident >= s->m->resident_grids) return 0;
    if (s->p->ops[op].kind == GL_SCHED_COPY && !copy_inline(s->m, &s->p->ops[op]) &&
        s->copying[s->p->ops[op].dir] >= s->m->copy_engines[s->p->ops[op].dir])
        return 0; /* a copy holds its queue's head until an engine of its direction is free */
    return 1;
}

/* The dispatch latency for the number of chains in progress: the distinct
 * streams among the queue heads, taken before any of them goes at this
 * instant. A stream spread over several queues (issued breadth-first) counts
 * once. A head counts from its submission (it may still be on its way): what
 * matters is which streams have kernels queued, so a record holding a head
 * (gl_sched.h "Events"; waits are no entries) counts for none. */
static double dispatch_now(const sim *s)
{
    int seen[GL_SCHED_MAX_QUEUES], n = 0;
    for (int c = 0; c < s->m->connections; c++) {
        const queue *q = &s->q[c];
        if (q->head >= q->n || s->p->ops[q->fifo[q->head]].kind == GL_SCHED_RECORD) continue;
        int st = s->p->ops[q->fifo[q->head]].stream, dup = 0;
        for (int i = 0; i < n && !dup; i++) dup = seen[i] == st;
        if (!dup) seen[n++] = st;
    }
    double d = s->m->dispatch_busy_ns[n];
    return d > 0 ? d : s->m->dispatch_ns;
}

/* Let ready heads go, the earliest-submitted first (they compete for resident places); with ranked_races, where
 * that one is ranked, the ready head ranked first (gl_sched.h "Heads": whichever queues the heads are in, the same
 * one goes). */
static int advance_queues(sim *s)
{
    int moved = 0;
    double dispatch = dispatch_now(s);
    for (;;) {
        int first = -1, ranked = -1, first_op = -1, rank_min = 0; /* by submission order; the head ranked first */
        for (int c = 0; c < s->m->connections; c++) {
            queue *q = &s->q[c];
            if (!head_ready(s, q)) continue;
            int op = q->fifo[q->head], rank = s->p->ops[op].rank;
            if (first < 0 || s->os[op].order < s->os[first_op].order) first = c, first_op = op;
            if (s->m->ranked_races && rank > 0 && (ranked < 0 || rank < rank_min)) ranked = c, rank_min = rank;
        }
        if (first < 0) break;
        int best = first;
        if (ranked >= 0 && ranked != first && s->p->ops[first_op].rank > 0) best = ranked, s->ranked++;
        queue *q = &s->q[best];
        int op = q->fifo[q->head++];
        gl_sched_op *o = &s->p->ops[op];
        o->go_ns = s->now;
        moved = 1;
        if (s->m->queue_entry_ns > 0) q->next_ns = s->now + s->m->queue_entry_ns;
        if (o->kind == GL_SCHED_LAUNCH) {
            s->resident++;
            if (s->resident > s->max_resident) s->max_resident = s->resident;
            if (s->m->release_rule == GL_SCHED_RELEASE_DISPATCHED) q->holding = op;
            s->os[op].accept_ns = s->now + kernel_dispatch(s, op, dispatch);
            if (s->m->ranked_races) {
                gl_grow((void **)&s->accepting, &s->cap_accepting, s->n_accepting + 1, sizeof *s->accepting);
                s->accepting[s->n_accepting++] = op;
            }
            heap_push(s, s->os[op].accept_ns, EV_ACCEPT, op, 0, 0);
        } else if (copy_on_sms(s->m, o)) { /* the driver's grid: one block that needs room on an SM */
            s->copying[o->dir]++; /* its engine's turn, from here to its end, its wait for room included */
            double t = gl_sched_op_copy_ns(s->m, o);
            s->os[op].sm_ns = fmax(0, t - dispatch - s->m->block_overrun_ns); /* alone it takes t from here */
            s->os[op].remaining = 1;
            heap_push(s, s->now + dispatch, EV_ACCEPT, op, 0, 0);
        } else if (o->kind == GL_SCHED_COPY) { /* an engine takes it now, for its latency and its bytes */
            if (!copy_inline(s->m, o)) s->copying[o->dir]++;
            if (o->dir < 2) s->linked[o->dir]++; /* a small pageable H2D, from the staging buffer */
            o->start_ns = s->now;
            heap_push(s, s->now + gl_sched_op_copy_ns(s->m, o), EV_COPIED, op,
                      0, 0);
            copies_rerate(s); /* an H2D or D2H here shares the link with the engine copies */
        } else if (o->kind == GL_SCHED_HOSTFN) { /* handed to the driver's thread; its queue moves on */
            hostfn_ready(s, op);
        } else { /* an entry of another kind (a record that held its queue) ends as it leaves */
            finish(s, op);
        }
    }
    /* A queue inside its time per entry looks again when that time is up,
     * whatever arrives or finishes in between. */
    for (int c = 0; c < s->m->connections; c++) {
        queue *q = &s->q[c];
        if (s->now < q->next_ns && q->wake_ns != q->next_ns) {
            heap_push(s, q->next_ns, EV_WAKE, -1, c, 0);
            q->wake_ns = q->next_ns;
        }
    }
    return moved;
}

/* Priority first (lower is more urgent), then the order kernels and SM copies were accepted. */
static void cwd_insert(sim *s, int op)
{
    gl_grow((void **)&s->cwd, &s->cap_cwd, s->n_cwd + 1, sizeof *s->cwd);
    int prio = s->p->streams[s->p->ops[op].stream].priority, i = s->n_cwd;
    while (i > 0 && s->p->streams[s->p->ops[s->cwd[i - 1]].stream].priority > prio) {
        s->cwd[i] = s->cwd[i - 1];
        i--;
    }
    s->cwd[i] = op;
    s->n_cwd++;
}

/* A kernel reaching the work distributor now, where another that a replay ranks before it (gl_sched_op.rank) is due
 * there within queue_entry_ns (the one behind it in its queue, say): returns 0 and puts its arrival at the latest
 * such one's, after it, so that the distributor hands that one's blocks out first (gl_sched.h "Heads"); else takes
 * it off the kernels on their way there and returns 1. */
static int accept_race(sim *s, int op)
{
    int k = -1, rank = s->p->ops[op].rank;
    double until = -1;
    for (int i = 0; i < s->n_accepting; i++) {
        int b = s->accepting[i], rb = s->p->ops[b].rank;
        if (b == op) k = i;
        else if (rank > 0 && rb > 0 && rb < rank && s->os[b].accept_ns <= s->now + s->m->queue_entry_ns)
            until = fmax(until, s->os[b].accept_ns);
    }
    if (until >= s->now) {
        s->ranked += !s->os[op].deferred; /* once a kernel */
        s->os[op].deferred = 1;
        s->os[op].accept_ns = until;
        heap_push(s, until, EV_ACCEPT, op, 0, 0); /* scheduled after theirs: at one time, it goes after them */
        return 0;
    }
    if (k >= 0) s->accepting[k] = s->accepting[--s->n_accepting]; /* every kernel on its way is listed */
    return 1;
}

/* The sharing groups' clock, brought up to now. */
static void share_clock(sim *s)
{
    if (s->now > s->share_since) s->share_work += (s->now - s->share_since) * s->share_rate;
    s->share_since = s->now;
}

/* The running sharing groups' speed for the load now, and one event for the first of them to end. */
static void share_schedule(sim *s)
{
    share_clock(s);
    s->share_rate = 1.0 / gl_sched_share_slowdown(s->share_load / s->m->sms);
    s->share_version++;
    if (s->n_running_groups > 0) {
        double left = s->groups[s->running_groups[0]].done_at - s->share_work;
        heap_push(s, s->now + fmax(0, left) / s->share_rate, EV_SHARED, -1, -1, s->share_version);
    }
}

static int group_before(const sim *s, int a, int b) { return s->groups[a].done_at < s->groups[b].done_at; }

static void group_push(sim *s, int g)
{
    gl_grow((void **)&s->running_groups, &s->cap_running_groups, s->n_running_groups + 1, sizeof(int));
    int i = s->n_running_groups++;
    while (i > 0 && group_before(s, g, s->running_groups[(i - 1) / 2])) {
        s->running_groups[i] = s->running_groups[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->running_groups[i] = g;
}

static int group_pop(sim *s)
{
    int top = s->running_groups[0], last = s->running_groups[--s->n_running_groups], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= s->n_running_groups) break;
        if (c + 1 < s->n_running_groups && group_before(s, s->running_groups[c + 1], s->running_groups[c])) c++;
        if (!group_before(s, s->running_groups[c], last)) break;
        s->running_groups[i] = s->running_groups[c];
        i = c;
    }
    if (s->n_running_groups > 0) s->running_groups[i] = last;
    return top;
}

/* A sharing kernel's blocks, spread: each round gives one block to each SM with room, in turn, until none is left
 * or none has room, as the hardware spreads a grid over the SMs. They run as one group from now: the distributor's
 * time to hand them out (block_dispatch_ns apiece, 0.1 ns in the replay) runs at the shared speed too. Nothing,
 * where the free slots add up to a block but no SM has one. */
static void dispatch_shared(sim *s, int op)
{
    gl_sched_op *o = &s->p->ops[op];
    op_state *st = &s->os[op];
    double share = 1.0 / o->blocks_per_sm;
    int room = 0;
    for (int sm = 0; sm < s->m->sms && !room; sm++) room = s->sm_free[sm] + 1e-9 >= share;
    if (!room) return;
    int g;
    if (s->n_free_groups > 0) {
        g = s->free_groups[--s->n_free_groups];
    } else {
        gl_grow((void **)&s->groups, &s->cap_groups, s->n_groups + 1, sizeof *s->groups);
        g = s->n_groups++;
        memset(&s->groups[g], 0, sizeof s->groups[g]);
    }
    shared_group *G = &s->groups[g];
    int n = 0;
    for (int placed = 1; placed && st->remaining > n;) {
        placed = 0;
        for (int sm = 0; sm < s->m->sms && st->remaining > n; sm++) {
            if (s->sm_free[sm] + 1e-9 < share) continue;
            gl_grow((void **)&G->sms, &G->cap_sms, n + 1, sizeof *G->sms);
            G->sms[n++] = sm;
            s->sm_free[sm] -= share;
            s->free_sum -= share;
            placed = 1;
        }
    }
    double first = fmax(s->now, s->cwd_busy);
    s->cwd_busy = first + n * s->m->block_dispatch_ns;
    if (st->running == 0 && st->remaining == o->blocks) o->start_ns = first;
    st->remaining -= n;
    st->running += n;
    share_clock(s);
    G->op = op, G->n = n;
    G->done_at = s->share_work + (first - s->now) + (n - 1) * s->m->block_dispatch_ns + o->block_ns +
                 s->m->block_overrun_ns;
    group_push(s, g);
    s->share_load += n * o->sm_demand;
    share_schedule(s);
}

/* Hand blocks to free SM slots, oldest kernel first; a kernel with blocks left
 * holds back the kernels after it. An SM copy is one block in this line too
 * (gl_sched.h "SM copies"). */
static int dispatch(sim *s)
{
    int moved = 0, kept = 0;
    int i;
    for (i = 0; i < s->n_cwd; i++) {
        int op = s->cwd[i];
        gl_sched_op *o = &s->p->ops[op];
        op_state *st = &s->os[op];
        int sm_copy = o->kind == GL_SCHED_COPY, blocks = sm_copy ? 1 : o->blocks; /* an SM copy is one block */
        double share = sm_copy ? s->m->sm_copy_share : 1.0 / o->blocks_per_sm;
        double block_ns = sm_copy ? st->sm_ns : o->block_ns;
        int shares = !sm_copy && o->sm_demand > 0, before = st->remaining; /* "Sharing": spread over the SMs */
        if (shares && st->remaining > 0 && s->free_sum + 1e-9 >= share) dispatch_shared(s, op);
        moved |= st->remaining < before;
        for (int sm = 0; !shares && sm < s->m->sms && st->remaining > 0 && s->free_sum + 1e-9 >= share; sm++) {
            int n = (int)floor((s->sm_free[sm] + 1e-9) / share);
            if (n <= 0) continue;
            if (n > st->remaining) n = st->remaining;
            /* The distributor hands these n blocks out one after another; the
             * slots stay taken until the last of them ends. */
            double first = fmax(s->now, s->cwd_busy);
            s->cwd_busy = first + n * s->m->block_dispatch_ns;
            if (st->running == 0 && st->remaining == blocks) o->start_ns = first;
            s->sm_free[sm] -= n * share;
            s->free_sum -= n * share;
            st->remaining -= n;
            st->running += n;
            double end = first + (n - 1) * s->m->block_dispatch_ns + block_ns + s->m->block_overrun_ns;
            heap_push(s, end, EV_BLOCKS, op, sm, n);
            moved = 1;
        }
        if (st->remaining > 0) break;
        /* All its blocks are out: a queue waiting on that may move on. */
        if (s->m->release_rule == GL_SCHED_RELEASE_DISPATCHED && s->q[o->queue].holding == op)
            s->q[o->queue].holding = -1; /* only a kernel holds its queue so: an SM copy left it as it went */
    }
    /* Drop the entries that have no blocks left. */
    for (int j = 0; j < s->n_cwd; j++)
        if (j >= i || s->os[s->cwd[j]].remaining > 0) s->cwd[kept++] = s->cwd[j];
    s->n_cwd = kept;
    return moved;
}

/* ---- host functions on the driver's thread (gl_sched.h "Host functions") ---------------------------- */

/* Start the waiting host function that became ready first (hostfns holds them in that order), if the driver's
 * thread may take one now. */
static void hostfn_next(sim *s)
{
    while (s->hostfn_head < s->n_hostfns && !(s->m->hostfn_serial && s->hostfn_busy > 0)) {
        int op = s->hostfns[s->hostfn_head++];
        gl_sched_op *o = &s->p->ops[op];
        s->hostfn_busy++;
        o->start_ns = s->now;
        heap_push(s, s->now + s->m->hostfn_ns + o->block_ns, EV_HOSTFN, op, 0, 0);
    }
    if (s->hostfn_head == s->n_hostfns) s->hostfn_head = s->n_hostfns = 0;
    if (s->n_hostfns == 0 && s->hostfn_busy == 0 && s->driver_awake) { /* nothing left: it sleeps again */
        s->driver_awake = 0;
        s->driver_idle_ns = s->now;
    }
}

/* A host function left its queue's head: the driver's thread takes it at once if awake, or after waking. */
static void hostfn_ready(sim *s, int op)
{
    gl_grow((void **)&s->hostfns, &s->cap_hostfns, s->n_hostfns + 1, sizeof *s->hostfns);
    s->hostfns[s->n_hostfns++] = op;
    /* Ready as the thread found nothing left, in that instant (its stream's function just returned): it has not
     * slept, and takes this one at once (validate-replay's random 2 at C=8: two functions of one stream ran in one
     * stretch of the driver's thread, 2.2 ms, with no switch between). */
    if (s->driver_idle_ns == s->now) s->driver_awake = 1;
    if (s->driver_awake || s->hostfn_busy > 0) {
        hostfn_next(s);
    } else if (!s->driver_waking) {
        s->driver_waking = 1;
        double wake = s->p->ops[op].wake_ns > 0 ? s->p->ops[op].wake_ns : s->m->hostfn_wake_ns; /* its own, if any */
        heap_push(s, s->now + fmax(0, wake - s->m->hostfn_ns), EV_DRIVER, -1, 0, 0);
    }
}

/* ---- the copy engines' own copies (gl_sched.h "Engines") ------------------------------------------ */

/* An H2D's or D2H's speed while the other direction runs, against its speed alone (gl_sched.h, "Engines"): its
 * time alone over that plus what sharing adds to a pinned copy of its size (the shared link's line less the time
 * alone; without a time per copy measured, the bandwidths' ratio scales it). A copy of no time ends at once. */
static double bidir_rate(const gl_sched_machine *m, const gl_sched_op *o, double full_ns)
{
    int d = o->dir;
    double alone = gl_sched_copy_ns(m, d, o->bytes);
    double shared = m->copy_bidir_latency_ns[d] > 0 ? m->copy_bidir_latency_ns[d] + o->bytes / m->copy_bidir_gbps[d]
                                                     : alone * m->copy_gbps[d] / m->copy_bidir_gbps[d];
    /* The link adds shared - alone to a pinned copy's time; a pageable one (full_ns its own, the host's pace) is
     * slowed by the same, its DMA's, not scaled: its staging memcpy does not share the link. */
    return full_ns > 0 ? full_ns / (full_ns + fmax(0, shared - alone)) : 1;
}

/* Bring each running engine copy's time left up to now, and give it its speed from now on: the shared
 * link's when the opposite direction runs too, none for a pageable copy the host waits for while an engine
 * copy of its direction runs (its next piece waits behind that copy; gl_sched.h "Pageable"). A fresh
 * EV_COPIED replaces the one before; a copy at no speed has none until its speed changes. */
static void copies_rerate(sim *s)
{
    const gl_sched_machine *m = s->m;
    for (int i = 0; i < s->n_running; i++) {
        int op = s->running[i];
        op_state *st = &s->os[op];
        const gl_sched_op *o = &s->p->ops[op];
        st->left_ns -= (s->now - st->since_ns) * st->rate;
        st->since_ns = s->now;
        double rate = s->linked[1 - o->dir] > 0 ? bidir_rate(m, o, st->full_ns) : 1;
        if (gl_sched_copy_blocks_host(m, o) && s->copying[o->dir] > 0) rate = 0;
        if (rate > 0 && (st->rate == 0 || st->version == 0)) { /* it (re)starts: a piece goes, whole ("Pageable") */
            st->piece_ns[0] = s->now;
            st->piece_ns[1] = s->now + fmin(m->pageable_piece_ns, fmax(0, st->left_ns) / rate);
            /* One that waited from its start for an engine copy begins with its first piece, as a trace has it */
            if (st->version > 0 && st->left_ns >= st->full_ns) s->p->ops[op].start_ns = s->now;
        }
        if (rate == st->rate && st->version > 0) continue;
        st->rate = rate;
        ++st->version;
        if (rate > 0) heap_push(s, s->now + fmax(0, st->left_ns) / rate, EV_COPIED, op, 0, st->version);
    }
}

/* The copy of direction d that may take an engine now, -1 if none: the first-submitted ready one whose
 * dependencies' costs have passed; where d goes in order, only the first-submitted one not started. */
static double piece_in_flight(const sim *s, int d);

static int copy_candidate(sim *s, int d)
{
    int busy = s->copying[d] >= s->m->copy_engines[d]; /* then only a copy that takes no engine may go */
    /* A piece of a pageable copy of d in flight goes whole before an engine copy of d ("Pageable"). */
    double piece = d < 2 ? piece_in_flight(s, d) : 0;
    if (piece > s->now) {
        busy = 1;
        if (s->piece_wake[d] != piece) heap_push(s, piece, EV_WAKE, -1, -1, 0);
        s->piece_wake[d] = piece;
    }
    if (d < 2 && s->m->copy_in_order[d]) {
        while (s->whead[d] < s->wn[d] && s->os[s->wfifo[d][s->whead[d]]].started) s->whead[d]++;
        if (s->whead[d] == s->wn[d]) return -1;
        int c = s->wfifo[d][s->whead[d]];
        if (s->os[c].ready && dep_costs_passed(s, c) && (!busy || copy_inline(s->m, &s->p->ops[c]))) return c;
        /* A pinned H2D that goes beside the engine's copy keeps no order: it goes once ready, though it holds
         * the later ones back while it waits (probe-h2d-order, C=1: a 4 KiB one passed another stream's held
         * H2D, and a 64 KiB one waited behind a held 4 KiB one). */
        for (int i = 0; d == GL_SCHED_H2D && s->m->pinned_beside_bytes > 0 && i < s->rn[d]; i++) /* none else */
            if (copy_beside(s->m, &s->p->ops[s->ready[d][i]]) && dep_costs_passed(s, s->ready[d][i]))
                return s->ready[d][i];
        return -1;
    }
    for (int i = 0; i < s->rn[d]; i++)
        if (dep_costs_passed(s, s->ready[d][i]) && (!busy || copy_inline(s->m, &s->p->ops[s->ready[d][i]])))
            return s->ready[d][i];
    return -1;
}

/* When the latest-ending piece in flight of a pageable copy of direction d the host waits for ends (0: none). A
 * piece that begins now has not begun for an engine copy ready now: that one goes first ("Pageable"). */
static double piece_in_flight(const sim *s, int d)
{
    double end = 0;
    for (int i = 0; i < s->n_running; i++) {
        int op = s->running[i];
        const gl_sched_op *o = &s->p->ops[op];
        const op_state *st = &s->os[op];
        if (o->dir == d && st->rate > 0 && st->piece_ns[0] < s->now && gl_sched_copy_blocks_host(s->m, o))
            end = fmax(end, st->piece_ns[1]);
    }
    return end;
}

/* Give free engines the ready copies, first-issued first. */
static int copies_start(sim *s)
{
    int moved = 0;
    for (;;) {
        int best = -1;
        for (int d = 0; d < GL_SCHED_DIRS; d++) {
            int c = copy_candidate(s, d);
            if (c >= 0 && (best < 0 || s->os[c].order < s->os[best].order)) best = c;
        }
        if (best < 0) break;
        gl_sched_op *o = &s->p->ops[best];
        op_state *st = &s->os[best];
        const gl_sched_machine *m = s->m;
        int d = o->dir, k = 0;
        while (s->ready[d][k] != best) k++; /* off the ready list, which stays in order */
        memmove(&s->ready[d][k], &s->ready[d][k + 1], sizeof **s->ready * (size_t)(--s->rn[d] - k));
        st->ready = 0;
        st->started = 1;
        gl_grow((void **)&s->running, &s->cap_running, s->n_running + 1, sizeof *s->running);
        s->running[s->n_running++] = best;
        st->left_ns = gl_sched_op_copy_ns(m, o); /* its own, timed before the run or recorded (a replay), or the
                                                  * machine's: the host's pageable pace for one the host waits for */
        st->since_ns = s->now;
        st->rate = 1;
        o->go_ns = o->start_ns = s->now;
        st->full_ns = st->left_ns;
        if (!copy_inline(m, o)) s->copying[o->dir]++;
        s->linked[o->dir]++;
        moved = 1;
    }
    if (moved) copies_rerate(s);
    return moved;
}

/* Whether a record's queue has let go of every entry put in it before the record (other ops: yes). */
static int mark_reached(const sim *s, int op)
{
    const op_state *st = &s->os[op];
    if (st->mark_queue < 0) return 1;
    const queue *q = &s->q[st->mark_queue];
    return q->head > st->mark_pos || (q->head == st->mark_pos && q->holding < 0);
}

/* Apply every rule at the current time until nothing more can happen now. */
static void progress(sim *s)
{
    for (;;) {
        int moved = 0;
        for (int t = 0; t < s->p->n_threads; t++) {
            thread_state *th = &s->th[t];
            int b = th->blocked;
            int sync = b >= 0 && s->p->ops[b].kind == GL_SCHED_SYNC;
            double wake = !sync ? 0 : s->p->ops[b].wake_ns > 0 ? s->p->ops[b].wake_ns
                                    : s->p->ops[b].wake_ns < 0 ? 0 : s->m->sync_return_ns;
            if (sync && isnan(th->sync_done_ns) && deps_done(s, b)) {
                /* Its target is done: a call that waited returns once its thread wakes; one that found it done,
                 * at once; either the setting's extra later (never before now). */
                double after = fmax(0, (s->now > s->p->ops[b].submit_ns ? wake : 0) + gl_sched_sync_extra_ns(s->m));
                th->sync_done_ns = s->now + after;
                if (after > 0) heap_push(s, th->sync_done_ns, EV_WAKE, -1, -1, 0);
            }
            if (b >= 0 && (sync ? s->now >= th->sync_done_ns : s->os[b].finished)) {
                if (s->p->ops[b].kind == GL_SCHED_SYNC) finish(s, b);
                th->blocked = -1;
                th->sync_done_ns = NAN;
                moved = 1;
                host_next(s, t);
            } else if (!th->calling && b < 0 && th->pc < th->n && /* idle: parked, as host_next leaves no other */
                       call_free(s, th->ops[th->pc])) {
                moved = 1;
                host_next(s, t);
            }
        }
        for (int i = 0; i < s->n_pending; i++) {
            int op = s->pending[i];
            if (!deps_done(s, op) || !mark_reached(s, op)) continue;
            if (s->p->ops[op].kind == GL_SCHED_LOAD) { /* it loads now, and finishes later */
                s->os[op].started = 1;
                s->p->ops[op].start_ns = s->now;
                heap_push(s, s->now + s->m->load_ns, EV_LOADED, op, 0, 0);
            } else if (s->p->ops[op].kind == GL_SCHED_HOSTFN) { /* off the queues: its stream is done */
                s->p->ops[op].go_ns = s->now;
                hostfn_ready(s, op);
            } else {
                finish(s, op);
            }
            s->pending[i--] = s->pending[--s->n_pending];
            moved = 1;
        }
        moved |= copies_start(s);
        moved |= advance_queues(s);
        moved |= dispatch(s);
        if (!moved) return;
    }
}

/* n blocks of op (a kernel, or a copy on the SMs) ended on an SM: their slots are free, and the op may be done. */
static void blocks_end(sim *s, int op, int sm, int n)
{
    op_state *st = &s->os[op];
    const gl_sched_op *o = &s->p->ops[op];
    double share = o->kind == GL_SCHED_COPY ? s->m->sm_copy_share : 1.0 / o->blocks_per_sm;
    s->sm_free[sm] += n * share;
    s->free_sum += n * share;
    st->running -= n;
    if (st->running == 0 && st->remaining == 0) {
        if (o->kind == GL_SCHED_LAUNCH) s->resident--;
        else s->copying[o->dir]--; /* a copy on the SMs: its engine's turn ends */
        finish(s, op);
    }
}

/* Apply one event's immediate effect; progress() draws the consequences. */
static void handle(sim *s, const event *e)
{
    switch (e->kind) {
    case EV_HOST:
        submit(s, e->op);
        break;
    case EV_ARRIVE:
        s->os[e->op].arrived = 1;
        if (s->p->ops[e->op].queue < 0) op_watch(s, e->op); /* no queue entry: an engine copy, a record, a wait.. */
        break;
    case EV_WAKE: /* a queue may move on now, or a thread waking from a sync return */
        break;
    case EV_COPIED:
        if (e->n != s->os[e->op].version) break; /* an engine copy's speed changed since */
        if (!copy_inline(s->m, &s->p->ops[e->op])) s->copying[s->p->ops[e->op].dir]--;
        if (s->p->ops[e->op].dir < 2) s->linked[s->p->ops[e->op].dir]--;
        finish(s, e->op);
        if (s->p->ops[e->op].queue < 0) /* an engine copy: off the running list */
            for (int i = 0; i < s->n_running; i++)
                if (s->running[i] == e->op) s->running[i] = s->running[--s->n_running];
        copies_rerate(s); /* the others' speeds anew */
        break;
    case EV_HOSTFN:
        s->hostfn_busy--;
        finish(s, e->op);
        hostfn_next(s); /* the driver's thread, awake, takes the next one at once */
        break;
    case EV_DRIVER: /* the driver's thread has woken */
        s->driver_waking = 0;
        s->driver_awake = 1;
        hostfn_next(s);
        break;
    case EV_LOADED:
        finish(s, e->op);
        break;
    case EV_ACCEPT:
        if (s->p->ops[e->op].kind == GL_SCHED_LAUNCH && s->m->ranked_races && !accept_race(s, e->op))
            break; /* it goes later */
        cwd_insert(s, e->op);
        break;
    case EV_BLOCKS:
        blocks_end(s, e->op, e->sm, e->n);
        break;
    case EV_SHARED: {
        if (e->n != s->share_version) break; /* the load changed since: a later event is the live one */
        share_clock(s);
        /* every group that has done its work (within rounding) ends now */
        while (s->n_running_groups > 0 &&
               s->groups[s->running_groups[0]].done_at <= s->share_work * (1 + 1e-12) + 1e-6) {
            int g = group_pop(s);
            shared_group *G = &s->groups[g];
            s->share_load -= G->n * s->p->ops[G->op].sm_demand;
            if (s->share_load < 1e-9) s->share_load = 0; /* no drift below an empty GPU */
            for (int k = 0; k < G->n; k++) blocks_end(s, G->op, G->sms[k], 1);
            gl_grow((void **)&s->free_groups, &s->cap_free_groups, s->n_free_groups + 1, sizeof(int));
            s->free_groups[s->n_free_groups++] = g;
        }
        share_schedule(s); /* the others speed up */
        break;
    }
    }
}

/* Printf into err, when there is room for it. */
static int fail(char *err, int errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, (size_t)errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Free the simulation's state (not the program). */
static void sim_free(sim *s)
{
    for (int c = 0; s->q && c < s->m->connections; c++) free(s->q[c].fifo);
    for (int t = 0; s->th && t < s->p->n_threads; t++) free(s->th[t].ops);
    free(s->heap);
    free(s->os);
    free(s->deps);
    free(s->q);
    free(s->th);
    free(s->stream_last);
    free(s->stream_queued);
    free(s->stream_work), free(s->stream_node);
    free(s->stream_rec);
    free(s->event_last);
    free(s->sm_free);
    for (int g = 0; g < s->n_groups; g++) free(s->groups[g].sms);
    free(s->groups), free(s->running_groups), free(s->free_groups);
    free(s->cwd);
    free(s->accepting);
    free(s->pending);
    for (int d = 0; d < GL_SCHED_DIRS; d++) {
        free(s->wfifo[d]), free(s->ready[d]);
        for (int c = 0; c < GL_SCHED_MAX_QUEUES; c++) free(s->homed[d][c]);
    }
    free(s->running);
    free(s->watch_head);
    free(s->seen);
    free(s->hostfns);
}

/* A duration the machine or a program may hold: finite, not negative. */
static int a_time(double x) { return x >= 0 && x < INFINITY; }

/* Refuse what the simulation cannot run, before running it. */
static int validate(const gl_sched_program *p, const gl_sched_machine *m, char *err, int errlen)
{
    if (m->connections < 1 || m->connections > GL_SCHED_MAX_QUEUES)
        return fail(err, errlen, "the machine has %d queues (1..%d)", m->connections, GL_SCHED_MAX_QUEUES);
    if (m->sms < 1) return fail(err, errlen, "the machine has %d SMs", m->sms);
    if (m->resident_grids < 1) return fail(err, errlen, "the machine holds %d resident grids", m->resident_grids);
    for (int d = 0; d < GL_SCHED_DIRS; d++)
        if (!(m->copy_latency_ns[d] >= 0 && (d >= 2 || m->pageable_latency_ns[d] >= 0)))
            return fail(err, errlen, "the machine's copy latency %d is %g ns (pageable: %g)", d, m->copy_latency_ns[d],
                        d < 2 ? m->pageable_latency_ns[d] : 0);
    for (int d = 0; d < 2; d++)
        if (!(m->copy_bidir_latency_ns[d] >= 0 && m->copy_after_kernel_ns[d] >= 0 && m->kernel_after_copy_ns[d] >= 0))
            return fail(err, errlen, "the machine's shared-link time per copy (%g ns) or a copy-kernel cost (%g, %g ns) "
                        "of direction %d is not a time", m->copy_bidir_latency_ns[d], m->copy_after_kernel_ns[d],
                        m->kernel_after_copy_ns[d], d);
    if (!a_time(m->graph_restart_ns))
        return fail(err, errlen, "the machine's restart of a conditional body (%g ns) is not a time",
                    m->graph_restart_ns);
    if (!(a_time(m->graph_dispatch_ns) && a_time(m->graph_copy_after_kernel_ns) &&
          a_time(m->graph_kernel_after_copy_ns)))
        return fail(err, errlen, "the machine's graph dispatch (%g ns) or copy costs (%g, %g ns) are not times",
                    m->graph_dispatch_ns, m->graph_copy_after_kernel_ns, m->graph_kernel_after_copy_ns);
    if (!(m->hostfn_ns >= 0 && m->hostfn_wake_ns >= 0 && m->load_ns >= 0))
        return fail(err, errlen, "the machine's host function (%g, waking %g ns) or load (%g ns) time is not a time",
                    m->hostfn_ns, m->hostfn_wake_ns, m->load_ns);
    /* A share over one SM would never be placed, and a vanishing one overflows the block count ("SM copies"). */
    if (!((m->sm_copy_share == 0 || (m->sm_copy_share >= 1e-6 && m->sm_copy_share <= 1)) && m->sm_memset_bytes >= 0))
        return fail(err, errlen, "the machine's SM copies need %g of an SM (0, or 1e-6..1), memsets over %g bytes",
                    m->sm_copy_share, m->sm_memset_bytes);
    if (!(m->pageable_piece_ns >= 0))
        return fail(err, errlen, "the machine's pageable piece (%g ns) is not a time", m->pageable_piece_ns);
    if (!a_time(m->pageable_d2h_handover_ns))
        return fail(err, errlen, "the machine's staging handover (%g ns) is not a time", m->pageable_d2h_handover_ns);
    if (!a_time(m->sync_return_ns))
        return fail(err, errlen, "the machine's return after a synchronization (%g ns) is not a time",
                    m->sync_return_ns);
    if (!a_time(m->copy_arrive_ns))
        return fail(err, errlen, "the machine's copy arrival (%g ns) is not a time", m->copy_arrive_ns);
    if (!(fabs(m->sync_connection_ns) < INFINITY))
        return fail(err, errlen, "the machine's cost per connection of a synchronization (%g ns) is not a time",
                    m->sync_connection_ns);
    if (m->timed_connections < 0 || m->timed_connections > GL_SCHED_MAX_QUEUES)
        return fail(err, errlen, "the setting the program's calls were timed at (%d) is not 0 (the machine's own) "
                    "or 1..%d", m->timed_connections, GL_SCHED_MAX_QUEUES);
    if (m->pageable_stage_slots < 0 || m->pageable_stage_slots > 64)
        return fail(err, errlen, "the machine's staging buffer has %d parts (0: no staging rule, or 1..64)",
                    m->pageable_stage_slots);
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if (o->kind == GL_SCHED_COPY) {
            static const char *const names[GL_SCHED_DIRS] = {"H2D", "D2H", "D2D", "memset"};
            int d = o->dir;
            if (d < 0 || d >= GL_SCHED_DIRS || !(o->bytes >= 0))
                return fail(err, errlen, "op %d: a copy of %g bytes in direction %d", i, o->bytes, d);
            if (m->copy_engines[d] < 1 || !(m->copy_gbps[d] > 0) ||
                (gl_sched_copy_blocks_host(m, o) && !(m->pageable_gbps[d] > 0)) ||
                (d < 2 && !(m->copy_bidir_gbps[d] > 0)))
                return fail(err, errlen, "op %d is a %scopy, and the machine has no copy engine measured for it (%s)",
                            i, o->pageable ? "pageable " : "", names[d]);
        }
        if (o->kind == GL_SCHED_HOSTFN && !(o->block_ns >= 0))
            return fail(err, errlen, "op %d: a host function of %g ns", i, o->block_ns);
        if (o->kind == GL_SCHED_HOSTFN && !a_time(o->wake_ns))
            return fail(err, errlen, "op %d: a host function whose wake is %g ns", i, o->wake_ns);
        if (o->kind == GL_SCHED_SYNC && !isfinite(o->wake_ns))
            return fail(err, errlen, "op %d: a synchronization whose wake is %g ns", i, o->wake_ns);
        if (o->kind == GL_SCHED_LAUNCH && (o->blocks < 1 || o->blocks_per_sm < 1 || !(o->block_ns >= 0)))
            return fail(err, errlen, "op %d: a kernel of %d blocks, %d per SM, %g ns each cannot run", i, o->blocks,
                        o->blocks_per_sm, o->block_ns);
        if (o->kind == GL_SCHED_LAUNCH && !(o->sm_demand >= 0 && o->sm_demand <= 1))
            return fail(err, errlen, "op %d: a kernel whose blocks use %g of an SM alone (0..1)", i, o->sm_demand);
        if ((o->kind == GL_SCHED_RECORD || o->kind == GL_SCHED_WAIT || (o->kind == GL_SCHED_SYNC && o->event >= 0)) &&
            (o->event < 0 || o->event >= p->n_events))
            return fail(err, errlen, "op %d refers to event %d of %d", i, o->event, p->n_events);
        if (o->after >= p->n_ops || o->after < -1 || (o->after >= 0 && p->ops[o->after].thread == o->thread))
            return fail(err, errlen, "op %d waits to see op %d returned, not another thread's op of %d", i, o->after,
                        p->n_ops);
    }
    return 0;
}

int gl_sched_simulate(gl_sched_program *p, const gl_sched_machine *m, gl_sched_result *r, char *err, int errlen)
{
    memset(r, 0, sizeof *r);
    if (validate(p, m, err, errlen) < 0) return -1;
    sim s;
    memset(&s, 0, sizeof s);
    s.driver_idle_ns = -1;
    s.p = p;
    s.m = m;
    s.os = (op_state *)gl_xcalloc((size_t)p->n_ops + 1, sizeof *s.os);
    s.watch_head = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_ops + 1));
    s.seen = (int *)gl_xcalloc((size_t)p->n_streams + 1, sizeof(int));
    for (int i = 0; i < p->n_ops; i++) s.os[i].mark_queue = -1, s.os[i].watch_next = -1, s.watch_head[i] = -1;
    s.q = (queue *)gl_xcalloc((size_t)m->connections, sizeof *s.q);
    for (int c = 0; c < m->connections; c++) {
        s.q[c].holding = -1;
        s.q[c].wake_ns = -1;
    }
    s.th = (thread_state *)gl_xcalloc((size_t)p->n_threads + 1, sizeof *s.th);
    s.stream_last = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    s.event_last = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_events + 1));
    s.stream_queued = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    s.stream_work = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    s.stream_node = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    s.stream_rec = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_streams + 1));
    for (int i = 0; i < p->n_streams; i++)
        s.stream_last[i] = s.stream_queued[i] = s.stream_work[i] = s.stream_rec[i] = s.stream_node[i] = -1;
    for (int i = 0; i < p->n_events; i++) s.event_last[i] = -1;
    s.sm_free = (double *)gl_xmalloc(sizeof(double) * (size_t)m->sms);
    for (int i = 0; i < m->sms; i++) s.sm_free[i] = 1.0;
    s.share_rate = 1;
    s.free_sum = m->sms;
    s.last_stream = -1;
    s.last_queue = m->connections - 1;
    s.held_rec = -1;
    s.load = -1;
    s.d2h_staging = -1;
    s.d2h_freed_ns = -INFINITY, s.d2h_freed_by = -1;
    for (int i = 0; i < p->n_ops; i++) {
        gl_sched_op *o = &p->ops[i];
        o->call_ns = o->submit_ns = o->go_ns = o->start_ns = o->end_ns = -1;
        o->queue = -1;
        thread_state *th = &s.th[o->thread];
        gl_grow((void **)&th->ops, &th->cap, th->n + 1, sizeof *th->ops);
        th->ops[th->n++] = i;
    }
    for (int t = 0; t < p->n_threads; t++) {
        s.th[t].blocked = -1, s.th[t].d2h_waiting_ns = -INFINITY, s.th[t].sync_done_ns = NAN;
        host_next(&s, t);
    }
    while (s.n_heap > 0) {
        event e = heap_pop(&s);
        s.now = e.t;
        handle(&s, &e);
        while (s.n_heap > 0 && s.heap[0].t == s.now) {
            e = heap_pop(&s);
            handle(&s, &e);
        }
        progress(&s);
    }
    int rc = 0;
    if (s.finished_ops != p->n_ops)
        rc = fail(err, errlen, "deadlock: %d of %d operations never finished (a wait that can never be satisfied?)",
                  p->n_ops - s.finished_ops, p->n_ops);
    for (int t = 0; t < p->n_threads; t++)
        if (s.th[t].n > 0) {
            const gl_sched_op *o = &p->ops[s.th[t].ops[s.th[t].n - 1]];
            /* a sync, or a copy the host waits for, returns when it ends */
            double last = o->kind == GL_SCHED_SYNC || gl_sched_copy_blocks_host(m, o) ? o->end_ns : o->submit_ns;
            if (last > r->host_end_ns) r->host_end_ns = last;
        }
    r->end_ns = s.now;
    r->max_resident = s.max_resident;
    r->ranked = s.ranked;
    r->max_queue_depth = s.max_depth;
    if (rc == 0) {
        gl_timeline tl;
        memset(&tl, 0, sizeof tl);
        gl_sched_timeline(p, &tl);
        r->makespan_ns = tl.makespan_ns;
        r->peak_concurrency = tl.peak_concurrency;
        double first = INFINITY, last = -INFINITY;
        for (int i = 0; i < p->n_ops; i++)
            if (p->ops[i].kind == GL_SCHED_LAUNCH || p->ops[i].kind == GL_SCHED_COPY) {
                first = fmin(first, p->ops[i].start_ns);
                last = fmax(last, p->ops[i].end_ns);
            }
        r->span_ns = last > first ? last - first : 0;
        gl_timeline_free(&tl);
    }
    sim_free(&s);
    return rc;
}

/* ---- results as a timeline ------------------------------------------------------- */

gl_span gl_sched_op_span(const gl_sched_op *o)
{
    gl_span sp;
    memset(&sp, 0, sizeof sp);
    sp.start_ns = (unsigned long long)llround(GL_SCHED_ORIGIN_NS + o->start_ns);
    sp.end_inv_ns = ~(unsigned long long)llround(GL_SCHED_ORIGIN_NS + o->end_ns);
    sp.label = o->label;
    sp.stream = o->track;
    sp.kernel = o->id;
    sp.parent = -1;
    sp.blocks = o->blocks;
    sp.threads = o->threads;
    sp.smid = -1;
    sp.block = -1;
    sp.kind = GL_SPAN_KERNEL;
    return sp;
}

int gl_sched_timeline(const gl_sched_program *p, gl_timeline *tl)
{
    int n = 0;
    gl_span *spans = (gl_span *)gl_xcalloc((size_t)p->n_ops + 1, sizeof *spans);
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if (o->kind == GL_SCHED_LAUNCH && o->start_ns >= 0 && o->end_ns >= 0) spans[n++] = gl_sched_op_span(o);
    }
    gl_timeline_free(tl);
    int got = gl_timeline_build(tl, spans, n);
    free(spans);
    if (got < 0) gl_die(GL_EXIT_INTERNAL, "sched: two predicted kernels share an id: give each launch its own id");
    return got;
}

/* ---- prediction against measurement ------------------------------------------------------ */

/* Earliest kernel start in a timeline (its intervals may include other kinds). */
static double first_kernel(const gl_timeline *tl)
{
    double first = INFINITY;
    for (int i = 0; i < tl->n; i++)
        if (tl->k[i].kind == GL_SPAN_KERNEL || tl->k[i].kind < 0) first = fmin(first, tl->k[i].start_ns);
    return isfinite(first) ? first : 0;
}

gl_sched_errors gl_sched_compare(const gl_timeline *measured, const gl_timeline *predicted)
{
    gl_sched_errors e;
    memset(&e, 0, sizeof e);
    e.worst_id = -1;
    double *ds = (double *)gl_xmalloc(sizeof(double) * ((size_t)predicted->n + 1));
    double *de = (double *)gl_xmalloc(sizeof(double) * ((size_t)predicted->n + 1));
    double m0 = first_kernel(measured), p0 = first_kernel(predicted), worst = 0;
    for (int i = 0; i < predicted->n; i++) {
        const gl_interval *pk = &predicted->k[i];
        if (pk->kind != GL_SPAN_KERNEL) continue;
        int j = gl_timeline_find(measured, pk->kernel);
        if (j < 0) {
            e.missing++;
            continue;
        }
        const gl_interval *mk = &measured->k[j];
        double s = fabs((mk->start_ns - m0) - (pk->start_ns - p0)), en = fabs((mk->end_ns - m0) - (pk->end_ns - p0));
        if (e.worst_id < 0 || s > worst) {
            worst = s;
            e.worst_id = pk->kernel;
        }
        ds[e.matched] = s;
        de[e.matched] = en;
        e.matched++;
    }
    e.start_median_ns = gl_quantile(ds, e.matched, 0.5);
    e.start_p90_ns = gl_quantile(ds, e.matched, 0.9);
    e.start_max_ns = gl_quantile(ds, e.matched, 1.0);
    e.end_median_ns = gl_quantile(de, e.matched, 0.5);
    e.end_p90_ns = gl_quantile(de, e.matched, 0.9);
    e.end_max_ns = gl_quantile(de, e.matched, 1.0);
    free(ds);
    free(de);
    return e;
}

/* ---- the textbook, and the program that goes with it --------------------------------------- */

gl_sched_textbook_form gl_sched_textbook(int order, int S, int K, double T_ns, int C, int L)
{
    gl_sched_textbook_form f;
    if (S < 1 || K < 1 || C < 1 || L < 1)
        gl_die(GL_EXIT_INTERNAL, "sched: the textbook needs S, K, C, L >= 1 (got %d, %d, %d, %d)", S, K, C, L);
    double T_us = T_ns / 1e3;
    int per_queue = (S + C - 1) / C;
    if (order == GL_SCHED_DEPTH_FIRST && S > C) {
        f.makespan_ns = (per_queue * (K - 1) + 1) * T_ns;
        snprintf(f.formula, sizeof f.formula, "(ceil(%d/%d)*(%d-1)+1)*%g us", S, C, K, T_us);
        f.peak = K > 1 ? (S < 2 * C ? S : 2 * C) : S;
    } else {
        f.makespan_ns = K * T_ns;
        snprintf(f.formula, sizeof f.formula, "%d*%g us", K, T_us);
        f.peak = S;
    }
    double waves = ceil((double)S * K / L);
    if (waves * T_ns > f.makespan_ns) {
        f.makespan_ns = waves * T_ns;
        snprintf(f.formula, sizeof f.formula, "ceil(%d*%d/%d)*%g us (resident-grid limit)", S, K, L, T_us);
    }
    if (f.peak > L) f.peak = L;
    return f;
}

const char *gl_sched_order_name(int order) { return order == GL_SCHED_DEPTH_FIRST ? "depth" : "breadth"; }

void gl_sched_issue_order(int order, int S, int K, int n, int *stream, int *kernel)
{
    *stream = order == GL_SCHED_DEPTH_FIRST ? n / K : n % S;
    *kernel = order == GL_SCHED_DEPTH_FIRST ? n % K : n / S;
}

void gl_sched_streams_by_kernels(gl_sched_program *p, const int *streams, int S, int K, int order, int blocks,
                                 int threads, int blocks_per_sm, double T_ns)
{
    for (int n = 0; n < S * K; n++) {
        int s, k;
        gl_sched_issue_order(order, S, K, n, &s, &k);
        int op = gl_sched_launch(p, 0, streams[s], blocks, threads, blocks_per_sm, T_ns, n);
        p->ops[op].label = k;
        p->ops[op].track = s;
    }
}

/* ---- the dependencies a program promises ------------------------------------------- */

/* The last LAUNCH on stream before op index `before` (exclusive), or -1. */
static int last_launch_before(const gl_sched_program *p, int stream, int before)
{
    for (int i = before - 1; i >= 0; i--)
        if (p->ops[i].kind == GL_SCHED_LAUNCH && p->ops[i].stream == stream) return i;
    return -1;
}

/* The first LAUNCH after op index `after` (exclusive) on stream, or by thread when stream < 0; -1 if none. */
static int first_launch_after(const gl_sched_program *p, int stream, int thread, int after)
{
    for (int i = after + 1; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if (o->kind != GL_SCHED_LAUNCH) continue;
        if (stream >= 0 ? o->stream == stream : o->thread == thread) return i;
    }
    return -1;
}

/* Add edge (b, a) of kind unless it is there already or a side is missing. */
static void add_edge(gl_sched_edge **e, int *n, int *cap, int b, int a, int kind)
{
    if (b < 0 || a < 0 || b == a) return;
    for (int i = *n - 1; i >= 0 && i >= *n - 64; i--) /* duplicates come from neighbouring ops */
        if ((*e)[i].before == b && (*e)[i].after == a) return;
    gl_grow((void **)e, cap, *n + 1, sizeof **e);
    gl_sched_edge x = {b, a, kind};
    (*e)[(*n)++] = x;
}

int gl_sched_edges(const gl_sched_program *p, int kinds, gl_sched_edge **edges)
{
    gl_sched_edge *e = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if ((kinds & GL_SCHED_EDGE_EVENT) && o->kind == GL_SCHED_WAIT) {
            int rec = -1;
            for (int j = i - 1; j >= 0 && rec < 0; j--)
                if (p->ops[j].kind == GL_SCHED_RECORD && p->ops[j].event == o->event) rec = j;
            if (rec >= 0)
                add_edge(&e, &n, &cap, last_launch_before(p, p->ops[rec].stream, rec),
                         first_launch_after(p, o->stream, -1, i), GL_SCHED_EDGE_EVENT);
        }
        if ((kinds & GL_SCHED_EDGE_LEGACY) && o->kind == GL_SCHED_LAUNCH) {
            const gl_sched_stream *st = &p->streams[o->stream];
            if (st->kind == GL_SCHED_STREAM_LEGACY) {
                for (int s = 0; s < p->n_streams; s++)
                    if (gl_sched_stream_blocking(&p->streams[s]))
                        add_edge(&e, &n, &cap, last_launch_before(p, s, i), i, GL_SCHED_EDGE_LEGACY);
            } else if (gl_sched_stream_blocking(st)) {
                int legacy = last_launch_before(p, GL_SCHED_LEGACY, i);
                /* Only the stream's first kernel after that legacy kernel: the rest follow in stream order. */
                if (legacy >= 0 && last_launch_before(p, o->stream, i) < legacy)
                    add_edge(&e, &n, &cap, legacy, i, GL_SCHED_EDGE_LEGACY);
            }
        }
        if ((kinds & GL_SCHED_EDGE_SYNC) && o->kind == GL_SCHED_SYNC && o->event < 0) {
            int next = first_launch_after(p, -1, o->thread, i);
            for (int s = 0; s < p->n_streams; s++)
                if (o->stream < 0 || o->stream == s)
                    add_edge(&e, &n, &cap, last_launch_before(p, s, i), next, GL_SCHED_EDGE_SYNC);
        }
    }
    *edges = e;
    return n;
}

gl_sched_edge_check gl_sched_edges_hold(const gl_sched_program *p, const gl_sched_edge *e, int n,
                                        const gl_timeline *tl, double slack_ns)
{
    gl_sched_edge_check c = {0, 0, 0, INFINITY, -1};
    for (int i = 0; i < n; i++) {
        c.edges++;
        int b = gl_timeline_find(tl, p->ops[e[i].before].id), a = gl_timeline_find(tl, p->ops[e[i].after].id);
        if (b < 0 || a < 0) {
            c.missing++;
            continue;
        }
        double margin = tl->k[a].start_ns - tl->k[b].end_ns;
        if (margin >= -slack_ns) c.held++;
        if (margin < c.worst_margin_ns) {
            c.worst_margin_ns = margin;
            c.worst = i;
        }
    }
    return c;
}

/* ---- the spread of racing calls ---------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One simulation's makespan and peak (kernels together for at least lasting_ns). */
static int simulate_outcome(gl_sched_program *p, const gl_sched_machine *m, double lasting_ns, double *makespan,
                            int *peak, char *err, int errlen)
{
    gl_sched_result res;
    if (gl_sched_simulate(p, m, &res, err, errlen) != 0) return -1;
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    gl_sched_timeline(p, &tl);
    *makespan = res.makespan_ns;
    *peak = gl_timeline_peak_lasting(&tl, gl_filter_all, NULL, lasting_ns);
    gl_timeline_free(&tl);
    return 0;
}

int gl_sched_simulate_spread(gl_sched_program *p, const gl_sched_machine *m, const double *window_ns, int draws,
                             unsigned long long seed, double lasting_ns, gl_sched_spread *out, char *err, int errlen)
{
    memset(out, 0, sizeof *out);
    if (draws < 0) draws = 0;
    double *issue = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_ops + 1));
    double *u = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_ops + 1));
    double *back = (double *)gl_xmalloc(sizeof(double) * ((size_t)p->n_threads + 1));
    double *makespans = (double *)gl_xmalloc(sizeof(double) * ((size_t)draws + 1));
    for (int i = 0; i < p->n_ops; i++) issue[i] = p->ops[i].issue_ns;
    int rc = 0, peak = 0;
    /* Draw 0 is the unperturbed program: the spread always holds the point prediction. */
    if (simulate_outcome(p, m, lasting_ns, &makespans[0], &peak, err, errlen) != 0) rc = -1;
    out->peak_min = out->peak_max = peak;
    int n = 1;
    for (int d = 1; rc == 0 && d <= draws && window_ns; d++, n++) {
        gl_fill_f64(u, (size_t)p->n_ops, seed, (unsigned)d, 0.0, 1.0);
        for (int t = 0; t <= p->n_threads; t++) back[t] = 0;
        for (int i = 0; i < p->n_ops; i++) {
            gl_sched_op *o = &p->ops[i];
            if (issue[i] < 0) { /* the machine's issue time: nothing measured to move, and the next call counts from it */
                back[o->thread] = 0;
                continue;
            }
            /* Submitted `now` ns before its return; its issue time runs from the previous submission. */
            double now = o->kind == GL_SCHED_LAUNCH || o->kind == GL_SCHED_RECORD || o->kind == GL_SCHED_WAIT
                             ? fmax(0.0, window_ns[i]) * u[i]
                             : 0.0;
            o->issue_ns = fmax(0.0, issue[i] - now + back[o->thread]);
            back[o->thread] = now;
        }
        if (simulate_outcome(p, m, lasting_ns, &makespans[n], &peak, err, errlen) != 0) rc = -1;
        if (peak < out->peak_min) out->peak_min = peak;
        if (peak > out->peak_max) out->peak_max = peak;
    }
    for (int i = 0; i < p->n_ops; i++) p->ops[i].issue_ns = issue[i];
    gl_sched_result res;
    char again[8];
    /* The ops hold the point prediction again, even after a draw that failed (its reason stays in err). */
    if (gl_sched_simulate(p, m, &res, rc == 0 ? err : again, rc == 0 ? errlen : (int)sizeof again) != 0) rc = -1;
    if (rc == 0) {
        qsort(makespans, (size_t)n, sizeof *makespans, cmp_double);
        out->draws = n - 1;
        out->makespan_min_ns = makespans[0];
        out->makespan_max_ns = makespans[n - 1];
        out->makespan_median_ns = n % 2 ? makespans[n / 2] : 0.5 * (makespans[n / 2 - 1] + makespans[n / 2]);
    }
    free(issue);
    free(u);
    free(back);
    free(makespans);
    return rc;
}

/* ---- a run's own pace for the copies its host waited for -------------------------------------- */

double gl_sched_bracket_step(double cur, double sim, double target, double *lo, double *hi)
{
    if (sim > target) *hi = cur;
    else *lo = cur;
    double next = cur - (sim - target);
    return next > *lo && next < *hi ? next : 0.5 * (*lo + *hi);
}

int gl_sched_fit_host_copies(gl_sched_program *p, const gl_sched_machine *m, const double *own_ns, char *err,
                             int errlen)
{
    size_t n = (size_t)p->n_ops + 1;
    double *lo = (double *)gl_xmalloc(sizeof(double) * n), *hi = (double *)gl_xmalloc(sizeof(double) * n);
    double *best = (double *)gl_xmalloc(sizeof(double) * n);
    int *fit = (int *)gl_xcalloc(n, sizeof(int)); /* 1: fitted; 2: taken as it is */
    int fitted = 0, rc = 0;
    for (int i = 0; i < p->n_ops; i++) {
        best[i] = p->ops[i].copy_ns;
        if (!gl_sched_copy_blocks_host(m, &p->ops[i]) || !(own_ns[i] > 0)) continue;
        /* The shared link at most halves a copy's pace (a link carrying one direction at a time): its own time lies
         * between half what it took and all of it. */
        lo[i] = 0.5 * own_ns[i], hi[i] = own_ns[i];
        p->ops[i].copy_ns = own_ns[i];
        fit[i] = 1, fitted++;
    }
    double best_score = INFINITY;
    for (int pass = 0; fitted > 0 && pass < 8; pass++) {
        gl_sched_result r;
        if (gl_sched_simulate(p, m, &r, err, errlen) != 0) {
            rc = -1;
            break;
        }
        if (pass == 0) /* one the simulation puts beside engine copies of its direction, more of them than the run
                        * had (the caller gives only copies that had at most a twentieth of their time so beside
                        * them), pauses where the run's did not: taking that pause off would hide the model's error */
            for (int i = 0; i < p->n_ops; i++) {
                double beside = 0;
                for (int j = 0; j < p->n_ops && fit[i] == 1; j++) {
                    const gl_sched_op *a = &p->ops[i], *b = &p->ops[j];
                    if (j != i && b->kind == GL_SCHED_COPY && b->dir == a->dir && !gl_sched_copy_blocks_host(m, b) &&
                        b->start_ns < a->end_ns && b->end_ns > a->start_ns)
                        beside += gl_sched_op_copy_ns(m, b);
                }
                if (fit[i] == 1 && beside > GL_SCHED_OWN_BESIDE * own_ns[i]) fit[i] = 2;
            }
        double score = 0;
        int moved = 0;
        for (int i = 0; i < p->n_ops; i++)
            if (fit[i] == 1) score += fabs(p->ops[i].end_ns - p->ops[i].start_ns - own_ns[i]);
        if (score < best_score) {
            best_score = score;
            for (int i = 0; i < p->n_ops; i++) best[i] = p->ops[i].copy_ns;
        }
        for (int i = 0; i < p->n_ops; i++) {
            gl_sched_op *o = &p->ops[i];
            if (fit[i] != 1) continue;
            double sim = o->end_ns - o->start_ns;
            if (fabs(sim - own_ns[i]) <= 1e-3 * own_ns[i]) continue;
            double next = gl_sched_bracket_step(o->copy_ns, sim, own_ns[i], &lo[i], &hi[i]);
            moved += fabs(next - o->copy_ns) > 1e-3 * o->copy_ns;
            o->copy_ns = next;
        }
        if (!moved) break;
    }
    for (int i = 0; i < p->n_ops; i++) p->ops[i].copy_ns = best[i];
    free(lo), free(hi), free(best), free(fit);
    return rc == 0 ? fitted : -1;
}
