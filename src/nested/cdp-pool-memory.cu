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
 * Probe (table "memory"): a fresh child process per limit (--limits, ascending) measures free device memory at
 * context creation, after cudaDeviceSetLimit, after a first plain kernel and after a first device launch. Bytes per
 * pending launch come from the smallest and the largest limit; a limit that would not fit is not run. cudaMemGetInfo
 * counts the whole device: run this on an otherwise idle GPU.
 *
 * Run:   make run-cdp-pool-memory
 *        make run-cdp-pool-memory ARGS="--limits 2048,1048576,4194304"
 *        compute-sanitizer --tool memcheck build/bin/cdp-pool-memory --quick --skip-timing-claims
 * Nsight Systems: the probes run in child processes (make profile-cdp-pool-memory). The NVTX range "memory" marks
 * each; grids launched from the device are not traced.
 */
#include "cdp.cuh"

/* A kernel that launches nothing, for the probe's "first kernel" step. */
__global__ void plain_kernel(probe_state *s) { atomicAdd(&s->ran, 1); }

/* ---- host: the probe in the child -------------------------------------------------------- */

/* Run one memory job in this child, into r: after the set (made before the child's first launch), a first plain
 * kernel, then a first device launch (j: one tail launch). */
static void run_job(cdp_run *m, const job *j, job_result *r)
{
    gl_nvtx_push("memory");
    if (r->set_error == cudaSuccess) { /* else nothing was reserved; the row says why */
        plain_kernel<<<1, 1, 0, m->stream>>>(m->d_state);
        CUDA_CHECK_LAUNCH("plain_kernel");
        CUDA_CHECK(wait_status(m->stream));
        r->free_plain = free_bytes();
        run_once(m, j, r, 1, launch_pool);
        if (!r->context_lost) r->free_launch = free_bytes();
    }
    gl_nvtx_pop();
}

/* ---- host: the parent's plan -------------------------------------------------------------- */

/* Device memory the pool took in one probe: the set, the first kernel and the first device launch, without the
 * probe's own buffers. */
static double reserved_bytes(const job_result *r)
{
    return (double)(r->free_open - r->free_set) + (double)(r->free_ready - r->free_launch);
}

/* The first and the last of res[0..n) that measured a reservation (NULL when none did). */
static void measured_range(const job_result *res, int n, const job_result **lo, const job_result **hi)
{
    *lo = *hi = NULL;
    for (int k = 0; k < n; k++) {
        if (res[k].state != RESULT_DONE || res[k].set_error != cudaSuccess || res[k].context_lost) continue;
        if (!*lo) *lo = &res[k];
        *hi = &res[k];
    }
}

/* The probes, one fresh child per limit in ascending order. A limit that would not fit is not run: after one that
 * cudaDeviceSetLimit refused, or when the growth so far extrapolates past 90% of the free memory. */
static int run_memory(cdp_run *m)
{
    const char *stop = NULL;
    for (int i = 0; i < m->n; i++) {
        job_result *r = &m->res[i];
        const job_result *lo, *hi;
        measured_range(m->res, i, &lo, &hi);
        if (i > 0 && r[-1].state == RESULT_DONE && r[-1].set_error == cudaErrorMemoryAllocation)
            stop = "a smaller limit did not fit";
        if (!stop && lo && hi->limit > lo->limit) {
            double per_launch = (reserved_bytes(hi) - reserved_bytes(lo)) / (double)(hi->limit - lo->limit);
            double need = reserved_bytes(hi) + per_launch * (double)(m->jobs[i].limit - hi->limit);
            if (need > 0.9 * (double)hi->free_open) {
                snprintf(r->why, sizeof r->why, "not run: would need about %.0f MiB of the %.0f MiB free",
                         need / (1 << 20), (double)hi->free_open / (1 << 20));
                r->state = RESULT_NOT_RUN;
                stop = "a smaller limit would not fit";
                continue;
            }
        }
        if (stop) {
            r->state = RESULT_NOT_RUN;
            snprintf(r->why, sizeof r->why, "not run: %s", stop);
        } else if (run_jobs(m, i, 1)) {
            return GL_EXIT_NO_GPU;
        }
    }
    return 0;
}

/* ---- host: rows, claims and findings ------------------------------------------------ */

/* The memory table, the claim over it and its findings. */
static void memory_rows(gl_report *rep, const job *jobs, const job_result *res, int n)
{
    const job_result *lo, *hi;
    measured_range(res, n, &lo, &hi);
    const double mib = 1 << 20;
    for (int i = 0; i < n; i++) {
        const job_result *r = &res[i];
        int set = jobs[i].limit;
        char variant[96];
        snprintf(variant, sizeof variant, "limit=%d", set);
        gl_row *row = gl_report_row(rep, "memory", variant);
        gl_row_param_num(row, "limit_requested", "", 0, set);
        if (no_result(rep, row, r)) continue;
        if (r->set_error != cudaSuccess) {
            gl_row_skip(row, "cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, %d) returned %s", set,
                        error_name(r->set_error));
            continue;
        }
        gl_row_number(row, "limit", "", 0, 0, (double)r->limit);
        snprintf(variant, sizeof variant, "limit=%d: the limit reads back at least what was set", set);
        if (r->limit >= set) {
            gl_claim_fact(rep, row, GL_CLAIM_ORDERING, 1, variant, "set %d, reads %lld", set, r->limit);
        } else { /* the runtime API lets the driver clamp a limit; it says so only through the read-back */
            gl_report_finding(rep, "cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, %d) returned "
                              "cudaSuccess and set %lld: the runtime clamps the pool without an error", set, r->limit);
            gl_claim_skip(rep, row, GL_CLAIM_ORDERING, variant, "clamped: set %d, reads %lld, with no error (the "
                          "driver may clamp a limit; only the read-back shows it)", set, r->limit);
        }
        gl_row_number(row, "at_set", "MiB", 1, 0, (r->free_open - r->free_set) / mib);
        gl_row_number(row, "at_first_kernel", "MiB", 1, 0, (r->free_ready - r->free_plain) / mib);
        gl_row_number(row, "at_first_device_launch", "MiB", 1, 0, (r->free_plain - r->free_launch) / mib);
        gl_row_number(row, "reserved", "MiB", 1, 0, reserved_bytes(r) / mib);
        gl_row_number(row, "bytes_per_launch", "B", 0, 0, lo && r->limit > lo->limit ?
                      (reserved_bytes(r) - reserved_bytes(lo)) / (double)(r->limit - lo->limit) : NAN);
    }
    const char *text = "a larger pending-launch limit reserves more device memory (runtime API reference)";
    if (!lo || hi->limit <= lo->limit) {
        gl_claim_skip(rep, NULL, GL_CLAIM_ORDERING, text, "n/a: fewer than two different limits were measured");
        return;
    }
    gl_claim_fact(rep, NULL, GL_CLAIM_ORDERING, reserved_bytes(hi) > reserved_bytes(lo), text,
                  "limit %lld: %.1f MiB; limit %lld: %.1f MiB", lo->limit, reserved_bytes(lo) / mib, hi->limit,
                  reserved_bytes(hi) / mib);
    double at[3] = {(double)(hi->free_open - hi->free_set), (double)(hi->free_ready - hi->free_plain),
                    (double)(hi->free_plain - hi->free_launch)};
    static const char *const where[3] = {"when cudaDeviceSetLimit is called (eager)", "at the first kernel (lazy)",
                                         "at the first device launch (lazy)"};
    int most = 0;
    for (int k = 1; k < 3; k++)
        if (at[k] > at[most]) most = k;
    gl_report_finding(rep, "at limit %lld the pool's memory is reserved %s: %.1f MiB at the set, %.1f at the first "
                      "kernel, %.1f at the first device launch", hi->limit, where[most], at[0] / mib, at[1] / mib,
                      at[2] / mib);
    gl_report_finding(rep, "%.0f bytes of device memory per pending launch (from limit %lld to %lld)",
                      (reserved_bytes(hi) - reserved_bytes(lo)) / (double)(hi->limit - lo->limit), lo->limit,
                      hi->limit);
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
    for (int i = 0; i < limits.n; i++) cdp_add(&m, JOB_MEMORY, KIND_TAIL, 1, limits.v[i]); /* a child each */
    cdp_plan(&m, &exp, run_job);
    if (cdp_children_done(&m, run_memory(&m))) return GL_EXIT_NO_GPU;
    printf("\n== memory: free device memory around each step of a fresh process, per limit\n");
    memory_rows(&m.rep, m.jobs, m.res, m.n);
    if (limits.v != default_limits) free(limits.v);
    return cdp_finish(&m);
}
