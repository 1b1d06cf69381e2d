/* test_replay_import.c - the replay's import rules that work on calls, not on the SQLite file (src/replay/import.c):
 * the staging of a pageable H2D copy the host waits for, called into a busy stream (rp_stage_busy_h2d), and the
 * kernels' and copies' recorded order (rp_rank_starts). */
#include "harness.h"
#include "import.h"
#include <math.h>
#include <string.h>

enum { US = 1000, MAX_CALLS = 16 };

typedef struct copy {
    double call_us, ret_us, start_us; /* the call, its return, its recorded DMA */
    double bytes;
    int pageable, waits, dir, kind;
} copy;

/* X: an 8 MiB pageable H2D the host waits for, called at 100 us into a stream busy until past 2000 us, its DMA
 * recorded at 2000 us; then the others. Returns X's pre_ns in us (NAN: X not counted as staged). */
static double stage(const copy *others, int n, double staging_us, int in_order, int *ordered)
{
    rp_call c[MAX_CALLS];
    memset(c, 0, sizeof c);
    c[0].kind = RP_COPY, c[0].dir = GL_SCHED_H2D, c[0].pageable = 1, c[0].waits = 1, c[0].bytes = 8 << 20;
    c[0].start_ns = 100 * US, c[0].end_ns = 3000 * US, c[0].gpu_start_ns = 2000 * US, c[0].staged_from_ns = 100 * US;
    for (int k = 0; k < n; k++) {
        rp_call *y = &c[1 + k];
        y->kind = others[k].kind, y->dir = others[k].dir, y->bytes = others[k].bytes;
        y->pageable = others[k].pageable, y->waits = others[k].waits;
        y->start_ns = others[k].call_us * US, y->end_ns = others[k].ret_us * US;
        y->gpu_start_ns = others[k].start_us * US, y->staged_from_ns = NAN;
    }
    rp_trace t;
    memset(&t, 0, sizeof t);
    t.calls = c, t.n_calls = 1 + n;
    int busy = rp_stage_busy_h2d(&t, staging_us * US, in_order);
    *ordered = t.staged_ordered;
    return busy == 1 ? c[0].pre_ns / US : NAN;
}

enum { H2D = GL_SCHED_H2D, D2H = GL_SCHED_D2H, MIB = 1 << 20 };

/* Y1: a pinned 1 MiB H2D another thread issued (returned) at 150 us, before X on the engine (1990 us); Y2 likewise
 * at 300 us, after X (2500 us). Around them copies that must not bound X: a 24 KiB pinned one (beside the engine,
 * no order) returned at 120 us and after X; a 64 KiB pageable one (inline) at 260 us and before X; a pinned D2H at
 * 200 us, before X; one returned at 90 us, before X's staging could begin, after X; one returned after X's DMA
 * (2100 us), before it on the engine. */
static const copy pair[] = {
    {140, 150, 1990, MIB, 0, 0, H2D, RP_COPY},     {290, 300, 2500, MIB, 0, 0, H2D, RP_COPY},
    {110, 120, 2600, 24 << 10, 0, 0, H2D, RP_COPY}, {250, 260, 1900, 64 << 10, 1, 0, H2D, RP_COPY},
    {190, 200, 1950, MIB, 0, 0, D2H, RP_COPY},     {80, 90, 2700, MIB, 0, 0, H2D, RP_COPY},
    {2090, 2100, 1995, MIB, 0, 0, H2D, RP_COPY}};
enum { N_PAIR = sizeof pair / sizeof pair[0] };

int main(void)
{
    int ordered;
    double pre = stage(pair, N_PAIR, 100, 0, &ordered);
    test_cond("a pageable H2D the host waits for, called into a busy stream, stages first: the trace's time (100 us)",
              pre == 100 && ordered == 0);
    pre = stage(pair, N_PAIR, 5000, 0, &ordered);
    test_cond("... at most until its recorded DMA (1900 us after the staging could begin)", pre == 1900 && ordered == 0);
    pre = stage(pair, N_PAIR, 100, 1, &ordered);
    test_cond("with one queue, where the recorded order on the engine allows it (after the copy that went there at "
              "150 us and began before it, before the one at 300 us that began after it): unmoved; a beside, an "
              "inline, a D2H, an earlier and a later copy bound nothing", pre == 100 && ordered == 0);
    pre = stage(pair, N_PAIR, 30, 1, &ordered);
    test_cond("... staged before the copy it followed on the engine went there: moved 20 us after (70 us)",
              fabs(pre - 70) < 1e-9 && ordered == 1);
    pre = stage(pair, N_PAIR, 250, 1, &ordered);
    test_cond("... staged after the copy that followed it went there: moved 20 us before (180 us)",
              fabs(pre - 180) < 1e-9 && ordered == 1);
    pre = stage(pair, N_PAIR, 0, 1, &ordered);
    test_cond("... no staging time known: at its call, but after the copy it followed (70 us)",
              fabs(pre - 70) < 1e-9 && ordered == 1);
    pre = stage(pair, N_PAIR, 0, 0, &ordered);
    test_cond("... no staging time known, more than one queue: at its call (0)", pre == 0 && ordered == 0);
    const copy close[] = {{140, 150, 1990, MIB, 0, 0, H2D, RP_COPY}, {150, 160, 2500, MIB, 0, 0, H2D, RP_COPY}};
    pre = stage(close, 2, 100, 1, &ordered);
    test_cond("two bounds 10 us apart: half way between them (55 us)", fabs(pre - 55) < 1e-9 && ordered == 1);
    const copy sync[] = {{130, 1900, 1980, MIB, 0, 1, H2D, RP_COPY}};
    pre = stage(sync, 1, 10, 1, &ordered);
    test_cond("a cudaMemcpy of pinned memory that went to the engine at its call (130 us), before it: after it "
              "(50 us)", fabs(pre - 50) < 1e-9 && ordered == 1);
    const copy paged[] = {{130, 1900, 1980, 4 * MIB, 1, 1, H2D, RP_COPY}};
    pre = stage(paged, 1, 10, 1, &ordered);
    test_cond("... another pageable H2D the host waited for bounds nothing (the staging orders those)",
              pre == 10 && ordered == 0);
    const copy kernel[] = {{130, 140, 1980, MIB, 0, 0, H2D, RP_LAUNCH}};
    pre = stage(kernel, 1, 10, 1, &ordered);
    test_cond("... nor does a kernel", pre == 10 && ordered == 0);
    const copy late[] = {{140, 150, 1990, MIB, 0, 0, H2D, RP_COPY}, {2090, 2100, 1995, MIB, 0, 0, H2D, RP_COPY}};
    pre = stage(late, 2, 100, 1, &ordered);
    test_cond("a copy that went to the engine after this one's DMA began bounds nothing, even recorded before it",
              pre == 100 && ordered == 0);
    gl_sched_program p; /* a kernel, a record, a copy, a kernel none recorded, a kernel: recorded 30, -, 10, -, 10 */
    gl_sched_program_init(&p);
    int st = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1), ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, st, 1, 32, 1, 1000, 0);
    gl_sched_record(&p, 0, st, ev);
    gl_sched_copy(&p, 0, st, H2D, 4096, 0);
    gl_sched_launch(&p, 0, st, 1, 32, 1, 1000, 1);
    gl_sched_launch(&p, 0, st, 1, 32, 1, 1000, 2);
    const double rs[] = {30, 5, 10, NAN, 10};
    p.ops[1].rank = 7; /* a stale rank goes */
    rp_rank_starts(&p, rs);
    test_cond("kernels and copies ranked by recorded start, ties by op index; a record and an op with no recorded "
              "start unranked (3 0 1 0 2)", p.ops[0].rank == 3 && p.ops[1].rank == 0 && p.ops[2].rank == 1 &&
                                                 p.ops[3].rank == 0 && p.ops[4].rank == 2);
    gl_sched_program_free(&p);
    test_report();
}
