/* test_replay_fit.c - the replay's fits (src/replay/fit.c): a pageable copy's time alone (rp_fit_kernels: the
 * recording's time holds its pauses behind engine copies of its direction, which the simulation adds again), and a
 * host function's stream (rp_place_hostfns: the trace names none). */
#include "harness.h"
#include "fit.h"
#include "machines.h"
#include <math.h>
#include <string.h>

/* One queue, one engine per direction, 1 B/ns (copier). A: a pageable D2H recorded 0..3790; B (another thread, gap ns
 * later): a pinned D2H of 2820 recorded gap..gap+2820. Returns the fitted time; *end: the replayed end. */
static double fit_one(double gap, double *end)
{
    gl_sched_machine m = copier(1);
    gl_sched_program p;
    gl_sched_program_init(&p);
    int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int pg = gl_sched_copy(&p, 0, a, GL_SCHED_D2H, 1000, 1);
    p.ops[pg].copy_ns = 3790;
    gl_sched_host(&p, 1, gap);
    int pin = gl_sched_copy(&p, 1, b, GL_SCHED_D2H, 2820, 0);
    p.ops[pin].copy_ns = 2820;
    double rs[3] = {0, 0, gap}, re[3] = {3790, 0, gap + 2820};
    int copies = 0;
    rp_fit_kernels(&p, &m, rs, re, &copies);
    double fitted = p.ops[pg].copy_ns;
    gl_sched_result r;
    char err[160];
    *end = gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0 ? p.ops[pg].end_ns : NAN;
    gl_sched_program_free(&p);
    return fitted;
}

/* A program of one thread with streams A = 1 and B = 2 (0 is the legacy stream). */
static void two_streams(gl_sched_program *p, int *a, int *b)
{
    gl_sched_program_init(p);
    *a = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    *b = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
}

/* Every call 1 ns, nothing recorded yet (n slots); then simulated on m: 0, or -1 where the model refuses it. */
static int simulate_unrecorded(gl_sched_program *p, const gl_sched_machine *m, double *rs, double *re, double *rr,
                               int n)
{
    for (int i = 0; i < p->n_ops; i++) p->ops[i].issue_ns = 1;
    for (int i = 0; i < n; i++) rs[i] = re[i] = rr[i] = NAN;
    gl_sched_result r;
    char err[160];
    return gl_sched_simulate(p, m, &r, err, sizeof err) == 0 ? 0 : -1;
}

/* The host functions of calls (n of them, one thread) placed on m; stream[k] gets op fn[k]'s stream (k < nfn), and
 * p is freed. */
static void placed(gl_sched_program *p, const gl_sched_machine *m, rp_call *calls, int n, const double *rs,
                   const double *re, const double *rr, const int *fn, int nfn, int *stream)
{
    rp_trace t;
    memset(&t, 0, sizeof t);
    t.calls = calls, t.n_calls = n, t.n_threads = 1;
    rp_place_hostfns(&t, p, m, rs, re, rr);
    for (int k = 0; k < nfn; k++) stream[k] = p->ops[fn[k]].stream;
    gl_sched_program_free(p);
}

/* Streams A and B (one thread, 8 queues, 1 ns a host call): A a kernel of 600 us, B one of 300 us, then n host
 * functions issued back to back (each with candidates [B, A]: B's kernel was the thread's previous call), then
 * a kernel on A and one on B. Recorded: A's second kernel late_a us after its simulated start, B's late_b, every
 * call shift us later than simulated (the host functions before, unfitted). readback > 0: the thread then waits for
 * the device and copies back on the legacy stream (a third candidate), recorded readback us late. Returns each
 * function's stream in fn_stream[]; the model's streams are A = 1, B = 2 (0 is the legacy stream). */
static void place_after(int n, double late_a, double late_b, double shift, double readback, int *fn_stream)
{
    gl_sched_machine m = copier(8); /* copy engines for the readback; 4 SMs are room enough */
    gl_sched_program p;
    int a, b;
    two_streams(&p, &a, &b);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 600e3, 0);
    gl_sched_launch(&p, 0, b, 1, 32, 1, 300e3, 1);
    int fn[2];
    for (int k = 0; k < n; k++) fn[k] = gl_sched_hostfn(&p, 0, b, 0);
    int ka = gl_sched_launch(&p, 0, a, 1, 32, 1, 100e3, 2), kb = gl_sched_launch(&p, 0, b, 1, 32, 1, 100e3, 3);
    int rb = -1;
    if (readback > 0) {
        gl_sched_sync_stream(&p, 0, -1);
        rb = gl_sched_copy(&p, 0, 0, GL_SCHED_D2H, 8, 1);
    }
    double rs[12], re[12], rr[12];
    if (simulate_unrecorded(&p, &m, rs, re, rr, 12) == 0) {
        for (int k = 0; k < n; k++) rr[fn[k]] = p.ops[fn[k]].submit_ns + shift * 1e3;
        rs[ka] = p.ops[ka].start_ns + (shift + late_a) * 1e3, rs[kb] = p.ops[kb].start_ns + (shift + late_b) * 1e3;
        if (rb >= 0) rs[rb] = p.ops[rb].start_ns + (shift + readback) * 1e3;
    }
    rp_call calls[2];
    memset(calls, 0, sizeof calls);
    for (int k = 0; k < n; k++) {
        calls[k].kind = RP_HOSTFN, calls[k].stream = b;
        calls[k].cand[0] = b, calls[k].cand[1] = a, calls[k].cand[2] = 0, calls[k].n_cand = readback > 0 ? 3 : 2;
    }
    placed(&p, &m, calls, n, rs, re, rr, fn, n, fn_stream);
}

/* n streams, each a kernel (call returned at 0, ran 10..20 us) and then a copy whose call returned at 1 us (so it
 * waited for the kernel), starting gap_us after the kernel's end; then a kernel (call at 2 us) gap_us + 1.5 us after
 * the copy's end. The copy is an H2D, or in the last n_d2h streams a D2H. Returns how many gaps were fitted; t gets
 * them (dispatch gap 1.5 us). */
static int copy_gaps(int n, double gap_us, int pageable, int n_d2h, rp_trace *t)
{
    static rp_call calls[3 * 8];
    memset(calls, 0, sizeof calls);
    memset(t, 0, sizeof *t);
    for (int s = 0; s < n; s++) {
        rp_call *k = &calls[3 * s], *c = k + 1, *k2 = k + 2;
        k->kind = k2->kind = RP_LAUNCH, c->kind = RP_COPY;
        k->stream = c->stream = k2->stream = s, c->dir = s < n - n_d2h ? GL_SCHED_H2D : GL_SCHED_D2H;
        c->pageable = pageable;
        k->end_ns = 0, c->end_ns = 1e3, k2->end_ns = 2e3;
        k->gpu_start_ns = 10e3, k->gpu_end_ns = 20e3;
        c->gpu_start_ns = 20e3 + gap_us * 1e3, c->gpu_end_ns = c->gpu_start_ns + 5e3;
        k2->gpu_start_ns = c->gpu_end_ns + (gap_us + 1.5) * 1e3, k2->gpu_end_ns = k2->gpu_start_ns + 1e3;
    }
    t->calls = calls, t->n_calls = 3 * n, t->n_streams = n, t->n_threads = 1;
    double dispatch = 1.5e3, latency = 0; /* too few kernels to fit either: these stay */
    int n_gap, n_latency;
    return rp_fit(t, &dispatch, &n_gap, &latency, &n_latency);
}

/* n H2D copies, one a stream, one after another: copy s's call returns at 100 s us and it starts 1 + 0.1 s us later
 * and runs 5 us. With a long D2H beside them (busy: a D2H of stream n, 150..1000 us) they are D2H copies instead,
 * whose engine is busy at the returns from 200 us on; with host_waited, copy 0 starts before its call returns (a cudaMemcpy the host waited
 * for). Returns the fitted copy arrival (ns; the launch latency 0.5 us), *n_fit how many copies it came from. */
static double copy_arrivals(int n, int busy, int host_waited, int *n_fit)
{
    static rp_call calls[16];
    memset(calls, 0, sizeof calls);
    rp_trace t;
    memset(&t, 0, sizeof t);
    for (int s = 0; s < n; s++) {
        rp_call *c = &calls[s];
        c->kind = RP_COPY, c->stream = s, c->dir = busy ? GL_SCHED_D2H : GL_SCHED_H2D;
        c->start_ns = 100e3 * s, c->end_ns = 100e3 * s + 1e3;
        c->gpu_start_ns = c->end_ns + 1e3 + 0.1e3 * s, c->gpu_end_ns = c->gpu_start_ns + 5e3;
    }
    if (host_waited) calls[0].end_ns = calls[0].gpu_end_ns + 1e3;
    if (busy) { /* behind a kernel of its stream that it waited for, 150 us after it: a gap out of the fit's range */
        rp_call *k = &calls[n], *c = &calls[n + 1];
        k->kind = RP_LAUNCH, k->stream = c->stream = n, k->end_ns = -3e3, k->gpu_start_ns = -2e3, k->gpu_end_ns = 0;
        c->kind = RP_COPY, c->dir = GL_SCHED_D2H, c->end_ns = -1e3, c->gpu_start_ns = 150e3, c->gpu_end_ns = 1000e3;
    }
    t.calls = calls, t.n_calls = n + (busy ? 2 : 0), t.n_streams = n + 1, t.n_threads = 1;
    double dispatch = 1.5e3, latency = 0.5e3;
    int n_gap, n_latency;
    rp_fit(&t, &dispatch, &n_gap, &latency, &n_latency);
    *n_fit = t.copy_arrive_n;
    return t.copy_arrive_ns;
}

/* Kernel pairs in stream 0, each second kernel called (returned) before the first ended and starting gap us after
 * it: alone pairs 1.5 us apart; beside pairs 40 us apart while a 1-block kernel of stream 1 ran across the first's
 * end (no SM's slots full); behind pairs 16 us apart with a record of stream 0 called between the two; within pairs
 * 20 us apart with a kernel of stream 1 starting in the gap; node pairs 30 us apart beside a graph launch's kernel
 * node of stream 1 (its launch call at 1 us). Returns the fitted dispatch gap (ns), starting from 1.63 us; *n gets
 * how many gaps it came from. */
enum { GAP_ROUNDS = 64 };
static double dispatch_gaps(int alone, int beside, int behind, int within, int node, int *n)
{
    static rp_call calls[4 * GAP_ROUNDS];
    static rp_node nodes[GAP_ROUNDS];
    rp_trace t;
    if (alone + beside + behind + within + node > GAP_ROUNDS) return NAN;
    memset(calls, 0, sizeof calls), memset(nodes, 0, sizeof nodes), memset(&t, 0, sizeof t);
    int c = 0, nn = 0;
    double at = 0;
    for (int k = 0; k < alone + beside + behind + within + node; k++, at += 1000e3) {
        int kind = k < alone ? 0 : k < alone + beside ? 1 : k < alone + beside + behind ? 2 : k < alone + beside + behind + within ? 3 : 4;
        double gap = kind == 0 ? 1.5e3 : kind == 1 ? 40e3 : kind == 2 ? 16e3 : kind == 3 ? 20e3 : 30e3;
        rp_call *a = &calls[c++];
        *a = (rp_call){.kind = RP_LAUNCH, .stream = 0, .start_ns = at, .end_ns = at + 5e3, .gpu_start_ns = at + 10e3,
                       .gpu_end_ns = at + 110e3, .blocks = 128, .blocks_per_sm = 4, .threads = 128};
        if (kind == 2) calls[c++] = (rp_call){.kind = RP_RECORD, .stream = 0, .event = 0, .start_ns = at + 6e3,
                                              .end_ns = at + 7e3, .gpu_start_ns = NAN, .gpu_end_ns = NAN};
        calls[c++] = (rp_call){.kind = RP_LAUNCH, .stream = 0, .start_ns = at + 8e3, .end_ns = at + 9e3,
                               .gpu_start_ns = at + 110e3 + gap, .gpu_end_ns = at + 120e3 + gap, .blocks = 128,
                               .blocks_per_sm = 4, .threads = 128};
        if (kind == 1 || kind == 3) /* beside: from before the first's end; within: from inside the gap */
            calls[c++] = (rp_call){.kind = RP_LAUNCH, .stream = 1, .thread = 1, .start_ns = at + 1e3,
                                   .end_ns = at + 2e3, .gpu_start_ns = at + (kind == 1 ? 100e3 : 115e3),
                                   .gpu_end_ns = at + 130e3 + gap, .blocks = 1, .blocks_per_sm = 8, .threads = 32};
        if (kind == 4) {
            calls[c] = (rp_call){.kind = RP_GRAPH, .stream = 1, .thread = 1, .start_ns = at + 1e3, .end_ns = at + 2e3,
                                 .gpu_start_ns = NAN, .gpu_end_ns = NAN, .node_first = nn, .n_nodes = 1};
            nodes[nn++] = (rp_node){.call = c++, .kind = RP_LAUNCH, .stream = 1, .gpu_start_ns = at + 100e3,
                                    .gpu_end_ns = at + 130e3 + gap, .blocks = 1, .threads = 32, .blocks_per_sm = 8};
        }
    }
    t.calls = calls, t.n_calls = c, t.nodes = nodes, t.n_nodes = nn;
    t.n_streams = 2, t.n_threads = 2, t.n_events = 1, t.sms = 132;
    double dispatch = 1.63e3, latency = 2.6e3;
    int n_latency;
    rp_fit(&t, &dispatch, n, &latency, &n_latency);
    return dispatch;
}

/* n rounds of: a kernel in stream 1 (called 0..5 us, ran 10..110 us), a sync of kind (RP_SYNC_STREAM of stream
 * 1, or RP_SYNC_DEVICE) called at 6 us and returning ret_us after the kernel's end; and three syncs that are no
 * sample, each returning 50 us after that kernel's end: one of stream 2 (idle) and one of the legacy stream, both
 * called at 7 us on another thread, and one of stream 1 called after its kernel had ended (120 us). graph: the
 * kernel is a graph launch's node instead. Round k is 1000 us later. Returns the fitted return (ns); *n_fit gets
 * how many syncs it came from. */
static double sync_return(int n, int kind, double ret_us, int graph, int *n_fit)
{
    static rp_call calls[5 * 8];
    static rp_node nodes[8];
    rp_trace t;
    memset(calls, 0, sizeof calls), memset(nodes, 0, sizeof nodes);
    memset(&t, 0, sizeof t);
    for (int k = 0; k < n; k++) {
        double at = k * 1000e3, end = at + 110e3;
        rp_call *l = &calls[5 * k], *y = l + 1, *z = l + 2, *g = l + 3, *w = l + 4;
        l->kind = graph ? RP_GRAPH : RP_LAUNCH, l->stream = 1, l->start_ns = at, l->end_ns = at + 5e3;
        l->gpu_start_ns = graph ? NAN : at + 10e3, l->gpu_end_ns = graph ? NAN : end;
        l->node_first = k, l->n_nodes = graph;
        nodes[k].stream = 1, nodes[k].gpu_start_ns = at + 10e3, nodes[k].gpu_end_ns = end;
        y->kind = kind, y->stream = kind == RP_SYNC_STREAM ? 1 : -1, y->start_ns = at + 6e3;
        y->end_ns = end + ret_us * 1e3;
        z->kind = g->kind = w->kind = RP_SYNC_STREAM, z->stream = 2, g->stream = GL_SCHED_LEGACY, w->stream = 1;
        z->thread = g->thread = 1, z->start_ns = g->start_ns = at + 7e3, w->start_ns = end + 10e3;
        z->end_ns = g->end_ns = w->end_ns = end + 50e3;
        for (rp_call *c = y; c <= w; c++) c->gpu_start_ns = c->gpu_end_ns = NAN;
    }
    t.calls = calls, t.n_calls = 5 * n, t.n_streams = 3, t.n_threads = 2, t.nodes = nodes, t.n_nodes = graph ? n : 0;
    double dispatch = 1.5e3, latency = 0;
    int n_gap, n_latency;
    rp_fit(&t, &dispatch, &n_gap, &latency, &n_latency);
    *n_fit = t.sync_return_n;
    return t.sync_return_ns;
}

/* One thread, stream A, 8 queues, host functions one at a time taking 10 us of the driver's thread: a kernel of
 * 100 us, a host function (no time of its own yet), then (between: 1) a kernel of 50 us, a record of an event, and
 * the host waits for that event. Recorded: the wait returned late_us after the simulation's return. poll: the wait
 * is a cudaEventQuery loop instead (no recorded return), and a kernel of 10 us on A follows it, recorded late_us
 * after its simulated start, its call not late. Returns the fitted function's own time (ns); *ret_error gets the
 * refitted simulation's return of the wait less the recorded one (NaN for a poll). */
static double fit_behind_event(int between, int poll, double late_us, double *ret_error)
{
    gl_sched_machine m = ideal(8, 132, 128);
    m.hostfn_ns = m.hostfn_wake_ns = 10e3, m.hostfn_serial = 1;
    gl_sched_program p;
    gl_sched_program_init(&p);
    int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1), e = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 100e3, 0);
    int fn = gl_sched_hostfn(&p, 0, a, 0);
    if (between) gl_sched_launch(&p, 0, a, 1, 32, 1, 50e3, 1);
    gl_sched_record(&p, 0, a, e);
    int sync = gl_sched_sync_event(&p, 0, e);
    int after = poll ? gl_sched_launch(&p, 0, a, 1, 32, 1, 10e3, 2) : -1;
    double rs[8], re[8], rr[8];
    *ret_error = NAN;
    if (simulate_unrecorded(&p, &m, rs, re, rr, 8) != 0) return NAN;
    for (int i = 0; i < p.n_ops; i++)
        if (p.ops[i].kind == GL_SCHED_LAUNCH)
            rs[i] = p.ops[i].start_ns, re[i] = p.ops[i].end_ns, rr[i] = p.ops[i].submit_ns;
    if (poll)
        rs[after] += late_us * 1e3, re[after] += late_us * 1e3; /* it waited that long after its call returned */
    else
        rr[sync] = p.ops[sync].end_ns + late_us * 1e3;
    rp_fit_hostfns(&p, &m, rs, rr);
    double own = p.ops[fn].block_ns;
    gl_sched_result r;
    char err[160];
    if (!poll && gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0) *ret_error = p.ops[sync].end_ns - rr[sync];
    gl_sched_program_free(&p);
    return own;
}

/* One thread, streams A = 1 and B = 2, C = 1. A kernel on B, a host function (candidates [B, A]), a kernel on A,
 * then the thread waits for B and launches on B again. Recorded: A's kernel 800 us late, the wait for B returned
 * 1000 us late, and B's kernel after it too. Returns the function's stream. */
static int place_behind_sync(void)
{
    gl_sched_machine m = copier(1);
    gl_sched_program p;
    int a, b;
    two_streams(&p, &a, &b);
    gl_sched_launch(&p, 0, b, 1, 32, 1, 300e3, 0);
    int fn = gl_sched_hostfn(&p, 0, b, 0);
    int ka = gl_sched_launch(&p, 0, a, 1, 32, 1, 600e3, 1);
    int sync = gl_sched_sync_stream(&p, 0, b);
    int kb = gl_sched_launch(&p, 0, b, 1, 32, 1, 100e3, 2);
    double rs[8], re[8], rr[8];
    if (simulate_unrecorded(&p, &m, rs, re, rr, 8) == 0) {
        rr[fn] = p.ops[fn].submit_ns, rr[ka] = p.ops[ka].submit_ns;
        rs[ka] = p.ops[ka].start_ns + 800e3, rs[kb] = p.ops[kb].start_ns + 1000e3;
        rr[sync] = p.ops[sync].end_ns + 1000e3;
    }
    rp_call call;
    memset(&call, 0, sizeof call);
    call.kind = RP_HOSTFN, call.stream = b, call.cand[0] = b, call.cand[1] = a, call.n_cand = 2;
    int st;
    placed(&p, &m, &call, 1, rs, re, rr, &fn, 1, &st);
    return st;
}

/* One thread, streams A = 1 and B = 2, 8 queues. A kernel on A; a host function on B (an earlier one, not
 * fitted: it held B 1000 us in the recording); a kernel on B; the function placed (candidates [B, A]); a kernel on A,
 * one on B. Recorded: B's first kernel 1000 us late, its second 3 us after the first's recorded end; A's second
 * kernel 800 us late. Returns the function's stream. */
static int place_after_earlier_function(void)
{
    gl_sched_machine m = ideal(8, 132, 128);
    gl_sched_program p;
    int a, b;
    two_streams(&p, &a, &b);
    int ka1 = gl_sched_launch(&p, 0, a, 1, 32, 1, 100e3, 0);
    gl_sched_hostfn(&p, 0, b, 0); /* the earlier function */
    int kb1 = gl_sched_launch(&p, 0, b, 1, 32, 1, 100e3, 1);
    int fn = gl_sched_hostfn(&p, 0, b, 0);
    int ka2 = gl_sched_launch(&p, 0, a, 1, 32, 1, 100e3, 2), kb2 = gl_sched_launch(&p, 0, b, 1, 32, 1, 100e3, 3);
    double rs[8], re[8], rr[8];
    if (simulate_unrecorded(&p, &m, rs, re, rr, 8) == 0) {
        for (int i = 0; i < p.n_ops; i++) rr[i] = p.ops[i].submit_ns;
        rs[ka1] = p.ops[ka1].start_ns, re[ka1] = p.ops[ka1].end_ns;
        rs[kb1] = p.ops[kb1].start_ns + 1000e3, re[kb1] = p.ops[kb1].end_ns + 1000e3;
        rs[kb2] = re[kb1] + 3e3, re[kb2] = rs[kb2] + 100e3;
        rs[ka2] = p.ops[ka2].start_ns + 800e3, re[ka2] = rs[ka2] + 100e3;
    }
    rp_call calls[2];
    memset(calls, 0, sizeof calls);
    calls[0].kind = calls[1].kind = RP_HOSTFN, calls[0].stream = calls[1].stream = b;
    calls[0].cand[0] = b, calls[0].n_cand = 1; /* the earlier function: one candidate, it stays */
    calls[1].cand[0] = b, calls[1].cand[1] = a, calls[1].n_cand = 2;
    int st;
    placed(&p, &m, calls, 2, rs, re, rr, &fn, 1, &st);
    return st;
}

static void place(int n, double late_a, double late_b, double shift, int *fn_stream)
{
    place_after(n, late_a, late_b, shift, 0, fn_stream);
}

/* One stream, C = 1, host functions costing 100 ns (a sleeping thread's wake the same): a 1000 ns kernel, then a
 * function (its own 500 ns) behind it; the driver's thread ran from run_on to run_off in the recording (the first
 * call at 0 there). Returns the fitted wake; *start gets the function's start after the fit, *go when it was ready. */
static double fitted_wake(double run_on, double run_off, double *start, double *go)
{
    gl_sched_machine m = copier(1);
    m.hostfn_ns = m.hostfn_wake_ns = 100, m.hostfn_serial = 1;
    gl_sched_program p;
    int a, b;
    two_streams(&p, &a, &b);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 1000, 0);
    int f = gl_sched_hostfn(&p, 0, a, 500);
    rp_call call = {0};
    double runs[2] = {run_on, run_off};
    rp_trace t;
    memset(&t, 0, sizeof t);
    t.calls = &call, t.n_calls = 1, t.fn_runs = runs, t.n_fn_runs = 2;
    rp_fit_wakes(&t, &p, &m);
    double wake = p.ops[f].wake_ns;
    gl_sched_result r;
    char err[160];
    *start = *go = NAN;
    if (gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0) *start = p.ops[f].start_ns, *go = p.ops[f].go_ns;
    gl_sched_program_free(&p);
    return wake;
}

/* A kind of kernel (one label and grid of blocks, four fit an SM, on 132 SMs) recorded `lones` times alone (4 or
 * fewer), each at lone[k] us, then 6 times two at once (streams A and B), the k-th pair at pairs[k] us, or each at
 * pair_us where pairs is NULL (two grids of 128 blocks side by side, 256 blocks of demand d over 132 SMs, make
 * 1.357 of an SM at d = 0.7, so 100 us alone take 136). rp_fit_kernels gives the kind a demand; returns it,
 * *lone_ns the first lone launch's replayed time, *pair_ns the first pair's. */
static double fit_sharing_case(const double *lone, int lones, int blocks, const double *pairs, double pair_us,
                               double *lone_ns, double *pair_ns)
{
    gl_sched_machine m = ideal(8, 132, 128);
    gl_sched_program p;
    int a, b, first_pair = -1;
    two_streams(&p, &a, &b);
    double rs[64], re[64], now = 0;
    for (int k = 4 - lones; k < 10; k++) {
        double at = 1000e3 * k;
        rs[gl_sched_host(&p, 0, at - now)] = NAN; /* the call at its recorded time */
        now = at;
        for (int s = 0; s < (k < 4 ? 1 : 2); s++) {
            double ns = (k < 4 ? lone[k - (4 - lones)] : pairs ? pairs[k - 4] : pair_us) * 1e3;
            int op = gl_sched_launch(&p, 0, s ? b : a, blocks, 128, 4, ns, 2 * k + s);
            p.ops[op].issue_ns = 0;
            p.ops[op].label = 7;
            rs[op] = at, re[op] = at + ns;
            if (k == 4 && s == 0) first_pair = op;
        }
    }
    for (int i = 0; i < p.n_ops; i++)
        if (p.ops[i].kind != GL_SCHED_LAUNCH) rs[i] = re[i] = NAN;
    rp_fit_kernels(&p, &m, rs, re, NULL);
    double d = p.ops[first_pair].sm_demand;
    gl_sched_result r;
    char err[160];
    int ok = gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0;
    *pair_ns = ok ? p.ops[first_pair].end_ns - p.ops[first_pair].start_ns : NAN;
    *lone_ns = ok ? p.ops[1].end_ns - p.ops[1].start_ns : NAN; /* op 0: the first call's host time */
    gl_sched_program_free(&p);
    return d;
}

/* Two kinds side by side: X (label 7, 128 blocks) ran 4 times alone at 100 us and then 6 times in pairs (streams A
 * and B) at 136 us; Y (label 9, 64 blocks) ran once alone at 100 us, then beside each pair (stream C) at y[k] us.
 * Returns X's fitted demand, and Y's in *dy. */
static double fit_two_kinds(const double *y, double *dy)
{
    gl_sched_machine m = ideal(8, 132, 128);
    gl_sched_program p;
    int a, b, first_x = -1, first_y = -1;
    two_streams(&p, &a, &b);
    int c = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    double rs[96], re[96], now = 0;
    for (int k = 0; k < 11; k++) {
        double at = 1000e3 * k;
        rs[gl_sched_host(&p, 0, at - now)] = NAN;
        now = at;
        for (int s = 0; s < 3; s++) {
            int lone_x = k < 4, lone_y = k == 4, pair = k > 4;
            if ((lone_x && s > 0) || (lone_y && s != 2) || (pair && 0)) continue;
            int is_y = s == 2;
            double us = is_y ? (pair ? y[k - 5] : 100) : (pair ? 136 : 100);
            int op = gl_sched_launch(&p, 0, s == 0 ? a : s == 1 ? b : c, is_y ? 64 : 128, 128, 4, us * 1e3, 3 * k + s);
            p.ops[op].issue_ns = 0;
            p.ops[op].label = is_y ? 9 : 7;
            rs[op] = at, re[op] = at + us * 1e3;
            if (pair && s == 0 && first_x < 0) first_x = op;
            if (pair && s == 2 && first_y < 0) first_y = op;
        }
    }
    for (int i = 0; i < p.n_ops; i++)
        if (p.ops[i].kind != GL_SCHED_LAUNCH) rs[i] = re[i] = NAN;
    rp_fit_kernels(&p, &m, rs, re, NULL);
    double dx = p.ops[first_x].sm_demand;
    *dy = p.ops[first_y].sm_demand;
    gl_sched_program_free(&p);
    return dx;
}

int main(void)
{
    int nf;
    double r = sync_return(RP_GAP_MIN, RP_SYNC_STREAM, 3.5, 0, &nf);
    test_cond("the return after a sync: stream syncs that waited, 3.5 us after their kernel ended; an idle stream's, "
              "the legacy stream's and one called after its work had ended (each 50 us after) are no sample",
              r == 3.5e3 && nf == RP_GAP_MIN);
    r = sync_return(RP_GAP_MIN, RP_SYNC_DEVICE, 9, 0, &nf);
    test_cond("... device syncs the same (9 us)", r == 9e3 && nf == RP_GAP_MIN);
    r = sync_return(RP_GAP_MIN, RP_SYNC_DEVICE, 9, 1, &nf);
    test_cond("... a device sync waiting for a graph launch's node (9 us)", r == 9e3 && nf == RP_GAP_MIN);
    r = sync_return(RP_GAP_MIN - 1, RP_SYNC_DEVICE, 9, 0, &nf);
    test_cond("... fewer than " RP_GAP_MIN_TEXT " syncs that waited: no fit, 0", r == 0 && nf == RP_GAP_MIN - 1);
    double lone, pair;
    static const double alike[4] = {100, 101, 99, 100}, unlike[4] = {50, 80, 120, 150};
    double d = fit_sharing_case(alike, 4, 128, NULL, 136, &lone, &pair);
    test_cond("sharing: a kind of kernel that ran 100 us alone and 136 us two at once gets a demand near 0.7 (256 "
              "blocks over 132 SMs), and replays alone and in pairs as recorded",
              d > 0.65 && d < 0.75 && fabs(lone - 100e3) < 2e3 && fabs(pair - 136e3) < 2e3);
    d = fit_sharing_case(alike, 4, 264, NULL, 200, &lone, &pair);
    test_cond("... a grid of 264 blocks (two an SM, four fit), whose own blocks share their SMs too once d passes 0.5: "
              "alone 100 us and two at once 200 us, both as recorded (any d from 0.5 up gives both: a grid alone "
              "then makes 2d an SM, and its blocks take 50 / d us)",
              d > 0.45 && fabs(lone - 100e3) < 2e3 && fabs(pair - 200e3) < 4e3);
    d = fit_sharing_case(unlike, 4, 128, NULL, 136, &lone, &pair);
    test_cond("... one whose lone launches are not alike (50 to 150 us: other work, one name) gets none, and keeps "
              "its pairs' recorded time", d == 0 && fabs(pair - 136e3) < 2e3);
    d = fit_sharing_case(alike, 1, 128, NULL, 136, &lone, &pair);
    test_cond("... one launch alone (100 us) is enough where the demand explains the pairs one by one (0.7, each "
              "pair 136 us as recorded)", d > 0.65 && d < 0.75 && fabs(lone - 100e3) < 2e3 && fabs(pair - 136e3) < 2e3);
    static const double varied[6] = {112, 240, 114, 230, 116, 120};

    d = fit_sharing_case(alike, 1, 128, varied, 0, &lone, &pair);
    test_cond("... but not where no one demand explains them (pairs of 112 to 240 us: other work, one name; the one "
              "fitted, 0.8, leaves the median pair a third off): none, the first pair kept at its recorded 112 us",
              d == 0 && fabs(pair - 112e3) < 2e3);
    double alone_d = fit_sharing_case(alike, 4, 128, NULL, 136, &lone, &pair), dy;
    static const double beside[6] = {130, 300, 125, 290, 128, 135};
    double dx = fit_two_kinds(beside, &dy);
    test_cond("... a kind left out (Y beside each pair, 125 to 300 us: over a whole SM would not do) is fitted with "
              "the others and then taken out, and they are fitted again without it: X's demand as alone (0.70; 0.50 "
              "fitted beside Y's)", dy == 0 && fabs(dx - alone_d) < 0.02);
    double end;
    double t = fit_one(500, &end);
    test_cond("a pageable copy paused behind a pinned one of 2820 ns: its time alone is what is left (970 ns), "
              "and it replays as recorded (3790)", fabs(t - 970) < 2 && fabs(end - 3790) < 4);
    t = fit_one(1000, &end);
    test_cond("... where no time alone gives the recording (it ends before the pinned one starts, or waits it all "
              "out), the nearest: 1000 ns, ending at 3820, not 999 ending at 999", fabs(t - 1000) < 2 && fabs(end - 3790) <= 31);
    t = fit_one(10000, &end);
    test_cond("... a copy with no engine copy beside it keeps its recorded time", t == 3790 && end == 3790);
    int st[2];
    place(1, 1000, 0, 0, st);
    test_cond("a host function goes in the stream whose next work was held (A, 1000 us), not its thread's previous "
              "call's (B, on time)", st[0] == 1);
    place(1, 5, 0, 0, st);
    test_cond("... and stays in its thread's previous call's stream where no other was held over 20 us", st[0] == 2);
    place(1, 1000, 0, 500, st);
    test_cond("...both held 500 us more in the recording than simulated, as after unfitted functions: taken less "
              "the simulation's lag at the function's own call, it still goes to A", st[0] == 1);
    place(1, 1081, 290, 0, st);
    test_cond("...the previous call's stream held too, under a third as long (C=1's one queue: 290 us against 1081): "
              "to A", st[0] == 1);
    place(1, 800, 290, 0, st);
    test_cond("...held over a third as long (290 us against 800): it stays", st[0] == 2);
    place(2, 1800, 1000, 0, st);
    test_cond("two functions back to back, A held 1800 us and B 1000: B's hold is the second function's, so the first "
              "goes to A and the second stays in B", st[0] == 1 && st[1] == 2);
    place_after(2, 1800, 1000, 0, 2800, st);
    test_cond("...and the thread's readback on the legacy stream after its wait for the device, held 2800 us, is "
              "no sign: late by the wait, it takes neither function (callbacks' slow two functions, on an H100)",
              st[0] == 1 && st[1] == 2);
    test_cond("a function whose previous call's stream the thread then waits for, the wait 1000 us late: held so, "
              "it stays there, though another candidate was held 800 us",
              place_behind_sync() == 2);
    test_cond("a function's candidate whose next kernel the simulation puts 1000 us early only because an earlier, "
              "unfitted function held the kernel before it (recorded 3 us after that one's end) shows no hold: the "
              "function goes to the other stream, held 800 us (event-programs' random 2 on an H100)",
              place_after_earlier_function() == 1);
    double ret_error, own = fit_behind_event(0, 0, 120, &ret_error);
    test_cond("a host function behind a kernel, then a record the host waits for, which returned 120 us late: the "
              "function is fitted to end 2 us before that return (118 us of its own)",
              fabs(own - 118e3) < 1e3 && fabs(ret_error + 2e3) < 1e3);
    own = fit_behind_event(1, 0, 120, &ret_error);
    test_cond("...not with a kernel between the function and the record: the kernel, not the function, is what the "
              "wait waited for", own == 0);
    own = fit_behind_event(0, 1, 120, &ret_error);
    test_cond("...but not a cudaEventQuery loop (no recorded return) on that event: the function is fitted to the "
              "kernel after it in its stream, which started 120 us late (118 us of its own)",
              fabs(own - 118e3) < 1e3);
    int n_gap;
    double disp = dispatch_gaps(10, 12, 12, 0, 0, &n_gap);
    test_cond("dispatch gap: 10 kernels 1.5 us after their stream's previous one alone, 12 that waited 40 us beside "
              "another stream's 1-block kernel, 12 that waited 16 us behind a record between them: 1.5 us, from the "
              "10 alone (session 27: the torch job's 5 towers put it at 16.5 us)",
              n_gap == 10 && fabs(disp - 1.5e3) < 1);
    disp = dispatch_gaps(10, 0, 0, 12, 12, &n_gap);
    test_cond("...and beside 12 that waited 20 us while another stream's kernel started in the gap, and 12 that waited "
              "30 us beside another stream's graph node: 1.5 us, from the 10 alone",
              n_gap == 10 && fabs(disp - 1.5e3) < 1);
    disp = dispatch_gaps(6, 12, 12, 0, 0, &n_gap);
    test_cond("...6 alone are too few: none fitted, the machine's stays (1.63 us)", n_gap == 0 && disp == 1.63e3);
    rp_trace tr;
    int fitted = copy_gaps(4, 6, 0, 0, &tr);
    test_cond("four H2D copies 6 us after the kernels they waited for, kernels 7.5 us after those copies: an H2D "
              "goes 6 us after a kernel, a kernel 6 us after an H2D beyond the dispatch gap (1.5), D2H none",
              fitted == 2 && fabs(tr.copy_after_kernel_ns[0] - 6e3) < 1 && fabs(tr.kernel_after_copy_ns[0] - 6e3) < 1 &&
                  tr.copy_after_kernel_ns[1] == 0 && tr.kernel_after_copy_ns[1] == 0);
    fitted = copy_gaps(3, 6, 0, 0, &tr);
    test_cond("...three such pairs are too few: none fitted", fitted == 0 && tr.copy_after_kernel_ns[0] == 0);
    fitted = copy_gaps(4, 6, 1, 0, &tr);
    test_cond("...pageable copies (their start holds staging) show none",
              fitted == 0 && tr.kernel_after_copy_ns[0] == 0);
    int pooled = rp_fit_pool(&tr, 1.5e3);
    test_cond("...nor pool any pair: the pool gives none", pooled == 0 && tr.kernel_after_copy_ns[0] == 0);
    copy_gaps(2, 6, 0, 0, &tr);
    pooled = rp_fit_pool(&tr, 1.5e3);
    test_cond("two H2D after kernels (6 us) and two kernels after H2D (7.5 us): neither side has four, all four kinds "
              "pool to four and each gap takes their median (the lower: 6 us), a kernel's less the dispatch gap (4.5)",
              pooled == 4 && tr.gap_pooled == 4 && tr.gap_pool_n[RP_POOL_ALL] == 4 &&
                  tr.gap_pool_from[0] == RP_POOL_ALL && fabs(tr.copy_after_kernel_ns[0] - 6e3) < 1 &&
                  fabs(tr.copy_after_kernel_ns[1] - 6e3) < 1 && fabs(tr.kernel_after_copy_ns[0] - 4.5e3) < 1 &&
                  fabs(tr.kernel_after_copy_ns[1] - 4.5e3) < 1);
    copy_gaps(4, 6, 0, 2, &tr);
    pooled = rp_fit_pool(&tr, 1.5e3);
    test_cond("two each of H2D and D2H after kernels (6 us) and of kernels after them (7.5 us): each side pools its "
              "own four, copies 6 us after a kernel, kernels 6 us after a copy beyond the dispatch gap",
              pooled == 4 && tr.gap_pool_from[1] == RP_POOL_COPIES && tr.gap_pool_from[3] == RP_POOL_KERNELS &&
                  fabs(tr.copy_after_kernel_ns[0] - 6e3) < 1 && fabs(tr.copy_after_kernel_ns[1] - 6e3) < 1 &&
                  fabs(tr.kernel_after_copy_ns[0] - 6e3) < 1 && fabs(tr.kernel_after_copy_ns[1] - 6e3) < 1);
    copy_gaps(4, 6, 0, 0, &tr);
    pooled = rp_fit_pool(&tr, 1.5e3);
    test_cond("...with four H2D of each kind, the H2D's own stand and the D2H's two (none shown) take their side's "
              "pool: 6 us after a kernel, a kernel 6 us after (not the four kinds' 4.5)",
              pooled == 2 && fabs(tr.copy_after_kernel_ns[0] - 6e3) < 1 && fabs(tr.kernel_after_copy_ns[0] - 6e3) < 1 &&
                  fabs(tr.copy_after_kernel_ns[1] - 6e3) < 1 && fabs(tr.kernel_after_copy_ns[1] - 6e3) < 1);
    copy_gaps(2, 6, 0, 0, &tr);
    tr.gap_pool_n[RP_POOL_ALL] = 0; /* the range's all-kinds pool too few: the whole trace's side pools come first */
    tr.gap_pool_ns[RP_POOLS + RP_POOL_COPIES] = 9e3, tr.gap_pool_n[RP_POOLS + RP_POOL_COPIES] = 40;
    tr.gap_pool_ns[RP_POOLS + RP_POOL_ALL] = 3e3, tr.gap_pool_n[RP_POOLS + RP_POOL_ALL] = 80;
    pooled = rp_fit_pool(&tr, 1.5e3);
    test_cond("a range's two of each, with the whole trace's pools: a copy after a kernel takes the whole trace's "
              "copies after kernels (9 us) before its all four kinds (3 us); a kernel after a copy, that side none, "
              "the whole trace's all four (3 us less 1.5)",
              pooled == 4 && fabs(tr.copy_after_kernel_ns[0] - 9e3) < 1 &&
                  fabs(tr.kernel_after_copy_ns[0] - 1.5e3) < 1 &&
                  tr.gap_pool_from[2] == RP_POOLS + RP_POOL_ALL);
    copy_gaps(2, 6, 0, 0, &tr); /* the range's all four: 4 pairs, 6 us */
    tr.gap_pool_ns[RP_POOLS + RP_POOL_COPIES] = 9e3, tr.gap_pool_n[RP_POOLS + RP_POOL_COPIES] = 40;
    tr.gap_pool_ns[RP_POOLS + RP_POOL_ALL] = 3e3, tr.gap_pool_n[RP_POOLS + RP_POOL_ALL] = 80;
    pooled = rp_fit_pool(&tr, 1.5e3);
    test_cond("...the range's all four kinds (4 pairs, 6 us) come after the whole trace's side (a copy: 9 us) and "
              "before the whole trace's all four (a kernel: 6 us less 1.5, not 3 less 1.5)",
              pooled == 4 && fabs(tr.copy_after_kernel_ns[0] - 9e3) < 1 &&
                  fabs(tr.kernel_after_copy_ns[0] - 4.5e3) < 1 && tr.gap_pool_from[2] == RP_POOL_ALL);
    copy_gaps(1, 6, 0, 0, &tr);
    test_cond("...one of each (two pairs) is too few to pool", rp_fit_pool(&tr, 1.5e3) == 0 &&
                                                              tr.gap_pool_n[RP_POOL_ALL] == 0 &&
                                                              tr.copy_after_kernel_ns[0] == 0);
    int n_arrive;
    double arrive = copy_arrivals(10, 0, 0, &n_arrive);
    test_cond("ten copies into idle streams, 1.0-1.9 us after their calls returned: their tenth percentile (1.0 us) "
              "less the launch latency (0.5 us), from all ten",
              n_arrive == 10 && fabs(arrive - 0.5e3) < 1);
    arrive = copy_arrivals(10, 0, 1, &n_arrive);
    test_cond("...one of them (1.0 us) began before its call returned (the host waited for it): left out, nine, "
              "1.1 us less 0.5",
              n_arrive == 9 && fabs(arrive - 0.6e3) < 1);
    arrive = copy_arrivals(7, 0, 0, &n_arrive);
    test_cond("...seven such copies are too few: none", n_arrive == 0 && arrive == 0);
    arrive = copy_arrivals(10, 1, 0, &n_arrive);
    test_cond("...ten D2H copies, eight called while another stream's D2H (150 us after its stream's kernel, a gap "
              "the fit leaves out) held the engine: two count, too few, none",
              n_arrive == 0 && arrive == 0);
    double start, go;
    double wake = fitted_wake(1500, 2500, &start, &go);
    test_cond("a host function that wakes the driver's thread starts when the recording's thread began to run "
              "(1500 ns; ready at about 1000)",
              go > 900 && go < 1100 && fabs(start - 1500) < 1 && fabs(wake - (1500 - go + 100)) < 1);
    test_cond("no wake is fitted where the recording's thread was already running then (a run 0..2500)",
              fitted_wake(0, 2500, &start, &go) == 0);
    test_cond("...nor one over 2 ms (a run that began 3 ms after: another moment, not this wake)",
              fitted_wake(3001000, 3002000, &start, &go) == 0);
    test_report();
}
