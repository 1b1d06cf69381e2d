/* module-loading.cu - NVIDIA's simpleHyperQ under lazy and eager module loading, against the scheduling model.
 *
 * Question: what does lazy module loading cost NVIDIA's simpleHyperQ pattern, and does the model predict it at every C?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * The pattern (cuda-samples simpleHyperQ, its 10 ms kernels made --kernel-us): S = 32 streams from
 * cudaStreamCreate (blocking), each given kernel_A then kernel_B of one block, issued stream by stream between
 * two events recorded on the legacy default stream, which time it (the sample's sum kernel and copy come after
 * the stop event and are left out). Under lazy loading (CUDA_MODULE_LOADING=LAZY) the first launch of a kernel
 * function loads it, and the load waits for everything already issued, in every stream, and holds back all
 * that is issued after it (gl_sched.h, "Loads"): kernel_B's first launch, in stream 0, waits for kernel_A there,
 * and every other stream waits behind it. With C >= 2 queues the pattern ends a kernel time later; with one,
 * the queue serialized it anyway. Under eager loading nothing waits.
 *
 * Each run is a scheduling-model program issued by gl_schedrun.h and simulated with its calls' measured host
 * times. The kernels are the core's one-warp work kernel, loaded before the first run; a load is a launch of one
 * of the core's never-launched kernels right before the real first launch (gl_loads.h), so every lazy run loads
 * twice, as a program that never warms up does. Each process has 256 of them: 8 calibrate the load's time, and
 * each lazy run takes 2, so warm-up + repeats are at most 62 with both stream kinds (more is refused, exit 2).
 *
 * Variants: lazy and eager (--loading), blocking and non-blocking streams (--kind). The driver reads
 * CUDA_MODULE_LOADING once, so a list of modes re-executes this binary once per mode, as --connections does per
 * C, and merges the reports. Table "pattern", per row, hyperq's legacy claims: makespan, and with blocking
 * streams the event-timed makespan, within --tolerance (10%) of the simulation; peak concurrency equal; median
 * kernel start error <= 5% of T. Table "lazy-cost" (both modes run): lazy's extra makespan against the model's
 * (within --tolerance + T/10), in kernel times, and as a share of the eager run: what the pattern costs a
 * program that never warms up. The driver's default mode (the variable unset) is a finding.
 *
 * Run:   make run-module-loading ARGS="--connections 1,2,4,8,16,32"
 * Nsight Systems (make profile-module-loading ARGS="--loading lazy"): NVTX ranges "pattern <variant> C=..",
 * streams "stream N"; the loads are the one-thread gl_fresh<N> kernels before stream 0's kernel_A and kernel_B.
 * --trace and --timeline show each row's last run beside its simulation.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gl_child.h"
#include "gl_connections.h"
#include "gl_loads.h"
#include "gl_sweep.h"
#include "queue.cuh"

enum { MODE_LAZY, MODE_EAGER, N_MODES };
enum { KIND_BLOCKING, KIND_NONBLOCKING, N_KINDS };
enum { LABEL_A, LABEL_B };
enum { LOAD_CAL = 8 }; /* first launches that calibrate a load's time (gl_load_calibrate) */
static const char *const mode_names[] = {"lazy", "eager"};
static const char *const mode_env[] = {"LAZY", "EAGER"};
static const char *const kind_names[] = {"blocking", "non-blocking"};

typedef struct ml_lab {
    gl_sched_lab L;     /* report, device, the model's machine, trace */
    gl_common common;   /* the common options */
    gl_sampler smp;     /* the series of every row */
    gl_sched_run run;   /* the row's program on the GPU, and its simulation */
    int streams;        /* S */
    double kernel_us;   /* T */
    double tolerance;   /* relative tolerance of the timing claims */
    int mode;           /* MODE_LAZY or MODE_EAGER: the mode this process asked the driver for */
    int rec0, rec1;     /* the ops of the legacy-stream events around the pattern */
} ml_lab;

/* A kernel's name in the timeline and the trace. */
static void label_name(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    gl_buf_puts(out, label == LABEL_A ? "kernel_A" : "kernel_B");
}

/* ---- the pattern, run and simulated ------------------------------------------------------------------------ */

/* simpleHyperQ as a program: an event on the legacy stream, kernel_A then kernel_B in each of S streams, stream
 * by stream, and an event; under lazy loading a load before the first launch of each of the two kernels. */
static void build(ml_lab *M, gl_sched_program *p, int kind)
{
    gl_sched_program_init(p);
    int first = 0;
    for (int s = 0; s < M->streams; s++) {
        int st = gl_sched_stream_new(p, kind == KIND_BLOCKING ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING,
                                     0, -1);
        if (s == 0) first = st;
    }
    M->rec0 = gl_sched_record(p, 0, GL_SCHED_LEGACY, gl_sched_event_new(p));
    for (int s = 0; s < M->streams; s++)
        for (int k = LABEL_A; k <= LABEL_B; k++) {
            if (M->mode == MODE_LAZY && s == 0) gl_sched_load(p, 0, first);
            int op = warp_kernel(p, first + s, M->kernel_us * 1e3);
            p->ops[op].label = k;
            p->ops[op].track = s;
        }
    M->rec1 = gl_sched_record(p, 0, GL_SCHED_LEGACY, gl_sched_event_new(p));
}

/* One sample: the run, its kernels against the simulation's, and the two events' time against the model's. */
static void sample(gl_sample *s, void *arg)
{
    ml_lab *M = (ml_lab *)arg;
    gl_sched_run_once(&M->run);
    gl_sched_run_put(s, &M->run, M->L.machine.dispatch_ns);
    const gl_sched_op *o = M->run.prog->ops;
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, M->run.event[o[M->rec0].event], M->run.event[o[M->rec1].event]));
    gl_sample_put(s, "model_event_makespan", (o[M->rec1].end_ns - o[M->rec0].end_ns) / 1e6);
    gl_sample_put(s, "event_makespan", ms);
}

/* The row of one stream kind: the runs, then hyperq's claims on them, and the last run beside its model. */
static void pattern_row(ml_lab *M, int kind)
{
    const gl_sched_machine *m = &M->L.machine;
    gl_report *rep = &M->L.rep;
    gl_sched_program p;
    build(M, &p, kind);
    memset(&M->run, 0, sizeof M->run);
    M->run.timed_events = 1; /* the sample's own timing */
    gl_sched_run_create(&M->run, &p, m, M->common.trace_path != NULL);
    for (int s = 1; s < p.n_streams; s++) gl_nvtx_name_stream(M->run.stream[s], "stream %d", s - 1);

    char variant[48], prefix[96], text[224];
    snprintf(variant, sizeof variant, "%s %s", mode_names[M->mode], kind_names[kind]);
    snprintf(prefix, sizeof prefix, "%s S=%d C=%d", variant, M->streams, m->connections);
    gl_row *row = gl_report_row(rep, "pattern", variant);
    gl_row_param(row, "loading", "%s", mode_names[M->mode]);
    gl_row_param(row, "stream_kind", "%s", kind_names[kind]);
    gl_row_param_num(row, "streams", "", 0, M->streams);
    gl_row_param_num(row, "kernel_us", "", -1, M->kernel_us);
    gl_row_param_num(row, "connections", "", 0, m->connections);
    gl_row_param_num(row, "loads_per_run", "", 0, M->mode == MODE_LAZY ? 2 : 0);
    /* The textbook's depth-first form knows no loads: under lazy loading it is a kernel time short at C >= 2. */
    gl_sched_textbook_form tb =
        gl_sched_textbook(GL_SCHED_DEPTH_FIRST, M->streams, 2, M->kernel_us * 1e3, m->connections, m->resident_grids);
    gl_row_param(row, "textbook", "%s", tb.formula);
    gl_row_number(row, "textbook_makespan", "ms", 3, 0, tb.makespan_ns / 1e6);

    gl_nvtx_push("pattern %s C=%d", variant, m->connections);
    gl_sampler_run(&M->smp, row, sample, M);
    gl_nvtx_pop();

    gl_check(rep, row, M->run.runs_complete == M->run.runs,
             "%s: %d of %d runs recorded all %d kernels, each ran its %g us, and left its result", prefix,
             M->run.runs_complete, M->run.runs, 2 * M->streams, M->kernel_us);
    double slack_ns = 2 * M->L.dev.tick_ns;
    gl_sched_run_claims(rep, row, prefix, prefix, M->tolerance, slack_ns);
    /* Non-blocking streams too: the legacy stream's stop event does not wait for them, but on the H200 it
     * completed only when its hardware queue reached it (about the makespan less T at C=1), where the model has
     * it done at its issue: a gap of the events rule, claimed and recorded (FINDINGS, "Issue 18's gaps"). */
    snprintf(text, sizeof text, "%s event-timed makespan (legacy-stream events, as the sample times it) matches "
             "the simulation", prefix);
    gl_claim_near(rep, row, GL_CLAIM_TIMING, text, gl_row_median(row, "model_event_makespan"),
                  gl_row_median(row, "event_makespan"), M->tolerance, slack_ns / 1e6, "ms");
    snprintf(text, sizeof text, "%s kernels start where the simulation puts them (median error <= 5%% of T)", prefix);
    gl_claim_at_most(rep, row, GL_CLAIM_TIMING, text, gl_row_median(row, "start_error"), 0.05 * M->kernel_us, "us");

    gl_names names = {NULL, label_name, NULL, "stream %d", NULL, NULL, 2};
    snprintf(text, sizeof text, "pattern %s C=%d", variant, m->connections);
    gl_sched_run_show(&M->L.trace, &M->common, &M->run, text, &names);
    gl_sched_run_destroy(&M->run);
    gl_sched_program_free(&p);
}

/* Set CUDA_MODULE_LOADING for this process before the driver starts, which reads it once. */
static void ask_loading(int mode)
{
    const char *want = mode_env[mode], *before = getenv("CUDA_MODULE_LOADING");
    if (before && strcmp(before, want) == 0) return;
    if (gl_runtime_started())
        gl_die(GL_EXIT_USAGE, "--loading %s: the CUDA driver started before the experiment did, so "
               "CUDA_MODULE_LOADING=%s cannot take effect; set it in the environment", mode_names[mode], want);
    if (before && *before) printf("note: --loading %s overrides CUDA_MODULE_LOADING=%s\n", mode_names[mode], before);
    setenv("CUDA_MODULE_LOADING", want, 1);
}

/* One mode in this process: the device, the model's machine with the load's time, then a row per stream kind. */
static int run_mode(ml_lab *M, const char *name, const int *kinds, int n_kinds)
{
    gl_report *rep = &M->L.rep;
    gl_sched_lab_open(&M->L, name, &M->common);
    per_sm32 = gl_work_blocks_per_sm(32);
    if (per_sm32 < 1) gl_no_gpu("a one-warp block of the work kernel does not fit on an SM of this GPU");
    gl_sched_lab_calibrate(&M->L, 32, M->kernel_us);
    gl_load_machine lm;
    gl_load_calibrate(LOAD_CAL, &lm);
    gl_load_print(&lm);
    gl_load_machine_apply(&lm, &M->L.machine);

    /* The rows are named by the mode asked: the driver must run with it, and a first launch must behave so. */
    int driver = M->L.dev.module_loading, lazy = M->mode == MODE_LAZY;
    static const char *const said[] = {"does not say", "eager", "lazy"};
    int agrees = driver == GL_MODULE_LOADING_UNKNOWN || (driver == GL_MODULE_LOADING_LAZY) == lazy;
    gl_claim_fact(rep, NULL, GL_CLAIM_TIMING, lm.lazy == lazy && agrees,
                  lazy ? "lazy loading: the driver says so, and a first launch waits for another stream's kernel"
                       : "eager loading: the driver says so, and a first launch waits for nothing",
                  "cuModuleGetLoadingMode %s; calibration: a first launch started %.1f us after a 1 ms kernel in "
                  "another stream ended (median of %d)", said[driver], lm.gap_ns / 1e3, lm.reps);
    printf("setup: simpleHyperQ: S=%d streams x (kernel_A, kernel_B) x T=%g us, one warp each, depth-first between "
           "two legacy-stream events; C=%d; loading %s: %d loads per run, load_ns %.1f us; %d of the pool's "
           "never-launched kernels left\n",
           M->streams, M->kernel_us, M->L.machine.connections, mode_names[M->mode], M->mode == MODE_LAZY ? 2 : 0,
           M->L.machine.load_ns / 1e3, gl_load_left());

    gl_device_sampler(&M->smp, &M->L.dev, &M->common);
    gl_sched_run_series(&M->smp);
    gl_sampler_series(&M->smp, "model_event_makespan", "ms", 3, 0);
    gl_sampler_series(&M->smp, "event_makespan", "ms", 3, 0);
    gl_sampler_plan(&M->smp, n_kinds);
    for (int k = 0; k < N_KINDS; k++)
        if (kinds[k]) pattern_row(M, k);
    gl_sampler_free(&M->smp);
    return gl_sched_lab_close(&M->L, &M->common);
}

/* ---- both modes: a process each, then what lazy loading added ---------------------------------------------- */

/* Is arg the option --name, alone (its value follows: *next = 1) or as --name=value? */
static int is_option(const char *arg, const char *name, int *next)
{
    size_t n = strlen(name);
    if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, n) != 0) return 0;
    *next = arg[2 + n] == '\0';
    return arg[2 + n] == '\0' || arg[2 + n] == '=';
}

/* The merged row of a mode and a stream kind, or NULL. */
static const gl_row *pattern_of(const gl_report *r, int mode, int kind)
{
    char variant[48];
    snprintf(variant, sizeof variant, "%s %s", mode_names[mode], kind_names[kind]);
    for (int i = 0; i < r->n_rows; i++)
        if (strcmp(r->rows[i]->table, "pattern") == 0 && strcmp(r->rows[i]->variant, variant) == 0) return r->rows[i];
    return NULL;
}

/* Per stream kind run in both modes: lazy's extra makespan against the model's, and its cost to the pattern. */
static void cost_rows(gl_report *r, const ml_lab *M)
{
    double T = M->kernel_us / 1e3; /* ms */
    for (int k = 0; k < N_KINDS; k++) {
        const gl_row *lazy = pattern_of(r, MODE_LAZY, k), *eager = pattern_of(r, MODE_EAGER, k);
        if (!lazy || !eager) continue;
        int copy = r->n_device == 0; /* once: the children's device, but the mode */
        for (int i = 0; copy && i < lazy->n_device; i++) {
            const gl_value *d = &lazy->device[i];
            gl_report_device(r, d->name, "%s", strcmp(d->name, "module_loading") ? d->text : "lazy vs eager");
        }
        const gl_value *conn = gl_row_find(lazy, "connections");
        double C = conn ? conn->number : NAN;
        gl_row *row = gl_report_row(r, "lazy-cost", kind_names[k]);
        gl_row_param(row, "stream_kind", "%s", kind_names[k]);
        gl_row_param_num(row, "streams", "", 0, M->streams);
        gl_row_param_num(row, "kernel_us", "", -1, M->kernel_us);
        gl_row_param_num(row, "connections", "", 0, C);
        double mk_lazy = gl_row_median(lazy, "makespan"), mk_eager = gl_row_median(eager, "makespan");
        double extra = mk_lazy - mk_eager;
        double model_extra = gl_row_median(lazy, "model_makespan") - gl_row_median(eager, "model_makespan");
        gl_row_number(row, "eager_makespan", "ms", 3, 0, mk_eager);
        gl_row_number(row, "lazy_makespan", "ms", 3, 0, mk_lazy);
        gl_row_number(row, "model_extra", "ms", 3, 0, model_extra);
        gl_row_number(row, "extra", "ms", 3, 0, extra);
        gl_row_number(row, "extra_kernels", "T", 2, 0, extra / T);
        gl_row_number(row, "cost", "%", 1, 0, 100 * extra / mk_eager);
        if (k == KIND_BLOCKING) { /* what simpleHyperQ itself prints: its events' time */
            double ev_eager = gl_row_median(eager, "event_makespan");
            double ev_extra = gl_row_median(lazy, "event_makespan") - ev_eager;
            gl_row_number(row, "event_extra", "ms", 3, 0, ev_extra);
            gl_row_number(row, "event_cost", "%", 1, 0, 100 * ev_extra / ev_eager);
        }
        /* A difference of two makespans: T/10 beside the tolerance, far below the kernel time a load adds. */
        char text[192];
        snprintf(text, sizeof text, "%s S=%d C=%.0f: lazy loading's extra makespan (lazy - eager) is the model's",
                 kind_names[k], M->streams, C);
        gl_claim_near(r, row, GL_CLAIM_TIMING, text, model_extra, extra, M->tolerance, T / 10, "ms");
        gl_report_finding(r, "lazy loading costs simpleHyperQ (S=%d %s streams, C=%.0f, T=%g us) %.2f kernel times "
                          "(%.3f ms; the model %.3f ms): %.1f%% of the eager run, in every run of a program that "
                          "never warms up", M->streams, kind_names[k], C, M->kernel_us, extra / T, extra, model_extra,
                          100 * extra / mk_eager);
    }
}

/* The driver's own default, asked with the variable unset once the modes have run (a driver started here is never
 * given work). */
static void default_finding(gl_report *r)
{
    unsetenv("CUDA_MODULE_LOADING");
    int n = 0, drv = 0, rt = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) return;
    int mode = gl_module_loading();
    if (mode == GL_MODULE_LOADING_UNKNOWN || cudaDriverGetVersion(&drv) || cudaRuntimeGetVersion(&rt)) return;
    gl_report_finding(r, "with CUDA_MODULE_LOADING unset, module loading is %s (the default of driver %d.%d, runtime "
                      "%d.%d)", mode == GL_MODULE_LOADING_LAZY ? "lazy" : "eager", drv / 1000, (drv % 1000) / 10,
                      rt / 1000, (rt % 1000) / 10);
}

/* Run this binary once per mode asked, each with --loading <mode> and a --json of its own (the driver reads
 * CUDA_MODULE_LOADING once), merge the reports, add the lazy-cost rows and the default's finding. Exit codes as a
 * --connections sweep's: the first of 2..6, else 1 on a failure, else 77 where a mode could not run. */
static int loading_sweep(const ml_lab *M, int argc, char **argv, const int *modes)
{
    char dir[] = "/tmp/gridlab-loading-XXXXXX";
    if (!mkdtemp(dir)) gl_die(GL_EXIT_IO, "cannot make a folder for the modes' reports: %s", strerror(errno));
    char **args = (char **)gl_xcalloc((size_t)argc + 8, sizeof(char *));
    int n = 0;
    args[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        int next = 0;
        if (is_option(argv[i], "json", &next) || is_option(argv[i], "csv", &next) ||
            is_option(argv[i], "trace", &next) || is_option(argv[i], "loading", &next)) {
            i += next;
            continue;
        }
        args[n++] = argv[i];
    }
    gl_report r;
    gl_report_init(&r, "module-loading", &M->common);
    int first_error = 0, failed = 0, skipped = 0;
    for (int m = 0; m < N_MODES && !skipped; m++) {
        if (!modes[m]) continue;
        gl_buf json = GL_BUF_INIT, trace = GL_BUF_INIT;
        gl_buf_printf(&json, "%s/%s.json", dir, mode_names[m]);
        int k = n;
        args[k++] = (char *)"--loading";
        args[k++] = (char *)mode_names[m];
        args[k++] = (char *)"--json";
        args[k++] = (char *)gl_buf_str(&json);
        if (M->common.trace_path) { /* FILE.json -> FILE-lazy.json */
            const char *path = M->common.trace_path, *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
            if (dot && (!slash || dot > slash + 1))
                gl_buf_printf(&trace, "%.*s-%s%s", (int)(dot - path), path, mode_names[m], dot);
            else
                gl_buf_printf(&trace, "%s-%s", path, mode_names[m]);
            args[k++] = (char *)"--trace";
            args[k++] = (char *)gl_buf_str(&trace);
        }
        args[k] = NULL;
        printf("== loading %s: one process with CUDA_MODULE_LOADING=%s\n", mode_names[m], mode_env[m]);
        gl_child child;
        gl_child_spec spec = {args, NULL, NULL, NULL, NULL, GL_EXIT_USAGE};
        gl_child_start(&child, &spec);
        int status = gl_child_end(&child, -1);
        int rc = WIFEXITED(status) ? WEXITSTATUS(status) : GL_EXIT_CUDA; /* killed by a signal: it crashed */
        char err[512];
        if (rc == GL_EXIT_NO_GPU) {
            skipped = 1;
            fprintf(stderr, "note: the %s run exited 77, skipped for the reason above; the other modes are not run\n",
                    mode_names[m]);
        } else if (rc != GL_EXIT_OK && rc != GL_EXIT_CHECK) {
            fprintf(stderr, "error: the %s run exited %d\n", mode_names[m], rc);
            if (!first_error) first_error = rc;
        } else if (gl_report_merge_json(&r, gl_buf_str(&json), err, sizeof err)) {
            fprintf(stderr, "error: cannot merge the %s run: %s\n", mode_names[m], err);
            if (!first_error) first_error = GL_EXIT_IO;
        }
        failed |= rc == GL_EXIT_CHECK;
        remove(gl_buf_str(&json));
        gl_buf_free(&json);
        gl_buf_free(&trace);
    }
    rmdir(dir);
    free(args);
    if (r.n_rows == 0 && r.n_claims == 0) {
        gl_report_free(&r);
        return first_error ? first_error : failed ? GL_EXIT_CHECK : skipped ? GL_EXIT_NO_GPU : GL_EXIT_INTERNAL;
    }
    printf("\n== module loading: %s merged%s:\n", skipped ? "the modes run before the skip" : "every mode",
           first_error ? " (one failed)" : "");
    cost_rows(&r, M);
    if (!skipped && !first_error) default_finding(&r);
    int rc = gl_report_finish(&r);
    if (first_error) return first_error;
    if (failed || rc == GL_EXIT_CHECK) return GL_EXIT_CHECK;
    if (rc != GL_EXIT_OK) return rc;
    return skipped ? GL_EXIT_NO_GPU : GL_EXIT_OK;
}

/* ---- main -------------------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "module-loading",
        "what does lazy module loading cost NVIDIA's simpleHyperQ pattern, and does the model predict it at every C?",
        "Tables: pattern (per loading mode and stream kind, against the simulation of each run), lazy-cost (both\n"
        "modes: lazy's extra makespan, measured and the model's). Each mode runs in a process of its own; each lazy\n"
        "run takes 2 of the core's 256 never-launched kernels (8 calibrate), so warm-up + repeats are at most 62\n"
        "with both stream kinds, 124 with one. Sweep C with --connections 1,2,4,8,16,32."};
    static ml_lab M;
    const char *loading = "lazy,eager", *kinds = "blocking,non-blocking";
    M.streams = 32;
    M.kernel_us = 1000;
    M.tolerance = 0.10;
    gl_option opts[] = {
        {"loading", GL_OPT_STRING, &loading, 0, 0, NULL, NULL,
         "module loading modes, lazy and/or eager, or all (a process each)", 0},
        {"kind", GL_OPT_STRING, &kinds, 0, 0, NULL, NULL, "stream kinds, blocking and/or non-blocking, or all", 0},
        {"streams", GL_OPT_INT, &M.streams, 1, 64, NULL, NULL, "streams S (simpleHyperQ: 32)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &M.kernel_us, 20, 1e6, NULL, "250", "kernel time T in us (the sample: 10000)", 0},
        {"tolerance", GL_OPT_DOUBLE, &M.tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0},
    };
    gl_common_defaults(&M.common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &M.common, argc, argv);
    int modes[N_MODES], kind_on[N_KINDS];
    int n_modes = gl_choose_names("loading", loading, mode_names, N_MODES, modes);
    int n_kinds = gl_choose_names("kind", kinds, kind_names, N_KINDS, kind_on);
    /* The pool of never-launched kernels is the process's: refuse what it cannot serve, before the runtime starts. */
    int runs = M.common.profile ? 1 : M.common.warmup + M.common.repeat, pool = gl_load_left();
    if (modes[MODE_LAZY] && LOAD_CAL + 2 * n_kinds * runs > pool)
        gl_die(GL_EXIT_USAGE, "--warmup %d --repeat %d: each lazy run takes 2 of the core's %d never-launched kernels "
               "(gl_loads.h) and calibration %d, so %d stream kind(s) allow warm-up + repeats of at most %d",
               M.common.warmup, M.common.repeat, pool, LOAD_CAL, n_kinds, (pool - LOAD_CAL) / (2 * n_kinds));
    if (n_modes > 1) return loading_sweep(&M, argc, argv, modes);
    M.mode = modes[MODE_LAZY] ? MODE_LAZY : MODE_EAGER;
    ask_loading(M.mode);
    return run_mode(&M, exp.name, kind_on, n_kinds);
}
