/* test_sched.c - the scheduling model: the textbook's closed forms wherever
 * their assumptions hold, then one hand-worked program per rule. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"
#include "harness.h"
#include "gl_sched.h"
#include "machines.h"

static char err[256];

/* Run p on m; a program that cannot run fails the calling test. */
static gl_sched_result run(gl_sched_program *p, const gl_sched_machine *m)
{
    gl_sched_result r;
    if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) {
        printf("# simulate: %s\n", err);
        r.makespan_ns = -1;
    }
    return r;
}

/* S new streams of one kind. */
static void streams(gl_sched_program *p, int *s, int S, int kind)
{
    for (int i = 0; i < S; i++) s[i] = gl_sched_stream_new(p, kind, 0, -1);
}

/* ---- the closed forms -------------------------------------------------------------- */

static void test_textbook_grid(void)
{
    static const int Ss[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 31, 33};
    static const int Ks[] = {1, 2, 3, 5};
    static const int Cs[] = {1, 2, 3, 4, 8, 32};
    const double T = 1000;
    int cases = 0, make_ok = 0, peak_ok = 0;
    for (int a = 0; a < GL_ARRAY_LEN(Ss); a++)
        for (int b = 0; b < GL_ARRAY_LEN(Ks); b++)
            for (int c = 0; c < GL_ARRAY_LEN(Cs); c++)
                for (int order = GL_SCHED_DEPTH_FIRST; order <= GL_SCHED_BREADTH_FIRST; order++) {
                    int S = Ss[a], K = Ks[b], C = Cs[c], s[64];
                    gl_sched_program p;
                    gl_sched_program_init(&p);
                    streams(&p, s, S, GL_SCHED_STREAM_NONBLOCKING);
                    gl_sched_streams_by_kernels(&p, s, S, K, order, 1, 32, 1, T);
                    gl_sched_machine m = ideal(C, S * K, 1024);
                    gl_sched_result r = run(&p, &m);
                    gl_sched_textbook_form f = gl_sched_textbook(order, S, K, T, C, 1024);
                    cases++;
                    make_ok += r.makespan_ns == f.makespan_ns;
                    peak_ok += r.peak_concurrency == f.peak;
                    if (r.makespan_ns != f.makespan_ns || r.peak_concurrency != f.peak)
                        printf("# S=%d K=%d C=%d %s: simulated %g ns peak %d, textbook %s = %g ns peak %d\n", S, K, C,
                               order ? "breadth" : "depth", r.makespan_ns, r.peak_concurrency, f.formula,
                               f.makespan_ns, f.peak);
                    gl_sched_program_free(&p);
                }
    char d[160];
    snprintf(d, sizeof d, "textbook makespan reproduced exactly in %d of %d (S, K, C, order) cases", make_ok, cases);
    test_cond(d, make_ok == cases);
    snprintf(d, sizeof d, "textbook peak concurrency reproduced exactly in %d of %d cases", peak_ok, cases);
    test_cond(d, peak_ok == cases);
}

static void test_textbook_stream_rule(void)
{
    /* The textbook's own queue rule (stream s in queue s mod C) gives the same forms. */
    int bad = 0, cases = 0;
    for (int S = 1; S <= 12; S++)
        for (int C = 1; C <= 5; C++)
            for (int order = 0; order < 2; order++) {
                int s[16];
                gl_sched_program p;
                gl_sched_program_init(&p);
                streams(&p, s, S, GL_SCHED_STREAM_NONBLOCKING);
                gl_sched_streams_by_kernels(&p, s, S, 3, order, 1, 32, 1, 100);
                gl_sched_machine m = ideal(C, 64, 1024);
                m.queue_rule = GL_SCHED_QUEUE_STREAM;
                gl_sched_result r = run(&p, &m);
                gl_sched_textbook_form f = gl_sched_textbook(order, S, 3, 100, C, 1024);
                bad += r.makespan_ns != f.makespan_ns || r.peak_concurrency != f.peak;
                cases++;
                gl_sched_program_free(&p);
            }
    char d[128];
    snprintf(d, sizeof d, "the stream-mod-C queue rule reproduces the textbook too (%d of %d cases differ)", bad, cases);
    test_cond(d, bad == 0);
}

static void test_textbook_resident_limit(void)
{
    /* Breadth-first beyond L: ceil(S*K/L) waves of T. */
    int s[40];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 40, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_streams_by_kernels(&p, s, 40, 2, GL_SCHED_BREADTH_FIRST, 1, 32, 1, 100);
    gl_sched_machine m = ideal(8, 128, 16);
    gl_sched_result r = run(&p, &m);
    gl_sched_textbook_form f = gl_sched_textbook(GL_SCHED_BREADTH_FIRST, 40, 2, 100, 8, 16);
    test_cond("resident-grid limit: 80 kernels, 16 at a time, take ceil(80/16) = 5 waves as the textbook says",
              r.makespan_ns == 500 && f.makespan_ns == 500 && r.peak_concurrency == 16 && r.max_resident == 16);
    gl_sched_program_free(&p);
}

/* ---- one program per rule ------------------------------------------------------------- */

static void test_false_dependency(void)
{
    /* One queue: A, B in stream 1 (B waits for A), then X in stream 2 behind B. */
    for (int C = 1; C <= 2; C++) {
        int s[2];
        gl_sched_program p;
        gl_sched_program_init(&p);
        streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
        gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
        gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 1);
        int x = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 10, 2);
        gl_sched_machine m = ideal(C, 4, 128);
        run(&p, &m);
        if (C == 1)
            test_cond("in-order queue: an independent kernel behind a waiting head waits too (starts at 100)",
                      p.ops[x].start_ns == 100);
        else
            test_cond("with a second queue the same kernel starts at once", p.ops[x].start_ns == 0);
        gl_sched_program_free(&p);
    }
}

static void test_release_rule(void)
{
    /* A: 5 blocks, 2 slots, 100 each (3 waves); B: one block in a more urgent
     * stream, issued 10 after A. Released at launch, B takes the first free
     * slot at 110; released only once A's blocks are all out, B waits in the
     * queue until 210. */
    for (int rule = 0; rule < 2; rule++)
        for (int C = 1; C <= 2; C++) {
            gl_sched_program p;
            gl_sched_program_init(&p);
            int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
            int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, -1, -1);
            int oa = gl_sched_launch(&p, 0, a, 5, 32, 2, 100, 0);
            int ob = gl_sched_launch(&p, 0, b, 1, 32, 2, 10, 1);
            gl_sched_machine m = ideal(C, 1, 128);
            m.release_rule = rule;
            m.issue_ns = 10; /* B arrives after A's first blocks are out */
            run(&p, &m);
            double want = rule == GL_SCHED_RELEASE_DISPATCHED && C == 1 ? 210 : 110;
            char d[160];
            snprintf(d, sizeof d, "release %s, %d queue(s): the urgent kernel starts at %g (got %g), A ends at %g",
                     rule ? "once dispatched" : "at launch", C, want, p.ops[ob].start_ns, p.ops[oa].end_ns);
            test_cond(d, p.ops[ob].start_ns == want);
            gl_sched_program_free(&p);
        }
}

static void test_block_slots(void)
{
    /* 2 SMs x 1 slot: A (3 blocks) then B (2 blocks) in another queue. A's
     * last block goes first at 100 (oldest first), B's first block beside it,
     * B's second at 200: the kernels overlap partially. */
    int s[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    int a = gl_sched_launch(&p, 0, s[0], 3, 1024, 1, 100, 0);
    int b = gl_sched_launch(&p, 0, s[1], 2, 1024, 1, 100, 1);
    gl_sched_machine m = ideal(2, 2, 128);
    gl_sched_result r = run(&p, &m);
    test_cond("blocks fill free slots: A runs 0..200, B 100..300, overlapping partially",
              p.ops[a].start_ns == 0 && p.ops[a].end_ns == 200 && p.ops[b].start_ns == 100 &&
                  p.ops[b].end_ns == 300 && r.makespan_ns == 300 && r.peak_concurrency == 2);
    gl_sched_program_free(&p);

    /* Shapes share an SM by occupancy: 1 block of a 2-per-SM kernel and 2 of a 4-per-SM one fill it. */
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 512, 2, 100, 0);
    int c = gl_sched_launch(&p, 0, s[1], 3, 256, 4, 100, 1);
    m = ideal(2, 1, 128);
    run(&p, &m);
    test_cond("mixed shapes: half an SM left takes two quarter-SM blocks; the third waits for 100",
              p.ops[c].start_ns == 0 && p.ops[c].end_ns == 200);
    gl_sched_program_free(&p);
}

static void test_resident_limit(void)
{
    int s[8];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 8, GL_SCHED_STREAM_NONBLOCKING);
    for (int i = 0; i < 8; i++) gl_sched_launch(&p, 0, s[i], 1, 32, 1, 100, i);
    gl_sched_machine m = ideal(8, 64, 4);
    gl_sched_result r = run(&p, &m);
    test_cond("resident-grid limit 4: 8 kernels run 4 at a time", r.makespan_ns == 200 && r.peak_concurrency == 4 &&
                                                                       r.max_resident == 4);
    gl_sched_program_free(&p);
}

static void test_queue_switch_rule(void)
{
    /* The probe from the queue-map experiment: 12 streams hold every queue busy,
     * then L and D in stream b (D waits for L) and a short kernel in every
     * other stream. With the switch rule the shorts that wait are those whose
     * call lands in D's queue: which depends on the call sequence, not on b. */
    static const int blockers[] = {0, 1, 5};
    static const char *const want[] = {"B...W...W...", ".B..W...W...", "...W.B..W..."};
    for (int i = 0; i < 3; i++) {
        int s[12], b = blockers[i], first = 0, shorts[12];
        gl_sched_program p;
        gl_sched_program_init(&p);
        streams(&p, s, 12, GL_SCHED_STREAM_NONBLOCKING);
        for (int j = 0; j < 12; j++) gl_sched_launch(&p, 0, s[j], 1, 32, 1, 300000, first++);
        int l = gl_sched_launch(&p, 0, s[b], 1, 32, 1, 2000000, first++);
        gl_sched_launch(&p, 0, s[b], 1, 32, 1, 10000, first++);
        for (int j = 0; j < 12; j++) shorts[j] = j == b ? -1 : gl_sched_launch(&p, 0, s[j], 1, 32, 1, 5000, first++);
        gl_sched_machine m = ideal(4, 132, 128);
        m.issue_ns = 4000;
        run(&p, &m);
        char got[13];
        for (int j = 0; j < 12; j++)
            got[j] = j == b ? 'B' : p.ops[shorts[j]].start_ns - p.ops[l].start_ns > 1900000 ? 'W' : '.';
        got[12] = '\0';
        char d[160];
        snprintf(d, sizeof d, "queue switch rule, all queues busy, blocker in stream %d: waiters %s (measured on H200: %s)",
                 b, got, want[i]);
        test_cond(d, strcmp(got, want[i]) == 0);
        gl_sched_program_free(&p);
    }
    /* With idle queues a new stream takes one of them: nothing waits. */
    int s[12], shorts[12], id = 0;
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 12, GL_SCHED_STREAM_NONBLOCKING);
    int l = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 2000000, id++);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 10000, id++);
    for (int j = 1; j < 12; j++) shorts[j] = gl_sched_launch(&p, 0, s[j], 1, 32, 1, 5000, id++);
    gl_sched_machine m = ideal(4, 132, 128);
    m.issue_ns = 4000;
    run(&p, &m);
    int waited = 0;
    for (int j = 1; j < 12; j++) waited += p.ops[shorts[j]].start_ns - p.ops[l].start_ns > 1900000;
    test_cond("queue switch rule, idle queues: no short kernel waits (measured on H200: none)", waited == 0);
    gl_sched_program_free(&p);
}

static void test_legacy_stream(void)
{
    for (int kind = GL_SCHED_STREAM_BLOCKING; kind <= GL_SCHED_STREAM_NONBLOCKING; kind++) {
        int s[2];
        gl_sched_program p;
        gl_sched_program_init(&p);
        streams(&p, s, 2, kind);
        gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
        int lg = gl_sched_launch(&p, 0, GL_SCHED_LEGACY, 1, 32, 1, 10, 1);
        int b = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 100, 2);
        gl_sched_machine m = ideal(8, 8, 128);
        gl_sched_result r = run(&p, &m);
        if (kind == GL_SCHED_STREAM_BLOCKING)
            test_cond("legacy stream: its kernel waits for the blocking stream (100), the next blocking kernel for it (110)",
                      p.ops[lg].start_ns == 100 && p.ops[b].start_ns == 110 && r.makespan_ns == 210);
        else
            test_cond("legacy stream: non-blocking streams neither wait for it nor hold it back",
                      p.ops[lg].start_ns == 0 && p.ops[b].start_ns == 0 && r.makespan_ns == 100);
        gl_sched_program_free(&p);
    }
    /* Per-thread default streams are blocking. */
    gl_sched_program p;
    gl_sched_program_init(&p);
    int pt = gl_sched_stream_new(&p, GL_SCHED_STREAM_PER_THREAD, 0, 0);
    gl_sched_launch(&p, 0, pt, 1, 32, 1, 100, 0);
    int lg = gl_sched_launch(&p, 0, GL_SCHED_LEGACY, 1, 32, 1, 10, 1);
    gl_sched_machine m = ideal(8, 8, 128);
    run(&p, &m);
    test_cond("a per-thread default stream synchronizes with the legacy stream", p.ops[lg].start_ns == 100);
    gl_sched_program_free(&p);
}

static void test_events(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    int e = gl_sched_event_new(&p), never = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
    int rec = gl_sched_record(&p, 0, s[0], e);
    gl_sched_wait(&p, 0, s[1], e);
    int b = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 50, 1);
    gl_sched_wait(&p, 0, s[0], never);
    int c = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 50, 2);
    gl_sched_machine m = ideal(4, 8, 128);
    run(&p, &m);
    test_cond("events: a record finishes when its stream reaches it; a waiting stream goes on then",
              p.ops[rec].end_ns == 100 && p.ops[b].start_ns == 100);
    test_cond("events: waiting for an event never recorded does not wait", p.ops[c].start_ns == 100);
    gl_sched_program_free(&p);
}

/* When a record is reached (issue 18's probe, H200, 1 ms kernels of one block, non-blocking streams, a record
 * on a stream X issued last, timed from an event recorded first): it also waits for the queue the rule would
 * give it to let go of everything put in it before, without holding that queue or moving the rule. Measured:
 * [A: 1,1] [B: 3,1] [X: rec] read 4.01 ms at C = 1 (the queue lets B's second kernel go at 4) and 1.01 ms at
 * C = 2 (all queues busy, so the record looks at the next one round the rule, A's, free at 1); [A: 1,1] [B: 2,1]
 * [C: 3,1] [X: rec] read 2.01 ms at C = 2 (C went behind A, so the record is B's); 0.01-0.04 ms wherever a
 * queue was idle. module-loading's non-blocking stop event read 32.1 ms at C = 1, where it was issued at 1. */
static double record_end(int C, const int *kernels, int n_kernels)
{
    int s[8];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 8, GL_SCHED_STREAM_NONBLOCKING);
    int ev = gl_sched_event_new(&p);
    for (int i = 0; i < n_kernels; i++) /* kernels[i]: stream * 10 + ms */
        gl_sched_launch(&p, 0, s[kernels[i] / 10], 1, 32, 1, 1000.0 * (kernels[i] % 10), i);
    int rec = gl_sched_record(&p, 0, s[7], ev);
    gl_sched_machine m = ideal(C, 16, 16);
    run(&p, &m);
    double end = p.ops[rec].end_ns;
    gl_sched_program_free(&p);
    return end;
}

static void test_record_reached(void)
{
    static const int ab[] = {1, 1, 13, 11}, abc[] = {1, 1, 12, 11, 23, 21}, a[] = {1, 1};
    test_cond("a record waits for its queue: [A: 1,1] [B: 3,1] [X: rec] at C = 1 ends at 4 ms (measured 4.01)",
              record_end(1, ab, 4) == 4000);
    test_cond("... at C = 2, every queue busy: it looks at A's, the next round the rule, and ends at 1 (1.01)",
              record_end(2, ab, 4) == 1000);
    test_cond("... [A: 1,1] [B: 2,1] [C: 3,1] at C = 2: C went behind A, the record looks at B's: 2 ms (2.01)",
              record_end(2, abc, 6) == 2000);
    test_cond("... with an idle queue it ends at once: [A: 1,1] at C = 2, and all three at C = 4 (0.01-0.04)",
              record_end(2, a, 2) == 0 && record_end(4, abc, 6) == 0);
    test_cond("... and at C = 1 behind a stream that holds the queue: [A: 1,1] ends at 1 ms (1.01)", record_end(1, a, 2) == 1000);
}

/* The seed's fan-in with more streams than queues: S = 16 streams of K = 4
 * kernels of T = 200 at C = 8, each stream's record followed by the last
 * stream's wait for it. Measured on an H100 (stream-events --part fan-in
 * --streams 16 --quick): streams 0..7 start at once, streams 8..14 each start
 * when stream i-8's last kernel does (they share its queue), and the waiting
 * stream runs last: 2.375 ms, peak 15. The waits pick no queue; had they, the
 * last stream's first wait would take queue 1 and push stream 7 behind
 * stream 0 (6.5 ms, peak 8 predicted before this rule). */
static void test_fan_in_more_streams_than_queues(void)
{
    enum { S = 16, K = 4, T = 200 };
    int s[S], ev[S], first[S];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, S, GL_SCHED_STREAM_NONBLOCKING);
    for (int i = 0; i < S; i++) {
        ev[i] = gl_sched_event_new(&p);
        for (int k = 0; k < K; k++) {
            int op = gl_sched_launch(&p, 0, s[i], 1, 32, 1, T, i * K + k);
            if (k == 0) first[i] = op;
        }
        if (i < S - 1) {
            gl_sched_record(&p, 0, s[i], ev[i]);
            gl_sched_wait(&p, 0, s[S - 1], ev[i]);
        }
    }
    gl_sched_machine m = ideal(8, 132, 128);
    gl_sched_result r = run(&p, &m);
    int own = 1, shared = 1;
    for (int i = 0; i < 8; i++) own &= p.ops[first[i]].start_ns == 0;
    for (int i = 8; i < S - 1; i++) shared &= p.ops[first[i]].start_ns == (K - 1) * T;
    test_cond("fan-in, S = 16 at C = 8: streams 0..7 start at once, 8..14 behind the last kernel of 0..6",
              own && shared);
    test_cond("fan-in, S = 16 at C = 8: the waiting stream runs last (makespan (K-1)T + KT + KT = 2200), peak 15",
              r.makespan_ns == (K - 1) * T + 2 * K * T && r.peak_concurrency == 15);
    gl_sched_program_free(&p);
}

static void test_host(void)
{
    /* Issue cost: each call returns issue_ns after the previous one. */
    int s[4];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 4, GL_SCHED_STREAM_NONBLOCKING);
    for (int i = 0; i < 4; i++) gl_sched_launch(&p, 0, s[i], 1, 32, 1, 5, i);
    gl_sched_machine m = ideal(4, 8, 128);
    m.issue_ns = 10;
    m.launch_latency_ns = 3;
    gl_sched_result r = run(&p, &m);
    test_cond("host issue cost: kernels start at 13, 23, 33, 43 and never overlap",
              p.ops[0].start_ns == 13 && p.ops[3].start_ns == 43 && r.peak_concurrency == 1 && r.makespan_ns == 35);
    gl_sched_program_free(&p);

    /* A call with its own measured cost overrides the machine's. */
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    int a = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 5, 0);
    p.ops[a].issue_ns = 70;
    run(&p, &m);
    test_cond("a per-call issue time replaces the machine's", p.ops[a].submit_ns == 70 && p.ops[a].start_ns == 73);
    gl_sched_program_free(&p);

    /* Synchronizing: the host waits for stream 1 before launching into stream 2. */
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
    gl_sched_sync_stream(&p, 0, s[0]);
    int b = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 10, 1);
    m = ideal(4, 8, 128);
    run(&p, &m);
    test_cond("host sync: the next call starts only when the stream is done", p.ops[b].start_ns == 100);
    /* The same with the thread's wake after it: the sync returns 9 later, and so the next call goes. */
    m.sync_return_ns = 9;
    run(&p, &m);
    test_cond("host sync with a return of 9: it ends at 109 and the next kernel starts there",
              p.ops[1].end_ns == 109 && p.ops[b].start_ns == 109);
    p.ops[1].wake_ns = 20;
    run(&p, &m);
    test_cond("... the sync's own wake (20) in place of the machine's: it ends at 120", p.ops[1].end_ns == 120);
    p.ops[1].wake_ns = -1;
    run(&p, &m);
    test_cond("... a negative wake, none (a replayed call whose own time after is host work): it ends at 100",
              p.ops[1].end_ns == 100 && p.ops[b].start_ns == 100);
    p.ops[1].wake_ns = NAN;
    gl_sched_result rr;
    test_cond("... a sync whose wake is not a number is refused",
              gl_sched_simulate(&p, &m, &rr, err, sizeof err) == -1 && strstr(err, "synchronization whose wake"));
    gl_sched_program_free(&p);

    /* Host work between calls, and a wait for an event: the host goes on when the record is reached. */
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    int ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 300, 0);
    gl_sched_record(&p, 0, s[0], ev);
    gl_sched_host(&p, 0, 50);
    gl_sched_sync_event(&p, 0, ev);
    int after = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 10, 1);
    m = ideal(2, 8, 128);
    m.issue_ns = 10;
    r = run(&p, &m);
    test_cond("host work and an event sync: the next launch is issued once the record is reached (310), +10; one entry queued at most",
              p.ops[after].submit_ns == 320 && r.max_queue_depth == 1);
    m.sync_return_ns = 25;
    run(&p, &m);
    test_cond("an event sync with a return of 25: the next launch is issued at 345", p.ops[after].submit_ns == 345);
    gl_sched_program_free(&p);

    /* A thread that ends in a sync ends when the sync returns. */
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    gl_sched_sync_stream(&p, 0, -1);
    m = ideal(1, 8, 128);
    m.issue_ns = 10;
    r = run(&p, &m);
    test_cond("host sync: the host's last call returns when the device is done (1010)", r.host_end_ns == 1010);
    m.sync_return_ns = 7;
    r = run(&p, &m);
    test_cond("a device sync with a return of 7: the host's last call returns at 1017, the span unchanged",
              r.host_end_ns == 1017 && r.makespan_ns == 1000);
    /* A sync whose work is done when it is called returns at once: its thread never slept. */
    gl_sched_program_free(&p);
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_host(&p, 0, 50);
    gl_sched_sync_stream(&p, 0, s[0]);
    r = run(&p, &m);
    test_cond("a sync with nothing to wait for returns as its call does (50 of host work, 10 the call): 60",
              r.host_end_ns == 60);
    gl_sched_program_free(&p);

    /* A sync's cost per connection (gl_sched.h "Host"): calls timed at C=8 return 35 ns a connection later at 32,
     * earlier at 1 where they waited, and no earlier than at once where they did not. */
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    int waited = gl_sched_sync_stream(&p, 0, s[0]);
    gl_sched_host(&p, 0, 2000);
    int idle = gl_sched_sync_stream(&p, 0, s[0]);
    m = ideal(8, 8, 128);
    m.issue_ns = 10;
    m.sync_return_ns = 500;
    m.sync_connection_ns = 35;
    m.timed_connections = 8;
    run(&p, &m);
    double w8 = p.ops[waited].end_ns, i8 = p.ops[idle].end_ns;
    test_cond("a sync timed at the machine's own setting costs nothing more: the waited one returns at 1510",
              w8 == 1510 && gl_sched_sync_extra_ns(&m) == 0);
    m.connections = 32;
    run(&p, &m);
    test_cond("... at C=32: both return 24 x 35 = 840 ns later",
              fabs(p.ops[waited].end_ns - w8 - 840) < 1e-6 && fabs(p.ops[idle].end_ns - i8 - 2 * 840) < 1e-6);
    m.connections = 1;
    run(&p, &m);
    test_cond("... at C=1: the waited one 245 ns earlier, the idle one at once after its call (not before)",
              fabs(p.ops[waited].end_ns - (w8 - 245)) < 1e-6 && fabs(p.ops[idle].end_ns - (i8 - 245)) < 1e-6 &&
                  p.ops[idle].end_ns == p.ops[idle].submit_ns);
    m.sync_return_ns = 100;
    run(&p, &m);
    test_cond("... at C=1 with a wake of 100 ns: the waited one returns at its kernel's end, not before (1010)",
              p.ops[waited].end_ns == 1010);
    m.sync_return_ns = 500;
    m.timed_connections = 0;
    run(&p, &m);
    test_cond("... calls with no setting of their own (timed_connections 0): nothing added at any setting",
              p.ops[waited].end_ns == w8);
    m.timed_connections = 33;
    test_cond("a program timed at a setting no GPU has (33) is refused",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1 && strstr(err, "timed at") != NULL);
    m.timed_connections = 8;
    m.sync_connection_ns = 35;
    m.copy_arrive_ns = -1;
    test_cond("a machine whose copies arrive before their calls return is refused",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1 && strstr(err, "copy arrival") != NULL);
    m.copy_arrive_ns = 0;
    m.sync_connection_ns = NAN;
    test_cond("a machine whose cost per connection of a sync is not a number is refused",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1 && strstr(err, "per connection") != NULL);
    gl_sched_program_free(&p);

    /* Two host threads issue side by side. */
    gl_sched_program_init(&p);
    int t0 = gl_sched_stream_new(&p, GL_SCHED_STREAM_PER_THREAD, 0, 0);
    int t1 = gl_sched_stream_new(&p, GL_SCHED_STREAM_PER_THREAD, 0, 1);
    for (int i = 0; i < 3; i++) {
        gl_sched_launch(&p, 0, t0, 1, 32, 1, 100, 2 * i);
        gl_sched_launch(&p, 1, t1, 1, 32, 1, 100, 2 * i + 1);
    }
    m = ideal(2, 8, 128);
    m.issue_ns = 10;
    r = run(&p, &m);
    test_cond("two host threads: their streams run side by side (300 ns, two at a time)",
              r.makespan_ns == 300 && r.peak_concurrency == 2);
    gl_sched_program_free(&p);
}

static void test_dispatch_latency(void)
{
    int s[1];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    for (int i = 0; i < 3; i++) gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, i);
    gl_sched_machine m = ideal(1, 1, 128);
    m.dispatch_ns = 2;
    run(&p, &m);
    test_cond("dispatch latency: a dependent kernel starts 2 ns after its predecessor ends",
              p.ops[0].start_ns == 2 && p.ops[1].start_ns == 104 && p.ops[2].start_ns == 206);

    /* A graph's chained nodes take the graph's dispatch (1 ns) where the machine sets one; the first, not chained,
     * the queue's (2 ns). Unset, every kernel takes the queue's. */
    p.ops[1].chained = p.ops[2].chained = 1;
    m.graph_dispatch_ns = 1;
    run(&p, &m);
    test_cond("a graph's chained node goes graph_dispatch_ns after its predecessor: 2, 103, 204",
              p.ops[0].start_ns == 2 && p.ops[1].start_ns == 103 && p.ops[2].start_ns == 204);
    m.graph_dispatch_ns = 0;
    run(&p, &m);
    test_cond("without a graph dispatch a chained node takes the queue's: 2, 104, 206",
              p.ops[0].start_ns == 2 && p.ops[1].start_ns == 104 && p.ops[2].start_ns == 206);
    /* The third begins its conditional body again (chained 2): the machine's restart (9 ns) after the second. */
    p.ops[2].chained = 2;
    m.graph_dispatch_ns = 1, m.graph_restart_ns = 9;
    run(&p, &m);
    test_cond("a conditional body's node that begins it again goes graph_restart_ns after its predecessor: 103, 212",
              p.ops[1].start_ns == 103 && p.ops[2].start_ns == 212);
    m.graph_restart_ns = 0;
    run(&p, &m);
    test_cond("... without a restart it takes the graph's dispatch: 204", p.ops[2].start_ns == 204);
    gl_sched_program_free(&p);
    /* A restart after a copy node (a body ending in a copy): from the copy's end the restart alone, not the graph's
     * or the machine's costs of a kernel after a copy as well. */
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    int rc_copy = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 64, 0), rk = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
    p.ops[rc_copy].copy_ns = 10, p.ops[rk].chained = 2;
    gl_sched_machine mr = copier(1);
    mr.graph_restart_ns = 50, mr.graph_kernel_after_copy_ns = 7, mr.kernel_after_copy_ns[GL_SCHED_H2D] = 13;
    run(&p, &mr);
    test_cond("a restart after a copy node goes its restart (50) after the copy's end, not its costs after a copy too",
              p.ops[rk].start_ns - p.ops[rc_copy].end_ns == 50);
    m.graph_restart_ns = -1;
    gl_sched_result rs;
    char rerr[160];
    test_cond("a machine with a negative restart is refused",
              gl_sched_simulate(&p, &m, &rs, rerr, sizeof rerr) == -1 && strstr(rerr, "restart") != NULL);
    gl_sched_program_free(&p);

    /* A graph's [D2H, kernel, D2H] chained in one stream, the copies 10 ns each: the kernel goes
     * graph_kernel_after_copy_ns (3) and the queue's dispatch (2) after the first copy ends, the second copy
     * graph_copy_after_kernel_ns (5) after the kernel ends; without them, the machine's costs (none here). */
    m = copier(1);
    m.dispatch_ns = 2;
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    int c1 = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 64, 0), k = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
    int c2 = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 64, 0);
    p.ops[c1].copy_ns = p.ops[c2].copy_ns = 10;
    p.ops[k].chained = p.ops[c2].chained = 1;
    m.graph_copy_after_kernel_ns = 5, m.graph_kernel_after_copy_ns = 3;
    run(&p, &m);
    double chained_k = p.ops[k].start_ns - p.ops[c1].end_ns, chained_c = p.ops[c2].start_ns - p.ops[k].end_ns;
    m.graph_copy_after_kernel_ns = m.graph_kernel_after_copy_ns = 0;
    run(&p, &m);
    test_cond("a graph's chained kernel goes its graph's cost after a copy, a chained copy after a kernel",
              chained_k == 3 + 2 && chained_c == 5 && p.ops[k].start_ns - p.ops[c1].end_ns == 2 &&
                  p.ops[c2].start_ns == p.ops[k].end_ns);
    gl_sched_program_free(&p);

    /* A copy's arrival (gl_sched.h "Host", copy_arrive_ns): the pinned D2H into an idle stream arrives 7 ns after
     * its call returns, on top of the launch latency (4), and what follows it in its stream moves with it; a copy
     * the host waits for (a pageable D2H) arrives as it did. */
    int sa[2];
    gl_sched_program_init(&p);
    streams(&p, sa, 2, GL_SCHED_STREAM_NONBLOCKING);
    int paged = gl_sched_copy(&p, 0, sa[1], GL_SCHED_D2H, 64, 1);
    c1 = gl_sched_copy(&p, 0, sa[0], GL_SCHED_D2H, 64, 0), k = gl_sched_launch(&p, 0, sa[0], 1, 32, 1, 100, 0);
    c2 = gl_sched_copy(&p, 0, sa[0], GL_SCHED_D2H, 64, 0);
    p.ops[c1].copy_ns = p.ops[c2].copy_ns = p.ops[paged].copy_ns = 10;
    p.ops[c2].chained = 1;
    gl_sched_machine mc = copier(1);
    mc.launch_latency_ns = 4;
    run(&p, &mc);
    double before[4] = {p.ops[c1].start_ns, p.ops[k].start_ns, p.ops[c2].start_ns, p.ops[paged].start_ns};
    mc.copy_arrive_ns = 7;
    run(&p, &mc);
    test_cond("a copy into an idle stream arrives copy_arrive_ns (7) after its return and the launch latency; its "
              "stream's kernel and chained copy 7 later for it alone",
              p.ops[c1].start_ns == p.ops[c1].submit_ns + 4 + 7 && p.ops[c1].start_ns == before[0] + 7 &&
                  p.ops[k].start_ns == before[1] + 7 && p.ops[c2].start_ns == before[2] + 7);
    test_cond("... a copy the host waits for arrives as before", p.ops[paged].start_ns == before[3]);
    gl_sched_program_free(&p);
    /* Issued long after their streams' work ended (100 ns a call), each starts at its arrival: an own pinned H2D
     * copy_arrive_ns (7) after the launch latency (4); a chained node, a handed one and a memset none. */
    int sb[4];
    gl_sched_program_init(&p);
    streams(&p, sb, 4, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, sb[0], 1, 32, 1, 1, 0);
    int own = gl_sched_copy(&p, 0, sb[1], GL_SCHED_H2D, 64, 0);
    int chain = gl_sched_copy(&p, 0, sb[0], GL_SCHED_H2D, 64, 0);
    int hand = gl_sched_copy(&p, 0, sb[2], GL_SCHED_D2H, 64, 0);
    int set = gl_sched_copy(&p, 0, sb[3], GL_SCHED_MEMSET, 64, 0);
    p.ops[chain].chained = 1, p.ops[hand].handed = 1;
    mc = copier(4);
    mc.launch_latency_ns = 4, mc.copy_arrive_ns = 7, mc.issue_ns = 100;
    run(&p, &mc);
    test_cond("an own copy arrives 4 + 7 ns after its call; a chained copy, a handed one and a memset 4 ns after",
              p.ops[own].start_ns - p.ops[own].submit_ns == 11 && p.ops[chain].start_ns - p.ops[chain].submit_ns == 4 &&
                  p.ops[hand].start_ns - p.ops[hand].submit_ns == 4 && p.ops[set].start_ns - p.ops[set].submit_ns == 4);
    gl_sched_program_free(&p);

    /* The same [D2H, kernel, D2H] with a wait on another stream's record before the second copy (a graph's
     * cross-stream edge): the copy's graph cost still counts from its predecessor node, the kernel. And with the
     * graph's dispatch set (1) but no cost after a copy, the kernel after the copy takes the queue's dispatch (2):
     * its ordinary cost after a copy was fitted less that. */
    int s2[2];
    gl_sched_program_init(&p);
    streams(&p, s2, 2, GL_SCHED_STREAM_NONBLOCKING);
    int e = gl_sched_event_new(&p);
    c1 = gl_sched_copy(&p, 0, s2[0], GL_SCHED_D2H, 64, 0), k = gl_sched_launch(&p, 0, s2[0], 1, 32, 1, 100, 0);
    gl_sched_record(&p, 0, s2[1], e);
    gl_sched_wait(&p, 0, s2[0], e);
    c2 = gl_sched_copy(&p, 0, s2[0], GL_SCHED_D2H, 64, 0);
    p.ops[c1].copy_ns = p.ops[c2].copy_ns = 10;
    p.ops[k].chained = p.ops[c2].chained = 1;
    m.graph_copy_after_kernel_ns = 5, m.graph_kernel_after_copy_ns = 0, m.graph_dispatch_ns = 1;
    run(&p, &m);
    test_cond("a chained copy behind a wait on another stream keeps its graph cost after its kernel; a kernel after a "
              "copy takes the queue's dispatch without the graph's cost after a copy",
              p.ops[c2].start_ns - p.ops[k].end_ns == 5 && p.ops[k].start_ns - p.ops[c1].end_ns == 2);
    m.graph_dispatch_ns = 0;
    m.graph_copy_after_kernel_ns = -1;
    gl_sched_result r;
    test_cond("a negative graph copy cost is refused, named",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) != 0 && strstr(err, "graph dispatch") != NULL);
    gl_sched_program_free(&p);
}

static void test_queue_entry(void)
{
    /* One queue, three independent kernels issued at once: 7 ns per entry. */
    int s[3];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 3, GL_SCHED_STREAM_NONBLOCKING);
    for (int i = 0; i < 3; i++) gl_sched_launch(&p, 0, s[i], 1, 32, 1, 100, i);
    gl_sched_machine m = ideal(1, 8, 128);
    m.queue_entry_ns = 7;
    run(&p, &m);
    test_cond("queue time per entry: independent kernels in one queue start 0, 7, 14",
              p.ops[0].start_ns == 0 && p.ops[1].start_ns == 7 && p.ops[2].start_ns == 14);
    gl_sched_program_free(&p);

    /* An entry that arrives while the queue is still inside its time per entry goes when that time is up. */
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 5, 0);
    int b = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 5, 1);
    m = ideal(1, 8, 128);
    m.issue_ns = 10;
    m.queue_entry_ns = 1000;
    gl_sched_result r;
    int rc = gl_sched_simulate(&p, &m, &r, err, sizeof err);
    test_cond("queue time per entry: a later arrival waits out the window (starts at 1010), nothing hangs",
              rc == 0 && p.ops[b].start_ns == 1010);
    gl_sched_program_free(&p);
}

static void test_dispatch_busy(void)
{
    /* Two chains in two queues: with both queues busy, each dependent kernel waits 5, not 2. */
    int s[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    for (int st = 0; st < 2; st++)
        for (int k = 0; k < 2; k++) gl_sched_launch(&p, 0, s[st], 1, 32, 1, 100, 2 * st + k);
    gl_sched_machine m = ideal(2, 8, 128);
    m.dispatch_ns = 2;
    m.dispatch_busy_ns[2] = 5;
    run(&p, &m);
    test_cond("dispatch latency with two busy queues: first kernels at 5, their successors 5 after them",
              p.ops[0].start_ns == 5 && p.ops[1].start_ns == 110 && p.ops[3].start_ns == 110);
    gl_sched_program_free(&p);
}

static void test_dispatch_chains(void)
{
    /* Two streams issued breadth-first over four queues: two chains, not four. */
    int s[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_streams_by_kernels(&p, s, 2, 4, GL_SCHED_BREADTH_FIRST, 1, 32, 1, 100);
    gl_sched_machine m = ideal(4, 8, 128);
    m.dispatch_busy_ns[1] = 1;
    m.dispatch_busy_ns[2] = 3;
    m.dispatch_busy_ns[4] = 50;
    gl_sched_result r = run(&p, &m);
    test_cond("dispatch latency counts chains: 2 streams over 4 queues wait 3 per link (makespan 4*103 - 0)",
              r.makespan_ns == 4 * 100 + 3 * 3);
    gl_sched_program_free(&p);
}

static void test_block_dispatch(void)
{
    /* 4 blocks at 10 ns apiece onto 4 free slots: they start at 0, 10, 20, 30,
     * so the grid ends at 30 + 100; a second grid's one block waits its turn. */
    int s[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    int a = gl_sched_launch(&p, 0, s[0], 4, 32, 1, 100, 0);
    int b = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 100, 1);
    gl_sched_machine m = ideal(2, 5, 128);
    m.block_dispatch_ns = 10;
    run(&p, &m);
    test_cond("block dispatch time: a 4-block grid spans 130 ns and the next grid's block starts at 40",
              p.ops[a].start_ns == 0 && p.ops[a].end_ns == 130 && p.ops[b].start_ns == 40);
    gl_sched_program_free(&p);
}

static void test_sm_sharing(void)
{
    /* gl_sched.h "Sharing": blocks of demand d on one SM, summing to L > 1, each run at 1/L of their speed. */
    int s[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    /* alone: 4 blocks spread one per SM (4 would fit on one), so L = 0.6 and they take their 100 ns; 8 blocks put
     * two on each SM, L = 1.2: 120 ns */
    int a = gl_sched_launch(&p, 0, s[0], 4, 32, 4, 100, 0);
    p.ops[a].sm_demand = 0.6;
    gl_sched_machine m = ideal(2, 4, 128);
    run(&p, &m);
    double alone = p.ops[a].end_ns - p.ops[a].start_ns;
    gl_sched_program_free(&p);
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    a = gl_sched_launch(&p, 0, s[0], 8, 32, 4, 100, 0);
    p.ops[a].sm_demand = 0.6;
    run(&p, &m);
    test_cond("sharing: 4 blocks of d = 0.6 spread over 4 SMs take 100 ns, 8 of them 120 ns",
              alone == 100 && fabs(p.ops[a].end_ns - 120) < 1e-6);
    gl_sched_program_free(&p);

    /* side by side, d = 0.75 each: L = 1.5 until the 100 ns kernel ends at 150 (its 100 ns at 2/3 speed); the
     * 300 ns one has done 100 by then and runs its last 200 alone: it ends at 350. With d = 0.5, L = 1: no one
     * slows. */
    static const double ds[] = {0.75, 0.5}, end_a[] = {150, 100}, end_b[] = {350, 300};
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        gl_sched_program_init(&p);
        streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
        a = gl_sched_launch(&p, 0, s[0], 4, 32, 4, 100, 0);
        int b = gl_sched_launch(&p, 0, s[1], 4, 32, 4, 300, 1);
        p.ops[a].sm_demand = p.ops[b].sm_demand = ds[k];
        run(&p, &m);
        if (fabs(p.ops[a].end_ns - end_a[k]) > 1e-6 || fabs(p.ops[b].end_ns - end_b[k]) > 1e-6) {
            printf("# d = %g: ends %g and %g, expected %g and %g\n", ds[k], p.ops[a].end_ns, p.ops[b].end_ns,
                   end_a[k], end_b[k]);
            ok = 0;
        }
        gl_sched_program_free(&p);
    }
    test_cond("sharing: two kernels of d = 0.75 on the same SMs slow each other while both run (150, 350 ns); "
              "of d = 0.5, not at all", ok);

    /* a kernel of no demand (a clock-bound spin) neither slows nor is slowed; one queue: they still overlap here,
     * as the first kernel's blocks are all out */
    gl_sched_program_init(&p);
    streams(&p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
    a = gl_sched_launch(&p, 0, s[0], 4, 32, 4, 100, 0);
    int b = gl_sched_launch(&p, 0, s[1], 4, 32, 4, 100, 1);
    p.ops[b].sm_demand = 1;
    gl_sched_machine m1 = ideal(1, 8, 128);
    run(&p, &m1);
    test_cond("sharing: a kernel of d = 0 beside one of d = 1: both take their 100 ns",
              p.ops[a].end_ns - p.ops[a].start_ns == 100 && fabs(p.ops[b].end_ns - p.ops[b].start_ns - 100) < 1e-6);
    p.ops[b].sm_demand = 1.5;
    gl_sched_result r;
    test_cond("sharing: a demand over one SM is refused, with its op named",
              gl_sched_simulate(&p, &m1, &r, err, sizeof err) != 0 && strstr(err, "op 1") != NULL);
    gl_sched_program_free(&p);
}

static void test_stream_creation(void)
{
    /* Creating a stream costs its call's time, before the first launch into it. */
    gl_sched_program p;
    gl_sched_program_init(&p);
    int st = gl_sched_stream_create(&p, 0, GL_SCHED_STREAM_NONBLOCKING, 0);
    p.ops[p.n_ops - 1].issue_ns = 40;
    int a = gl_sched_launch(&p, 0, st, 1, 32, 1, 100, 0);
    gl_sched_machine m = ideal(1, 8, 128);
    m.issue_ns = 10;
    run(&p, &m);
    test_cond("stream creation: its call's 40 ns come before the first launch (submitted at 50)", p.ops[a].submit_ns == 50);
    gl_sched_program_free(&p);
}

/* ---- copies, host functions and loads (gl_sched.h, "Engines" .. "Loads") ------------------------------ */


/* Two non-blocking streams in s, then nothing: a fresh program. */
static void two_streams(gl_sched_program *p, int *s)
{
    gl_sched_program_init(p);
    streams(p, s, 2, GL_SCHED_STREAM_NONBLOCKING);
}

static void test_record_holds_not(void)
{
    /* A record waits for its queue (test_record_reached), but its stream's next op does not wait for it: [A: 1,1] holds the one queue to 1 ms; B: a record, then a
     * pinned H2D (500 ns), which starts at once (validate-replay's random 20 at C=1: a 7 MB pageable H2D behind two
     * records went 1.3 ms before its queue let go of them). */
    int s2[2];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s2, 2, GL_SCHED_STREAM_NONBLOCKING);
    int ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, s2[0], 1, 32, 1, 1000, 0);
    gl_sched_launch(&p, 0, s2[0], 1, 32, 1, 1000, 1);
    int rec = gl_sched_record(&p, 0, s2[1], ev);
    int c = gl_sched_copy(&p, 0, s2[1], GL_SCHED_H2D, 500, 0);
    gl_sched_machine m = copier(1);
    run(&p, &m);
    test_cond("a record holds not its stream's next op: a copy behind it starts at once, the record ends at 1 ms",
              p.ops[rec].end_ns == 1000 && p.ops[c].start_ns == 0);
    gl_sched_program_free(&p);
    /* ... but what waits for everything issued to its stream waits for it: a sync of that stream, and (the stream
     * blocking) a legacy-stream copy issued after it. */
    for (int legacy = 0; legacy < 2; legacy++) {
        gl_sched_program_init(&p);
        s2[0] = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        s2[1] = gl_sched_stream_new(&p, legacy ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        ev = gl_sched_event_new(&p);
        gl_sched_launch(&p, 0, s2[0], 1, 32, 1, 1000, 0);
        gl_sched_launch(&p, 0, s2[0], 1, 32, 1, 1000, 1);
        rec = gl_sched_record(&p, 0, s2[1], ev);
        gl_sched_copy(&p, 0, s2[1], GL_SCHED_H2D, 500, 0);
        int after = legacy ? gl_sched_copy(&p, 0, GL_SCHED_LEGACY, GL_SCHED_D2H, 100, 0) : gl_sched_sync_stream(&p, 0, s2[1]);
        run(&p, &m);
        test_cond(legacy ? "... a legacy-stream copy after it (its stream blocking) starts when it has ended (1 ms)"
                         : "... a sync of its stream returns when it has ended (1 ms), not with the copy (500 ns)",
                  p.ops[rec].end_ns == 1000 && (legacy ? p.ops[after].start_ns : p.ops[after].end_ns) == 1000);
        gl_sched_program_free(&p);
    }
}

/* The shared link's time per copy: a small copy slows more than a large one while the other direction runs. */
static void test_bidir_small(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_machine m = copier(4);
    m.copy_bidir_latency_ns[0] = m.copy_bidir_latency_ns[1] = 1000; /* shared: 1000 ns + bytes at 0.5 */
    double ends[2][2];
    const double sizes[2] = {1000, 100000};
    for (int k = 0; k < 2; k++) {
        two_streams(&p, s);
        int h = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, sizes[k], 0);
        int d = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2H, sizes[k], 0);
        run(&p, &m);
        ends[k][0] = p.ops[h].end_ns, ends[k][1] = p.ops[d].end_ns;
        gl_sched_program_free(&p);
    }
    /* 1000 B: alone 1000 ns, shared 1000 + 2000 = 3000 ns: a third of the speed; 100000 B: alone 100000, shared
     * 201000: 0.4975 of it. Both start at once and share all along. */
    two_streams(&p, s);
    int z = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 0, 0), w = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2H, 1000, 0);
    run(&p, &m);
    test_cond("a copy of no time alone beside another ends at once, and the other is not made NaN",
              p.ops[z].end_ns == 0 && fabs(p.ops[w].end_ns - 1000) < 1e-6);
    gl_sched_program_free(&p);
    test_cond("both ways at once: a small copy at a third of its speed (3000 ns), a large one at half (201000 ns)",
              fabs(ends[0][0] - 3000) < 1e-6 && fabs(ends[0][1] - 3000) < 1e-6 && fabs(ends[1][0] - 201000) < 1e-3 &&
                  fabs(ends[1][1] - 201000) < 1e-3);
}

/* A dependency between a copy and a kernel in one stream costs time of its own (calibrated; the H200 under nsys:
 * a kernel to its stream's next D2H 6.0 us, to an H2D 4.2, an H2D to its kernel 1.8 beyond the copy's end). */
static void test_copy_kernel_costs(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_machine m = copier(4);
    m.copy_after_kernel_ns[GL_SCHED_D2H] = 500, m.kernel_after_copy_ns[GL_SCHED_H2D] = 300;
    two_streams(&p, s);
    int h = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
    int k = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    int d = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 1000, 0);
    int k2 = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 1000, 1);
    int d2 = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 1000, 0);
    run(&p, &m);
    test_cond("[H2D, kernel, D2H]: the kernel goes 300 ns after the H2D ends, the D2H 500 ns after the kernel",
              p.ops[h].end_ns == 1000 && p.ops[k].start_ns == 1300 && p.ops[d].start_ns == 2800 &&
                  p.ops[d].end_ns == 3800);
    test_cond("... and a direction without a cost measured goes at once: [kernel, H2D] in another stream",
              p.ops[k2].start_ns == 0 && p.ops[d2].start_ns == 1000);
    gl_sched_program_free(&p);
    /* A queue copy is a queue entry as a kernel is: the engine learns of its end alike (event-programs' seed
     * 20261172 at C=16: a 4 MiB H2D behind a 4 KiB pageable H2D in the queue took 81-96 us from its end, 77
     * alone). */
    two_streams(&p, s);
    int ms = gl_sched_copy(&p, 0, s[0], GL_SCHED_MEMSET, 1000, 0);
    int d3 = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 1000, 0);
    run(&p, &m);
    test_cond("[memset, D2H]: the D2H starts 500 ns after the memset (a queue entry) ends, as after a kernel",
              p.ops[ms].queue >= 0 && p.ops[ms].end_ns > 0 && p.ops[d3].start_ns == p.ops[ms].end_ns + 500);
    gl_sched_program_free(&p);
    /* Only an engine's copy pays it: an inline H2D (a queue entry itself) behind another follows it in the queue. */
    m.copy_after_kernel_ns[GL_SCHED_H2D] = 400;
    two_streams(&p, s);
    int i1 = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 50, 1);
    int i2 = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 50, 1);
    int e = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
    run(&p, &m);
    test_cond("[inline H2D, inline H2D, H2D]: the second inline one pays nothing, the engine's H2D 400 ns",
              p.ops[i2].queue >= 0 && p.ops[i2].start_ns < p.ops[i1].end_ns + 400 &&
                  p.ops[e].start_ns == p.ops[i2].end_ns + 400);
    if (!(p.ops[e].start_ns == p.ops[i2].end_ns + 400))
        printf("#   inline %g..%g, %g..%g; engine %g\n", p.ops[i1].start_ns, p.ops[i1].end_ns, p.ops[i2].start_ns,
               p.ops[i2].end_ns, p.ops[e].start_ns);
    gl_sched_program_free(&p);
}

static void test_copy_engines(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_machine m = copier(4);
    /* One copy: its latency plus its bytes over the bandwidth. Opposite directions share the link: at half speed
     * each while both run, then the longer at full speed. */
    m.copy_latency_ns[GL_SCHED_H2D] = 50;
    two_streams(&p, s);
    int a = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
    run(&p, &m);
    test_cond("a pinned copy takes its latency plus its bytes over the bandwidth", p.ops[a].end_ns == 1050);
    m.copy_latency_ns[GL_SCHED_H2D] = 0;
    int b = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2H, 500, 0);
    gl_sched_result r = run(&p, &m);
    test_cond("opposite directions share the link: D2H 500 B at half speed ends at 1000, then H2D's last 500 B "
              "at full speed end at 1500", p.ops[b].end_ns == 1000 && p.ops[a].end_ns == 1500 && r.span_ns == 1500);
    gl_sched_program_free(&p);

    /* One engine per direction: the second H2D waits for the first; with two engines they overlap. */
    two_streams(&p, s);
    a = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
    b = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 1000, 0);
    run(&p, &m);
    test_cond("one engine per direction: a copy waits for an earlier copy in the same direction",
              p.ops[b].start_ns == 1000 && p.ops[b].end_ns == 2000);
    m.copy_engines[GL_SCHED_H2D] = 2;
    run(&p, &m);
    test_cond("two engines of a direction: two copies of it overlap", p.ops[b].start_ns == 0 && p.ops[b].end_ns == 1000);
    m.copy_engines[GL_SCHED_H2D] = 1;
    gl_sched_program_free(&p);

    /* One queue. A: a 2000 ns kernel, then an H2D that waits for it; B: a kernel, and a small H2D. The copy is no
     * queue entry: B's kernel starts at once, and so does B's copy (the engine takes the ready copy first), unless
     * the direction goes in order. */
    gl_sched_machine one = copier(1);
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 2000, 0);
    a = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 10, 0);
    int k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
    b = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 10, 0);
    run(&p, &one);
    test_cond("one queue: a copy that waits for its stream holds back no kernel behind it, nor a ready copy",
              p.ops[a].start_ns == 2000 && p.ops[k].start_ns == 0 && p.ops[b].start_ns == 500);
    one.copy_in_order[GL_SCHED_H2D] = 1;
    run(&p, &one);
    test_cond("copies in order (H2D here; with one queue both directions, probed): the ready copy waits for the earlier one",
              p.ops[b].start_ns == 2010 && p.ops[k].start_ns == 0);
    one.pinned_beside_bytes = 10;
    run(&p, &one);
    test_cond("copies in order: a pinned H2D small enough to go beside keeps no order (probe-h2d-order: 4 KiB)",
              p.ops[b].start_ns == 500 && p.ops[a].start_ns == 2000);
    gl_sched_program_free(&p);
    /* ...but while it waits for its own stream it holds a later, larger one back (a 64 KiB H2D behind a held 4 KiB). */
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 2000, 0);
    a = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 10, 0);
    b = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 1000, 0);
    run(&p, &one);
    test_cond("copies in order: a larger H2D waits behind a held one that would go beside",
              p.ops[a].start_ns == 2000 && p.ops[b].start_ns == 2000);
    one.copy_in_order[GL_SCHED_H2D] = 0;
    run(&p, &one);
    test_cond("... and without the order it goes at once", p.ops[b].start_ns == 0);
    gl_sched_program_free(&p);
    /* The probe's main case: a small H2D passes another stream's held H2D too large to go beside, while a later large
     * one keeps waiting behind it; a D2H keeps its order whatever pinned_beside_bytes says. */
    one.copy_in_order[GL_SCHED_H2D] = one.copy_in_order[GL_SCHED_D2H] = 1;
    int s3[3];
    gl_sched_program_init(&p);
    streams(&p, s3, 3, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s3[0], 1, 32, 1, 2000, 0);
    a = gl_sched_copy(&p, 0, s3[0], GL_SCHED_H2D, 1000, 0);
    int later = gl_sched_copy(&p, 0, s3[2], GL_SCHED_H2D, 1000, 0);
    b = gl_sched_copy(&p, 0, s3[1], GL_SCHED_H2D, 10, 0);
    int d2h_held = gl_sched_copy(&p, 0, s3[0], GL_SCHED_D2H, 10, 0);
    int d2h = gl_sched_copy(&p, 0, s3[1], GL_SCHED_D2H, 10, 0);
    run(&p, &one);
    test_cond("copies in order: a small H2D passes a held large one, a later large one does not; a D2H keeps its order",
              p.ops[b].start_ns == 0 && p.ops[later].start_ns >= 3000 && p.ops[a].start_ns == 2000 &&
                  p.ops[d2h].start_ns >= p.ops[d2h_held].start_ns);
    one.copy_in_order[GL_SCHED_H2D] = one.copy_in_order[GL_SCHED_D2H] = 0;
    one.pinned_beside_bytes = 0;
    gl_sched_program_free(&p);

    /* A kernel waits for its stream's copy; another stream's kernel does not. */
    two_streams(&p, s);
    a = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
    k = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 500, 0);
    int other = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
    run(&p, &m);
    test_cond("a kernel waits for its copy; another stream's kernel runs beside the copy",
              p.ops[k].start_ns == 1000 && p.ops[k].end_ns == 1500 && p.ops[other].start_ns == 0);
    gl_sched_program_free(&p);
}

/* The copy curve: times between the sizes timed on straight lines, beyond them along the nearest segment. */
static void test_copy_curve(void)
{
    gl_sched_machine m = copier(1);
    m.copy_latency_ns[GL_SCHED_H2D] = 10;
    test_cond("without sizes timed a copy takes latency plus bytes over bandwidth", gl_sched_copy_ns(&m, GL_SCHED_H2D, 500) == 510);
    const double b[3] = {1000, 2000, 4000}, t[3] = {100, 150, 400};
    m.copy_points = 3;
    for (int i = 0; i < 3; i++) m.copy_point_bytes[i] = b[i], m.copy_point_ns[GL_SCHED_H2D][i] = t[i];
    test_cond("the copy curve: 1500 B on the line between 1000 and 2000 B (125 ns); 500 B below it (75); 5000 B "
              "past it (525); 0 B never below zero",
              gl_sched_copy_ns(&m, GL_SCHED_H2D, 1500) == 125 && gl_sched_copy_ns(&m, GL_SCHED_H2D, 500) == 75 &&
                  gl_sched_copy_ns(&m, GL_SCHED_H2D, 5000) == 525 && gl_sched_copy_ns(&m, GL_SCHED_H2D, 0) == 50);
    /* A program's copy takes the curve's time: 3000 B, 275 ns. */
    int s[2];
    gl_sched_program p;
    two_streams(&p, s);
    int c = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 3000, 0);
    run(&p, &m);
    test_cond("a copy in a program takes the curve's time", p.ops[c].end_ns == 275);
    gl_sched_program_free(&p);
}

static void test_queue_copies(void)
{
    /* One queue. A: a 2000 ns kernel, then a memset, a D2D, or a pageable H2D small enough to be queued; B: a
     * kernel. Each is a queue entry that waits for A's kernel at the head, holding B's kernel behind it. */
    static const int dirs[3] = {GL_SCHED_MEMSET, GL_SCHED_D2D, GL_SCHED_H2D};
    int s[2], held = 0;
    gl_sched_machine one = copier(1);
    for (int i = 0; i < 3; i++) {
        gl_sched_program p;
        two_streams(&p, s);
        gl_sched_launch(&p, 0, s[0], 1, 32, 1, 2000, 0);
        int c = gl_sched_copy(&p, 0, s[0], dirs[i], 80, dirs[i] == GL_SCHED_H2D);
        int k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
        run(&p, &one);
        held += p.ops[c].start_ns == 2000 && p.ops[k].start_ns == 2000 && p.ops[c].queue == 0;
        gl_sched_program_free(&p);
    }
    test_cond("one queue: a memset, a D2D, and a pageable H2D of 80 B hold the kernel behind them", held == 3);

    /* The queued pageable H2D takes no engine: beside a pinned H2D of 100000 ns it goes at once (its 80 ns). */
    gl_sched_program p;
    gl_sched_machine four = copier(4);
    two_streams(&p, s);
    int big = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 100000, 0);
    int small = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 80, 1);
    run(&p, &four);
    test_cond("a queued (small pageable) H2D runs beside a pinned H2D: it takes no engine (starts at 0, not 100000)",
              p.ops[small].start_ns == 0 && p.ops[big].start_ns == 0);
    gl_sched_program_free(&p);

    /* A pinned H2D of at most pinned_beside_bytes goes beside the engine's copy too; a larger one waits. */
    four.pinned_beside_bytes = 100;
    double starts[2];
    const double sizes[2] = {100, 101};
    for (int k = 0; k < 2; k++) {
        two_streams(&p, s);
        gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 100000, 0);
        int c = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, sizes[k], 0);
        run(&p, &four);
        starts[k] = p.ops[c].start_ns;
        gl_sched_program_free(&p);
    }
    test_cond("a pinned H2D of pinned_beside_bytes (100 B) starts beside a 100000 ns one, of 101 B after it",
              starts[0] == 0 && starts[1] == 100000);
}

/* A run's own pace for the copies its host waited for (gl_sched_fit_host_copies): each one's time in the run, less
 * what the simulation adds for the link shared with the other direction, becomes its own. */
static void test_pageable_piece(void)
{
    /* A pageable D2H the host waits for (0.25 B/ns) runs from 0; a pinned D2H of 500 B (1 B/ns) of another stream
     * is ready at 1000 ns, behind a kernel. The piece in flight (2000 ns) goes whole first, then the pinned copy
     * runs while the pageable one stops (gl_sched.h "Pageable"); a pageable copy shorter than a piece ends first;
     * a pinned copy ready as the pageable one begins (no kernel before it: both at 0) goes first, and the pageable
     * one starts with its first piece, as a trace shows it (validate-replay's random 4: a pageable H2D ready with a
     * pinned one began 5-6 us after it ended, in each of 36 recordings). */
    gl_sched_machine m = copier(4);
    struct {
        double pageable, piece, kernel, pinned_start, pinned_end, pageable_start, pageable_end;
        const char *what;
    } cases[] = {
        {1000, 2000, 1000, 2000, 2500, 0, 4500, "the pinned D2H waits for the pageable one's piece, which then stops"},
        {400, 2000, 1000, 1600, 2100, 0, 1600, "a pageable D2H shorter than a piece ends before the pinned one starts"},
        {1000, 0, 1000, 1000, 1500, 0, 4500, "without pieces the pinned D2H goes at once and the pageable one stops"},
        {1000, 2000, 0, 0, 500, 500, 4500,
         "a pinned D2H ready as the pageable one begins goes first (no piece has begun): the pageable one starts at 500"},
    };
    for (int i = 0; i < GL_ARRAY_LEN(cases); i++) {
        gl_sched_program p;
        int s[2];
        two_streams(&p, s);
        m.pageable_piece_ns = cases[i].piece;
        if (cases[i].kernel > 0) gl_sched_launch(&p, 0, s[1], 1, 32, 1, cases[i].kernel, 0);
        int pinned = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2H, 500, 0);
        int pageable = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, cases[i].pageable, 1);
        run(&p, &m);
        int ok = p.ops[pinned].start_ns == cases[i].pinned_start && p.ops[pinned].end_ns == cases[i].pinned_end &&
                 p.ops[pageable].start_ns == cases[i].pageable_start && p.ops[pageable].end_ns == cases[i].pageable_end;
        test_cond(cases[i].what, ok);
        if (!ok)
            printf("#   pinned %g..%g, pageable %g..%g\n", p.ops[pinned].start_ns, p.ops[pinned].end_ns,
                   p.ops[pageable].start_ns, p.ops[pageable].end_ns);
        gl_sched_program_free(&p);
    }
}

static void test_bracket_step(void)
{
    /* 10 simulated to 12 where 10 was wanted: the bracket's top is 10, the step to 8 stays inside (0, 10); 10
     * simulated to 30: the step to -10 leaves the bracket, so its middle, 5; 4 simulated to 2: the bottom is 4 and
     * the step to 12 is inside (4, 100). */
    double lo = 0, hi = 100, a = gl_sched_bracket_step(10, 12, 10, &lo, &hi);
    double lo2 = 0, hi2 = 100, b = gl_sched_bracket_step(10, 30, 10, &lo2, &hi2);
    double lo3 = 0, hi3 = 100, c = gl_sched_bracket_step(4, 2, 10, &lo3, &hi3);
    test_cond("a bracketed step: by the difference inside the bracket, else to its middle (8, 5, 12)",
              a == 8 && hi == 10 && lo == 0 && b == 5 && hi2 == 10 && c == 12 && lo3 == 4 && hi3 == 100);
}

static void test_fit_host_copies(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_machine m = copier(4);
    /* As in test_pageable: a pinned H2D (1000 ns alone, 2000 shared) beside a pageable D2H the host waits for,
     * which alone takes 4000 and ends at 4400. A run in which the D2H took 4400: its own time is 4000. */
    two_streams(&p, s);
    int h2d = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 1000, 0);
    int c = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 1000, 1);
    double *own = (double *)calloc((size_t)p.n_ops + 4, sizeof(double));
    own[c] = 4400;
    own[h2d] = 5000; /* not a copy its host waits for: left alone */
    int n = gl_sched_fit_host_copies(&p, &m, own, err, sizeof err);
    run(&p, &m);
    test_cond("a run's own pace: a pageable D2H that took 4400 ns beside a pinned H2D sharing the link gets 4000 of "
              "its own, and simulates at 4400 again",
              n == 1 && fabs(p.ops[c].copy_ns - 4000) < 10 && fabs(p.ops[c].end_ns - p.ops[c].start_ns - 4400) < 10 &&
                  p.ops[h2d].copy_ns == 0);
    gl_sched_program_free(&p);
    /* The same with a pinned D2H of 10 ns beside it too, behind a 1000 ns kernel (a twentieth of its time at most,
     * as the run's caller gives such copies): still fitted, to simulate at 4400, not taken whole (the link counted
     * twice). */
    int s3[2];
    two_streams(&p, s3);
    int sx = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    h2d = gl_sched_copy(&p, 0, s3[1], GL_SCHED_H2D, 1000, 0);
    c = gl_sched_copy(&p, 0, s3[0], GL_SCHED_D2H, 1000, 1);
    gl_sched_launch(&p, 1, sx, 1, 32, 1, 1000, 0); /* another host thread: this one waits in the pageable copy */
    int tiny = gl_sched_copy(&p, 1, sx, GL_SCHED_D2H, 10, 0);
    memset(own, 0, sizeof(double) * (size_t)p.n_ops);
    own[c] = 4400;
    n = gl_sched_fit_host_copies(&p, &m, own, err, sizeof err);
    run(&p, &m);
    test_cond("... and beside a small copy of its own direction too (10 ns): fitted, simulating at 4400 again",
              n == 1 && p.ops[tiny].start_ns > p.ops[c].start_ns && p.ops[tiny].end_ns < p.ops[c].end_ns &&
                  p.ops[c].copy_ns < 4100 &&
                  fabs(p.ops[c].end_ns - p.ops[c].start_ns - 4400) < 20);
    if (!(fabs(p.ops[c].end_ns - p.ops[c].start_ns - 4400) < 20) || !(p.ops[tiny].start_ns > p.ops[c].start_ns))
        printf("#   own %g, simulated %g..%g; small D2H %g..%g; n %d\n", p.ops[c].copy_ns, p.ops[c].start_ns,
               p.ops[c].end_ns, p.ops[tiny].start_ns, p.ops[tiny].end_ns, n);
    gl_sched_program_free(&p);
    /* Beside a pinned D2H, which the model makes it stop for (test_copy_engines): the run's caller gives only
     * copies that had no copy of their direction beside them, so the model's pause is its own error, kept. */
    gl_sched_machine pg = copier(1);
    pg.pageable_gbps[1] = 0.5;
    two_streams(&p, s);
    c = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 2000, 1);
    int gap = gl_sched_host(&p, 1, 1000);
    p.ops[gap].issue_ns = 1000;
    int pin = gl_sched_copy(&p, 1, s[1], GL_SCHED_D2H, 1000, 0);
    memset(own, 0, sizeof(double) * (size_t)p.n_ops);
    own[c] = 7000;
    n = gl_sched_fit_host_copies(&p, &pg, own, err, sizeof err);
    run(&p, &pg);
    test_cond("... beside an engine copy of its own direction in the model, it keeps what it took whole (7000 ns)",
              n == 1 && p.ops[c].copy_ns == 7000 && p.ops[c].end_ns - p.ops[c].start_ns == 8000);
    /* Alone, what it took is its own; a copy without a time (0) keeps the one it had. */
    p.ops[pin].issue_ns = 1e6; /* B's copy long after A's */
    p.ops[gap].issue_ns = 1e6;
    own[c] = 3000;
    n = gl_sched_fit_host_copies(&p, &pg, own, err, sizeof err);
    double kept = p.ops[c].copy_ns;
    own[c] = 0;
    int none = gl_sched_fit_host_copies(&p, &pg, own, err, sizeof err);
    test_cond("... alone it keeps what it took (3000 ns); with no time given, the time it had",
              n == 1 && fabs(kept - 3000) < 1e-6 && none == 0 && p.ops[c].copy_ns == kept);
    gl_sched_program_free(&p);
    /* Two fitted at once, each slowing the other over the shared link (a pageable D2H of 4000 ns own and an H2D over
     * the stage size of 6000, from two threads): their simulated times, given back, give back their own. */
    two_streams(&p, s);
    int d2h = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 1000, 1);
    int big = gl_sched_copy(&p, 1, s[1], GL_SCHED_H2D, 300000, 1);
    p.ops[d2h].copy_ns = 4000, p.ops[big].copy_ns = 6000;
    run(&p, &m);
    memset(own, 0, sizeof(double) * (size_t)p.n_ops);
    own[d2h] = p.ops[d2h].end_ns - p.ops[d2h].start_ns, own[big] = p.ops[big].end_ns - p.ops[big].start_ns;
    p.ops[d2h].copy_ns = p.ops[big].copy_ns = 1; /* forgotten */
    n = gl_sched_fit_host_copies(&p, &m, own, err, sizeof err);
    test_cond("... two sharing the link at once, each one's time depending on the other's: both found (4000, 6000 ns)",
              n == 2 && own[d2h] > 4000 && fabs(p.ops[d2h].copy_ns - 4000) < 20 && fabs(p.ops[big].copy_ns - 6000) < 20);
    free(own);
    gl_sched_program_free(&p);
}

static void test_sm_copies(void)
{
    /* Four SMs; a grid of A's in blocks of half an SM; then, in B, a memset or a D2D (gl_sched.h "SM copies"). A D2D
     * and a memset over 100 bytes need half an SM free: behind a full wave they start as it ends, beside a half wave
     * at once. A memset of 100 bytes needs none. Alone, each takes its own time (memset 4 B/ns, D2D 2). */
    gl_sched_machine m = copier(4);
    m.sm_copy_share = 0.5, m.sm_memset_bytes = 100;
    struct { int blocks, dir; double bytes, start, end; const char *what; } cases[] = {
        {8, GL_SCHED_MEMSET, 400, 1000, 1100, "a memset of 400 B behind a full wave starts as it ends"},
        {8, GL_SCHED_MEMSET, 100, 0, 25, "a memset of 100 B (the threshold) goes at once beside a full wave"},
        {8, GL_SCHED_D2D, 80, 1000, 1040, "a D2D of 80 B behind a full wave starts as it ends"},
        {4, GL_SCHED_MEMSET, 400, 0, 100, "a memset of 400 B beside a half wave (two SMs full) goes at once"},
        {0, GL_SCHED_MEMSET, 400, 0, 100, "a memset of 400 B alone takes its own time"},
        {16, GL_SCHED_D2D, 80, 2000, 2040, "a grid with blocks left holds the D2D back: it starts after the 2nd wave"},
    };
    for (int i = 0; i < GL_ARRAY_LEN(cases); i++) {
        gl_sched_program p;
        int s[2];
        two_streams(&p, s);
        if (cases[i].blocks) gl_sched_launch(&p, 0, s[0], cases[i].blocks, 1024, 2, 1000, 0);
        int c = gl_sched_copy(&p, 0, s[1], cases[i].dir, cases[i].bytes, 0);
        run(&p, &m);
        test_cond(cases[i].what, p.ops[c].start_ns == cases[i].start && p.ops[c].end_ns == cases[i].end);
        gl_sched_program_free(&p);
    }
    /* Without the rule (no share), the D2D behind the full wave takes its engine at once. */
    gl_sched_program p;
    int s[2];
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 8, 1024, 2, 1000, 0);
    int c = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2D, 80, 0);
    gl_sched_machine engines = copier(4);
    run(&p, &engines);
    test_cond("with no SM share a D2D needs no room: it starts at once",
              p.ops[c].start_ns == 0 && p.ops[c].end_ns == 40);
    gl_sched_program_free(&p);

    /* Two D2D of two streams on one engine, the dispatch latency 5 ns and a block's overrun 2: the first is placed
     * at 5 and ends at 40, its own time after it went; the second holds its queue's head until the engine is free
     * (40), is placed at 45 and ends at 80. */
    m.dispatch_ns = 5, m.block_overrun_ns = 2;
    two_streams(&p, s);
    int d1 = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2D, 80, 0), d2 = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2D, 80, 0);
    run(&p, &m);
    test_cond("two SM copies on one engine: 5..40, then 45..80 (each its own time after it went)",
              p.ops[d1].start_ns == 5 && p.ops[d1].end_ns == 40 && p.ops[d2].start_ns == 45 && p.ops[d2].end_ns == 80);
    gl_sched_program_free(&p);

    /* A share the simulation could never place, or none at all that would overflow the block count: refused. */
    const double bad[2] = {1.5, 1e-300};
    int refused = 0;
    for (int i = 0; i < 2; i++) {
        gl_sched_machine b = copier(4);
        b.sm_copy_share = bad[i];
        gl_sched_result r;
        char err[200];
        two_streams(&p, s);
        gl_sched_copy(&p, 0, s[0], GL_SCHED_D2D, 80, 0);
        refused += gl_sched_simulate(&p, &b, &r, err, sizeof err) != 0 && strstr(err, "SM copies") != NULL;
        gl_sched_program_free(&p);
    }
    test_cond("an SM share over one SM, or a vanishing one, is refused", refused == 2);
}

static void test_pageable(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_machine m = copier(4);
    /* A pageable D2H: the call returns when the copy ends (1000 B at 0.25), so the next launch comes after. */
    two_streams(&p, s);
    int c = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 1000, 1);
    int k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 0);
    gl_sched_result r = run(&p, &m);
    test_cond("a pageable D2H: the host waits for it (4000 ns), then launches",
              p.ops[c].end_ns == 4000 && p.ops[k].submit_ns == 4000 && r.host_end_ns == 4000);
    m.pageable_latency_ns[GL_SCHED_D2H] = 500;
    run(&p, &m);
    test_cond("... and its cost per call comes first (4500 ns)", p.ops[c].end_ns == 4500 && p.ops[k].submit_ns == 4500);
    m.pageable_latency_ns[GL_SCHED_D2H] = 0;
    gl_sched_program_free(&p);
    /* Pageable H2D: staged (1000 B) the call returns at once and the copy runs at the pinned rate; over the stage
     * size (200000 B) the host waits for a copy at the pageable rate. */
    two_streams(&p, s);
    c = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 1);
    k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 0);
    run(&p, &m);
    test_cond("a staged pageable H2D: the host goes on, the copy runs at the pinned rate",
              p.ops[k].submit_ns == 0 && p.ops[c].end_ns == 1000);
    m.pageable_latency_ns[GL_SCHED_H2D] = 500;
    test_cond("... whose call holds at most its copy at the host's pageable pace as its own time (500 + 4000 ns)",
              gl_sched_staged_call_ns(&m, &p.ops[c]) == 4500);
    m.pageable_stage_call_ns = 6000;
    test_cond("... or the longest staged call the calibration timed, where that is longer (6000 ns)",
              gl_sched_staged_call_ns(&m, &p.ops[c]) == 6000);
    p.ops[c].stage_ns = 7000;
    test_cond("... or its own call timed alone on its buffer, where that is longer still (7000 ns)",
              gl_sched_staged_call_ns(&m, &p.ops[c]) == 7000);
    p.ops[c].stage_ns = INFINITY;
    test_cond("... but not a time that is not finite", gl_sched_staged_call_ns(&m, &p.ops[c]) == 6000);
    p.ops[c].stage_ns = 0;
    m.pageable_stage_call_ns = 0;
    m.pageable_latency_ns[GL_SCHED_H2D] = 0;
    m.pageable_gbps[GL_SCHED_H2D] = 0;
    test_cond("... with no pageable pace known, no bound", isinf(gl_sched_staged_call_ns(&m, &p.ops[c])));
    m.pageable_gbps[GL_SCHED_H2D] = 0.25;
    p.ops[c].pageable = 0;
    test_cond("... nor for a pinned H2D", isinf(gl_sched_staged_call_ns(&m, &p.ops[c])));
    p.ops[c].pageable = 1;
    p.ops[c].bytes = 100;
    test_cond("... which an inline one (100 B, a queue entry) has no bound for",
              isinf(gl_sched_staged_call_ns(&m, &p.ops[c])));
    p.ops[c].bytes = 200000;
    test_cond("... nor one the host waits for, nor a launch",
              isinf(gl_sched_staged_call_ns(&m, &p.ops[c])) && isinf(gl_sched_staged_call_ns(&m, &p.ops[k])));
    run(&p, &m);
    test_cond("a pageable H2D over the stage size: the host waits 800 us for it",
              p.ops[c].end_ns == 800000 && p.ops[k].submit_ns == 800000);
    gl_sched_program q;
    /* A pinned H2D beside a pageable D2H the host waits for: sharing adds to each what it adds to a pinned copy of
     * its size (1000 B: 1000 ns alone, 2000 shared): the H2D at half speed ends at 2000; the D2H (4000 ns, the
     * host's pace) at 4000 / 5000 until then, 1600 done, ends at 4400 (not scaled to 8000). */
    two_streams(&q, s);
    int qp = gl_sched_copy(&q, 0, s[1], GL_SCHED_H2D, 1000, 0);
    int qg = gl_sched_copy(&q, 0, s[0], GL_SCHED_D2H, 1000, 1);
    run(&q, &m);
    test_cond("a pinned H2D beside a pageable D2H: the link adds to each what it adds to a pinned copy (2000, 4400 ns)",
              fabs(q.ops[qp].end_ns - 2000) < 1e-6 && fabs(q.ops[qg].end_ns - 4400) < 1e-6);
    gl_sched_program_free(&q);
    p.ops[c].copy_ns = 3000; /* timed just before the run (gl_sched_run_time_pageable): that time, not the rule's */
    run(&p, &m);
    test_cond("... or the time it was given, as timed before the run (3000 ns)",
              p.ops[c].end_ns == 3000 && p.ops[k].submit_ns == 3000);
    p.ops[c].bytes = 1000;
    run(&p, &m);
    test_cond("... a staged one given a time (a replay's recorded one) takes it too, and the host goes on",
              p.ops[c].end_ns == 3000 && p.ops[k].submit_ns == 0);
    p.ops[c].copy_ns = 0;
    run(&p, &m);
    test_cond("... and without one runs from the staging buffer at the pinned rate",
              p.ops[c].end_ns == 1000 && p.ops[k].submit_ns == 0);
    gl_sched_program_free(&p);
}

static void test_host_functions(void)
{
    int s[2];
    gl_sched_program p;
    gl_sched_machine one = copier(1), four = copier(4);
    one.hostfn_ns = four.hostfn_ns = 100;
    /* One queue. A: a 1000 ns kernel, a host function (1000 ns of its own, 100 in the stream), a kernel; B: a
     * kernel. The function waits for A's kernel at the head, then leaves it as it starts: B's kernel starts with
     * it, A's next kernel when it returns. */
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    int h = gl_sched_hostfn(&p, 0, s[0], 1000);
    int after = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 500, 1);
    int k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 2);
    run(&p, &one);
    test_cond("one queue: a host function waits for its stream at the head, then lets the kernel behind it go",
              p.ops[h].start_ns == 1000 && p.ops[h].end_ns == 2100 && p.ops[after].start_ns == 2100 &&
                  p.ops[k].start_ns == 2100);
    gl_sched_program_free(&p);
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    h = gl_sched_hostfn(&p, 0, s[0], 1000);
    k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
    run(&p, &one);
    test_cond("one queue: another stream's kernel right behind a host function starts as the function starts",
              p.ops[h].start_ns == 1000 && p.ops[k].start_ns == 1000);
    run(&p, &four);
    test_cond("four queues: the other stream's kernel runs beside both", p.ops[k].start_ns == 0);
    /* The queue moves on as the function is handed over, not once a sleeping driver's thread has woken (a wake of
     * 600 ns, 500 beyond hostfn_ns): callbacks' "one function" row at C=1 measured B's kernel behind A's function
     * waiting 297 us where holding the queue through the wake (91 us) made it 384 (session 20). */
    one.hostfn_wake_ns = 600;
    run(&p, &one);
    test_cond("one queue: a sleeping driver's thread does not hold the queue (the kernel at 1000, the function at 1500)",
              p.ops[h].start_ns == 1500 && p.ops[k].start_ns == 1000);
    one.hostfn_wake_ns = 0;
    gl_sched_program_free(&p);
    /* One queue. A: a pinned H2D (3000 B: 3000 ns on its engine), a host function; B: a kernel; A: a kernel. Behind
     * an engine's copy the function waits off the queue: B's kernel starts at once, the function as the copy ends,
     * A's kernel as the function returns (H200, C=1: a kernel queued behind [64 MB H2D, host function] started at
     * 54-316 us (median 100), the function at the copy's end, 1.3-1.6 ms; probe-hostfn-queue P1). */
    two_streams(&p, s);
    int c = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 3000, 0);
    h = gl_sched_hostfn(&p, 0, s[0], 1000);
    k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
    after = gl_sched_launch(&p, 0, s[0], 1, 32, 1, 500, 0);
    run(&p, &one);
    test_cond("one queue: a host function behind an engine's copy waits off the queue; another stream's kernel goes",
              p.ops[c].end_ns == 3000 && p.ops[h].start_ns == 3000 && p.ops[h].end_ns == 4100 &&
                  p.ops[after].start_ns == 4100 && p.ops[k].start_ns == 0);
    gl_sched_program_free(&p);
    /* ... nor does it wait for its turn: behind B's two 1000 ns kernels (the second holds the head until the first
     * ends) it starts as its copy (500 B) ends (H200, C=1: with the queue held 2 ms ahead, at 55-430 us; P2). */
    two_streams(&p, s);
    c = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 500, 0);
    gl_sched_launch(&p, 0, s[1], 1, 32, 1, 1000, 0);
    gl_sched_launch(&p, 0, s[1], 1, 32, 1, 1000, 1);
    h = gl_sched_hostfn(&p, 0, s[0], 1000);
    run(&p, &one);
    test_cond("... nor waits for its turn in the queue (its copy done at 500, the head free only at 1000)",
              p.ops[c].end_ns == 500 && p.ops[h].start_ns == 500 && p.ops[h].end_ns == 1600);
    gl_sched_program_free(&p);
    /* Its trigger goes in its copy's engine channel, behind every copy of that direction issued before it to its
     * queue. One engine: A's H2D (1000 B), then B's (3000 B), then A's function. With one queue the function
     * starts as B's copy ends (4000), not as A's own does (1000); with four queues B's copy is in another channel
     * and it starts at 1000 (H200, C=1: a function behind [8 MiB H2D] with another stream's 32 MiB H2D issued
     * between, 20 of 20 began after that copy, at 862-1086 us, and at C=8 at 244-281 us, as its own ended; the
     * same behind [wait, 512 KiB D2H] beside that H2D: 316-616 us; probe-hostfn-race P7, P10). */
    for (int queues = 1; queues <= 4; queues += 3) {
        two_streams(&p, s);
        c = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
        int cb = gl_sched_copy(&p, 0, s[1], GL_SCHED_H2D, 3000, 0);
        h = gl_sched_hostfn(&p, 0, s[0], 1000);
        run(&p, queues == 1 ? &one : &four);
        test_cond(queues == 1 ? "one queue: a host function behind its engine copy (0..1000) waits for that "
                                "direction's copies issued before it: another stream's, to 4000"
                              : "four queues: another stream's copy is in another channel: it goes as its own ends",
                  p.ops[c].end_ns == 1000 && p.ops[cb].end_ns == 4000 && p.ops[h].start_ns == (queues == 1 ? 4000 : 1000));
        gl_sched_program_free(&p);
    }
    /* A pageable copy the host waits for takes no engine: its pieces go between the engine's copies, and it stops
     * while one of its direction runs. One queue, one engine per direction: A's pageable D2H (its own 4000 ns);
     * B's pinned D2H (1000 B: 1000 ns) from 1000 ns, at once: A's ends at 5000 (validate-replay's random 30: a
     * 156 MB pinned D2H ran at full speed, 2.82 ms, inside a 14 MB pageable one of 3.79 ms, which alone takes about
     * 0.97; the replay takes its time alone as what is left, rp_fit_kernels). */
    two_streams(&p, s);
    gl_sched_machine pg = copier(1);
    pg.pageable_gbps[1] = 0.5; /* 2000 B: 4000 ns */
    c = gl_sched_copy(&p, 0, s[0], GL_SCHED_D2H, 2000, 1);
    int gap1 = gl_sched_host(&p, 1, 1000);
    p.ops[gap1].issue_ns = 1000;
    int pin = gl_sched_copy(&p, 1, s[1], GL_SCHED_D2H, 1000, 0);
    run(&p, &pg);
    test_cond("a pageable D2H holds no engine: a pinned D2H beside it goes at once, and the pageable one stops meanwhile",
              p.ops[pin].start_ns < 1100 && p.ops[pin].end_ns - p.ops[pin].start_ns == 1000 &&
                  p.ops[c].end_ns == 4000 + (p.ops[pin].end_ns - p.ops[pin].start_ns));
    gl_sched_program_free(&p);
    /* ... a D2H issued between holds it not */
    two_streams(&p, s);
    c = gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 1000, 0);
    int d2h = gl_sched_copy(&p, 0, s[1], GL_SCHED_D2H, 3000, 0);
    h = gl_sched_hostfn(&p, 0, s[0], 1000);
    run(&p, &one);
    test_cond("... and not for a copy of the other direction",
              p.ops[h].start_ns == p.ops[c].end_ns && p.ops[c].end_ns < p.ops[d2h].end_ns);
    gl_sched_program_free(&p);
    /* The same with its stream's work (a 100 ns kernel) done at the call (issued 200 ns later): it goes at once
     * (H200, C=1: at 406 us, the median of 10, not behind the 2 ms hold; P4). */
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 100, 0);
    gl_sched_launch(&p, 0, s[1], 1, 32, 1, 1000, 1);
    gl_sched_launch(&p, 0, s[1], 1, 32, 1, 1000, 2);
    int gap = gl_sched_host(&p, 0, 200); /* its own statement: the call may move p.ops */
    p.ops[gap].issue_ns = 200;
    h = gl_sched_hostfn(&p, 0, s[0], 1000);
    run(&p, &one);
    test_cond("... and a host function whose stream was done at the call goes at once, off the queue",
              p.ops[h].start_ns == p.ops[h].submit_ns && p.ops[h].start_ns < 1000);
    gl_sched_program_free(&p);
    /* Behind what else is no queue entry: a second function after the first (both behind a 3000 ns copy), and a
     * function after a wait for another stream's 3000 ns kernel; B's kernel, queued behind, goes at once. */
    for (int behind_wait = 0; behind_wait < 2; behind_wait++) {
        two_streams(&p, s);
        int ev = gl_sched_event_new(&p);
        if (behind_wait) {
            int s3 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
            gl_sched_launch(&p, 0, s3, 1, 32, 1, 3000, 2);
            gl_sched_record(&p, 0, s3, ev);
            gl_sched_wait(&p, 0, s[0], ev);
        } else {
            gl_sched_copy(&p, 0, s[0], GL_SCHED_H2D, 3000, 0);
            gl_sched_hostfn(&p, 0, s[0], 100);
        }
        h = gl_sched_hostfn(&p, 0, s[0], 1000);
        k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
        run(&p, &one);
        test_cond(behind_wait ? "... behind an unfinished wait it is off the queue too (B's kernel goes at once)"
                              : "... so is a second function behind the first (B's kernel goes at once)",
                  p.ops[h].queue < 0 && p.ops[k].start_ns < 100 && p.ops[h].start_ns >= 3000);
        gl_sched_program_free(&p);
    }
    /* A second function behind a first that was a queue entry (behind its stream's kernel) holds no queue either:
     * the first leaves it for the driver's thread, and the second waits for it off the queues. One queue; A: a
     * 1000 ns kernel, two functions; B: a kernel, queued behind, goes as A's kernel ends, not once A's first
     * function has run (validate-replay's random 22 at C=1: another stream's D2D queued behind [kernel, function,
     * function] began 6 us after the kernel ended, 190 us before the driver's thread woke for the first function). */
    one.hostfn_wake_ns = 600;
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    int f1 = gl_sched_hostfn(&p, 0, s[0], 1000);
    h = gl_sched_hostfn(&p, 0, s[0], 1000);
    k = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 500, 1);
    run(&p, &one);
    test_cond("one queue: a function behind its stream's function holds no queue (B's kernel at 1000, the functions "
              "at 1500 and 2600: the thread, finding the second ready as the first returns, does not sleep)",
              p.ops[h].queue < 0 && p.ops[k].start_ns == 1000 && p.ops[f1].start_ns == 1500 &&
                  p.ops[h].start_ns == 2600);
    one.hostfn_wake_ns = 0;
    gl_sched_program_free(&p);
    /* The driver's thread sleeps when no function ran: the first after GPU work costs hostfn_wake_ns (600), and
     * once awake it takes the waiting functions in the order they became ready, not the order they were issued.
     * A: a 1000 ns kernel, then a host function; B (issued after): a 200 ns kernel, then one. B's is ready at
     * 200, the thread awake at 700; A's, ready at 1000, waits for B's (700..1800). */
    four.hostfn_serial = 1, four.hostfn_wake_ns = 600;
    two_streams(&p, s);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    int ha = gl_sched_hostfn(&p, 0, s[0], 1000);
    gl_sched_launch(&p, 0, s[1], 1, 32, 1, 200, 1);
    int hb = gl_sched_hostfn(&p, 0, s[1], 1000);
    run(&p, &four);
    test_cond("a sleeping driver thread: the first host function starts its wake-up late, the next at once",
              p.ops[hb].start_ns == 700 && p.ops[hb].end_ns == 1800 && p.ops[ha].start_ns == 1800);
    p.ops[2].block_ns = 900; /* B's kernel now ends at 900: both are waiting when the thread wakes (1400) */
    run(&p, &four);
    test_cond("... and takes first the one ready first when both wait at its wake (B's, issued later)",
              p.ops[hb].start_ns == 1400 && p.ops[hb].end_ns == 2500 && p.ops[ha].start_ns == 2500);
    p.ops[2].block_ns = 1100; /* B's kernel ends at 1100: A's function, ready at 1000, goes at 1500 and B's after it */
    run(&p, &four);
    test_cond("... and A's first where A's was ready first",
              p.ops[ha].start_ns == 1500 && p.ops[hb].start_ns == 2600);
    p.ops[ha].wake_ns = 300; /* A's function woke the thread in 300 ns in its run: its own wake, not the machine's */
    run(&p, &four);
    test_cond("... a function's own wake (300 ns) in place of the machine's (600): A's starts at 1200",
              p.ops[ha].start_ns == 1200 && p.ops[hb].start_ns == 2300);
    p.ops[ha].wake_ns = 0;
    gl_sched_program_free(&p);
    /* Three functions waiting and a fourth after the thread has slept again: B's (ready 900), C's (950), A's
     * (1000) from the wake at 1400, 1100 ns each; D's, behind a 2000 ns kernel after C's function (3600..5600),
     * is ready after A's has ended (4700) and wakes the thread anew (6100). */
    two_streams(&p, s);
    int sc = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 1000, 0);
    ha = gl_sched_hostfn(&p, 0, s[0], 1000);
    gl_sched_launch(&p, 0, s[1], 1, 32, 1, 900, 1);
    hb = gl_sched_hostfn(&p, 0, s[1], 1000);
    gl_sched_launch(&p, 0, sc, 1, 32, 1, 950, 2);
    int hc = gl_sched_hostfn(&p, 0, sc, 1000);
    gl_sched_launch(&p, 0, sc, 1, 32, 1, 2000, 3);
    int hd = gl_sched_hostfn(&p, 0, sc, 1000);
    run(&p, &four);
    test_cond("... three waiting go in ready order (B, C, A), and a later one wakes the thread anew",
              p.ops[hb].start_ns == 1400 && p.ops[hc].start_ns == 2500 && p.ops[ha].start_ns == 3600 &&
                  p.ops[hd].start_ns == 6100);
    if (!(p.ops[hd].start_ns == 6100))
        printf("#   B %g, C %g, A %g, D %g\n", p.ops[hb].start_ns, p.ops[hc].start_ns, p.ops[ha].start_ns,
               p.ops[hd].start_ns);
    p.ops[ha].wake_ns = INFINITY;
    gl_sched_result refused;
    test_cond("... and a wake that is not finite is refused", gl_sched_simulate(&p, &four, &refused, NULL, 0) != 0);
    p.ops[ha].wake_ns = 0;
    four.hostfn_wake_ns = 0, four.hostfn_serial = 0;
    gl_sched_program_free(&p);
    /* Two streams' host functions: one at a time on the driver's thread, or side by side. */
    two_streams(&p, s);
    gl_sched_hostfn(&p, 0, s[0], 1000);
    h = gl_sched_hostfn(&p, 0, s[1], 1000);
    four.hostfn_serial = 1;
    run(&p, &four);
    test_cond("host functions of two streams run one at a time", p.ops[h].start_ns == 1100 && p.ops[h].end_ns == 2200);
    four.hostfn_serial = 0;
    run(&p, &four);
    test_cond("... or side by side, where the machine says so", p.ops[h].end_ns == 1100);
    gl_sched_program_free(&p);
}

static void test_loads(void)
{
    /* A: a 3000 ns kernel. B: the first launch of a function, loaded lazily. C: a kernel issued after. The load
     * waits for A's kernel, B's kernel for the load (50 ns), and C's kernel too, in a non-blocking stream. */
    int s[3];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 3, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 32, 1, 3000, 0);
    int load = gl_sched_load(&p, 0, s[1]);
    int b = gl_sched_launch(&p, 0, s[1], 1, 32, 1, 100, 1);
    int c = gl_sched_launch(&p, 0, s[2], 1, 32, 1, 100, 2);
    gl_sched_machine m = copier(4);
    m.load_ns = 50;
    run(&p, &m);
    test_cond("a lazy load waits for every stream's work, and everything after waits for it",
              p.ops[load].start_ns == 3000 && p.ops[load].end_ns == 3050 && p.ops[b].start_ns == 3050 &&
                  p.ops[c].start_ns == 3050);
    p.ops[load].kind = GL_SCHED_HOST; /* eager loading: no load, an empty host op in its place */
    p.ops[load].issue_ns = 0;
    run(&p, &m);
    test_cond("eager loading: the kernels run beside the first", p.ops[b].start_ns == 0 && p.ops[c].start_ns == 0);
    gl_sched_program_free(&p);
}

/* The textbook's pipeline: N segments, each an H2D, a kernel and a D2H of time t each, in N streams with enough
 * queues, one engine per direction and no shared link: (N + 2) t breadth-first and depth-first alike, against
 * 3 N t in one stream (its closed form where copies and kernels take equal times and the host issues at once). */
static void test_copy_pipeline(void)
{
    static const int Ns[] = {1, 2, 3, 4, 7, 8, 16, 32};
    int held = 0;
    gl_sched_program p;
    for (int i = 0; i < GL_ARRAY_LEN(Ns); i++)
        for (int order = 0; order < 3; order++) { /* depth-first, breadth-first, one stream */
            int N = Ns[i], st[32];
            gl_sched_machine mm = copier(32);
            mm.copy_bidir_gbps[0] = mm.copy_bidir_gbps[1] = 1;
            mm.sms = N;
            gl_sched_program_init(&p);
            streams(&p, st, order == 2 ? 1 : N, GL_SCHED_STREAM_NONBLOCKING);
            for (int step = 0; step < 3 * N; step++) {
                int seg = order == 1 ? step % N : step / 3, stage = order == 1 ? step / N : step % 3;
                int str = st[order == 2 ? 0 : seg];
                if (stage == 0) gl_sched_copy(&p, 0, str, GL_SCHED_H2D, 1000, 0);
                else if (stage == 1) gl_sched_launch(&p, 0, str, 1, 32, 1, 1000, seg);
                else gl_sched_copy(&p, 0, str, GL_SCHED_D2H, 1000, 0);
            }
            gl_sched_result rr = run(&p, &mm);
            held += fabs(rr.end_ns - (order == 2 ? 3.0 * N : N + 2.0) * 1000) < 1e-6;
            gl_sched_program_free(&p);
        }
    test_cond("the copy pipeline's closed form: (N + 2) t in N streams, 3 N t in one, for N = 1..32",
              held == 3 * GL_ARRAY_LEN(Ns));
}

/* The fit of the copy fields to measured times: slope and intercept per direction, engines from the pairs. */
static void test_copy_fit(void)
{
    /* Made-up times: H2D 50 GB/s + 2 us, D2H 40 GB/s + 3 us, D2D 1000 GB/s + 4 us, memset 2000 + 5 us; pairs: H2D
     * and D2H take twice one (one engine each), D2D and memset the same as one (two); both directions at once as
     * below. D2H behind a held copy waited the hold, H2D did not; pageable H2D calls under half the
     * hold up to 4 MiB. */
    gl_sched_copy_times t;
    memset(&t, 0, sizeof t);
    t.small_bytes = 4096, t.large_bytes = 64 << 20;
    const double gbps[4] = {50, 40, 1000, 2000}, lat[4] = {2000, 3000, 4000, 5000};
    for (int d = 0; d < 4; d++) {
        t.small_ns[d] = lat[d] + t.small_bytes / gbps[d];
        t.large_ns[d] = lat[d] + t.large_bytes / gbps[d];
        t.pair_ns[d] = d < 2 ? 2 * t.large_ns[d] : t.large_ns[d];
    }
    /* Both directions at once: H2D at 45 GB/s until it ends, D2H at 35 until then and at 40 after. */
    t.opposite_ns[0] = lat[0] + t.large_bytes / 45;
    t.opposite_ns[1] = t.opposite_ns[0] + (t.large_bytes - (t.opposite_ns[0] - lat[1]) * 35) / 40;
    /* Pageable H2D timed small and large (9 GB/s + 20 us a call); D2H large only (the pinned latency kept). */
    t.pageable_ns[0] = 20000 + t.large_bytes / 9.0, t.pageable_small_ns[0] = 20000 + t.small_bytes / 9.0;
    t.pageable_ns[1] = lat[1] + t.large_bytes / 17.5;
    t.hold_ns = 1e6, t.behind_ns[0] = 2e4, t.behind_ns[1] = 1.01e6;
    t.n_stage = 4;
    for (int i = 0; i < 4; i++) t.stage_bytes[i] = (1 << 20) << (2 * i), t.stage_call_ns[i] = i < 2 ? 1e5 : 1.5e6;
    gl_sched_machine m = ideal(8, 132, 128);
    int rc = gl_sched_copy_fit(&t, &m, err, sizeof err);
    int ok = rc == 0;
    for (int d = 0; d < 4; d++)
        ok &= fabs(m.copy_gbps[d] - gbps[d]) < 1e-9 * gbps[d] && fabs(m.copy_latency_ns[d] - lat[d]) < 1e-6;
    test_cond("the copy fit: each direction's bandwidth and latency from two sizes", ok);
    test_cond("the copy fit: one engine where a pair takes twice one, two where it takes the same",
              m.copy_engines[0] == 1 && m.copy_engines[1] == 1 && m.copy_engines[2] == 2 && m.copy_engines[3] == 2);
    test_cond("the copy fit: pageable bandwidth and cost per call from two sizes, or bytes over the time beyond the "
              "pinned latency from one",
              fabs(m.pageable_gbps[0] - 9.0) < 1e-9 && fabs(m.pageable_latency_ns[0] - 20000) < 1e-6 &&
                  fabs(m.pageable_gbps[1] - 17.5) < 1e-9 && fabs(m.pageable_latency_ns[1] - lat[1]) < 1e-9);
    test_cond("the copy fit: the shared link's speeds from the opposite pair (H2D 45, D2H 35 GB/s)",
              fabs(m.copy_bidir_gbps[0] - 45) < 1e-9 * 45 && fabs(m.copy_bidir_gbps[1] - 35) < 1e-9 * 35);
    t.after_kernel_ns[1] = 6000, t.before_kernel_ns[0] = 1800, t.before_kernel_ns[1] = -200; /* noise: none */
    gl_sched_copy_fit(&t, &m, err, sizeof err);
    test_cond("the copy fit: a dependency's costs as measured, none where the chains measured less",
              m.copy_after_kernel_ns[1] == 6000 && m.copy_after_kernel_ns[0] == 0 && m.kernel_after_copy_ns[0] == 1800 &&
                  m.kernel_after_copy_ns[1] == 0);
    test_cond("the copy fit: no small opposite pair timed, no time per copy while shared",
              m.copy_bidir_latency_ns[0] == 0 && m.copy_bidir_latency_ns[1] == 0);
    /* A small pair of 512 KiB: H2D ends 12 us + its bytes at 45, D2H 1 us + its bytes at 35 (under its latency). */
    t.opposite_small_bytes = 524288;
    t.opposite_small_ns[0] = 12000 + 524288 / 45.0, t.opposite_small_ns[1] = 1000 + 524288 / 35.0;
    gl_sched_copy_fit(&t, &m, err, sizeof err);
    test_cond("the copy fit: the small pair gives the time per copy while shared (12 us), at least the latency (3)",
              fabs(m.copy_bidir_latency_ns[0] - 12000) < 1e-6 && fabs(m.copy_bidir_latency_ns[1] - 3000) < 1e-6);
    test_cond("the copy fit: D2H in order, H2D not; staged up to 4 MiB, the longest such call 100 us; queued up to "
              "64 KiB; D2D copies and memsets over 4 KiB need half an SM; a pageable piece 62 us; pageable D2H "
              "calls one at a time, the H2D staging in two parts",
              m.copy_in_order[1] == 1 && m.copy_in_order[0] == 0 && m.pageable_stage_bytes == 4 << 20 &&
                  m.pageable_stage_call_ns == 1e5 && m.pageable_inline_bytes == 65536 &&
                  m.sm_copy_share == 0.5 && m.sm_memset_bytes == 4096 && m.pageable_piece_ns == 62000 &&
                  m.pageable_d2h_serial == 1 && m.pageable_stage_slots == 2 && m.pageable_d2h_handover_ns == 25000);
    test_cond("the fit leaves the rest of the machine as it was", m.connections == 8 && m.sms == 132);
    /* A link that carries one direction at a time: both take twice as long at once, each at half speed. */
    gl_sched_copy_times half = t;
    half.opposite_ns[0] = lat[0] + 2 * t.large_bytes / 50, half.opposite_ns[1] = lat[1] + 2 * t.large_bytes / 40;
    half.opposite_ns[1] = half.opposite_ns[0] + (t.large_bytes - (half.opposite_ns[0] - lat[1]) * 20) / 40;
    gl_sched_machine n = ideal(8, 132, 128);
    test_cond("a half-duplex link fits: the shared speeds are half (H2D 25, D2H 20 GB/s)",
              gl_sched_copy_fit(&half, &n, err, sizeof err) == 0 && fabs(n.copy_bidir_gbps[0] - 25) < 1e-9 * 25 &&
                  fabs(n.copy_bidir_gbps[1] - 20) < 1e-9 * 20);
    half.opposite_ns[0] = 0;
    test_cond("a fit without the opposite pair's times is refused, saying so, and copies stay refused",
              gl_sched_copy_fit(&half, &n, err, sizeof err) == -1 && strstr(err, "not timed") && n.copy_engines[0] == 0);
    /* A D2D whose 4 KiB copy took as long as its large one (under nsys once: 16.9 us, 16 MiB 15.7 us): the fit holds
     * for the rest, a program with a D2D is refused and one with H2D and D2H only is simulated. */
    t.large_ns[GL_SCHED_D2D] = t.small_ns[GL_SCHED_D2D];
    n = ideal(8, 132, 128);
    err[0] = 0;
    test_cond("a D2D whose larger copy was not slower leaves D2D alone without engines, saying so, the rest fitted",
              gl_sched_copy_fit(&t, &n, err, sizeof err) == 0 && strstr(err, "D2D: no usable times") &&
                  n.copy_engines[GL_SCHED_D2D] == 0 && n.copy_engines[GL_SCHED_H2D] == 1 &&
                  n.copy_engines[GL_SCHED_MEMSET] == 2);
    gl_sched_program p;
    gl_sched_program_init(&p);
    int st = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    gl_sched_copy(&p, 0, st, GL_SCHED_H2D, 1 << 20, 0);
    gl_sched_copy(&p, 0, st, GL_SCHED_D2H, 1 << 20, 0);
    gl_sched_result r;
    int host_only = gl_sched_simulate(&p, &n, &r, err, sizeof err) == 0;
    gl_sched_copy(&p, 0, st, GL_SCHED_D2D, 1 << 20, 0);
    test_cond("...a program of H2D and D2H is simulated on it, one with a D2D refused, naming D2D",
              host_only && gl_sched_simulate(&p, &n, &r, err, sizeof err) == -1 && strstr(err, "(D2D)"));
    gl_sched_program_free(&p);
    t.large_ns[GL_SCHED_H2D] = t.small_ns[GL_SCHED_H2D];
    test_cond("a fit whose larger H2D was not slower is refused",
              gl_sched_copy_fit(&t, &n, err, sizeof err) == -1 && strstr(err, "H2D: no usable times") &&
                  n.copy_engines[GL_SCHED_D2H] == 0);
}

static void test_refusals(void)
{
    int s[1];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 1, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_launch(&p, 0, s[0], 1, 32, 0, 100, 0);
    gl_sched_machine m = ideal(1, 1, 128);
    gl_sched_result r;
    test_cond("a kernel whose block fits nowhere is refused with a reason",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1 && strstr(err, "cannot run") != NULL);
    p.ops[0].blocks_per_sm = 1;
    p.ops[0].kind = GL_SCHED_COPY;
    p.ops[0].dir = GL_SCHED_H2D;
    test_cond("a copy is refused by a machine with no copy engine measured for its direction",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1 && strstr(err, "no copy engine") != NULL);
    m.connections = 0;
    test_cond("a machine without queues is refused", gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1);
    m.connections = 33;
    test_cond("a machine with more queues than CUDA allows is refused",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1);
    m.connections = 1;
    m.sync_return_ns = -1;
    test_cond("a machine with a negative return after a sync is refused",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) == -1 && strstr(err, "synchronization") != NULL);
    gl_sched_program_free(&p);
}

static void test_compare(void)
{
    int s[3];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 3, GL_SCHED_STREAM_NONBLOCKING);
    for (int i = 0; i < 3; i++) gl_sched_launch(&p, 0, s[i], 1, 32, 1, 1000, 10 + i);
    gl_sched_machine m = ideal(4, 8, 128);
    m.issue_ns = 100;
    run(&p, &m);
    gl_timeline pred, meas;
    memset(&pred, 0, sizeof pred);
    memset(&meas, 0, sizeof meas);
    gl_sched_timeline(&p, &pred);
    /* The "measurement": the same kernels 7 us later on another clock, one of them 50 ns late. */
    for (int i = 0; i < 3; i++) {
        p.ops[i].start_ns += 7000 + (i == 2 ? 50 : 0);
        p.ops[i].end_ns += 7000 + (i == 2 ? 50 : 0);
    }
    gl_sched_timeline(&p, &meas);
    gl_sched_errors e = gl_sched_compare(&meas, &pred);
    test_cond("compare: kernels matched by id, offsets between clocks ignored, the late one found",
              e.matched == 3 && e.missing == 0 && e.start_median_ns == 0 && e.start_max_ns == 50 &&
                  e.end_max_ns == 50 && e.worst_id == 12);
    /* The worst kernel need not be the last one compared. */
    p.ops[0].start_ns += 500;
    p.ops[0].end_ns += 500;
    p.ops[1].start_ns -= 500;
    p.ops[1].end_ns -= 500;
    gl_sched_timeline(&p, &meas);
    e = gl_sched_compare(&meas, &pred);
    test_cond("compare: the worst kernel is named wherever it is", e.worst_id == 10 || e.worst_id == 11);
    gl_timeline_free(&pred);
    gl_timeline_free(&meas);
    gl_sched_program_free(&p);
}

static void test_scale(void)
{
    /* 256 streams x 16 kernels of 8448 blocks (twice what 132 SMs x 32 hold). */
    int s[256];
    gl_sched_program p;
    gl_sched_program_init(&p);
    streams(&p, s, 256, GL_SCHED_STREAM_NONBLOCKING);
    gl_sched_streams_by_kernels(&p, s, 256, 16, GL_SCHED_BREADTH_FIRST, 8448, 32, 32, 20000);
    gl_sched_machine m = ideal(32, 132, 128);
    gl_sched_result r = run(&p, &m);
    test_cond("4096 kernels of two waves each: makespan is 8192 waves of 20 us back to back",
              fabs(r.makespan_ns - 8192 * 20000.0) < 1e-3);
    gl_sched_program_free(&p);
}

/* The edges a program promises: one per wait, the legacy barrier both ways,
 * a host sync; and the check against a timeline (the simulation's own). */
static void test_edges(void)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int ev = gl_sched_event_new(&p);
    int k0 = gl_sched_launch(&p, 0, a, 1, 32, 1, 1000, 100);
    gl_sched_record(&p, 0, a, ev);
    int k1 = gl_sched_launch(&p, 0, a, 1, 32, 1, 1000, 101);
    gl_sched_wait(&p, 0, b, ev);
    int k2 = gl_sched_launch(&p, 0, b, 1, 32, 1, 1000, 102);
    gl_sched_edge *e = NULL;
    int n = gl_sched_edges(&p, GL_SCHED_EDGE_ALL, &e);
    test_cond("a wait on a record: one edge, from the kernel before the record to the first one after the wait",
              n == 1 && e[0].before == k0 && e[0].after == k2 && e[0].kind == GL_SCHED_EDGE_EVENT);
    (void)k1;
    gl_sched_machine m = ideal(2, 4, 128);
    run(&p, &m);
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    gl_sched_timeline(&p, &tl);
    gl_sched_edge_check c = gl_sched_edges_hold(&p, e, n, &tl, 0);
    test_cond("the simulation keeps the edge: k2 starts when k0 ends", c.edges == 1 && c.held == 1 && c.missing == 0 &&
              fabs(c.worst_margin_ns) < 1e-6);
    /* Swap the roles: against a timeline where k2 starts with k0, the edge is broken. */
    for (int i = 0; i < tl.n; i++)
        if (tl.k[i].kernel == 102) tl.k[i].start_ns -= 1000;
    c = gl_sched_edges_hold(&p, e, n, &tl, 0);
    test_cond("a consumer that starts before its producer ends breaks the edge", c.held == 0 && c.worst == 0 &&
              c.worst_margin_ns < -999);
    free(e);
    gl_timeline_free(&tl);
    gl_sched_program_free(&p);

    /* One queue: a record waiting for a kernel does not hold the queue; a wait does. */
    gl_sched_program_init(&p);
    a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 2000, 1);
    int rec = gl_sched_record(&p, 0, a, ev);
    gl_sched_launch(&p, 0, b, 1, 32, 1, 2000, 2);
    gl_sched_machine one = ideal(1, 4, 128);
    gl_sched_result res = run(&p, &one);
    test_cond("one queue: a kernel behind a record that waits for a 2 us kernel runs beside it; the record ends with it",
              fabs(res.makespan_ns - 2000) < 1e-6 && fabs(p.ops[rec].end_ns - p.ops[0].end_ns) < 1e-6);
    gl_sched_program_free(&p);
    /* The same record of a timed event (or of any, traced by CUPTI: the replay marks them timed) holds the queue
     * until the kernel before it ends (probe-record-hold, H200: 2003 us against 4-62 untimed and untraced). */
    gl_sched_program_init(&p);
    a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 2000, 1);
    rec = gl_sched_record(&p, 0, a, ev);
    p.ops[rec].timed = 1;
    int kb0 = gl_sched_launch(&p, 0, b, 1, 32, 1, 2000, 2);
    res = run(&p, &one);
    test_cond("one queue: a timed record behind a 2 us kernel holds the queue; the other stream's kernel starts as it "
              "ends, at 2 us, with the record",
              fabs(p.ops[kb0].start_ns - 2000) < 1e-6 && fabs(res.makespan_ns - 4000) < 1e-6 &&
                  fabs(p.ops[rec].end_ns - 2000) < 1e-6);
    gl_sched_program_free(&p);
    /* Behind a copy it holds nothing (copy-overlap's replay at C=1), nor behind a kernel that has ended. */
    for (int behind_copy = 1; behind_copy >= 0; behind_copy--) {
        gl_sched_program_init(&p);
        a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        ev = gl_sched_event_new(&p);
        if (behind_copy) gl_sched_copy(&p, 0, a, GL_SCHED_H2D, 2000, 0);
        else gl_sched_launch(&p, 0, a, 1, 32, 1, 2000, 1);
        if (!behind_copy) gl_sched_host(&p, 0, 3000); /* the kernel ends before the record is issued */
        rec = gl_sched_record(&p, 0, a, ev);
        p.ops[rec].timed = 1;
        int kb1 = gl_sched_launch(&p, 0, b, 1, 32, 1, 2000, 2);
        gl_sched_machine m1 = copier(1);
        res = run(&p, &m1);
        double at = behind_copy ? 0 : 3000;
        test_cond(behind_copy ? "one queue: a timed record behind a 2 us copy holds nothing: the other stream's kernel "
                                "starts at once"
                              : "one queue: a timed record issued after its stream's kernel ended holds nothing",
                  fabs(p.ops[kb1].start_ns - at) < 1e-6);
        gl_sched_program_free(&p);
    }
    /* Two queues: the record holds its own, behind its kernel, and not the other stream's; a third stream's kernel
     * that the rule puts behind the record waits for it (the record counts as that queue's tail and keeps it busy). */
    gl_sched_program_init(&p);
    a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int sc = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 2000, 1);
    rec = gl_sched_record(&p, 0, a, ev);
    p.ops[rec].timed = 1;
    int kb2 = gl_sched_launch(&p, 0, b, 1, 32, 1, 1000, 2);
    int k3 = gl_sched_launch(&p, 0, sc, 1, 32, 1, 1000, 3);
    gl_sched_machine two = ideal(2, 4, 128);
    res = run(&p, &two);
    test_cond("two queues: a timed record holds its kernel's queue: B's kernel (the other queue) starts at once, C's "
              "(behind the record) at 2 us",
              p.ops[rec].queue == p.ops[0].queue && p.ops[kb2].queue != p.ops[0].queue && fabs(p.ops[kb2].start_ns) < 1e-6 &&
                  p.ops[k3].queue == p.ops[0].queue && fabs(p.ops[k3].start_ns - 2000) < 1e-6);
    gl_sched_program_free(&p);
    /* Towers after records (PyTorch's wait_stream): 7 streams of three 300 us kernels, each after a record on the
     * legacy stream, busy with a 2 ms kernel, that it waits for. A held record keeps the next stream out of its queue,
     * so the towers share C - 1 queues, (ceil(7/(C-1))*2 + 1)*300 us after the 2 ms; untimed, all C (7 towers, so
     * that C = 4 tells 3 queues from 4; the probe ran 6): probe-traced-wait
     * (H200, under the trace: 3923, 2121 and 1526 us at C = 2, 3, 4, and alone with timed events 3922, 2112, 1514;
     * alone untimed 2111 and 1511 at C = 2, 4). */
    for (int timed = 1; timed >= 0; timed--)
        for (int C = 2; C <= 4; C++) {
            gl_sched_program_init(&p);
            int tw[7];
            for (int i = 0; i < 7; i++) tw[i] = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
            gl_sched_launch(&p, 0, GL_SCHED_LEGACY, 1, 32, 1, 2e6, 0);
            for (int i = 0; i < 7; i++) {
                int e = gl_sched_event_new(&p);
                int rec_i = gl_sched_record(&p, 0, GL_SCHED_LEGACY, e); /* p.ops may move in the call */
                p.ops[rec_i].timed = timed;
                gl_sched_wait(&p, 0, tw[i], e);
                for (int k = 0; k < 3; k++) gl_sched_launch(&p, 0, tw[i], 1, 32, 1, 3e5, 1 + 3 * i + k);
            }
            gl_sched_machine mc = ideal(C, 16, 128); /* room for every kernel at once */
            res = run(&p, &mc);
            int queues = timed ? C - 1 : C;
            double want = 2e6 + ((7 + queues - 1) / queues * 2 + 1) * 3e5;
            char what[160];
            snprintf(what, sizeof what, "C = %d: towers after %s records on a busy stream share %d queue%s (%.0f us)", C,
                     timed ? "held" : "unheld", queues, queues > 1 ? "s" : "", want / 1e3);
            test_cond(what, fabs(res.makespan_ns - want) < 1e-6);
            gl_sched_program_free(&p);
        }
    /* Only while it holds: a record that has finished keeps nothing out. Two queues: A1 (1 ms) in q0, B1 (10 ms) in
     * q1, D1 and D2 (10 ms each) behind A1 in q0, then a timed record of A (behind A1, held) in q1, done at 1 ms;
     * E1, called at 2 ms with no queue idle, goes to q1 behind nothing that waits and starts at once (behind the
     * record's queue's next, q0, it would wait for D2 to leave, at 10 ms). */
    gl_sched_program_init(&p);
    int sa = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int sb = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int sd = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int se = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    gl_sched_launch(&p, 0, sa, 1, 32, 1, 1e6, 1);
    gl_sched_launch(&p, 0, sb, 1, 32, 1, 1e7, 2);
    gl_sched_launch(&p, 0, sd, 1, 32, 1, 1e7, 3);
    gl_sched_launch(&p, 0, sd, 1, 32, 1, 1e7, 4);
    int rec_a = gl_sched_record(&p, 0, sa, gl_sched_event_new(&p));
    p.ops[rec_a].timed = 1;
    gl_sched_host(&p, 0, 2e6);
    int e1 = gl_sched_launch(&p, 0, se, 1, 32, 1, 1e6, 5);
    gl_sched_machine m2 = ideal(2, 16, 128);
    res = run(&p, &m2);
    test_cond("two queues: a held record that has finished (at 1 ms) keeps no later call out of its queue: E1, called "
              "at 2 ms, starts then",
              fabs(p.ops[rec_a].end_ns - 1e6) < 1e-6 && fabs(p.ops[e1].start_ns - 2e6) < 1e-6);
    gl_sched_program_free(&p);
    /* Whichever thread makes the next call (probe-thread-hold, H200): L (2 ms) on the legacy stream and P (2 ms) in
     * two queues, a timed record behind L, then X on a new stream from another thread once the record returned. X
     * went at once at C=2 (19 us after L; 15 from the record's own thread) and 2003 us after L at C=1. */
    for (int C = 1; C <= 2; C++) {
        gl_sched_program_init(&p);
        int sp = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int sx = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        gl_sched_launch(&p, 0, GL_SCHED_LEGACY, 1, 32, 1, 2e6, 1);
        gl_sched_launch(&p, 0, sp, 1, 32, 1, 2e6, 2);
        int rec_l = gl_sched_record(&p, 0, GL_SCHED_LEGACY, gl_sched_event_new(&p));
        p.ops[rec_l].timed = 1;
        int x = gl_sched_launch(&p, 1, sx, 1, 32, 1, 1e5, 3);
        p.ops[x].after = rec_l;
        gl_sched_machine mc = ideal(C, 16, 128);
        res = run(&p, &mc);
        test_cond(C == 2 ? "two queues: another thread's call after a held record skips its queue too: X starts at once"
                         : "one queue: X behind the held record starts as L ends (2 ms)",
                  fabs(p.ops[x].start_ns - (C == 2 ? 0 : 2e6)) < 1e3);
        gl_sched_program_free(&p);
    }
    gl_sched_program_init(&p);
    a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int c3 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 2000, 1);
    gl_sched_record(&p, 0, a, ev);
    gl_sched_wait(&p, 0, b, ev);
    int kc = gl_sched_launch(&p, 0, c3, 1, 32, 1, 2000, 2);
    res = run(&p, &one);
    test_cond("one queue: a wait does not hold it: a third stream's kernel behind the wait runs beside the first",
              fabs(res.makespan_ns - 2000) < 1e-6 && fabs(p.ops[kc].start_ns - p.ops[0].start_ns) < 1e-6);
    gl_sched_program_free(&p);
    gl_sched_program_init(&p);
    a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    c3 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 2000, 1);
    gl_sched_record(&p, 0, a, ev);
    gl_sched_wait(&p, 0, b, ev);
    int kb = gl_sched_launch(&p, 0, b, 1, 32, 1, 2000, 2);
    kc = gl_sched_launch(&p, 0, c3, 1, 32, 1, 2000, 3);
    res = run(&p, &one);
    test_cond("one queue: the waiting stream's next kernel holds it, so the third stream's kernel starts with it",
              fabs(p.ops[kb].start_ns - p.ops[0].end_ns) < 1e-6 && fabs(p.ops[kc].start_ns - p.ops[kb].start_ns) < 1e-6 &&
              fabs(res.makespan_ns - 4000) < 1e-6);
    gl_sched_program_free(&p);

    /* The seed's default-stream pattern: two blocking streams, a legacy kernel, then one more each. */
    gl_sched_program_init(&p);
    int s1 = gl_sched_stream_new(&p, GL_SCHED_STREAM_BLOCKING, 0, -1);
    int s2 = gl_sched_stream_new(&p, GL_SCHED_STREAM_BLOCKING, 0, -1);
    int x1 = gl_sched_launch(&p, 0, s1, 1, 32, 1, 1000, 1);
    int x2 = gl_sched_launch(&p, 0, s2, 1, 32, 1, 1000, 2);
    int x3 = gl_sched_launch(&p, 0, GL_SCHED_LEGACY, 1, 32, 1, 1000, 3);
    int x4 = gl_sched_launch(&p, 0, s1, 1, 32, 1, 1000, 4);
    int x5 = gl_sched_launch(&p, 0, s1, 1, 32, 1, 1000, 5);
    int x6 = gl_sched_launch(&p, 0, s2, 1, 32, 1, 1000, 6);
    n = gl_sched_edges(&p, GL_SCHED_EDGE_LEGACY, &e);
    int found = 0;
    for (int i = 0; i < n; i++)
        found += (e[i].before == x1 && e[i].after == x3) + (e[i].before == x2 && e[i].after == x3) +
                 (e[i].before == x3 && e[i].after == x4) + (e[i].before == x3 && e[i].after == x6);
    test_cond("the legacy barrier: both blocking kernels before it, the first kernel of each stream after it, "
              "and not the second kernel of a stream", n == 4 && found == 4);
    (void)x5;
    free(e);
    gl_sched_program_free(&p);

    /* Non-blocking streams: no legacy edges at all; a host sync on one stream: one edge to the next launch. */
    gl_sched_program_init(&p);
    int n1 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int y1 = gl_sched_launch(&p, 0, n1, 1, 32, 1, 1000, 1);
    gl_sched_launch(&p, 0, GL_SCHED_LEGACY, 1, 32, 1, 1000, 2);
    gl_sched_sync_stream(&p, 0, n1);
    int y3 = gl_sched_launch(&p, 0, n1, 1, 32, 1, 1000, 3);
    n = gl_sched_edges(&p, GL_SCHED_EDGE_LEGACY, &e);
    test_cond("non-blocking streams have no legacy edges", n == 0 && e == NULL);
    n = gl_sched_edges(&p, GL_SCHED_EDGE_SYNC, &e);
    test_cond("a host sync on a stream: its last kernel before the next one the thread issues",
              n == 1 && e[0].before == y1 && e[0].after == y3);
    free(e);
    gl_sched_program_free(&p);
}

/* n host threads, each launching 16 kernels of 500 us into its own stream,
 * their calls interleaved irregularly (5 to 9 us each), as racing threads'
 * calls are. */
static void racing_threads(gl_sched_program *p, int n)
{
    gl_sched_program_init(p);
    int id = 0;
    for (int t = 0; t < n; t++) {
        int s = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        gl_sched_host(p, t, 1250.0 * t);
        for (int k = 0; k < 16; k++) {
            int op = gl_sched_launch(p, t, s, 1, 32, 1, 500000, id++); /* ops may move: index after the call */
            p->ops[op].issue_ns = 5000 + 1000 * ((7 * k + 3 * t) % 5);
        }
    }
}

static void test_queue_tail_rule(void)
{
    /* Two host threads taking turns, thread 0 into stream A (a 1 ms kernel,
     * then short ones), thread 1 into stream B (short ones), three queues.
     * The tail rule keeps each stream where its last call went while nothing
     * else is behind it: A in one queue, B in another, and B's kernels never
     * wait for A's. The switch rule's memory is the previous call of any
     * thread, so every call moves: A2 waits for A1 at the head of the idle
     * queue, and B3 lands behind it. On the H200 (omp-streams, per-thread
     * streams, 4 threads, C = 8) racing threads kept a queue per stream:
     * 8.1 ms measured, 8.1 ms with the tail rule, 12.6 ms with the switch rule
     * for another run's calls (8.1 ms measured too). */
    gl_sched_program p;
    gl_sched_program_init(&p);
    int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int a1 = -1, b1 = -1, b3 = -1, id = 0;
    gl_sched_host(&p, 1, 2500); /* thread 1 calls half a call after thread 0 */
    for (int k = 0; k < 3; k++) {
        int op = gl_sched_launch(&p, 0, a, 1, 32, 1, k == 0 ? 1000000 : 10000, id++);
        b3 = gl_sched_launch(&p, 1, b, 1, 32, 1, 10000, id++);
        if (k == 0) a1 = op, b1 = b3;
    }
    gl_sched_machine m = ideal(3, 132, 128);
    m.issue_ns = 5000;
    run(&p, &m);
    double tail = p.ops[b3].start_ns;
    int qa = p.ops[a1].queue, qb = p.ops[b1].queue, same = 1;
    for (int i = 0; i < p.n_ops; i++)
        if (p.ops[i].kind == GL_SCHED_LAUNCH) same &= p.ops[i].queue == (p.ops[i].stream == a ? qa : qb);
    m.queue_rule = GL_SCHED_QUEUE_SWITCH;
    run(&p, &m);
    double sw = p.ops[b3].start_ns;
    char d[200];
    snprintf(d, sizeof d, "tail rule: two threads taking turns keep a queue per stream, B's third kernel starts at "
             "%.0f us; the switch rule puts it behind A's wait (%.0f us)", tail / 1e3, sw / 1e3);
    test_cond(d, same && qa != qb && tail < 100000 && sw > 1000000);
    gl_sched_program_free(&p);
}

static void test_cross_thread_after(void)
{
    /* Thread 0 works 100 us on the host, then a 1 ms kernel on A and a record of e; thread 1 waits on e in B at
     * once, then a kernel. Unordered, thread 1's wait comes before any record and holds nothing; with the wait
     * after the record (gl_sched_op.after: the program's own order, as a recording shows it), B's kernel follows
     * A's. */
    gl_sched_program p;
    gl_sched_program_init(&p);
    int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int e = gl_sched_event_new(&p);
    gl_sched_host(&p, 0, 100000);
    int k1 = gl_sched_launch(&p, 0, a, 1, 32, 1, 1000000, 0);
    int rec = gl_sched_record(&p, 0, a, e);
    int w = gl_sched_wait(&p, 1, b, e);
    int k2 = gl_sched_launch(&p, 1, b, 1, 32, 1, 10000, 1);
    gl_sched_machine m = ideal(8, 132, 128);
    run(&p, &m);
    double unordered = p.ops[k2].start_ns;
    p.ops[w].after = rec;
    run(&p, &m);
    char d[200];
    snprintf(d, sizeof d, "a wait after another thread's record: B's kernel at %.0f us, after A's kernel (%.0f us); "
             "unordered, at %.0f us", p.ops[k2].start_ns / 1e3, p.ops[k1].end_ns / 1e3, unordered / 1e3);
    test_cond(d, unordered < 50000 && p.ops[k2].start_ns >= p.ops[k1].end_ns &&
                     p.ops[w].call_ns >= p.ops[rec].submit_ns);
    gl_sched_result r;
    char err[160];
    p.ops[w].after = k2; /* its own thread's */
    test_cond("an op after its own thread's op is refused",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) != 0 && strstr(err, "another thread"));
    p.ops[w].after = rec, p.ops[k1].after = k2; /* each thread waits for the other: no run, an error */
    test_cond("threads that wait for each other's ops: a deadlock, reported",
              gl_sched_simulate(&p, &m, &r, err, sizeof err) != 0 && strstr(err, "deadlock"));
    gl_sched_program_free(&p);
}

static void test_ranked_races(void)
{
    /* One event releases a wide kernel W (on stream A, submitted first: 8 blocks, each a whole SM of 4) and a
     * 1-block kernel K (on B). By submission order W takes every SM and K starts as W's first wave leaves; ranked
     * K first (it started first in a recording), with the machine's ranked_races, K starts with W and W's blocks
     * queue behind it. Not ranked races, the ranks change nothing. */
    for (int C = 1; C <= 2; C++) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int e = gl_sched_event_new(&p);
        int k0 = gl_sched_launch(&p, 0, a, 1, 32, 1, 100000, 0); /* 100 us */
        gl_sched_record(&p, 0, a, e);
        gl_sched_wait(&p, 0, b, e);
        int w = gl_sched_launch(&p, 0, a, 8, 32, 1, 50000, 1); /* two waves of 50 us on 4 SMs */
        int k = gl_sched_launch(&p, 0, b, 1, 32, 1, 50000, 2);
        gl_sched_machine m = ideal(C, 4, 128);
        m.dispatch_ns = 1600, m.queue_entry_ns = 260; /* C=1: K leaves its queue 260 ns behind W, and reaches the
                                                       * distributor as long after it: within the race */
        run(&p, &m);
        double sub_k = p.ops[k].start_ns, sub_w = p.ops[w].end_ns;
        p.ops[k0].rank = 1, p.ops[k].rank = 2, p.ops[w].rank = 3;
        gl_sched_result r0 = run(&p, &m);
        double unranked_k = p.ops[k].start_ns;
        m.ranked_races = 1;
        gl_sched_result r1 = run(&p, &m);
        char d[240];
        snprintf(d, sizeof d, "C=%d: ranked first, the 1-block kernel starts at %.2f us with the wide one (%.2f), "
                 "which ends at %.0f us (by submission order: at %.0f and %.0f us; ranked, races not: %.0f)", C,
                 p.ops[k].start_ns / 1e3, p.ops[w].start_ns / 1e3, p.ops[w].end_ns / 1e3, sub_k / 1e3, sub_w / 1e3,
                 unranked_k / 1e3);
        test_cond(d, sub_k >= 150000 && unranked_k == sub_k && p.ops[k].start_ns < 105000 &&
                         p.ops[k].start_ns <= p.ops[w].start_ns && p.ops[w].end_ns > sub_w + 40000);
        snprintf(d, sizeof d, "C=%d: the result counts the races the ranks decided (%d; races not ranked: %d)", C,
                 r1.ranked, r0.ranked);
        test_cond(d, r1.ranked >= 1 && r0.ranked == 0);
        gl_sched_program_free(&p);
    }
    /* Heads ready at one instant with one resident place between them (L=2: a 100 us kernel holds one place, and
     * the other frees as k0, whose record releases W and K, ends): by submission order W (stream A) leaves first
     * and K waits for it; ranked K first, K leaves first, whichever queues the two are in (A's stream created
     * first or second), and the two take each other's times. */
    for (int swap = 0; swap < 2; swap++) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        int s0 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int s1 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int a = swap ? s1 : s0, b = swap ? s0 : s1, z = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int e = gl_sched_event_new(&p);
        gl_sched_launch(&p, 0, z, 1, 32, 1, 100000, 0); /* 100 us in the other resident place */
        int k0 = gl_sched_launch(&p, 0, a, 1, 32, 1, 50000, 1); /* 50 us, then the event */
        gl_sched_record(&p, 0, a, e);
        gl_sched_wait(&p, 0, b, e);
        int w = gl_sched_launch(&p, 0, a, 1, 32, 1, 50000, 2);
        int k = gl_sched_launch(&p, 0, b, 1, 32, 1, 50000, 3);
        gl_sched_machine m = ideal(4, 4, 2);
        run(&p, &m);
        double sub_w = p.ops[w].start_ns, sub_k = p.ops[k].start_ns;
        p.ops[k0].rank = 1, p.ops[k].rank = 2, p.ops[w].rank = 3;
        m.ranked_races = 1;
        gl_sched_result r = run(&p, &m);
        char d[240];
        snprintf(d, sizeof d, "one resident place, %s: ranked first, K leaves at %.0f us and W after it at %.0f (by "
                 "submission order W at %.0f, K at %.0f); %d race decided", swap ? "the queues swapped" :
                 "A's queue first", p.ops[k].start_ns / 1e3, p.ops[w].start_ns / 1e3, sub_w / 1e3, sub_k / 1e3, r.ranked);
        test_cond(d, sub_w < sub_k && p.ops[k].start_ns == sub_w && p.ops[w].start_ns == sub_k && r.ranked == 1);
        gl_sched_program_free(&p);
    }
}

static void test_staging(void)
{
    /* Thread 0: a 1 ms kernel in A, then a copy in A, which waits for the kernel; thread 1, 100 us into the run, a
     * copy in B (idle). copier(8): stage 100000 B, in two parts of 50000; pageable 0.25 B/ns. rule: 0, none; 1, the
     * D2H rule alone (the replay's machine); 2, both. */
    enum { H2D = GL_SCHED_H2D, D2H = GL_SCHED_D2H };
    const struct {
        const char *what;
        int dir0, pageable0;
        double bytes0;
        int dir1, pageable1;
        double bytes1;
        int waits; /* the rule it waits under: 1, the D2H one; 2, the H2D parts; 0, none */
    } c[] = {
        {"a pageable D2H behind another thread's: made once that one has returned", D2H, 1, 1000, D2H, 1, 1000, 1},
        {"a pinned D2H beside another thread's pageable one: at once", D2H, 1, 1000, D2H, 0, 1000, 0},
        {"a pageable H2D beside another thread's D2H: at once", D2H, 1, 1000, H2D, 1, 40000, 0},
        {"a staged H2D (one part) beside another staged one (one part): at once", H2D, 1, 40000, H2D, 1, 50000, 0},
        {"a staged H2D (two parts) beside a staged one (one part): once that one's copy has ended", H2D, 1, 40000,
         H2D, 1, 60000, 2},
        {"an H2D the host waits for beside a staged one: once that one's copy has ended", H2D, 1, 1000, H2D, 1,
         200000, 2},
        {"a staged H2D beside one the host waits for: once that one's copy has ended", H2D, 1, 200000, H2D, 1, 1000, 2},
        {"an inline H2D (100 B) beside one the host waits for: at once", H2D, 1, 200000, H2D, 1, 100, 0},
    };
    for (int i = 0; i < (int)GL_ARRAY_LEN(c); i++) {
        for (int rule = 0; rule < 3; rule++) {
            gl_sched_program p;
            int st[2];
            two_streams(&p, st);
            gl_sched_launch(&p, 0, st[0], 1, 32, 1, 1000000, 0);
            int x = gl_sched_copy(&p, 0, st[0], c[i].dir0, c[i].bytes0, c[i].pageable0);
            gl_sched_host(&p, 1, 100000);
            int y = gl_sched_copy(&p, 1, st[1], c[i].dir1, c[i].bytes1, c[i].pageable1);
            gl_sched_machine m = copier(8);
            m.pageable_d2h_serial = rule >= 1, m.pageable_stage_slots = rule == 2 ? 2 : 0;
            run(&p, &m);
            int waited = p.ops[y].start_ns >= p.ops[x].end_ns;
            static const char *under[] = {"no staging rule, no wait: ", "the D2H rule alone: ", ""};
            char d[240];
            snprintf(d, sizeof d, "%s%s (its copy %.0f-%.0f us, the other's %.0f-%.0f us)", under[rule], c[i].what,
                     p.ops[y].start_ns / 1e3, p.ops[y].end_ns / 1e3, p.ops[x].start_ns / 1e3, p.ops[x].end_ns / 1e3);
            test_cond(d, waited == (c[i].waits > 0 && rule >= c[i].waits));
            gl_sched_program_free(&p);
        }
    }
    /* One thread: a staged H2D (one part) behind the 1 ms kernel, then one the host waits for in B: it waits for the
     * first copy's end, and the thread with it. */
    gl_sched_program p;
    int st[3];
    two_streams(&p, st);
    gl_sched_launch(&p, 0, st[0], 1, 32, 1, 1000000, 0);
    int x = gl_sched_copy(&p, 0, st[0], H2D, 40000, 1);
    int y = gl_sched_copy(&p, 0, st[1], H2D, 200000, 1);
    gl_sched_machine m = copier(8);
    m.pageable_d2h_serial = 1, m.pageable_stage_slots = 2;
    run(&p, &m);
    test_cond("one thread: an H2D the host waits for after a staged one behind a kernel waits for that one's copy",
              p.ops[y].call_ns >= p.ops[x].end_ns && p.ops[x].end_ns >= 1000000);
    gl_sched_program_free(&p);
    /* The D2H staging passes on: thread 1 a pageable D2H behind the 1 ms kernel, then, after host work of 0 or
     * 50 us, another in C; thread 0's, waiting since 100 us, takes it 25 us after the first copy ends. */
    for (int k = 0; k < 2; k++) {
        gl_sched_program_init(&p);
        streams(&p, st, 3, GL_SCHED_STREAM_NONBLOCKING);
        gl_sched_launch(&p, 1, st[0], 1, 32, 1, 1000000, 0);
        int x1 = gl_sched_copy(&p, 1, st[0], D2H, 1000, 1);
        if (k == 1) gl_sched_host(&p, 1, 50000);
        int x2 = gl_sched_copy(&p, 1, st[2], D2H, 1000, 1);
        gl_sched_host(&p, 0, 100000);
        int w = gl_sched_copy(&p, 0, st[1], D2H, 1000, 1);
        gl_sched_machine mh = copier(8);
        mh.pageable_d2h_serial = 1, mh.pageable_d2h_handover_ns = 25000;
        run(&p, &mh);
        char d[200];
        snprintf(d, sizeof d, "the D2H staging: the thread that freed it at %.0f us, calling again %s, goes %s the "
                 "waiting thread (its copy %.0f us, the waiter's %.0f us)", p.ops[x1].end_ns / 1e3,
                 k ? "50 us later" : "at once", k ? "after" : "before", p.ops[x2].start_ns / 1e3,
                 p.ops[w].start_ns / 1e3);
        test_cond(d, k == 0 ? p.ops[x2].start_ns < p.ops[w].start_ns
                            : p.ops[w].call_ns >= p.ops[x1].end_ns + 25000 && p.ops[w].start_ns < p.ops[x2].start_ns);
        gl_sched_program_free(&p);
    }
    /* A thread that was not waiting as the staging was freed (its call 10 us after) is not held by the handover. */
    two_streams(&p, st);
    gl_sched_launch(&p, 1, st[0], 1, 32, 1, 1000000, 0);
    int x1 = gl_sched_copy(&p, 1, st[0], D2H, 1000, 1);
    gl_sched_host(&p, 0, 1014000);
    int fresh = gl_sched_copy(&p, 0, st[1], D2H, 1000, 1);
    gl_sched_machine mh = copier(8);
    mh.pageable_d2h_serial = 1, mh.pageable_d2h_handover_ns = 25000;
    run(&p, &mh);
    char dd[200];
    snprintf(dd, sizeof dd, "the D2H staging: a thread that was not waiting, calling 10 us after it was freed "
             "(%.0f us), goes at once (%.0f us)", p.ops[x1].end_ns / 1e3, p.ops[fresh].call_ns / 1e3);
    test_cond(dd, p.ops[fresh].call_ns < p.ops[x1].end_ns + 25000 && p.ops[fresh].call_ns >= p.ops[x1].end_ns);
    gl_sched_program_free(&p);
    /* A call after another thread's call that blocks: made once that call has returned, not once it was made.
     * Thread 0 synchronizes with A (a 1 ms kernel), or makes a pageable D2H in A; thread 1's launch is after it. */
    for (int k = 0; k < 2; k++) {
        two_streams(&p, st);
        gl_sched_launch(&p, 0, st[0], 1, 32, 1, 1000000, 0);
        int w = k == 0 ? gl_sched_sync_stream(&p, 0, st[0]) : gl_sched_copy(&p, 0, st[0], D2H, 1000, 1);
        int l = gl_sched_launch(&p, 1, st[1], 1, 32, 1, 10000, 1);
        p.ops[l].after = w;
        run(&p, &m);
        char d[200];
        snprintf(d, sizeof d, "a launch after another thread's %s is made as it returns (%.0f us), not before",
                 k == 0 ? "cudaStreamSynchronize" : "pageable D2H", p.ops[w].end_ns / 1e3);
        test_cond(d, p.ops[l].call_ns >= p.ops[w].end_ns && p.ops[w].end_ns >= 1000000);
        gl_sched_program_free(&p);
    }
}

static void test_spread(void)
{
    gl_sched_program p;
    racing_threads(&p, 4);
    gl_sched_machine m = ideal(2, 132, 128);
    gl_sched_result point = run(&p, &m);
    gl_sched_spread none, some;
    int rc = gl_sched_simulate_spread(&p, &m, NULL, 50, 1, 0, &none, err, sizeof err);
    test_cond("spread without windows: the point prediction alone",
              rc == 0 && none.draws == 0 && none.makespan_min_ns == point.makespan_ns &&
                  none.makespan_max_ns == point.makespan_ns);
    double *w = (double *)calloc((size_t)p.n_ops, sizeof(double));
    for (int i = 0; i < p.n_ops; i++) w[i] = 5000;
    rc = gl_sched_simulate_spread(&p, &m, w, 50, 1, 0, &some, err, sizeof err);
    gl_sched_result again = run(&p, &m);
    char d[200];
    snprintf(d, sizeof d, "spread, 4 threads racing for 2 queues, calls known to 5 us: %.2f .. %.2f ms around %.2f, "
             "peaks %d..%d; the ops keep the point prediction", some.makespan_min_ns / 1e6, some.makespan_max_ns / 1e6,
             point.makespan_ns / 1e6, some.peak_min, some.peak_max);
    test_cond(d, rc == 0 && some.draws == 50 && some.makespan_min_ns <= point.makespan_ns &&
                     point.makespan_ns <= some.makespan_max_ns && some.makespan_max_ns > some.makespan_min_ns &&
                     again.makespan_ns == point.makespan_ns);
    free(w);
    gl_sched_program_free(&p);
}

static void test_queue_rule_env(void)
{
    char e[160] = "";
    unsetenv("GRIDLAB_QUEUE_RULE");
    int unset = gl_sched_queue_rule_env(GL_SCHED_QUEUE_TAIL, e, sizeof e);
    setenv("GRIDLAB_QUEUE_RULE", "switch", 1);
    int sw = gl_sched_queue_rule_env(GL_SCHED_QUEUE_TAIL, e, sizeof e);
    setenv("GRIDLAB_QUEUE_RULE", "stream", 1);
    int st = gl_sched_queue_rule_env(GL_SCHED_QUEUE_TAIL, e, sizeof e);
    setenv("GRIDLAB_QUEUE_RULE", "fifo", 1);
    int bad = gl_sched_queue_rule_env(GL_SCHED_QUEUE_TAIL, e, sizeof e);
    unsetenv("GRIDLAB_QUEUE_RULE");
    test_cond("GRIDLAB_QUEUE_RULE: unset keeps the default, switch and stream pick theirs, fifo is refused by name",
              unset == GL_SCHED_QUEUE_TAIL && sw == GL_SCHED_QUEUE_SWITCH && st == GL_SCHED_QUEUE_STREAM && bad == -1 &&
                  strstr(e, "'fifo' is not a queue rule") != NULL);
}

int main(void)
{
    test_textbook_grid();
    test_textbook_stream_rule();
    test_textbook_resident_limit();
    test_false_dependency();
    test_release_rule();
    test_block_slots();
    test_resident_limit();
    test_queue_switch_rule();
    test_queue_tail_rule();
    test_cross_thread_after();
    test_ranked_races();
    test_staging();
    test_spread();
    test_queue_rule_env();
    test_legacy_stream();
    test_events();
    test_record_reached();
    test_record_holds_not();
    test_fan_in_more_streams_than_queues();
    test_host();
    test_dispatch_latency();
    test_queue_entry();
    test_dispatch_busy();
    test_dispatch_chains();
    test_block_dispatch();
    test_sm_sharing();
    test_stream_creation();
    test_copy_engines();
    test_bidir_small();
    test_copy_kernel_costs();
    test_copy_curve();
    test_queue_copies();
    test_sm_copies();
    test_pageable();
    test_pageable_piece();
    test_bracket_step();
    test_fit_host_copies();
    test_host_functions();
    test_loads();
    test_copy_pipeline();
    test_copy_fit();
    test_refusals();
    test_compare();
    test_scale();
    test_edges();
    test_report();
}
