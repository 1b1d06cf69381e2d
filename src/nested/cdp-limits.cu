/* cdp-limits.cu - the edges of the CUDA device runtime (CDP2): how many launches may be pending, how deep grids may
 * nest, and what the pending-launch pool costs in device memory.
 *
 * Question: what happens at the edges of the CUDA device runtime (pending launches, nesting depth, pool memory) on this GPU?
 * Build: rdc
 * Sanitize: --quick --skip-timing-claims
 *
 * What the documentation says. The CUDA Programming Guide (CDP2): launches
 * that have not completed wait in a pool of cudaLimitDevRuntimePendingLaunchCount
 * entries, 2048 by default; unlike CDP1 there is no virtualized overflow pool,
 * so a launch past the limit fails, with cudaErrorLaunchOutOfResources. The
 * runtime API reference (cudaDeviceSetLimit) names the failure
 * cudaErrorLaunchPendingCountExceeded, counts a grid as pending "from the
 * point of launch up until the grid is known to have been completed", and
 * says a larger limit reserves more device memory up front. The nesting limit
 * of 24 levels is stated for CDP1 (beside cudaLimitDevRuntimeSyncDepth, which
 * sm_90 refuses); for CDP2 the guide gives no number. So every number below
 * is measured, and the documented one is printed beside it.
 *
 * Fresh processes. A limit can be trusted only when it is set before the
 * first device launch of the process, so every probe runs in a child process
 * (this one plans, collects and reports). A child is this binary forked and
 * executed again (/proc/self/exe), not a bare fork: exec gives it a process
 * with no CUDA state inherited, whatever the parent has loaded (a profiler or
 * compute-sanitizer preloads libcuda into it), and the tools follow exec. It gets
 * this process's arguments plus a hidden --probe-child=FD,FIRST,COUNT: the
 * pipe's write end, and which jobs of the plan (rebuilt from the arguments)
 * to run. A child opens the device, sets its one limit, runs its probes and
 * writes each result to the pipe. A probe whose error left
 * the context unusable is reported and the next probe gets a fresh child; so
 * does a probe whose child died (the run then exits 3). A probe the device
 * does not finish within 60 s, or a child that stops answering (killed after
 * a timeout), ends the probing: the rest are not run, and the run exits 3. A
 * child that finds no suitable GPU makes the whole run exit 77.
 *
 * 1. Pool (table "pool"). One thread launches N one-thread children without
 *    waiting (--counts, default 1000,2048,2049,4096) into the tail-launch
 *    stream, the fire-and-forget stream or the grid's NULL stream, and checks
 *    every launch. This measures the pool only if no child completes while
 *    the launcher is still launching: otherwise the pool drains and more
 *    launches succeed than it holds. Tail children cannot start before their
 *    launcher ends; fire-and-forget and NULL-stream children spin until the
 *    launcher raises a release flag after its last launch attempt (giving up
 *    after 10 s, so that a broken hold cannot hang anything: it is counted, and
 *    fails a claim). Each child records its end, and a claim checks that the
 *    earliest end follows the launcher's last launch. A grid holds its slot
 *    from its launch until it completes, so while no child has completed the
 *    accepted launches are exactly the slots taken. Claims per row: with the
 *    pool the guide documents (2048), min(N, 2048) launches succeed and the
 *    rest fail, in every run; the overflow surfaces on the device as an error
 *    and reaches the host (the device's record and what the host's wait
 *    returned are both reported, beside the guide's name for the error);
 *    every accepted child ran and none ended early. The counts above 2048 run
 *    again in a child that set the limit to max(--counts) before its first
 *    device launch: every launch succeeds. Last, a child that has already
 *    launched from the device raises the limit to max(--counts, 4096): the
 *    claim is that the raise takes effect or is refused, never accepted and
 *    ignored; which of the two happens is printed as a finding.
 * 2. Depth (table "depth"). A chain: each grid launches the next one a level
 *    deeper (the host's grid is depth 0) into one stream kind, up to
 *    --max-depth (64) or the first failed launch, which is recorded and ends
 *    the chain, so the probe terminates either way. One chain answers for
 *    every depth up to its first failure (23, 24, 25, ...). Claim: the chain
 *    ends cleanly, in every run. The deepest depth that ran and the error past
 *    it are findings.
 * 3. Memory (table "memory"). One child per limit (--limits, ascending): free
 *    device memory (cudaMemGetInfo) at context creation, after
 *    cudaDeviceSetLimit, after a first plain kernel and after a first device
 *    launch, so that the reservation is seen wherever it happens (eager at the
 *    set, or lazy). Bytes per pending launch come from the growth between the
 *    smallest and the largest limit. A limit that would not fit (extrapolated
 *    from the smaller ones, or after one that cudaDeviceSetLimit refused) is
 *    not run and its row says why. Claims: each limit reads back at least
 *    what was set; a larger limit reserves more memory.
 *    cudaMemGetInfo counts the whole device: run this on an otherwise idle GPU.
 * --repeat runs each pool and depth probe that many times in its process.
 *
 * Run:   make run-cdp-limits
 *        make run-cdp-limits ARGS="--part pool --counts 2048,2049,8192 --launch tail"
 *        make run-cdp-limits ARGS="--part depth --max-depth 300"
 *        make run-cdp-limits ARGS="--part memory --limits 2048,1048576,4194304"
 *        compute-sanitizer --tool memcheck build/bin/cdp-limits --quick --skip-timing-claims
 * Nsight Systems: the probes run in child processes (make profile-cdp-limits).
 * NVTX ranges "pool <kind> N=<n>", "depth <kind>" and "memory" mark the
 * probes; grids launched from the device are not traced.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "connections.h"
#include "device_check.cuh"
#include "gl_cuda.h"
#include "nvtx.h"
#include "spans.cuh"

enum { KIND_TAIL, KIND_FIRE_AND_FORGET, KIND_NULL, N_KINDS, KIND_ALL = N_KINDS };
static const char *const kind_names[N_KINDS] = {"tail", "fire-and-forget", "null stream"};
enum { PART_ALL, PART_POOL, PART_DEPTH, PART_MEMORY };

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

/* ---- kernels ------------------------------------------------------------------ */

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

__global__ void chain(probe_state *s, gl_dev_error *err, int depth, int max_depth, int kind);

/* Launch the chain's grid at depth into the stream of the given kind. */
__device__ cudaError_t launch_next(probe_state *s, gl_dev_error *err, int depth, int max_depth, int kind)
{
    if (kind == KIND_TAIL) chain<<<1, 1, 0, cudaStreamTailLaunch>>>(s, err, depth, max_depth, kind);
    else if (kind == KIND_FIRE_AND_FORGET) chain<<<1, 1, 0, cudaStreamFireAndForget>>>(s, err, depth, max_depth, kind);
    else chain<<<1, 1>>>(s, err, depth, max_depth, kind);
    return cudaGetLastError();
}

/* One level of the chain: counts itself and launches the next level, until
 * max_depth or a failed launch, which is recorded and ends the chain. */
__global__ void chain(probe_state *s, gl_dev_error *err, int depth, int max_depth, int kind)
{
    atomicAdd(&s->ran, 1);
    atomicMax(&s->deepest, depth);
    if (depth == max_depth) return;
    cudaError_t e = launch_next(s, err, depth + 1, max_depth, kind);
    GL_DEVICE_CHECK(err, e);
    if (e == cudaSuccess) {
        atomicAdd(&s->ok, 1);
    } else {
        atomicAdd(&s->failed, 1);
        s->first_failed = depth + 1; /* the only failure: nothing launches past it */
    }
}

/* A kernel that launches nothing, for the memory probe's "first kernel" step. */
__global__ void plain_kernel(probe_state *s) { atomicAdd(&s->ran, 1); }

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
static job make_job(int type, int kind, int n, int limit)
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

/* What the parent knows while it runs children. */
typedef struct runner {
    int device;      /* --device */
    int runs;        /* repetitions of each pool and depth probe */
    device_info dev; /* from the first child that opened the device */
    int have_dev;    /* dev is filled */
    int children;    /* processes started */
    int died;        /* probes whose process died or hung: the run exits 3 */
    const char *stop; /* set: why nothing more is started (a hang, or a device no child can open) */
    const job *plan;  /* every job of the run: a child is told its jobs by their index here */
    char **child_argv; /* this process's arguments, a free slot for --probe-child, and a NULL */
    int child_arg;    /* that slot's index */
} runner;

/* ---- host: the child process ------------------------------------------------------- */

/* The buffers and stream a child's probes share. */
typedef struct child_ctx {
    cudaStream_t stream;  /* the top-level grids' stream */
    probe_state *d_state; /* one probe run's record */
    gl_dev_error *d_err;  /* its device-side failures */
    int runs;             /* repetitions of each pool and depth probe */
} child_ctx;

/* Write all of buf to the parent; if the parent is gone, end quietly. */
static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = (const char *)buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) _exit(GL_EXIT_INTERNAL);
        p += k;
        n -= (size_t)k;
    }
}

/* An error's name, into a fixed field of a result (the parent never calls CUDA). */
static void error_name(cudaError_t e, char *buf, size_t n) { snprintf(buf, n, "%s", cudaGetErrorName(e)); }

/* Wait up to wait_timeout_s for stream and return what it reported, or
 * cudaErrorNotReady when it did not finish (the device hung).
 * TODO(core): gl_stream_wait_status(), like gl_stream_wait but returning the
 * error instead of exiting on it, for experiments that expect a failed wait. */
static cudaError_t wait_status(cudaStream_t stream)
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
static void open_device(int device, device_info *info)
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
static long long free_bytes(void)
{
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return (long long)free_b;
}

/* One run of a pool or depth probe. The first run fills r; a later one is
 * compared with it. Returns whether this run's outcome matched the first's. */
static int run_once(child_ctx *c, const job *j, job_result *r, int first)
{
    probe_state h;
    memset(&h, 0, sizeof h);
    h.first_failed = -1;
    h.deepest = -1;
    h.first_child_end = ULLONG_MAX;
    CUDA_CHECK(cudaMemcpy(c->d_state, &h, sizeof h, cudaMemcpyHostToDevice));
    gl_dev_error_reset(c->d_err);
    if (j->type == JOB_DEPTH) chain<<<1, 1, 0, c->stream>>>(c->d_state, c->d_err, 0, j->n, j->kind);
    else pool_launcher<<<1, 1, 0, c->stream>>>(c->d_state, c->d_err, j->n, j->kind);
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

/* The memory probe's steps after the set: a first plain kernel, then a first device launch. */
static void memory_probe(child_ctx *c, job_result *r)
{
    if (r->set_error != cudaSuccess) return; /* nothing was reserved; the row says why */
    plain_kernel<<<1, 1, 0, c->stream>>>(c->d_state);
    CUDA_CHECK_LAUNCH("plain_kernel");
    CUDA_CHECK(wait_status(c->stream));
    r->free_plain = free_bytes();
    job first = make_job(JOB_POOL, KIND_TAIL, 1, 0);
    run_once(c, &first, r, 1);
    if (!r->context_lost) r->free_launch = free_bytes();
}

/* Run one job in this child, into r (which holds the child's start already). */
static void run_job(child_ctx *c, const job *j, job_result *r)
{
    r->hold_margin_ns = LLONG_MAX;
    /* Measured on an H200 with CUDA 13.0: under compute-sanitizer memcheck, a
     * device launch past the pool writes out of bounds inside the launch and
     * the context is lost, instead of returning the error. The overflow can
     * only be measured without the tool; the probes within the pool still run. */
    if (j->type == JOB_POOL && j->n > r->limit && getenv("NV_SANITIZER_INJECTION_PORT_BASE")) {
        r->state = RESULT_NOT_RUN;
        snprintf(r->why, sizeof r->why, "under compute-sanitizer, whose device runtime faults on a launch past the "
                 "pool (%d launches, pool %lld) instead of failing it: run without the tool", j->n, r->limit);
        return;
    }
    if (j->type == JOB_MEMORY) {
        gl_nvtx_push("memory");
        memory_probe(c, r);
        gl_nvtx_pop();
        return;
    }
    if (j->type == JOB_LATE_RAISE) {
        /* Launch from the device first, so that the raise comes after device launches. */
        job first = make_job(JOB_POOL, KIND_TAIL, 1, 0);
        job_result scratch = *r;
        run_once(c, &first, &scratch, 1);
        if (scratch.context_lost) {
            *r = scratch;
            return;
        }
        r->limit_before = r->limit;
        cudaError_t set = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)j->n);
        if (set != cudaSuccess) (void)cudaGetLastError();
        r->set_error = set;
        error_name(set, r->set_error_name, sizeof r->set_error_name);
        size_t limit = 0;
        CUDA_CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
        r->limit = (long long)limit;
    }
    gl_nvtx_push("%s %s N=%d", j->type == JOB_DEPTH ? "depth" : "pool", kind_names[j->kind], j->n);
    for (int k = 0; k < c->runs && !r->context_lost; k++) {
        r->runs++;
        r->runs_agree += run_once(c, j, r, k == 0);
    }
    gl_nvtx_pop();
}

/* The child's whole life: open the device, set the limit before any launch,
 * run the jobs, write each result, exit. Never returns. */
static void child_main(const runner *rn, const job *jobs, int n, int fd)
{
    device_info info;
    open_device(rn->device, &info);
    write_all(fd, &info, sizeof info);

    job_result start; /* what every result of this child starts from */
    memset(&start, 0, sizeof start);
    start.state = RESULT_DONE;
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
        write_all(fd, &r, sizeof r);
        if (r.hung) _exit(GL_EXIT_CUDA); /* no teardown: it would wait for the hung grids */
        if (r.context_lost) break;       /* the parent gives the rest to a fresh child */
    }
    _exit(GL_EXIT_OK);
}

/* ---- host: the parent, which starts the children and collects their results --------------- */

/* Read exactly n bytes from fd before deadline_ns (gl_host_ns): 1, 0 at end of file, -1 on timeout. */
static int read_before(int fd, void *buf, size_t n, double deadline_ns)
{
    size_t got = 0;
    while (got < n) {
        double left_ms = (deadline_ns - gl_host_ns()) / 1e6;
        if (left_ms <= 0) return -1;
        struct pollfd pfd = {fd, POLLIN, 0};
        int rc = poll(&pfd, 1, left_ms > 60000 ? 60000 : (int)left_ms + 1);
        if (rc < 0 && errno != EINTR) gl_die(GL_EXIT_INTERNAL, "waiting for a child process: %s", strerror(errno));
        if (rc <= 0) continue;
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        got += (size_t)k;
    }
    return 1;
}

/* Reap a child, killing it if it has not exited within grace_s. Returns its
 * wait status, or -1 if even SIGKILL did not end it within 10 s (left behind). */
static int reap(pid_t pid, double grace_s)
{
    double deadline = gl_host_ns() + grace_s * 1e9;
    int killed = 0, status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) return status;
        if (w < 0 && errno != EINTR) gl_die(GL_EXIT_INTERNAL, "waiting for child %d: %s", (int)pid, strerror(errno));
        if (gl_host_ns() > deadline) {
            if (killed) return -1;
            kill(pid, SIGKILL);
            killed = 1;
            deadline = gl_host_ns() + 10e9;
        }
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

/* Why a child ended before answering for its job. */
static void describe_end(int status, int timed_out, char *why, size_t n)
{
    if (timed_out) snprintf(why, n, "its process did not answer within the timeout and was killed");
    else if (status == -1) snprintf(why, n, "its process could not be ended, even by SIGKILL");
    else if (WIFEXITED(status))
        snprintf(why, n, "its process exited %d%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == GL_EXIT_CUDA ? " (a CUDA error, printed above)" : "");
    else snprintf(why, n, "its process was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
}

/* Run jobs[0..n) in child processes that share jobs[0].limit; results[i]
 * gets job i's result, or why it has none. A job whose process died is
 * marked and the rest go to a fresh child. Returns 0, or 77 when a child
 * found no suitable GPU (the run ends there). */
static int run_jobs(runner *rn, const job *jobs, int n, job_result *results)
{
    int next = 0;
    while (next < n && !rn->stop) {
        int fds[2];
        if (pipe(fds)) gl_die(GL_EXIT_INTERNAL, "cannot make a pipe: %s", strerror(errno));
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) gl_die(GL_EXIT_NO_MEMORY, "cannot start a child process: %s", strerror(errno));
        if (pid == 0) { /* the write end stays open across exec: pipe() does not set close-on-exec */
            close(fds[0]);
            char arg[64];
            snprintf(arg, sizeof arg, "--probe-child=%d,%d,%d", fds[1], (int)(jobs + next - rn->plan), n - next);
            rn->child_argv[rn->child_arg] = arg;
            execv("/proc/self/exe", rn->child_argv);
            fprintf(stderr, "error: cannot re-execute this binary (/proc/self/exe): %s\n", strerror(errno));
            _exit(GL_EXIT_INTERNAL);
        }
        close(fds[1]);
        rn->children++;
        device_info info;
        int got = 0, rc = read_before(fds[0], &info, sizeof info, gl_host_ns() + open_timeout_s * 1e9);
        int opened = rc == 1;
        if (opened && !rn->have_dev) {
            rn->dev = info;
            rn->have_dev = 1;
        }
        double per_job_s = 30 + wait_timeout_s * (rn->runs + 2);
        while (rc == 1 && next + got < n) {
            rc = read_before(fds[0], &results[next + got], sizeof(job_result), gl_host_ns() + per_job_s * 1e9);
            got += rc == 1;
        }
        close(fds[0]);
        int status = reap(pid, rc < 0 ? 0 : 30);
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
        describe_end(status, rc < 0, results[next].why, sizeof results[next].why);
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

/* Device memory the pool took in one memory probe: the set, the first kernel
 * and the first device launch, without the probe's own buffers. */
static double reserved_bytes(const job_result *r)
{
    return (double)(r->free_open - r->free_set) + (double)(r->free_ready - r->free_launch);
}

/* Did this memory probe measure a reservation? */
static int measured_memory(const job_result *r)
{
    return r->state == RESULT_DONE && r->set_error == cudaSuccess && !r->context_lost;
}

/* Memory probes, one fresh child per limit in ascending order. A limit that
 * would not fit is not run: after one that cudaDeviceSetLimit refused, or
 * when the growth so far extrapolates past 90% of the free memory. */
static int run_memory(runner *rn, const job *jobs, int n, job_result *res)
{
    const char *stop = NULL;
    for (int i = 0; i < n; i++) {
        const job_result *lo = NULL, *hi = NULL;
        long long lo_limit = 0, hi_limit = 0;
        for (int k = 0; k < i; k++) {
            if (!measured_memory(&res[k])) continue;
            if (!lo) {
                lo = &res[k];
                lo_limit = res[k].limit;
            }
            hi = &res[k];
            hi_limit = res[k].limit;
        }
        if (i > 0 && res[i - 1].state == RESULT_DONE && res[i - 1].set_error == cudaErrorMemoryAllocation)
            stop = "a smaller limit did not fit";
        if (!stop && lo && hi_limit > lo_limit) {
            double per_launch = (reserved_bytes(hi) - reserved_bytes(lo)) / (double)(hi_limit - lo_limit);
            double need = reserved_bytes(hi) + per_launch * (double)(jobs[i].limit - hi_limit);
            if (need > 0.9 * (double)hi->free_open) {
                snprintf(res[i].why, sizeof res[i].why, "not run: would need about %.0f MiB of the %.0f MiB free",
                         need / (1 << 20), (double)hi->free_open / (1 << 20));
                res[i].state = RESULT_NOT_RUN;
                stop = "a smaller limit would not fit";
                continue;
            }
        }
        if (stop) {
            res[i].state = RESULT_NOT_RUN;
            snprintf(res[i].why, sizeof res[i].why, "not run: %s", stop);
            continue;
        }
        if (run_jobs(rn, &jobs[i], 1, &res[i])) return GL_EXIT_NO_GPU;
    }
    return 0;
}

/* ---- host: rows, claims and findings ------------------------------------------------ */

/* A job without a result: its process died or hung (FAIL), or it was not run (SKIP). */
static int no_result(gl_report *rep, gl_row *row, const job_result *r)
{
    if (r->state == RESULT_DONE) return 0;
    char text[128];
    snprintf(text, sizeof text, "%s %s: the probe ran to the end", row->table, row->variant);
    if (r->state == RESULT_NOT_RUN) gl_row_skip(row, "%s", r->why);
    else gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 0, text, "%s", r->why);
    return 1;
}

/* One row of the pool table and its claims; limit_set 0: the default pool. */
static void pool_row(gl_report *rep, const job *j, const job_result *r, int limit_set)
{
    char text[256];
    snprintf(text, sizeof text, "%s N=%d%s", kind_names[j->kind], j->n, limit_set ? " raised" : "");
    gl_row *row = gl_report_row(rep, "pool", text);
    gl_row_param(row, "launch", "%s", kind_names[j->kind]);
    gl_row_param_num(row, "launches", "", 0, j->n);
    gl_row_param(row, "limit_set", "%s", limit_set ? "before first launch" : "default");
    if (no_result(rep, row, r)) return;
    const probe_state *d = &r->dev;
    gl_row_number(row, "limit", "", 0, 0, (double)r->limit);
    gl_row_number(row, "ok", "", 0, 0, d->ok);
    gl_row_number(row, "failed", "", 0, 0, d->failed);
    gl_row_number(row, "first_failed", "", 0, 0, d->first_failed < 0 ? NAN : d->first_failed);
    gl_row_text(row, "device_error", 0, "%s", r->err_name);
    gl_row_text(row, "host_wait", 0, "%s", r->host_error_name);
    gl_row_number(row, "children_ran", "", 0, 0, d->ran);
    gl_row_number(row, "hold_margin", "us", 1, 0, r->hold_margin_ns == LLONG_MAX ? NAN : r->hold_margin_ns / 1e3);

    char first[48] = "";
    if (d->failed) snprintf(first, sizeof first, " (the first at launch %d)", d->first_failed);
    int capacity = limit_set ? limit_set : GUIDE_POOL;
    int want_ok = j->n < capacity ? j->n : capacity;
    if (limit_set)
        snprintf(text, sizeof text, "%s, N=%d, limit set to %d before the first device launch: all %d launches "
                 "succeed, in every run", kind_names[j->kind], j->n, limit_set, j->n);
    else
        snprintf(text, sizeof text, "%s, N=%d, the default pool (%d, Programming Guide): %d launches succeed and %d "
                 "fail, in every run", kind_names[j->kind], j->n, GUIDE_POOL, want_ok, j->n - want_ok);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING,
                  !r->context_lost && d->ok == want_ok && d->failed == j->n - want_ok && r->runs_agree == r->runs, text,
                  "succeeded: %d, failed: %d%s; %s%s; the limit reads %lld; %d of %d runs alike%s", d->ok, d->failed,
                  first, limit_set ? "cudaDeviceSetLimit returned " : "no "
                  "cudaDeviceSetLimit", limit_set ? r->set_error_name : "", r->limit, r->runs_agree, r->runs,
                  r->context_lost ? "; the context was lost" : "");

    snprintf(text, sizeof text, "%s, N=%d: the overflow surfaces on the device as a launch error and reaches the host",
             kind_names[j->kind], j->n);
    if (d->failed == 0 && !r->context_lost)
        gl_claim_skip(rep, row, GL_CLAIM_ORDERING, text, "n/a: no launch failed");
    else
        gl_claim_fact(rep, row, GL_CLAIM_ORDERING, !r->context_lost && r->err.count == d->failed && r->err.code != 0,
                      text, "device: %s; the host's wait returned %s; the Programming Guide names %s", r->err_text,
                      r->host_error_name, guide_error);
    if (d->failed > 0)
        printf("finding: %s, N=%d: launches past the pool fail on the device with %s (the Programming Guide names "
               "%s, the runtime API reference cudaErrorLaunchPendingCountExceeded); the host's wait returned %s\n",
               kind_names[j->kind], j->n, r->err_name, guide_error, r->host_error_name);

    snprintf(text, sizeof text, "%s, N=%d: every accepted child ran, and none ended before the launcher's last launch",
             kind_names[j->kind], j->n);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING,
                  !r->context_lost && d->ran == d->ok && r->gave_up == 0 &&
                      (d->ok == 0 || (r->hold_margin_ns != LLONG_MAX && r->hold_margin_ns > 0)),
                  text, "%d of %d accepted children ran; the earliest ended %.1f us after the last launch (worst of "
                  "%d runs); %d stopped waiting for the release", d->ran, d->ok,
                  r->hold_margin_ns == LLONG_MAX ? NAN : r->hold_margin_ns / 1e3, r->runs, r->gave_up);
}

/* The late raise: its row, its claim and what it found. */
static void late_raise_row(gl_report *rep, const job *j, const job_result *r)
{
    char text[256];
    gl_row *row = gl_report_row(rep, "late-raise", kind_names[j->kind]);
    gl_row_param(row, "launch", "%s", kind_names[j->kind]);
    gl_row_param_num(row, "raised_to", "", 0, j->n);
    if (no_result(rep, row, r)) return;
    gl_row_number(row, "limit_before", "", 0, 0, (double)r->limit_before);
    gl_row_text(row, "set_result", 0, "%s", r->set_error_name);
    gl_row_number(row, "limit_after", "", 0, 0, (double)r->limit);
    gl_row_number(row, "ok", "", 0, 0, r->dev.ok);
    gl_row_number(row, "failed", "", 0, 0, r->dev.failed);
    snprintf(text, sizeof text, "raising the limit to %d after device launches takes effect or is refused; it is "
             "never accepted and ignored", j->n);
    if (r->limit_before >= j->n) {
        gl_claim_skip(rep, row, GL_CLAIM_ORDERING, text, "n/a: the default (%lld) holds %d already", r->limit_before,
                      j->n);
        return;
    }
    int took = r->set_error == cudaSuccess && r->dev.failed == 0 && !r->context_lost;
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, took || r->set_error != cudaSuccess, text,
                  "cudaDeviceSetLimit returned %s; the limit reads %lld (before: %lld); then %d launches: "
                  "succeeded %d, failed %d (%s)", r->set_error_name, r->limit, r->limit_before, j->n, r->dev.ok,
                  r->dev.failed, r->err_text);
    printf("finding: raising the pending-launch limit after the process's first device launch %s\n",
           took ? "takes effect"
           : r->set_error != cudaSuccess ? "is refused (see set_result)"
                                         : "is accepted but does not take effect");
}

/* One row of the depth table, its claim and its finding. */
static void depth_row(gl_report *rep, const job *j, const job_result *r)
{
    char text[256];
    gl_row *row = gl_report_row(rep, "depth", kind_names[j->kind]);
    gl_row_param(row, "launch", "%s", kind_names[j->kind]);
    gl_row_param_num(row, "max_depth", "", 0, j->n);
    if (no_result(rep, row, r)) return;
    const probe_state *d = &r->dev;
    gl_row_number(row, "deepest", "", 0, 0, d->deepest);
    gl_row_number(row, "failed_at", "", 0, 0, d->first_failed < 0 ? NAN : d->first_failed);
    gl_row_text(row, "device_error", 0, "%s", r->err_name);
    gl_row_text(row, "host_wait", 0, "%s", r->host_error_name);
    int at_max = d->failed == 0 && d->deepest == j->n;
    int at_error = d->failed == 1 && d->first_failed == d->deepest + 1 && r->err.count == 1;
    snprintf(text, sizeof text, "%s: the chain ends cleanly: every level up to the deepest ran, and it stopped at "
             "--max-depth or at a launch error the host read, in every run", kind_names[j->kind]);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING,
                  !r->context_lost && d->ran == d->deepest + 1 && (at_max || at_error) && r->runs_agree == r->runs,
                  text, "%d levels ran, the deepest %d; failed launches: %d (%s); the host's wait returned %s; %d of "
                  "%d runs alike%s", d->ran, d->deepest, d->failed, r->err_text, r->host_error_name, r->runs_agree,
                  r->runs, r->context_lost ? "; the context was lost" : "");
    if (at_max)
        printf("finding: %s: the chain reached --max-depth %d without a failed launch (the guide's %d levels are "
               "stated for CDP1)\n", kind_names[j->kind], j->n, GUIDE_CDP1_DEPTH);
    else if (at_error)
        printf("finding: %s: the deepest depth that works is %d (the host's grid is depth 0); the launch to depth %d "
               "fails with %s; the host's wait returned %s (the guide's %d levels are stated for CDP1)\n",
               kind_names[j->kind], d->deepest, d->first_failed, r->err_name, r->host_error_name, GUIDE_CDP1_DEPTH);
}

/* The memory table, the claim over it and its findings. */
static void memory_rows(gl_report *rep, const job *jobs, const job_result *res, int n)
{
    const job_result *lo = NULL, *hi = NULL;
    long long lo_limit = 0, hi_limit = 0;
    for (int i = 0; i < n; i++) {
        if (!measured_memory(&res[i])) continue;
        if (!lo) {
            lo = &res[i];
            lo_limit = res[i].limit;
        }
        hi = &res[i];
        hi_limit = res[i].limit;
    }
    const double mib = 1 << 20;
    for (int i = 0; i < n; i++) {
        const job_result *r = &res[i];
        char variant[96];
        snprintf(variant, sizeof variant, "limit=%d", jobs[i].limit);
        gl_row *row = gl_report_row(rep, "memory", variant);
        gl_row_param_num(row, "limit_requested", "", 0, jobs[i].limit);
        if (no_result(rep, row, r)) continue;
        if (r->set_error != cudaSuccess) {
            gl_row_skip(row, "cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, %d) returned %s", jobs[i].limit,
                        r->set_error_name);
            continue;
        }
        gl_row_number(row, "limit", "", 0, 0, (double)r->limit);
        snprintf(variant, sizeof variant, "limit=%d: the limit reads back at least what was set", jobs[i].limit);
        if (r->limit >= jobs[i].limit) {
            gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 1, variant, "set %d, reads %lld", jobs[i].limit, r->limit);
        } else {
            /* The runtime API lets the driver clamp a limit; it says so only through the read-back. */
            printf("finding: cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, %d) returned cudaSuccess and "
                   "set %lld: the runtime clamps the pool without an error\n", jobs[i].limit, r->limit);
            gl_claim_skip(rep, row, GL_CLAIM_ORDERING, variant,
                          "clamped: set %d, reads %lld, with no error (the driver may clamp a limit; only the read-back "
                          "shows it)", jobs[i].limit, r->limit);
        }
        gl_row_number(row, "at_set", "MiB", 1, 0, (r->free_open - r->free_set) / mib);
        gl_row_number(row, "at_first_kernel", "MiB", 1, 0, (r->free_ready - r->free_plain) / mib);
        gl_row_number(row, "at_first_device_launch", "MiB", 1, 0, (r->free_plain - r->free_launch) / mib);
        gl_row_number(row, "reserved", "MiB", 1, 0, reserved_bytes(r) / mib);
        double per_launch = (reserved_bytes(r) - reserved_bytes(lo)) / (double)(r->limit - lo_limit);
        gl_row_number(row, "bytes_per_launch", "B", 0, 0, r->limit > lo_limit ? per_launch : NAN);
    }
    const char *text = "a larger pending-launch limit reserves more device memory (runtime API reference)";
    if (!lo || hi_limit <= lo_limit) {
        gl_claim_skip(rep, NULL, GL_CLAIM_ORDERING, text, "n/a: fewer than two different limits were measured");
        return;
    }
    gl_claim_fact(rep, NULL, GL_CLAIM_ORDERING, reserved_bytes(hi) > reserved_bytes(lo), text,
                  "limit %lld: %.1f MiB; limit %lld: %.1f MiB", lo_limit, reserved_bytes(lo) / mib, hi_limit,
                  reserved_bytes(hi) / mib);
    double at[3] = {(double)(hi->free_open - hi->free_set), (double)(hi->free_ready - hi->free_plain),
                    (double)(hi->free_plain - hi->free_launch)};
    static const char *const where[3] = {"when cudaDeviceSetLimit is called (eager)", "at the first kernel (lazy)",
                                         "at the first device launch (lazy)"};
    int most = 0;
    for (int k = 1; k < 3; k++)
        if (at[k] > at[most]) most = k;
    printf("finding: at limit %lld the pool's memory is reserved %s: %.1f MiB at the set, %.1f at the first kernel, "
           "%.1f at the first device launch\n", hi_limit, where[most], at[0] / mib, at[1] / mib, at[2] / mib);
    printf("finding: %.0f bytes of device memory per pending launch (from limit %lld to %lld)\n",
           (reserved_bytes(hi) - reserved_bytes(lo)) / (double)(hi_limit - lo_limit), lo_limit, hi_limit);
}

/* ---- host: main ----------------------------------------------------------------------- */

/* qsort order for --limits. */
static int compare_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* What the hidden --probe-child=FD,FIRST,COUNT says: this process is a child
 * that run_jobs started, to run COUNT jobs of the plan from index FIRST and
 * write their results to the pipe FD. */
typedef struct child_args {
    int fd;    /* the pipe's write end, inherited across exec */
    int first; /* index of the first job in the plan */
    int count; /* jobs to run */
} child_args;

/* Take --probe-child out of argv (the options parser would refuse it, and
 * --help does not list it). Returns 1 when it was given, 0 when not; a
 * malformed value, or an fd that is not the write end of a pipe, is a usage
 * error. */
static int take_child_args(int *argc, char **argv, child_args *c)
{
    static const char name[] = "--probe-child";
    const size_t len = sizeof name - 1;
    int found = 0, kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], name, len) != 0 || (argv[i][len] != '=' && argv[i][len] != '\0')) {
            argv[kept++] = argv[i];
            continue;
        }
        if (found) gl_die(GL_EXIT_USAGE, "%s is given twice", name);
        found = 1;
        const char *p = argv[i][len] == '=' ? argv[i] + len + 1 : "";
        long v[3];
        for (int f = 0; f < 3; f++) {
            char *end = NULL;
            errno = 0;
            v[f] = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
            if (v[f] < 0 || errno || v[f] > INT_MAX || *end != (f < 2 ? ',' : '\0'))
                gl_die(GL_EXIT_USAGE, "'%s': expected %s=FD,FIRST,COUNT (an internal option: cdp-limits gives it to "
                       "its child processes)", argv[i], name);
            p = end + 1;
        }
        c->fd = (int)v[0], c->first = (int)v[1], c->count = (int)v[2];
        struct stat st;
        int flags = fcntl(c->fd, F_GETFL);
        if (c->fd <= 2 || fstat(c->fd, &st) || !S_ISFIFO(st.st_mode) || flags < 0 || (flags & O_ACCMODE) != O_WRONLY)
            gl_die(GL_EXIT_USAGE, "'%s': fd %d is not the write end of a pipe (an internal option: cdp-limits gives "
                   "it to its child processes)", argv[i], c->fd);
        if (c->count < 1) gl_die(GL_EXIT_USAGE, "'%s': COUNT must be at least 1", argv[i]);
    }
    *argc = kept;
    argv[kept] = NULL;
    return found;
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "cdp-limits",
        "what happens at the edges of the CUDA device runtime (pending launches, nesting depth, pool memory) on this "
        "GPU?",
        "Parts: pool (N launches without waiting, per stream kind; then the limit raised), depth (a chain of\n"
        "device launches), memory (what the pool reserves per limit). Every probe runs in a fresh child process."};
    int part = PART_ALL, launch = KIND_ALL, max_depth = 64;
    gl_int_list counts = {NULL, 0}, limits = {NULL, 0};
    gl_option opts[] = {
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|pool|depth|memory", NULL, "which probe to run", 0},
        {"launch", GL_OPT_CHOICE, &launch, 0, 0, "tail|fire-and-forget|null|all", NULL,
         "pool and depth: the device stream the launches go into", 0},
        {"counts", GL_OPT_INT_LIST, &counts, 1, 65536, NULL, "2048,2049",
         "pool: launches one thread makes without waiting (none given: 1000,2048,2049,4096)", 0},
        {"max-depth", GL_OPT_INT, &max_depth, 1, 1024, NULL, NULL, "depth: where the chain stops if no launch fails",
         0},
        {"limits", GL_OPT_INT_LIST, &limits, 1, 16777216, NULL, "2048,65536",
         "memory: pending-launch limits, one fresh process each (none given: 2048,4096,16384,65536,262144,1048576)", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    child_args child = {-1, 0, 0};
    int is_child = take_child_args(&argc, argv, &child);
    if (!is_child) {
        gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    } else { /* the parent checked the outputs and set CUDA_DEVICE_MAX_CONNECTIONS already */
        int parsed = gl_options_parse(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv, stdout, stderr);
        if (parsed != GL_PARSE_OK) exit(parsed == GL_PARSE_HELP ? GL_EXIT_OK : GL_EXIT_USAGE);
    }

    /* Options that this run would ignore are refused, before any child starts. */
    static const struct { const char *option; int part; } owner[] = {
        {"counts", PART_POOL}, {"max-depth", PART_DEPTH}, {"limits", PART_MEMORY}};
    for (int i = 0; i < GL_ARRAY_LEN(owner); i++) {
        int given = gl_option_find(opts, GL_ARRAY_LEN(opts), owner[i].option)->given;
        if (given && part != PART_ALL && part != owner[i].part)
            gl_die(GL_EXIT_USAGE, "--%s applies to --part all or the part it names; --part %s does not use it",
                   owner[i].option, part == PART_POOL ? "pool" : part == PART_DEPTH ? "depth" : "memory");
    }
    if (gl_option_find(opts, GL_ARRAY_LEN(opts), "launch")->given && part == PART_MEMORY)
        gl_die(GL_EXIT_USAGE, "--launch applies to the pool and depth probes; --part memory does not use it");
    if (common.trace_path || common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: this experiment records no timeline (its findings are counts)");

    static int default_counts[] = {1000, 2048, 2049, 4096};
    static int default_limits[] = {2048, 4096, 16384, 65536, 262144, 1048576};
    if (counts.n == 0) counts.v = default_counts, counts.n = GL_ARRAY_LEN(default_counts);
    if (limits.n == 0) limits.v = default_limits, limits.n = GL_ARRAY_LEN(default_limits);
    qsort(limits.v, (size_t)limits.n, sizeof(int), compare_int);
    int max_count = 0;
    for (int i = 0; i < counts.n; i++) max_count = counts.v[i] > max_count ? counts.v[i] : max_count;
    int kinds[N_KINDS], n_kinds = 0;
    for (int k = 0; k < N_KINDS; k++)
        if (launch == KIND_ALL || launch == k) kinds[n_kinds++] = k;
    int do_pool = part == PART_ALL || part == PART_POOL, do_depth = part == PART_ALL || part == PART_DEPTH;
    int do_memory = part == PART_ALL || part == PART_MEMORY;

    /* The plan: the default-limit probes share children; the raised pool, the
     * late raise and each memory limit get their own. */
    int cap = n_kinds * (2 * counts.n + 2) + limits.n;
    job *jobs = (job *)gl_xcalloc((size_t)cap, sizeof(job));
    job_result *res = (job_result *)gl_xcalloc((size_t)cap, sizeof(job_result));
    int n_default = 0;
    for (int k = 0; do_pool && k < n_kinds; k++)
        for (int i = 0; i < counts.n; i++) jobs[n_default++] = make_job(JOB_POOL, kinds[k], counts.v[i], 0);
    for (int k = 0; do_depth && k < n_kinds; k++) jobs[n_default++] = make_job(JOB_DEPTH, kinds[k], max_depth, 0);
    int n_raised = 0;
    for (int k = 0; do_pool && k < n_kinds; k++)
        for (int i = 0; i < counts.n; i++)
            if (counts.v[i] > GUIDE_POOL)
                jobs[n_default + n_raised++] = make_job(JOB_POOL, kinds[k], counts.v[i], max_count);
    job *late = &jobs[n_default + n_raised];
    int late_target = max_count > 2 * GUIDE_POOL ? max_count : 2 * GUIDE_POOL;
    if (do_pool) *late = make_job(JOB_LATE_RAISE, kinds[0], late_target, 0);
    job *mem = late + do_pool;
    int n_mem = do_memory ? limits.n : 0;
    for (int i = 0; i < n_mem; i++) mem[i] = make_job(JOB_MEMORY, KIND_TAIL, 1, limits.v[i]);
    job_result *late_res = res + (late - jobs), *mem_res = res + (mem - jobs);

    runner rn;
    memset(&rn, 0, sizeof rn);
    rn.device = common.device;
    rn.runs = common.profile ? 1 : common.repeat;
    if (is_child) { /* the same arguments gave the same plan: run the jobs the parent named */
        int n_plan = (int)(mem + n_mem - jobs);
        if (child.first >= n_plan || child.count > n_plan - child.first)
            gl_die(GL_EXIT_USAGE, "--probe-child: jobs %d..%d are outside this run's plan of %d", child.first,
                   child.first + child.count - 1, n_plan);
        child_main(&rn, jobs + child.first, child.count, child.fd);
    }
    rn.plan = jobs;
    rn.child_argv = (char **)gl_xcalloc((size_t)argc + 2, sizeof(char *));
    memcpy(rn.child_argv, argv, (size_t)argc * sizeof(char *));
    rn.child_arg = argc;
    gl_report rep;
    gl_report_init(&rep, exp.name, &common);

    /* Phase 1: every probe, in children. */
    printf("cdp-limits: %d probes, each pool and depth probe %d time%s; every child process is a fresh CUDA context\n",
           n_default + n_raised + do_pool + n_mem, rn.runs, rn.runs == 1 ? "" : "s");
    int rc = run_jobs(&rn, jobs, n_default, res);
    if (!rc) rc = run_jobs(&rn, jobs + n_default, n_raised, res + n_default);
    if (!rc && do_pool) rc = run_jobs(&rn, late, 1, late_res);
    if (!rc) rc = run_memory(&rn, mem, n_mem, mem_res);
    if (rc == GL_EXIT_NO_GPU) {
        gl_report_free(&rep);
        return GL_EXIT_NO_GPU; /* the child said why */
    }

    /* One CUDA call here, after every child has ended: compute-sanitizer gives up
     * on a process that never makes one, before it has checked the children. */
    int devices = 0;
    (void)cudaGetDeviceCount(&devices);

    /* Phase 2: the report. */
    if (rn.have_dev) {
        const device_info *d = &rn.dev;
        printf("device %d: %s | cc %d.%d | %d SMs | %.0f GiB | driver %d.%d | runtime %d.%d | pending-launch limit by "
               "default %lld | %d child processes\n", common.device, d->name, d->major, d->minor, d->sms,
               d->memory / 1073741824.0, d->driver / 1000, (d->driver % 1000) / 10, d->runtime / 1000,
               (d->runtime % 1000) / 10, d->default_limit, rn.children);
        gl_report_device(&rep, "name", "%s", d->name);
        gl_report_device(&rep, "cc", "%d.%d", d->major, d->minor);
        gl_report_device(&rep, "sms", "%d", d->sms);
        gl_report_device(&rep, "memory_bytes", "%lld", d->memory);
        gl_report_device(&rep, "driver", "%d", d->driver);
        gl_report_device(&rep, "runtime", "%d", d->runtime);
        gl_report_device(&rep, "default_pending_launch_limit", "%lld", d->default_limit);
    }
    if (do_pool) {
        printf("\n== pool: one thread launches N children without waiting (default pool: %d per the Programming "
               "Guide)\n", GUIDE_POOL);
        for (int i = 0; i < n_default; i++)
            if (jobs[i].type == JOB_POOL) pool_row(&rep, &jobs[i], &res[i], 0);
        printf("\n== pool, limit set to %d before the first device launch\n", max_count);
        for (int i = n_default; i < n_default + n_raised; i++) pool_row(&rep, &jobs[i], &res[i], max_count);
        if (n_raised == 0)
            gl_claim_skip(&rep, NULL, GL_CLAIM_ORDERING, "a limit set before the first device launch lets every launch "
                          "succeed", "n/a: no --counts value exceeds the documented default of %d", GUIDE_POOL);
        printf("\n== pool, limit raised to %d after device launches\n", late_target);
        late_raise_row(&rep, late, late_res);
    }
    if (do_depth) {
        printf("\n== depth: a chain of device launches, up to --max-depth %d (the host's grid is depth 0)\n",
               max_depth);
        for (int i = 0; i < n_default; i++)
            if (jobs[i].type == JOB_DEPTH) depth_row(&rep, &jobs[i], &res[i]);
    }
    if (do_memory) {
        printf("\n== memory: free device memory around each step of a fresh process, per limit\n");
        memory_rows(&rep, mem, mem_res, n_mem);
    }
    printf("\n");

    int verdict_rc = gl_report_finish(&rep);
    free(jobs);
    free(res);
    free(rn.child_argv);
    if (counts.v != default_counts) free(counts.v);
    if (limits.v != default_limits) free(limits.v);
    return rn.died ? GL_EXIT_CUDA : verdict_rc;
}
