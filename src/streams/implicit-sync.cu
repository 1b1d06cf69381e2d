/* implicit-sync.cu - which ordinary calls between two launches serialize the streams.
 *
 * Question: when does an ordinary call between launches serialize the other streams?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 50 --skip-timing-claims
 *
 * A kernel A (--kernel-us) in stream 1, one ordinary call, a kernel B in
 * stream 2, for eight calls: cudaMalloc+cudaFree (1 MiB), cudaMallocAsync+
 * cudaFreeAsync on stream 2, cudaMemcpy host-to-device of 64 KiB from pageable
 * and from pinned memory, cudaMemset, a device-to-device cudaMemcpyAsync on
 * stream 0, cudaDeviceSetLimit (the stack size, as it is), cudaEventQuery on
 * an event recorded after A; on non-blocking and on blocking streams. Built
 * with --default-stream per-thread (the Makefile's variant
 * implicit-sync-per-thread), stream 0 and the calls that take no stream act on
 * the per-thread stream. default-stream asks the same of a NULL-stream kernel.
 *
 * A call serializes when B could not start before A ended where the program
 * without it (the call as one plain call's host time, simulated) would have
 * let it. The model's op for the call follows: a HOST op that makes the real
 * call where it does not; where it does, a SYNC on the device if the host was
 * blocked for at least half of A, else a zero-length op on this build's stream
 * 0, which a blocking stream's next kernel waits for. That program, simulated
 * (gl_sched.h) with the run's host times, is claimed to match the measured
 * makespan, and every run must agree with the median's verdict. And which
 * stream stream 0 is in this build (cudaStreamGetId).
 *
 * Run:   make run-implicit-sync ARGS="--connections 1"
 *        make run-implicit-sync-per-thread
 * Nsight Systems (make profile-implicit-sync): NVTX ranges "implicit <call>
 * <streams> C=.."; streams "stream 1 (A)" and "stream 2 (B)", B starting after
 * A's end where the call serializes. --trace and --timeline show each last run
 * beside the model the decision picked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "null-stream.cuh"

enum { CALL_MALLOC_FREE, CALL_MALLOC_ASYNC, CALL_MEMCPY_PAGEABLE, CALL_MEMCPY_PINNED, CALL_MEMSET,
       CALL_MEMCPY_ASYNC_NULL, CALL_SET_LIMIT, CALL_EVENT_QUERY, N_CALLS };
static const struct {
    const char *variant, *text; /* the row's variant, and the call in words */
} calls[N_CALLS] = {
    {"malloc-free", "cudaMalloc + cudaFree (1 MiB)"},
    {"malloc-async", "cudaMallocAsync + cudaFreeAsync (1 MiB, stream 2)"},
    {"memcpy-pageable", "cudaMemcpy H2D 64 KiB, pageable"},
    {"memcpy-pinned", "cudaMemcpy H2D 64 KiB, pinned"},
    {"memset", "cudaMemset 64 KiB"},
    {"memcpy-async-null", "cudaMemcpyAsync D2D 64 KiB, stream 0"},
    {"set-limit", "cudaDeviceSetLimit(cudaLimitStackSize, current)"},
    {"event-query", "cudaEventQuery (event recorded after A)"}};
enum { ALLOC_BYTES = 1 << 20, COPY_BYTES = 1 << 16 };

/* What the model makes of a call: host time, a device synchronization, or an op on this build's stream 0. */
enum { AS_HOST, AS_SYNC, AS_STREAM0, N_AS };
static const char *const as_name[N_AS] = {"host time", "device sync", DS_BUILD "-stream op"};
static const char *const as_series[N_AS] = {"model_host_makespan", "model_sync_makespan", "model_stream0_makespan"};

/* The probe: the buffers the calls use (made once), and the call between A and B being measured. Its ops
 * have the same indices whichever op the call is modelled as. */
typedef struct probe {
    events_lab *L;
    void *d_src, *d_dst;    /* COPY_BYTES each, the two halves of one allocation */
    void *h_src[2];         /* the host-to-device copies' sources: pageable (malloc'd), pinned (cudaMallocHost) */
    size_t stack_bytes;     /* the stack size limit before the run: set again as it is */
    double us;              /* A's and B's duration */
    int call;               /* CALL_* */
    int blocking;           /* A's and B's streams from cudaStreamCreate (else cudaStreamNonBlocking) */
    gl_sched_program prog;  /* A, [record], the call as a HOST op, B */
    gl_sched_run run;       /* host_call makes the real call */
    int a, op, b;           /* op indices of A, the call, B */
    int stream2, ev_a;      /* B's program stream; the event recorded after A (-1: none) */
    int timed, serial_runs; /* timed runs, and those in which B started after A ended */
} probe;

/* A in stream 1 (label and track 0), an event recorded after it (only where the call queries it), the call
 * as the op `as`, B in stream 2 (label and track 1). */
static void build_probe(gl_sched_program *p, probe *c, int as)
{
    gl_sched_program_init(p);
    int kind = c->blocking ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING;
    int s1 = gl_sched_stream_new(p, kind, 0, -1);
    c->stream2 = gl_sched_stream_new(p, kind, 0, -1);
    c->ev_a = c->call == CALL_EVENT_QUERY ? gl_sched_event_new(p) : -1;
    c->a = launch(&c->L->one, p, s1, 0, 0, c->us * 1e3);
    if (c->ev_a >= 0) gl_sched_record(p, 0, s1, c->ev_a);
    if (as == AS_SYNC) {
        c->op = gl_sched_sync_stream(p, 0, -1);
    } else if (as == AS_STREAM0) {
        int s0 = null_stream(p, DS_NULL_KIND), ev = gl_sched_event_new(p);
        c->op = gl_sched_record(p, 0, s0, ev);
    } else {
        c->op = gl_sched_host(p, 0, 0);
    }
    c->b = launch(&c->L->one, p, c->stream2, 1, 1, c->us * 1e3);
}

/* The real call: gl_sched_run's host_call for the probe's HOST op. Stream 0 and the stream-less calls mean
 * this build's default stream. */
static void make_call(gl_sched_run *r, int, void *arg)
{
    const probe *c = (const probe *)arg;
    cudaStream_t s2 = r->stream[c->stream2];
    void *d = NULL;
    cudaError_t e;
    switch (c->call) {
    case CALL_MALLOC_FREE: CUDA_CHECK(cudaMalloc(&d, ALLOC_BYTES)); CUDA_CHECK(cudaFree(d)); break;
    case CALL_MALLOC_ASYNC: CUDA_CHECK(cudaMallocAsync(&d, ALLOC_BYTES, s2)); CUDA_CHECK(cudaFreeAsync(d, s2)); break;
    case CALL_MEMCPY_PAGEABLE: /* from h_src[0]; pinned: from h_src[1] */
    case CALL_MEMCPY_PINNED:
        CUDA_CHECK(cudaMemcpy(c->d_dst, c->h_src[c->call - CALL_MEMCPY_PAGEABLE], COPY_BYTES, cudaMemcpyHostToDevice));
        break;
    case CALL_MEMSET: CUDA_CHECK(cudaMemset(c->d_dst, 0, COPY_BYTES)); break;
    case CALL_MEMCPY_ASYNC_NULL:
        CUDA_CHECK(cudaMemcpyAsync(c->d_dst, c->d_src, COPY_BYTES, cudaMemcpyDeviceToDevice, 0));
        break;
    case CALL_SET_LIMIT: CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, c->stack_bytes)); break;
    default: /* cudaEventQuery: not ready is the expected answer while A runs, not an error */
        e = cudaEventQuery(r->event[c->ev_a]);
        if (e != cudaErrorNotReady) CUDA_CHECK(e);
        else if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
    }
}

/* The probe's last run as a program in which the call is the op `as`, every op at its measured host time,
 * simulated: its makespan, and B's start minus A's end (if b_after_a_ns) and its kernels (if tl). The call's
 * own cost is call_ns where that is >= 0; a SYNC's is the machine's issue time, the rest of what the call
 * took being the wait the simulation makes. */
static double simulate_as(probe *c, int as, double call_ns, double *b_after_a_ns, gl_timeline *tl)
{
    const gl_sched_run *r = &c->run;
    gl_sched_program p;
    build_probe(&p, c, as);
    for (int i = 0; i < p.n_ops; i++) {
        p.ops[i].issue_ns = c->prog.ops[i].issue_ns;
        p.ops[i].id = c->prog.ops[i].id;
    }
    if (call_ns < 0 && as == AS_SYNC) call_ns = r->machine.issue_ns;
    if (call_ns >= 0) p.ops[c->op].issue_ns = call_ns + (r->call_ns[c->op] - r->return_ns[c->op - 1]);
    gl_sched_result res;
    char err[160];
    if (gl_sched_simulate(&p, &r->machine, &res, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "the scheduling model refused the %s probe: %s", calls[c->call].variant, err);
    if (b_after_a_ns) *b_after_a_ns = p.ops[c->b].start_ns - p.ops[c->a].end_ns;
    if (tl) gl_sched_timeline(&p, tl);
    gl_sched_program_free(&p);
    return res.makespan_ns;
}

/* One run of A, the call, B: the evidence, and the three models of it. */
static void implicit_sample(gl_sample *smp, void *arg)
{
    probe *c = (probe *)arg;
    gl_sched_run *r = &c->run;
    gl_sched_run_once(r);
    const gl_interval *a = gl_sched_run_kernel(r, c->a), *b = gl_sched_run_kernel(r, c->b);
    double a_ns = a ? a->end_ns - a->start_ns : NAN, b_after_a = a && b ? b->start_ns - a->end_ns : NAN;
    if (smp->timed) {
        c->timed++;
        c->serial_runs += b_after_a >= -c->L->slack_ns;
    }
    gl_sample_put(smp, "call_duration", (r->return_ns[c->op] - r->call_ns[c->op]) / 1e3);
    gl_sample_put(smp, "a_duration", a_ns / 1e3);
    gl_sample_put(smp, "b_after_a", b_after_a / 1e3);
    gl_sample_put(smp, "makespan", r->tl.makespan_ns / 1e6);
    for (int as = 0; as < N_AS; as++) gl_sample_put(smp, as_series[as], simulate_as(c, as, -1, NULL, NULL) / 1e6);
    /* Without the call's effect: the call as the host time of one plain call, so that a call which blocked the
     * host does not explain itself. */
    double bare_ns;
    simulate_as(c, AS_HOST, r->machine.issue_ns, &bare_ns, NULL);
    gl_sample_put(smp, "model_host_b_after_a", bare_ns / 1e3);
}

/* The probe's kernels "A" and "B", and their streams "stream 1 (A)" and "stream 2 (B)". */
static void name_ab(int index, gl_buf *out, const void *) { gl_buf_printf(out, "%c", 'A' + index); }
static void name_ab_stream(int index, gl_buf *out, const void *)
{
    gl_buf_printf(out, "stream %d (%c)", index + 1, 'A' + index);
}

/* The call c->call between A and B as a row: measure, decide what the call is, claim the model of that, show. */
static void implicit_row(probe *c, gl_sampler *smp, double tolerance)
{
    events_lab *L = c->L;
    c->timed = c->serial_runs = 0;
    memset(&c->run, 0, sizeof c->run);
    build_probe(&c->prog, c, AS_HOST);
    c->run.host_call = make_call;
    c->run.host_ctx = c;
    gl_sched_run_create(&c->run, &c->prog, &L->S.machine, L->common->trace_path != NULL);
    gl_nvtx_name_stream(c->run.stream[1], "stream 1 (A)");
    gl_nvtx_name_stream(c->run.stream[2], "stream 2 (B)");

    const char *v = calls[c->call].variant, *text = calls[c->call].text;
    const char *kind = c->blocking ? "blocking" : "non-blocking";
    char range[160], claim[224], title[224];
    snprintf(range, sizeof range, "implicit %s %s C=%d", v, kind, L->S.machine.connections);
    gl_row *row = gl_report_row(&L->S.rep, "implicit", v);
    gl_row_param(row, "call", "%s", text);
    gl_row_param(row, "stream_kind", "%s", kind);
    gl_row_param_num(row, "kernel_us", "", -1, c->us);
    gl_row_param_num(row, "connections", "", 0, L->S.machine.connections);
    gl_row_param(row, "build", "%s", DS_BUILD);
    sample_row(smp, row, implicit_sample, c, range);

    /* The decision, from the medians of what was measured. */
    gl_stats call_us = gl_row_find(row, "call_duration")->stats, a_us = gl_row_find(row, "a_duration")->stats;
    gl_stats gap = gl_row_find(row, "b_after_a")->stats, host_gap = gl_row_find(row, "model_host_b_after_a")->stats;
    double slack_us = L->slack_ns / 1e3;
    int serial = gap.median >= -slack_us;             /* B did not start before A ended */
    int serial_anyway = host_gap.median >= -slack_us; /* the program does that without the call */
    int host_blocks = call_us.median >= 0.5 * a_us.median;
    int serializes = serial && !serial_anyway;
    int as = !serializes ? AS_HOST : host_blocks ? AS_SYNC : AS_STREAM0;
    gl_row_text(row, "serializes", 0, "%s", serializes ? "yes" : "no");
    gl_row_text(row, "host_blocks", 0, "%s", host_blocks ? "yes" : "no");
    gl_row_text(row, "model_op", 0, "%s", as_name[as]);
    gl_stats model = gl_row_find(row, as_series[as])->stats;
    gl_row_stats(row, "model_makespan", "ms", 3, 0, model);

    const gl_sched_run *r = &c->run;
    gl_check(&L->S.rep, row, r->runs_complete == r->runs,
             "implicit %s, %s streams: %d of %d runs recorded A and B, each ran its %g us, and left its result", v,
             kind, r->runs_complete, r->runs, c->us);
    snprintf(claim, sizeof claim, "%s, %s streams: serializes: %s, in every run", text, kind,
             serializes ? "yes" : "no");
    int agree = serial ? c->serial_runs : c->timed - c->serial_runs;
    gl_claim_fact(&L->S.rep, row, GL_CLAIM_TIMING, c->timed > 0 && agree == c->timed, claim,
                  "B's start - A's end %+.1f us (median; %+.1f..%+.1f), %d of %d runs agree; the call took %.1f us "
                  "while A ran %.1f us (host %s); without the call the model has B's start - A's end %+.1f us: %s",
                  gap.median, gap.min, gap.max, agree, c->timed, call_us.median, a_us.median,
                  host_blocks ? "blocked" : "not blocked", host_gap.median,
                  serial_anyway ? "it serializes without the call" : "B overlaps A");
    snprintf(claim, sizeof claim, "%s, %s streams, modelled as %s: makespan matches the simulation", text, kind,
             as_name[as]);
    gl_claim_near(&L->S.rep, row, GL_CLAIM_TIMING, claim, model.median, gl_row_find(row, "makespan")->stats.median,
                  tolerance, L->slack_ns / 1e6, "ms");

    /* The last run, beside the model the decision picked (gl_sched_run_show would show the HOST op's). */
    gl_names names = {NULL, name_ab, NULL, NULL, name_ab_stream, NULL, 2};
    snprintf(title, sizeof title, "%s (last run)", range);
    gl_show_run(&L->S.trace, L->common, title, &c->run.tl, c->run.spans.h_spans, c->run.n_spans, &names);
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    simulate_as(c, as, -1, NULL, &tl);
    snprintf(title, sizeof title, "%s (model of the last run, call as %s)", range, as_name[as]);
    gl_show_run(&L->S.trace, L->common, title, &tl, NULL, 0, &names);
    gl_timeline_free(&tl);
    gl_sched_run_destroy(&c->run);
    gl_sched_program_free(&c->prog);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
#if DS_PER_THREAD_BUILD
        "implicit-sync-per-thread",
        "built with --default-stream per-thread, which ordinary calls between launches serialize the other streams?",
#else
        "implicit-sync",
        "when does an ordinary call between launches serialize the other streams?",
#endif
        "Eight calls between two kernels, on non-blocking and on blocking streams: which serialize, and what the\n"
        "model makes of each (host time, a device sync, an op on stream 0). Built with --default-stream per-thread:\n"
        "implicit-sync-per-thread. A kernel on the NULL stream: default-stream."};
    double kernel_us = 2000, tolerance = 0.10;
    gl_option opts[] = {
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "500", "duration of kernels A and B in us", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
    };
    gl_common common;
    events_lab L; /* its machine measured as when this was default-stream's variant implicit (events_lab_start) */
    events_lab_start(&L, &exp, opts, GL_ARRAY_LEN(opts), &common, NULL, argc, argv);
    printf("setup: " DS_BUILD " build; A=B=%g us; C=%d connections\n", kernel_us, L.S.machine.connections);
    null_stream_row(&L.S.rep);

    /* The buffers the calls use, made once. */
    probe c;
    memset(&c, 0, sizeof c);
    c.L = &L;
    c.us = kernel_us;
    CUDA_CHECK(cudaMalloc(&c.d_src, 2 * COPY_BYTES));
    c.d_dst = (char *)c.d_src + COPY_BYTES;
    CUDA_CHECK(cudaMemset(c.d_src, 1, COPY_BYTES));
    c.h_src[0] = gl_xmalloc(COPY_BYTES);
    CUDA_CHECK(cudaMallocHost(&c.h_src[1], COPY_BYTES));
    memset(c.h_src[0], 2, COPY_BYTES);
    memset(c.h_src[1], 3, COPY_BYTES);
    CUDA_CHECK(cudaDeviceGetLimit(&c.stack_bytes, cudaLimitStackSize));
    CUDA_CHECK(cudaDeviceSynchronize());

    gl_sampler smp;
    gl_device_sampler(&smp, &L.S.dev, &common);
    gl_sampler_series(&smp, "call_duration", "us", 1, 0);
    gl_sampler_series(&smp, "a_duration", "us", 1, 0);
    gl_sampler_series(&smp, "b_after_a", "us", 1, 0);
    gl_sampler_series(&smp, "makespan", "ms", 3, 0);
    for (int as = 0; as < N_AS; as++) gl_sampler_series(&smp, as_series[as], "ms", 3, GL_HIDE);
    gl_sampler_series(&smp, "model_host_b_after_a", "us", 1, GL_HIDE);
    for (c.blocking = 0; c.blocking < 2; c.blocking++)
        for (c.call = 0; c.call < N_CALLS; c.call++) implicit_row(&c, &smp, tolerance);
    gl_sampler_free(&smp);

    CUDA_CHECK(cudaFree(c.d_src));
    free(c.h_src[0]);
    CUDA_CHECK(cudaFreeHost(c.h_src[1]));
    return gl_sched_lab_close(&L.S, &common);
}
