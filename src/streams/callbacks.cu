/* callbacks.cu - host functions in streams: what they see, what they cost, and what a slow one holds back.
 *
 * Question: does a stream's host function see its stream's finished data, what does it cost, and what does a slow one hold back?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * A host function (cudaLaunchHostFunc, or the older cudaStreamAddCallback)
 * runs on a driver thread once everything before it in its stream has ended;
 * it may not call CUDA. Tables:
 *   pattern  the textbook's stream callbacks: S blocking streams, each an H2D
 *            of its own random integers, a kernel that transforms them, a D2H
 *            back, then a host function that compares them with the CPU
 *            reference. Per API, and a control whose function comes before
 *            the D2H (it must see none of them). Beside each, the API's cost
 *            from the core's calibration (gl_hostfns.h): host time per call,
 *            time in the stream per function.
 *   slow     host functions of --hostfn-us (D) between kernels of --kernel-us
 *            (T), run by gl_schedrun.h and simulated by the core's model with
 *            the run's measured host times. "one function": A: kernel,
 *            function, kernel; B: two kernels of T/2, the second issued right
 *            behind A's function. "two functions": B gets a function too.
 * The model (gl_sched.h, "Host functions"): a function is an entry of its
 * stream's hardware queue that, at the head, waits for its stream, then
 * leaves for the driver's thread (which wakes first if it slept) and runs D
 * plus the calibrated time in the stream; two run one at a time. The wake is
 * the run's own, a fit: the first function's start (host clock, aligned to
 * the GPU's) after its stream's kernel ended. Timed just before a run it did
 * not foretell the run's (57 us against 60-470 in one process; FINDINGS), so
 * the claims test what is left: a function holds its stream for its own time,
 * which stream it holds, and one at a time; each row reports both wakes
 * ("wake us", "wake before us"). So A's next
 * kernel waits D and more; B's kernel behind A's function waits only for A's
 * kernel, even at C=1; with two functions, one may wait for the other.
 * Claims (timing): each wait (a kernel's start less the end of its stream's
 * kernel before the function) within --tolerance (10%) + 5 us of the
 * simulation's, makespan and peak concurrency likewise; the two functions ran
 * one at a time (host clock) where the calibration found so. Checks: every
 * function saw its stream's results (the control none), every kernel ran.
 *
 * Run:   make run-callbacks ARGS="--connections 1,8"
 * Nsight Systems (make profile-callbacks): NVTX ranges "pattern <api>", "slow
 * <row>"; streams "stream N", "stream A", "stream B". --trace and --timeline
 * show each slow row's last run beside its simulation.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_check.h"
#include "gl_cuda.h"
#include "gl_hostfns.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"

enum { MAX_STREAMS = 32, ROUNDS = 16, WARP = 32 };
static int per_sm; /* one-warp work blocks that fit on an SM */

/* ---- the textbook's pattern: each stream's data, transformed, seen by its host function ---------------------- */

/* ROUNDS of a 32-bit integer mix: real work per element, and an exact answer on the CPU. */
__host__ __device__ static inline uint32_t mix(uint32_t x)
{
    for (uint32_t r = 0; r < ROUNDS; r++) {
        x = (x ^ (x >> 16)) * 0x7feb352dU;
        x = (x ^ (x >> 15)) * 0x846ca68bU;
        x = (x ^ (x >> 16)) + r;
    }
    return x;
}

__global__ void transform(const uint32_t *in, uint32_t *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = mix(in[i]);
}

enum { API_LAUNCH = GL_HOSTFN_LAUNCH, API_CALLBACK = GL_HOSTFN_CALLBACK, API_CONTROL, N_APIS };
static const char *const api_name[N_APIS] = {"cudaLaunchHostFunc", "cudaStreamAddCallback",
                                             "control (before the D2H)"};

/* What one stream's host function saw when it ran. */
typedef struct seen {
    const uint32_t *got, *ref; /* the stream's results (pinned, where its D2H lands) and their CPU reference */
    size_t n;                  /* how many */
    cudaError_t status;        /* what cudaStreamAddCallback passed it (cudaSuccess for cudaLaunchHostFunc) */
    gl_mismatch m;             /* the results against the reference, as the function found them */
    int ran;                   /* set last: the function ran */
} seen;

/* The host function: compare on the driver's thread, with no CUDA call (none is allowed there). */
static void CUDART_CB look(void *arg)
{
    seen *v = (seen *)arg;
    v->m = gl_compare(GL_U32, v->ref, v->got, v->n, 0, 0);
    v->ran = 1;
}
static void CUDART_CB look_cb(cudaStream_t, cudaError_t status, void *arg)
{
    ((seen *)arg)->status = status;
    look(arg);
}

typedef struct pattern {
    int streams, api;                  /* S, and the API (or the control) of this row */
    size_t n;                          /* elements per stream */
    unsigned blocks;                   /* the transform's grid, per stream */
    cudaStream_t stream[MAX_STREAMS];  /* blocking streams, as the textbook makes them */
    uint32_t *h_in, *h_out, *ref;      /* pinned input and results, the CPU reference (d_: on the device) */
    uint32_t *d_in, *d_out;
    seen fn[MAX_STREAMS];              /* what the last run's functions saw */
    long long functions, good;         /* functions run in this row, and those that saw what they should */
    long long runs, runs_good;         /* runs, and those whose results all matched once the streams had ended */
    gl_mismatch after;                 /* the first run whose results did not */
    seen bad;                          /* the first that did not, and its stream (-1: none yet) */
    int bad_stream;
} pattern;

/* One run of the pattern, depth-first as the textbook issues it; its host time, and what each function saw. */
static void run_pattern(gl_sample *smp, void *arg)
{
    pattern *P = (pattern *)arg;
    size_t total = (size_t)P->streams * P->n, bytes = P->n * sizeof(uint32_t);
    for (size_t i = 0; i < total; i++) P->h_out[i] = ~P->ref[i]; /* every result differs until its D2H lands */
    CUDA_CHECK(cudaMemset(P->d_out, 0, total * sizeof(uint32_t))); /* no result left from the run before */
    CUDA_CHECK(cudaMemset(P->d_in, 0, total * sizeof(uint32_t)));  /* nor input: a late H2D shows */
    CUDA_CHECK(cudaDeviceSynchronize());
    double t0 = gl_host_ns();
    for (int s = 0; s < P->streams; s++) {
        size_t off = (size_t)s * P->n;
        cudaStream_t st = P->stream[s];
        seen *v = &P->fn[s];
        memset(v, 0, sizeof *v);
        v->got = P->h_out + off, v->ref = P->ref + off, v->n = P->n, v->status = cudaSuccess;
        CUDA_CHECK(cudaMemcpyAsync(P->d_in + off, P->h_in + off, bytes, cudaMemcpyHostToDevice, st));
        transform<<<P->blocks, 256, 0, st>>>(P->d_in + off, P->d_out + off, P->n);
        CUDA_CHECK_LAUNCH("transform");
        if (P->api == API_CONTROL) CUDA_CHECK(cudaLaunchHostFunc(st, look, v));
        CUDA_CHECK(cudaMemcpyAsync(P->h_out + off, P->d_out + off, bytes, cudaMemcpyDeviceToHost, st));
        if (P->api == API_LAUNCH) CUDA_CHECK(cudaLaunchHostFunc(st, look, v));
        if (P->api == API_CALLBACK) CUDA_CHECK(cudaStreamAddCallback(st, look_cb, v, 0));
    }
    for (int s = 0; s < P->streams; s++) gl_stream_wait(P->stream[s], 60, "a stream of the pattern");
    gl_sample_put(smp, "time", (gl_host_ns() - t0) / 1e6);
    for (int s = 0; s < P->streams; s++) {
        const seen *v = &P->fn[s];
        int ok = v->ran && v->status == cudaSuccess && v->m.count == (P->api == API_CONTROL ? P->n : 0);
        P->functions++;
        P->good += ok;
        if (!ok && P->bad_stream < 0) P->bad = *v, P->bad_stream = s;
    }
    /* The results themselves, once every stream has ended: tells a wrong kernel from a function run too early. */
    gl_mismatch m = gl_compare(GL_U32, P->ref, P->h_out, total, 0, 0);
    if (m.count && P->runs == P->runs_good) P->after = m;
    P->runs++;
    P->runs_good += m.count == 0;
}

/* The pattern's rows: its data made and checked once per API, beside the API's calibrated costs. */
static void pattern_rows(gl_sched_lab *L, const gl_common *common, const gl_hostfn_machine *h, int streams, size_t n)
{
    static pattern P;
    P.streams = streams, P.n = n;
    size_t total = (size_t)streams * n, bytes = total * sizeof(uint32_t);
    CUDA_CHECK(cudaMallocHost((void **)&P.h_in, bytes)); CUDA_CHECK(cudaMallocHost((void **)&P.h_out, bytes));
    CUDA_CHECK(cudaMalloc((void **)&P.d_in, bytes)); CUDA_CHECK(cudaMalloc((void **)&P.d_out, bytes));
    P.ref = (uint32_t *)gl_xmalloc(bytes);
    gl_fill_u32(P.h_in, total, common->seed, 0, 0, UINT32_MAX);
    for (size_t i = 0; i < total; i++) P.ref[i] = mix(P.h_in[i]);
    long long want = ((long long)n + 255) / 256, most = 8LL * L->dev.sms;
    P.blocks = (unsigned)(want < most ? want : most);
    for (int s = 0; s < streams; s++) {
        CUDA_CHECK(cudaStreamCreate(&P.stream[s]));
        gl_nvtx_name_stream(P.stream[s], "stream %d", s);
    }
    gl_sampler smp;
    gl_device_sampler(&smp, &L->dev, common);
    gl_sampler_series(&smp, "time", "ms", 3, GL_SHOW_MIN);
    for (int api = 0; api < N_APIS; api++) {
        P.api = api, P.functions = P.good = P.runs = P.runs_good = 0, P.bad_stream = -1;
        memset(&P.after, 0, sizeof P.after);
        gl_row *row = gl_report_row(&L->rep, "pattern", api_name[api]);
        gl_row_param_num(row, "connections", "", 0, L->machine.connections);
        gl_row_param_num(row, "streams", "", 0, streams);
        gl_row_param_num(row, "elements", "", 0, (double)n);
        gl_nvtx_push("pattern %s", api_name[api]);
        gl_sampler_run(&smp, row, run_pattern, &P);
        gl_nvtx_pop();
        int cal = api == API_CONTROL ? API_LAUNCH : api; /* the control's function is a cudaLaunchHostFunc */
        gl_row_number(row, "call", "us", 2, 0, h->call_ns[cal] / 1e3);
        gl_row_number(row, "in_stream", "us", 2, 0, h->in_stream_ns[cal] / 1e3);
        gl_buf ev = GL_BUF_INIT;
        gl_buf_printf(&ev, "%lld of %lld functions (%d streams x %lld runs); the results after %lld of %lld runs "
                      "all matched", P.good, P.functions, streams, P.runs, P.runs_good, P.runs);
        if (P.bad_stream >= 0) {
            gl_buf_printf(&ev, "; first wrong: stream %d, %s, status %s, ", P.bad_stream,
                          P.bad.ran ? "ran" : "did not run", cudaGetErrorName(P.bad.status));
            gl_mismatch_summary(&P.bad.m, &ev);
        }
        char text[200];
        snprintf(text, sizeof text, "pattern, %s: every function saw %s its stream's %zu results%s, the host all after "
                 "the run", api_name[api], api == API_CONTROL ? "none of" : "all of", n,
                 api == API_CONTROL ? " yet" : " as the CPU's");
        gl_check_evidence(&L->rep, row, P.good == P.functions && P.runs_good == P.runs, text, gl_buf_str(&ev));
        if (P.bad_stream >= 0 && api != API_CONTROL) gl_mismatch_print(&P.bad.m, stdout, 4);
        gl_mismatch_print(&P.after, stdout, 4); /* prints nothing when every run matched */
        gl_buf_free(&ev);
    }
    gl_sampler_free(&smp);
    for (int s = 0; s < streams; s++) CUDA_CHECK(cudaStreamDestroy(P.stream[s]));
    CUDA_CHECK(cudaFreeHost(P.h_in)); CUDA_CHECK(cudaFreeHost(P.h_out));
    CUDA_CHECK(cudaFree(P.d_in)); CUDA_CHECK(cudaFree(P.d_out));
    free(P.ref);
}

/* ---- slow host functions, as programs the model simulates ---------------------------------------------------- */

enum { LABEL_A1, LABEL_A2, LABEL_B1, LABEL_B2 };
static const char *const label_names[] = {"A1", "A2", "B1", "B2"};
static const char *const track_names[] = {"stream A", "stream B", "?", "?"};

/* A label's or a track's name (ctx: the table of four). */
static void name_of(int i, gl_buf *out, const void *ctx)
{
    gl_buf_printf(out, "%s", i >= 0 && i < 4 ? ((const char *const *)ctx)[i] : "?");
}

typedef struct slow {
    gl_sched_run run;   /* the row's program on the GPU, and its simulation */
    const gl_clock_align *clock; /* the host clock onto the GPU's: the functions' starts beside the kernels' ends */
    int a1, a2, b1, b2; /* ops: each stream's kernel before and after the function(s) */
    int fa, fb;         /* the host functions (fb -1: B has none) */
    int runs, apart;    /* runs, warm-up included, and those whose two functions did not overlap (host clock) */
    int woke;           /* runs whose own wake was read (the model took it) */
} slow;

/* Whether the two host functions of the last run's program could overlap at all: simulated side by side. */
static int could_overlap(slow *x, const gl_sched_machine *m)
{
    gl_sched_machine side = *m;
    side.hostfn_serial = 0;
    gl_sched_program *p = x->run.prog;
    gl_sched_result r;
    char err[160];
    if (gl_sched_simulate(p, &side, &r, err, sizeof err) != 0) gl_die(GL_EXIT_INTERNAL, "the model: %s", err);
    double s[2], e[2];
    int n = 0;
    for (int i = 0; i < p->n_ops && n < 2; i++)
        if (p->ops[i].kind == GL_SCHED_HOSTFN) s[n] = p->ops[i].start_ns, e[n++] = p->ops[i].end_ns;
    int overlap = n == 2 && s[0] < e[1] && s[1] < e[0];
    if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) gl_die(GL_EXIT_INTERNAL, "the model: %s", err);
    return overlap; /* (the program's ops hold the run's own simulation again) */
}

/* A one-warp work kernel of ns into stream; returns its op. */
static int kernel(gl_sched_program *p, int stream, int track, int label, double ns)
{
    int op = gl_sched_launch(p, 0, stream, 1, WARP, per_sm, ns, 0);
    p->ops[op].label = label;
    p->ops[op].track = track;
    return op;
}

/* The gap from one kernel's end to a later one's start, in us (NAN when one is missing). */
static double wait_us(const gl_interval *before, const gl_interval *after)
{
    return before && after ? (after->start_ns - before->end_ns) / 1e3 : NAN;
}

/* One run: the row's series, measured and simulated, and whether its two functions overlapped. */
static void run_slow(gl_sample *smp, void *arg)
{
    slow *x = (slow *)arg;
    gl_sched_run *r = &x->run;
    /* The driver's thread's wake timed just before the run, as the calibration times it: reported beside the run's. */
    double before = fmax(r->machine.hostfn_ns, gl_hostfn_wake_ns(r->stream[1], 3));
    r->machine.hostfn_wake_ns = before;
    gl_sched_run_once(r);
    /* The run's own wake: its first function's start less the end of the kernel before it in its stream; the model
     * starts a woken function wake - hostfn_ns after it is ready (gl_sched.h, "Host functions"). */
    int first = x->fb >= 0 && r->hostfn[x->fb].start_ns < r->hostfn[x->fa].start_ns ? x->fb : x->fa;
    const gl_interval *k = gl_sched_run_kernel(r, first == x->fa ? x->a1 : x->b1);
    if (k && x->clock->valid) {
        double start = r->hostfn[first].start_ns + x->clock->offset_ns - (double)r->tl.origin_ns; /* the run's axis */
        double wake = start - k->end_ns + r->machine.hostfn_ns;
        r->machine.hostfn_wake_ns = fmax(r->machine.hostfn_ns, wake);
        gl_sched_run_resimulate(r);
        gl_sample_put(smp, "wake", wake / 1e3);
        x->woke++;
    }
    gl_sample_put(smp, "wake_before", before / 1e3);
    const gl_sched_op *o = r->prog->ops;
    gl_sched_run_put(smp, r, r->machine.dispatch_ns);
    gl_sample_put(smp, "model_a_wait", (o[x->a2].start_ns - o[x->a1].end_ns) / 1e3);
    gl_sample_put(smp, "a_wait", wait_us(gl_sched_run_kernel(r, x->a1), gl_sched_run_kernel(r, x->a2)));
    gl_sample_put(smp, "model_b_wait", (o[x->b2].start_ns - o[x->b1].end_ns) / 1e3);
    gl_sample_put(smp, "b_wait", wait_us(gl_sched_run_kernel(r, x->b1), gl_sched_run_kernel(r, x->b2)));
    if (x->fb < 0) return;
    const gl_hostfn_hold *f = &r->hostfn[x->fa], *g = &r->hostfn[x->fb];
    if (g->start_ns < f->start_ns) f = g, g = &r->hostfn[x->fa];
    x->runs++;
    x->apart += g->start_ns >= f->end_ns;
}

/* A slow row: "one function" or "two functions" (two), sampled, claimed and shown. */
static void slow_row(gl_sched_lab *L, const gl_common *common, gl_sampler *smp, int two, double T, double D,
                     double tol)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    int sa = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int sb = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    static slow x;
    memset(&x, 0, sizeof x);
    x.clock = &L->dev.clock;
    /* B's kernels are half as long, so that its function (in "two") is ready first whatever the launch order, by
     * T/2: more than the driver's thread takes to wake (48-270 us seen). The model takes the one ready first, but
     * with T = 200 us (--quick's before) one run in four took A's, the earliest issued, after a wake of 240 us. In
     * "one", B's second kernel comes right behind A's function: at C=1 only the function can hold it there. */
    x.a1 = kernel(&p, sa, 0, LABEL_A1, T);
    x.b1 = kernel(&p, sb, 1, LABEL_B1, T / 2);
    x.fa = gl_sched_hostfn(&p, 0, sa, D);
    x.fb = two ? gl_sched_hostfn(&p, 0, sb, D) : -1;
    if (!two) x.b2 = kernel(&p, sb, 1, LABEL_B2, T / 2);
    x.a2 = kernel(&p, sa, 0, LABEL_A2, T);
    if (two) x.b2 = kernel(&p, sb, 1, LABEL_B2, T / 2);
    gl_sched_run_create(&x.run, &p, &L->machine, common->trace_path != NULL);
    gl_nvtx_name_stream(x.run.stream[sa], "stream A");
    gl_nvtx_name_stream(x.run.stream[sb], "stream B");

    const char *variant = two ? "two functions" : "one function";
    int C = L->machine.connections;
    gl_row *row = gl_report_row(&L->rep, "slow", variant);
    gl_row_param_num(row, "connections", "", 0, C);
    gl_row_param_num(row, "kernel_us", "", -1, T / 1e3);
    gl_row_param_num(row, "hostfn_us", "", -1, D / 1e3);
    gl_nvtx_push("slow %s", variant);
    gl_sampler_run(smp, row, run_slow, &x);
    gl_nvtx_pop();

    char text[240], prefix[64];
    snprintf(prefix, sizeof prefix, "slow, %s, C=%d:", variant, C);
    snprintf(text, sizeof text, "%s A's kernel after its host function%s waits where the model puts it, given "
             "the run's own wake", prefix, two ? " and B's" : "");
    gl_claim_near(&L->rep, row, GL_CLAIM_TIMING, text, gl_row_median(row, "model_a_wait"),
                  gl_row_median(row, "a_wait"), tol, 5.0, "us");
    snprintf(text, sizeof text, "%s B's kernel %s waits where the model puts it", prefix,
             two ? "after its own host function" : "issued behind A's host function");
    gl_claim_near(&L->rep, row, GL_CLAIM_TIMING, text, gl_row_median(row, "model_b_wait"),
                  gl_row_median(row, "b_wait"), tol, 5.0, "us");
    gl_sched_run_claims(&L->rep, row, prefix, prefix, tol, 5e3);
    if (two) {
        int serial = L->machine.hostfn_serial;
        snprintf(text, sizeof text, "%s the two host functions ran %s (host clock), as the calibration found",
                 prefix, serial ? "one at a time" : "side by side");
        if (could_overlap(&x, &x.run.machine))
            gl_claim_every(&L->rep, row, GL_CLAIM_TIMING, text, serial ? x.apart : x.runs - x.apart, x.runs, "runs",
                           "no runs");
        else
            gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "n/a: even side by side, the model has B's function "
                          "end before A's is due (--hostfn-us too short against --kernel-us)");
    }
    gl_check(&L->rep, row, x.woke == x.run.runs,
             "%s the driver's thread's wake was read from %d of %d runs (the first function's start, the host clock "
             "aligned to the GPU's: %s), and the model took it", prefix, x.woke, x.run.runs,
             L->dev.clock.valid ? "aligned" : "not aligned");
    gl_check(&L->rep, row, x.run.runs_complete == x.run.runs,
             "%s %d of %d runs recorded all %d kernels, each ran its time (the shortest %.3f x its own), and left "
             "its result", prefix, x.run.runs_complete, x.run.runs, x.run.launches, x.run.shortest_ratio);
    gl_names names = {NULL, name_of, label_names, NULL, name_of, track_names, 4};
    snprintf(text, sizeof text, "slow %s C=%d", variant, C);
    gl_sched_run_show(&L->trace, common, &x.run, text, &names);
    gl_sched_run_destroy(&x.run);
    gl_sched_program_free(&p);
}

/* ---- main ---------------------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "callbacks",
        "does a stream's host function see its stream's finished data, what does it cost, and what does a slow one "
        "hold back?",
        "Tables: pattern (the textbook's callback after each stream's D2H, per API, with each API's calibrated\n"
        "costs), slow (host functions of --hostfn-us between kernels; each run is checked against the core's\n"
        "scheduling simulation of it). Compare one queue with several: --connections 1,8."};
    int streams = 4, elements = 1 << 20, functions = 200;
    double kernel_us = 1000, hostfn_us = 2000, tolerance = 0.10;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 1, MAX_STREAMS, NULL, NULL, "streams of the pattern (S)", 0},
        {"elements", GL_OPT_INT, &elements, 1024, 1 << 22, NULL, "65536", "elements per stream in the pattern", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 20, 100000, NULL, "600", "slow rows: A's kernels (us; B's half)", 0},
        {"hostfn-us", GL_OPT_DOUBLE, &hostfn_us, 1, 1000000, NULL, "1000", "slow rows: each host function (us)", 0},
        {"functions", GL_OPT_INT, &functions, 1, 100000, NULL, "50", "empty host functions per calibration run", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    gl_sched_lab L;
    gl_sched_lab_open(&L, exp.name, &common);
    per_sm = gl_work_blocks_per_sm(WARP);
    if (per_sm < 1) gl_no_gpu("a one-warp block of the work kernel does not fit on an SM of this GPU");
    gl_sched_lab_calibrate(&L, WARP, kernel_us);
    gl_hostfn_machine h;
    /* Two holds of at least 1 ms: beside a few us of cost per function, one at a time reads as twice the hold. */
    gl_hostfn_calibrate(functions, common.repeat, hostfn_us > 1000 ? hostfn_us : 1000, &h);
    gl_hostfn_print(&h);
    gl_hostfn_machine_apply(&h, GL_HOSTFN_LAUNCH, &L.machine); /* schedrun's host functions are cudaLaunchHostFunc */
    printf("setup: pattern: S=%d blocking streams x %d random integers (H2D, %d-round transform, D2H, host "
           "function); slow: kernels of %g us (B's %g us), host functions of %g us; C=%d\n",
           streams, elements, ROUNDS, kernel_us, kernel_us / 2, hostfn_us, L.machine.connections);
    const double *call = h.call_ns, *in = h.in_stream_ns;
    gl_report_finding(&L.rep, "cudaStreamAddCallback costs the host %.2f us per call and its stream %.2f us per "
                      "function: %.2fx and %.2fx cudaLaunchHostFunc's %.2f and %.2f us", call[API_CALLBACK] / 1e3,
                      in[API_CALLBACK] / 1e3, call[API_CALLBACK] / call[API_LAUNCH], in[API_CALLBACK] / in[API_LAUNCH],
                      call[API_LAUNCH] / 1e3, in[API_LAUNCH] / 1e3);
    gl_report_finding(&L.rep, "two host functions of %.0f us queued in two streams at once took %.0f us from the "
                      "first start to the last end: %s", h.hold_ns / 1e3, h.two_streams_ns / 1e3,
                      h.one_at_a_time ? "one at a time" : "side by side");

    pattern_rows(&L, &common, &h, streams, (size_t)elements);
    gl_sampler smp;
    gl_device_sampler(&smp, &L.dev, &common);
    gl_sched_run_series(&smp);
    gl_sampler_series(&smp, "model_a_wait", "us", 1, 0);
    gl_sampler_series(&smp, "a_wait", "us", 1, GL_SHOW_MIN);
    gl_sampler_series(&smp, "model_b_wait", "us", 1, 0);
    gl_sampler_series(&smp, "b_wait", "us", 1, GL_SHOW_MIN);
    gl_sampler_series(&smp, "wake", "us", 1, GL_SHOW_MIN);
    gl_sampler_series(&smp, "wake_before", "us", 1, 0);
    for (int two = 0; two < 2; two++) slow_row(&L, &common, &smp, two, kernel_us * 1e3, hostfn_us * 1e3, tolerance);
    gl_sampler_free(&smp);
    return gl_sched_lab_close(&L, &common);
}
