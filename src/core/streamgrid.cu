/* streamgrid.cu - S streams x K kernels, measured and simulated (gl_streamgrid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_nvtx.h"
#include "gl_streamgrid.h"

void gl_streamgrid_create(gl_streamgrid *g, const gl_sched_machine *m, double tick_ns)
{
    int launches = g->streams * g->kernels;
    g->machine = *m;
    g->tick_ns = tick_ns;
    g->per_sm = gl_work_blocks_per_sm(g->threads);
    if (g->per_sm < 1) gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", g->threads);
    g->stream = (cudaStream_t *)gl_xcalloc((size_t)g->streams, sizeof(cudaStream_t));
    for (int s = 0; s < g->streams; s++) {
        if (g->blocking)
            CUDA_CHECK(cudaStreamCreate(&g->stream[s]));
        else
            CUDA_CHECK(cudaStreamCreateWithFlags(&g->stream[s], cudaStreamNonBlocking));
        gl_nvtx_name_stream(g->stream[s], "stream %d", s);
    }
    CUDA_CHECK(cudaMalloc((void **)&g->d_sink, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(g->d_sink, 0, sizeof(unsigned long long)));
    long long records = (long long)launches * (1 + (g->per_block ? g->blocks : 0));
    if (records > 0x7FFFFFFFLL)
        gl_die(GL_EXIT_USAGE, "%lld span records (%d launches x %d blocks) are too many; use fewer blocks or kernels",
               records, launches, g->blocks);
    gl_spans_create(&g->spans, (unsigned)records, 0, g->per_block);
    g->slot = (unsigned int *)gl_xcalloc((size_t)launches, sizeof *g->slot);
    g->host_ns = (double *)gl_xcalloc((size_t)launches + 2, sizeof *g->host_ns);
    CUDA_CHECK(cudaEventCreate(&g->ev_start));
    CUDA_CHECK(cudaEventCreate(&g->ev_stop));
    gl_sched_program_init(&g->prog);
    memset(&g->tl, 0, sizeof g->tl);
    memset(&g->model_tl, 0, sizeof g->model_tl);
    g->shortest_us = INFINITY;
}

/* The run as a program: the same streams, calls and per-call host times. */
static void build_program(gl_streamgrid *g, double t0, int *ev_ops)
{
    gl_sched_program *p = &g->prog;
    gl_sched_program_free(p);
    gl_sched_program_init(p);
    int *s = (int *)gl_xcalloc((size_t)g->streams, sizeof(int));
    for (int i = 0; i < g->streams; i++)
        s[i] = gl_sched_stream_new(p, g->blocking ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int launches = g->streams * g->kernels, e0 = -1, e1 = -1;
    if (g->legacy_events) {
        int ev = gl_sched_event_new(p);
        e0 = gl_sched_record(p, 0, GL_SCHED_LEGACY, ev);
    }
    int first = p->n_ops;
    gl_sched_streams_by_kernels(p, s, g->streams, g->kernels, g->order, g->blocks, g->threads, g->per_sm,
                                g->kernel_us * 1e3);
    if (g->legacy_events) {
        int ev = gl_sched_event_new(p);
        e1 = gl_sched_record(p, 0, GL_SCHED_LEGACY, ev);
    }
    for (int i = 0; i < launches; i++) p->ops[first + i].id = (int)g->slot[i];
    /* Each call takes the time it took: the host clock after it minus after the one before. */
    for (int i = 0; i < p->n_ops; i++) p->ops[i].issue_ns = g->host_ns[i] - (i ? g->host_ns[i - 1] : t0);
    ev_ops[0] = e0;
    ev_ops[1] = e1;
    free(s);
}

void gl_streamgrid_run(gl_streamgrid *g)
{
    unsigned long long sink_before = 0, sink_after = 0;
    CUDA_CHECK(cudaMemcpy(&sink_before, g->d_sink, sizeof sink_before, cudaMemcpyDeviceToHost));
    gl_spans_reset(&g->spans);

    int launches = g->streams * g->kernels, call = 0;
    double t0 = g->t0_ns = gl_host_ns();
    if (g->legacy_events) {
        CUDA_CHECK(cudaEventRecord(g->ev_start, cudaStreamLegacy));
        g->host_ns[call++] = gl_host_ns();
    }
    for (int n = 0; n < launches; n++) {
        int s, k;
        gl_sched_issue_order(g->order, g->streams, g->kernels, n, &s, &k);
        g->slot[n] = gl_spans_reserve(&g->spans, g->blocks);
        gl_work_launch(g->stream[s], g->blocks, g->threads, g->kernel_us, g->spans.dev, g->slot[n], k, s, g->d_sink);
        g->host_ns[call++] = gl_host_ns();
    }
    if (g->legacy_events) {
        CUDA_CHECK(cudaEventRecord(g->ev_stop, cudaStreamLegacy));
        g->host_ns[call++] = gl_host_ns();
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    if (g->legacy_events) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, g->ev_start, g->ev_stop));
        g->event_ms = ms;
    }
    CUDA_CHECK(cudaMemcpy(&sink_after, g->d_sink, sizeof sink_after, cudaMemcpyDeviceToHost));
    g->n_spans = gl_spans_timeline(&g->spans, &g->tl);

    double shortest = INFINITY;
    for (int i = 0; i < g->tl.n; i++) shortest = fmin(shortest, (g->tl.k[i].end_ns - g->tl.k[i].start_ns) / 1e3);
    g->shortest_us = fmin(g->shortest_us, shortest);
    g->runs++;
    g->runs_complete += g->tl.n == launches && shortest >= g->kernel_us - g->tick_ns / 1e3 &&
                        sink_after - sink_before >= (unsigned long long)launches * g->blocks;

    int ev_ops[2];
    build_program(g, t0, ev_ops);
    char err[160];
    if (gl_sched_simulate(&g->prog, &g->machine, &g->sim, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "the scheduling model refused this run: %s", err);
    gl_sched_timeline(&g->prog, &g->model_tl);
    g->errors = gl_sched_compare(&g->tl, &g->model_tl);
    if (g->legacy_events) g->model_event_ms = (g->prog.ops[ev_ops[1]].end_ns - g->prog.ops[ev_ops[0]].end_ns) / 1e6;
}

void gl_streamgrid_series(gl_sampler *smp, int legacy_events)
{
    gl_sampler_series(smp, "model_makespan", "ms", 3, 0);
    gl_sampler_series(smp, "makespan", "ms", 3, GL_SHOW_MIN | GL_SHOW_NOISE);
    if (legacy_events) {
        gl_sampler_series(smp, "model_event_makespan", "ms", 3, 0);
        gl_sampler_series(smp, "event_makespan", "ms", 3, 0);
    }
    gl_sampler_series(smp, "model_peak", "kernels", 0, 0);
    gl_sampler_series(smp, "peak_concurrency", "kernels", 0, 0);
    gl_sampler_series(smp, "model_peak_instant", "kernels", 0, GL_HIDE);
    gl_sampler_series(smp, "peak_instant", "kernels", 0, GL_HIDE);
    gl_sampler_series(smp, "avg_concurrency", "kernels", 2, GL_HIDE);
    gl_sampler_series(smp, "issue_per_launch", "us", 2, 0);
    gl_sampler_series(smp, "start_error", "us", 2, 0);
    gl_sampler_series(smp, "start_error_p90", "us", 2, GL_HIDE);
    gl_sampler_series(smp, "start_error_max", "us", 2, GL_HIDE);
}

void gl_streamgrid_sample(gl_sample *smp, void *ctx)
{
    gl_streamgrid *g = (gl_streamgrid *)ctx;
    gl_streamgrid_run(g);
    int launches = g->streams * g->kernels;
    /* Kernels count as concurrent when they overlap for at least the dispatch
     * gap: a briefer overlap is one grid's last blocks ending while the next
     * grid's first blocks take their slots. The instants are kept too. */
    double lasting = g->machine.dispatch_ns;
    gl_sample_put(smp, "model_makespan", g->sim.makespan_ns / 1e6);
    gl_sample_put(smp, "makespan", g->tl.makespan_ns / 1e6);
    if (g->legacy_events) {
        gl_sample_put(smp, "model_event_makespan", g->model_event_ms);
        gl_sample_put(smp, "event_makespan", g->event_ms);
    }
    gl_sample_put(smp, "model_peak", gl_timeline_peak_lasting(&g->model_tl, gl_filter_all, NULL, lasting));
    gl_sample_put(smp, "peak_concurrency", gl_timeline_peak_lasting(&g->tl, gl_filter_all, NULL, lasting));
    gl_sample_put(smp, "model_peak_instant", g->sim.peak_concurrency);
    gl_sample_put(smp, "peak_instant", g->tl.peak_concurrency);
    gl_sample_put(smp, "avg_concurrency", g->tl.avg_concurrency);
    double issue_end = g->host_ns[(g->legacy_events ? 1 : 0) + launches - 1];
    gl_sample_put(smp, "issue_per_launch", (issue_end - g->t0_ns) / 1e3 / launches);
    gl_sample_put(smp, "start_error", g->errors.start_median_ns / 1e3);
    gl_sample_put(smp, "start_error_p90", g->errors.start_p90_ns / 1e3);
    gl_sample_put(smp, "start_error_max", g->errors.start_max_ns / 1e3);
}

void gl_streamgrid_claims(gl_streamgrid *g, gl_report *rep, gl_row *row, double tolerance)
{
    const char *order = gl_sched_order_name(g->order);
    gl_check(rep, row, g->runs_complete == g->runs,
             "order=%s S=%d: %d of %d runs recorded all %d kernels, each ran >= %g us (shortest %.3f us), and left its "
             "result",
             order, g->streams, g->runs_complete, g->runs, g->streams * g->kernels, g->kernel_us, g->shortest_us);
    gl_stats mk = gl_row_find(row, "makespan")->stats, model_mk = gl_row_find(row, "model_makespan")->stats;
    gl_stats peak = gl_row_find(row, "peak_concurrency")->stats, model_peak = gl_row_find(row, "model_peak")->stats;
    gl_stats err = gl_row_find(row, "start_error")->stats;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * (mk.median - model_mk.median) / model_mk.median);
    double slack = 2 * g->tick_ns / 1e6;
    char text[192];
    snprintf(text, sizeof text, "%s-first S=%d makespan matches the simulation", order, g->streams);
    gl_claim_near(rep, row, GL_CLAIM_TIMING, text, model_mk.median, mk.median, tolerance, slack, "ms");
    if (g->legacy_events) {
        gl_stats ev = gl_row_find(row, "event_makespan")->stats, model_ev = gl_row_find(row, "model_event_makespan")->stats;
        snprintf(text, sizeof text, "%s-first S=%d event-timed makespan (legacy-stream events) matches the simulation",
                 order, g->streams);
        gl_claim_near(rep, row, GL_CLAIM_TIMING, text, model_ev.median, ev.median, tolerance, slack, "ms");
    }
    snprintf(text, sizeof text, "%s-first S=%d peak concurrency is the simulation's %.0f kernels", order, g->streams,
             model_peak.median);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, lround(peak.median) == lround(model_peak.median), text,
                  "measured median over %d runs %.0f, range %.0f..%.0f; simulated range %.0f..%.0f", peak.n,
                  peak.median, peak.min, peak.max, model_peak.min, model_peak.max);
    snprintf(text, sizeof text, "%s-first S=%d kernels start where the simulation puts them (median error <= 5%% of T)",
             order, g->streams);
    gl_claim_at_most(rep, row, GL_CLAIM_TIMING, text, err.median, 0.05 * g->kernel_us, "us");
}

gl_row *gl_streamgrid_row(gl_streamgrid *g, gl_report *rep, const gl_common *common, gl_sampler *smp, gl_trace *trace,
                          const char *table, const char *variant, double tolerance)
{
    const gl_sched_machine *m = &g->machine;
    gl_row *row = gl_report_row(rep, table, variant);
    gl_row_param_num(row, "streams", "", 0, g->streams);
    gl_row_param_num(row, "kernels", "", 0, g->kernels);
    gl_row_param_num(row, "kernel_us", "", -1, g->kernel_us);
    gl_row_param_num(row, "blocks", "", 0, g->blocks);
    gl_row_param_num(row, "threads", "", 0, g->threads);
    gl_row_param_num(row, "connections", "", 0, m->connections);
    gl_row_param(row, "order", "%s", gl_sched_order_name(g->order));
    gl_row_param(row, "stream_kind", "%s", g->blocking ? "blocking" : "non-blocking");
    /* The textbook reads first, so a reader sees where it stops being right. */
    gl_sched_textbook_form tb = gl_sched_textbook(g->order, g->streams, g->kernels, g->kernel_us * 1e3, m->connections,
                                                  m->resident_grids);
    gl_row_param(row, "textbook", "%s", tb.formula);
    gl_row_number(row, "textbook_makespan", "ms", 3, 0, tb.makespan_ns / 1e6);
    gl_row_number(row, "textbook_peak", "kernels", 0, GL_HIDE, tb.peak);

    g->runs = g->runs_complete = 0;
    g->shortest_us = INFINITY;
    gl_nvtx_push("%s %s C=%d", table, variant, m->connections);
    gl_sampler_run(smp, row, gl_streamgrid_sample, g);
    gl_nvtx_pop();
    gl_streamgrid_claims(g, rep, row, tolerance);
    double mk = gl_row_find(row, "makespan")->stats.median;
    gl_row_number(row, "textbook_error", "%", 1, 0, 100 * (mk - tb.makespan_ns / 1e6) / (tb.makespan_ns / 1e6));

    gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, g->kernels};
    char title[128];
    snprintf(title, sizeof title, "%s %s C=%d (last run)", table, variant, m->connections);
    gl_show_run(trace, common, title, &g->tl, g->spans.h_spans, g->n_spans, &names);
    snprintf(title, sizeof title, "%s %s C=%d (model of the last run)", table, variant, m->connections);
    gl_show_run(trace, common, title, &g->model_tl, NULL, 0, &names);
    return row;
}

void gl_streamgrid_destroy(gl_streamgrid *g)
{
    gl_timeline_free(&g->tl);
    gl_timeline_free(&g->model_tl);
    gl_sched_program_free(&g->prog);
    gl_spans_destroy(&g->spans);
    CUDA_CHECK(cudaFree(g->d_sink));
    for (int s = 0; s < g->streams; s++) CUDA_CHECK(cudaStreamDestroy(g->stream[s]));
    CUDA_CHECK(cudaEventDestroy(g->ev_start));
    CUDA_CHECK(cudaEventDestroy(g->ev_stop));
    free(g->stream);
    free(g->slot);
    free(g->host_ns);
}
