/* hyperq.cu - which streams share a hardware queue, how the work distributor
 * hands out blocks, and what the number of queues costs.
 *
 * Question: which streams share a hardware queue on this GPU, and how well does the scheduling model predict what C queues cost?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --legacy-kernel-us 20 --legacy-streams 8 --map-streams 8 --streams 16 --skip-timing-claims
 *
 * Hyper-Q gives the host C hardware queues (CUDA_DEVICE_MAX_CONNECTIONS, 8 by
 * default, at most 32). Every prediction here comes from the core's
 * scheduling simulation (gl_sched.h), fed with this run's measured costs and
 * each call's own host time, and is compared with the GPU's timeline.
 *
 * 1. Queue map (table "queue-map"). Which calls share a queue? A long kernel
 *    L and a kernel D that waits for it go into one stream: D blocks the head
 *    of its queue until L ends. A short kernel in each other stream then waits
 *    exactly when its call went into D's queue. The textbook rule, stream s
 *    in queue s mod C, predicts a fixed map; on Hopper the map depends on the
 *    sequence of calls instead (gl_sched.h, "Queues"), so two patterns are
 *    probed: "busy" (every stream holds a long kernel first, so no queue is
 *    idle and calls go round-robin) and "idle" (each short kernel is waited
 *    for before the next, so an idle queue is always there to take it). Both
 *    for blocking and non-blocking streams, without and with a kernel on the
 *    legacy default stream right before L. Claim: the streams whose short
 *    kernel waited are exactly those the model puts behind D.
 * 2. Dispatch rules (table "dispatch"). A grid A of 2.5 waves of 1024-thread
 *    blocks, then a one-block kernel B: in another stream (it starts when A's
 *    last blocks are out: oldest grid first), in the most urgent stream (it
 *    takes the first free slot), and whether an urgent stream's kernel waits
 *    behind a blocked queue head like any other. The model releases a queue
 *    when its head kernel reaches the work distributor; Bakita & Anderson
 *    (RTAS 2024) found that pre-Hopper GPUs release it only once all of the
 *    kernel's blocks are out. Both predictions are printed; the claim is the
 *    model's.
 * 3. Connections sweep (table "sweep"): S non-blocking streams (--streams,
 *    16,32,64,256) x K=4 x T=1 ms, depth-first and breadth-first.
 * 4. Published-sample timing (table "legacy"): S=24 blocking streams
 *    (cudaStreamCreate) x K=3 x T=2 ms, timed with events recorded on the
 *    legacy default stream, as most samples do. Event-timed and span-timed
 *    makespans, each against the model.
 * Claims in 3 and 4: makespan within --tolerance (10%) of the simulation,
 * peak concurrency equal, median kernel start error at most 5% of T.
 *
 * Run:   make run-hyperq ARGS="--connections 4"
 *        make sweep-hyperq      (C = 1,2,4,8,16,32, one process each; results
 *                                and the plot go to experiments/results/<gpu>/)
 * Nsight Systems (make profile-hyperq): NVTX ranges "queue-map ...",
 * "dispatch ...", "sweep S=.. depth C=..", "legacy S=.. breadth C=.."; streams
 * are named "stream N", "probe N", "stream A", "stream B", "urgent". --trace
 * and --timeline show the model's timeline of each sweep run beside the
 * measured one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_streamgrid.h"
#include "gl_trace.h"

enum { PART_ALL, PART_MAP, PART_DISPATCH, PART_SWEEP, PART_LEGACY };
enum { ORDER_BOTH = 2 };

/* ---- a probe: real calls and the same calls in a program for the model ------------------- */

typedef struct probe {
    gl_sched_program prog;      /* the calls, with their measured host times */
    gl_spans spans;             /* one record per launch */
    unsigned long long *d_sink; /* where work kernels leave their result */
    const gl_sched_machine *m;  /* the model's machine */
    double t_prev;              /* host clock after the previous call */
    gl_timeline tl, model_tl;   /* measured and simulated, after probe_finish */
} probe;

/* Start a probe: an empty program, empty span records, and the host clock. */
static void probe_begin(probe *p)
{
    gl_sched_program_free(&p->prog);
    gl_sched_program_init(&p->prog);
    gl_spans_reset(&p->spans);
    p->t_prev = gl_host_ns();
}

/* Launch a work kernel into stream (model_stream in the program); returns its id. */
static int probe_launch(probe *p, cudaStream_t stream, int model_stream, int blocks, int threads, int per_sm, double us)
{
    unsigned int slot = gl_spans_reserve(&p->spans, blocks);
    gl_work_launch(stream, blocks, threads, us, p->spans.dev, slot, 0, model_stream, p->d_sink);
    double now = gl_host_ns();
    int op = gl_sched_launch(&p->prog, 0, model_stream, blocks, threads, per_sm, us * 1e3, (int)slot);
    p->prog.ops[op].issue_ns = now - p->t_prev;
    p->prog.ops[op].track = model_stream;
    p->t_prev = now;
    return (int)slot;
}

/* The host waits for one stream; the model's host waits the same way. */
static void probe_sync(probe *p, cudaStream_t stream, int model_stream)
{
    CUDA_CHECK(cudaStreamSynchronize(stream));
    p->t_prev = gl_host_ns();
    int op = gl_sched_sync_stream(&p->prog, 0, model_stream); /* may move p->prog.ops */
    p->prog.ops[op].issue_ns = 0;
}

/* After the probe's last call: the measured timeline, and the program simulated with the same call times. */
static void probe_finish(probe *p)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    gl_spans_timeline(&p->spans, &p->tl);
    gl_sched_result r;
    char err[160];
    if (gl_sched_simulate(&p->prog, p->m, &r, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "the scheduling model refused a probe: %s", err);
    gl_sched_timeline(&p->prog, &p->model_tl);
}

/* Start of kernel id relative to kernel ref's start, in us (NAN when missing). */
static double rel_start(const gl_timeline *tl, int id, int ref)
{
    int a = gl_timeline_find(tl, id), b = gl_timeline_find(tl, ref);
    return a < 0 || b < 0 ? NAN : (tl->k[a].start_ns - tl->k[b].start_ns) / 1e3;
}

/* ---- 1. the queue map --------------------------------------------------------------------- */

/* Streams (by index) whose short kernel started only once L had ended: those
 * that waited for D, the head blocked behind L. Written as "3,7,11" or "none". */
static void waiters(const gl_timeline *tl, int l, const int *shorts, int n, gl_buf *out, int *count)
{
    int i = gl_timeline_find(tl, l);
    double end = i < 0 ? INFINITY : tl->k[i].end_ns;
    *count = 0;
    for (int s = 1; s < n; s++) {
        int j = gl_timeline_find(tl, shorts[s]);
        if (j >= 0 && tl->k[j].start_ns >= end) gl_buf_printf(out, "%s%d", (*count)++ ? "," : "", s);
    }
    if (*count == 0) gl_buf_puts(out, "none");
}

/* One queue-map probe over n streams of one kind, in the busy or idle pattern,
 * with or without a legacy-stream kernel; one row and its claim. */
static void map_probe(probe *p, int n, int blocking, int idle, int legacy, int C, int per_sm32, gl_report *rep)
{
    cudaStream_t *streams = (cudaStream_t *)gl_xcalloc((size_t)n, sizeof(cudaStream_t));
    for (int s = 0; s < n; s++) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], blocking ? cudaStreamDefault : cudaStreamNonBlocking));
        gl_nvtx_name_stream(streams[s], "probe %d", s);
    }
    /* Long enough that every call is issued while L still runs. */
    double hold_us = 500 + 15.0 * n, long_us = idle ? 1000 + 150.0 * n : hold_us, short_us = 20;
    int *shorts = (int *)gl_xcalloc((size_t)n, sizeof(int)), l = -1;
    char variant[64];
    snprintf(variant, sizeof variant, "%s %s%s", blocking ? "blocking" : "non-blocking", idle ? "idle" : "busy",
             legacy ? " +legacy" : "");
    gl_nvtx_push("queue-map %s", variant);
    for (int round = 0; round < 2; round++) { /* the first round warms up */
        probe_begin(p);
        int *model = (int *)gl_xcalloc((size_t)n, sizeof(int));
        for (int s = 0; s < n; s++)
            model[s] = gl_sched_stream_new(&p->prog, blocking ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        if (!idle)
            for (int s = 0; s < n; s++) probe_launch(p, streams[s], model[s], 1, 32, per_sm32, hold_us);
        if (legacy) probe_launch(p, cudaStreamLegacy, GL_SCHED_LEGACY, 1, 32, per_sm32, short_us);
        l = probe_launch(p, streams[0], model[0], 1, 32, per_sm32, long_us);
        probe_launch(p, streams[0], model[0], 1, 32, per_sm32, short_us);
        for (int s = 1; s < n; s++) {
            shorts[s] = probe_launch(p, streams[s], model[s], 1, 32, per_sm32, short_us);
            if (idle) probe_sync(p, streams[s], model[s]);
        }
        probe_finish(p);
        free(model);
    }
    gl_nvtx_pop();

    gl_buf got = GL_BUF_INIT, want = GL_BUF_INIT, queues = GL_BUF_INIT;
    int n_got, n_want;
    waiters(&p->tl, l, shorts, n, &got, &n_got);
    waiters(&p->model_tl, l, shorts, n, &want, &n_want);
    /* The model's queue for each stream's short kernel: the map as the model sees it. */
    for (int op = 0, s = 1; op < p->prog.n_ops && s < n; op++)
        if (p->prog.ops[op].kind == GL_SCHED_LAUNCH && p->prog.ops[op].id == shorts[s])
            gl_buf_printf(&queues, "%s%d", s++ > 1 ? " " : "", p->prog.ops[op].queue);
    int d_queue = -1;
    for (int op = 0; op < p->prog.n_ops; op++)
        if (p->prog.ops[op].kind == GL_SCHED_LAUNCH && p->prog.ops[op].id == l) d_queue = p->prog.ops[op + 1].queue;

    gl_row *row = gl_report_row(rep, "queue-map", variant);
    gl_row_param_num(row, "streams", "", 0, n);
    gl_row_param_num(row, "connections", "", 0, C);
    gl_row_number(row, "waited", "streams", 0, 0, n_got);
    gl_row_number(row, "model_waited", "streams", 0, 0, n_want);
    gl_row_text(row, "which", 0, "%s", gl_buf_str(&got));
    gl_row_text(row, "model_which", GL_HIDE, "%s", gl_buf_str(&want));
    gl_row_text(row, "model_queues", GL_HIDE, "%s", gl_buf_str(&queues));
    printf("queue map C=%d %s: D blocks queue %d; the model's queue of each stream's short kernel (streams 1..%d): %s\n",
           C, variant, d_queue, n - 1, gl_buf_str(&queues));
    char text[160];
    snprintf(text, sizeof text, "queue map, %s: the short kernels that waited behind D are the model's", variant);
    gl_claim_fact(rep, row, GL_CLAIM_TIMING, strcmp(gl_buf_str(&got), gl_buf_str(&want)) == 0, text,
                  "measured streams %s; model %s", gl_buf_str(&got), gl_buf_str(&want));
    gl_buf_free(&got);
    gl_buf_free(&want);
    gl_buf_free(&queues);
    for (int s = 0; s < n; s++) CUDA_CHECK(cudaStreamDestroy(streams[s]));
    free(streams);
    free(shorts);
}

/* ---- 2. dispatch rules --------------------------------------------------------------------- */

typedef struct dispatch_ctx {
    probe *p;
    int variant;             /* 0: B in another stream; 1: B urgent; 2: urgent behind a blocked head */
    cudaStream_t a, b, u;    /* normal, normal, most urgent */
    int per_sm, per_sm32;    /* blocks per SM of A's shape and of a 32-thread block */
    int blocks;              /* A's grid: 2.5 waves */
    double a_us;             /* A's block time */
    gl_sched_machine bakita; /* the machine with the other release rule */
} dispatch_ctx;

/* Simulate the probe's program on machine m; B's start relative to A's. */
static double model_start(probe *p, const gl_sched_machine *m, int b, int a)
{
    gl_sched_result r;
    char err[160];
    if (gl_sched_simulate(&p->prog, m, &r, err, sizeof err) != 0) gl_die(GL_EXIT_INTERNAL, "the model: %s", err);
    gl_sched_timeline(&p->prog, &p->model_tl);
    return rel_start(&p->model_tl, b, a);
}

/* One sample of a dispatch probe: A, then B as the variant says; B's start measured, and under both release rules. */
static void run_dispatch(gl_sample *smp, void *arg)
{
    dispatch_ctx *d = (dispatch_ctx *)arg;
    probe *p = d->p;
    probe_begin(p);
    int a = gl_sched_stream_new(&p->prog, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int b = gl_sched_stream_new(&p->prog, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int u = gl_sched_stream_new(&p->prog, GL_SCHED_STREAM_NONBLOCKING, -1, -1);
    int first, second;
    if (d->variant < 2) {
        first = probe_launch(p, d->a, a, d->blocks, 1024, d->per_sm, d->a_us);
        second = probe_launch(p, d->variant ? d->u : d->b, d->variant ? u : b, 1, 1024, d->per_sm, 10);
    } else {
        first = probe_launch(p, d->a, a, 1, 32, d->per_sm32, d->a_us);
        probe_launch(p, d->a, a, 1, 32, d->per_sm32, 10);
        second = probe_launch(p, d->u, u, 1, 32, d->per_sm32, 10);
    }
    probe_finish(p);
    /* The other release rule first, then the model's own, whose timeline stays. */
    gl_sample_put(smp, "bakita_b_start", model_start(p, &d->bakita, second, first));
    gl_sample_put(smp, "model_b_start", model_start(p, p->m, second, first));
    gl_sample_put(smp, "b_start", rel_start(&p->tl, second, first));
}

/* The dispatch table: B in another stream, B urgent, and an urgent kernel behind a blocked head. */
static void dispatch_rows(probe *p, gl_device *dev, const gl_common *common, gl_report *rep, int C, double tol)
{
    static const char *const names[] = {"other stream", "urgent stream", "urgent behind a blocked head"};
    int lo, hi;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    dispatch_ctx d;
    memset(&d, 0, sizeof d);
    d.p = p;
    d.per_sm = gl_work_blocks_per_sm(1024);
    d.per_sm32 = gl_work_blocks_per_sm(32);
    if (d.per_sm < 1 || d.per_sm32 < 1) {
        gl_claim_skip(rep, NULL, GL_CLAIM_TIMING, "dispatch rules",
                      "n/a: a 1024-thread block of the work kernel does not fit on an SM of this GPU");
        return;
    }
    d.blocks = d.per_sm * dev->sms * 5 / 2;
    d.a_us = 300;
    d.bakita = *p->m;
    d.bakita.release_rule = GL_SCHED_RELEASE_DISPATCHED;
    CUDA_CHECK(cudaStreamCreateWithPriority(&d.a, cudaStreamNonBlocking, lo));
    CUDA_CHECK(cudaStreamCreateWithPriority(&d.b, cudaStreamNonBlocking, lo));
    CUDA_CHECK(cudaStreamCreateWithPriority(&d.u, cudaStreamNonBlocking, hi));
    gl_nvtx_name_stream(d.a, "stream A");
    gl_nvtx_name_stream(d.b, "stream B");
    gl_nvtx_name_stream(d.u, "urgent");
    gl_sampler smp;
    gl_device_sampler(&smp, dev, common);
    gl_sampler_series(&smp, "model_b_start", "us", 1, 0);
    gl_sampler_series(&smp, "bakita_b_start", "us", 1, 0);
    gl_sampler_series(&smp, "b_start", "us", 1, GL_SHOW_MIN);
    for (int v = 0; v < 3; v++) {
        d.variant = v;
        gl_row *row = gl_report_row(rep, "dispatch", names[v]);
        gl_row_param_num(row, "connections", "", 0, C);
        gl_row_param_num(row, "a_blocks", "", 0, v < 2 ? d.blocks : 1);
        gl_row_param_num(row, "a_us", "", 0, d.a_us);
        gl_nvtx_push("dispatch %s", names[v]);
        gl_sampler_run(&smp, row, run_dispatch, &d);
        gl_nvtx_pop();
        gl_stats got = gl_row_find(row, "b_start")->stats, want = gl_row_find(row, "model_b_start")->stats;
        char text[160];
        snprintf(text, sizeof text, "dispatch, %s: B starts where the model puts it (relative to A's start)", names[v]);
        gl_claim_near(rep, row, GL_CLAIM_TIMING, text, want.median, got.median, tol, 5.0, "us");
    }
    gl_sampler_free(&smp);
    CUDA_CHECK(cudaStreamDestroy(d.a));
    CUDA_CHECK(cudaStreamDestroy(d.b));
    CUDA_CHECK(cudaStreamDestroy(d.u));
}

/* ---- 3 and 4. streams x kernels, measured and simulated ----------------------------------------- */

/* Parts 3 and 4: S streams x K kernels of T us, in each order asked, one row each. */
static void grid_rows(gl_device *dev, const gl_common *common, gl_report *rep, const gl_sched_machine *m,
                      const char *table, int S, int K, double T, int blocking, int orders, double tol,
                      gl_trace *trace)
{
    gl_streamgrid g;
    memset(&g, 0, sizeof g);
    g.streams = S;
    g.kernels = K;
    g.blocks = 1;
    g.threads = 32;
    g.kernel_us = T;
    g.blocking = blocking;
    g.legacy_events = blocking;
    g.per_block = common->trace_path != NULL;
    gl_streamgrid_create(&g, m, dev->tick_ns);
    gl_sampler smp;
    gl_device_sampler(&smp, dev, common);
    gl_streamgrid_series(&smp, g.legacy_events);
    for (int o = GL_SCHED_DEPTH_FIRST; o <= GL_SCHED_BREADTH_FIRST; o++) {
        if (orders != ORDER_BOTH && orders != o) continue;
        char variant[48];
        snprintf(variant, sizeof variant, "S=%d %s", S, gl_sched_order_name(o));
        g.order = o;
        gl_streamgrid_row(&g, rep, common, &smp, trace, table, variant, tol);
    }
    gl_sampler_free(&smp);
    gl_streamgrid_destroy(&g);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "hyperq",
        "which streams share a hardware queue on this GPU, and how well does the scheduling model predict what C "
        "queues cost?",
        "Parts: queue map, dispatch rules, connections sweep (--streams, default 16,32,64,256), published-sample\n"
        "timing (blocking streams, legacy-stream events). Sweep C with --connections 1,2,4,8,16,32 (make sweep-hyperq)."};
    int part = PART_ALL, kernels = 4, map_streams = 64, order = ORDER_BOTH;
    int legacy_streams = 24, legacy_kernels = 3;
    double kernel_us = 1000, legacy_us = 2000, tolerance = 0.10;
    gl_int_list streams = {NULL, 0};
    gl_option opts[] = {
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|map|dispatch|sweep|legacy", NULL, "which part to run", 0},
        {"streams", GL_OPT_INT_LIST, &streams, 1, 1024, NULL, "16,64", "sweep: stream counts S (none given: 16,32,64,256)", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, NULL, "sweep: kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, NULL, "sweep: kernel duration T in us", 0},
        {"legacy-streams", GL_OPT_INT, &legacy_streams, 1, 1024, NULL, NULL, "legacy part: blocking streams", 0},
        {"legacy-kernels", GL_OPT_INT, &legacy_kernels, 1, 64, NULL, NULL, "legacy part: kernels per stream", 0},
        {"legacy-kernel-us", GL_OPT_DOUBLE, &legacy_us, 1, 1e6, NULL, NULL, "legacy part: kernel duration in us", 0},
        {"map-streams", GL_OPT_INT, &map_streams, 2, 256, NULL, "16", "queue map: streams probed", 0},
        {"order", GL_OPT_CHOICE, &order, 0, 0, "depth|breadth|both", NULL, "issue order in parts 3 and 4", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    static int default_streams[] = {16, 32, 64, 256};
    if (streams.n == 0) {
        streams.v = default_streams;
        streams.n = GL_ARRAY_LEN(default_streams);
    }
    gl_sched_lab S;
    gl_sched_lab_open(&S, exp.name, &common);
    gl_sched_lab_calibrate(&S, 32, kernel_us);
    int C = S.machine.connections;

    probe p;
    memset(&p, 0, sizeof p);
    p.m = &S.machine;
    gl_sched_program_init(&p.prog);
    gl_spans_create(&p.spans, 4096, 0, 0);
    CUDA_CHECK(cudaMalloc((void **)&p.d_sink, sizeof(unsigned long long)));
    int per_sm32 = gl_work_blocks_per_sm(32);

    if (part == PART_ALL || part == PART_MAP)
        for (int blocking = 0; blocking < 2; blocking++)
            for (int idle = 0; idle < 2; idle++)
                for (int legacy = 0; legacy < 2; legacy++)
                    map_probe(&p, map_streams, blocking, idle, legacy, C, per_sm32, &S.rep);
    if (part == PART_ALL || part == PART_DISPATCH) dispatch_rows(&p, &S.dev, &common, &S.rep, C, tolerance);
    if (part == PART_ALL || part == PART_SWEEP)
        for (int i = 0; i < streams.n; i++)
            grid_rows(&S.dev, &common, &S.rep, &S.machine, "sweep", streams.v[i], kernels, kernel_us, 0, order,
                      tolerance, &S.trace);
    if (part == PART_ALL || part == PART_LEGACY)
        grid_rows(&S.dev, &common, &S.rep, &S.machine, "legacy", legacy_streams, legacy_kernels, legacy_us, 1, order,
                  tolerance, &S.trace);
    gl_timeline_free(&p.tl);
    gl_timeline_free(&p.model_tl);
    gl_sched_program_free(&p.prog);
    gl_spans_destroy(&p.spans);
    CUDA_CHECK(cudaFree(p.d_sink));
    if (streams.v != default_streams) free(streams.v);
    return gl_sched_lab_close(&S, &common);
}
