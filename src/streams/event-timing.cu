/* event-timing.cu - how accurate cudaEventElapsedTime is against the device's own spans.
 *
 * Question: how accurate is cudaEventElapsedTime around a region, against the region's span on the device, from 10 us to 100 ms?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * Most timing in CUDA code is a record before a region, a record after it and
 * cudaEventElapsedTime between them. What that interval holds besides the
 * region's kernels is the question: the events' own latency, and the host's
 * launch when the first event lands on an idle stream. The reference is the
 * region's span: its first kernel's first block start to its last kernel's
 * last block end, on the GPU's global timer (%globaltimer).
 *
 * Setup: a region of 4 kernels (one block of one warp each) in one stream,
 * of 10 us, 100 us, 1 ms, 10 ms and 100 ms in all (--quick: up to 1 ms),
 * each twice: "queued", the stream held by a 200 us kernel while the host
 * issues the region, so that only the device is timed; and "idle", the first
 * event on an idle stream, as in most samples, so that the host's issue time
 * is timed too. Reported: the event interval, the span, their difference and
 * ratio, and the scheduling model's two for the same run (hidden columns).
 *
 * Claims: the event interval is never shorter than the span, less 1 us
 * (cudaEventElapsedTime's resolution is "around 0.5 us", runtime API) and two
 * %globaltimer ticks: the two records bracket the region in stream order, and
 * both clocks are the GPU's global timer (ordering); every kernel of every
 * run ran its time and left its result (check).
 *
 * Run:   make run-event-timing
 *        make run-event-timing ARGS="--repeat 50"
 * Nsight Systems (make profile-event-timing): NVTX ranges "accuracy 10 us
 * queued" .. "accuracy 100000 us idle"; one stream, "stream 0", with the
 * 200 us "hold" kernel before each queued region. In a queued row the region's
 * kernels follow the hold kernel back to back; in an idle row the first one
 * waits for the host's launch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.cuh"

enum { REGION_KERNELS = 4 };                    /* kernels in a region */
static const double HOLD_US = 200;              /* holds a stream while the host issues a region */
static const double EVENT_RESOLUTION_NS = 1000; /* cudaEventElapsedTime: "around 0.5 us", doubled */
static const double REGION_US[] = {10, 100, 1000, 10000, 100000};
static const double QUICK_REGION_US = 1000;     /* --quick leaves out the longer regions */

/* ---- a region, timed twice ---------------------------------------------------------------- */

/* One region's program run by schedrun, and how its event intervals compared with its spans. */
typedef struct region_ctx {
    run_ctx x;                 /* the program and its runs (no edges: the bracket is the claim) */
    int first, last;           /* the region's first and last launch ops */
    int rec0, rec1;            /* the record ops around the region */
    long long runs, bracketed; /* runs, and those whose event interval covered the span */
    double worst_ns;           /* smallest event interval - span */
} region_ctx;

/* Names in an accuracy timeline: the holding kernel, then the region's. */
static void region_label(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    if (label == 0) gl_buf_puts(out, "hold");
    else gl_buf_printf(out, "region k%d", label - 1);
}

/* One run: the event interval, the span of the region, and the same two simulated. */
static void sample_accuracy(gl_sample *s, void *arg)
{
    region_ctx *c = (region_ctx *)arg;
    gl_sched_run *r = &c->x.run;
    const gl_sched_program *p = r->prog;
    gl_sched_run_once(r);
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, r->event[p->ops[c->rec0].event], r->event[p->ops[c->rec1].event]));
    double start = INFINITY, end = -INFINITY, model_start = INFINITY, model_end = -INFINITY;
    int missing = 0;
    for (int i = c->first; i <= c->last; i++) {
        const gl_interval *k = gl_sched_run_kernel(r, i), *m = gl_sched_run_model_kernel(r, i);
        if (!k || !m) {
            missing = 1;
            continue;
        }
        start = fmin(start, k->start_ns);
        end = fmax(end, k->end_ns);
        model_start = fmin(model_start, m->start_ns);
        model_end = fmax(model_end, m->end_ns);
    }
    double event_ns = ms * 1e6, span_ns = missing ? NAN : end - start; /* a lost kernel fails the bracket */
    c->runs++;
    if (event_ns >= span_ns - EVENT_RESOLUTION_NS - c->x.L->slack_ns) c->bracketed++;
    if (isfinite(span_ns)) c->worst_ns = fmin(c->worst_ns, event_ns - span_ns);
    gl_sample_put(s, "event_time", event_ns / 1e3);
    gl_sample_put(s, "span_time", span_ns / 1e3);
    gl_sample_put(s, "difference", (event_ns - span_ns) / 1e3);
    gl_sample_put(s, "ratio", event_ns / span_ns);
    gl_sample_put(s, "model_event_time", (p->ops[c->rec1].end_ns - p->ops[c->rec0].end_ns) / 1e3);
    gl_sample_put(s, "model_span_time", (model_end - model_start) / 1e3);
}

/* Each region length, queued behind a holding kernel and on an idle stream. */
static void accuracy_part(events_lab *L)
{
    for (int i = 0; i < GL_ARRAY_LEN(REGION_US); i++) {
        if (L->common->quick && REGION_US[i] > QUICK_REGION_US) continue;
        for (int held = 1; held >= 0; held--) {
            gl_sched_program p;
            gl_sched_program_init(&p);
            int st;
            new_streams(&p, &st, 1);
            if (held) launch(&L->one, &p, st, 0, 0, HOLD_US * 1e3);
            int e0 = gl_sched_event_new(&p), e1 = gl_sched_event_new(&p);
            int rec0 = gl_sched_record(&p, 0, st, e0), first = p.n_ops;
            for (int k = 0; k < REGION_KERNELS; k++)
                launch(&L->one, &p, st, 0, 1 + k, REGION_US[i] * 1e3 / REGION_KERNELS);
            int last = p.n_ops - 1, rec1 = gl_sched_record(&p, 0, st, e1);
            region_ctx c;
            memset(&c, 0, sizeof c);
            run_open(&c.x, L, &p, 1);
            c.rec0 = rec0;
            c.rec1 = rec1;
            c.first = first;
            c.last = last;
            c.worst_ns = INFINITY;

            char variant[64];
            snprintf(variant, sizeof variant, "%g us %s", REGION_US[i], held ? "queued" : "idle");
            gl_row *row = gl_report_row(&L->S.rep, "accuracy", variant);
            gl_row_param_num(row, "region_us", "", -1, REGION_US[i]);
            gl_row_param_num(row, "kernels", "", 0, REGION_KERNELS);
            gl_row_param(row, "stream", "%s", held ? "held by a 200 us kernel" : "idle");
            gl_sampler smp;
            gl_device_sampler(&smp, &L->S.dev, L->common);
            gl_sampler_series(&smp, "event_time", "us", 3, GL_SHOW_NOISE);
            gl_sampler_series(&smp, "span_time", "us", 3, 0);
            gl_sampler_series(&smp, "difference", "us", 3, GL_SHOW_MIN);
            gl_sampler_series(&smp, "ratio", "", 4, 0);
            gl_sampler_series(&smp, "model_event_time", "us", 3, GL_HIDE);
            gl_sampler_series(&smp, "model_span_time", "us", 3, GL_HIDE);
            char range[80];
            snprintf(range, sizeof range, "accuracy %s", variant);
            sample_row(&smp, row, sample_accuracy, &c, range);

            check_complete(L, row, &c.x, range);
            char text[192], what[128];
            snprintf(text, sizeof text,
                     "%s: cudaEventElapsedTime is never shorter than the region's span, less %.2f us of resolution",
                     range, (EVENT_RESOLUTION_NS + L->slack_ns) / 1e3);
            snprintf(what, sizeof what, "runs (smallest event - span %.3f us)", c.worst_ns / 1e3);
            gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, c.bracketed, c.runs, what, "no runs");
            gl_names names = {NULL, region_label, NULL, "stream %d", NULL, NULL, REGION_KERNELS + 1};
            run_close(L, &c.x, range, &names, &smp, NULL, &p);
        }
    }
}


/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "event-timing",
        "how accurate is cudaEventElapsedTime around a region, against the region's span on the device, from 10 us "
        "to 100 ms?",
        "Regions of 4 kernels in one stream, queued behind a 200 us kernel or on an idle stream; each row gives the\n"
        "event interval beside the region's span (%globaltimer). Claimed: the events bracket the span, less 1 us of\n"
        "resolution and two timer ticks."};
    gl_common common;
    events_lab L;
    events_lab_start(&L, &exp, NULL, 0, &common, NULL, argc, argv);
    double longest_us = common.quick ? QUICK_REGION_US : REGION_US[GL_ARRAY_LEN(REGION_US) - 1];
    printf("setup: regions of %d kernels, 1 block x %d threads each, of %g us to %g us, queued behind a %g us kernel "
           "and on an idle stream; C=%d connections\n",
           REGION_KERNELS, THREADS, REGION_US[0], longest_us, HOLD_US, L.S.machine.connections);
    accuracy_part(&L);
    return gl_sched_lab_close(&L.S, &common);
}
