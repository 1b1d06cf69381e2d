/* cdp-pending.cu - the CUDA device runtime's pending-launch pool (CDP2): how many device launches may wait at once,
 * what becomes of the one past the pool, and what raising the limit does before and after the first device launch.
 *
 * Question: how many device launches may be pending at once on this GPU, what happens to a launch past the pool, and does raising the limit (before or after the first device launch) let it succeed?
 * Build: rdc
 * Sanitize: --quick --skip-timing-claims
 *
 * Model (the CUDA Programming Guide, CDP2): the pool holds 2048 pending launches by default, with no virtualized
 * overflow, so a launch past it fails (cudaErrorLaunchOutOfResources; the runtime API reference names
 * cudaErrorLaunchPendingCountExceeded). A grid is pending from its launch until it completes. FINDINGS.md
 * (cdp-pending, "Design notes") has the sources.
 *
 * Probe (table "pool"): one thread launches N children (--counts) into one stream kind and checks every launch; the
 * children are held until its last launch attempt, so none completes meanwhile. Counts above 2048 run again with
 * the limit set to max(--counts) before the first device launch; table "late-raise" raises it after one. Each probe
 * runs in a fresh child process (cdp.cuh), --repeat times there.
 *
 * Run:   make run-cdp-pending
 *        make run-cdp-pending ARGS="--counts 2048,2049,8192 --launch tail"
 *        compute-sanitizer --tool memcheck build/bin/cdp-pending --quick --skip-timing-claims
 *        (under the tool a launch past the pool faults instead of failing: those probes are skipped, with why)
 * Nsight Systems: the probes run in child processes (make profile-cdp-pending). NVTX ranges "pool <kind> N=<n>"
 * mark them; grids launched from the device are not traced.
 */
#include "cdp.cuh"

enum { GUIDE_POOL = 2048 };                                            /* the Programming Guide's default pool */
static const char *const guide_error = "cudaErrorLaunchOutOfResources"; /* its name for the overflow */

/* ---- host: one probe in the child ------------------------------------------------------ */

/* Run one pool or late-raise job in this child, into r. */
static void run_job(cdp_run *m, const job *j, job_result *r)
{
    /* Measured on an H200 with CUDA 13.0: under compute-sanitizer memcheck, a device launch past the pool writes
     * out of bounds inside the launch and the context is lost, instead of returning the error. The overflow can
     * only be measured without the tool; the probes within the pool still run. */
    if (j->type == JOB_POOL && j->n > r->limit && getenv("NV_SANITIZER_INJECTION_PORT_BASE")) {
        r->state = RESULT_NOT_RUN;
        snprintf(r->why, sizeof r->why, "under compute-sanitizer, whose device runtime faults on a launch past the "
                 "pool (%d launches, pool %lld) instead of failing it: run without the tool", j->n, r->limit);
        return;
    }
    if (j->type == JOB_LATE_RAISE) { /* launch from the device first, so that the raise comes after device launches */
        job first = {JOB_POOL, KIND_TAIL, 1, 0};
        run_once(m, &first, r, 1, launch_pool);
        if (r->context_lost) return;
        /* Forget that launch's record: the raised runs fill it only when they complete. */
        memset(&r->dev, 0, sizeof r->dev), memset(&r->err, 0, sizeof r->err), r->err_text[0] = 0, r->host_error = 0;
        r->hold_margin_ns = LLONG_MAX, r->gave_up = 0;
        r->limit_before = r->limit;
        set_limit(r, j->n);
    }
    run_repeated(m, j, r, "pool", launch_pool);
}

/* ---- host: rows, claims and findings ------------------------------------------------ */

/* One row of the pool table and its claims; j->limit 0: the default pool. */
static void pool_row(gl_report *rep, const job *j, const job_result *r)
{
    const char *kind = kind_names[j->kind];
    int limit_set = j->limit;
    char text[256];
    snprintf(text, sizeof text, "%s N=%d%s", kind, j->n, limit_set ? " raised" : "");
    gl_row *row = kind_row(rep, "pool", text, j, "launches");
    gl_row_param(row, "limit_set", "%s", limit_set ? "before first launch" : "default");
    if (no_result(rep, row, r)) return;
    const probe_state *d = &r->dev;
    const char *host = error_name(r->host_error);
    double margin_us = r->hold_margin_ns == LLONG_MAX ? NAN : r->hold_margin_ns / 1e3;
    gl_row_number(row, "limit", "", 0, 0, (double)r->limit);
    gl_row_number(row, "ok", "", 0, 0, d->ok);
    gl_row_number(row, "failed", "", 0, 0, d->failed);
    gl_row_number(row, "first_failed", "", 0, 0, d->first_failed < 0 ? NAN : d->first_failed);
    gl_row_text(row, "device_error", 0, "%s", device_error_name(r));
    gl_row_text(row, "host_wait", 0, "%s", host);
    gl_row_number(row, "children_ran", "", 0, 0, d->ran);
    gl_row_number(row, "hold_margin", "us", 1, 0, margin_us);

    char first[48] = "";
    if (d->failed) snprintf(first, sizeof first, " (the first at launch %d)", d->first_failed);
    int capacity = limit_set ? limit_set : GUIDE_POOL;
    int want_ok = j->n < capacity ? j->n : capacity;
    if (limit_set)
        snprintf(text, sizeof text, "%s, N=%d, limit set to %d before the first device launch: all %d launches "
                 "succeed, in every run", kind, j->n, limit_set, j->n);
    else
        snprintf(text, sizeof text, "%s, N=%d, the default pool (%d, Programming Guide): %d launches succeed and %d "
                 "fail, in every run", kind, j->n, GUIDE_POOL, want_ok, j->n - want_ok);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING,
                  !r->context_lost && d->ok == want_ok && d->failed == j->n - want_ok && r->runs_agree == r->runs, text,
                  "succeeded: %d, failed: %d%s; %s%s; the limit reads %lld; %d of %d runs alike%s", d->ok, d->failed,
                  first, limit_set ? "cudaDeviceSetLimit returned " : "no cudaDeviceSetLimit",
                  limit_set ? error_name(r->set_error) : "", r->limit, r->runs_agree, r->runs,
                  r->context_lost ? "; the context was lost" : "");

    snprintf(text, sizeof text, "%s, N=%d: the overflow surfaces on the device as a launch error and reaches the host",
             kind, j->n);
    if (d->failed == 0 && !r->context_lost)
        gl_claim_skip(rep, row, GL_CLAIM_ORDERING, text, "n/a: no launch failed");
    else
        gl_claim_fact(rep, row, GL_CLAIM_ORDERING, !r->context_lost && r->err.count == d->failed && r->err.code != 0,
                      text, "device: %s; the host's wait returned %s; the Programming Guide names %s", r->err_text,
                      host, guide_error);
    if (d->failed > 0)
        gl_report_finding(rep, "%s, N=%d: launches past the pool fail on the device with %s (the Programming Guide "
                          "names %s, the runtime API reference cudaErrorLaunchPendingCountExceeded); the host's wait "
                          "returned %s", kind, j->n, device_error_name(r), guide_error, host);

    snprintf(text, sizeof text, "%s, N=%d: every accepted child ran, and none ended before the launcher's last launch",
             kind, j->n);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING,
                  !r->context_lost && d->ran == d->ok && r->gave_up == 0 && (d->ok == 0 || margin_us > 0), text,
                  "%d of %d accepted children ran; the earliest ended %.1f us after the last launch (worst of %d "
                  "runs); %d stopped waiting for the release", d->ran, d->ok, margin_us, r->runs, r->gave_up);
}

/* The late raise: its row, its claim and what it found. */
static void late_raise_row(gl_report *rep, const job *j, const job_result *r)
{
    gl_row *row = kind_row(rep, "late-raise", kind_names[j->kind], j, "raised_to");
    if (no_result(rep, row, r)) return;
    const char *set = error_name(r->set_error);
    gl_row_number(row, "limit_before", "", 0, 0, (double)r->limit_before);
    gl_row_text(row, "set_result", 0, "%s", set);
    gl_row_number(row, "limit_after", "", 0, 0, (double)r->limit);
    gl_row_number(row, "ok", "", 0, 0, r->dev.ok);
    gl_row_number(row, "failed", "", 0, 0, r->dev.failed);
    char text[256];
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
                  "succeeded %d, failed %d (%s)", set, r->limit, r->limit_before, j->n, r->dev.ok, r->dev.failed,
                  r->err_text);
    gl_report_finding(rep, "raising the pending-launch limit after the process's first device launch %s",
                      took ? "takes effect"
                      : r->set_error != cudaSuccess ? "is refused (see set_result)"
                                                    : "is accepted but does not take effect");
}

/* ---- host: main ----------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "cdp-pending",
        "how many device launches may be pending at once on this GPU, what happens to a launch past the pool, and does "
        "raising the limit (before or after the first device launch) let it succeed?",
        "N launches without waiting, per stream kind; then the limit set before the first device launch, and raised\n"
        "after it. Every probe runs in a fresh child process."};
    int launch = KIND_ALL;
    gl_int_list counts = {NULL, 0};
    gl_option opts[] = {
        CDP_LAUNCH_OPTION(launch),
        {"counts", GL_OPT_INT_LIST, &counts, 1, 65536, NULL, "2048,2049",
         "launches one thread makes without waiting (none given: 1000,2048,2049,4096)", 0},
    };
    cdp_run m;
    cdp_parse(&m, &exp, opts, GL_ARRAY_LEN(opts), &argc, argv);
    static int default_counts[] = {1000, 2048, 2049, 4096};
    if (counts.n == 0) counts.v = default_counts, counts.n = GL_ARRAY_LEN(default_counts);
    int max_count = 0;
    for (int i = 0; i < counts.n; i++) max_count = counts.v[i] > max_count ? counts.v[i] : max_count;

    /* The plan: the default-limit probes share children; the raised pool and the late raise get their own. */
    for (int k = 0; k < N_KINDS; k++)
        for (int i = 0; i < counts.n && (launch == KIND_ALL || launch == k); i++)
            cdp_add(&m, JOB_POOL, k, counts.v[i], 0);
    int n_default = m.n;
    for (int k = 0; k < N_KINDS; k++)
        for (int i = 0; i < counts.n && (launch == KIND_ALL || launch == k); i++)
            if (counts.v[i] > GUIDE_POOL) cdp_add(&m, JOB_POOL, k, counts.v[i], max_count);
    int late_target = max_count > 2 * GUIDE_POOL ? max_count : 2 * GUIDE_POOL;
    int late = cdp_add(&m, JOB_LATE_RAISE, launch == KIND_ALL ? KIND_TAIL : launch, late_target, 0);
    cdp_plan(&m, &exp, run_job);

    /* Every probe, in children; then the report. */
    int rc = run_jobs(&m, 0, n_default);
    if (!rc) rc = run_jobs(&m, n_default, late - n_default);
    if (!rc) rc = run_jobs(&m, late, 1);
    if (cdp_children_done(&m, rc)) return GL_EXIT_NO_GPU;
    printf("\n== pool: one thread launches N children without waiting (default pool: %d per the Programming "
           "Guide)\n", GUIDE_POOL);
    for (int i = 0; i < n_default; i++) pool_row(&m.rep, &m.jobs[i], &m.res[i]);
    printf("\n== pool, limit set to %d before the first device launch\n", max_count);
    for (int i = n_default; i < late; i++) pool_row(&m.rep, &m.jobs[i], &m.res[i]);
    if (late == n_default)
        gl_claim_skip(&m.rep, NULL, GL_CLAIM_ORDERING, "a limit set before the first device launch lets every launch "
                      "succeed", "n/a: no --counts value exceeds the documented default of %d", GUIDE_POOL);
    printf("\n== pool, limit raised to %d after device launches\n", late_target);
    late_raise_row(&m.rep, &m.jobs[late], &m.res[late]);
    if (counts.v != default_counts) free(counts.v);
    return cdp_finish(&m);
}
