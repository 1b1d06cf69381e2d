/* model.cu - the scheduling model's machine, measured on the GPU in this run.
 *
 * The simulator (gl_sched.h) takes no number on faith: the queues, the
 * resident grids and the SMs come from the device, and the costs below are
 * timed here, once per run, with the work kernel the experiments launch, in
 * the experiment's block shape and kernel duration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_connections.h"
#include "gl_device.h"
#include "gl_errors.h"
#include "gl_model.h"
#include "gl_output.h"
#include "gl_spans.h"

enum { ROUNDS = 5, CHAIN_MAX = 40, SINGLES = 20 };

/* Issue cost and dispatch gap: a chain of kernels of the experiment's length
 * in one stream, queued faster than they run, so that each one waits for the
 * one before. The first kernel of a round started from an idle queue, and is
 * left out of the gaps. */
static void time_chain(cudaStream_t s, gl_spans *spans, unsigned long long *d_sink, int threads, double us,
                       int chain, double *issue, double *gaps, double *overrun, int *n_gaps)
{
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    double *h = (double *)gl_xcalloc((size_t)chain, sizeof(double));
    *n_gaps = 0;
    for (int r = 0; r < ROUNDS + 1; r++) { /* round 0 warms up */
        gl_spans_reset(spans);
        for (int k = 0; k < chain; k++) {
            gl_work_launch(s, 1, threads, us, spans->dev, gl_spans_reserve(spans, 1), 0, 0, d_sink);
            h[k] = gl_host_ns();
        }
        gl_stream_wait(s, 60, "the model's calibration chain");
        gl_spans_timeline(spans, &tl);
        if (r == 0) continue;
        issue[r - 1] = (h[chain - 1] - h[0]) / (chain - 1);
        for (int k = 2; k < chain; k++) {
            int a = gl_timeline_find(&tl, k - 1), b = gl_timeline_find(&tl, k);
            if (a < 0 || b < 0) continue;
            overrun[*n_gaps] = tl.k[b].end_ns - tl.k[b].start_ns - us * 1e3;
            gaps[(*n_gaps)++] = tl.k[b].start_ns - tl.k[a].end_ns;
        }
    }
    free(h);
    gl_timeline_free(&tl);
}

/* Block dispatch: a grid as large as the GPU holds at once, in the
 * experiment's block shape, lasts longer than one block by the time the work
 * distributor takes to hand the others out. Returns ns per block. */
static double time_blocks(cudaStream_t s, gl_spans *spans, unsigned long long *d_sink, int threads, int full)
{
    double per_block[ROUNDS];
    for (int r = 0; r < ROUNDS + 1; r++) {
        double dur[2];
        for (int big = 0; big < 2; big++) {
            gl_spans_reset(spans);
            gl_work_launch(s, big ? full : 1, threads, 20, spans->dev, gl_spans_reserve(spans, 1), 0, 0, d_sink);
            gl_stream_wait(s, 60, "the model's calibration grid");
            gl_spans_fetch(spans);
            dur[big] = (double)(gl_span_end(&spans->h_spans[0]) - spans->h_spans[0].start_ns);
        }
        if (r > 0) per_block[r - 1] = (dur[1] - dur[0]) / (full - 1);
    }
    return gl_stats_of(per_block, ROUNDS).median;
}

/* Queue time per entry: C+1 streams of two kernels each, depth-first, from
 * idle queues. The first C streams take a queue each; stream C shares stream
 * 0's queue (gl_sched.h, "Queues"), behind stream 0's second kernel, which
 * waits for its first. When that one goes, stream C's first kernel is next:
 * the difference of their starts is the queue's time per entry. That holds
 * only if stream C's kernel was queued before stream 0's second one left:
 * otherwise the difference is the host's delay, not the queue's (a host that
 * took 31 us a launch once gave 304 us "per entry", and every prediction with
 * queued work went long by that much a step). So the kernels last four times
 * what the host takes to issue all of them (issue_ns a launch, from the
 * chain), and a round counts only if the host had issued stream C's kernel
 * within half a kernel of its first launch, while stream 0's first kernel
 * still ran; lateness only adds, so the smallest kept difference is taken. */
enum { QUEUE_BROKEN = -1, QUEUE_HOST_LATE = -2, QUEUE_HOST_SLOW = -3 };
static double time_queue_entry(gl_spans *spans, unsigned long long *d_sink, int threads, int C, double issue_ns)
{
    double us = fmax(200 + 10.0 * C, 4.0 * 2 * (C + 1) * issue_ns / 1e3);
    if (us > 20000) return QUEUE_HOST_SLOW; /* (serialized launches, under a sanitizer): too slow to probe */
    double kept = INFINITY;
    int broken = 0; /* rounds where stream C's kernel did not wait at all: the queue rule did not hold */
    cudaStream_t *st = (cudaStream_t *)gl_xcalloc((size_t)C + 1, sizeof(cudaStream_t));
    for (int i = 0; i <= C; i++) CUDA_CHECK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    for (int r = 0; r < ROUNDS + 1; r++) {
        CUDA_CHECK(cudaDeviceSynchronize());
        gl_spans_reset(spans);
        double h0 = gl_host_ns(), hb = h0;
        for (int i = 0; i <= C; i++)
            for (int k = 0; k < 2; k++) {
                gl_work_launch(st[i], 1, threads, us, spans->dev, gl_spans_reserve(spans, 1), k, i, d_sink);
                if (i == C && k == 0) hb = gl_host_ns(); /* stream C's first kernel is queued */
            }
        CUDA_CHECK(cudaDeviceSynchronize());
        gl_spans_timeline(spans, &tl);
        int a = gl_timeline_find(&tl, 1), b = gl_timeline_find(&tl, 2 * C);
        if (r == 0) continue;
        double d = a >= 0 && b >= 0 ? tl.k[b].start_ns - tl.k[a].start_ns : -1;
        if (d < 0) broken++;
        else if (hb - h0 < us * 1e3 / 2) kept = fmin(kept, d);
    }
    for (int i = 0; i <= C; i++) CUDA_CHECK(cudaStreamDestroy(st[i]));
    free(st);
    gl_timeline_free(&tl);
    return broken ? (double)QUEUE_BROKEN : isinf(kept) ? (double)QUEUE_HOST_LATE : kept;
}

/* Dispatch latency against chains in progress: n chains at once, one stream
 * (and so one queue) each, for n = 1, 2, 4, ... C; the median gap between a
 * kernel's end and the next one's start in its chain, for each n, filled in
 * between by straight lines. 100 us kernels keep it short; the caller
 * anchors the curve on the gap of the experiment's own kernels. */
static void time_busy_queues(gl_spans *spans, unsigned long long *d_sink, int threads, gl_sched_machine *m)
{
    enum { LEN = 16, REPS = 3 };
    int C = m->connections;
    cudaStream_t *st = (cudaStream_t *)gl_xcalloc((size_t)C, sizeof(cudaStream_t));
    for (int i = 0; i < C; i++) CUDA_CHECK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    double *gaps = (double *)gl_xcalloc((size_t)C * LEN * REPS, sizeof(double));
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    int prev = 0;
    for (int n = 1; n <= C; n = n * 2 > C && n < C ? C : n * 2) {
        int m_gaps = 0;
        for (int r = 0; r < REPS + 1; r++) {
            CUDA_CHECK(cudaDeviceSynchronize());
            gl_spans_reset(spans);
            for (int i = 0; i < n; i++)
                for (int k = 0; k < LEN; k++)
                    gl_work_launch(st[i], 1, threads, 100, spans->dev, gl_spans_reserve(spans, 1), k, i, d_sink);
            CUDA_CHECK(cudaDeviceSynchronize());
            gl_spans_timeline(spans, &tl);
            for (int i = 0; i < n && r > 0; i++)
                for (int k = 2; k < LEN; k++) {
                    int a = gl_timeline_find(&tl, i * LEN + k - 1), b = gl_timeline_find(&tl, i * LEN + k);
                    if (a >= 0 && b >= 0) gaps[m_gaps++] = tl.k[b].start_ns - tl.k[a].end_ns;
                }
        }
        m->dispatch_busy_ns[n] = fmax(0, gl_stats_of(gaps, m_gaps).median);
        for (int j = prev + 1; j < n && prev > 0; j++) /* straight line from prev to n */
            m->dispatch_busy_ns[j] = m->dispatch_busy_ns[prev] +
                                     (m->dispatch_busy_ns[n] - m->dispatch_busy_ns[prev]) * (j - prev) / (n - prev);
        prev = n;
        if (n == C) break;
    }
    for (int i = 0; i < C; i++) CUDA_CHECK(cudaStreamDestroy(st[i]));
    free(st);
    free(gaps);
    gl_timeline_free(&tl);
}

void gl_sched_calibrate(gl_device *dev, gl_report *rep, int threads, double kernel_us, gl_sched_machine *m,
                        gl_sched_calibration *cal)
{
    memset(cal, 0, sizeof *cal);
    *m = gl_sched_machine_default();
    /* GRIDLAB_QUEUE_RULE picks another queue rule (gl_sched.h, "Queues"), to
     * see what the measured timeline says about each; checked at parse time. */
    char err[160];
    m->queue_rule = gl_sched_queue_rule_env(m->queue_rule, err, sizeof err);
    if (m->queue_rule < 0) gl_die(GL_EXIT_USAGE, "%s", err);
    m->connections = dev->max_connections;
    m->resident_grids = dev->max_resident_grids;
    m->sms = dev->sms;

    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned long long *d_sink;
    CUDA_CHECK(cudaMalloc((void **)&d_sink, sizeof *d_sink));
    gl_spans spans;
    gl_spans_create(&spans, 16 * GL_CONNECTIONS_MAX + CHAIN_MAX, 0, 0);

    /* Kernels of the experiment's length, as many as fit in about 20 ms a round. */
    double us = fmin(fmax(kernel_us, 20), 5000);
    int chain = (int)fmin(CHAIN_MAX, fmax(8, 20000 / us));
    double issue[ROUNDS], gaps[ROUNDS * CHAIN_MAX], overrun[ROUNDS * CHAIN_MAX], latency[SINGLES];
    int n_gaps;
    time_chain(s, &spans, d_sink, threads, us, chain, issue, gaps, overrun, &n_gaps);

    double entry = time_queue_entry(&spans, d_sink, threads, m->connections, gl_stats_of(issue, ROUNDS).median);
    if (entry == QUEUE_BROKEN)
        fprintf(stderr, "warning: the queue probe's last stream did not wait behind the first one's kernel (the queue "
                        "rule did not hold); the model takes no time per queue entry\n");
    else if (entry == QUEUE_HOST_LATE)
        fprintf(stderr, "warning: the host was late in every round of the queue probe (it had not queued the last "
                        "stream's kernel while the first stream's ran); the model takes no time per queue entry\n");
    else if (entry == QUEUE_HOST_SLOW)
        fprintf(stderr, "warning: launches take %.0f us here (a tool that serializes them?), too slow to probe the "
                        "queue; the model takes no time per queue entry\n",
                gl_stats_of(issue, ROUNDS).median / 1e3);
    m->queue_entry_ns = fmax(0, entry);
    time_busy_queues(&spans, d_sink, threads, m);
    int full = gl_work_blocks_per_sm(threads) * dev->sms;
    double per_block = full > 1 ? time_blocks(s, &spans, d_sink, threads, full) : 0;

    /* Launch latency: from the launch call's return to the kernel's first
     * block, on an idle queue, through the host-to-GPU clock alignment. */
    int n_lat = 0;
    for (int i = 0; i < SINGLES && dev->clock.valid; i++) {
        gl_spans_reset(&spans);
        gl_work_launch(s, 1, threads, 5, spans.dev, gl_spans_reserve(&spans, 1), 0, 0, d_sink);
        double h = gl_host_ns();
        gl_stream_wait(s, 60, "the model's calibration launch");
        gl_spans_fetch(&spans);
        latency[n_lat++] = (double)spans.h_spans[0].start_ns - (h + dev->clock.offset_ns);
    }
    cal->issue_ns = gl_stats_of(issue, ROUNDS);
    cal->dispatch_ns = gl_stats_of(gaps, n_gaps);
    cal->latency_ns = gl_stats_of(latency, n_lat);
    cal->block_ns = gl_stats_of(&per_block, 1);
    cal->overrun_ns = gl_stats_of(overrun, n_gaps);
    m->block_overrun_ns = fmax(0, cal->overrun_ns.median);
    m->issue_ns = cal->issue_ns.median;
    m->dispatch_ns = fmax(0, cal->dispatch_ns.median);
    m->launch_latency_ns = fmax(0, n_lat ? cal->latency_ns.median : 0);
    m->block_dispatch_ns = fmax(0, per_block);
    /* The busy-queue curve was timed with 100 us kernels; anchor it on the
     * gap measured with this experiment's own kernels, and keep its rise. */
    double rise0 = m->dispatch_busy_ns[1];
    for (int n = 1; n <= m->connections; n++)
        m->dispatch_busy_ns[n] = fmax(0, m->dispatch_ns + m->dispatch_busy_ns[n] - rise0);

    printf("model: C=%d queues, %d resident grids, %d SMs | issue %.2f us/launch, dispatch gap %.2f us (%g us "
           "kernels; %.2f us with all %d queues busy), %.2f us per queue entry, %.2f ns per block (%d threads), "
           "overrun %.2f us, launch latency %.1f us (+/-%.1f) | measured now\n",
           m->connections, m->resident_grids, m->sms, m->issue_ns / 1e3, m->dispatch_ns / 1e3, us,
           m->dispatch_busy_ns[m->connections] / 1e3, m->connections, m->queue_entry_ns / 1e3, m->block_dispatch_ns,
           threads, m->block_overrun_ns / 1e3, m->launch_latency_ns / 1e3, dev->clock.uncertainty_ns / 1e3);
    if (rep) {
        gl_report_device(rep, "model_issue_us", "%.3f", m->issue_ns / 1e3);
        gl_report_device(rep, "model_dispatch_us", "%.3f", m->dispatch_ns / 1e3);
        gl_report_device(rep, "model_queue_entry_us", "%.3f", m->queue_entry_ns / 1e3);
        gl_buf busy = GL_BUF_INIT;
        for (int n = 1; n <= m->connections; n++) gl_buf_printf(&busy, "%s%.3f", n > 1 ? " " : "", m->dispatch_busy_ns[n] / 1e3);
        gl_report_device(rep, "model_dispatch_busy_us", "%s", gl_buf_str(&busy));
        gl_buf_free(&busy);
        gl_report_device(rep, "model_block_dispatch_ns", "%.3f", m->block_dispatch_ns);
        gl_report_device(rep, "model_block_overrun_us", "%.3f", m->block_overrun_ns / 1e3);
        gl_report_device(rep, "model_launch_latency_us", "%.3f", m->launch_latency_ns / 1e3);
    }
    gl_spans_destroy(&spans);
    CUDA_CHECK(cudaFree(d_sink));
    CUDA_CHECK(cudaStreamDestroy(s));
}

void gl_sched_lab_open(gl_sched_lab *S, const char *name, const gl_common *common)
{
    memset(S, 0, sizeof *S);
    gl_report_init(&S->rep, name, common);
    gl_device_open(&S->dev, common, &S->rep);
    gl_trace_init(&S->trace);
}

void gl_sched_lab_calibrate(gl_sched_lab *S, int threads, double kernel_us)
{
    gl_sched_calibrate(&S->dev, &S->rep, threads, kernel_us, &S->machine, &S->cal);
}

int gl_sched_lab_close(gl_sched_lab *S, const gl_common *common)
{
    gl_trace_finish(&S->trace, common, &S->rep);
    gl_device_close(&S->dev);
    return gl_report_finish(&S->rep);
}
