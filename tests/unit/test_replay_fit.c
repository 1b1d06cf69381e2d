/* test_replay_fit.c - the replay's fit of a pageable copy's time alone (src/replay/fit.c, rp_fit_kernels): the
 * recording's time holds its pauses behind engine copies of its direction, which the simulation adds again. */
#include "harness.h"
#include "fit.h"
#include "machines.h"
#include <math.h>

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

int main(void)
{
    double end;
    double t = fit_one(500, &end);
    test_cond("a pageable copy paused behind a pinned one of 2820 ns: its time alone is what is left (970 ns), "
              "and it replays as recorded (3790)", fabs(t - 970) < 2 && fabs(end - 3790) < 4);
    t = fit_one(1000, &end);
    test_cond("... where no time alone gives the recording (it ends before the pinned one starts, or waits it all "
              "out), the nearest: 1000 ns, ending at 3820, not 999 ending at 999", fabs(t - 1000) < 2 && fabs(end - 3790) <= 31);
    t = fit_one(10000, &end);
    test_cond("... a copy with no engine copy beside it keeps its recorded time", t == 3790 && end == 3790);
    test_report();
}
