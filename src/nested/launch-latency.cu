/* launch-latency.cu - what it costs to start a grid, from the host and from the device.
 *
 * Question: what does it cost to start a grid: from the host, in a graph, and from device code (CDP2, device graphs)?
 * Build: rdc
 * Sanitize: --quick --profile --launches 20 --skip-timing-claims
 *
 * Every probe starts tiny one-thread "child" kernels that do real work (atomics
 * on one record: the earliest start, the latest end, a count and the sum of
 * their arguments), so no kernel is empty and every launch can be counted.
 * Times on the device come from %globaltimer, one clock for every SM; host
 * times are mapped onto it through the run's clock alignment (dev.clock).
 *
 * 1. host (table "host"): one launch into an idle stream, from the host clock
 *    just before the call to the child's first %globaltimer reading (plus the
 *    alignment's uncertainty); then K launches back to back in one stream:
 *    host time per launch call, and device time per kernel (first start to
 *    last end, / K). Whichever side is slower sets the pace: "bound" says
 *    which one it was.
 * 2. graph (table "host"): the same K kernels captured once into a graph and
 *    instantiated outside the timing: the host's cudaGraphLaunch call, the
 *    start of the first node, and the device time per node.
 * 3. device (table "device-one"): one thread launches K children into the
 *    block's implicit NULL stream, cudaStreamFireAndForget or
 *    cudaStreamTailLaunch: time per launch call on the device clock (around
 *    the launch loop, every launch checked), and time until every child has
 *    run (loop start to the last child's end), / K.
 * 4. many (table "device-many"): one launching thread in each of #SMs blocks,
 *    M = K children each: launches per microsecond, all threads together.
 * 5. latency (table "device-latency"): the parent's clock just before one
 *    launch to the child's first reading, for each stream; a tail child cannot
 *    start before its parent grid ends, so its latency from the parent's last
 *    reading is reported too.
 * 6. device-graph (table "device-graph"): the graph of part 2, instantiated
 *    with cudaGraphInstantiateFlagDeviceLaunch and uploaded, launched from a
 *    kernel (itself a node of a host graph, as device graph launch requires)
 *    with cudaStreamGraphFireAndForget and cudaStreamGraphTailLaunch. Where
 *    the runtime refuses it, the row is SKIP with the error.
 *
 * Model and claims. A graph hands the device its K kernels at once, so a node
 * should cost the device less than a stream launch does (claim, timing:
 * PASS/FAIL from this run). A tail-launched child starts after its parent grid
 * has ended (ordering: every run, every tail row). Every child that was
 * launched ran, once, with its own argument (data check: count and sum).
 * Published figures for an H200 (about 2.5 us per back-to-back host launch,
 * 1.3 us per graph node) are printed beside this run's; none exists for CDP2
 * launches on sm_90, so no claim rests on a guessed number.
 *
 * CDP2 has no overflow for pending launches: a launch beyond
 * cudaLimitDevRuntimePendingLaunchCount fails (cudaErrorLaunchPendingCountExceeded).
 * Tail children cannot start before their parent ends, so all of them are
 * pending at once: the pool is sized to the largest burst (#SMs x M in part 4)
 * before the first device-side launch, and the size is printed.
 *
 * Run:   make run-launch-latency
 *        make run-launch-latency ARGS="--part device --launches 10000"
 *        make run-launch-latency ARGS="--part device-graph --repeat 100"
 * Nsight Systems (make profile-launch-latency): NVTX ranges "part=<part>";
 * streams "host launches", "graph launches" and "device parents". In part 1
 * the CUDA API row shows K cudaLaunchKernel calls whose spacing is the host's
 * issue cost; in part 2 one cudaGraphLaunch. Children launched from device
 * code are not traced by nsys: only their parents appear, and the numbers of
 * parts 3 to 6 are this program's own %globaltimer readings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_device_check.cuh"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_spans.cuh"

enum { PART_ALL, PART_HOST, PART_GRAPH, PART_DEVICE, PART_MANY, PART_LATENCY, PART_DEVICE_GRAPH };
enum { KIND_NULL, KIND_FIRE_AND_FORGET, KIND_TAIL, N_KINDS };
static const char *const kind_names[N_KINDS] = {"null stream", "fire-and-forget", "tail"};

static const size_t default_pending_pool = 2048; /* cudaLimitDevRuntimePendingLaunchCount when nobody sets it */

/* Published figures for an H200, in us per launch. */
static const double published_host_launch_us = 2.5; /* back-to-back host launches in one stream */
static const double published_graph_node_us = 1.3;  /* one kernel node of a graph */

/* What one run leaves on the device: children fill the first four fields,
 * launching threads (or the graph launcher) the rest. */
typedef struct probe_record {
    unsigned long long first_start;  /* earliest first %globaltimer reading of any child (atomicMin) */
    unsigned long long last_end;     /* latest last reading of any child (atomicMax) */
    unsigned long long ran;          /* children that ran */
    unsigned long long token_sum;    /* sum of the children's arguments: their work's result */
    unsigned long long before_first; /* earliest launcher reading just before its first launch (atomicMin) */
    unsigned long long after_first;  /* latest launcher reading just after its first launch call returned */
    unsigned long long after_last;   /* latest launcher reading after its last launch was checked */
    unsigned long long parent_end;   /* latest launcher reading, its last instruction before it exits */
    unsigned long long launched;     /* device-side launch calls that returned cudaSuccess */
} probe_record;

/* ---- kernels ------------------------------------------------------------------ */

/* The grid being started: one thread records when it ran and adds its token. */
__global__ void child(probe_record *r, unsigned long long token)
{
    unsigned long long t0 = gl_globaltimer();
    atomicMin(&r->first_start, t0);
    atomicAdd(&r->ran, 1ULL);
    atomicAdd(&r->token_sum, token);
    atomicMax(&r->last_end, gl_globaltimer());
}

/* A launcher's readings, folded into the record; its last reading comes last. */
__device__ void record_launcher(probe_record *r, unsigned long long before, unsigned long long after_first,
                                unsigned long long after_last, unsigned long long launched)
{
    atomicMin(&r->before_first, before);
    atomicMax(&r->after_first, after_first);
    atomicMax(&r->after_last, after_last);
    atomicAdd(&r->launched, launched);
    atomicMax(&r->parent_end, gl_globaltimer());
}

/* Each thread launches n children into the stream kind names and checks every
 * launch. It runs as one-thread blocks: each NULL stream (one per block) has
 * one launcher. */
__global__ void parent(probe_record *r, gl_dev_error *err, int kind, int n)
{
    unsigned long long before = gl_globaltimer(), after_first = 0, launched = 0;
    for (int i = 0; i < n; i++) {
        if (kind == KIND_NULL) child<<<1, 1>>>(r, (unsigned long long)i + 1);
        else if (kind == KIND_FIRE_AND_FORGET) child<<<1, 1, 0, cudaStreamFireAndForget>>>(r, (unsigned long long)i + 1);
        else child<<<1, 1, 0, cudaStreamTailLaunch>>>(r, (unsigned long long)i + 1);
        if (i == 0) after_first = gl_globaltimer();
        cudaError_t e = cudaGetLastError();
        GL_DEVICE_CHECK(err, e);
        launched += e == cudaSuccess;
    }
    record_launcher(r, before, after_first, gl_globaltimer(), launched);
}

/* Launch a device graph once. Its error goes to a record of its own, so that
 * a runtime without device graph launch skips the row instead of failing it. */
__global__ void graph_launcher(cudaGraphExec_t exec, int tail, probe_record *r, gl_dev_error *err)
{
    unsigned long long before = gl_globaltimer();
    cudaError_t e = cudaGraphLaunch(exec, tail ? cudaStreamGraphTailLaunch : cudaStreamGraphFireAndForget);
    unsigned long long after = gl_globaltimer();
    GL_DEVICE_CHECK(err, e);
    record_launcher(r, before, after, after, e == cudaSuccess);
}

/* ---- host: runs and their bookkeeping -------------------------------------------- */

/* What the runs of one row showed, warm-up included. */
typedef struct tally {
    unsigned long long runs;                   /* runs made */
    unsigned long long ran, expected;          /* children that ran, and launched */
    unsigned long long sum, expected_sum;      /* their tokens added up, and what they should add up to */
    unsigned long long launched, expected_dev; /* device-side launch calls that succeeded, and made */
    long long ordered, ordered_runs;           /* tail runs whose children all started after the parent's end */
    double worst_margin_ns;                    /* the smallest first child start - parent end in those */
} tally;

/* Everything the parts share. */
typedef struct lab {
    gl_device *dev;             /* the GPU, with the clock alignment */
    int launches;               /* K: kernels per burst (per launching thread on the device) */
    probe_record *d_rec;        /* the record every run fills */
    gl_dev_error *d_err;        /* failed child launches: fatal (exit 3) */
    gl_dev_error *d_graph_err;  /* failed device graph launches: the row is skipped */
    double timeout_s;           /* longest any run may take before it counts as hung */
    cudaStream_t stream;        /* the stream of the part in progress */
    int kind, blocks, n;        /* the device configuration of the row in progress */
    cudaGraphExec_t exec;       /* the host graph (part 2), or the launcher graph (part 6) */
    tally t;                    /* the row in progress */
    const gl_row *stream_row;   /* part 1's burst, for the graph claim and the published figures */
    const gl_row *graph_row;    /* part 2, for the published figures */
} lab;

/* Nanoseconds from one reading to a later one, negative when it was earlier. */
static double ns_between(unsigned long long from, unsigned long long to) { return (double)(long long)(to - from); }

/* Put the record back to "nothing seen" before a run. */
static void record_reset(lab *L)
{
    probe_record init;
    memset(&init, 0, sizeof init);
    init.first_start = init.before_first = ~0ULL;
    CUDA_CHECK(cudaMemcpyAsync(L->d_rec, &init, sizeof init, cudaMemcpyHostToDevice, L->stream));
    gl_stream_wait(L->stream, L->timeout_s, "the record's reset");
}

/* Wait for a run (a grid is complete only when its children are), check the
 * device-side launches, fetch the record and count it into the row's tally:
 * children launched with tokens 1..n by each of parents launchers, dev_calls
 * of them made from device code. */
static probe_record finish_run(lab *L, const char *what, int parents, int n, int dev_calls)
{
    gl_stream_wait(L->stream, L->timeout_s, what);
    gl_dev_error_check(L->d_err);
    probe_record r;
    CUDA_CHECK(cudaMemcpy(&r, L->d_rec, sizeof r, cudaMemcpyDeviceToHost));
    tally *t = &L->t;
    t->runs++;
    t->ran += r.ran;
    t->expected += (unsigned long long)parents * n;
    t->sum += r.token_sum;
    t->expected_sum += (unsigned long long)parents * n * ((unsigned long long)n + 1) / 2;
    t->launched += r.launched;
    t->expected_dev += (unsigned long long)dev_calls;
    return r;
}

/* A tail run: did its first child start after the launcher's last reading? */
static void count_order(lab *L, const probe_record *r)
{
    double margin = ns_between(r->parent_end, r->first_start);
    if (L->t.ordered_runs == 0 || margin < L->t.worst_margin_ns) L->t.worst_margin_ns = margin;
    L->t.ordered_runs++;
    L->t.ordered += margin >= 0;
}

/* The row's checks: every child ran, once, with its own token; tail rows also
 * claim the order. */
static void judge_row(lab *L, gl_report *rep, gl_row *row, int tail)
{
    const tally *t = &L->t;
    gl_buf text = GL_BUF_INIT, evidence = GL_BUF_INIT;
    gl_buf_printf(&text, "%s %s: every launched child ran, once, with its own argument", row->table, row->variant);
    gl_buf_printf(&evidence, "%llu of %llu ran, token sum %llu of %llu, %llu of %llu device-side calls succeeded, "
                  "%llu runs", t->ran, t->expected, t->sum, t->expected_sum, t->launched, t->expected_dev, t->runs);
    gl_check_evidence(rep, row, t->ran == t->expected && t->sum == t->expected_sum && t->launched == t->expected_dev,
                      gl_buf_str(&text), gl_buf_str(&evidence));
    gl_buf_free(&text);
    gl_buf_free(&evidence);
    if (!tail) return;
    char what[96];
    snprintf(what, sizeof what, "runs (worst first child start - parent's last reading: %.3f us)",
             t->worst_margin_ns / 1e3);
    gl_claim_every(rep, row, GL_CLAIM_ORDERING, "a tail-launched child starts after its parent grid ended",
                   t->ordered, t->ordered_runs, what, "no tail run was made");
}

/* Start a row's tally and its sampler, with the series the row measures
 * (a NULL-terminated list of name, unit pairs; the first shows min and noise). */
static void begin_row(lab *L, gl_sampler *smp, const gl_common *common, ...)
{
    memset(&L->t, 0, sizeof L->t);
    gl_device_sampler(smp, L->dev, common);
    va_list ap;
    va_start(ap, common);
    unsigned flags = GL_SHOW_MIN | GL_SHOW_NOISE;
    for (const char *name; (name = va_arg(ap, const char *)) != NULL; flags = GL_SHOW_NOISE)
        gl_sampler_series(smp, name, va_arg(ap, const char *), 3, flags);
    va_end(ap);
}

/* ---- part 1: host launches into a stream ------------------------------------------ */

/* One launch into an idle stream: its host call, and its start on the device. */
static void sample_host_single(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    record_reset(L);
    double h0 = gl_host_ns();
    child<<<1, 1, 0, L->stream>>>(L->d_rec, 1);
    double h1 = gl_host_ns();
    CUDA_CHECK_LAUNCH("child");
    probe_record r = finish_run(L, "one host launch", 1, 1, 0);
    /* TODO(core): dev.clock.offset_ns is a double; if %globaltimer counts from the
     * Unix epoch (about 1.7e18 ns) it holds the offset in 256 ns steps only. An
     * integer offset in gl_clock_align would remove that from every aligned time. */
    gl_sample_put(smp, "latency", ((double)r.first_start - L->dev->clock.offset_ns - h0) / 1e3);
    gl_sample_put(smp, "call", (h1 - h0) / 1e3);
}

/* K launches back to back. The last error is sticky until read, so one check
 * after the loop catches a failed launch without timing K checks. */
static void sample_host_burst(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    int k = L->launches;
    record_reset(L);
    double h0 = gl_host_ns();
    for (int i = 0; i < k; i++) child<<<1, 1, 0, L->stream>>>(L->d_rec, (unsigned long long)i + 1);
    double h1 = gl_host_ns();
    CUDA_CHECK_LAUNCH("child (burst)");
    probe_record r = finish_run(L, "a burst of host launches", 1, k, 0);
    gl_sample_put(smp, "host_per_launch", (h1 - h0) / k / 1e3);
    gl_sample_put(smp, "device_per_launch", ns_between(r.first_start, r.last_end) / k / 1e3);
}

/* Part 1: one launch into an idle stream, then K back to back. */
static void part_host(lab *L, gl_report *rep, const gl_common *common)
{
    gl_sampler smp;
    gl_row *row = gl_report_row(rep, "host", "stream, one launch");
    gl_row_param_num(row, "launches", "", 0, 1);
    if (!L->dev->clock.valid) {
        gl_row_skip(row, "the host and device clocks could not be aligned");
    } else {
        begin_row(L, &smp, common, "latency", "us", "call", "us", (const char *)NULL);
        gl_sampler_run(&smp, row, sample_host_single, L);
        gl_row_number(row, "clock_uncertainty", "us", 3, 0, L->dev->clock.uncertainty_ns / 1e3);
        judge_row(L, rep, row, 0);
        gl_sampler_free(&smp);
    }

    row = gl_report_row(rep, "host", "stream, back to back");
    gl_row_param_num(row, "launches", "", 0, L->launches);
    begin_row(L, &smp, common, "device_per_launch", "us", "host_per_launch", "us", (const char *)NULL);
    gl_sampler_run(&smp, row, sample_host_burst, L);
    /* When the host's calls take (nearly) as long as the device's kernels, the device waited for the host. */
    double host = gl_row_find(row, "host_per_launch")->stats.median;
    double device = gl_row_find(row, "device_per_launch")->stats.median;
    gl_row_text(row, "bound", 0, "%s", host >= 0.9 * device ? "host" : "device");
    judge_row(L, rep, row, 0);
    gl_sampler_free(&smp);
    L->stream_row = row;
}

/* ---- part 2: a graph of the same K kernels ---------------------------------------------- */

/* Capture K child launches into a graph (instantiated by the caller, once). */
static cudaGraph_t capture_burst(lab *L)
{
    cudaGraph_t g;
    CUDA_CHECK(cudaStreamBeginCapture(L->stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < L->launches; i++) child<<<1, 1, 0, L->stream>>>(L->d_rec, (unsigned long long)i + 1);
    CUDA_CHECK_LAUNCH("child (captured)");
    CUDA_CHECK(cudaStreamEndCapture(L->stream, &g));
    return g;
}

/* One launch of the instantiated graph. */
static void sample_graph(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    record_reset(L);
    double h0 = gl_host_ns();
    CUDA_CHECK(cudaGraphLaunch(L->exec, L->stream));
    double h1 = gl_host_ns();
    probe_record r = finish_run(L, "the graph", 1, L->launches, 0);
    gl_sample_put(smp, "device_per_launch", ns_between(r.first_start, r.last_end) / L->launches / 1e3);
    gl_sample_put(smp, "graph_call", (h1 - h0) / 1e3);
    if (L->dev->clock.valid) gl_sample_put(smp, "latency", ((double)r.first_start - L->dev->clock.offset_ns - h0) / 1e3);
}

/* Part 2: the graph of K nodes, instantiated here (outside the timing), and the claim against part 1. */
static void part_graph(lab *L, gl_report *rep, const gl_common *common, cudaGraph_t g)
{
    gl_row *row = gl_report_row(rep, "host", "graph of K nodes");
    gl_row_param_num(row, "launches", "", 0, L->launches);
    CUDA_CHECK(cudaGraphInstantiate(&L->exec, g, 0));
    gl_sampler smp;
    if (L->dev->clock.valid)
        begin_row(L, &smp, common, "device_per_launch", "us", "graph_call", "us", "latency", "us", (const char *)NULL);
    else
        begin_row(L, &smp, common, "device_per_launch", "us", "graph_call", "us", (const char *)NULL);
    gl_sampler_run(&smp, row, sample_graph, L);
    judge_row(L, rep, row, 0);
    gl_sampler_free(&smp);
    CUDA_CHECK(cudaGraphExecDestroy(L->exec));
    L->graph_row = row;

    const char *text = "a graph node costs the device less than a back-to-back stream launch";
    if (L->stream_row)
        gl_claim_ratio_at_most(rep, row, GL_CLAIM_TIMING, text, "graph us/node",
                               gl_row_find(row, "device_per_launch")->stats.median, "stream us/launch",
                               gl_row_find(L->stream_row, "device_per_launch")->stats.median, 1.0);
    else
        gl_claim_skip(rep, row, GL_CLAIM_TIMING, text, "n/a: the stream burst was not measured (--part all or host)");
}

/* ---- parts 3 to 5: launches from device code ------------------------------------------ */

/* One grid of L->blocks launching threads, L->n children each. */
static probe_record run_parents(lab *L)
{
    record_reset(L);
    parent<<<L->blocks, 1, 0, L->stream>>>(L->d_rec, L->d_err, L->kind, L->n);
    CUDA_CHECK_LAUNCH("parent");
    probe_record r = finish_run(L, "the device-side launches", L->blocks, L->n, L->blocks * L->n);
    if (L->kind == KIND_TAIL) count_order(L, &r);
    return r;
}

/* Part 3: one thread, K launches; per launch call, and until all have run. */
static void sample_device_one(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    probe_record r = run_parents(L);
    gl_sample_put(smp, "call", ns_between(r.before_first, r.after_last) / L->n / 1e3);
    gl_sample_put(smp, "all_run", ns_between(r.before_first, r.last_end) / L->n / 1e3);
}

/* Part 4: #SMs threads at once; launches per microsecond, all together. */
static void sample_device_many(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    probe_record r = run_parents(L);
    double total = (double)L->blocks * L->n;
    gl_sample_put(smp, "launch_rate", total / (ns_between(r.before_first, r.after_last) / 1e3));
    gl_sample_put(smp, "run_rate", total / (ns_between(r.before_first, r.last_end) / 1e3));
}

/* Part 5: one launch; the parent's clock before it to the child's first reading. */
static void sample_device_latency(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    probe_record r = run_parents(L);
    gl_sample_put(smp, "latency", ns_between(r.before_first, r.first_start) / 1e3);
    gl_sample_put(smp, "call", ns_between(r.before_first, r.after_first) / 1e3);
    if (L->kind == KIND_TAIL) gl_sample_put(smp, "after_parent_end", ns_between(r.parent_end, r.first_start) / 1e3);
}

enum { PROBE_ONE, PROBE_MANY, PROBE_LATENCY }; /* parts 3, 4 and 5 */

/* Part 3, 4 or 5: one row per stream kind. */
static void part_device(lab *L, gl_report *rep, const gl_common *common, int probe)
{
    static const char *const tables[] = {"device-one", "device-many", "device-latency"};
    static const gl_sample_fn samples[] = {sample_device_one, sample_device_many, sample_device_latency};
    L->blocks = probe == PROBE_MANY ? L->dev->sms : 1;
    L->n = probe == PROBE_LATENCY ? 1 : L->launches;
    for (int k = 0; k < N_KINDS; k++) {
        gl_row *row = gl_report_row(rep, tables[probe], kind_names[k]);
        gl_row_param_num(row, "parents", "", 0, L->blocks);
        gl_row_param_num(row, "launches", "", 0, L->n);
        L->kind = k;
        gl_sampler smp;
        if (probe == PROBE_ONE)
            begin_row(L, &smp, common, "call", "us", "all_run", "us", (const char *)NULL);
        else if (probe == PROBE_MANY)
            begin_row(L, &smp, common, "launch_rate", "1/us", "run_rate", "1/us", (const char *)NULL);
        else if (k == KIND_TAIL)
            begin_row(L, &smp, common, "latency", "us", "call", "us", "after_parent_end", "us", (const char *)NULL);
        else
            begin_row(L, &smp, common, "latency", "us", "call", "us", (const char *)NULL);
        gl_sampler_run(&smp, row, samples[probe], L);
        judge_row(L, rep, row, k == KIND_TAIL);
        gl_sampler_free(&smp);
    }
}

/* ---- part 6: device graph launch ------------------------------------------------------ */

/* One launch of the host graph whose one kernel launches the device graph. */
static probe_record run_device_graph(lab *L)
{
    record_reset(L);
    CUDA_CHECK(cudaGraphLaunch(L->exec, L->stream));
    return finish_run(L, "the device graph launch", 1, L->launches, 1);
}

/* Part 6: one device graph launch; its nodes' span, its start and its call. */
static void sample_device_graph(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    probe_record r = run_device_graph(L);
    gl_dev_error_check(L->d_graph_err); /* it worked in the validation run: a failure now is an error */
    if (L->kind == KIND_TAIL) count_order(L, &r);
    gl_sample_put(smp, "device_per_launch", ns_between(r.first_start, r.last_end) / L->launches / 1e3);
    gl_sample_put(smp, "latency", ns_between(r.before_first, r.first_start) / 1e3);
    gl_sample_put(smp, "call", ns_between(r.before_first, r.after_first) / 1e3);
    if (L->kind == KIND_TAIL) gl_sample_put(smp, "after_parent_end", ns_between(r.parent_end, r.first_start) / 1e3);
}

/* The graph g as a device graph; each launch mode runs once to see whether
 * the runtime accepts it (else the row is SKIP with the error), then is timed. */
static void part_device_graph(lab *L, gl_report *rep, const gl_common *common, cudaGraph_t g)
{
    static const char *const modes[2] = {"fire-and-forget", "tail"};
    cudaGraphExec_t device_exec = NULL;
    const char *step = "cudaGraphInstantiate(cudaGraphInstantiateFlagDeviceLaunch)";
    cudaError_t e = cudaGraphInstantiate(&device_exec, g, cudaGraphInstantiateFlagDeviceLaunch);
    if (e == cudaSuccess) {
        step = "cudaGraphUpload";
        e = cudaGraphUpload(device_exec, L->stream);
        if (e == cudaSuccess) gl_stream_wait(L->stream, L->timeout_s, "the device graph's upload");
    }
    if (e != cudaSuccess) (void)cudaGetLastError(); /* the refusal is the result; clear it */

    for (int m = 0; m < 2; m++) {
        int tail = m == 1;
        gl_row *row = gl_report_row(rep, "device-graph", modes[m]);
        gl_row_param_num(row, "launches", "", 0, L->launches);
        if (e != cudaSuccess) {
            gl_row_skip(row, "%s failed: %s (%s)", step, cudaGetErrorName(e), cudaGetErrorString(e));
            continue;
        }
        /* A device graph can only be launched from device code by a kernel
         * that runs as part of a graph itself: the launcher is captured too. */
        cudaGraph_t launcher;
        CUDA_CHECK(cudaStreamBeginCapture(L->stream, cudaStreamCaptureModeThreadLocal));
        graph_launcher<<<1, 1, 0, L->stream>>>(device_exec, tail, L->d_rec, L->d_graph_err);
        CUDA_CHECK_LAUNCH("graph_launcher (captured)");
        CUDA_CHECK(cudaStreamEndCapture(L->stream, &launcher));
        CUDA_CHECK(cudaGraphInstantiate(&L->exec, launcher, 0));
        L->kind = tail ? KIND_TAIL : KIND_FIRE_AND_FORGET;

        run_device_graph(L); /* validation: does the runtime accept the launch? */
        gl_dev_error refused;
        gl_dev_error_read(L->d_graph_err, &refused);
        if (refused.count) {
            gl_buf why = GL_BUF_INIT;
            gl_dev_error_describe(&refused, &why);
            gl_row_skip(row, "device-side cudaGraphLaunch failed: %s", gl_buf_str(&why));
            gl_buf_free(&why);
            gl_dev_error_reset(L->d_graph_err);
        } else {
            gl_sampler smp;
            if (tail)
                begin_row(L, &smp, common, "device_per_launch", "us", "latency", "us", "call", "us", "after_parent_end",
                          "us", (const char *)NULL);
            else
                begin_row(L, &smp, common, "device_per_launch", "us", "latency", "us", "call", "us", (const char *)NULL);
            gl_sampler_run(&smp, row, sample_device_graph, L);
            judge_row(L, rep, row, tail);
            gl_sampler_free(&smp);
        }
        CUDA_CHECK(cudaGraphExecDestroy(L->exec));
        CUDA_CHECK(cudaGraphDestroy(launcher));
    }
    if (device_exec) CUDA_CHECK(cudaGraphExecDestroy(device_exec));
}

/* ---- host: setup and the published figures -------------------------------------------- */

/* Reserve room for n pending device-side launches (never less than the
 * default) before each device part, and say what it cost in device memory.
 * Each part gets the smallest pool it needs: a larger pool makes every device
 * launch slower (nested-reduce measured one tail launch at 28 us with the
 * default pool and 285 us with 599186). The runtime clamps the limit without
 * an error, so the value is read back.
 * TODO(core): nested-hello sizes the same pool inline; a gl_pending_pool(n)
 * in the core (set, measure, refuse with 77 when it does not fit) would serve both. */
static void reserve_pending_pool(size_t need, const char *why)
{
    size_t pool = need > default_pending_pool ? need : default_pending_pool;
    size_t free_before = 0, free_after = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
    cudaError_t e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, pool);
    if (e != cudaSuccess)
        gl_no_gpu("a pool of %zu pending device-side launches does not fit on this GPU: %s (%s); use a smaller "
                  "--launches", pool, cudaGetErrorName(e), cudaGetErrorString(e));
    CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
    CUDA_CHECK(cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount));
    if (pool < need)
        gl_no_gpu("the runtime set the pending-launch pool to %zu, below the %zu this part needs; use a smaller "
                  "--launches", pool, need);
    double mib = free_before > free_after ? (double)(free_before - free_after) / (1 << 20) : 0;
    printf("pending-launch pool: %zu launches (%zu pending at once at most: %s; default %zu), free device memory "
           "%.1f MiB lower after setting it\n", pool, need, why, default_pending_pool, mib);
}

/* One line of the published-figures block. */
static void print_published(const char *what, double published, const gl_row *row)
{
    if (!row || row->skip_reason) return;
    double measured = gl_row_find(row, "device_per_launch")->stats.median;
    printf("  %-46s %9.2f %9.3f %7.2fx\n", what, published, measured, measured / published);
}

/* Does the --part choice include part p? */
static int runs(int part, int p) { return part == PART_ALL || part == p; }

/* ---- host: main ----------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "launch-latency",
        "what does it cost to start a grid: from the host, in a graph, and from device code (CDP2, device graphs)?",
        "Parts: host (stream launches), graph (K-node graph), device (one thread launching K children per CDP2\n"
        "stream), many (#SMs threads launching K each), latency (device child-start latency), device-graph."};
    int launches = 1000, part = PART_ALL;
    gl_option opts[] = {
        {"launches", GL_OPT_INT, &launches, 1, 100000, NULL, "100",
         "kernels per burst: K from the host or in the graph, K per launching thread on the device", 0},
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|host|graph|device|many|latency|device-graph", NULL, "which part to run", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    if (common.trace_path || common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: launch-latency records no spans (its children keep one record "
                              "per run, not one per grid)");

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);

    lab L;
    memset(&L, 0, sizeof L);
    L.dev = &dev;
    L.launches = launches;
    /* The longest run: the many-thread tail burst, #SMs x K children one after another. */
    L.timeout_s = 60 + 1e-4 * (double)dev.sms * launches;
    CUDA_CHECK(cudaMalloc((void **)&L.d_rec, sizeof(probe_record)));
    L.d_err = gl_dev_error_create();
    L.d_graph_err = gl_dev_error_create();
    cudaStream_t host_stream, graph_stream, device_stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&host_stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&graph_stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&device_stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(host_stream, "host launches");
    gl_nvtx_name_stream(graph_stream, "graph launches");
    gl_nvtx_name_stream(device_stream, "device parents");
    printf("K = %d kernels per burst; %d launching threads in part many\n", launches, dev.sms);

    if (runs(part, PART_HOST)) {
        gl_nvtx_push("part=host");
        L.stream = host_stream;
        part_host(&L, &rep, &common);
        gl_nvtx_pop();
    }
    cudaGraph_t burst_graph = NULL;
    if (runs(part, PART_GRAPH) || runs(part, PART_DEVICE_GRAPH)) {
        L.stream = graph_stream;
        burst_graph = capture_burst(&L);
    }
    if (runs(part, PART_GRAPH)) {
        gl_nvtx_push("part=graph");
        part_graph(&L, &rep, &common, burst_graph);
        gl_nvtx_pop();
    }
    L.stream = device_stream;
    if (runs(part, PART_DEVICE)) {
        reserve_pending_pool((size_t)launches, "part device, one thread x K");
        gl_nvtx_push("part=device");
        part_device(&L, &rep, &common, PROBE_ONE);
        gl_nvtx_pop();
    }
    if (runs(part, PART_MANY)) {
        reserve_pending_pool((size_t)dev.sms * launches, "part many, #SMs threads x K");
        gl_nvtx_push("part=many");
        part_device(&L, &rep, &common, PROBE_MANY);
        gl_nvtx_pop();
    }
    if (runs(part, PART_LATENCY)) {
        reserve_pending_pool(1, "part latency, one launch at a time");
        gl_nvtx_push("part=latency");
        part_device(&L, &rep, &common, PROBE_LATENCY);
        gl_nvtx_pop();
    }
    if (runs(part, PART_DEVICE_GRAPH)) {
        reserve_pending_pool(1, "part device-graph, one graph launch at a time");
        gl_nvtx_push("part=device-graph");
        part_device_graph(&L, &rep, &common, burst_graph);
        gl_nvtx_pop();
    }

    if (L.stream_row || L.graph_row) {
        printf("\npublished figures (H200) and this run, device time per launch:\n");
        printf("  %-46s %9s %9s %8s\n", "", "published", "measured", "ratio");
        print_published("host launches back to back in one stream, us", published_host_launch_us, L.stream_row);
        print_published("graph node, us", published_graph_node_us, L.graph_row);
        printf("  (no published figure for CDP2 device-side launches on sm_90: see the device tables)\n");
    }

    if (burst_graph) CUDA_CHECK(cudaGraphDestroy(burst_graph));
    CUDA_CHECK(cudaStreamDestroy(host_stream));
    CUDA_CHECK(cudaStreamDestroy(graph_stream));
    CUDA_CHECK(cudaStreamDestroy(device_stream));
    gl_dev_error_destroy(L.d_err);
    gl_dev_error_destroy(L.d_graph_err);
    CUDA_CHECK(cudaFree(L.d_rec));
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
