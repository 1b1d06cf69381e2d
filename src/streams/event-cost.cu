/* event-cost.cu - what a cudaEventRecord and a cudaStreamWaitEvent cost the host and the device.
 *
 * Question: what does a record and a wait cost the host and the device, with and without timing?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * An event between two kernels is two calls on the host (cudaEventRecord in
 * the producer's stream, cudaStreamWaitEvent in the consumer's) and, on the
 * device, whatever the wait adds between the producer's end and the
 * consumer's start. Stream order alone already leaves a dispatch gap there:
 * the question is what an event adds to it, and what cudaEventDisableTiming
 * saves. No published number says what they must be, so they are reported,
 * not claimed.
 *
 * Setup: five chains of 32 kernels of 50 us (one block of one warp each, long
 * enough that the host stays ahead of the chain), each kernel after the one
 * before: in stream order (no event), through a record and a wait in the same
 * stream, and handed between two streams (ping-pong); the event chains with
 * timing (cudaEventDefault) and without (cudaEventDisableTiming).
 *
 * Measured: each kind of call's cost to the host (its host clock around it,
 * median over the chain), and the device's: the gap between a kernel's end
 * and the next one's start (median over the chain), beside the scheduling
 * model's gap for the same run (gl_schedrun.h), and added_gap, an event chain's
 * gap less the stream-order chain's.
 * Claims: in every event chain each kernel starts after the one its wait
 * names has ended, in every run, within two %globaltimer ticks (ordering);
 * every kernel of every run ran its time and left its result (check).
 *
 * Run:   make run-event-cost
 *        make run-event-cost ARGS="--connections 1,8"
 * Nsight Systems (make profile-event-cost): NVTX ranges "cost stream order",
 * "cost same stream", "cost same stream, timing", "cost cross stream" and
 * "cost cross stream, timing"; streams "stream 0" and "stream 1". In the
 * cross-stream chains the kernels alternate between the two rows, each
 * starting a gap after the other's end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.cuh"

enum { COST_CHAIN = 32 };                 /* kernels in a chain */
static const double COST_KERNEL_US = 50;  /* long enough that the host stays ahead of the chain */

/* ---- the chains ------------------------------------------------------------------------ */

/* A chain of COST_CHAIN kernels, each after the one before: in one stream by
 * stream order (events 0), through a record and a wait in the same stream,
 * or handed between two streams (cross 1). */
static void build_chain(events_lab *L, gl_sched_program *p, int events, int cross)
{
    int st[2];
    new_streams(p, st, cross ? 2 : 1);
    for (int k = 0; k < COST_CHAIN; k++) {
        int s = cross ? k % 2 : 0;
        if (k > 0 && events) {
            int prev = cross ? (k - 1) % 2 : 0, ev = gl_sched_event_new(p);
            gl_sched_record(p, 0, st[prev], ev);
            gl_sched_wait(p, 0, st[s], ev);
        }
        launch(&L->one, p, st[s], s, k, COST_KERNEL_US * 1e3);
    }
}

/* The median of x[0..n-1] (NAN for none). */
static double median_of(const double *x, int n) { return n ? gl_stats_of(x, n).median : NAN; }

/* One chain: the gaps between consecutive kernels (measured and simulated) and each kind of call's host time. */
static void sample_cost(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    const gl_sched_program *p = r->prog;
    gl_sched_run_once(r);
    check_edges(x);
    double *v = (double *)gl_xcalloc((size_t)p->n_ops * 5 + 5, sizeof(double));
    double *gap = v, *model_gap = v + p->n_ops, *host[3] = {v + 2 * p->n_ops, v + 3 * p->n_ops, v + 4 * p->n_ops};
    int n_gap = 0, n_host[3] = {0, 0, 0}, prev = -1;
    for (int i = 0; i < p->n_ops; i++) {
        int kind = p->ops[i].kind == GL_SCHED_LAUNCH ? 0 : p->ops[i].kind == GL_SCHED_RECORD ? 1 : 2;
        host[kind][n_host[kind]++] = r->return_ns[i] - r->call_ns[i];
        if (kind != 0) continue;
        if (prev >= 0) {
            const gl_interval *a = gl_sched_run_kernel(r, prev), *b = gl_sched_run_kernel(r, i);
            const gl_interval *ma = gl_sched_run_model_kernel(r, prev), *mb = gl_sched_run_model_kernel(r, i);
            if (a && b && ma && mb) {
                gap[n_gap] = b->start_ns - a->end_ns;
                model_gap[n_gap++] = mb->start_ns - ma->end_ns;
            }
        }
        prev = i;
    }
    gl_sample_put(s, "gap", median_of(gap, n_gap) / 1e3);
    gl_sample_put(s, "model_gap", median_of(model_gap, n_gap) / 1e3);
    gl_sample_put(s, "launch_host", median_of(host[0], n_host[0]) / 1e3);
    if (p->n_events > 0) {
        gl_sample_put(s, "record_host", median_of(host[1], n_host[1]) / 1e3);
        gl_sample_put(s, "wait_host", median_of(host[2], n_host[2]) / 1e3);
    }
    free(v);
}

/* The chains, with and without events and timing; each event row's added gap against stream order. */
static void cost_part(events_lab *L)
{
    static const struct {
        const char *variant; /* the row */
        int events, cross, timing;
    } chains[] = {
        {"stream order", 0, 0, 0},         {"same stream", 1, 0, 0},  {"same stream, timing", 1, 0, 1},
        {"cross stream", 1, 1, 0},         {"cross stream, timing", 1, 1, 1},
    };
    double baseline_gap = NAN;
    for (int c = 0; c < GL_ARRAY_LEN(chains); c++) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        build_chain(L, &p, chains[c].events, chains[c].cross);
        gl_sched_edge *edges = NULL;
        run_ctx x;
        run_open(&x, L, &p, chains[c].timing);
        x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
        x.edges = edges;

        gl_row *row = gl_report_row(&L->S.rep, "cost", chains[c].variant);
        gl_row_param(row, "events", "%s", chains[c].events ? "record+wait" : "none");
        gl_row_param(row, "timing", "%s", chains[c].events ? (chains[c].timing ? "on" : "off") : "-");
        gl_row_param_num(row, "streams", "", 0, chains[c].cross ? 2 : 1);
        gl_row_param_num(row, "kernels", "", 0, COST_CHAIN);
        gl_row_param_num(row, "kernel_us", "", -1, COST_KERNEL_US);
        gl_sampler smp;
        gl_device_sampler(&smp, &L->S.dev, L->common);
        gl_sampler_series(&smp, "launch_host", "us", 2, 0);
        if (chains[c].events) {
            gl_sampler_series(&smp, "record_host", "us", 2, GL_SHOW_MIN);
            gl_sampler_series(&smp, "wait_host", "us", 2, GL_SHOW_MIN);
        }
        gl_sampler_series(&smp, "gap", "us", 2, GL_SHOW_MIN | GL_SHOW_NOISE);
        gl_sampler_series(&smp, "model_gap", "us", 2, 0);
        char range[64];
        snprintf(range, sizeof range, "cost %s", chains[c].variant);
        sample_row(&smp, row, sample_cost, &x, range);
        double gap = gl_row_find(row, "gap")->stats.median;
        if (!chains[c].events) baseline_gap = gap;
        else if (isfinite(baseline_gap)) gl_row_number(row, "added_gap", "us", 2, 0, gap - baseline_gap);

        check_complete(L, row, &x, range);
        if (chains[c].events) {
            char text[160], what[128];
            snprintf(text, sizeof text, "%s: each kernel starts after the one its wait names has ended (in every run)",
                     range);
            snprintf(what, sizeof what, "edge checks (smallest margin %.3f us)", x.worst_margin_ns / 1e3);
            gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, x.held, x.checked, what, "no event edges");
        }
        gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, COST_CHAIN};
        run_close(L, &x, range, &names, &smp, edges, &p);
    }
}


/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "event-cost",
        "what does a record and a wait cost the host and the device, with and without timing?",
        "Five chains of 32 kernels of 50 us: in stream order, through a record and a wait in one stream, and across\n"
        "two streams, with and without timing. Reported: each call's host time, and the gap between kernels beside\n"
        "the scheduling simulation's (gl_sched.h); claimed: every event edge holds."};
    gl_common common;
    events_lab L;
    events_lab_start(&L, &exp, NULL, 0, &common, NULL, argc, argv);
    printf("setup: chains of %d kernels x T=%g us, 1 block x %d threads each; C=%d connections\n", COST_CHAIN,
           COST_KERNEL_US, THREADS, L.S.machine.connections);
    cost_part(&L);
    return gl_sched_lab_close(&L.S, &common);
}
