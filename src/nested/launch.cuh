/* launch.cuh - what launch-host and launch-device share: the child kernel
 * every probe starts, the record it fills, and the bookkeeping of a row's runs.
 * Children are one thread doing real work (atomics on one record), so no
 * kernel is empty and every launch is counted; device times are %globaltimer
 * readings, host times are mapped onto it by the run's clock alignment. */
#ifndef GL_NESTED_LAUNCH_CUH
#define GL_NESTED_LAUNCH_CUH

#include <stdio.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_spans.cuh"

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

/* The grid being started: one thread records when it ran and adds its token. */
__global__ void child(probe_record *r, unsigned long long token)
{
    unsigned long long t0 = gl_globaltimer();
    atomicMin(&r->first_start, t0);
    atomicAdd(&r->ran, 1ULL);
    atomicAdd(&r->token_sum, token);
    atomicMax(&r->last_end, gl_globaltimer());
}

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
    gl_common common;          /* the common options */
    gl_report rep;             /* rows, claims and checks */
    gl_device dev;             /* the GPU, with the clock alignment */
    int launches;              /* K: kernels per burst (per launching thread on the device) */
    probe_record *d_rec;       /* the record every run fills */
    gl_dev_error *d_err;       /* failed child launches: fatal (exit 3) */
    double timeout_s;          /* longest any run may take before it counts as hung */
    cudaStream_t stream;       /* the stream of the part in progress */
    cudaGraphExec_t exec;      /* the graph the part in progress launches */
    int probe;                 /* the row in progress: which of the experiment's probes it measures */
    int kind, blocks, n;       /* launch-device: its stream kind, launching threads, and children each */
    int tail;                  /* its children are tail launches: their order is counted and claimed */
    tally t;                   /* its tally */
    gl_dev_error *d_graph_err; /* launch-device: failed device graph launches skip the row */
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
 * of them made from device code; a tail run also counts whether its first
 * child started after the launcher's last reading. */
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
    if (L->tail) {
        double margin = ns_between(r.parent_end, r.first_start);
        if (t->ordered_runs++ == 0 || margin < t->worst_margin_ns) t->worst_margin_ns = margin;
        t->ordered += margin >= 0;
    }
    return r;
}

/* Sample one row with fn: its series are the space-separated names, all in
 * unit (the first shows min and noise). Then its check, that every child ran,
 * once, with its own token, and for a tail row the claim on their order. */
static void measure_row(lab *L, gl_row *row, const char *unit, const char *names, gl_sample_fn fn)
{
    gl_sampler smp;
    memset(&L->t, 0, sizeof L->t);
    gl_device_sampler(&smp, &L->dev, &L->common);
    for (unsigned flags = GL_SHOW_MIN | GL_SHOW_NOISE; *names; flags = GL_SHOW_NOISE) {
        int len = (int)strcspn(names, " ");
        char name[32];
        snprintf(name, sizeof name, "%.*s", len, names);
        gl_sampler_series(&smp, name, unit, 3, flags);
        names += len + (names[len] == ' ');
    }
    gl_sampler_run(&smp, row, fn, L);
    gl_sampler_free(&smp);
    const tally *t = &L->t;
    char text[160], evidence[256];
    snprintf(text, sizeof text, "%s %s: every launched child ran, once, with its own argument", row->table,
             row->variant);
    snprintf(evidence, sizeof evidence, "%llu of %llu ran, token sum %llu of %llu, %llu of %llu device-side calls "
             "succeeded, %llu runs", t->ran, t->expected, t->sum, t->expected_sum, t->launched, t->expected_dev,
             t->runs);
    int ok = t->ran == t->expected && t->sum == t->expected_sum && t->launched == t->expected_dev;
    gl_check_evidence(&L->rep, row, ok, text, evidence);
    if (!L->tail) return;
    snprintf(text, sizeof text, "runs (worst first child start - parent's last reading: %.3f us)",
             t->worst_margin_ns / 1e3);
    gl_claim_every(&L->rep, row, GL_CLAIM_ORDERING, "a tail-launched child starts after its parent grid ended",
                   t->ordered, t->ordered_runs, text, "no tail run was made");
}

/* Capture K child launches into a graph (its instantiation is the caller's, outside any timing). */
static cudaGraph_t capture_burst(lab *L)
{
    cudaGraph_t g;
    CUDA_CHECK(cudaStreamBeginCapture(L->stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < L->launches; i++) child<<<1, 1, 0, L->stream>>>(L->d_rec, (unsigned long long)i + 1);
    CUDA_CHECK_LAUNCH("child (captured)");
    CUDA_CHECK(cudaStreamEndCapture(L->stream, &g));
    return g;
}

/* A non-blocking stream with the name Nsight Systems shows. */
static cudaStream_t named_stream(const char *name)
{
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    gl_nvtx_name_stream(s, "%s", name);
    return s;
}

/* Parse the options (--launches, whose help says what K counts here, and
 * --part from parts), refuse --trace and --timeline before the runtime
 * starts, open the report and the device, and make the record. Returns the
 * index of the part chosen (0: all). */
static int lab_open(lab *L, const gl_experiment *exp, const char *parts, const char *launches_help, int argc,
                    char **argv)
{
    memset(L, 0, sizeof *L);
    int part = 0;
    L->launches = 1000;
    gl_option opts[] = {
        {"launches", GL_OPT_INT, &L->launches, 1, 100000, NULL, "100", launches_help, 0},
        {"part", GL_OPT_CHOICE, &part, 0, 0, parts, NULL, "which part to run", 0},
    };
    gl_common_defaults(&L->common);
    gl_options_parse_or_exit(exp, opts, GL_ARRAY_LEN(opts), &L->common, argc, argv);
    if (L->common.trace_path || L->common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: %s records no spans (its children keep one record per run, "
                              "not one per grid)", exp->name);
    gl_report_init(&L->rep, exp->name, &L->common);
    gl_device_open(&L->dev, &L->common, &L->rep);
    /* The longest run: launch-device's many-thread tail burst, #SMs x K children one after another. */
    L->timeout_s = 60 + 1e-4 * (double)L->dev.sms * L->launches;
    CUDA_CHECK(cudaMalloc((void **)&L->d_rec, sizeof(probe_record)));
    L->d_err = gl_dev_error_create();
    return part;
}

/* Free the record, close the device, finish the report; returns the exit code. */
static int lab_close(lab *L)
{
    gl_dev_error_destroy(L->d_err);
    CUDA_CHECK(cudaFree(L->d_rec));
    gl_device_close(&L->dev);
    return gl_report_finish(&L->rep);
}

#endif
