/* stream-events.cu - cross-stream dependencies with events: what they order and what they leave free.
 *
 * Question: do events order exactly the dependencies they name (fan-in, fan-out, random DAGs) and leave the rest concurrent?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --dags 3 --skip-timing-claims
 *
 * cudaEventRecord(e, a) marks a point in stream a; cudaStreamWaitEvent(b, e)
 * holds everything issued to b after it until a has reached that point. The
 * seed's fan-in: for i in 0..S-1: K kernels in stream i; record(e[i], stream
 * i); wait(stream S-1, e[i]). Stream S-1's kernels start once every other
 * stream's have ended, while streams 0..S-2 still run side by side.
 *
 * Hypothesis: an event orders exactly what it names. A record and a wait hold
 * no hardware queue (gl_sched.h, "Events"); the waiting stream's next kernel
 * does, at its queue's head. A DAG takes its critical path through the queues.
 * Model: the core's scheduling simulation of the very run that was measured
 * (gl_schedrun.h), on a machine calibrated in this run; no formula in the code.
 * With a queue per stream: fan-in and fan-out 2*K*T (peak S-1), the diamond
 * 3*T (peak 2), a DAG its critical_path plus a dispatch gap per link.
 *
 * Parts (--part; all: every part but random): fan-in and fan-out (table
 * "pattern"), S streams x K kernels of T; dag (table "dag"), a diamond, then
 * --dags random DAGs from --seed; random (table "random"), --programs random
 * programs (fan-in, fan-out, dag, cross, legacy), program i from seed --seed
 * + i: S log-uniform in --streams-min..--streams-max, K in 1..--kernels, T
 * log-uniform in max(--kernel-us/20, 20 us)..--kernel-us; make validate-model
 * judges them as a population. How they are drawn in full, and the runs behind
 * the model's rules for events: experiments/results/FINDINGS.md, "stream-events".
 * Claims: every event edge (and a DAG's stream order) holds in every run
 * (ordering); peak concurrency is the simulation's and the median makespan
 * within --tolerance of it (timing); every kernel ran its time (check).
 *
 * Run:   make run-stream-events ARGS="--part dag --dags 100 --seed 7"
 *        make run-stream-events ARGS="--part random --programs 8 --connections 4"
 * Nsight Systems (make profile-stream-events ARGS=--quick): NVTX ranges
 * "fan-in S=..", "fan-out S=..", "diamond", "dag N", "random N (kind, seed
 * ..)"; streams "stream 0".."stream S-1". In fan-in the last stream's row
 * starts where the others end; in fan-out the consumers start together where
 * the producer ends. --trace and --timeline show each run beside its model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.cuh"

enum { PART_ALL, PART_FAN_IN, PART_FAN_OUT, PART_DAG, PART_RANDOM };

/* What every part needs beyond the family's lab: the shape of its programs and the claims' tolerance. */
typedef struct order_lab {
    events_lab E;                 /* report, device, machine, trace, the one-warp grid, the timer's slack */
    int streams, kernels;         /* S and K (random: K at most) */
    int streams_min, streams_max; /* random: the range of S */
    double kernel_us;             /* T */
    double tolerance;             /* of the makespan claims */
} order_lab;

/* ---- a program's runs against its simulation ---------------------------------------------- */

/* A sampler from the common options with the pattern series declared. */
static void pattern_sampler(events_lab *L, gl_sampler *smp)
{
    gl_device_sampler(smp, &L->S.dev, L->common);
    gl_sched_run_series(smp);
}

/* One run of a pattern or DAG: makespans, peaks (kernels together for at
 * least the dispatch gap, as in streamgrid) and the start error. */
static void sample_pattern(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    gl_sched_run_once(r);
    check_edges(x);
    gl_sched_run_put(s, r, x->L->S.machine.dispatch_ns);
}

/* Whether a median makespan is within --tolerance (plus the timer's slack) of the simulation's. */
static int within_model(const order_lab *L, double makespan_ms, double model_ms)
{
    return fabs(makespan_ms - model_ms) <= L->tolerance * model_ms + L->E.slack_ns / 1e6;
}

/* ---- fan-in and fan-out ---------------------------------------------------------------- */

/* The seed's fan-in: each of S streams' K kernels of T_ns, its record, and the last stream's wait for it. */
static void build_fan_in(gl_sched_program *p, const grid *k, int S, int K, double T_ns)
{
    int *st = (int *)gl_xcalloc((size_t)S, sizeof(int));
    new_streams(p, st, S);
    for (int s = 0; s < S; s++) {
        for (int j = 0; j < K; j++) launch(k, p, st[s], s, j, T_ns);
        int ev = gl_sched_event_new(p);
        gl_sched_record(p, 0, st[s], ev);
        gl_sched_wait(p, 0, st[S - 1], ev);
    }
    free(st);
}

/* One producer of K kernels, S-1 consumers of its one event, K kernels each. */
static void build_fan_out(gl_sched_program *p, const grid *k, int S, int K, double T_ns)
{
    int *st = (int *)gl_xcalloc((size_t)S, sizeof(int));
    new_streams(p, st, S);
    int ev = gl_sched_event_new(p);
    for (int j = 0; j < K; j++) launch(k, p, st[0], 0, j, T_ns);
    gl_sched_record(p, 0, st[0], ev);
    for (int s = 1; s < S; s++) {
        gl_sched_wait(p, 0, st[s], ev);
        for (int j = 0; j < K; j++) launch(k, p, st[s], s, j, T_ns);
    }
    free(st);
}

/* How fan-in and fan-out are built: S streams x K kernels of T_ns, in grid k. */
typedef void (*pattern_fn)(gl_sched_program *p, const grid *k, int S, int K, double T_ns);

/* The claims of a pattern: every edge held, the peak is the model's, the makespan near the model's. */
static void pattern_claims(order_lab *L, gl_row *row, const run_ctx *x, const char *name, const char *edge_text)
{
    char text[256], what[160], overlaps[160], prefix[96];
    check_complete(&L->E, row, x, name);
    snprintf(text, sizeof text, "%s: %s", name, edge_text);
    snprintf(what, sizeof what, "edge checks (%d edges x %d runs; smallest margin %.3f us)", x->n_edges,
             x->run.runs, x->worst_margin_ns / 1e3);
    gl_claim_every(&L->E.S.rep, row, GL_CLAIM_ORDERING, text, x->held, x->checked, what,
                   "the program has no event edges");
    snprintf(overlaps, sizeof overlaps, "%s: everything else overlaps:", name);
    snprintf(prefix, sizeof prefix, "%s:", name);
    gl_sched_run_claims(&L->E.S.rep, row, overlaps, prefix, L->tolerance, L->E.slack_ns);
}

/* Run a fan-in or fan-out program as a row of table "pattern", with its claims. */
static void pattern_part(order_lab *L, const char *variant, pattern_fn build, const char *edge_text)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    build(&p, &L->E.one, L->streams, L->kernels, L->kernel_us * 1e3);
    gl_sched_edge *edges = NULL;
    run_ctx x;
    run_open(&x, &L->E, &p, 0);
    x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
    x.edges = edges;

    gl_row *row = gl_report_row(&L->E.S.rep, "pattern", variant);
    gl_row_param_num(row, "streams", "", 0, L->streams);
    gl_row_param_num(row, "kernels", "", 0, L->kernels);
    gl_row_param_num(row, "kernel_us", "", -1, L->kernel_us);
    gl_row_param_num(row, "connections", "", 0, L->E.S.machine.connections);
    gl_row_param_num(row, "edges", "", 0, x.n_edges);
    gl_row_param(row, "textbook", "2*K*T = 2*%d*%g us", L->kernels, L->kernel_us);
    gl_sampler smp;
    pattern_sampler(&L->E, &smp);
    char name[64];
    snprintf(name, sizeof name, "%s S=%d", variant, L->streams);
    sample_row(&smp, row, sample_pattern, &x, name);
    pattern_claims(L, row, &x, name, edge_text);
    gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, L->kernels};
    char title[96];
    snprintf(title, sizeof title, "%s C=%d", name, L->E.S.machine.connections);
    run_close(&L->E, &x, title, &names, &smp, edges, &p);
}

/* ---- DAGs ------------------------------------------------------------------------------- */

/* Kernels in issue order, each on a stream, each depending on earlier ones. */
typedef struct dag {
    int n;          /* kernels */
    int streams;    /* streams they use */
    int *stream;    /* each kernel's stream */
    double *ns;     /* each kernel's duration */
    int *first_dep; /* kernel j depends on dep[first_dep[j] .. first_dep[j+1]-1] */
    int *dep;       /* earlier kernels, each at most once per kernel */
} dag;

static void dag_alloc(dag *g, int n, int streams, int max_deps)
{
    g->n = n;
    g->streams = streams;
    g->stream = (int *)gl_xcalloc((size_t)n, sizeof(int));
    g->ns = (double *)gl_xcalloc((size_t)n, sizeof(double));
    g->first_dep = (int *)gl_xcalloc((size_t)n + 1, sizeof(int));
    g->dep = (int *)gl_xcalloc((size_t)n * max_deps + 1, sizeof(int));
}

static void dag_free(dag *g)
{
    free(g->stream);
    free(g->ns);
    free(g->first_dep);
    free(g->dep);
}

/* A -> {B, C} -> D: B and C on streams of their own, D on A's stream. */
static void dag_diamond(dag *g, double T_ns)
{
    static const int stream[4] = {0, 1, 2, 0}, first[5] = {0, 0, 1, 2, 4}, dep[4] = {0, 0, 1, 2};
    dag_alloc(g, 4, 3, 2);
    for (int j = 0; j < 4; j++) {
        g->stream[j] = stream[j];
        g->ns[j] = T_ns;
    }
    memcpy(g->first_dep, first, sizeof first);
    memcpy(g->dep, dep, sizeof dep);
}

/* A random DAG of S*K kernels, the same for the same seed and index on every
 * machine: every kernel takes its own fixed set of draws. */
static void dag_random(dag *g, int S, int K, double T_ns, unsigned long long seed, int index)
{
    enum { MAX_DEPS = 3 };
    int n = S * K, window = 2 * S, per = 2 + window;
    double *u = (double *)gl_xmalloc(sizeof(double) * (size_t)n * per);
    gl_fill_f64(u, (size_t)n * per, seed, 1000u + (unsigned)index, 0.0, 1.0);
    dag_alloc(g, n, S, MAX_DEPS);
    int nd = 0;
    for (int j = 0; j < n; j++) {
        const double *d = u + (size_t)j * per;
        g->stream[j] = (int)fmin(S - 1, floor(d[0] * S));
        g->ns[j] = T_ns * (0.5 + d[1]);
        g->first_dep[j] = nd;
        for (int w = 0; w < window && j - 1 - w >= 0; w++)
            if (d[2 + w] < 0.25 && nd - g->first_dep[j] < MAX_DEPS) g->dep[nd++] = j - 1 - w;
    }
    g->first_dep[n] = nd;
    free(u);
}

/* The longest path through dependencies and stream order, each kernel its full duration, nothing else. */
static double dag_critical_ns(const dag *g)
{
    double *end = (double *)gl_xcalloc((size_t)g->n, sizeof(double)), longest = 0;
    int *last = (int *)gl_xmalloc(sizeof(int) * (size_t)g->streams);
    for (int s = 0; s < g->streams; s++) last[s] = -1;
    for (int j = 0; j < g->n; j++) {
        double start = last[g->stream[j]] >= 0 ? end[last[g->stream[j]]] : 0;
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++) start = fmax(start, end[g->dep[d]]);
        end[j] = start + g->ns[j];
        last[g->stream[j]] = j;
        longest = fmax(longest, end[j]);
    }
    free(end);
    free(last);
    return longest;
}

/* The DAG as calls: for each kernel in order, a wait for each producer on
 * another stream, the launch, and a record when a kernel on another stream
 * depends on it. *edges gets every dependency (op indices; stream order too,
 * kind 0), and the program's own event edges must be exactly the cross-stream
 * ones. Returns the edge count; *waits gets the waits issued. */
static int dag_program(const grid *k, const dag *g, gl_sched_program *p, gl_sched_edge **edges, int *waits)
{
    int *st = (int *)gl_xcalloc((size_t)g->streams, sizeof(int)), *ev = (int *)gl_xcalloc((size_t)g->n, sizeof(int));
    int *op = (int *)gl_xcalloc((size_t)g->n, sizeof(int));
    new_streams(p, st, g->streams);
    for (int j = 0; j < g->n; j++) ev[j] = -1;
    for (int j = 0; j < g->n; j++)
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++)
            if (g->stream[g->dep[d]] != g->stream[j] && ev[g->dep[d]] < 0) ev[g->dep[d]] = gl_sched_event_new(p);
    int n = g->first_dep[g->n], cross = 0;
    gl_sched_edge *e = (gl_sched_edge *)gl_xcalloc((size_t)n + 1, sizeof *e);
    *waits = 0;
    for (int j = 0; j < g->n; j++) {
        int s = st[g->stream[j]];
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++)
            if (g->stream[g->dep[d]] != g->stream[j]) {
                gl_sched_wait(p, 0, s, ev[g->dep[d]]);
                (*waits)++;
            }
        op[j] = launch(k, p, s, g->stream[j], j, g->ns[j]);
        if (ev[j] >= 0) gl_sched_record(p, 0, s, ev[j]);
        for (int d = g->first_dep[j]; d < g->first_dep[j + 1]; d++) {
            int c = g->stream[g->dep[d]] != g->stream[j];
            e[d].before = op[g->dep[d]];
            e[d].after = op[j];
            e[d].kind = c ? GL_SCHED_EDGE_EVENT : 0;
            cross += c;
        }
    }
    /* The waits must promise exactly the cross-stream dependencies: a bug here would check the wrong thing. */
    gl_sched_edge *implied = NULL;
    int n_implied = gl_sched_edges(p, GL_SCHED_EDGE_EVENT, &implied), found = 0;
    for (int i = 0; i < n_implied; i++)
        for (int k = 0; k < n; k++)
            if (e[k].kind && e[k].before == implied[i].before && e[k].after == implied[i].after) {
                found++;
                break;
            }
    if (n_implied != cross || found != cross)
        gl_die(GL_EXIT_INTERNAL, "a DAG's waits imply %d edges (%d of them its own) for its %d cross-stream dependencies",
               n_implied, found, cross);
    free(implied);
    free(st);
    free(ev);
    free(op);
    *edges = e;
    return n;
}

/* What all the DAGs showed, for the claims made over all of them. */
typedef struct dag_summary {
    int dags, within;           /* DAGs, and those whose makespan was within tolerance of the model */
    int runs, runs_complete;    /* over all DAGs */
    long long checked, held;    /* edge checks, and those that held */
    double worst_margin_ns;     /* smallest start-after-end over every edge */
    int worst_margin_dag;       /* the DAG it was in */
    double worst_error;         /* the largest |makespan error| (fraction of the model's) */
    int worst_error_dag;        /* its DAG */
} dag_summary;

/* Run one DAG as a row of table "dag"; the diamond (index -1) makes its own claims. */
static void dag_row(order_lab *L, const dag *g, const char *variant, int index, dag_summary *sum)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    gl_sched_edge *edges = NULL;
    int waits = 0, n_edges = dag_program(&L->E.one, g, &p, &edges, &waits);
    run_ctx x;
    run_open(&x, &L->E, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;
    double critical = dag_critical_ns(g);

    gl_row *row = gl_report_row(&L->E.S.rep, "dag", variant);
    gl_row_param_num(row, "streams", "", 0, g->streams);
    gl_row_param_num(row, "kernels", "", 0, g->n);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    gl_row_param_num(row, "waits", "", 0, waits);
    gl_row_param_num(row, "connections", "", 0, L->E.S.machine.connections);
    gl_row_number(row, "critical_path", "ms", 3, 0, critical / 1e6);
    gl_sampler smp;
    pattern_sampler(&L->E, &smp);
    sample_row(&smp, row, sample_pattern, &x, variant);
    gl_stats mk = gl_row_find(row, "makespan")->stats, model_mk = gl_row_find(row, "model_makespan")->stats;
    double error = (mk.median - model_mk.median) / model_mk.median;
    gl_row_number(row, "model_error", "%", 1, 0, 100 * error);
    gl_row_number(row, "edge_margin", "us", 2, GL_HIDE, x.worst_margin_ns / 1e3);

    if (index < 0) {
        pattern_claims(L, row, &x, variant,
                       "every wait holds: B and C start after A ends, D after both end (in every run)");
    } else {
        int ok = within_model(L, mk.median, model_mk.median);
        gl_row_text(row, "edges_held", 0, "%lld/%lld", x.held, x.checked);
        gl_row_text(row, "model", 0, "%s", ok ? "within" : "outside");
        sum->dags++;
        sum->within += ok;
        sum->runs += x.run.runs;
        sum->runs_complete += x.run.runs_complete;
        sum->checked += x.checked;
        sum->held += x.held;
        if (x.worst_margin_ns < sum->worst_margin_ns) {
            sum->worst_margin_ns = x.worst_margin_ns;
            sum->worst_margin_dag = index;
        }
        if (fabs(error) > sum->worst_error) {
            sum->worst_error = fabs(error);
            sum->worst_error_dag = index;
        }
    }
    gl_names names = {"n%d", NULL, NULL, "stream %d", NULL, NULL, g->n};
    char title[96];
    snprintf(title, sizeof title, "%s C=%d", variant, L->E.S.machine.connections);
    run_close(&L->E, &x, title, &names, &smp, edges, &p);
}

/* The diamond, then --dags random DAGs, and the claims over all of them. */
static void dag_part(order_lab *L, int n_dags)
{
    dag g;
    dag_summary sum;
    memset(&sum, 0, sizeof sum);
    sum.worst_margin_ns = INFINITY;
    dag_diamond(&g, L->kernel_us * 1e3);
    dag_row(L, &g, "diamond", -1, &sum);
    dag_free(&g);
    for (int d = 0; d < n_dags; d++) {
        char variant[32];
        snprintf(variant, sizeof variant, "dag %d", d);
        dag_random(&g, L->streams, L->kernels, L->kernel_us * 1e3, L->E.common->seed, d);
        dag_row(L, &g, variant, d, &sum);
        dag_free(&g);
    }

    gl_row *row = gl_report_row(&L->E.S.rep, "dag", "all random");
    gl_row_param_num(row, "dags", "", 0, sum.dags);
    gl_row_param(row, "seed", "%llu", L->E.common->seed);
    gl_row_number(row, "worst_model_error", "%", 1, 0, 100 * sum.worst_error);
    gl_check(&L->E.S.rep, row, sum.runs_complete == sum.runs,
             "%d random DAGs: %d of %d runs recorded all their kernels, each ran its time, and left its result",
             sum.dags, sum.runs_complete, sum.runs);
    char text[192], what[192];
    snprintf(text, sizeof text, "%d random DAGs: every dependency edge (event waits and stream order) holds in every run",
             sum.dags);
    snprintf(what, sizeof what, "edge checks over all DAGs and runs (smallest margin %.3f us, in dag %d)",
             sum.worst_margin_ns / 1e3, sum.worst_margin_dag);
    gl_claim_every(&L->E.S.rep, row, GL_CLAIM_ORDERING, text, sum.held, sum.checked, what,
                   "the DAGs have no dependencies");
    snprintf(text, sizeof text, "%d random DAGs: the makespan is within %.0f%% of the simulation's in every DAG",
             sum.dags, 100 * L->tolerance);
    snprintf(what, sizeof what, "DAGs (worst: dag %d, %.1f%% off)", sum.worst_error_dag, 100 * sum.worst_error);
    gl_claim_every(&L->E.S.rep, row, GL_CLAIM_TIMING, text, sum.within, sum.dags, what, "no DAGs");
}

/* ---- random: programs nobody picked, one row each (make validate-model) ---------------------- */

enum { KIND_FAN_IN, KIND_FAN_OUT, KIND_DAG, KIND_CROSS, KIND_LEGACY, N_KINDS };
static const char *const kind_name[N_KINDS] = {"fan-in", "fan-out", "dag", "cross", "legacy"};
/* What the ordering claim of each kind says. */
static const char *const kind_edges[N_KINDS] = {
    "every wait holds: the last stream's first kernel starts after every other stream's last kernel ends (in every "
    "run)",
    "every wait holds: each consumer's first kernel starts after the producer's last kernel ends (in every run)",
    "every dependency edge (event waits and stream order) holds in every run",
    "every wait holds: the waiting stream's next kernel starts after the recorded stream's kernel before the record "
    "ends (in every run)",
    "every wait and every legacy-stream barrier holds (in every run)"};
static const int RANDOM_THREADS[] = {32, 64, 128, 256};
static const double RANDOM_WORK_NS = 20e6; /* a program's kernels end to end, each its mean time: what C=1 may cost */
enum { RANDOM_MAX_KERNELS = 256 };          /* a few hundred kernels at most, whatever the options */
enum { DRAW_CHUNK = 256 };                  /* draws filled at a time */

/* Uniform draws in [0, 1) from one seed, taken in order, a chunk at a time
 * from splitmix64 streams 2000, 2001, ... (dag_random takes 1000 + its index):
 * the same seed gives the same program on every machine. */
typedef struct draws {
    unsigned long long seed; /* the program's seed */
    unsigned chunk;          /* chunks filled so far */
    int next;                /* the next unused draw in u */
    double u[DRAW_CHUNK];    /* the current chunk */
} draws;

/* Draws from seed, none taken yet. */
static void draws_init(draws *d, unsigned long long seed)
{
    d->seed = seed;
    d->chunk = 0;
    d->next = DRAW_CHUNK;
}

/* The next draw, in [0, 1). */
static double draw_u(draws *d)
{
    if (d->next == DRAW_CHUNK) {
        gl_fill_f64(d->u, DRAW_CHUNK, d->seed, 2000u + d->chunk++, 0.0, 1.0);
        d->next = 0;
    }
    return d->u[d->next++];
}

/* An integer uniformly in [lo, hi]. */
static int draw_int(draws *d, int lo, int hi)
{
    return lo + (int)fmin(hi - lo, floor(draw_u(d) * (hi - lo + 1)));
}

/* An integer in [lo, hi], log-uniformly: as many programs of 2..3 streams as of 32..63. */
static int draw_log_int(draws *d, int lo, int hi)
{
    double x = exp(log((double)lo) + draw_u(d) * (log(hi + 1.0) - log((double)lo)));
    return (int)fmax(lo, fmin(hi, floor(x)));
}

/* The shortest T a random program draws: kernel-us/20, but not under 20 us
 * (where the host's few us per launch would be most of a kernel) unless
 * --kernel-us itself is. */
static double random_min_us(double kernel_us) { return fmin(kernel_us, fmax(kernel_us / 20, 20)); }

/* One random program as drawn: what builds it again from its seed. */
typedef struct program_spec {
    unsigned long long seed; /* --seed + its index: alone, it is --programs 1 --seed <this> */
    int kind;                /* KIND_*: seed mod N_KINDS, so that consecutive seeds take turns */
    int streams;             /* S */
    int kernels;             /* K: kernels per stream (legacy: per stream and phase) */
    int phases;              /* legacy: phases of the streams' work, legacy kernels between them */
    double kernel_ns;        /* T: fan-in and fan-out kernels run it; the others T/2..3T/2 */
    grid k;                  /* every kernel's grid */
} program_spec;

/* About how many kernels a spec issues: what the work budget divides. */
static int spec_kernels(const program_spec *ps)
{
    if (ps->kind == KIND_LEGACY) return ps->streams * ps->kernels * ps->phases + 2 * ps->phases;
    return ps->streams * ps->kernels;
}

/* Draw program seed's spec: S log-uniform in --streams-min..--streams-max, K
 * uniform in 1..--kernels, T log-uniform in random_min_us..--kernel-us, one
 * block of 32..256 threads, or (one program in six) 2..16 blocks of 64 or
 * 128. T, then K, shrink until the kernels take at most RANDOM_WORK_NS end
 * to end, so that even one queue (C=1) runs a program in tens of ms. d is
 * left at the draws that build the program. */
static void random_spec(const order_lab *L, unsigned long long seed, program_spec *ps, draws *d)
{
    draws_init(d, seed);
    memset(ps, 0, sizeof *ps);
    ps->seed = seed;
    ps->kind = (int)(seed % N_KINDS);
    ps->streams = draw_log_int(d, L->streams_min, L->streams_max);
    int K = draw_int(d, 1, L->kernels);
    ps->phases = draw_int(d, 2, 3);
    ps->kernels = ps->kind == KIND_LEGACY ? (K / ps->phases > 1 ? K / ps->phases : 1) : K;
    double lo = random_min_us(L->kernel_us) * 1e3, hi = L->kernel_us * 1e3;
    ps->kernel_ns = exp(log(lo) + draw_u(d) * (log(hi) - log(lo)));
    if (draw_u(d) < 1.0 / 6) {
        ps->k.blocks = draw_log_int(d, 2, 16);
        ps->k.threads = draw_u(d) < 0.5 ? 64 : 128;
    } else {
        ps->k.blocks = 1;
        ps->k.threads = RANDOM_THREADS[draw_int(d, 0, GL_ARRAY_LEN(RANDOM_THREADS) - 1)];
    }
    ps->k.per_sm = gl_work_blocks_per_sm(ps->k.threads);
    while (ps->kernels > 1 && spec_kernels(ps) > RANDOM_MAX_KERNELS) ps->kernels--;
    ps->kernel_ns = fmax(lo, fmin(ps->kernel_ns, RANDOM_WORK_NS / spec_kernels(ps)));
    while (ps->kernels > 1 && spec_kernels(ps) * ps->kernel_ns > RANDOM_WORK_NS) ps->kernels--;
    /* To 0.1 us, the row's kernel_us: the T the row states is the T its kernels ran. */
    ps->kernel_ns = round(ps->kernel_ns / 100) * 100;
}

/* Random records and waits between S non-blocking streams: S*K kernels of
 * T/2..3T/2, each on a stream drawn uniformly. Before a kernel, one time in
 * two, its stream waits for one or two events recorded on other streams: half
 * of the time one of the last four records, else any record so far (one made
 * much earlier). After a kernel, two times in five, its stream records an
 * event: a new one or, one time in four, one recorded before (later waits name
 * the newer record, as cudaStreamWaitEvent does); and one such record in five
 * is waited for at once by 2..S-1 other streams. */
static void build_cross(gl_sched_program *p, const program_spec *ps, draws *d)
{
    int S = ps->streams, n = S * ps->kernels, n_rec = 0;
    int *st = (int *)gl_xcalloc((size_t)S, sizeof(int)), *others = (int *)gl_xcalloc((size_t)S, sizeof(int));
    int *rec = (int *)gl_xcalloc((size_t)n, sizeof(int));           /* the event of each record, in order */
    int *recorded_on = (int *)gl_xcalloc((size_t)n, sizeof(int));   /* each event's latest recording stream */
    new_streams(p, st, S);
    for (int j = 0; j < n; j++) {
        int s = draw_int(d, 0, S - 1);
        if (n_rec > 0 && draw_u(d) < 0.5) {
            int waits = draw_u(d) < 0.3 ? 2 : 1;
            for (int w = 0; w < waits; w++) {
                int recent = draw_u(d) < 0.5;
                int r = recent ? n_rec - 1 - draw_int(d, 0, n_rec < 4 ? n_rec - 1 : 3) : draw_int(d, 0, n_rec - 1);
                if (recorded_on[rec[r]] != s) gl_sched_wait(p, 0, st[s], rec[r]);
            }
        }
        launch(&ps->k, p, st[s], s, j, ps->kernel_ns * (0.5 + draw_u(d)));
        if (draw_u(d) >= 0.4) continue;
        int ev = n_rec > 0 && draw_u(d) < 0.25 ? rec[draw_int(d, 0, n_rec - 1)] : gl_sched_event_new(p);
        gl_sched_record(p, 0, st[s], ev);
        recorded_on[ev] = s;
        rec[n_rec++] = ev;
        if (S > 2 && draw_u(d) < 0.2) {
            /* 2..S-1 of the other streams, a partial shuffle of them. */
            int n_others = 0, m = draw_int(d, 2, S - 1);
            for (int o = 0; o < S; o++)
                if (o != s) others[n_others++] = o;
            for (int i = 0; i < m; i++) {
                int pick = draw_int(d, i, n_others - 1), o = others[pick];
                others[pick] = others[i];
                others[i] = o;
                gl_sched_wait(p, 0, st[o], ev);
            }
        }
    }
    free(st);
    free(others);
    free(rec);
    free(recorded_on);
}

/* Kernels on the legacy NULL stream between phases of S streams' work: the
 * streams are blocking (cudaStreamCreate), one in four non-blocking (never
 * the first); each phase gives every stream K kernels of T/2..3T/2, issued
 * depth- or breadth-first. Between two phases come one or two legacy kernels
 * (and, one time in two, one before the first phase or after the last), each
 * waiting for every blocking stream's work issued before it and holding back
 * the blocking streams' next kernels, while the non-blocking streams run on;
 * one legacy kernel in two is recorded, and a non-blocking stream waits for it. */
static void build_legacy(gl_sched_program *p, const program_spec *ps, draws *d)
{
    int S = ps->streams, K = ps->kernels, P = ps->phases, label = 0, n_nb = 0;
    int *st = (int *)gl_xcalloc((size_t)S, sizeof(int)), *nonblocking = (int *)gl_xcalloc((size_t)S, sizeof(int));
    for (int s = 0; s < S; s++) {
        int nb = s > 0 && draw_u(d) < 0.25;
        st[s] = gl_sched_stream_new(p, nb ? GL_SCHED_STREAM_NONBLOCKING : GL_SCHED_STREAM_BLOCKING, 0, -1);
        if (nb) nonblocking[n_nb++] = s;
    }
    int order = draw_u(d) < 0.5 ? GL_SCHED_DEPTH_FIRST : GL_SCHED_BREADTH_FIRST;
    for (int phase = 0; phase <= P; phase++) {
        int n_legacy = phase > 0 && phase < P ? draw_int(d, 1, 2) : draw_u(d) < 0.5;
        for (int l = 0; l < n_legacy; l++) {
            launch(&ps->k, p, GL_SCHED_LEGACY, S, label++, ps->kernel_ns * (0.5 + draw_u(d)));
            if (n_nb > 0 && draw_u(d) < 0.5) {
                int ev = gl_sched_event_new(p);
                gl_sched_record(p, 0, GL_SCHED_LEGACY, ev);
                gl_sched_wait(p, 0, st[nonblocking[draw_int(d, 0, n_nb - 1)]], ev);
            }
        }
        for (int n = 0; phase < P && n < S * K; n++) {
            int s, j;
            gl_sched_issue_order(order, S, K, n, &s, &j);
            launch(&ps->k, p, st[s], s, label++, ps->kernel_ns * (0.5 + draw_u(d)));
        }
    }
    free(st);
    free(nonblocking);
}

/* Build the program ps describes into p (its remaining draws in d), and the
 * dependencies every run must keep into *edges (op indices): a DAG's own
 * (event waits and stream order), else what the program's waits and legacy
 * kernels promise (gl_sched_edges). Returns the edge count. */
static int random_program(const program_spec *ps, draws *d, gl_sched_program *p, gl_sched_edge **edges)
{
    switch (ps->kind) {
    case KIND_FAN_IN: build_fan_in(p, &ps->k, ps->streams, ps->kernels, ps->kernel_ns); break;
    case KIND_FAN_OUT: build_fan_out(p, &ps->k, ps->streams, ps->kernels, ps->kernel_ns); break;
    case KIND_CROSS: build_cross(p, ps, d); break;
    case KIND_LEGACY: build_legacy(p, ps, d); break;
    default: {
        dag g;
        int waits = 0;
        dag_random(&g, ps->streams, ps->kernels, ps->kernel_ns, ps->seed, 0);
        int n = dag_program(&ps->k, &g, p, edges, &waits);
        dag_free(&g);
        return n;
    }
    }
    return gl_sched_edges(p, GL_SCHED_EDGE_EVENT | GL_SCHED_EDGE_LEGACY, edges);
}

/* Tracks 0..S-1 are a random program's streams; track S (ctx) is the legacy stream's. */
static void random_track(int index, gl_buf *out, const void *ctx)
{
    if (index == *(const int *)ctx) gl_buf_puts(out, "legacy stream");
    else gl_buf_printf(out, "stream %d", index);
}

/* One run of a random program: sample_pattern's values, and how long the host took to issue it. */
static void sample_random(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    sample_pattern(s, arg);
    double last = x->run.t0_ns;
    for (int i = 0; i < x->run.prog->n_ops; i++) last = fmax(last, x->run.return_ns[i]);
    gl_sample_put(s, "issue_time", (last - x->run.t0_ns) / 1e6);
}

/* What the random programs showed, for the line after them (validate-model judges the population). */
typedef struct random_summary {
    int programs;        /* rows */
    int within;          /* makespan within --tolerance of the simulation */
    int peak_equal;      /* median peak equal to the simulation's */
    int edges_all_held;  /* every edge held in every run */
    double worst_error;  /* the largest |makespan error| (fraction of the model's) */
    unsigned long long worst_seed; /* its program's seed */
} random_summary;

/* Run the program of seed --seed + index as a row of table "random", with its claims. */
static void random_row(order_lab *L, int index, random_summary *sum)
{
    program_spec ps;
    draws d;
    random_spec(L, L->E.common->seed + (unsigned long long)index, &ps, &d);
    gl_sched_program p;
    gl_sched_program_init(&p);
    gl_sched_edge *edges = NULL;
    int n_edges = random_program(&ps, &d, &p, &edges);
    run_ctx x;
    run_open(&x, &L->E, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;
    int launches = 0, legacy = 0, waits = 0, records = 0;
    for (int i = 0; i < p.n_ops; i++) {
        launches += p.ops[i].kind == GL_SCHED_LAUNCH;
        legacy += p.ops[i].kind == GL_SCHED_LAUNCH && p.ops[i].stream == GL_SCHED_LEGACY;
        waits += p.ops[i].kind == GL_SCHED_WAIT;
        records += p.ops[i].kind == GL_SCHED_RECORD;
    }

    gl_row *row = gl_report_row(&L->E.S.rep, "random", kind_name[ps.kind]);
    gl_row_param(row, "seed", "%llu", ps.seed);
    gl_row_param_num(row, "streams", "", 0, ps.streams);
    gl_row_param_num(row, "kernels", "", 0, launches);
    gl_row_param_num(row, "kernel_us", "", 1, ps.kernel_ns / 1e3);
    gl_row_param_num(row, "blocks", "", 0, ps.k.blocks);
    gl_row_param_num(row, "threads", "", 0, ps.k.threads);
    gl_row_param_num(row, "connections", "", 0, L->E.S.machine.connections);
    gl_row_param_num(row, "records", "", 0, records);
    gl_row_param_num(row, "waits", "", 0, waits);
    gl_row_param_num(row, "legacy", "", 0, legacy);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    gl_sampler smp;
    pattern_sampler(&L->E, &smp);
    gl_sampler_series(&smp, "issue_time", "ms", 3, GL_HIDE);
    char name[96];
    snprintf(name, sizeof name, "random %d (%s, seed %llu)", index, kind_name[ps.kind], ps.seed);
    sample_row(&smp, row, sample_random, &x, name);
    pattern_claims(L, row, &x, name, kind_edges[ps.kind]);
    gl_row_number(row, "edge_checks", "", 0, GL_HIDE, (double)x.checked);
    gl_row_number(row, "edges_held", "", 0, GL_HIDE, (double)x.held);

    double mk = gl_row_median(row, "makespan"), model_mk = gl_row_median(row, "model_makespan");
    double error = (mk - model_mk) / model_mk;
    sum->programs++;
    sum->within += within_model(L, mk, model_mk);
    sum->peak_equal += lround(gl_row_median(row, "peak_concurrency")) == lround(gl_row_median(row, "model_peak"));
    sum->edges_all_held += x.held == x.checked;
    if (!(fabs(error) <= sum->worst_error)) {
        sum->worst_error = fabs(error);
        sum->worst_seed = ps.seed;
    }
    gl_names names = {"n%d", NULL, NULL, NULL, random_track, &ps.streams, 0};
    char title[128];
    snprintf(title, sizeof title, "%s C=%d", name, L->E.S.machine.connections);
    run_close(&L->E, &x, title, &names, &smp, edges, &p);
}

/* --programs random programs, one row each, then one line over them: the
 * bounds over a population are validate-model's to judge, not a claim here. */
static void random_part(order_lab *L, int programs)
{
    random_summary sum;
    memset(&sum, 0, sizeof sum);
    for (int i = 0; i < programs; i++) random_row(L, i, &sum);
    printf("random: %d programs from seed %llu at C=%d: makespan within %.0f%% of the simulation in %d, peak "
           "concurrency equal in %d, every edge held in every run in %d (worst makespan: seed %llu, %.1f%% off); "
           "make validate-model judges such programs as a population\n",
           sum.programs, L->E.common->seed, L->E.S.machine.connections, 100 * L->tolerance, sum.within, sum.peak_equal,
           sum.edges_all_held, sum.worst_seed, 100 * sum.worst_error);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "stream-events",
        "do events order exactly the dependencies they name (fan-in, fan-out, random DAGs) and leave the rest "
        "concurrent?",
        "Model: the core's scheduling simulation (gl_sched.h) of each run, issued through gl_schedrun.h; claims: every\n"
        "event edge holds, peak concurrency and makespan match the simulation. --part picks one part; --dags N\n"
        "random DAGs from --seed. --part random (not in all): --programs N random programs, program i from seed\n"
        "--seed + i (alone: --programs 1 --seed <its seed>), each a row; make validate-model judges them."};
    int streams = 4, kernels = 4, dags = 20, part = PART_ALL, programs = 8, streams_min = 2, streams_max = 64;
    double kernel_us = 1000, tolerance = 0.10;
    gl_option opts[] = {
        {"streams", GL_OPT_INT, &streams, 2, 64, NULL, NULL, "streams (S) of fan-in, fan-out and the random DAGs", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, NULL,
         "kernels per stream (K); a random DAG has S*K; --part random draws K from 1..this", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, "200",
         "duration of each work kernel in us (T; a random DAG's kernels take T/2..3T/2; --part random draws T "
         "log-uniformly from max(this/20, 20) to this)", 0},
        {"dags", GL_OPT_INT, &dags, 1, 1000, NULL, NULL, "random DAGs, seeded from --seed", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|fan-in|fan-out|dag|random", NULL,
         "which part to run (all: every part but random)", 0},
        {"programs", GL_OPT_INT, &programs, 1, 1000, NULL, "4",
         "--part random: random programs (fan-in, fan-out, dag, cross, legacy), program i from seed --seed + i", 0},
        {"streams-min", GL_OPT_INT, &streams_min, 2, 64, NULL, NULL,
         "--part random: the fewest streams a program draws (S, log-uniform)", 0},
        {"streams-max", GL_OPT_INT, &streams_max, 2, 64, NULL, "8", "--part random: the most streams a program draws",
         0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    /* Options that this run would ignore are refused, before the device is opened. */
    static const char *const random_only[] = {"programs", "streams-min", "streams-max"};
    for (int i = 0; i < GL_ARRAY_LEN(random_only); i++)
        if (part != PART_RANDOM && gl_option_find(opts, GL_ARRAY_LEN(opts), random_only[i])->given)
            gl_die(GL_EXIT_USAGE, "--%s applies to --part random only", random_only[i]);
    if (part == PART_RANDOM && gl_option_find(opts, GL_ARRAY_LEN(opts), "streams")->given)
        gl_die(GL_EXIT_USAGE, "--streams: --part random draws S per program from --streams-min..--streams-max");
    if (part == PART_RANDOM && gl_option_find(opts, GL_ARRAY_LEN(opts), "dags")->given)
        gl_die(GL_EXIT_USAGE, "--dags: --part random draws its DAGs among --programs");
    if (streams_min > streams_max)
        gl_die(GL_EXIT_USAGE, "--streams-min %d is more than --streams-max %d", streams_min, streams_max);

    order_lab L;
    memset(&L, 0, sizeof L);
    /* Random programs' T spans a range: the dispatch gap is measured at its middle (geometric). */
    double calibration_us = part == PART_RANDOM ? sqrt(random_min_us(kernel_us) * kernel_us) : kernel_us;
    events_lab_open(&L.E, exp.name, &common, calibration_us);
    L.streams = streams;
    L.kernels = kernels;
    L.kernel_us = kernel_us;
    L.tolerance = tolerance;
    L.streams_min = streams_min;
    L.streams_max = streams_max;
    if (part == PART_RANDOM)
        printf("setup: %d random programs from seed %llu (kinds fan-in, fan-out, dag, cross, legacy by seed mod 5): "
               "S=%d..%d streams, K=1..%d, T=%g..%g us, 1 block of 32..256 threads or 2..16 blocks of 64 or 128; "
               "C=%d connections\n",
               programs, common.seed, streams_min, streams_max, kernels, random_min_us(kernel_us), kernel_us,
               L.E.S.machine.connections);
    else
        printf("setup: S=%d streams x K=%d kernels x T=%g us, 1 block x %d threads each; C=%d connections; %d random "
               "DAGs of %d kernels from seed %llu\n",
               streams, kernels, kernel_us, THREADS, L.E.S.machine.connections, dags, streams * kernels, common.seed);

    if (part == PART_ALL || part == PART_FAN_IN)
        pattern_part(&L, "fan-in", build_fan_in, kind_edges[KIND_FAN_IN]);
    if (part == PART_ALL || part == PART_FAN_OUT) pattern_part(&L, "fan-out", build_fan_out, kind_edges[KIND_FAN_OUT]);
    if (part == PART_ALL || part == PART_DAG) dag_part(&L, dags);
    if (part == PART_RANDOM) random_part(&L, programs);

    return gl_sched_lab_close(&L.E.S, &common);
}
