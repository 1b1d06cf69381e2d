/* cdp.cuh - what cdp-pending, cdp-depth and cdp-pool-memory share: the pending-launch pool's kernels, the probes'
 * records, and the child processes every probe runs in (gl_child.h): a limit of the device runtime can be trusted
 * only when it is set before the process's first device launch. A child, given --probe-child=FD,FIRST,COUNT (the
 * pipe, and which jobs of the plan, rebuilt from the same arguments, to run), opens the device, sets its one limit,
 * runs its jobs and writes each result to the pipe. A probe that loses the context, or whose child dies (exit 3),
 * leaves the rest to a fresh child; a hang or a child that stops answering ends the probing (exit 3); a child that
 * finds no suitable GPU makes the run exit 77. */
#ifndef GL_NESTED_CDP_CUH
#define GL_NESTED_CDP_CUH

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gl_child.h"
#include "gl_connections.h"
#include "gl_cuda.h"
#include "gl_device_check.cuh"
#include "gl_nvtx.h"
#include "gl_spans.cuh"

enum { KIND_TAIL, KIND_FIRE_AND_FORGET, KIND_NULL, N_KINDS, KIND_ALL = N_KINDS };
static const char *const kind_names[N_KINDS] = {"tail", "fire-and-forget", "null stream"};
/* --launch, as cdp-pending and cdp-depth take it (into an int, KIND_ALL by default). */
#define CDP_LAUNCH_OPTION(var)                                                                                 \
    {"launch", GL_OPT_CHOICE, &(var), 0, 0, "tail|fire-and-forget|null|all", NULL,                             \
     "the device stream the launches go into", 0}

static const double wait_timeout_s = 60;  /* one probe run on the device (milliseconds; seconds under a sanitizer) */
static const double open_timeout_s = 120; /* a child's start and context creation, as the parent waits */

/* What one probe run leaves on the device. */
typedef struct probe_state {
    int ok;                             /* launches that returned cudaSuccess */
    int failed;                         /* launches that returned an error */
    int first_failed;                   /* pool: index of the first failed launch; depth: its depth; -1: none */
    int ran;                            /* grids that ran: pool children, or chain levels */
    int deepest;                        /* depth: the deepest level that ran */
    int gave_up;                        /* held children that stopped waiting for the release */
    int release;                        /* raised by the launcher after its last launch attempt */
    unsigned long long loop_end;        /* %globaltimer after the launcher's last launch attempt */
    unsigned long long first_child_end; /* the earliest end of a child; ULLONG_MAX: none ended */
} probe_state;

/* ---- kernels: the pool ---------------------------------------------------------- */

/* Launch kernel K as one thread into the device stream of the given kind; returns the launch's error. */
template <auto K, typename... A> __device__ cudaError_t launch_in(int kind, A... a)
{
    if (kind == KIND_TAIL) K<<<1, 1, 0, cudaStreamTailLaunch>>>(a...);
    else if (kind == KIND_FIRE_AND_FORGET) K<<<1, 1, 0, cudaStreamFireAndForget>>>(a...);
    else K<<<1, 1>>>(a...);
    return cudaGetLastError();
}

/* A pool child: waits for the release (a tail child finds it raised already; after 10 s it gives up, and the hold
 * failed), then counts itself and its end. */
__global__ void held_child(probe_state *s)
{
    unsigned long long t0 = gl_globaltimer();
    while (*(volatile int *)&s->release == 0) {
        if (gl_globaltimer() - t0 > 10000000000ULL) {
            atomicAdd(&s->gave_up, 1);
            break;
        }
        __nanosleep(1000);
    }
    atomicAdd(&s->ran, 1);
    atomicMin(&s->first_child_end, gl_globaltimer());
}

/* One thread launches n held children without waiting, checks every launch (each failure is recorded for the
 * host), then releases the children. */
__global__ void pool_launcher(probe_state *s, gl_dev_error *err, int n, int kind)
{
    for (int i = 0; i < n; i++) {
        cudaError_t e = launch_in<held_child>(kind, s);
        GL_DEVICE_CHECK(err, e);
        if (e == cudaSuccess) s->ok++;
        else if (s->failed++ == 0) s->first_failed = i;
    }
    s->loop_end = gl_globaltimer();
    __threadfence();
    atomicExch(&s->release, 1);
}

/* ---- host: the probes, and what crosses the pipe -------------------------------- */

enum { JOB_POOL, JOB_DEPTH, JOB_LATE_RAISE, JOB_MEMORY };

/* One probe for a child process to run. */
typedef struct job {
    int type;  /* JOB_POOL, JOB_DEPTH, JOB_LATE_RAISE or JOB_MEMORY */
    int kind;  /* stream kind of the device launches */
    int n;     /* pool: launches; depth: --max-depth; late raise: the new limit, and the launches made under it */
    int limit; /* set before the process's first device launch (every job of one child shares it); 0: the default */
} job;

/* The device, as the first child saw it. */
typedef struct device_info {
    cudaDeviceProp p;     /* name, compute capability, SMs, memory */
    int driver, runtime;  /* CUDA versions, e.g. 13000 */
    size_t default_limit; /* cudaLimitDevRuntimePendingLaunchCount before anything set it */
} device_info;

enum { RESULT_DONE = 1, RESULT_DIED, RESULT_NOT_RUN };

/* What a child reports for one job, or what the parent learned about its end. Plain data: it crosses the pipe as
 * it is. Error codes cross as numbers; the parent names them after its children have ended. */
typedef struct job_result {
    int state;                    /* RESULT_DONE, RESULT_DIED or RESULT_NOT_RUN */
    char why[160];                /* DIED or NOT_RUN: what happened */
    long long limit;              /* the pending-launch limit in effect (cudaDeviceGetLimit) */
    long long limit_before;       /* late raise: the limit before the raise */
    int set_error;                /* cudaDeviceSetLimit: the child's, before its first launch; or the late raise */
    int runs, runs_agree;         /* repetitions, and those whose outcome matched the first's */
    probe_state dev;              /* the first run's device record */
    gl_dev_error err;             /* the first run's device-side failures */
    char err_text[320];           /* gl_dev_error_describe of err */
    int host_error;               /* what the host's wait returned in the first run (or in the one that broke) */
    int context_lost;             /* host_error was sticky, or the device hung: the child stopped after this job */
    int hung;                     /* the device did not finish a run within wait_timeout_s */
    long long hold_margin_ns;     /* earliest child end minus the last launch attempt, worst run; LLONG_MAX: none */
    int gave_up;                  /* held children that stopped waiting, all runs */
    long long free_open, free_set, free_ready; /* free device memory: context open, limit set, buffers allocated */
    long long free_plain, free_launch;         /* memory: after a first plain kernel, after a first device launch */
} job_result;

/* An error code's name (in the parent, once every child has ended). */
static inline const char *error_name(int e) { return cudaGetErrorName((cudaError_t)e); }
/* The first device-side failure's code by name: "-" when none, "unknown" when the context was lost first. */
static inline const char *device_error_name(const job_result *r)
{
    return r->context_lost ? "unknown" : r->err.count ? error_name(r->err.code) : "-";
}

/* What a cdp experiment's main holds besides its options: the plan, the children and the report. */
typedef struct cdp_run {
    gl_common common;       /* the options every experiment has */
    gl_report rep;          /* rows and claims (started by cdp_plan, in the parent only) */
    job *jobs;              /* the plan, in cdp_add's order: a child is told its jobs by their index here */
    job_result *res;        /* res[i]: job i's result, or why it has none (the parent's, from cdp_plan) */
    int n, cap;             /* jobs planned, and allocated */
    int runs;               /* repetitions of each pool and depth probe */
    device_info dev;        /* from the first child that opened the device; dev.driver 0: none has yet */
    int children;           /* processes started */
    int died;               /* probes whose process died or hung: the run exits 3 */
    const char *stop;       /* set: why nothing more is started (a hang, or a device no child can open) */
    char **argv;            /* this process's arguments, NULL-terminated: the children's */
    int child_fd;           /* --probe-child's pipe: this process is a child; -1: it is the parent */
    const char *child_jobs; /* --probe-child's FIRST,COUNT */
    cudaStream_t stream;    /* a child's: the top-level grids' stream */
    probe_state *d_state;   /* a child's: one probe run's record */
    gl_dev_error *d_err;    /* a child's: its device-side failures */
} cdp_run;

/* An experiment's top-level grid for job j, on the child's stream and buffers. */
typedef void (*cdp_launch_fn)(cdp_run *m, const job *j);
/* An experiment's way of running one job in a child, into r (which holds the child's start already). */
typedef void (*cdp_run_job_fn)(cdp_run *m, const job *j, job_result *r);

/* ---- host: the child process ------------------------------------------------------- */

/* Wait up to wait_timeout_s for stream and return what it reported, or cudaErrorNotReady when it did not finish
 * (the device hung). gl_stream_wait would exit on the error this experiment expects. */
static inline cudaError_t wait_status(cudaStream_t stream)
{
    double start = gl_host_ns();
    struct timespec nap = {0, 50 * 1000};
    cudaError_t e;
    while ((e = cudaStreamQuery(stream)) == cudaErrorNotReady && gl_host_ns() - start <= wait_timeout_s * 1e9)
        nanosleep(&nap, NULL);
    return e;
}

/* Open the device as gl_device_open does, but launch nothing: the limit must be set before the first launch.
 * Without a suitable GPU: exit 77. */
static inline void open_device(int device, device_info *d)
{
    gl_runtime_mark_started();
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) gl_no_gpu_cuda(e);
    if (device >= count) gl_no_gpu("--device %d requested, but only %d present", device, count);
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaGetDeviceProperties(&d->p, device));
    cudaFuncAttributes fa;
    e = cudaFuncGetAttributes(&fa, pool_launcher);
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
        gl_no_gpu("this build has no code for compute capability %d.%d; rebuild with make CUDA_ARCH=%d%d", d->p.major,
                  d->p.minor, d->p.major, d->p.minor);
    CUDA_CHECK(e);
    CUDA_CHECK(cudaDriverGetVersion(&d->driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&d->runtime));
    CUDA_CHECK(cudaDeviceGetLimit(&d->default_limit, cudaLimitDevRuntimePendingLaunchCount));
}

/* Free device memory now, as cudaMemGetInfo counts it (the whole device). */
static inline long long free_bytes(void)
{
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return (long long)free_b;
}

/* Set the pending-launch limit (0: leave it as it is) into r's set_error, and read back the limit in effect. */
static inline void set_limit(job_result *r, int limit)
{
    cudaError_t e = limit > 0 ? cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)limit) : cudaSuccess;
    if (e != cudaSuccess) (void)cudaGetLastError();
    r->set_error = e;
    size_t now = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&now, cudaLimitDevRuntimePendingLaunchCount));
    r->limit = (long long)now;
}

/* The pool probe's top-level grid: one thread launches j->n held children. */
static inline void launch_pool(cdp_run *m, const job *j)
{
    pool_launcher<<<1, 1, 0, m->stream>>>(m->d_state, m->d_err, j->n, j->kind);
}

/* One run of a probe whose top-level grid launch starts. The first run fills r; a later one is compared with it.
 * Returns whether this run's outcome matched the first's. */
static inline int run_once(cdp_run *m, const job *j, job_result *r, int first, cdp_launch_fn launch)
{
    probe_state h;
    memset(&h, 0, sizeof h);
    h.first_failed = h.deepest = -1;
    h.first_child_end = ULLONG_MAX;
    CUDA_CHECK(cudaMemcpy(m->d_state, &h, sizeof h, cudaMemcpyHostToDevice));
    gl_dev_error_reset(m->d_err);
    launch(m, j);
    CUDA_CHECK_LAUNCH("the probe's top-level grid");
    cudaError_t host = wait_status(m->stream);
    if (host == cudaErrorNotReady) {
        r->hung = r->context_lost = 1;
        snprintf(r->why, sizeof r->why, "the device did not finish it within %.0f s: hung", wait_timeout_s);
        return 0;
    }
    if (host != cudaSuccess) {
        (void)cudaGetLastError(); /* clears an error that is not sticky; a sticky one is returned again: */
        if (cudaDeviceSynchronize() != cudaSuccess) {
            r->context_lost = 1;
            r->host_error = host;
            snprintf(r->err_text, sizeof r->err_text, "unknown: the context was lost before the record was read");
            return 0;
        }
    }
    gl_dev_error e;
    gl_dev_error_read(m->d_err, &e);
    CUDA_CHECK(cudaMemcpy(&h, m->d_state, sizeof h, cudaMemcpyDeviceToHost));
    long long margin = (long long)h.first_child_end - (long long)h.loop_end;
    if (h.first_child_end != ULLONG_MAX && margin < r->hold_margin_ns) r->hold_margin_ns = margin;
    r->gave_up += h.gave_up;
    if (first) {
        r->dev = h;
        r->err = e;
        r->host_error = host;
        gl_buf text = GL_BUF_INIT;
        gl_dev_error_describe(&e, &text);
        snprintf(r->err_text, sizeof r->err_text, "%s", gl_buf_str(&text));
        gl_buf_free(&text);
        return 1;
    }
    return h.ok == r->dev.ok && h.failed == r->dev.failed && h.first_failed == r->dev.first_failed &&
           h.ran == r->dev.ran && h.deepest == r->dev.deepest && e.count == r->err.count &&
           e.code == r->err.code && (int)host == r->host_error;
}

/* A pool or depth probe, m->runs times under one NVTX range "<what> <kind> N=<n>", until a run loses the context. */
static inline void run_repeated(cdp_run *m, const job *j, job_result *r, const char *what, cdp_launch_fn launch)
{
    gl_nvtx_push("%s %s N=%d", what, kind_names[j->kind], j->n);
    for (int k = 0; k < m->runs && !r->context_lost; k++) {
        r->runs++;
        r->runs_agree += run_once(m, j, r, k == 0, launch);
    }
    gl_nvtx_pop();
}

/* The child's whole life: open the device, set the limit before any launch, run jobs[0..n), write each result,
 * exit. Never returns. */
static inline void child_main(cdp_run *m, const job *jobs, int n, cdp_run_job_fn run_job)
{
    device_info info;
    open_device(m->common.device, &info);
    gl_child_write(m->child_fd, &info, sizeof info);
    job_result start; /* what every result of this child starts from */
    memset(&start, 0, sizeof start);
    start.state = RESULT_DONE;
    start.hold_margin_ns = LLONG_MAX;
    start.free_open = free_bytes();
    set_limit(&start, jobs[0].limit);
    start.free_set = free_bytes();
    CUDA_CHECK(cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc((void **)&m->d_state, sizeof(probe_state)));
    m->d_err = gl_dev_error_create();
    start.free_ready = free_bytes();
    for (int i = 0; i < n; i++) {
        job_result r = start;
        run_job(m, &jobs[i], &r);
        gl_child_write(m->child_fd, &r, sizeof r);
        if (r.hung) _exit(GL_EXIT_CUDA); /* no teardown: it would wait for the hung grids */
        if (r.context_lost) break;       /* the parent gives the rest to a fresh child */
    }
    _exit(GL_EXIT_OK);
}

/* ---- host: the parent, which plans, starts the children and collects their results --------------- */

/* Add a job to the plan; returns its index. */
static inline int cdp_add(cdp_run *m, int type, int kind, int n, int limit)
{
    gl_grow((void **)&m->jobs, &m->cap, m->n + 1, sizeof(job));
    m->jobs[m->n] = job{type, kind, n, limit};
    return m->n++;
}

/* Run jobs [first, first + n) in child processes that share jobs[first].limit, each result into res. A job whose
 * process died is marked and the rest go to a fresh child. Returns 0, or 77 when a child found no suitable GPU (the
 * run ends there). */
static inline int run_jobs(cdp_run *m, int first, int n)
{
    job_result *results = m->res + first;
    int next = 0;
    while (next < n && !m->stop) {
        char which[32];
        snprintf(which, sizeof which, "%d,%d", first + next, n - next);
        gl_child_spec spec = {m->argv, "probe-child", which, NULL, NULL, GL_EXIT_INTERNAL};
        gl_child child;
        gl_child_start(&child, &spec);
        m->children++;
        device_info info;
        int got = 0, rc = gl_child_read(&child, &info, sizeof info, open_timeout_s), opened = rc == 1;
        if (opened && !m->dev.driver) m->dev = info;
        while (rc == 1 && next + got < n) {
            rc = gl_child_read(&child, &results[next + got], sizeof(job_result), 30 + wait_timeout_s * (m->runs + 2));
            got += rc == 1;
        }
        int status = gl_child_end(&child, 30);
        if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == GL_EXIT_NO_GPU) return GL_EXIT_NO_GPU;
        next += got;
        if (got > 0 && results[next - 1].hung) { /* the child saw the device hang, said so and left */
            results[next - 1].state = RESULT_DIED;
            m->died++;
            m->stop = "not run: an earlier probe hung the device";
            break;
        }
        if (next == n || (got > 0 && results[next - 1].context_lost)) continue;
        /* The child ended, or stopped answering, before it answered for job next. */
        results[next].state = RESULT_DIED;
        gl_child_describe(status, rc < 0, results[next].why, sizeof results[next].why);
        next++;
        m->died++;
        if (rc < 0 || status == -1) m->stop = "not run: an earlier probe's process stopped answering";
        else if (!opened) m->stop = "not run: a child process could not open the device";
    }
    for (; next < n; next++) {
        results[next].state = RESULT_NOT_RUN;
        snprintf(results[next].why, sizeof results[next].why, "%s", m->stop);
    }
    return 0;
}

/* A row of one stream kind's probe, with its launch kind and its N (named n_name) as parameters. */
static inline gl_row *kind_row(gl_report *rep, const char *table, const char *variant, const job *j, const char *n_name)
{
    gl_row *row = gl_report_row(rep, table, variant);
    gl_row_param(row, "launch", "%s", kind_names[j->kind]);
    gl_row_param_num(row, n_name, "", 0, j->n);
    return row;
}

/* A job without a result: its process died or hung (FAIL), or it was not run (SKIP). */
static inline int no_result(gl_report *rep, gl_row *row, const job_result *r)
{
    if (r->state == RESULT_DONE) return 0;
    char text[128];
    snprintf(text, sizeof text, "%s %s: the probe ran to the end", row->table, row->variant);
    if (r->state == RESULT_NOT_RUN) gl_row_skip(row, "%s", r->why);
    else gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 0, text, "%s", r->why);
    return 1;
}

/* ---- host: what every cdp experiment's main does around its own probes --------------- */

/* Parse the options; a child (given --probe-child, which is taken out of argv first: the parser would refuse it,
 * and --help does not list it) parses them without the parent's checks, which were made already. */
static inline void cdp_parse(cdp_run *m, const gl_experiment *exp, gl_option *opts, int n_opts, int *argc, char **argv)
{
    memset(m, 0, sizeof *m);
    gl_common_defaults(&m->common);
    m->child_fd = -1;
    if (!gl_child_take_pipe(argc, argv, "probe-child", &m->child_fd, &m->child_jobs)) {
        gl_options_parse_or_exit(exp, opts, n_opts, &m->common, *argc, argv);
    } else { /* the parent checked the outputs and set CUDA_DEVICE_MAX_CONNECTIONS already */
        int parsed = gl_options_parse(exp, opts, n_opts, &m->common, *argc, argv, stdout, stderr);
        if (parsed != GL_PARSE_OK) exit(parsed == GL_PARSE_HELP ? GL_EXIT_OK : GL_EXIT_USAGE);
    }
    if (m->common.trace_path || m->common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: this experiment records no timeline (its findings are counts)");
    m->runs = m->common.profile ? 1 : m->common.repeat;
    m->argv = argv;
}

/* The plan is made (cdp_add): a child runs the jobs FIRST,COUNT of it that the parent named and exits here. The
 * parent starts its report and says what it will run. */
static inline void cdp_plan(cdp_run *m, const gl_experiment *exp, cdp_run_job_fn run_job)
{
    if (m->child_fd >= 0) { /* the same arguments gave the same plan */
        int first = -1, count = -1, end = 0;
        if (sscanf(m->child_jobs, "%d,%d%n", &first, &count, &end) != 2 || m->child_jobs[end] || first < 0 ||
            count < 1)
            gl_die(GL_EXIT_USAGE, "--probe-child: expected FD,FIRST,COUNT with COUNT at least 1, not FD,%s",
                   m->child_jobs);
        if (first >= m->n || count > m->n - first)
            gl_die(GL_EXIT_USAGE, "--probe-child: jobs %d..%d are outside this run's plan of %d", first,
                   first + count - 1, m->n);
        child_main(m, m->jobs + first, count, run_job);
    }
    m->res = (job_result *)gl_xcalloc((size_t)m->n, sizeof(job_result));
    gl_report_init(&m->rep, exp->name, &m->common);
    printf("%s: %d probes, each pool and depth probe %d time%s; every child process is a fresh CUDA context\n",
           exp->name, m->n, m->runs, m->runs == 1 ? "" : "s");
}

/* Every child has ended (rc: what running them returned): returns 77 when one found no suitable GPU (it said why;
 * the report is dropped), else reports the device as the first child saw it and returns 0. */
static inline int cdp_children_done(cdp_run *m, int rc)
{
    if (rc == GL_EXIT_NO_GPU) {
        gl_report_free(&m->rep);
        return GL_EXIT_NO_GPU;
    }
    /* One CUDA call here, after every child has ended: compute-sanitizer gives up on a process that never makes
     * one, before it has checked the children. */
    int devices = 0;
    (void)cudaGetDeviceCount(&devices);
    if (!m->dev.driver) return 0;
    const cudaDeviceProp *p = &m->dev.p;
    printf("device %d: %s | cc %d.%d | %d SMs | %.0f GiB | driver %d.%d | runtime %d.%d | pending-launch limit by "
           "default %zu | %d child processes\n", m->common.device, p->name, p->major, p->minor, p->multiProcessorCount,
           p->totalGlobalMem / 1073741824.0, m->dev.driver / 1000, (m->dev.driver % 1000) / 10, m->dev.runtime / 1000,
           (m->dev.runtime % 1000) / 10, m->dev.default_limit, m->children);
    gl_report_device(&m->rep, "name", "%s", p->name);
    gl_report_device(&m->rep, "cc", "%d.%d", p->major, p->minor);
    gl_report_device(&m->rep, "sms", "%d", p->multiProcessorCount);
    gl_report_device(&m->rep, "memory_bytes", "%zu", p->totalGlobalMem);
    gl_report_device(&m->rep, "driver", "%d", m->dev.driver);
    gl_report_device(&m->rep, "runtime", "%d", m->dev.runtime);
    gl_report_device(&m->rep, "default_pending_launch_limit", "%zu", m->dev.default_limit);
    return 0;
}

/* The verdict, and the exit code: 3 when a probe's process died or hung. */
static inline int cdp_finish(cdp_run *m)
{
    printf("\n");
    int verdict_rc = gl_report_finish(&m->rep);
    free(m->jobs);
    free(m->res);
    return m->died ? GL_EXIT_CUDA : verdict_rc;
}

#endif
