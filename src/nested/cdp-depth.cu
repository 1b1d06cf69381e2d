/* cdp-depth.cu - how deep grids launched from the device may nest under the CUDA device runtime (CDP2), in each
 * device stream kind, and what stops a chain that goes deeper.
 *
 * Question: how deep can device-launched grids nest on this GPU, in each launch stream kind, and what stops a chain that goes deeper?
 * Build: rdc
 * Sanitize: --quick --skip-timing-claims
 *
 * Model: the Programming Guide states 24 levels for CDP1 (beside cudaLimitDevRuntimeSyncDepth, which sm_90
 * refuses) and gives no number for CDP2, so the depth is measured and printed beside the CDP1 one.
 *
 * Probe (table "depth"): a chain, each grid launching the next one a level deeper (the host's grid is depth 0) into
 * one stream kind, up to --max-depth or the first failed launch, which is recorded and ends the chain. Each chain
 * runs in a fresh child process (cdp.cuh), --repeat times there.
 *
 * Run:   make run-cdp-depth
 *        make run-cdp-depth ARGS="--max-depth 300"
 *        compute-sanitizer --tool memcheck build/bin/cdp-depth --quick --skip-timing-claims
 * Nsight Systems: the chains run in child processes (make profile-cdp-depth). NVTX ranges "depth <kind> N=<n>"
 * mark them; grids launched from the device are not traced.
 */
#include "cdp.cuh"

enum { GUIDE_CDP1_DEPTH = 24 }; /* the Programming Guide's nesting limit, stated for CDP1 */

/* ---- kernels ------------------------------------------------------------------ */

/* One level of the chain: counts itself and launches the next level, until max_depth or a failed launch, which is
 * recorded and ends the chain. */
__global__ void chain(probe_state *s, gl_dev_error *err, int depth, int max_depth, int kind)
{
    atomicAdd(&s->ran, 1);
    atomicMax(&s->deepest, depth);
    if (depth == max_depth) return;
    cudaError_t e = launch_in<chain>(kind, s, err, depth + 1, max_depth, kind);
    GL_DEVICE_CHECK(err, e);
    if (e == cudaSuccess) {
        atomicAdd(&s->ok, 1);
    } else {
        atomicAdd(&s->failed, 1);
        s->first_failed = depth + 1; /* the only failure: nothing launches past it */
    }
}

/* ---- host: the probe in the child, its row, claim and finding ------------------------------ */

/* The depth probe's top-level grid: depth 0 of the chain. */
static void launch_chain(cdp_run *m, const job *j)
{
    chain<<<1, 1, 0, m->stream>>>(m->d_state, m->d_err, 0, j->n, j->kind);
}

/* Run one chain in this child, into r. */
static void run_job(cdp_run *m, const job *j, job_result *r) { run_repeated(m, j, r, "depth", launch_chain); }

/* One row of the depth table, its claim and its finding. */
static void depth_row(gl_report *rep, const job *j, const job_result *r)
{
    const char *kind = kind_names[j->kind];
    gl_row *row = kind_row(rep, "depth", kind, j, "max_depth");
    if (no_result(rep, row, r)) return;
    const probe_state *d = &r->dev;
    const char *host = error_name(r->host_error);
    gl_row_number(row, "deepest", "", 0, 0, d->deepest);
    gl_row_number(row, "failed_at", "", 0, 0, d->first_failed < 0 ? NAN : d->first_failed);
    gl_row_text(row, "device_error", 0, "%s", device_error_name(r));
    gl_row_text(row, "host_wait", 0, "%s", host);
    int at_max = d->failed == 0 && d->deepest == j->n;
    int at_error = d->failed == 1 && d->first_failed == d->deepest + 1 && r->err.count == 1;
    char text[256];
    snprintf(text, sizeof text, "%s: the chain ends cleanly: every level up to the deepest ran, and it stopped at "
             "--max-depth or at a launch error the host read, in every run", kind);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING,
                  !r->context_lost && d->ran == d->deepest + 1 && (at_max || at_error) && r->runs_agree == r->runs,
                  text, "%d levels ran, the deepest %d; failed launches: %d (%s); the host's wait returned %s; %d of "
                  "%d runs alike%s", d->ran, d->deepest, d->failed, r->err_text, host, r->runs_agree, r->runs,
                  r->context_lost ? "; the context was lost" : "");
    if (at_max)
        gl_report_finding(rep, "%s: the chain reached --max-depth %d without a failed launch (the guide's %d levels "
                          "are stated for CDP1)", kind, j->n, GUIDE_CDP1_DEPTH);
    else if (at_error)
        gl_report_finding(rep, "%s: the deepest depth that works is %d (the host's grid is depth 0); the launch to "
                          "depth %d fails with %s; the host's wait returned %s (the guide's %d levels are stated for "
                          "CDP1)", kind, d->deepest, d->first_failed, device_error_name(r), host, GUIDE_CDP1_DEPTH);
}

/* ---- host: main ----------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "cdp-depth",
        "how deep can device-launched grids nest on this GPU, in each launch stream kind, and what stops a chain that "
        "goes deeper?",
        "A chain of device launches per stream kind, each grid launching the next one a level deeper. Every chain\n"
        "runs in a fresh child process."};
    int launch = KIND_ALL, max_depth = 64;
    gl_option opts[] = {
        CDP_LAUNCH_OPTION(launch),
        {"max-depth", GL_OPT_INT, &max_depth, 1, 1024, NULL, NULL, "where the chain stops if no launch fails", 0},
    };
    cdp_run m;
    cdp_parse(&m, &exp, opts, GL_ARRAY_LEN(opts), &argc, argv);
    for (int k = 0; k < N_KINDS; k++) /* one chain per stream kind, all in the same children */
        if (launch == KIND_ALL || launch == k) cdp_add(&m, JOB_DEPTH, k, max_depth, 0);
    cdp_plan(&m, &exp, run_job);
    if (cdp_children_done(&m, run_jobs(&m, 0, m.n))) return GL_EXIT_NO_GPU;
    printf("\n== depth: a chain of device launches, up to --max-depth %d (the host's grid is depth 0)\n", max_depth);
    for (int i = 0; i < m.n; i++) depth_row(&m.rep, &m.jobs[i], &m.res[i]);
    return cdp_finish(&m);
}
