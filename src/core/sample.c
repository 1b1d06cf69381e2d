/* sample.c - warm-up, repeats and named series, turned into a row's statistics. */
#include "gl_sample.h"
#include "gl_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gl_sampler_init(gl_sampler *s, const gl_common *common)
{
    memset(s, 0, sizeof *s);
    s->warmup = common->profile ? 0 : common->warmup;
    s->repeat = common->profile ? 1 : common->repeat;
    s->flush_enabled = !common->no_l2_flush;
}

void gl_sampler_free(gl_sampler *s)
{
    for (int i = 0; i < s->n_series; i++) {
        free(s->series[i].name);
        free(s->series[i].unit);
        free(s->series[i].x);
    }
    free(s->series);
    memset(s, 0, sizeof *s);
}

void gl_sampler_set_flush(gl_sampler *s, void (*flush)(void *), void *ctx)
{
    s->flush = flush;
    s->flush_ctx = ctx;
}

static gl_series *find_series(gl_sampler *s, const char *name)
{
    for (int i = 0; i < s->n_series; i++)
        if (strcmp(s->series[i].name, name) == 0) return &s->series[i];
    return NULL;
}

void gl_sampler_series(gl_sampler *s, const char *name, const char *unit, int precision, unsigned flags)
{
    if (find_series(s, name)) gl_die(GL_EXIT_INTERNAL, "sample series '%s' declared twice", name);
    gl_grow((void **)&s->series, &s->cap_series, s->n_series + 1, sizeof(gl_series));
    gl_series *x = &s->series[s->n_series++];
    memset(x, 0, sizeof *x);
    x->name = gl_xstrdup(name);
    x->unit = gl_xstrdup(unit);
    x->precision = precision;
    x->flags = flags;
}

void gl_sample_put(gl_sample *smp, const char *name, double value)
{
    gl_series *x = find_series(smp->sampler, name);
    if (!x) gl_die(GL_EXIT_INTERNAL, "sample '%s' was not declared with gl_sampler_series", name);
    if (!smp->timed) return;
    if (x->n != smp->rep) gl_die(GL_EXIT_INTERNAL, "sample '%s' put twice, or skipped, in repetition %d", name, smp->rep);
    x->x[x->n++] = value;
}

void gl_sampler_plan(const gl_sampler *s, int configurations)
{
    gl_progress_begin((double)configurations * (s->warmup + s->repeat), 0, "timing");
}

/* The configuration as the progress line names it: the variant, then each parameter as name=value. */
static void describe(const gl_row *row, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s", row->variant);
    for (int i = 0; i < row->n_values && len < n; i++) {
        const gl_value *v = &row->values[i];
        if (!v->is_param) continue;
        if (v->type == GL_VALUE_TEXT)
            len += (size_t)snprintf(buf + len, n - len, " %s=%s", v->name, v->text);
        else if (v->type == GL_VALUE_NUMBER && v->precision >= 0)
            len += (size_t)snprintf(buf + len, n - len, " %s=%.*f%s", v->name, v->precision, v->number, v->unit);
        else if (v->type == GL_VALUE_NUMBER)
            len += (size_t)snprintf(buf + len, n - len, " %s=%g%s", v->name, v->number, v->unit);
    }
}

void gl_sampler_steady(gl_sampler *s, const char *series, double max_rsd, int max_rounds)
{
    s->steady_series = series;
    s->steady_rsd = max_rsd;
    s->steady_rounds = max_rounds > 1 ? max_rounds : 1;
}

/* The steady series' relative standard deviation so far (0 without one, or with under 3 samples). */
static double steady_noise(gl_sampler *s)
{
    if (!s->steady_series) return 0;
    const gl_series *x = find_series(s, s->steady_series);
    if (!x) gl_die(GL_EXIT_INTERNAL, "gl_sampler_steady: series '%s' was not declared", s->steady_series);
    if (x->n < 3) return 0;
    return gl_stats_of(x->x, x->n).rsd;
}

int gl_sampler_run(gl_sampler *s, gl_row *row, gl_sample_fn fn, void *ctx)
{
    int rounds = s->steady_series ? s->steady_rounds : 1;
    for (int i = 0; i < s->n_series; i++) {
        free(s->series[i].x);
        s->series[i].x = (double *)gl_xcalloc((size_t)s->repeat * (size_t)rounds, sizeof(double));
        s->series[i].n = 0;
    }
    int flush = s->flush_enabled && s->flush && row->bytes > 0;
    char what[192] = "";
    if (gl_progress_enabled() || s->steady_series) describe(row, what, sizeof what);
    if (gl_progress_enabled()) gl_progress_at("%s", what);
    int runs = s->warmup + s->repeat, end = s->repeat;
    gl_progress_item("runs", 0, runs);
    for (int i = -s->warmup; i < end; i++) {
        gl_sample smp = {s, i, i >= 0};
        if (flush) {
            s->flush(s->flush_ctx);
            s->flushes++;
        }
        fn(&smp, ctx);
        for (int k = 0; k < s->n_series && smp.timed; k++)
            if (s->series[k].n != i + 1)
                gl_die(GL_EXIT_INTERNAL, "repetition %d did not put sample '%s'", i, s->series[k].name);
        gl_progress_item("runs", i + s->warmup + 1, runs);
        if (i < s->repeat) gl_progress_step(1); /* the plan counts the repeats; more runs only take longer */
        double noise;
        if (i + 1 == end && end < s->repeat * rounds && (noise = steady_noise(s)) > s->steady_rsd) {
            /* Too noisy to judge: more runs, all kept (nvbench's way: sample on until the noise settles). */
            gl_progress_clear();
            printf("note: %s: %s noise %.1f%% over %d runs (over %.0f%%): %d runs more\n", what, s->steady_series,
                   100 * noise, end, 100 * s->steady_rsd, s->repeat);
            end += s->repeat, runs += s->repeat;
        }
    }
    gl_progress_clear(); /* what the experiment prints next starts on a clean line */
    for (int k = 0; k < s->n_series; k++) {
        const gl_series *x = &s->series[k];
        gl_row_stats(row, x->name, x->unit, x->precision, x->flags, gl_stats_of(x->x, x->n));
    }
    return end;
}
