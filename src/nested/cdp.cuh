/* cdp.cuh - what cdp-pending, cdp-depth and cdp-pool-memory share: the
 * pending-launch pool's kernels, the probes' records, and the child processes
 * every probe runs in.
 *
 * Fresh processes. A limit of the device runtime can be trusted only when it
 * is set before the first device launch of the process, so every probe runs
 * in a child process (the parent plans, collects and reports), started with
 * gl_child.h: this binary executed again, with the parent's arguments plus a
 * hidden --probe-child=FD,FIRST,COUNT: the pipe's write end, and which jobs of
 * the plan (rebuilt from the arguments) to run. A child opens the device, sets
 * its one limit, runs its probes and writes each result to the pipe. A probe
 * whose error left the context unusable is reported and the next probe gets a
 * fresh child; so does a probe whose child died (the run then exits 3). A
 * probe the device does not finish within 60 s, or a child that stops
 * answering (killed after a timeout), ends the probing: the rest are not run,
 * and the run exits 3. A child that finds no suitable GPU makes the whole run
 * exit 77. */
#ifndef GL_NESTED_CDP_CUH
#define GL_NESTED_CDP_CUH

#include <errno.h>
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
#include "gl_device_check.cuh"
#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_spans.cuh"

enum { KIND_TAIL, KIND_FIRE_AND_FORGET, KIND_NULL, N_KINDS, KIND_ALL = N_KINDS };
static const char *const kind_names[N_KINDS] = {"tail", "fire-and-forget", "null stream"};

enum { GUIDE_POOL = 2048, GUIDE_CDP1_DEPTH = 24 };              /* the Programming Guide's numbers */
static const char *const guide_error = "cudaErrorLaunchOutOfResources"; /* its name for the overflow */
#define HOLD_TIMEOUT_NS 10000000000ULL /* a held child stops waiting after 10 s: the hold failed */
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

/* ---- kernels: the pool (every experiment's first device launch goes through it) ---- */

/* A pool child: waits for the release (a tail child finds it raised already),
 * then counts itself and its end. */
__global__ void held_child(probe_state *s)
{
    unsigned long long t0 = gl_globaltimer();
    while (*(volatile int *)&s->release == 0) {
        if (gl_globaltimer() - t0 > HOLD_TIMEOUT_NS) {
            atomicAdd(&s->gave_up, 1);
            break;
        }
        __nanosleep(1000);
    }
    atomicAdd(&s->ran, 1);
    atomicMin(&s->first_child_end, gl_globaltimer());
}

/* Launch one held child into the stream of the given kind; returns the launch's error. */
__device__ cudaError_t launch_held(int kind, probe_state *s)
{
    if (kind == KIND_TAIL) held_child<<<1, 1, 0, cudaStreamTailLaunch>>>(s);
    else if (kind == KIND_FIRE_AND_FORGET) held_child<<<1, 1, 0, cudaStreamFireAndForget>>>(s);
    else held_child<<<1, 1>>>(s);
    return cudaGetLastError();
}

/* One thread launches n held children without waiting, checks every launch
 * (each failure is recorded for the host), then releases the children. */
__global__ void pool_launcher(probe_state *s, gl_dev_error *err, int n, int kind)
{
    for (int i = 0; i < n; i++) {
        cudaError_t e = launch_held(kind, s);
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

/* A job, from its four fields. */
static inline job make_job(int type, int kind, int n, int limit)
{
    job j = {type, kind, n, limit};
    return j;
}

/* The device, as the first child saw it. */
typedef struct device_info {
    char name[256];          /* marketing name */
    int major, minor, sms;   /* compute capability and multiprocessors */
    int driver, runtime;     /* CUDA versions, e.g. 13000 */
    long long memory;        /* total device memory in bytes */
    long long default_limit; /* cudaLimitDevRuntimePendingLaunchCount before anything set it */
} device_info;

enum { RESULT_DONE = 1, RESULT_DIED, RESULT_NOT_RUN };

/* What a child reports for one job, or what the parent learned about its end.
 * Plain data: it crosses the pipe as it is. */
typedef struct job_result {
    int state;                    /* RESULT_DONE, RESULT_DIED or RESULT_NOT_RUN */
    char why[160];                /* DIED or NOT_RUN: what happened */
    long long limit;              /* the pending-launch limit in effect (cudaDeviceGetLimit) */
    long long limit_before;       /* late raise: the limit before the raise */
    int set_error;                /* cudaDeviceSetLimit: the child's, before its first launch; or the late raise */
    char set_error_name[64];
    int runs, runs_agree;         /* repetitions, and those whose outcome matched the first's */
    probe_state dev;              /* the first run's device record */
    gl_dev_error err;             /* the first run's device-side failures */
    char err_name[64];            /* the first failure's code by name; "-" when none */
    char err_text[320];           /* gl_dev_error_describe of err */
    int host_error;               /* what the host's wait returned in the first run (or in the one that broke) */
    char host_error_name[64];
    int context_lost;             /* host_error was sticky, or the device hung: the child stopped after this job */
    int hung;                     /* the device did not finish a run within wait_timeout_s */
    long long hold_margin_ns;     /* earliest child end minus the last launch attempt, worst run; LLONG_MAX: none */
    int gave_up;                  /* held children that stopped waiting, all runs */
    long long free_open, free_set, free_ready; /* free device memory: context open, limit set, buffers allocated */
    long long free_plain, free_launch;         /* memory: after a first plain kernel, after a first device launch */
} job_result;

/* The buffers and stream a child's probes share. */
typedef struct child_ctx {
    cudaStream_t stream;  /* the top-level grids' stream */
    probe_state *d_state; /* one probe run's record */
    gl_dev_error *d_err;  /* its device-side failures */
    int runs;             /* repetitions of each pool and depth probe */
} child_ctx;

/* An experiment's top-level grid for job j, on c's stream and buffers. */
typedef void (*cdp_launch_fn)(child_ctx *c, const job *j);

/* An experiment's way of running one job in a child, into r (which holds the child's start already). */
typedef void (*cdp_run_job_fn)(child_ctx *c, const job *j, job_result *r);

/* What the parent knows while it runs children. */
typedef struct runner {
    int device;       /* --device */
    int runs;         /* repetitions of each pool and depth probe */
    device_info dev;  /* from the first child that opened the device */
    int have_dev;     /* dev is filled */
    int children;     /* processes started */
    int died;         /* probes whose process died or hung: the run exits 3 */
    const char *stop; /* set: why nothing more is started (a hang, or a device no child can open) */
    const job *plan;  /* every job of the run: a child is told its jobs by their index here */
    char **argv;      /* this process's arguments, NULL-terminated: the children's */
} runner;

/* ---- host: the child process ------------------------------------------------------- */

/* An error's name, into a fixed field of a result (the parent never calls CUDA). */
static inline void error_name(cudaError_t e, char *buf, size_t n) { snprintf(buf, n, "%s", cudaGetErrorName(e)); }

/* Wait up to wait_timeout_s for stream and return what it reported, or
 * cudaErrorNotReady when it did not finish (the device hung).
 * TODO(core): gl_stream_wait_status(), like gl_stream_wait but returning the
 * error instead of exiting on it, for experiments that expect a failed wait. */
static inline cudaError_t wait_status(cudaStream_t stream)
{
    double start = gl_host_ns();
    for (;;) {
        cudaError_t e = cudaStreamQuery(stream);
        if (e != cudaErrorNotReady || gl_host_ns() - start > wait_timeout_s * 1e9) return e;
        struct timespec nap = {0, 50 * 1000};
        nanosleep(&nap, NULL);
    }
}

/* Open the device as gl_device_open does, but launch nothing: the limit must
 * be set before the first launch. Without a suitable GPU: exit 77.
 * TODO(core): a gl_device_open variant that measures nothing (it launches kernels to time them). */
static inline void open_device(int device, device_info *info)
{
    gl_runtime_mark_started();
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) gl_no_gpu_cuda(e);
    if (device >= count) gl_no_gpu("--device %d requested, but only %d present", device, count);
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    cudaFuncAttributes fa;
    e = cudaFuncGetAttributes(&fa, pool_launcher);
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
        gl_no_gpu("this build has no code for compute capability %d.%d; rebuild with make CUDA_ARCH=%d%d", p.major,
                  p.minor, p.major, p.minor);
    CUDA_CHECK(e);
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->major = p.major;
    info->minor = p.minor;
    info->sms = p.multiProcessorCount;
    info->memory = (long long)p.totalGlobalMem;
    CUDA_CHECK(cudaDriverGetVersion(&info->driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&info->runtime));
    size_t limit = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
    info->default_limit = (long long)limit;
}

/* Free device memory now, as cudaMemGetInfo counts it (the whole device). */
static inline long long free_bytes(void)
{
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return (long long)free_b;
}

/* The pool probe's top-level grid: one thread launches j->n held children. */
static inline void launch_pool(child_ctx *c, const job *j)
{
    pool_launcher<<<1, 1, 0, c->stream>>>(c->d_state, c->d_err, j->n, j->kind);
}

/* One run of a probe whose top-level grid launch starts. The first run fills
 * r; a later one is compared with it. Returns whether this run's outcome
 * matched the first's. */
static inline int run_once(child_ctx *c, const job *j, job_result *r, int first, cdp_launch_fn launch)
{
    probe_state h;
    memset(&h, 0, sizeof h);
    h.first_failed = -1;
    h.deepest = -1;
    h.first_child_end = ULLONG_MAX;
    CUDA_CHECK(cudaMemcpy(c->d_state, &h, sizeof h, cudaMemcpyHostToDevice));
    gl_dev_error_reset(c->d_err);
    launch(c, j);
    CUDA_CHECK_LAUNCH("the probe's top-level grid");
    cudaError_t host = wait_status(c->stream);
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
            error_name(host, r->host_error_name, sizeof r->host_error_name);
            snprintf(r->err_name, sizeof r->err_name, "unknown");
            snprintf(r->err_text, sizeof r->err_text, "unknown: the context was lost before the record was read");
            return 0;
        }
    }
    gl_dev_error e;
    gl_dev_error_read(c->d_err, &e);
    CUDA_CHECK(cudaMemcpy(&h, c->d_state, sizeof h, cudaMemcpyDeviceToHost));
    if (h.first_child_end != ULLONG_MAX) {
        long long margin = (long long)h.first_child_end - (long long)h.loop_end;
        if (margin < r->hold_margin_ns) r->hold_margin_ns = margin;
    }
    r->gave_up += h.gave_up;
    if (first) {
        r->dev = h;
        r->err = e;
        r->host_error = host;
        error_name(host, r->host_error_name, sizeof r->host_error_name);
        if (e.count) error_name((cudaError_t)e.code, r->err_name, sizeof r->err_name);
        else snprintf(r->err_name, sizeof r->err_name, "-");
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

/* A pool or depth probe, c->runs times under one NVTX range "<what> <kind> N=<n>",
 * until a run loses the context. */
static inline void run_repeated(child_ctx *c, const job *j, job_result *r, const char *what, cdp_launch_fn launch)
{
    gl_nvtx_push("%s %s N=%d", what, kind_names[j->kind], j->n);
    for (int k = 0; k < c->runs && !r->context_lost; k++) {
        r->runs++;
        r->runs_agree += run_once(c, j, r, k == 0, launch);
    }
    gl_nvtx_pop();
}

/* The child's whole life: open the device, set the limit before any launch,
 * run the jobs, write each result, exit. Never returns. */
static inline void child_main(const runner *rn, const job *jobs, int n, int fd, cdp_run_job_fn run_job)
{
    device_info info;
    open_device(rn->device, &info);
    gl_child_write(fd, &info, sizeof info);

    job_result start; /* what every result of this child starts from */
    memset(&start, 0, sizeof start);
    start.state = RESULT_DONE;
    start.hold_margin_ns = LLONG_MAX;
    start.free_open = free_bytes();
    cudaError_t set = cudaSuccess;
    if (jobs[0].limit > 0) set = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)jobs[0].limit);
    if (set != cudaSuccess) (void)cudaGetLastError();
    start.set_error = set;
    error_name(set, start.set_error_name, sizeof start.set_error_name);
    start.free_set = free_bytes();
    size_t limit = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
    start.limit = (long long)limit;

    child_ctx c;
    c.runs = rn->runs;
    CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc((void **)&c.d_state, sizeof(probe_state)));
    c.d_err = gl_dev_error_create();
    start.free_ready = free_bytes();

    for (int i = 0; i < n; i++) {
        job_result r = start;
        run_job(&c, &jobs[i], &r);
        gl_child_write(fd, &r, sizeof r);
        if (r.hung) _exit(GL_EXIT_CUDA); /* no teardown: it would wait for the hung grids */
        if (r.context_lost) break;       /* the parent gives the rest to a fresh child */
    }
    _exit(GL_EXIT_OK);
}

/* ---- host: the parent, which starts the children and collects their results --------------- */

/* Run jobs[0..n) in child processes that share jobs[0].limit; results[i]
 * gets job i's result, or why it has none. A job whose process died is
 * marked and the rest go to a fresh child. Returns 0, or 77 when a child
 * found no suitable GPU (the run ends there). */
static inline int run_jobs(runner *rn, const job *jobs, int n, job_result *results)
{
    int next = 0;
    while (next < n && !rn->stop) {
        char which[32];
        snprintf(which, sizeof which, "%d,%d", (int)(jobs + next - rn->plan), n - next);
        gl_child_spec spec = {rn->argv, "probe-child", which, NULL, NULL, GL_EXIT_INTERNAL};
        gl_child child;
        gl_child_start(&child, &spec);
        rn->children++;
        device_info info;
        int got = 0, rc = gl_child_read(&child, &info, sizeof info, open_timeout_s);
        int opened = rc == 1;
        if (opened && !rn->have_dev) {
            rn->dev = info;
            rn->have_dev = 1;
        }
        double per_job_s = 30 + wait_timeout_s * (rn->runs + 2);
        while (rc == 1 && next + got < n) {
            rc = gl_child_read(&child, &results[next + got], sizeof(job_result), per_job_s);
            got += rc == 1;
        }
        int status = gl_child_end(&child, 30);
        if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == GL_EXIT_NO_GPU) return GL_EXIT_NO_GPU;
        next += got;
        if (got > 0 && results[next - 1].hung) { /* the child saw the device hang, said so and left */
            results[next - 1].state = RESULT_DIED;
            rn->died++;
            rn->stop = "not run: an earlier probe hung the device";
            break;
        }
        if (next == n || (got > 0 && results[next - 1].context_lost)) continue;
        /* The child ended, or stopped answering, before it answered for jobs[next]. */
        results[next].state = RESULT_DIED;
        gl_child_describe(status, rc < 0, results[next].why, sizeof results[next].why);
        next++;
        rn->died++;
        if (rc < 0 || status == -1) rn->stop = "not run: an earlier probe's process stopped answering";
        else if (!opened) rn->stop = "not run: a child process could not open the device";
    }
    for (; next < n; next++) {
        results[next].state = RESULT_NOT_RUN;
        snprintf(results[next].why, sizeof results[next].why, "%s", rn->stop);
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

/* What every cdp experiment's main holds besides its options and its plan. */
typedef struct cdp_run {
    gl_common common;       /* the options every experiment has */
    runner rn;              /* the children */
    gl_report rep;          /* rows and claims (started by cdp_plan, in the parent only) */
    int child_fd;           /* --probe-child's pipe: this process is a child; -1: it is the parent */
    const char *child_jobs; /* --probe-child's FIRST,COUNT */
} cdp_run;

/* Parse the options; a child (given --probe-child, which is taken out of argv
 * first: the parser would refuse it, and --help does not list it) parses them
 * without the parent's checks, which were made already. The runner is ready
 * for cdp_plan afterwards. */
static inline void cdp_parse(cdp_run *m, const gl_experiment *exp, gl_option *opts, int n_opts, int *argc, char **argv)
{
    gl_common *common = &m->common;
    gl_common_defaults(common);
    m->child_fd = -1;
    if (!gl_child_take_pipe(argc, argv, "probe-child", &m->child_fd, &m->child_jobs)) {
        gl_options_parse_or_exit(exp, opts, n_opts, common, *argc, argv);
    } else { /* the parent checked the outputs and set CUDA_DEVICE_MAX_CONNECTIONS already */
        int parsed = gl_options_parse(exp, opts, n_opts, common, *argc, argv, stdout, stderr);
        if (parsed != GL_PARSE_OK) exit(parsed == GL_PARSE_HELP ? GL_EXIT_OK : GL_EXIT_USAGE);
    }
    if (common->trace_path || common->timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: this experiment records no timeline (its findings are counts)");
    memset(&m->rn, 0, sizeof m->rn);
    m->rn.device = common->device;
    m->rn.runs = common->profile ? 1 : common->repeat;
    m->rn.argv = argv;
}

/* The plan is made: a child runs the jobs FIRST,COUNT of it that the parent
 * named and exits here. The parent starts its report and says what it will run. */
static inline void cdp_plan(cdp_run *m, const gl_experiment *exp, const job *plan, int n_plan, cdp_run_job_fn run_job)
{
    if (m->child_fd >= 0) { /* the same arguments gave the same plan */
        int first = -1, count = -1, end = 0;
        if (sscanf(m->child_jobs, "%d,%d%n", &first, &count, &end) != 2 || m->child_jobs[end] || first < 0 ||
            count < 1)
            gl_die(GL_EXIT_USAGE, "--probe-child: expected FD,FIRST,COUNT with COUNT at least 1, not FD,%s",
                   m->child_jobs);
        if (first >= n_plan || count > n_plan - first)
            gl_die(GL_EXIT_USAGE, "--probe-child: jobs %d..%d are outside this run's plan of %d", first,
                   first + count - 1, n_plan);
        child_main(&m->rn, plan + first, count, m->child_fd, run_job);
    }
    m->rn.plan = plan;
    gl_report_init(&m->rep, exp->name, &m->common);
    printf("%s: %d probes, each pool and depth probe %d time%s; every child process is a fresh CUDA context\n",
           exp->name, n_plan, m->rn.runs, m->rn.runs == 1 ? "" : "s");
}

/* Every child has ended (rc: what running them returned): returns 77 when one
 * found no suitable GPU (it said why; the report is dropped), else reports the
 * device as the first child saw it and returns 0. */
static inline int cdp_children_done(cdp_run *m, int rc)
{
    if (rc == GL_EXIT_NO_GPU) {
        gl_report_free(&m->rep);
        return GL_EXIT_NO_GPU;
    }
    /* One CUDA call here, after every child has ended: compute-sanitizer gives up
     * on a process that never makes one, before it has checked the children. */
    int devices = 0;
    (void)cudaGetDeviceCount(&devices);
    if (!m->rn.have_dev) return 0;
    const device_info *d = &m->rn.dev;
    printf("device %d: %s | cc %d.%d | %d SMs | %.0f GiB | driver %d.%d | runtime %d.%d | pending-launch limit by "
           "default %lld | %d child processes\n", m->common.device, d->name, d->major, d->minor, d->sms,
           d->memory / 1073741824.0, d->driver / 1000, (d->driver % 1000) / 10, d->runtime / 1000,
           (d->runtime % 1000) / 10, d->default_limit, m->rn.children);
    gl_report_device(&m->rep, "name", "%s", d->name);
    gl_report_device(&m->rep, "cc", "%d.%d", d->major, d->minor);
    gl_report_device(&m->rep, "sms", "%d", d->sms);
    gl_report_device(&m->rep, "memory_bytes", "%lld", d->memory);
    gl_report_device(&m->rep, "driver", "%d", d->driver);
    gl_report_device(&m->rep, "runtime", "%d", d->runtime);
    gl_report_device(&m->rep, "default_pending_launch_limit", "%lld", d->default_limit);
    return 0;
}

/* The verdict, and the exit code: 3 when a probe's process died or hung. */
static inline int cdp_finish(cdp_run *m)
{
    printf("\n");
    int verdict_rc = gl_report_finish(&m->rep);
    return m->rn.died ? GL_EXIT_CUDA : verdict_rc;
}

#endif
