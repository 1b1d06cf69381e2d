/* replay.c - a program's Nsight Systems trace, replayed on the scheduling model at each CUDA_DEVICE_MAX_CONNECTIONS.
 *
 * Question: what would this recorded program's GPU span be at another connection count, as the model sees it?
 * Build: sqlite
 *
 * Reads an nsys SQLite export (import.h: one process, one GPU, every host thread's CUDA calls with their GPU work,
 * events, waits and synchronizations), makes it a model program (rp_program: each thread's calls in order with
 * their recorded host times, the recorded gaps between calls as host work, kernels and copies at their recorded
 * times) and simulates it with the core's model (gl_sched.h) at each C of --connections. The row at the recorded
 * setting (CUDA_DEVICE_MAX_CONNECTIONS in the recorded environment, else the driver's default, 8; or
 * --recorded-connections) also gives the recorded span, the replay's error there, and how far it put each kernel's
 * and copy's start from its recorded one (p95, % of the span); --infer-connections replays every C from 1 to 32,
 * each as if recorded there (its syncs' cost per connection as timed), and names the one that puts the starts
 * nearest. The span is the GPU's: from the first kernel, copy or memset
 * start to the last end.
 *
 * Issue 19, not finished: the dispatch gap and the launch latency are fitted to the trace (rp_fit), the time per
 * queue entry, a lazy load's and a synchronize's per connection are the H200's as gridlab measured them (0.26,
 * 2.3 us, 35 ns: each C's syncs return that much later a connection than the recorded C's); a kernel's time alone per
 * wave is fitted from what shared its SMs (rp_fit_kernels); host functions go in a stream the trace implies
 * (import.c, rp_place_hostfns) with their own time fitted (rp_fit_hostfns); graph launches are counted among the
 * calls kept as host time. Under lazy loading (the recorded environment's, or the default; --module-loading) a
 * launch right after a cuLibraryGetKernel lookup carries a load. --range NAME takes one NVTX range's calls. No GPU
 * is needed.
 *
 * Run:   build/bin/replay TRACE.sqlite [--connections 1,2,4,8,16,32] [--recorded-connections N] [--infer-connections]
 *        [--range NAME] [--module-loading lazy|eager] [--explain N]
 *        [--json FILE] [--trace FILE: the recording and the replay side by side, for Perfetto]
 *        make replay TRACE=TRACE.sqlite
 * Record: nsys profile -t cuda --cuda-event-trace=true --cuda-graph-trace=node -o run ./program; nsys export --type sqlite run.nsys-rep
 * GRIDLAB_REPLAY_DUMP=FILE writes each model operation at the recorded setting, recorded and replayed (kind, thread,
 * stream, direction, recorded start and end, call, submission, start, end, own time; us; then queue, leaving the
 * queue, event, blocks, priority, the op its call waits for): for finding where a
 * replay parts from its recording; GRIDLAB_REPLAY_DUMP_C=N writes setting N's simulation instead.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"
#include "gl_gpu_limits.h"
#include "gl_stats.h"
#include "gl_trace.h"
#include "views.h"
#include "fit.h"
#include "model.h"
#include "import.h"

static const int default_connections[] = {1, 2, 4, 8, 16, 32};

typedef struct args {
    const char *trace, *json, *perfetto; /* the export; --json; --trace */
    const char *range;                   /* --range: one NVTX range's calls (NULL: the whole trace) */
    const char *model, *export_model;    /* --model: a replay model (model.h) instead of a trace; --export-model */
    int connections[32], n_connections;
    int recorded; /* --recorded-connections (0: from the trace) */
    int loading;  /* --module-loading: 1 lazy, 0 eager, -1 from the trace */
    int infer;    /* --infer-connections */
    int explain;  /* --explain N: the N operations that waited longest (0: none) */
} args;

static void usage(FILE *f)
{
    fprintf(f, "usage: replay TRACE.sqlite [options]   or   replay --model MODEL.json [options]\n"
               "  replays an nsys SQLite export of one process on the scheduling model at each connection count\n"
               "  --connections LIST          CUDA_DEVICE_MAX_CONNECTIONS values to predict, 1..32 (default 1,2,4,8,16,32)\n"
               "  --recorded-connections N    the setting the trace was recorded at, for programs that set it themselves\n"
"  --module-loading lazy|eager the loading the trace was recorded under, for programs that set\n"
               "                              CUDA_MODULE_LOADING themselves (gridlab's experiments set EAGER)\n"
               "  --infer-connections         the setting (1..32) whose replay puts the operations nearest their recorded starts\n"
               "  --range NAME                replay only the calls made while the first NVTX range called NAME (or\n"
               "                              'NAME ...') was open, on any thread: one iteration of a loop, say\n"
               "  --explain N                 the N kernels and copies that waited longest in the recording, each with\n"
               "                              what held it, as the replay at the recorded setting finds it\n"
               "  --export-model FILE         write the replayable program (after its fits) as JSON: replay --model\n"
               "                              FILE replays it without the trace (src/replay/model.h)\n"
               "  --model FILE                replay such a file instead of a trace\n"
               "  --json FILE                 the table as JSON\n"
               "  --trace FILE                the recorded and the replayed timelines (recorded setting) for Perfetto:\n"
               "                              a track per stream, and the replay's a track per hardware queue too\n"
               "  --help                      this text\n"
               "exit codes: 0 ok, 2 usage error or a trace the replay cannot read\n");
}

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "replay: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, " (replay --help)\n");
    return GL_EXIT_USAGE;
}

/* A whole integer in [lo, hi] from s, or -1. */
static int whole(const char *s, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return (errno || end == s || *end || v < lo || v > hi) ? -1 : (int)v;
}

static int parse(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->loading = -1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            exit(0);
        }
        int takes = !strcmp(o, "--connections") || !strcmp(o, "--recorded-connections") || !strcmp(o, "--json") ||
                    !strcmp(o, "--trace") || !strcmp(o, "--explain") || !strcmp(o, "--range") ||
                    !strcmp(o, "--module-loading") || !strcmp(o, "--model") || !strcmp(o, "--export-model");
        if (takes && i + 1 >= argc) return usage_error("%s needs a value", o);
        if (!strcmp(o, "--connections")) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", argv[++i]);
            a->n_connections = 0;
            for (char *w = buf, *next; w; w = next) { /* comma-separated, none empty */
                next = strchr(w, ',');
                if (next) *next++ = 0;
                int c = whole(w, 1, 32);
                if (c < 0 || a->n_connections == 32) return usage_error("--connections: '%s' is not a list of 1..32", argv[i]);
                a->connections[a->n_connections++] = c;
            }
            if (a->n_connections == 0 || strstr(argv[i], ",,") || argv[i][strlen(argv[i]) - 1] == ',')
                return usage_error("--connections: '%s' is not a list of 1..32", argv[i]);
        } else if (!strcmp(o, "--recorded-connections")) {
            if ((a->recorded = whole(argv[++i], 1, 32)) < 0)
                return usage_error("--recorded-connections: '%s' is out of range; accepted: integer 1..32", argv[i]);
        } else if (!strcmp(o, "--explain")) {
            if ((a->explain = whole(argv[++i], 1, 1000000)) < 0)
                return usage_error("--explain: '%s' is out of range; accepted: integer 1..1000000", argv[i]);
        } else if (!strcmp(o, "--model")) {
            a->model = argv[++i];
        } else if (!strcmp(o, "--export-model")) {
            a->export_model = argv[++i];
        } else if (!strcmp(o, "--module-loading")) {
            const char *v = argv[++i];
            if (strcmp(v, "lazy") && strcmp(v, "eager"))
                return usage_error("--module-loading: '%s' is not one of lazy|eager", v);
            a->loading = !strcmp(v, "lazy");
        } else if (!strcmp(o, "--range")) {
            if (!*(a->range = argv[++i])) return usage_error("%s", "--range: give a range's name");
        } else if (!strcmp(o, "--infer-connections")) {
            a->infer = 1;
        } else if (!strcmp(o, "--json")) {
            a->json = argv[++i];
        } else if (!strcmp(o, "--trace")) {
            a->perfetto = argv[++i];
        } else if (o[0] == '-') {
            return usage_error("unknown option '%s'", o);
        } else if (a->trace) {
            return usage_error("unexpected argument '%s': one trace at a time", o);
        } else {
            a->trace = o;
        }
    }
    if (a->model && a->trace) return usage_error("%s", "give a trace or --model, not both");
    if (a->model && (a->range || a->loading >= 0 || a->export_model))
        return usage_error("%s", "--range, --module-loading and --export-model are for a trace, not a --model");
    if (a->model) a->trace = a->model;
    if (!a->trace) return usage_error("%s", "no trace given: replay TRACE.sqlite");
    if (a->n_connections == 0)
        for (int i = 0; i < 6; i++) a->connections[a->n_connections++] = default_connections[i];
    const char *outs[3] = {a->json, a->perfetto, a->export_model}, *opt[3] = {"--json", "--trace", "--export-model"};
    for (int k = 0; k < 3; k++) { /* writable, checked before the trace is read; a file made to check is removed */
        if (!outs[k]) continue;
        FILE *f = fopen(outs[k], "r");
        int existed = f != NULL;
        if (f) fclose(f);
        if (!(f = fopen(outs[k], "a"))) {
            char what[300];
            snprintf(what, sizeof what, "%s %s", opt[k], outs[k]);
            return usage_error("%s: cannot write there", what);
        }
        fclose(f);
        if (!existed) remove(outs[k]);
    }
    return 0;
}

/* The 95th percentile, over the operations with a recorded start (kernels and copies), of how far the simulation
 * put each start from its recorded one, as a share of the recorded span (%). Both are on one axis: the first
 * call's start is 0 in the trace and in the simulation. */
static double start_error_p95(const gl_sched_program *p, const double *rs, double span_ns)
{
    double *e = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    int n = 0;
    for (int i = 0; i < p->n_ops; i++)
        if (!isnan(rs[i])) e[n++] = fabs(p->ops[i].start_ns - rs[i]);
    double v = n > 0 ? 100 * gl_quantile(e, n, 0.95) / span_ns : NAN;
    free(e);
    return v;
}

static double fit_dispatch_ns = 1630, fit_latency_ns = 2600; /* the H200's, unless the trace shows its own */

/* What each connection adds to a synchronizing call (gl_sched.h "Host"): the median of the H200's 14 slopes in
 * issue-19-probes/probe-callcost (stream, device and event syncs, idle and after a kernel, three runs: 27-48 ns). */
static const double SYNC_CONNECTION_NS = 35;

/* The machine at setting C, for a program whose calls were timed at setting timed (the recording's, or the
 * setting --infer-connections supposes). */
static gl_sched_machine machine_for(const rp_trace *t, int C, int timed)
{
    gl_sched_machine m = gl_sched_machine_default();
    m.connections = C;
    m.sms = t->sms;
    m.resident_grids = gl_max_resident_grids(t->major, t->minor);
    if (m.resident_grids <= 0) m.resident_grids = 128;
    m.launch_latency_ns = fit_latency_ns, m.dispatch_ns = fit_dispatch_ns, m.queue_entry_ns = 260;
    for (int d = 0; d < 2; d++) /* the trace's, where it shows them (fit.h); else none, as before they were fitted */
        m.copy_after_kernel_ns[d] = t->copy_after_kernel_ns[d], m.kernel_after_copy_ns[d] = t->kernel_after_copy_ns[d];
    m.block_dispatch_ns = 0.1, m.block_overrun_ns = 100;
    for (int d = 0; d < GL_SCHED_DIRS; d++) m.copy_engines[d] = 1, m.copy_gbps[d] = 55;
    for (int d = 0; d < 2; d++) m.copy_bidir_gbps[d] = 55, m.pageable_gbps[d] = 10;
    /* With one queue copies keep issue order in either direction, small pinned H2D copies aside (gl_sched.h
     * "Engines", probe-h2d-order); the calibration's 4 KiB H2D goes beside, so it cannot tell this */
    m.copy_in_order[GL_SCHED_D2H] = m.copy_in_order[GL_SCHED_H2D] = C == 1;
    m.pageable_stage_bytes = RP_STAGED_BYTES, m.pageable_inline_bytes = RP_INLINE_BYTES;
    /* Pageable D2H calls one at a time (gl_sched.h "Staging"), but no room rule for staged H2D calls: a staged
     * call keeps its recorded time, which holds its wait for room already. The H2D copies the host waits for,
     * which take the whole staging, the import links one after another (staging_previous). */
    m.pageable_d2h_serial = 1, m.pageable_stage_slots = 0, m.pageable_d2h_handover_ns = 25000;
    m.copy_arrive_ns = t->copy_arrive_ns; /* the trace's (fit.h), else none */
    m.sync_return_ns = t->sync_return_ns; /* the trace's (fit.h), else none */
    m.sync_connection_ns = SYNC_CONNECTION_NS, m.timed_connections = timed;
    /* at the recorded setting a race between two kernels goes as it went there; at another, the GPU runs it again
     * and submission order decides (gl_sched.h "Heads") */
    m.ranked_races = C == timed;
    m.graph_dispatch_ns = t->graph_dispatch_ns; /* the trace's graphs' chaining (fit.h), else the dispatch gap */
    m.graph_copy_after_kernel_ns = t->graph_copy_after_kernel_ns;
    m.graph_kernel_after_copy_ns = t->graph_kernel_after_copy_ns;
    m.graph_restart_ns = t->graph_restart_ns; /* a conditional body's next iteration (fit.h), else none */
    m.pinned_beside_bytes = RP_BESIDE_BYTES; /* pinned H2D of 4-24 KiB ran beside a large one (gl_sched.h) */
    /* No SM room for D2D copies and memsets (gl_sched.h "SM copies"; sm_copy_share 0): a recorded one's time holds
     * its wait for that room already (under nsys a 16 KiB D2D beside a wide grid lasted 108 us, to just after the
     * grid's end), and taken so it would wait twice (session 8's recordings: seed 20261153's replay at its
     * recorded C=8 went from 1.7% to 3.2% off, its worst run 2.3% to 30.4%). A time alone from the trace's fastest
     * copies of each kind did not help (FINDINGS, session 11). */
    m.load_ns = 2300; /* a lazy load once what it waits for has ended (module-loading's calibration, H200) */
    /* A host function: the time per function, one at a time; its own time, waking the driver's thread included,
     * is fitted to the recording (rp_fit_hostfns). */
    m.hostfn_ns = m.hostfn_wake_ns = RP_HOSTFN_NS, m.hostfn_serial = 1;
    return m;
}

/* A --range of a few operations may show too few copies after kernels, or kernels after copies, to fit their gaps
 * (fit.h), but those gaps are the machine's and the tracer's, the whole process's: each one the range cannot fit
 * comes from the whole trace (read again; not where the range has no pinned H2D or D2H copy, which those gaps
 * concern). A kernel's gap after a copy is beyond the dispatch gap: the whole trace's less the range's is added
 * back (exact unless the whole trace's median was under its own dispatch gap, then 0 and this at most that
 * difference). The whole trace's pools go to t too, for the kinds neither shows enough of (rp_fit_pool). Returns
 * how many gaps it took; *read gets whether it read the whole trace. The dispatch gap and launch latency are not
 * taken so: the whole trace's latency, from gridlab's calibrations, read 0-0.7 us against the H200's 2.6 and put
 * copy-overlap's configurations 1.4-2.4% short (session 15, h200/session15/README.md); nor the return after a sync
 * (with both, and copies given a latency of their own, session 16's trial put the starts' p95 at 1.36% of the span
 * over session 15's recordings, 0.84% without); nor the copies' arrival (copy_arrive_ns, the range's own or none). */
static int gaps_from_whole(const args *a, rp_trace *t, rp_trace *whole, int *read)
{
    *read = 0;
    int need = 0, copies = 0, took = 0;
    for (int k = 0; k < 4; k++) need |= t->gap_n[k] < RP_GAP_MIN;
    for (int i = 0; i < t->n_calls; i++)
        copies |= t->calls[i].kind == RP_COPY && t->calls[i].dir < 2 && !t->calls[i].pageable;
    rp_trace own, *wp = whole;
    char err[512];
    if (!t->range[0] || !need || !copies) return 0;
    if (!wp) {
        if (rp_import_range(a->trace, NULL, a->loading, &own, err, sizeof err) != 0) return 0;
        wp = &own;
    }
    rp_trace w = *wp; /* its fields for rp_fit to write; the arrays stay the caller's (rp_fit writes none) */
    *read = 1;
    double dispatch = fit_dispatch_ns, latency = fit_latency_ns; /* the whole trace's, if it fits them */
    int ng, nl;
    rp_fit(&w, &dispatch, &ng, &latency, &nl);
    for (int q = 0; q < RP_POOLS; q++) /* for the kinds neither shows enough of (rp_fit_pool) */
        t->gap_pool_ns[RP_POOLS + q] = w.gap_pool_ns[q], t->gap_pool_n[RP_POOLS + q] = w.gap_pool_n[q];
    for (int d = 0; d < 2; d++) {
        if (t->gap_n[d] < RP_GAP_MIN && w.gap_n[d] >= RP_GAP_MIN)
            t->copy_after_kernel_ns[d] = w.copy_after_kernel_ns[d], t->gap_n[d] = w.gap_n[d], took++;
        if (t->gap_n[2 + d] < RP_GAP_MIN && w.gap_n[2 + d] >= RP_GAP_MIN)
            t->kernel_after_copy_ns[d] = fmax(0, w.kernel_after_copy_ns[d] + dispatch - fit_dispatch_ns),
            t->gap_n[2 + d] = w.gap_n[2 + d], took++;
    }
    if (!whole) rp_trace_free(&w);
    return took;
}

/* The staging time of a pageable H2D copy the host waits for, called into a busy stream (rp_stage_busy_h2d): the
 * median over such copies called into an idle stream, the range's, or where it shows fewer than RP_GAP_MIN the
 * whole trace's (read into *whole, *have_whole set: gaps_from_whole takes it too), if that shows more. Sets
 * *from to what it came from ("" where no copy needed it). A recording at C=1 also bounds each copy's by the order
 * of its engine's copies. */
static void staging_for_busy(const args *a, rp_trace *t, int recorded, rp_trace *whole, int *have_whole,
                             const char **from)
{
    int busy = 0;
    char err[512];
    for (int i = 0; i < t->n_calls; i++) busy += !isnan(t->calls[i].staged_from_ns);
    *have_whole = 0, *from = "";
    if (!busy) return;
    double ns = t->staging_ns;
    int n = t->staging_n;
    *from = t->range[0] ? "range's" : "trace's";
    if (t->range[0] && n < RP_GAP_MIN && rp_import_range(a->trace, NULL, a->loading, whole, err, sizeof err) == 0) {
        *have_whole = 1;
        if (whole->staging_n > n) ns = whole->staging_ns, n = whole->staging_n, *from = "whole trace's";
    }
    t->staging_ns = ns, t->staging_n = n;
    rp_stage_busy_h2d(t, ns, recorded == 1); /* the engine keeps its copies' order with one queue */
}

/* The kinds of kernel (one name and grid) that the fit found sharing their SMs' throughput (fit.h), the three
 * with the most launches: how many launches, their demand, their time alone. */
static void print_sharing(const gl_sched_program *p)
{
    enum { SHOWN = 3 };
    int n = 0, kinds = 0, top[SHOWN], top_n[SHOWN], *ix = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1));
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH && p->ops[i].sm_demand > 0) ix[n++] = i;
    rp_sort_kinds(p, ix, n);
    for (int k = 0; k < SHOWN; k++) top[k] = -1, top_n[k] = 0;
    for (int a = 0, b; a < n; a = b) { /* a kind: a run of equal keys */
        for (b = a + 1; b < n && rp_same_kind(&p->ops[ix[a]], &p->ops[ix[b]]); b++) continue;
        kinds++;
        for (int k = 0; k < SHOWN; k++)
            if (b - a > top_n[k]) {
                for (int m = SHOWN - 1; m > k; m--) top[m] = top[m - 1], top_n[m] = top_n[m - 1];
                top[k] = ix[a], top_n[k] = b - a;
                break;
            }
    }
    free(ix);
    if (!kinds) return;
    printf("kernels sharing SMs: %d kind%s (one name and grid), %d launches, ran slower beside others than alone in "
           "the recording; each block's demand on its SM fitted to that (gl_sched.h \"Sharing\"):", kinds,
           kinds == 1 ? "" : "s", n);
    for (int k = 0; k < SHOWN && top[k] >= 0; k++) {
        const gl_sched_op *o = &p->ops[top[k]];
        printf("%s %d launches of %d x %d threads, demand %.2f, %.1f us a wave at full speed", k ? ";" : "", top_n[k],
               o->blocks, o->threads, o->sm_demand, o->block_ns / 1e3);
    }
    printf("\n");
}

static int from_trace(const args *a_, rp_trace *t_, gl_sched_program *p_, double **rs_, double **re_, int *recorded_,
                      int *n_gap_, int *n_latency_)
{
    const args a = *a_;
    rp_trace t;
    gl_sched_program p;
    double *rs, *re;
    char err[512];
    int rc;
    if ((rc = rp_import_range(a.trace, a.range, a.loading, &t, err, sizeof err)) != 0) {
        fprintf(stderr, "replay: %s\n", err);
        return rc;
    }
    int recorded = a.recorded ? a.recorded : t.recorded_connections ? t.recorded_connections : 8;
    const char *from = a.recorded ? "--recorded-connections" : t.recorded_connections ? "the recorded environment"
                                                                                       : "not set: the driver's default";
    double *rr;
    rp_trace whole;
    int have_whole;
    const char *staging_from;
    staging_for_busy(&a, &t, recorded, &whole, &have_whole, &staging_from);
    rp_program(&t, &p, &rs, &re, &rr);
    int modelled = 0, kept = 0;
    for (int i = 0; i < t.n_calls; i++) {
        if (t.calls[i].kind == RP_HOST) kept++;
        else if (t.calls[i].kind != RP_POLL) modelled++; /* a polling loop's calls: its own line below */
    }
    printf("trace: %s | %s, %d SMs | nsys export schema %s | %d host thread%s, %d streams, %d calls (%d model operations, "
           "%d kept as host time) | CUDA_DEVICE_MAX_CONNECTIONS %d (%s) | module loading %s%s\n",
           a.trace, t.gpu, t.sms, t.schema, t.n_threads, t.n_threads == 1 ? "" : "s", t.n_streams, t.n_calls, modelled,
           kept, recorded, from, t.lazy ? "lazy" : "eager",
           a.loading >= 0 ? " (--module-loading)" : "");
    if (t.range[0])
        printf("range: '%s', %.3f ms from %.3f ms into the trace (the first of %d so named): the calls made in it, on "
               "every thread\n", t.range, (t.range_end_ns - t.range_start_ns) / 1e6, t.range_start_ns / 1e6,
               t.ranges_matched);
    if (t.polls)
        printf("polling loops: %d (%d cudaEventQuery calls), each a wait for its event: it ends when the event does\n",
               t.polls, t.poll_queries);
    if (t.hostfns)
        printf("host functions: %d, each in the stream of its thread's previous stream call (the trace names none)%s\n",
               t.hostfns,
               t.hostfns_lost ? "; those with no such call are kept as host time" : "");
    if (t.waited_h2d > 1)
        printf("pageable H2D copies the host waited for: %d, one at a time in the recorded order (each takes the "
               "driver's whole H2D staging)\n", t.waited_h2d);
    if (t.staged_busy) {
        char moved[160] = "";
        if (t.staged_ordered)
            snprintf(moved, sizeof moved, "; %d of them where the recorded order on the engine (one queue) puts "
                     "them", t.staged_ordered);
        if (t.staging_n > 0)
            printf("pageable H2D copies the host waited for, called into a busy stream: %d, each put on the H2D "
                   "engine once the host had staged its first part, %.1f us after its call (the %s median of %d "
                   "called into an idle stream; at most until its recorded start%s)\n", t.staged_busy,
                   t.staging_ns / 1e3, staging_from, t.staging_n, moved);
        else
            printf("pageable H2D copies the host waited for, called into a busy stream: %d, each put on the H2D "
                   "engine at its call (no such copy called into an idle stream shows how long the host stages "
                   "one%s)\n", t.staged_busy, moved);
    }
    if (t.held_calls) {
        char behind[64] = "";
        if (t.held_chained) snprintf(behind, sizeof behind, " (%d of them behind another held call)", t.held_chained);
        printf("host function calls held by another thread's pageable copy call: %d%s, each made once the call that "
               "held it has returned, its own time what followed the return\n", t.held_calls, behind);
    }
    printf("kept as host time (not modelled):");
    for (int i = 0, any = 0; i < t.n_names; i++)
        if (t.name_kept[i]) printf("%s %s x%d", any++ ? "," : "", t.names[i], t.name_kept[i]);
    printf("\n");
    if (t.dropped)
        printf("left out: %d kernels, copies or memsets that match no call of the process or ran on a stream the "
               "trace does not list (they still count in the recorded span)\n", t.dropped);
    if (t.um_migrations)
        printf("unified memory: %d page migrations (%.1f MiB), the driver's, with no call of their own: the kernels "
               "that faulted waited for them within their recorded times, which the replay keeps at every setting "
               "(how the faults change with what runs beside is not modelled); they count in the recorded span, as "
               "the GPU's copies\n",
               t.um_migrations, t.um_bytes / 1048576.0);
    if (t.graph_launches)
        printf("graph launches: %d, node by node (%d kernels, copies and memsets; %d host nodes, at each launch's end, "
               "their time fitted): a node waits for each other stream's latest node of its launch that had ended "
               "before it started (the trace has no edges)\n", t.graph_launches, t.n_nodes, t.graph_host_nodes);
    if (t.body_nodes)
        printf("conditional nodes' bodies: %d of those nodes ran with no call of their own, each taken as part of the "
               "launch of its graph (the node id's upper half) called last before it began, else of a graph with no "
               "node of its own\n", t.body_nodes);
    if (t.graphs_whole)
        printf("graph launches traced whole: %d (nsys's default, --cuda-graph-trace=graph): their work counts in the "
               "recorded span but is not replayed (their calls are kept as host time); record with "
               "--cuda-graph-trace=node\n", t.graphs_whole);
    int n_gap = 0, n_latency = 0;
    rp_fit(&t, &fit_dispatch_ns, &n_gap, &fit_latency_ns, &n_latency);
    int read_whole, from_whole = gaps_from_whole(&a, &t, have_whole ? &whole : NULL, &read_whole);
    if (have_whole) rp_trace_free(&whole);
    if (from_whole)
        printf("copies' gaps from the whole trace: %d of 4, which the range shows fewer than " RP_GAP_MIN_TEXT " of\n",
               from_whole);
    if (rp_fit_pool(&t, fit_dispatch_ns)) {
        static const char *const gaps[4] = {"an H2D after a kernel", "a D2H after a kernel", "a kernel after an H2D",
                                            "a kernel after a D2H"};
        static const char *const pools[RP_POOLS] = {"copies after kernels", "kernels after copies",
                                                    "copy-kernel pairs of all four kinds"};
        printf("copies' gaps pooled, which the %s fewer than " RP_GAP_MIN_TEXT " pairs of (each pool's median from "
               "the one's end to the other's start; a kernel's gap is that less the dispatch gap):",
               !t.range[0] ? "trace shows" : read_whole ? "range and the whole trace show" : "range shows");
        for (int k = 0, any = 0; k < 4; k++) {
            int q = t.gap_pool_from[k];
            if (q >= 0)
                printf("%s %s from the %s %d %s, %.2f us", any++ ? ";" : "", gaps[k],
                       q >= RP_POOLS ? "whole trace's" : t.range[0] ? "range's" : "trace's", t.gap_pool_n[q],
                       pools[q % RP_POOLS], t.gap_pool_ns[q] / 1e3);
        }
        printf("\n");
    }
    int has_fns = t.hostfns > t.hostfns_lost || t.graph_host_nodes > 0, moved = 0, woken = 0, fitted = 0;
    {
        gl_sched_machine m = machine_for(&t, recorded, recorded);
        double *first_ns = (double *)gl_xmalloc(sizeof(double) * (size_t)(p.n_ops + 1)); /* before the fits */
        for (int i = 0; i < p.n_ops; i++) first_ns[i] = p.ops[i].kind == GL_SCHED_COPY ? p.ops[i].copy_ns : p.ops[i].block_ns;
        int copies = 0, changed = rp_fit_kernels(&p, &m, rs, re, &copies), kernels = 0, paged = 0;
        if (has_fns) {
            moved = t.hostfns > t.hostfns_lost ? rp_place_hostfns(&t, &p, &m, rs, re, rr) : 0;
            woken = rp_fit_wakes(&t, &p, &m);
            rp_fit_hostfns(&p, &m, rs, rr);
            /* The kernels' times alone were fitted beside functions of no time: a kernel that then ran beside one
             * that a function held back took the sharing off its own time (random 2 at C=8: a 3-wave grid fitted
             * to 198 us a wave, 595 us in all where it ran 1000 alone, and a function made 2.5 ms to make up for
             * it). Fitted again beside the functions as fitted, and the functions again beside those (starts' p95
             * at C=8 from 8.95% of the span to 0.83%). */
            for (int i = 0; i < p.n_ops; i++) {
                if (p.ops[i].kind == GL_SCHED_LAUNCH) p.ops[i].block_ns = first_ns[i];
                if (gl_sched_copy_blocks_host(&m, &p.ops[i])) p.ops[i].copy_ns = first_ns[i];
            }
            changed = rp_fit_kernels(&p, &m, rs, re, &copies);
            for (int i = 0; i < p.n_ops; i++)
                if (p.ops[i].kind == GL_SCHED_HOSTFN) p.ops[i].block_ns = 0;
            fitted = rp_fit_hostfns(&p, &m, rs, rr);
        }
        free(first_ns);
        for (int i = 0; i < p.n_ops; i++) {
            kernels += p.ops[i].kind == GL_SCHED_LAUNCH;
            paged += gl_sched_copy_blocks_host(&m, &p.ops[i]);
        }
        printf("kernel times alone: %d of %d kernels shared SMs at the recorded setting and ran longer than their "
               "waves alone; their time per wave is what is left\n", changed, kernels);
        print_sharing(&p);
        if (paged)
            printf("pageable copy times alone: %d of %d the host waited for took longer in the simulation than "
                   "recorded (paused behind engine copies of their direction, or slowed by the shared link); "
                   "their time is what is left\n", copies, paged);
    }
    if (has_fns) {
        if (t.n_fn_runs > 0)
            printf("host function wakes: %d fitted to when the driver's thread began to run (its runs in the "
                   "trace's scheduling rows: %d)\n", woken, t.n_fn_runs / 2);
        else if (t.hostfns > t.hostfns_lost)
            printf("host function wakes: none fitted (the trace holds no scheduling of the driver's thread: nsys "
                   "profile --cpuctxsw=process-tree, the default, records it)\n");
        if (t.hostfns > t.hostfns_lost)
            printf("host function streams: %d moved from their thread's previous call's stream to one whose next "
                   "work the recording shows held, or where that stream's next work began before the driver's thread "
                   "ran at all\n", moved);
        printf("host function times: %d of %d fitted at the recorded setting (where one held its stream's next "
               "kernel or copy, that operation starts as recorded; where the host's wait for it, for its stream or "
               "for an event recorded behind it, returned late, the wait returns as recorded); the others take only "
               "the time per function\n",
               fitted, t.hostfns - t.hostfns_lost + t.graph_host_nodes);
    }
    if (a.export_model) {
        if (rp_model_write(a.export_model, a.trace, &t, &p, rs, re, recorded, fit_dispatch_ns, fit_latency_ns) != 0) {
            fprintf(stderr, "replay: --export-model %s: cannot write it\n", a.export_model);
            return GL_EXIT_USAGE;
        }
        printf("model: %s (replay --model %s replays it without the trace)\n", a.export_model, a.export_model);
    }
    free(rr);
    *t_ = t, *p_ = p, *rs_ = rs, *re_ = re, *recorded_ = recorded, *n_gap_ = n_gap, *n_latency_ = n_latency;
    return 0;
}

int main(int argc, char **argv)
{
    args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    rp_trace t;
    gl_sched_program p;
    double *rs = NULL, *re = NULL;
    char err[512];
    int recorded = 8, n_gap = 0, n_latency = 0;
    if (a.model) {
        if ((rc = rp_model_read(a.model, &t, &p, &rs, &re, &fit_dispatch_ns, &fit_latency_ns, err, sizeof err)) != 0) {
            fprintf(stderr, "replay: %s\n", err);
            return rc;
        }
        recorded = a.recorded ? a.recorded : t.recorded_connections;
        n_gap = n_latency = -1; /* as the model file gives them */
        printf("model: %s | %s, %d SMs | %d host thread%s, %d streams, %d model operations | CUDA_DEVICE_MAX_CONNECTIONS "
               "%d (%s) | module loading %s\n", a.model, t.gpu, t.sms, t.n_threads, t.n_threads == 1 ? "" : "s",
               t.n_streams, p.n_ops, recorded, a.recorded ? "--recorded-connections" : "as recorded",
               t.lazy ? "lazy" : "eager");
    } else if ((rc = from_trace(&a, &t, &p, &rs, &re, &recorded, &n_gap, &n_latency)) != 0) {
        return rc;
    }
    if (t.event_trace) /* the trace's or the model file's */
        printf("event records: traced by CUPTI (nsys --cuda-event-trace=true), under which each record behind a kernel "
               "holds its hardware queue until the kernel ends; replayed so at every setting (without nsys, only a "
               "timed event's record does)\n");
    double rec_ms = (t.gpu_last_ns - t.gpu_first_ns) / 1e6;
    printf("machine: dispatch gap %.2f us (%s), launch latency %.2f us (%s), %.2f us per queue entry, %.1f us a "
           "lazy load and %.0f ns a synchronize per connection from the recorded setting (the H200's, as gridlab "
           "measured them); kernels and copies at their recorded times\n",
           fit_dispatch_ns / 1e3,
           n_gap < 0 ? "the model file's"
           : n_gap   ? "the trace's, the median of its kernels that waited for their stream's previous kernel and "
                       "nothing else"
                     : "the H200's",
           fit_latency_ns / 1e3,
           n_latency < 0 ? "the model file's" : n_latency ? "the trace's, from its kernels launched into idle streams"
                                                          : "the H200's",
           0.26, 2.3, SYNC_CONNECTION_NS);
    if (t.graph_dispatch_ns > 0 || t.graph_copy_after_kernel_ns > 0 || t.graph_kernel_after_copy_ns > 0 ||
        t.graph_restart_ns > 0) {
        static const char *const what[4] = {
            "a kernel node %.2f us after its launch's previous kernel node in its stream ends (not the dispatch gap)",
            "a copy or memset node %.2f us after its previous kernel node (not the copy costs)",
            "a kernel node %.2f us and its dispatch after its previous copy or memset node (not the copy costs)",
            "a conditional body's kernel node that begins the body again %.2f us after its previous node"};
        const double v[4] = {t.graph_dispatch_ns, t.graph_copy_after_kernel_ns, t.graph_kernel_after_copy_ns,
                             t.graph_restart_ns};
        printf("graph chaining:");
        for (int q = 0, any = 0; q < 4; q++)
            if (v[q] > 0) printf(any++ ? "; " : " "), printf(what[q], v[q] / 1e3);
        printf(" (%s; the other kinds as any node's)\n", a.model      ? "the model file's"
                                                      : t.range[0] ? "the range's, the median of its node pairs"
                                                                   : "the trace's, the median of its node pairs");
    }
    printf("copies and kernels (%s): H2D %.2f us and D2H %.2f us after a kernel, a kernel %.2f us after an H2D "
           "and %.2f us after a D2H, beyond the dispatch gap; a sync that waited returns %.2f us after its work (%s); "
           "a copy into an idle stream %.2f us after its call returns, beyond the launch latency (%s)\n\n",
           a.model      ? "the model file's"
           : t.range[0] ? "the range's, the median of those that waited for their stream's previous one; where it "
                          "shows fewer than " RP_GAP_MIN_TEXT ", the whole trace's; else the pool's; else 0"
                        : "the trace's, the median of those that waited for their stream's previous one; where it "
                          "shows fewer than " RP_GAP_MIN_TEXT ", the pool's; else 0",
           t.copy_after_kernel_ns[0] / 1e3,
           t.copy_after_kernel_ns[1] / 1e3, t.kernel_after_copy_ns[0] / 1e3, t.kernel_after_copy_ns[1] / 1e3,
           t.sync_return_ns / 1e3,
           a.model                          ? "the model file's"
           : t.sync_return_n >= RP_GAP_MIN ? "the median of its device and stream syncs that waited"
                                            : "none: it shows fewer than " RP_GAP_MIN_TEXT,
           t.copy_arrive_ns / 1e3,
           a.model           ? "the model file's"
           : t.copy_arrive_n ? "the tenth percentile of its copies into idle streams with their engine idle"
                             : "none: it shows fewer than " RP_FIT_MIN_TEXT " such copies");
    printf("| connections | predicted span ms | predicted peak kernels | recorded span ms | error %% | start error p95 %% |\n");
    printf("|------------:|------------------:|-----------------------:|-----------------:|--------:|------------------:|\n");
    if (a.infer) { /* every setting, judged by where it puts each operation's start */
        double best = INFINITY, err_at[33];
        int best_c = 0;
        for (int C = 1; C <= 32; C++) {
            gl_sched_machine m = machine_for(&t, C, C); /* as if recorded at C */
            gl_sched_result r;
            if (gl_sched_simulate(&p, &m, &r, err, sizeof err) != 0) {
                fprintf(stderr, "replay: the model refused the program at C=%d: %s\n", C, err);
                return a.model ? GL_EXIT_USAGE : GL_EXIT_INTERNAL; /* a --model file's fault; a trace's, ours */
            }
            err_at[C] = start_error_p95(&p, rs, t.gpu_last_ns - t.gpu_first_ns);
            if (err_at[C] < best) best = err_at[C], best_c = C;
        }
        int lo = best_c, hi = best_c; /* the settings that explain it as well (within 0.01% of the span) */
        while (lo > 1 && err_at[lo - 1] <= best + 0.01) lo--;
        while (hi < 32 && err_at[hi + 1] <= best + 0.01) hi++;
        double next = INFINITY;
        for (int C = 1; C <= 32; C++)
            if ((C < lo || C > hi) && err_at[C] < next) next = err_at[C];
        if (lo == 1 && hi == 32)
            printf("inferred connections: the trace does not tell (every C in 1..32 puts the operations' starts %.2f%% "
                   "of the span off, p95)\n", best);
        else
            printf("inferred connections: %d (operation starts p95 %.2f%% of the span off", best_c, best);
        if (!(lo == 1 && hi == 32)) {
            if (lo != hi) printf("; every C in %d..%d puts them as near", lo, hi);
            if (isfinite(next)) printf("; the nearest other setting %.2f%%", next);
            printf(")%s\n", lo <= recorded && recorded <= hi ? ", as recorded" : ", not the recorded setting");
        }
    }
    FILE *json = a.json ? fopen(a.json, "w") : NULL;
    double replayed = NAN;
    if (json) {
        gl_buf path = {0};
        gl_buf_json_string(&path, a.trace); /* the project's one escaper */
        fprintf(json, "{\"trace\": %s, \"recorded_connections\": %d, \"recorded_makespan_ms\": %.6f, \"predictions\": [", path.s, recorded, rec_ms);
        gl_buf_free(&path);
    }
    /* Kernels that share SMs slow beside more of them than the recording ran at once by the model's law alone */
    int share_rec = rp_sharing_peak(&p, rs, re), beyond[32], n_beyond = 0, share_most = 0, ranked = 0;
    for (int k = 0; k < a.n_connections; k++) {
        int C = a.connections[k];
        gl_sched_machine m = machine_for(&t, C, recorded);
        gl_sched_result r;
        if (gl_sched_simulate(&p, &m, &r, err, sizeof err) != 0) {
            fprintf(stderr, "replay: the model refused the program at C=%d: %s\n", C, err);
            return a.model ? GL_EXIT_USAGE : GL_EXIT_INTERNAL; /* a --model file's fault; a trace's, ours */
        }
        int share_sim = share_rec > 0 ? rp_sharing_peak(&p, NULL, NULL) : 0;
        if (share_sim > share_rec && n_beyond < 32) beyond[n_beyond++] = C;
        if (share_sim > share_most) share_most = share_sim;
        double ms = r.span_ns / 1e6;
        if (C == recorded) {
            replayed = ms, ranked = r.ranked;
            printf("| %11d | %17.3f | %22d | %16.3f | %+7.1f | %17.2f |\n", C, ms, r.peak_concurrency, rec_ms,
                   100 * (ms - rec_ms) / rec_ms, start_error_p95(&p, rs, t.gpu_last_ns - t.gpu_first_ns));
        } else {
            printf("| %11d | %17.3f | %22d | %16s | %7s | %17s |\n", C, ms, r.peak_concurrency, "", "", "");
        }
        if (json) fprintf(json, "%s{\"connections\": %d, \"predicted_makespan_ms\": %.6f, \"predicted_peak\": %d}", k ? ", " : "", C,
                          ms, r.peak_concurrency);
    }
    if (ranked > 0)
        printf("races: at C=%d, %d time%s two kernels or copies ready at once (or a kernel at the work distributor "
               "within a queue entry behind another) went in the order they started in the recording, not in "
               "submission order (gl_sched.h \"Heads\"); at the other settings the GPU runs such races again, and "
               "submission order decides\n", recorded, ranked, ranked == 1 ? "" : "s");
    if (n_beyond > 0) {
        printf("extrapolated: at C =");
        for (int k = 0; k < n_beyond; k++) printf("%s %d", k ? "," : "", beyond[k]);
        printf(", up to %d kernels that share SMs ran at once in the simulation, at most %d in the recording: how they "
               "slow beside more of them is the model's law (gl_sched.h \"Sharing\"), not the recording's\n",
               share_most, share_rec);
    }
    if (json) {
        if (isnan(replayed)) {
            gl_sched_machine m = machine_for(&t, recorded, recorded);
            gl_sched_result r;
            if (gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0) replayed = r.span_ns / 1e6;
        }
        if (isfinite(replayed)) fprintf(json, "], \"replayed_makespan_ms\": %.6f}\n", replayed);
        else fprintf(json, "], \"replayed_makespan_ms\": null}\n");
        fclose(json);
    }
    const char *dump = getenv("GRIDLAB_REPLAY_DUMP"); /* debugging aid: each op, recorded and replayed */
    if (dump) {
        const char *dc = getenv("GRIDLAB_REPLAY_DUMP_C"); /* another setting's simulation instead */
        gl_sched_machine m = machine_for(&t, dc && atoi(dc) > 0 ? atoi(dc) : recorded, recorded);
        gl_sched_result r;
        FILE *f = fopen(dump, "w");
        if (f && gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0)
            for (int i = 0; i < p.n_ops; i++)
                fprintf(f, "%d %d %d %d %d %.1f %.1f %.1f %.1f %.1f %.1f %.1f %d %.1f %d %d %d %d\n", i, p.ops[i].kind,
                        p.ops[i].thread, p.ops[i].stream, p.ops[i].dir, rs[i] / 1e3, re[i] / 1e3, p.ops[i].call_ns / 1e3,
                        p.ops[i].submit_ns / 1e3, p.ops[i].start_ns / 1e3, p.ops[i].end_ns / 1e3, p.ops[i].block_ns / 1e3,
                        p.ops[i].queue, p.ops[i].go_ns / 1e3, p.ops[i].event, p.ops[i].blocks,
                        p.ops[i].stream >= 0 ? p.streams[p.ops[i].stream].priority : 0, p.ops[i].after);
        if (f) fclose(f);
    }
    if (a.explain) {
        gl_sched_machine m = machine_for(&t, recorded, recorded);
        gl_sched_result r;
        if (gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0) rp_explain(&p, &m, rs, a.explain);
    }
    if (a.perfetto) {
        gl_trace tr;
        gl_trace_init(&tr);
        rp_trace_add(&tr, "recorded", &p, rs, re);
        gl_sched_machine m = machine_for(&t, recorded, recorded);
        gl_sched_result r;
        char name[64];
        snprintf(name, sizeof name, "replayed at C=%d", recorded);
        if (gl_sched_simulate(&p, &m, &r, err, sizeof err) == 0) rp_trace_add(&tr, name, &p, NULL, NULL);
        int bad = gl_trace_write(&tr, a.perfetto);
        gl_trace_free(&tr);
        if (bad) {
            fprintf(stderr, "replay: --trace %s: cannot write it\n", a.perfetto);
            return GL_EXIT_USAGE;
        }
        printf("trace: %s (open it at ui.perfetto.dev: the recording and the replay side by side)\n", a.perfetto);
    }
    free(rs), free(re);
    gl_sched_program_free(&p);
    rp_trace_free(&t);
    return 0;
}
