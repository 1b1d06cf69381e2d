/* host-overlap.cu - how much host work fits while the GPU runs, and what waiting for the GPU costs the host.
 *
 * Question: how much host work fits while the GPU runs, and what do polling, spin, yield and blocking sync cost it?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * Part counter, the textbook's "overlapping GPU and CPU work": in one stream,
 * H2D copies of a and b (--elements random floats, pinned), c = a + b by a
 * kernel holding each block --kernel-us, a D2H copy of c and an event; then the
 * host counts while cudaEventQuery says not ready. A gl_schedrun.h program
 * (copies and kernel by its user_op hook, the count a HOST op): each run is
 * simulated with its calls' measured host times and the copy engines measured
 * now. c is checked against the CPU before timing and in every run (data).
 * Claim (timing): the host counts as long as the simulation says the stream
 * takes to reach the event once the count began (--tolerance + a query + 5 us).
 *
 * Part waits: a one-block work kernel of --wait-us, an event, and the host
 * waiting five ways: poll (the counter's loop); spin, yield, blocking
 * (cudaStreamSynchronize under cudaDeviceScheduleSpin, _Yield, _BlockingSync,
 * each given to cudaInitDevice in a process of its own: gl_child.h);
 * event-blocking (an event made with cudaEventBlockingSync). Per way: the
 * wake-up latency (the return less the kernel's last %globaltimer reading,
 * through a clock alignment measured just before; its uncertainty beside it)
 * and the CPU time of the thread and of the process (driver threads too) as a
 * share of the wait. Claims (timing), as the runtime documents the flags:
 * blocking sync wakes no earlier than spin (within the alignments) and takes
 * at most half the process CPU time of spin; a blocking event at most half
 * that of polling. Checks: each process reads its flag back; every wait
 * kernel ran its time and outlasted the call. A GPU in exclusive-process mode
 * cannot be opened by the flags' processes: those rows SKIP, saying so.
 *
 * Run:   make run-host-overlap
 *        make run-host-overlap ARGS="--part waits --wait-us 10000"
 * Nsight Systems (make profile-host-overlap): NVTX ranges and streams "counter"
 * and "wait <way>". --trace, --timeline: the counter's last run with its host
 * calls, beside its simulation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gl_check.h"
#include "gl_child.h"
#include "gl_connections.h"
#include "gl_copies.h"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_work.cuh"

enum { PART_ALL, PART_COUNTER, PART_WAITS };
enum { THREADS = 256 }; /* the sum's blocks */
enum { WAIT_POLL, WAIT_SPIN, WAIT_YIELD, WAIT_BLOCKING, WAIT_EVENT, WAITS };
static const char *const wait_names[WAITS] = {"poll", "spin", "yield", "blocking", "event-blocking"};
/* The device flag a way needs, in a process of its own; 0: it waits in this one, under any flag. */
static const unsigned wait_flags[WAITS] = {0, cudaDeviceScheduleSpin, cudaDeviceScheduleYield,
                                           cudaDeviceScheduleBlockingSync, 0};
/* The schedule flags' names (cudaDeviceScheduleAuto, _Spin, _Yield, _BlockingSync: 0, 1, 2, 4; the mask is 7). */
static const char *const schedule_names[8] = {"auto", "spin", "yield", "3", "blocking", "5", "6", "7"};

typedef struct hov {
    gl_common common;
    int part;         /* PART_* */
    int elements;     /* floats in a, b and c */
    double kernel_us; /* how long the counter's kernel holds each block */
    double wait_us;   /* the waited-for kernel's time */
    double tolerance; /* relative tolerance of the counter's claim */
    char **argv;      /* this process's arguments: the wait children's */
} hov;

/* c = a + b, each block held until hold_ns after its start (so that the kernel lasts what the model is told);
 * closes the op's span. */
__global__ void sum_hold(const float *a, const float *b, float *c, long long n, unsigned long long hold_ns,
                         gl_span_buf spans, unsigned int slot, int label, int track)
{
    __shared__ unsigned long long t0;
    if (threadIdx.x == 0) t0 = gl_globaltimer();
    __syncthreads();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
    gl_work_spin(t0, hold_ns);
    gl_span_block_end(spans, slot, t0, label, track, -1);
}

/* The textbook's loop: count while ev is not ready. A GPU that never gets there in timeout_s is hung: exit 3. */
static long long count_while_pending(cudaEvent_t ev, double timeout_s)
{
    double deadline = gl_host_ns() + timeout_s * 1e9;
    long long n = 0;
    cudaError_t q;
    while ((q = cudaEventQuery(ev)) == cudaErrorNotReady)
        if ((++n & 0xFFFF) == 0 && gl_host_ns() > deadline)
            gl_die(GL_EXIT_CUDA, "the GPU did not reach an event within %.0f s: hung", timeout_s);
    CUDA_CHECK(q);
    return n;
}

/* ---- part counter ------------------------------------------------------------------------ */

typedef struct counter {
    const hov *H;
    gl_sched_program prog;
    gl_sched_run run;
    int b_op, kernel, record, host, ev; /* the program's ops (b's H2D, ...), and its event */
    int blocks;                   /* the sum's grid: one wave of THREADS-thread blocks */
    float *h, *d, *ref;           /* a, b and c, n floats each: pinned, on the device; c from the CPU */
    long long count;              /* the last run's count */
    int runs, bad_runs, short_runs; /* runs, and those whose c was wrong or whose kernel ran short */
} counter;

/* The program's HOST op: the count. */
static void host_count(gl_sched_run *r, int op, void *ctx)
{
    (void)op;
    counter *c = (counter *)ctx;
    c->count = count_while_pending(r->event[c->ev], r->timeout_s);
}

/* The program's copies and kernel (the user_op hook): H2D of a or b, the sum, D2H of c. */
static void issue(gl_sched_run *r, int op, cudaStream_t s, void *ctx)
{
    counter *c = (counter *)ctx;
    const gl_sched_op *o = &r->prog->ops[op];
    size_t n = (size_t)c->H->elements;
    if (o->kind == GL_SCHED_LAUNCH) {
        sum_hold<<<c->blocks, THREADS, 0, s>>>(c->d, c->d + n, c->d + 2 * n, (long long)n,
                                               (unsigned long long)(c->H->kernel_us * 1e3), r->spans.dev, r->slot[op],
                                               o->label, o->track);
        CUDA_CHECK_LAUNCH("sum_hold");
        return;
    }
    size_t k = o->dir == GL_SCHED_D2H ? 2 : op == c->b_op; /* a, b or c */
    int in = o->dir == GL_SCHED_H2D;
    CUDA_CHECK(cudaMemcpyAsync(in ? c->d + k * n : c->h + k * n, in ? c->h + k * n : c->d + k * n, (size_t)o->bytes,
                               in ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s));
}

/* One run: c poisoned on both sides (NaN), the program, c against the CPU. */
static void run_counter(counter *c)
{
    gl_sched_run *r = &c->run;
    size_t n = (size_t)c->H->elements;
    cudaStream_t s = r->stream[r->prog->ops[c->kernel].stream];
    memset(c->h + 2 * n, 0xff, sizeof(float) * n);
    CUDA_CHECK(cudaMemsetAsync(c->d + 2 * n, 0xff, sizeof(float) * n, s));
    CUDA_CHECK(cudaStreamSynchronize(s)); /* before the run's clock starts */
    gl_sched_run_once(r);
    const gl_interval *k = gl_sched_run_kernel(r, c->kernel);
    c->runs++;
    c->bad_runs += gl_compare(GL_F32, c->ref, c->h + 2 * n, n, 0, 0).count > 0;
    c->short_runs += !k || k->end_ns - k->start_ns < c->H->kernel_us * 1e3 - 64;
}

/* One sample: the count and its time, beside the simulation of the same run. */
static void sample_counter(gl_sample *smp, void *arg)
{
    counter *c = (counter *)arg;
    run_counter(c);
    const gl_sched_run *r = &c->run;
    const gl_sched_op *ops = r->prog->ops;
    double wait = r->return_ns[c->host] - r->call_ns[c->host];
    gl_sample_put(smp, "model_span", r->sim.span_ns / 1e6);
    gl_sample_put(smp, "model_wait", (ops[c->record].end_ns - ops[c->host].call_ns) / 1e3); /* count to event */
    gl_sample_put(smp, "wait", wait / 1e3);
    gl_sample_put(smp, "count", (double)c->count);
    gl_sample_put(smp, "iteration", wait / (double)(c->count > 0 ? c->count : 1));
}

/* A label's or a track's name, from the table of names in ctx (three of them). */
static void name_of(int i, gl_buf *out, const void *ctx)
{
    gl_buf_puts(out, ((const char *const *)ctx)[i >= 0 && i < 3 ? i : 2]);
}

/* Part counter: the model's machine measured, the program made and checked, its runs timed and judged. */
static void part_counter(const hov *H, gl_sched_lab *S)
{
    const size_t n = (size_t)H->elements;
    counter c;
    int per_sm = 0;
    memset(&c, 0, sizeof c);
    c.H = H;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_hold, THREADS, 0));
    if (per_sm < 1) gl_no_gpu("a %d-thread block of the sum kernel does not fit on an SM of this GPU", THREADS);
    c.blocks = per_sm * S->dev.sms; /* one wave: every block starts at once and holds its time */
    gl_sched_lab_calibrate(S, THREADS, H->kernel_us);
    gl_copy_machine cm;
    gl_copy_calibrate(&S->dev, 4096, (size_t)fmin(fmax(8.0 * n, 1 << 20), 64 << 20), H->common.quick ? 3 : 5, &cm);
    gl_copy_print(&cm);
    printf("setup: counter: a and b of %d floats (H2D %.1f MiB, D2H %.1f MiB), c = a + b in %d blocks x %d threads "
           "held %g us each\n", H->elements, 8.0 * n / 1048576, 4.0 * n / 1048576, c.blocks, THREADS, H->kernel_us);
    gl_row *row = gl_report_row(&S->rep, "counter", "textbook counter");
    gl_row_param_num(row, "elements", "", 0, H->elements);
    gl_row_param_num(row, "kernel_us", "", -1, H->kernel_us);
    if (gl_copy_machine_apply(&cm, &S->machine) != 0) {
        gl_row_skip(row, "the model has no copy engines: %s", cm.fit_error);
        return;
    }
    /* The program (H2D a, H2D b, the sum, D2H c, the event, the count) made on the GPU, and its data. */
    gl_sched_program *p = &c.prog;
    gl_sched_program_init(p);
    int st = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    c.ev = gl_sched_event_new(p);
    int a_op = gl_sched_copy(p, 0, st, GL_SCHED_H2D, 4.0 * n, 0);
    c.b_op = gl_sched_copy(p, 0, st, GL_SCHED_H2D, 4.0 * n, 0);
    c.kernel = gl_sched_launch(p, 0, st, c.blocks, THREADS, per_sm, H->kernel_us * 1e3, 0);
    int c_op = gl_sched_copy(p, 0, st, GL_SCHED_D2H, 4.0 * n, 0);
    c.record = gl_sched_record(p, 0, st, c.ev);
    c.host = gl_sched_host(p, 0, 0);
    p->ops[a_op].user = p->ops[c.b_op].user = p->ops[c.kernel].user = p->ops[c_op].user = 1; /* issued by issue() */
    c.run.host_call = host_count, c.run.host_ctx = &c;
    c.run.user_op = issue, c.run.user_ctx = &c;
    gl_sched_run_create(&c.run, p, &S->machine, 0);
    gl_nvtx_name_stream(c.run.stream[st], "counter");
    CUDA_CHECK(cudaMallocHost((void **)&c.h, 3 * sizeof(float) * n));
    CUDA_CHECK(cudaMalloc((void **)&c.d, 3 * sizeof(float) * n));
    c.ref = (float *)gl_xmalloc(sizeof(float) * n);
    gl_fill_f32(c.h, n, H->common.seed, 0, -1, 1);
    gl_fill_f32(c.h + n, n, H->common.seed, 1, -1, 1);
    for (size_t i = 0; i < n; i++) c.ref[i] = c.h[i] + c.h[n + i];
    run_counter(&c); /* validate before timing */
    if (gl_check_compare(&S->rep, row, "counter: c = a + b came back from the GPU", GL_F32, c.ref, c.h + 2 * n, n, 0,
                         0)) {
        gl_sampler smp;
        gl_device_sampler(&smp, &S->dev, &H->common);
        gl_sampler_series(&smp, "model_span", "ms", 3, 0);
        gl_sampler_series(&smp, "model_wait", "us", 1, 0);
        gl_sampler_series(&smp, "wait", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
        gl_sampler_series(&smp, "count", "queries", 0, GL_SHOW_MIN);
        gl_sampler_series(&smp, "iteration", "ns", 0, 0);
        gl_nvtx_push("counter");
        gl_sampler_run(&smp, row, sample_counter, &c);
        gl_nvtx_pop();
        gl_sampler_free(&smp);
        gl_check(&S->rep, row, c.bad_runs == 0, "counter: c = a + b matched the CPU in every run (%d runs)", c.runs);
        gl_check(&S->rep, row, c.short_runs == 0, "counter: the kernel held its %g us in every run (%d runs)",
                 H->kernel_us, c.runs);
        /* The count ends up to one query after the event completes, which itself comes a little after the copy. */
        gl_claim_near(&S->rep, row, GL_CLAIM_TIMING, "counter: the host counts as long as the model says the GPU "
                      "takes to reach the event", gl_row_median(row, "model_wait"), gl_row_median(row, "wait"),
                      H->tolerance, gl_row_median(row, "iteration") / 1e3 + 5, "us");
        static const char *const labels[] = {"a + b", "host call", "?"}, *const tracks[] = {"-", "counter", "host"};
        gl_names names = {NULL, name_of, labels, NULL, name_of, tracks, 2};
        gl_sched_run_show_calls(&S->trace, &H->common, &c.run, &S->dev.clock, "counter", &names, 1, 2);
    }
    free(c.ref);
    CUDA_CHECK(cudaFreeHost(c.h));
    CUDA_CHECK(cudaFree(c.d));
    gl_sched_run_destroy(&c.run);
    gl_sched_program_free(&c.prog);
}

/* ---- part waits ------------------------------------------------------------------------- */

enum { V_WAIT, V_LATE, V_THREAD, V_PROCESS, VALUES };
/* The values of a way's row: the host clock around the wait; the return less the kernel's end (through the clock
 * alignment); the waiting thread's CPU time and the process's (the driver's threads too) as a share of the wait. */
static const struct { const char *name, *unit; int precision; unsigned flags; } values[VALUES] = {
    {"wait", "us", 1, 0}, {"wake_latency", "us", 2, GL_SHOW_MIN}, {"thread_cpu", "%", 1, 0},
    {"process_cpu", "%", 1, GL_SHOW_MIN}};

/* What one way measured, in whichever process it ran: fixed-size, so that a child sends it down a pipe. */
typedef struct wait_result {
    gl_stats v[VALUES]; /* over the timed runs */
    double clock_us;    /* the alignment's uncertainty, plus the 256 ns step of its offset held as a double */
    int clock_valid;    /* an alignment was measured */
    unsigned flags;     /* the schedule flag cudaGetDeviceFlags reads back */
    int runs, complete; /* timed runs, and those whose kernel ran its time, left its result and outlasted the call */
} wait_result;

/* A CPU-time clock (this thread's or the process's) in ns. */
static double cpu_ns(clockid_t which)
{
    struct timespec t;
    clock_gettime(which, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Warm-up and timed waits of way w in this process, on a clock alignment measured just before them. */
static void measure_waits(int w, const hov *H, wait_result *res)
{
    int warm = H->common.profile ? 0 : H->common.warmup, runs = H->common.profile ? 1 : H->common.repeat;
    cudaStream_t s;
    cudaEvent_t ev;
    gl_spans sp;
    unsigned long long *d_sink = NULL, sink = 0, seen = 0;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | (w == WAIT_EVENT ? cudaEventBlockingSync : 0)));
    gl_nvtx_name_stream(s, "wait %s", wait_names[w]);
    gl_spans_create(&sp, 1, 0, 0);
    CUDA_CHECK(cudaMalloc((void **)&d_sink, sizeof *d_sink));
    CUDA_CHECK(cudaMemset(d_sink, 0, sizeof *d_sink));
    double *x = (double *)gl_xcalloc(VALUES * (size_t)runs, sizeof(double));
    memset(res, 0, sizeof *res);
    CUDA_CHECK(cudaGetDeviceFlags(&res->flags));
    res->flags &= cudaDeviceScheduleMask;
    gl_clock_align clock = gl_clock_align_measure(200); /* now: the two clocks drift apart */
    long long offset = llround(clock.offset_ns);
    res->clock_valid = clock.valid;
    res->clock_us = (clock.uncertainty_ns + 256) / 1e3;
    gl_nvtx_push("wait %s", wait_names[w]);
    for (int k = -warm; k < runs; k++) {
        gl_spans_reset(&sp);
        unsigned int slot = gl_spans_reserve(&sp, 1);
        gl_work_launch(s, 1, 32, H->wait_us, sp.dev, slot, 0, 0, d_sink);
        CUDA_CHECK(cudaEventRecord(ev, s));
        double c0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID), p0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID), h0 = gl_host_ns();
        if (w == WAIT_POLL) count_while_pending(ev, 60 + H->wait_us / 1e6);
        else if (wait_flags[w]) CUDA_CHECK(cudaStreamSynchronize(s)); /* what the device flags are documented for */
        else CUDA_CHECK(cudaEventSynchronize(ev));
        double h1 = gl_host_ns(), c1 = cpu_ns(CLOCK_THREAD_CPUTIME_ID), p1 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
        gl_spans_fetch(&sp);
        CUDA_CHECK(cudaMemcpy(&sink, d_sink, sizeof sink, cudaMemcpyDeviceToHost));
        const gl_span *kr = &sp.h_spans[slot];
        unsigned long long end = kr->start_ns == GL_SPAN_EMPTY ? 0 : gl_span_end(kr);
        double end_host = (double)((long long)end - offset); /* integers first: as a double, 256 ns steps */
        int ran = end && (double)(end - kr->start_ns) >= H->wait_us * 1e3 - 64 && sink > seen;
        seen = sink;
        if (k < 0) continue;
        res->complete += ran && (!clock.valid || end_host > h0);
        double v[VALUES] = {h1 - h0, h1 - end_host, 100 * (c1 - c0), 100 * (p1 - p0)};
        for (int i = 0; i < VALUES; i++) x[i * runs + k] = i < V_THREAD ? v[i] / 1e3 : v[i] / (h1 - h0);
    }
    gl_nvtx_pop();
    res->runs = runs;
    for (int i = 0; i < VALUES; i++) res->v[i] = gl_stats_of(x + i * runs, runs);
    free(x);
    gl_spans_destroy(&sp);
    CUDA_CHECK(cudaFree(d_sink));
    CUDA_CHECK(cudaEventDestroy(ev));
    CUDA_CHECK(cudaStreamDestroy(s));
}

/* A child's whole life (--wait-child=FD,WAY): its context made with the way's flag, its waits, its result. */
static void wait_child(const hov *H, int fd, const char *which)
{
    int w = 0;
    while (w < WAITS && strcmp(which, wait_names[w]) != 0) w++;
    if (w == WAITS || !wait_flags[w])
        gl_die(GL_EXIT_USAGE, "--wait-child: '%s' is no way of waiting that needs a process of its own", which);
    gl_runtime_mark_started();
    /* the primary context, made with the flag (read back in measure_waits); mapped memory for the clock alignment */
    CUDA_CHECK(cudaInitDevice(H->common.device, wait_flags[w] | cudaDeviceMapHost, cudaInitDeviceFlagsAreValid));
    CUDA_CHECK(cudaSetDevice(H->common.device));
    wait_result r;
    measure_waits(w, H, &r);
    gl_child_write(fd, &r, sizeof r);
    _exit(GL_EXIT_OK);
}

/* Way w measured in a fresh process (the parent found the device already: any failure there is an error). */
static void waits_in_child(const hov *H, int w, wait_result *r)
{
    gl_child_spec spec = {H->argv, "wait-child", wait_names[w], NULL, NULL, GL_EXIT_INTERNAL};
    gl_child c;
    char why[160];
    int runs = H->common.profile ? 1 : H->common.warmup + H->common.repeat;
    gl_child_start(&c, &spec);
    int got = gl_child_read(&c, r, sizeof *r, 60 + 3 * runs * (H->wait_us / 1e6 + 0.01)), status = gl_child_end(&c, 30);
    if (got == 1) return;
    gl_child_describe(status, got < 0, why, sizeof why);
    gl_die(GL_EXIT_CUDA, "the %s wait's process gave no result: %s", wait_names[w], why);
}

/* Part waits: each way measured (three in processes of their own), its row, then the claims between ways. */
static void part_waits(const hov *H, gl_report *rep)
{
    wait_result r[WAITS] = {}; /* a way not run: nothing valid */
    gl_row *row[WAITS];
    int mode = 0; /* a second process cannot open an exclusive-process GPU while this one holds it */
    CUDA_CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, H->common.device));
    int alone = mode == cudaComputeModeExclusiveProcess || mode == cudaComputeModeProhibited;
    printf("setup: waits: a 1-block work kernel of %g us and an event, waited for %d ways\n", H->wait_us, WAITS);
    for (int w = 0; w < WAITS; w++) {
        if (wait_flags[w] && alone) {
            row[w] = gl_report_row(rep, "waits", wait_names[w]);
            gl_row_skip(row[w], "n/a: the GPU is in exclusive-process mode, and this way needs a process of its own");
            continue;
        }
        if (wait_flags[w]) waits_in_child(H, w, &r[w]);
        else measure_waits(w, H, &r[w]);
        row[w] = gl_report_row(rep, "waits", wait_names[w]);
        gl_row_param(row[w], "schedule", "%s", schedule_names[r[w].flags]);
        gl_row_param_num(row[w], "kernel_us", "", -1, H->wait_us);
        for (int i = 0; i < VALUES; i++)
            if (i != V_LATE || r[w].clock_valid)
                gl_row_stats(row[w], values[i].name, values[i].unit, values[i].precision, values[i].flags, r[w].v[i]);
        gl_row_number(row[w], "clock_uncertainty", "us", 2, 0, r[w].clock_us);
        if (wait_flags[w])
            gl_check(rep, row[w], r[w].flags == wait_flags[w], "waits, %s: its process reads back its schedule flag "
                     "(cudaGetDeviceFlags: %s)", wait_names[w], schedule_names[r[w].flags]);
        gl_check(rep, row[w], r[w].complete == r[w].runs, "waits, %s: every kernel ran its %g us, left its result and "
                 "outlasted the call (%d of %d runs)", wait_names[w], H->wait_us, r[w].complete, r[w].runs);
    }
    /* The claims compare processes: each latency is good to its own alignment's uncertainty. */
    const wait_result *s = &r[WAIT_SPIN], *b = &r[WAIT_BLOCKING];
    const char *text = "waits: blocking sync wakes no earlier than spin (within the two clock alignments)";
    if (s->clock_valid && b->clock_valid) /* (both invalid when alone: their rows SKIP) */
        gl_claim_at_least(rep, row[WAIT_BLOCKING], GL_CLAIM_TIMING, text, b->v[V_LATE].median - s->v[V_LATE].median,
                          -(s->clock_us + b->clock_us), "us");
    else
        gl_claim_skip(rep, row[WAIT_BLOCKING], GL_CLAIM_TIMING, text, "n/a: %s", alone ? "exclusive-process mode"
                      : "a clock alignment failed");
    gl_claim_ratio_at_most(rep, row[WAIT_BLOCKING], GL_CLAIM_TIMING, "waits: blocking sync takes at most half the "
                           "process CPU time of spin", "blocking %", alone ? NAN : b->v[V_PROCESS].median, "spin %",
                           s->v[V_PROCESS].median, 0.5);
    gl_claim_ratio_at_most(rep, row[WAIT_EVENT], GL_CLAIM_TIMING, "waits: a cudaEventBlockingSync event takes at "
                           "most half the process CPU time of polling", "event-blocking %",
                           r[WAIT_EVENT].v[V_PROCESS].median, "poll %", r[WAIT_POLL].v[V_PROCESS].median, 0.5);
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "host-overlap",
        "how much host work fits while the GPU runs, and what do polling, spin, yield and blocking sync cost it?",
        "Part counter: the textbook's count while cudaEventQuery says not ready, beside the scheduling model's\n"
        "simulation of the same copy+kernel run. Part waits: five ways to wait for a kernel, each one's wake-up\n"
        "latency and CPU time; spin, yield and blocking run in processes of their own (the flag is set there)."};
    hov H;
    memset(&H, 0, sizeof H);
    H.elements = 1 << 22, H.kernel_us = 1000, H.wait_us = 2000, H.tolerance = 0.10;
    gl_option opts[] = {
        {"part", GL_OPT_CHOICE, &H.part, 0, 0, "all|counter|waits", NULL, "which part to run", 0},
        {"elements", GL_OPT_INT, &H.elements, 1024, 1 << 28, NULL, "1048576", "floats in a, b and c (counter)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &H.kernel_us, 50, 1e6, NULL, "300",
         "how long the counter's kernel holds each block, in us (the sum must fit in it)", 0},
        {"wait-us", GL_OPT_DOUBLE, &H.wait_us, 100, 1e6, NULL, "500", "the waited-for kernel's time in us (waits)", 0},
        {"tolerance", GL_OPT_DOUBLE, &H.tolerance, 0, 10, NULL, NULL, "relative tolerance of the counter's claim", 0},
    };
    gl_common_defaults(&H.common);
    int fd = -1;
    const char *which = NULL; /* a child's: --wait-child=FD,WAY, out of argv before parsing (--help omits it) */
    if (gl_child_take_pipe(&argc, argv, "wait-child", &fd, &which)) {
        if (gl_options_parse(&exp, opts, GL_ARRAY_LEN(opts), &H.common, argc, argv, stdout, stderr) != GL_PARSE_OK)
            exit(GL_EXIT_USAGE); /* the parent's checks were made: a child only parses */
        wait_child(&H, fd, which);
    }
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &H.common, argc, argv);
    H.argv = argv;
    gl_sched_lab S;
    gl_sched_lab_open(&S, exp.name, &H.common);
    if (H.part != PART_WAITS) part_counter(&H, &S);
    if (H.part != PART_COUNTER) part_waits(&H, &S.rep);
    return gl_sched_lab_close(&S, &H.common);
}
