/* test_replay_import.c - the replay's import rules that work on calls, not on the SQLite file (src/replay/import.c):
 * the staging of a pageable H2D copy the host waits for, called into a busy stream (rp_stage_busy_h2d). */
#include "harness.h"
#include "import.h"
#include <math.h>
#include <string.h>

enum { US = 1000 };

/* X: a 8 MiB pageable H2D the host waits for, called at 100 us into a busy stream, its DMA recorded at 2000 us.
 * Y1: a 1 MiB pinned H2D another thread issued (returned) at 150 us, recorded before X on the engine (1990 us).
 * Y2: likewise at 300 us, recorded after X (2500 us). S: a 16 KiB pinned H2D (beside the engine, no order) at 120 us,
 * recorded after X; I: a 32 KiB pageable one (inline) at 260 us, recorded before X. Returns X's pre_ns in us. */
static double staged(double staging_us, int in_order, int *ordered)
{
    rp_call c[5];
    memset(c, 0, sizeof c);
    for (int i = 0; i < 5; i++) c[i].kind = RP_COPY, c[i].dir = GL_SCHED_H2D, c[i].staged_from_ns = NAN;
    c[0].pageable = 1, c[0].waits = 1, c[0].bytes = 8 << 20, c[0].start_ns = 100 * US, c[0].end_ns = 3000 * US;
    c[0].staged_from_ns = 100 * US, c[0].gpu_start_ns = 2000 * US;
    double ret[4] = {150, 300, 120, 260}, start[4] = {1990, 2500, 2600, 1900}, bytes[4] = {1 << 20, 1 << 20, 16 << 10,
                                                                                             32 << 10};
    for (int k = 0; k < 4; k++) {
        rp_call *y = &c[1 + k];
        y->bytes = bytes[k], y->pageable = k == 3, y->start_ns = (ret[k] - 10) * US, y->end_ns = ret[k] * US;
        y->gpu_start_ns = start[k] * US;
    }
    rp_trace t;
    memset(&t, 0, sizeof t);
    t.calls = c, t.n_calls = 5;
    int busy = rp_stage_busy_h2d(&t, staging_us * US, in_order);
    *ordered = t.staged_ordered;
    return busy == 1 ? c[0].pre_ns / US : NAN;
}

int main(void)
{
    int ordered;
    double pre = staged(100, 0, &ordered);
    test_cond("a pageable H2D the host waits for, called into a busy stream, stages first: the trace's time (100 us)",
              pre == 100 && ordered == 0);
    pre = staged(5000, 0, &ordered);
    test_cond("... at most until its recorded DMA (1900 us after the staging could begin)", pre == 1900);
    pre = staged(100, 1, &ordered);
    test_cond("with one queue, where the recorded order on the engine allows it (after the copy returned at 150 us "
              "that began before it, before the one at 300 us that began after it): unmoved", pre == 100 && ordered == 0);
    pre = staged(30, 1, &ordered);
    test_cond("... staged before the copy it followed on the engine returned: moved 20 us after that return (70 us)",
              fabs(pre - 70) < 1e-9 && ordered == 1);
    pre = staged(250, 1, &ordered);
    test_cond("... staged after the copy that followed it returned: moved 20 us before that return (180 us)",
              fabs(pre - 180) < 1e-9 && ordered == 1);
    pre = staged(0, 1, &ordered);
    test_cond("... no staging time known: at its call, but after the copy it followed (70 us)",
              fabs(pre - 70) < 1e-9 && ordered == 1);
    pre = staged(0, 0, &ordered);
    test_cond("... no staging time known, more than one queue: at its call (0)", pre == 0 && ordered == 0);
    test_report();
}
