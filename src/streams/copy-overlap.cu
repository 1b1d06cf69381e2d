/* copy-overlap.cu - the textbook's segmented vector sum: copies overlapped with kernels, on the model.
 *
 * Question: how much does cutting an H2D-kernel-D2H job into N streams gain, and does the model predict each run?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims --n 100003
 *
 * c = a + b over --n floats, cut into N segments, one blocking stream each (the textbook's chapter 6): each
 * segment copies its a and b to the device, runs the kernel, and copies its c back, issued depth-first
 * (segment by segment) or breadth-first (all H2D, all kernels, all D2H); N = 1 is the unsegmented run. Two
 * kernels: copy-bound (one add per element) and compute-bound (--fmas dependent FMAs per element, by default
 * as long as copying a and b). Host memory pinned, or pageable (the driver stages it). Every op is the
 * experiment's own, issued through the core's gl_schedrun.h, so each run is also simulated by the scheduling
 * model with that run's measured host times and the copy engines measured at the start (the copies: line);
 * the time is the textbook's: an event on the legacy stream before and after. Each row claims the measured
 * time is the model's within --tolerance + 20 us, and gives both speed-ups over N = 1 beside the textbook's
 * pipeline form, (h + k + d)/N + (N - 1) max(h, k, d)/N for stage times h (both H2D), k, d (D2H) alone, which
 * assumes no shared link and no issue cost. Breadth-first rows claim that the first D2H ends before the last
 * H2D where the model says so (copy ends from events): opposite directions overlap. With pinned memory the timed
 * runs record no event behind each copy (a timed record costs the engine 1-3.5 us a copy while both directions
 * run, +5-12% at N = 32, which the model does not have); one run more records them for this claim. The
 * calibration's pair, two large H2D at once taking 1.8x one or more, shows that one direction's copies
 * serialize.
 * Pageable copies go at the host's memory pace, which moved between a timing and the run just after it (11-20%
 * either way on the H200): each run's pageable copies are timed on its own buffers just before it ("model
 * before"), and the model judged ("model") takes each one's own time in the run (from when it could start to its
 * call's return; gl_sched_run_own_pace), as it takes the host's time between calls: what it predicts is the
 * rest, which copies wait, and for what. c is poisoned before every run and checked against the CPU's, exactly
 * (the same FMA chain). A row whose times' noise is over 10% after its repeats is run again, up to twice, every
 * run kept (a note line says so): on an H100 machine rows ran twice as long for several runs at a time.
 *
 * Run:   make run-copy-overlap ARGS="--segments 1,4,16 --memory pinned"
 * Nsight Systems (make profile-copy-overlap): NVTX ranges "overlap <kernel> <memory> <order> N=<n>"; streams
 * "segment <i>".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_check.h"
#include "gl_copies.h"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"
#include "gl_spans.cuh"

enum { STAGE_A, STAGE_B, STAGE_KERNEL, STAGE_C }; /* a segment's four ops, in stream order */
enum { COPY_BOUND, COMPUTE_BOUND };
static const char *const kernel_names[] = {"copy-bound", "compute-bound"};
static const char *const memory_names[] = {"pinned", "pageable"};
static const char *const order_names[] = {"depth", "breadth"};

/* c = a + b, then --fmas times c = c * 0.5 + b (dependent FMAs the compiler cannot drop: scale is an argument).
 * A grid-stride loop over one segment; each block closes the op's span. */
__global__ void vector_sum(const float *a, const float *b, float *c, long n, int repeat, float scale, gl_span_buf spans,
                           unsigned int slot, int label, int track)
{
    unsigned long long t0 = gl_globaltimer();
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
        float x = a[i] + b[i], y = b[i];
        for (int r = 0; r < repeat; r++) x = fmaf(x, scale, y);
        c[i] = x;
    }
    gl_span_block_end(spans, slot, t0, label, track, -1);
}

typedef struct overlap {
    long n;                  /* elements */
    float *h[2][3], *d[3];   /* host a, b, c (pinned, pageable); device a, b, c */
    int memory, repeat;      /* the configuration being run */
    int *stage, *segment;    /* per op of the program */
    long *first, *count;     /* per segment: its elements */
    int threads, grid_cap;   /* the kernel's block, and one wave of blocks */
    gl_sched_run run;
    int start, stop;         /* the events before and after */
    int start_op, stop_op;   /* their records */
} overlap;

static void issue(gl_sched_run *r, int op, cudaStream_t s, void *ctx)
{
    overlap *o = (overlap *)ctx;
    int seg = o->segment[op], st = o->stage[op];
    long first = o->first[seg], n = o->count[seg];
    size_t bytes = (size_t)n * sizeof(float);
    float **h = o->h[o->memory];
    if (st == STAGE_A || st == STAGE_B)
        CUDA_CHECK(cudaMemcpyAsync(o->d[st] + first, h[st] + first, bytes, cudaMemcpyHostToDevice, s));
    else if (st == STAGE_C)
        CUDA_CHECK(cudaMemcpyAsync(h[2] + first, o->d[2] + first, bytes, cudaMemcpyDeviceToHost, s));
    else {
        const gl_sched_op *k = &r->prog->ops[op];
        vector_sum<<<k->blocks, o->threads, 0, s>>>(o->d[0] + first, o->d[1] + first, o->d[2] + first, n, o->repeat,
                                                    0.5f, r->spans.dev, r->slot[op], k->label, k->track);
        CUDA_CHECK_LAUNCH("vector_sum");
    }
}

/* Blocks for n elements: one per threads, at most one wave. */
static int grid_of(const overlap *o, long n)
{
    long g = (n + o->threads - 1) / o->threads;
    return (int)(g < 1 ? 1 : g > o->grid_cap ? o->grid_cap : g);
}

/* The op issued at step of 4 N in this order: depth-first a segment's four ops in turn; breadth-first every
 * segment's a and b (the textbook's first loop), then every kernel, then every D2H. */
static void step_of(int order, int N, int step, int *seg, int *stage)
{
    if (!order) {
        *seg = step / 4, *stage = step % 4;
    } else if (step < 2 * N) {
        *seg = step / 2, *stage = step % 2;
    } else {
        *seg = step % N, *stage = step < 3 * N ? STAGE_KERNEL : STAGE_C;
    }
}

/* The program: N blocking streams, the start event on the legacy stream, the segments' ops, the stop event.
 * kernel_ns is each kernel's time alone (the model's block time: one wave). Returns the stop record's op. */
static int build(gl_sched_program *p, overlap *o, int N, int order, int per_sm, double kernel_ns)
{
    gl_sched_program_init(p);
    int streams[64];
    for (int i = 0; i < N; i++) streams[i] = gl_sched_stream_new(p, GL_SCHED_STREAM_BLOCKING, 0, -1);
    o->start = gl_sched_event_new(p), o->stop = gl_sched_event_new(p);
    o->start_op = gl_sched_record(p, 0, GL_SCHED_LEGACY, o->start);
    for (int step = 0; step < 4 * N; step++) {
        int seg, st, op;
        step_of(order, N, step, &seg, &st);
        if (st == STAGE_KERNEL) {
            op = gl_sched_launch(p, 0, streams[seg], grid_of(o, o->count[seg]), o->threads, per_sm, kernel_ns, seg);
            p->ops[op].label = seg;
        } else {
            op = gl_sched_copy(p, 0, streams[seg], st == STAGE_C ? GL_SCHED_D2H : GL_SCHED_H2D,
                               (double)o->count[seg] * sizeof(float), o->memory);
        }
        p->ops[op].user = 1;
        o->stage[op] = st, o->segment[op] = seg;
    }
    return o->stop_op = gl_sched_record(p, 0, GL_SCHED_LEGACY, o->stop);
}

/* How long before the last H2D ended the first D2H did (us; ends: measured, or NULL for the model's). By end,
 * not by issue: the H2D engine does not take the segments' copies in the order they were issued (under nsys at
 * C = 8, breadth-first N = 7: segments 0, 2, 6, 1, 5, 4, 3, each one's a and b together). */
static double d2h_lead(const gl_sched_program *p, const double *measured)
{
    double first_d2h = INFINITY, last_h2d = -INFINITY;
    for (int i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind != GL_SCHED_COPY) continue;
        double end = measured ? measured[i] : p->ops[i].end_ns;
        if (p->ops[i].dir == GL_SCHED_D2H) first_d2h = fmin(first_d2h, end);
        else last_h2d = fmax(last_h2d, end);
    }
    return (last_h2d - first_d2h) / 1e3;
}

/* Cut n into N segments as even as they come (the textbook drops n % N; here every element is summed). */
static void segments(overlap *o, int N)
{
    for (int i = 0; i < N; i++) {
        o->first[i] = o->n * i / N;
        o->count[i] = o->n * (i + 1) / N - o->first[i];
    }
}

/* One kernel of the first segment's size, alone in a stream: its time from the first block's start to the last
 * block's end (the median of 3 runs, ns). */
static double kernel_alone(overlap *o, int per_sm, gl_sched_machine *m)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    int s = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int k = gl_sched_launch(&p, 0, s, grid_of(o, o->count[0]), o->threads, per_sm, 0, 0);
    p.ops[k].user = 1;
    o->stage[k] = STAGE_KERNEL, o->segment[k] = 0;
    gl_sched_run_create(&o->run, &p, m, 0);
    o->run.user_op = issue, o->run.user_ctx = o;
    double t[3];
    for (int r = 0; r < 4; r++) { /* r = 0: untimed */
        gl_sched_run_once(&o->run);
        const gl_interval *i = gl_sched_run_kernel(&o->run, k);
        if (r > 0) t[r - 1] = i ? i->end_ns - i->start_ns : NAN;
    }
    gl_sched_run_destroy(&o->run);
    gl_sched_program_free(&p);
    return gl_stats_of(t, 3).median;
}

/* One run: the textbook's time between the two events, measured and simulated (us). */
static void run_overlap(gl_sample *smp, void *arg)
{
    overlap *o = (overlap *)arg;
    size_t bytes = (size_t)o->n * sizeof(float);
    gl_sched_run_time_pageable(&o->run); /* the pageable copies' times, this moment's (none with pinned memory) */
    /* c poisoned before every run, a segment not computed shows; the host's copy by a copy, not by the CPU: a
     * D2H into host memory the CPU has just written ran 25% slower on the H200 (4 MB: 92-94 us, 72 alone). */
    CUDA_CHECK(cudaMemset(o->d[2], 0xff, bytes));
    CUDA_CHECK(cudaMemcpy(o->h[o->memory][2], o->d[2], bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaDeviceSynchronize()); /* the memset done: the run's legacy-stream start event must not wait for it */
    gl_sched_run_once(&o->run);
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, o->run.event[o->start], o->run.event[o->stop]));
    gl_sample_put(smp, "time", ms * 1e3);
    const gl_sched_op *ops = o->run.prog->ops;
    gl_sample_put(smp, "model_before", (ops[o->stop_op].end_ns - ops[o->start_op].end_ns) / 1e3);
    double wake = 0;
    gl_sched_run_own_pace(&o->run, &wake); /* the pageable copies' pace in the run (none with pinned memory) */
    gl_sample_put(smp, "model", (ops[o->stop_op].end_ns - ops[o->start_op].end_ns) / 1e3);
}

/* The CPU's c, the kernel's chain in the same order; the compute-bound chain only where it is checked. */
static float reference(const float *a, const float *b, long i, int repeat)
{
    float x = a[i] + b[i];
    for (int r = 0; r < repeat; r++) x = fmaf(x, 0.5f, b[i]);
    return x;
}

/* Compare c with the CPU's: every element for the copy-bound kernel; for the compute-bound one (thousands of
 * FMAs an element) each segment's first and last 4096 and every 61st element. Returns the mismatches. */
static long check_c(const overlap *o, int N, int repeat, long *checked, long *first_bad)
{
    float *const *h = o->h[o->memory];
    long bad = 0;
    *checked = 0, *first_bad = -1;
    for (int s = 0; s < N; s++)
        for (long i = o->first[s]; i < o->first[s] + o->count[s]; i++) {
            long off = i - o->first[s];
            if (repeat > 0 && off >= 4096 && o->count[s] - off > 4096 && i % 61) continue;
            (*checked)++;
            if (h[2][i] != reference(h[0], h[1], i, repeat)) {
                if (bad++ == 0) *first_bad = i;
            }
        }
    return bad;
}

/* The textbook's stage times (us) with pageable memory: a whole H2D of a (twice: a and b) and D2H of c on these
 * very buffers, the median of 3 after one. Pageable copies go at the host's pace, which switched between two levels
 * on the H200 (gl_copies.h): each run's model takes its copies' times from just before it (run_overlap). */
static void pageable_stages(const overlap *o, double *h, double *d)
{
    size_t bytes = (size_t)o->n * sizeof(float);
    *h = 2 * gl_copy_time_ns(o->d[0], o->h[1][0], bytes, cudaMemcpyHostToDevice, 0, 3) / 1e3;
    *d = gl_copy_time_ns(o->h[1][2], o->d[2], bytes, cudaMemcpyDeviceToHost, 0, 3) / 1e3;
    printf("pageable copies on this run's buffers: H2D %.1f GB/s, D2H %.1f GB/s (medians of 3)\n",
           2 * bytes / (*h * 1e3), bytes / (*d * 1e3));
}

/* The textbook's pipeline form for N segments of stage times h, k, d (us). */
static double pipeline(double h, double k, double d, int N)
{
    return (h + k + d) / N + (N - 1) * fmax(h, fmax(k, d)) / N;
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "copy-overlap",
        "how much does cutting an H2D-kernel-D2H job into N streams gain, and does the model predict each run?",
        "The textbook's segmented vector sum, depth-first and breadth-first, pinned and pageable, a copy-bound and\n"
        "a compute-bound kernel; each run against the scheduling model's simulation of it."};
    long long n = 1 << 24;
    int kernel_choice = 0, memory_choice = 0, order_choice = 0, repeat = 0;
    double tolerance = 0.10;
    static const int default_segments[] = {1, 2, 4, 8, 16, 32};
    gl_int_list segs = {NULL, 0};
    gl_option opts[] = {
        {"n", GL_OPT_U64, &n, 1, 1 << 28, NULL, "4194304", "elements of a, b and c (floats)", 0},
        {"segments", GL_OPT_INT_LIST, &segs, 1, 64, NULL, "1,4", "segment counts N (default 1,2,4,8,16,32)", 0},
        {"kernel", GL_OPT_CHOICE, &kernel_choice, 0, 0, "both|copy-bound|compute-bound", NULL, "the kernels run", 0},
        {"memory", GL_OPT_CHOICE, &memory_choice, 0, 0, "both|pinned|pageable", NULL, "the host memory", 0},
        {"order", GL_OPT_CHOICE, &order_choice, 0, 0, "both|depth|breadth", NULL, "the issue orders (N > 1)", 0},
        {"fmas", GL_OPT_INT, &repeat, 0, 100000, NULL, NULL,
         "FMAs per element of the compute-bound kernel (0: as long as copying a and b)", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0}};
    gl_common common;
    gl_sched_lab L;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    if (segs.n == 0) {
        segs.n = GL_ARRAY_LEN(default_segments);
        segs.v = (int *)gl_xmalloc(sizeof default_segments);
        memcpy(segs.v, default_segments, sizeof default_segments);
    }
    gl_sched_lab_open(&L, exp.name, &common);
    overlap o;
    memset(&o, 0, sizeof o);
    o.n = (long)n;
    o.threads = 256;
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vector_sum, o.threads, 0));
    if (per_sm < 1) gl_no_gpu("a %d-thread block of the vector sum does not fit on an SM of this GPU", o.threads);
    o.grid_cap = per_sm * L.dev.sms;
    gl_sched_lab_calibrate(&L, o.threads, 200);
    size_t bytes = (size_t)o.n * sizeof(float);
    gl_copy_machine cm;
    /* five repeats at --quick too: with three, one slow copy alone (16 MiB at 49 GB/s, not 55) put the pair at
     * 1.78x in the GPU suite (session 10) */
    gl_copy_calibrate(&L.dev, 4096, common.quick ? 16u << 20 : 64u << 20, 5, &cm);
    gl_copy_print(&cm);
    if (gl_copy_machine_apply(&cm, &L.machine) != 0) { /* every run is simulated: without engines, nothing can be */
        gl_claim_skip(&L.rep, NULL, GL_CLAIM_TIMING, "copy-overlap", "n/a: the copy engines did not fit: %s", cm.fit_error);
        return gl_sched_lab_close(&L, &common);
    }
    /* One direction's copies take turns: two at once take about twice one (one engine, or one link, per direction). */
    gl_claim_ratio_at_least(&L.rep, NULL, GL_CLAIM_TIMING, "two large H2D copies at once take at least 1.8x one "
                            "alone: one direction's copies serialize", "two at once", cm.t.pair_ns[GL_SCHED_H2D], "one",
                            cm.t.large_ns[GL_SCHED_H2D], 1.8);
    /* The buffers: host a, b, c in the memories asked for, device a, b, c; random a and b. */
    for (int m = 0; m < 2; m++) {
        if (memory_choice && memory_choice - 1 != m) continue;
        for (int k = 0; k < 3; k++) {
            if (m == 0) CUDA_CHECK(cudaMallocHost((void **)&o.h[m][k], bytes));
            else o.h[m][k] = (float *)gl_xmalloc(bytes);
            if (k < 2) gl_fill_f32(o.h[m][k], (size_t)o.n, common.seed, (unsigned)k, -1, 1);
        }
    }
    for (int k = 0; k < 3; k++) CUDA_CHECK(cudaMalloc((void **)&o.d[k], bytes));
    int max_n = gl_int_list_max(segs);
    o.stage = (int *)gl_xcalloc((size_t)4 * max_n + 8, sizeof(int));
    o.segment = (int *)gl_xcalloc((size_t)4 * max_n + 8, sizeof(int));
    o.first = (long *)gl_xcalloc((size_t)max_n + 1, sizeof(long));
    o.count = (long *)gl_xcalloc((size_t)max_n + 1, sizeof(long));

    gl_sampler smp;
    gl_device_sampler(&smp, &L.dev, &common);
    gl_sampler_series(&smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(&smp, "model", "us", 1, 0);
    gl_sampler_series(&smp, "model_before", "us", 1, 0);
    gl_sampler_steady(&smp, "time", 0.10, 3); /* a row disturbed for a while gets more runs (gl_sample.h) */
    const gl_sched_machine *mm = &L.machine;
    for (int kern = 0; kern < 2; kern++) {
        if (kernel_choice && kernel_choice - 1 != kern) continue;
        segments(&o, 1);
        o.memory = 0;
        int rep_k = 0;
        if (kern == COMPUTE_BOUND) { /* as long as both H2D copies, unless --fmas says */
            rep_k = repeat;
            if (!rep_k) {
                o.repeat = 256;
                double t = kernel_alone(&o, per_sm, &L.machine);
                double h = 2 * (mm->copy_latency_ns[0] + bytes / fmax(mm->copy_gbps[0], 1e-9));
                rep_k = (int)fmin(100000, fmax(1, 256 * h / t));
            }
        }
        o.repeat = rep_k;
        for (int mem = 0; mem < 2; mem++) {
            if (memory_choice && memory_choice - 1 != mem) continue;
            o.memory = mem;
            double h = 2 * (mm->copy_latency_ns[0] + bytes / fmax(mm->copy_gbps[0], 1e-9)) / 1e3;
            double d = (mm->copy_latency_ns[1] + bytes / fmax(mm->copy_gbps[1], 1e-9)) / 1e3;
            if (mem == 1) pageable_stages(&o, &h, &d);
            segments(&o, 1);
            double k1 = kernel_alone(&o, per_sm, &L.machine) / 1e3, t1 = NAN, m1 = NAN, best = NAN;
            for (int si = -1; si < segs.n; si++) {
                int N = si < 0 ? 1 : segs.v[si];
                if (si >= 0 && N == 1) continue; /* the baseline, run first */
                for (int order = 0; order < 2; order++) {
                    if ((N == 1 && order) || (N > 1 && order_choice && order_choice - 1 != order)) continue;
                    segments(&o, N);
                    double kn = kernel_alone(&o, per_sm, &L.machine);
                    gl_sched_program p;
                    build(&p, &o, N, order, per_sm, kn);
                    memset(&o.run, 0, sizeof o.run);
                    o.run.timed_events = 1;
                    o.run.no_copy_ends = mem == 0; /* pinned: the timed runs without gridlab's copy-end records */
                    o.run.user_op = issue, o.run.user_ctx = &o;
                    gl_sched_run_create(&o.run, &p, &L.machine, 0);
                    for (int i = 0; i < N && i < 8; i++) gl_nvtx_name_stream(o.run.stream[i + 1], "segment %d", i);
                    gl_row *row = gl_report_row(&L.rep, "overlap", kernel_names[kern]);
                    gl_row_param(row, "memory", "%s", memory_names[mem]);
                    gl_row_param(row, "order", "%s", N == 1 ? "-" : order_names[order]);
                    gl_row_param_num(row, "segments", "", 0, N);
                    gl_row_param_num(row, "fmas", "", 0, o.repeat);
                    gl_nvtx_push("overlap %s %s %s N=%d", kernel_names[kern], memory_names[mem], order_names[order], N);
                    gl_sampler_run(&smp, row, run_overlap, &o);
                    gl_nvtx_pop();
                    double t = gl_row_median(row, "time"), m = gl_row_median(row, "model");
                    double form = pipeline(h, k1, d, N);
                    if (N == 1) t1 = t, m1 = m;
                    gl_row_number(row, "textbook", "us", 1, 0, form);
                    gl_row_number(row, "speedup", "x", 2, 0, t1 / t);
                    gl_row_number(row, "model_speedup", "x", 2, 0, m1 / m);
                    gl_row_number(row, "textbook_speedup", "x", 2, 0, pipeline(h, k1, d, 1) / form);
                    gl_row_number(row, "link", "GB/s", 1, 0, 3.0 * bytes / (t * 1e3));
                    long checked, first_bad, bad = check_c(&o, N, o.repeat, &checked, &first_bad);
                    char at[48] = "";
                    if (bad) snprintf(at, sizeof at, ", the first at %ld", first_bad);
                    gl_check(&L.rep, row, bad == 0, "c = a + b%s: %ld of %ld elements checked wrong%s",
                             o.repeat ? " then the FMA chain" : "", bad, checked, at);
                    char text[200];
                    snprintf(text, sizeof text, "%s %s %s N=%d: the time is the model's simulation of the run%s",
                             kernel_names[kern], memory_names[mem], N == 1 ? "-" : order_names[order], N,
                             mem ? ", its pageable copies at the run's own pace" : "");
                    gl_claim_near(&L.rep, row, GL_CLAIM_TIMING, text, m, t, tolerance, 20, "us");
                    if (N > 1 && order) { /* breadth-first: the D2Hs can run while later segments' H2Ds do */
                        if (o.run.no_copy_ends) { /* one run more, with the copies' ends recorded, for this */
                            o.run.no_copy_ends = 0;
                            gl_sched_run_once(&o.run);
                        }
                        double lead = d2h_lead(&p, o.run.copy_end_ns), mlead = d2h_lead(&p, NULL);
                        gl_row_number(row, "d2h_lead", "us", 1, 0, lead);
                        gl_row_number(row, "model_d2h_lead", "us", 1, 0, mlead);
                        snprintf(text, sizeof text, "%s %s breadth N=%d: the first D2H ends %s the last H2D, as the "
                                 "model says", kernel_names[kern], memory_names[mem], N, mlead > 0 ? "before" : "after");
                        gl_claim_fact(&L.rep, row, GL_CLAIM_TIMING, (lead > 0) == (mlead > 0), text,
                                      "the last run, copy ends recorded: %.1f us before it (model %.1f; copy ends "
                                      "early by at most %.1f)",
                                      lead, mlead, o.run.copy_anchor_error_ns / 1e3);
                        if (kern == COPY_BOUND && mem == 0) best = lead;
                    }
                    gl_sched_run_destroy(&o.run);
                    gl_sched_program_free(&p);
                }
            }
            if (kern != COPY_BOUND || mem != 0) continue;
            /* Opposite directions overlap: in the breadth-first run of the largest N, a D2H ended while H2Ds ran. */
            if (isnan(best))
                gl_claim_skip(&L.rep, NULL, GL_CLAIM_TIMING, "copy-bound, pinned: opposite directions overlap",
                              "n/a: no breadth-first run with N > 1 (--segments, --order)");
            else
                gl_claim_at_least(&L.rep, NULL, GL_CLAIM_TIMING, "copy-bound, pinned: opposite directions overlap: "
                                  "the first D2H ended before the last H2D (largest N, breadth-first)", best, 0, "us");
        }
    }
    gl_sampler_free(&smp);
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++)
            if (o.h[m][k]) {
                if (m == 0) CUDA_CHECK(cudaFreeHost(o.h[m][k]));
                else free(o.h[m][k]);
            }
    for (int k = 0; k < 3; k++) CUDA_CHECK(cudaFree(o.d[k]));
    free(o.stage), free(o.segment), free(o.first), free(o.count);
    return gl_sched_lab_close(&L, &common);
}
