/* stream-events.cu - cross-stream dependencies with events: what they order and what they leave free.
 *
 * Question: do events order exactly the dependencies they name (fan-in, fan-out, random DAGs) and leave the rest concurrent?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --dags 3 --skip-timing-claims
 *
 * The seed's fan-in: for i in 0..S-1: K kernels in stream i; record(e[i],
 * stream i); wait(stream S-1, e[i]). Hypothesis: an event orders exactly what
 * it names; a record and a wait hold no hardware queue (gl_sched.h, "Events"),
 * the waiting stream's next kernel does. Model: the core's scheduling
 * simulation of the very run that was measured (gl_schedrun.h), calibrated in
 * this run; with a queue per stream, fan-in and fan-out take 2*K*T (peak S-1),
 * the diamond 3*T (peak 2), a DAG its critical_path plus a gap per link.
 * Parts (--part): fan-in and fan-out (table "pattern"), S streams x K kernels
 * of T; dag (table "dag"), a diamond, then --dags random DAGs from --seed.
 * Claims: every event edge (and a DAG's stream order) holds in every run
 * (ordering); peak concurrency is the simulation's and the median makespan
 * within --tolerance of it (timing); every kernel ran its time (check).
 * In full: experiments/results/FINDINGS.md, "stream-events".
 *
 * Run:   make run-stream-events ARGS="--part dag --dags 100 --seed 7"
 * Nsight Systems (make profile-stream-events ARGS=--quick): NVTX ranges
 * "fan-in S=..", "fan-out S=..", "diamond", "dag N"; streams "stream 0"..; in
 * fan-in the last stream's row starts where the others end.
 */
#include "events.cuh" /* and math.h, stdio.h, stdlib.h, string.h */

enum { PART_ALL, PART_FAN_IN, PART_FAN_OUT, PART_DAG };

/* What every part needs beyond the family's lab: the shape of its programs and the claims' tolerance. */
typedef struct order_lab {
    events_lab E;         /* report, device, machine, trace, the one-warp grid, the timer's slack */
    int streams, kernels; /* S and K */
    double kernel_us;     /* T */
    double tolerance;     /* of the makespan claims */
} order_lab;

/* ---- fan-in and fan-out ---------------------------------------------------------------- */

/* Run a fan-in or fan-out (kind) as a row of table "pattern", with its claims. */
static void pattern_part(order_lab *L, int kind)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    (kind == KIND_FAN_IN ? build_fan_in : build_fan_out)(&p, &L->E.one, L->streams, L->kernels, L->kernel_us * 1e3);
    gl_sched_edge *edges = NULL;
    run_ctx x;
    run_open(&x, &L->E, &p, 0);
    x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
    x.edges = edges;

    gl_row *row = gl_report_row(&L->E.S.rep, "pattern", kind_name[kind]);
    gl_row_param_num(row, "streams", "", 0, L->streams);
    gl_row_param_num(row, "kernels", "", 0, L->kernels);
    gl_row_param_num(row, "kernel_us", "", -1, L->kernel_us);
    gl_row_param_num(row, "connections", "", 0, L->E.S.machine.connections);
    gl_row_param_num(row, "edges", "", 0, x.n_edges);
    gl_row_param(row, "textbook", "2*K*T = 2*%d*%g us", L->kernels, L->kernel_us);
    gl_sampler smp;
    gl_device_sampler(&smp, &L->E.S.dev, L->E.common);
    gl_sched_run_series(&smp);
    char name[64], title[96];
    snprintf(name, sizeof name, "%s S=%d", kind_name[kind], L->streams);
    sample_row(&smp, row, sample_program, &x, name);
    program_claims(&L->E, L->tolerance, row, &x, name, kind_edges[kind]);
    gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, L->kernels};
    snprintf(title, sizeof title, "%s C=%d", name, L->E.S.machine.connections);
    run_close(&L->E, &x, title, &names, &smp, edges, &p);
}

/* ---- DAGs ------------------------------------------------------------------------------- */

/* A -> {B, C} -> D: B and C on streams of their own, D on A's stream (each {stream, ns, n_deps, dep}). */
static dag dag_diamond(double T_ns)
{
    static const dag_kernel abcd[4] = {{0, 0, 0, {0}}, {1, 0, 1, {0}}, {2, 0, 1, {0}}, {0, 0, 2, {1, 2}}};
    dag g = {4, 3, (dag_kernel *)gl_xmalloc(sizeof abcd)};
    memcpy(g.k, abcd, sizeof abcd);
    for (int j = 0; j < 4; j++) g.k[j].ns = T_ns;
    return g;
}

/* The longest path through dependencies and stream order, each kernel its full duration, nothing else. */
static double dag_critical_ns(const dag *g)
{
    double *end = (double *)gl_xcalloc((size_t)g->n, sizeof(double)), longest = 0;
    int last[MAX_STREAMS]; /* each stream's latest kernel */
    for (int s = 0; s < g->streams; s++) last[s] = -1;
    for (int j = 0; j < g->n; j++) {
        const dag_kernel *k = &g->k[j];
        double start = last[k->stream] >= 0 ? end[last[k->stream]] : 0;
        for (int d = 0; d < k->n_deps; d++) start = fmax(start, end[k->dep[d]]);
        end[j] = start + k->ns;
        last[k->stream] = j;
        longest = fmax(longest, end[j]);
    }
    free(end);
    return longest;
}

/* Run DAG g (freed here) as a row of table "dag", into sum; the diamond (index -1) makes its own claims. */
static void dag_row(order_lab *L, dag g, const char *variant, int index, programs_summary *sum)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    gl_sched_edge *edges = NULL;
    int waits = 0, n_edges = dag_program(&L->E.one, &g, &p, &edges);
    for (int i = 0; i < p.n_ops; i++) waits += p.ops[i].kind == GL_SCHED_WAIT;
    run_ctx x;
    run_open(&x, &L->E, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;

    gl_row *row = gl_report_row(&L->E.S.rep, "dag", variant);
    gl_row_param_num(row, "streams", "", 0, g.streams);
    gl_row_param_num(row, "kernels", "", 0, g.n);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    gl_row_param_num(row, "waits", "", 0, waits);
    gl_row_param_num(row, "connections", "", 0, L->E.S.machine.connections);
    gl_row_number(row, "critical_path", "ms", 3, 0, dag_critical_ns(&g) / 1e6);
    gl_sampler smp;
    gl_device_sampler(&smp, &L->E.S.dev, L->E.common);
    gl_sched_run_series(&smp);
    sample_row(&smp, row, sample_program, &x, variant);
    int within = sum->within;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * summary_add(sum, &L->E, L->tolerance, row, &x, index));
    gl_row_number(row, "edge_margin", "us", 2, GL_HIDE, x.worst_margin_ns / 1e3);
    if (index < 0) {
        program_claims(&L->E, L->tolerance, row, &x, variant,
                       "every wait holds: B and C start after A ends, D after both end (in every run)");
    } else {
        gl_row_text(row, "edges_held", 0, "%lld/%lld", x.held, x.checked);
        gl_row_text(row, "model", 0, "%s", sum->within > within ? "within" : "outside");
    }
    gl_names names = {"n%d", NULL, NULL, "stream %d", NULL, NULL, g.n};
    char title[96];
    snprintf(title, sizeof title, "%s C=%d", variant, L->E.S.machine.connections);
    run_close(&L->E, &x, title, &names, &smp, edges, &p);
    free(g.k);
}

/* The diamond, then --dags random DAGs, and the claims over all of them. */
static void dag_part(order_lab *L, int n_dags)
{
    programs_summary sum = {}, diamond = {}; /* the random DAGs', and the diamond's apart */
    dag_row(L, dag_diamond(L->kernel_us * 1e3), "diamond", -1, &diamond);
    for (int d = 0; d < n_dags; d++) {
        char variant[32];
        snprintf(variant, sizeof variant, "dag %d", d);
        dag_row(L, dag_random(L->streams, L->kernels, L->kernel_us * 1e3, L->E.common->seed, d), variant, d, &sum);
    }

    gl_row *row = gl_report_row(&L->E.S.rep, "dag", "all random");
    gl_row_param_num(row, "dags", "", 0, sum.programs);
    gl_row_param(row, "seed", "%llu", L->E.common->seed);
    gl_row_number(row, "worst_model_error", "%", 1, 0, 100 * sum.worst_error);
    gl_check(&L->E.S.rep, row, sum.runs_complete == sum.runs,
             "%d random DAGs: %d of %d runs recorded all their kernels, each ran its time, and left its result",
             sum.programs, sum.runs_complete, sum.runs);
    char text[192], what[192];
    snprintf(text, sizeof text, "%d random DAGs: %s", sum.programs, kind_edges[KIND_DAG]);
    snprintf(what, sizeof what, "edge checks over all DAGs and runs (smallest margin %.3f us, in dag %lld)",
             sum.worst_margin_ns / 1e3, sum.worst_margin_at);
    gl_claim_every(&L->E.S.rep, row, GL_CLAIM_ORDERING, text, sum.held, sum.checked, what,
                   "the DAGs have no dependencies");
    snprintf(text, sizeof text, "%d random DAGs: the makespan is within %.0f%% of the simulation's in every DAG",
             sum.programs, 100 * L->tolerance);
    snprintf(what, sizeof what, "DAGs (worst: dag %lld, %.1f%% off)", sum.worst_error_at, 100 * sum.worst_error);
    gl_claim_every(&L->E.S.rep, row, GL_CLAIM_TIMING, text, sum.within, sum.programs, what, "no DAGs");
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "stream-events",
        "do events order exactly the dependencies they name (fan-in, fan-out, random DAGs) and leave the rest "
        "concurrent?",
        "Model: the core's scheduling simulation (gl_sched.h) of each run, issued through gl_schedrun.h; claims: every\n"
        "event edge holds, peak concurrency and makespan match the simulation. Random programs: event-programs."};
    order_lab L = {{}, 4, 4, 1000, 0.10}; /* the defaults: S, K, T (us), tolerance */
    int dags = 20, part = PART_ALL;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &L.streams, 2, MAX_STREAMS, NULL, NULL,
         "streams (S) of fan-in, fan-out and the random DAGs", 0},
        {"kernels", GL_OPT_INT, &L.kernels, 1, 64, NULL, NULL, "kernels per stream (K); a random DAG has S*K", 0},
        {"kernel-us", GL_OPT_DOUBLE, &L.kernel_us, 1, 1e6, NULL, "200",
         "duration of each work kernel in us (T; a random DAG's kernels take T/2..3T/2)", 0},
        {"dags", GL_OPT_INT, &dags, 1, 1000, NULL, NULL, "random DAGs, seeded from --seed", 0},
        {"tolerance", GL_OPT_DOUBLE, &L.tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|fan-in|fan-out|dag", NULL, "which part to run", 0},
    };
    gl_common common;
    events_lab_start(&L.E, &exp, opts, GL_ARRAY_LEN(opts), &common, &L.kernel_us, argc, argv);
    printf("setup: S=%d streams x K=%d kernels x T=%g us, 1 block x %d threads each; C=%d connections; %d random "
           "DAGs of %d kernels from seed %llu\n",
           L.streams, L.kernels, L.kernel_us, THREADS, L.E.S.machine.connections, dags, L.streams * L.kernels,
           common.seed);
    if (part == PART_ALL || part == PART_FAN_IN) pattern_part(&L, KIND_FAN_IN);
    if (part == PART_ALL || part == PART_FAN_OUT) pattern_part(&L, KIND_FAN_OUT);
    if (part == PART_ALL || part == PART_DAG) dag_part(&L, dags);
    return gl_sched_lab_close(&L.E.S, &common);
}
