/* cdp-pool-memory.cu - what the CUDA device runtime's pending-launch pool (CDP2) costs in device memory, per pending
 * launch, and when the runtime reserves it.
 *
 * Question: how much device memory does the pending-launch pool reserve per pending launch on this GPU, and when (at cudaDeviceSetLimit, the first kernel or the first device launch)?
 * Build: rdc
 * Sanitize: --quick --skip-timing-claims
 *
 * Model: the runtime API reference (cudaDeviceSetLimit) says a larger cudaLimitDevRuntimePendingLaunchCount
 * reserves more device memory up front; it gives no size, so the size is measured.
 *
 * Probe (table "memory"). One fresh child process per limit (--limits, ascending), each measuring free device memory
 * (cudaMemGetInfo) at context creation, after cudaDeviceSetLimit, after a first plain kernel and after a first
 * device launch, so that the reservation is seen wherever it happens (eager at the set, or lazy). Bytes per pending
 * launch come from the growth between the smallest and the largest limit. A limit that would not fit (extrapolated
 * from the smaller ones, or after one that cudaDeviceSetLimit refused) is not run and its row says why. Claims: each
 * limit reads back at least what was set; a larger limit reserves more memory. Why a fresh process per limit:
 * cdp.cuh. cudaMemGetInfo counts the whole device: run this on an otherwise idle GPU.
 *
 * Run:   make run-cdp-pool-memory
 *        make run-cdp-pool-memory ARGS="--limits 2048,1048576,4194304"
 *        compute-sanitizer --tool memcheck build/bin/cdp-pool-memory --quick --skip-timing-claims
 * Nsight Systems: the probes run in child processes (make profile-cdp-pool-memory). The NVTX range "memory" marks
 * each; grids launched from the device are not traced.
 */
#include "cdp.cuh"

/* ---- kernels ------------------------------------------------------------------ */

/* A kernel that launches nothing, for the probe's "first kernel" step. */
__global__ void plain_kernel(probe_state *s) { atomicAdd(&s->ran, 1); }

/* ---- host: the probe in the child -------------------------------------------------------- */

/* The probe's steps after the set: a first plain kernel, then a first device launch. */
static void memory_probe(child_ctx *c, job_result *r)
{
    if (r->set_error != cudaSuccess) return; /* nothing was reserved; the row says why */
    plain_kernel<<<1, 1, 0, c->stream>>>(c->d_state);
    CUDA_CHECK_LAUNCH("plain_kernel");
    CUDA_CHECK(wait_status(c->stream));
    r->free_plain = free_bytes();
    job first = make_job(JOB_POOL, KIND_TAIL, 1, 0);
    run_once(c, &first, r, 1, launch_pool);
    if (!r->context_lost) r->free_launch = free_bytes();
}

/* Run one memory job in this child, into r. */
static void run_job(child_ctx *c, const job *j, job_result *r)
{
    (void)j; /* its limit was set before the child's first launch */
    gl_nvtx_push("memory");
    memory_probe(c, r);
    gl_nvtx_pop();
}

/* ---- host: the parent's plan -------------------------------------------------------------- */

/* Device memory the pool took in one probe: the set, the first kernel
 * and the first device launch, without the probe's own buffers. */
static double reserved_bytes(const job_result *r)
{
    return (double)(r->free_open - r->free_set) + (double)(r->free_ready - r->free_launch);
}

/* Did this probe measure a reservation? */
static int measured_memory(const job_result *r)
{
    return r->state == RESULT_DONE && r->set_error == cudaSuccess && !r->context_lost;
}

/* The first and the last of res[0..n) that measured a reservation, and
 * their limits (NULL and 0 when none did). */
static void measured_range(const job_result *res, int n, const job_result **lo, const job_result **hi,
                           long long *lo_limit, long long *hi_limit)
{
    *lo = *hi = NULL;
    *lo_limit = *hi_limit = 0;
    for (int k = 0; k < n; k++) {
        if (!measured_memory(&res[k])) continue;
        if (!*lo) {
            *lo = &res[k];
            *lo_limit = res[k].limit;
        }
        *hi = &res[k];
        *hi_limit = res[k].limit;
    }
}

/* The probes, one fresh child per limit in ascending order. A limit that
 * would not fit is not run: after one that cudaDeviceSetLimit refused, or
 * when the growth so far extrapolates past 90% of the free memory. */
static int run_memory(runner *rn, const job *jobs, int n, job_result *res)
{
    const char *stop = NULL;
    for (int i = 0; i < n; i++) {
        const job_result *lo, *hi;
        long long lo_limit, hi_limit;
        measured_range(res, i, &lo, &hi, &lo_limit, &hi_limit);
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

/* The memory table, the claim over it and its findings. */
static void memory_rows(gl_report *rep, const job *jobs, const job_result *res, int n)
{
    const job_result *lo, *hi;
    long long lo_limit, hi_limit;
    measured_range(res, n, &lo, &hi, &lo_limit, &hi_limit);
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

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "cdp-pool-memory",
        "how much device memory does the pending-launch pool reserve per pending launch on this GPU, and when (at "
        "cudaDeviceSetLimit, the first kernel or the first device launch)?",
        "Free device memory around each step of a fresh process, per pending-launch limit. Every limit runs in a\n"
        "fresh child process."};
    gl_int_list limits = {NULL, 0};
    gl_option opts[] = {
        {"limits", GL_OPT_INT_LIST, &limits, 1, 16777216, NULL, "2048,65536",
         "pending-launch limits, one fresh process each (none given: 2048,4096,16384,65536,262144,1048576)", 0},
    };
    cdp_run m;
    cdp_parse(&m, &exp, opts, GL_ARRAY_LEN(opts), &argc, argv);

    static int default_limits[] = {2048, 4096, 16384, 65536, 262144, 1048576};
    if (limits.n == 0) limits.v = default_limits, limits.n = GL_ARRAY_LEN(default_limits);
    qsort(limits.v, (size_t)limits.n, sizeof(int), compare_int);

    /* The plan: one job per limit, each in a child of its own. */
    job *jobs = (job *)gl_xcalloc((size_t)limits.n, sizeof(job));
    job_result *res = (job_result *)gl_xcalloc((size_t)limits.n, sizeof(job_result));
    for (int i = 0; i < limits.n; i++) jobs[i] = make_job(JOB_MEMORY, KIND_TAIL, 1, limits.v[i]);
    cdp_plan(&m, &exp, jobs, limits.n, run_job);

    /* Phase 1: every limit, in children. */
    if (cdp_children_done(&m, run_memory(&m.rn, jobs, limits.n, res))) return GL_EXIT_NO_GPU;

    /* Phase 2: the report. */
    printf("\n== memory: free device memory around each step of a fresh process, per limit\n");
    memory_rows(&m.rep, jobs, res, limits.n);

    int exit_rc = cdp_finish(&m);
    free(jobs);
    free(res);
    if (limits.v != default_limits) free(limits.v);
    return exit_rc;
}
