/* test_sample.c - the sampling loop: warm-up, repeats, named series, the L2 flush rule, --profile. */
#include "testutil.h"

#include "harness.h"
#include "gl_sample.h"

/* A sample function whose values show the loop's bookkeeping: call k puts k and 10k. */
typedef struct counter {
    int calls;         /* calls so far, warm-up included */
    int timed_calls;   /* calls that were timed */
    int flushes_seen;  /* flush calls seen before this call */
    int *flushes;      /* the flush counter */
} counter;

static void counting(gl_sample *s, void *arg)
{
    counter *c = (counter *)arg;
    c->calls++;
    c->timed_calls += s->timed;
    c->flushes_seen = *c->flushes;
    gl_sample_put(s, "time", c->calls);
    gl_sample_put(s, "other", 10.0 * c->calls);
}

static void count_flush(void *arg) { ++*(int *)arg; }

/* A disturbance that passes: timed calls 1..disturbed put 2, later ones 1. */
typedef struct passing {
    int timed, disturbed;
} passing;

static void disturbed_then_quiet(gl_sample *s, void *arg)
{
    passing *p = (passing *)arg;
    if (!s->timed) return;
    gl_sample_put(s, "time", ++p->timed <= p->disturbed ? 2.0 : 1.0);
}

static void forgets(gl_sample *s, void *arg)
{
    (void)arg;
    gl_sample_put(s, "time", 1);
}

static void undeclared(gl_sample *s, void *arg)
{
    (void)arg;
    gl_sample_put(s, "nope", 1);
}

static gl_common common;

/* A run whose function leaves out a declared series: must stop, not average garbage. */
static void run_forgetting(void *fn)
{
    gl_sampler s;
    gl_sampler_init(&s, &common);
    gl_sampler_series(&s, "time", "ms", 3, 0);
    gl_sampler_series(&s, "other", "ms", 3, 0);
    gl_report r;
    gl_report_init(&r, "demo", &common);
    gl_sampler_run(&s, gl_report_row(&r, "t", "v"), (gl_sample_fn)fn, NULL);
}

int main(void)
{
    gl_common_defaults(&common);
    common.warmup = 3;
    common.repeat = 4;
    int flushes = 0;
    gl_report r;
    gl_report_init(&r, "demo", &common);

    gl_sampler s;
    gl_sampler_init(&s, &common);
    gl_sampler_set_flush(&s, count_flush, &flushes);
    gl_sampler_series(&s, "time", "ms", 3, GL_SHOW_MIN);
    gl_sampler_series(&s, "other", "us", 1, 0);
    counter c = {0, 0, 0, &flushes};
    gl_row *row = gl_report_row(&r, "t", "no bytes");
    int reps = gl_sampler_run(&s, row, counting, &c);
    const gl_value *time = gl_row_find(row, "time"), *other = gl_row_find(row, "other");
    test_cond("warm-up plus repeats calls", c.calls == 7 && c.timed_calls == 4 && reps == 4);
    test_cond("only timed samples become statistics", time && time->stats.n == 4 && time->stats.min == 4 &&
                                                          time->stats.max == 7 && time->stats.median == 5.5);
    test_cond("every declared series becomes a value with its unit and hint",
              other && other->stats.mean == 55 && strcmp(other->unit, "us") == 0 && time->flags == GL_SHOW_MIN &&
                  time->precision == 3);
    test_cond("no flush for a row that declares no bytes", flushes == 0);

    c.calls = c.timed_calls = 0;
    gl_row *bw = gl_report_row(&r, "t", "bytes");
    gl_row_work(bw, "time", 1e6, 0);
    gl_sampler_run(&s, bw, counting, &c);
    test_cond("a row that declares bytes flushes before every sample", flushes == 7 && s.flushes == 7);
    test_cond("the flush comes before the sample, not after", c.flushes_seen == 7);
    test_cond("a second run starts its series afresh", gl_row_find(bw, "time")->stats.min == 4);

    common.no_l2_flush = 1;
    gl_sampler off;
    gl_sampler_init(&off, &common);
    gl_sampler_set_flush(&off, count_flush, &flushes);
    gl_sampler_series(&off, "time", "ms", 3, 0);
    gl_sampler_series(&off, "other", "ms", 3, 0);
    c.calls = 0;
    flushes = 0;
    gl_sampler_run(&off, bw, counting, &c);
    test_cond("--no-l2-flush turns the flush off", flushes == 0);
    gl_sampler_free(&off);
    common.no_l2_flush = 0;

    common.profile = 1;
    gl_sampler prof;
    gl_sampler_init(&prof, &common);
    gl_sampler_series(&prof, "time", "ms", 3, 0);
    gl_sampler_series(&prof, "other", "ms", 3, 0);
    c.calls = c.timed_calls = 0;
    gl_row *p = gl_report_row(&r, "t", "profile");
    gl_sampler_run(&prof, p, counting, &c);
    test_cond("--profile runs once, without warm-up", c.calls == 1 && c.timed_calls == 1 &&
                                                          gl_row_find(p, "time")->stats.n == 1);
    gl_sampler_free(&prof);
    common.profile = 0;

    /* The steady rule: 4 repeats, 3 of them disturbed (noise far over 10%): 4 more, then the noise of all 8 is
     * still over, 4 more: 12 kept, the median that of the quiet ones. A quiet row takes its 4 and no more. */
    gl_sampler st;
    gl_sampler_init(&st, &common);
    gl_sampler_series(&st, "time", "ms", 3, 0);
    gl_sampler_steady(&st, "time", 0.10, 3);
    passing pa = {0, 3};
    gl_row *sr = gl_report_row(&r, "t", "steady");
    int taken = gl_sampler_run(&st, sr, disturbed_then_quiet, &pa);
    test_cond("a noisy row gets more runs, all kept, up to the most sets asked (12), its median the quiet runs'",
              taken == 12 && gl_row_find(sr, "time")->stats.n == 12 && gl_row_find(sr, "time")->stats.median == 1);
    pa.timed = 0, pa.disturbed = 0;
    gl_row *qr = gl_report_row(&r, "t", "quiet");
    taken = gl_sampler_run(&st, qr, disturbed_then_quiet, &pa);
    test_cond("... and a quiet row its repeats alone", taken == 4 && gl_row_find(qr, "time")->stats.n == 4);
    gl_sampler_free(&st);

    test_cond("a repetition that leaves out a declared series is a bug (exit 6)",
              exit_code_of(run_forgetting, (void *)forgets) == GL_EXIT_INTERNAL);
    test_cond("putting an undeclared series is a bug (exit 6)",
              exit_code_of(run_forgetting, (void *)undeclared) == GL_EXIT_INTERNAL);

    gl_sampler_free(&s);
    gl_report_free(&r);
    test_report();
}
