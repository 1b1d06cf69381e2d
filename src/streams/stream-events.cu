/* stream-events.cu - cross-stream dependencies with events: what they order, what they leave free, what they cost.
 *
 * Question: do events order exactly the dependencies they name (fan-in, fan-out, random DAGs), leave the rest concurrent, and what does an event cost?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --dags 3 --skip-timing-claims
 *
 * cudaEventRecord(e, a) marks a point in stream a; cudaStreamWaitEvent(b, e)
 * holds everything issued to b after it until a has reached that point. The
 * textbook's example, the seed's fan-in, issues from one host thread:
 *     for i in 0..S-1: K kernels in stream i; record(e[i], stream i); wait(stream S-1, e[i])
 * Stream S-1's own kernels are issued after the waits for streams 0..S-2, so
 * they start only once every other stream's kernels have ended, while
 * streams 0..S-2 still run side by side.
 *
 * Hypothesis: an event orders exactly what it names. A record and a wait do
 * not hold their hardware queue themselves (gl_sched.h, "Events": measured
 * here, with one queue, in the fan-in); the waiting stream's next kernel
 * does, at the queue's head, so where it shares a queue with another stream's
 * calls it holds those back (a false dependency). A DAG takes
 * its critical path through the queues: the longest chain of kernels through
 * the dependencies and stream order, a dispatch gap per link, plus whatever
 * the queues add.
 *
 * Model: the core's scheduling simulation of the very run that was measured:
 * each part describes its work once, as a gl_sched_program, and schedrun.h
 * issues that program on real streams and events, records the host clock
 * around every call and a span for every kernel, and simulates the run with
 * those host times on a machine calibrated once in this run. No formula lives
 * in the code. The closed forms, when every stream has a queue of its own and
 * issue is much faster than T (one block per kernel, all resident at once):
 *     fan-in:  2*K*T (K*T of streams 0..S-2 side by side, then stream S-1's K*T), peak S-1
 *     fan-out: 2*K*T (the producer's K*T, then the S-1 consumers' side by side), peak S-1
 *     diamond: 3*T, peak 2
 *     DAG:     its critical path (printed as critical_path), plus a dispatch gap per link
 * They stop holding when the streams need more queues than C. The seed's
 * order alternates between stream i's kernels and stream S-1's waits, but a
 * wait picks no queue (gl_sched.h, "Events"): only the S streams' kernels do.
 * With S > C streams share queues in turn; on an H100 the fan-in with S = 9,
 * 16 and 24 at C = 8 took 1.755, 2.344 and 2.961 ms, each within 0.2% of the
 * simulation (a rule in which waits picked queues had predicted 2.245 and
 * 6.512 ms for the first two).
 *
 * Parts (--part):
 *  fan-in   (table "pattern") the seed's pattern above, S x K kernels of T.
 *  fan-out  (table "pattern") stream 0 runs K kernels and records one event;
 *           streams 1..S-1 each wait for it, then run K kernels.
 *  dag      (table "dag") a diamond (A; B and C on two other streams, each
 *           waiting for A; D after both, on A's stream), then --dags random
 *           DAGs from --seed: S*K kernels in issue order; kernel j gets a
 *           stream uniformly from S, a duration uniformly in [T/2, 3T/2), and
 *           depends on each of the 2S kernels before it with probability 1/4
 *           (at most 3). A dependency on a kernel of another stream becomes a
 *           record right after the producer and a wait right before the
 *           consumer; one on the same stream is stream order.
 *  cost     (table "cost") chains of 32 kernels of 50 us, each waiting for the
 *           one before: in stream order (no event), through a record and a
 *           wait in the same stream, and across two streams (ping-pong), with
 *           cudaEventDisableTiming and without. The host's cost of each call
 *           (its host clock around it, median over the chain) and the device's:
 *           the gap between a kernel's end and the next one's start, against
 *           the stream-order chain (added_gap). Reported, not claimed: no
 *           published number says what they must be.
 *  accuracy (table "accuracy") cudaEventElapsedTime between two events around
 *           a region of 4 kernels in one stream, against the region's span
 *           (first kernel's first block start to last kernel's last block
 *           end, %globaltimer), for regions of 10 us, 100 us, 1 ms, 10 ms,
 *           100 ms (--quick: up to 1 ms); "queued": the stream is held by a
 *           200 us kernel while the host issues the region, so only the
 *           device is timed; "idle": the first event lands on an idle stream,
 *           as in most samples, and the host's issue time is timed too.
 *  random   (table "random"; not in --part all) --programs random programs,
 *           program i drawn from seed --seed + i alone (so --programs 1 --seed
 *           <its seed> runs it again), its kind by seed mod 5: fan-in and
 *           fan-out (the patterns above), dag (a random DAG as above), cross
 *           (random records and waits between streams: waits on recent
 *           records and on ones made much earlier, events recorded again,
 *           one event waited for by many streams) and legacy (kernels on the
 *           legacy NULL stream between phases of blocking streams' work, some
 *           streams non-blocking, some legacy kernels waited for through an
 *           event). S log-uniform in --streams-min..--streams-max (2..64), K
 *           in 1..--kernels, T log-uniform in max(--kernel-us/20, 20 us)..
 *           --kernel-us, one block of 32..256 threads or, one program in six,
 *           2..16 blocks; T, then K, shrink so that the kernels take at most
 *           20 ms end to end (256 kernels at most) while T can shrink, that
 *           is while --kernel-us / 20 is above 20 us: a few ms a run at most
 *           values of C with the default 1 ms, at worst tens of ms at C=1;
 *           a larger --kernel-us makes each kernel at least --kernel-us / 20.
 *           make validate-model runs this part once per C and judges the
 *           programs as a population (experiments/validate-model.py).
 *
 * Claims:
 *  fan-in, fan-out, diamond: every event edge (gl_sched_edges) holds in every
 *    run, within two %globaltimer ticks (ordering: enforced under sanitizers,
 *    which serialize kernels, as edges hold when serialized too); peak
 *    concurrency (kernels together for at least the dispatch gap) equal to the
 *    simulation's; median makespan within --tolerance (10%) of the
 *    simulation's (timing).
 *  dag: every dependency of every DAG (event edges and stream order) holds in
 *    every run (ordering); the median makespan is within --tolerance of the
 *    simulation's in every DAG (timing). Both over all DAGs at once, with the
 *    worst DAG named; the per-DAG numbers are rows of the table.
 *  random: per program, as fan-in: every edge (its waits', its legacy
 *    kernels', a DAG's stream order too) holds in every run (ordering); peak
 *    concurrency equal to the simulation's, median makespan within
 *    --tolerance of it (timing). A run of --part random fails when one program
 *    misses; the bounds over a population (makespan error p90 and max, the
 *    share of exact peaks) are validate-model's.
 *  cost: the event edges of each chain hold in every run (ordering).
 *  accuracy: the event interval is never shorter than the span, less 1 us
 *    (cudaEventElapsedTime's resolution is "around 0.5 us", runtime API) and
 *    two ticks: the two records bracket the region in stream order, and both
 *    clocks are the GPU's global timer (ordering).
 * Every row also checks that every kernel ran its full time and left its result.
 *
 * Run:   make run-stream-events ARGS="--part dag --dags 100 --seed 7"
 *        make run-stream-events ARGS="--part fan-in --streams 8 --connections 8,16"
 *        make run-stream-events ARGS="--part random --programs 8 --connections 4"
 * Nsight Systems (make profile-stream-events ARGS=--quick): NVTX ranges
 * "fan-in S=..", "fan-out S=..", "diamond", "dag N", "cost ..", "accuracy ..",
 * "random N (kind, seed ..)"; streams are named "stream 0".."stream S-1" (a
 * random program's legacy kernels are on "legacy stream" in --trace and
 * --timeline). In fan-in the last stream's row starts where the others end;
 * in fan-out the consumers' rows start together where the producer's ends.
 * --trace and --timeline show each run beside its simulation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gl_cuda.h"
#include "nvtx.h"
#include "schedrun.h"
#include "trace.h"

enum { PART_ALL, PART_FAN_IN, PART_FAN_OUT, PART_DAG, PART_COST, PART_ACCURACY, PART_RANDOM };
enum { THREADS = 32 };        /* every work kernel is one block of one warp */
enum { COST_CHAIN = 32 };     /* kernels in a cost chain */
enum { REGION_KERNELS = 4 };  /* kernels in an accuracy region */
static const double COST_KERNEL_US = 50;     /* long enough that the host stays ahead of the chain */
static const double HOLD_US = 200;           /* holds a stream while the host issues an accuracy region */
static const double EVENT_RESOLUTION_NS = 1000; /* cudaEventElapsedTime: "around 0.5 us", doubled */
static const double REGION_US[] = {10, 100, 1000, 10000, 100000};

/* The grid of a program's work kernels: every kernel of one program has the same. */
typedef struct grid {
    int blocks;  /* blocks per kernel */
    int threads; /* threads per block */
    int per_sm;  /* blocks of this size that fit on one SM at once (the occupancy calculator) */
} grid;

/* What every part needs: the report, device, model's machine and trace, the options. */
typedef struct events_lab {
    gl_sched_lab S;           /* rows and claims, the GPU, the machine (calibrated once), --trace */
    const gl_common *common;  /* the common options */
    grid one;                 /* one block of THREADS: the kernels of every part but random */
    int streams, kernels;     /* S and K (random: K at most) */
    int streams_min, streams_max; /* random: the range of S */
    double kernel_us;         /* T */
    double tolerance;         /* of the makespan claims */
    double slack_ns;          /* two %globaltimer ticks */
} events_lab;

/* ---- a program on the GPU, sampled -------------------------------------------------- */

/* One program run by schedrun, and what its runs showed beyond the run itself. */
typedef struct run_ctx {
    events_lab *L;
    gl_sched_run run;           /* streams, events, the last run and its simulation */
    const gl_sched_edge *edges; /* dependencies every run must keep (op indices); NULL: none */
    int n_edges;                /* how many */
    long long checked, held;    /* edge checks over every run, warm-up included, and those that held */
    double worst_margin_ns;     /* smallest (start of after) - (end of before) seen */
    int region_first, region_last; /* accuracy: the region's first and last launch ops */
    int rec0, rec1;             /* accuracy: the record ops around the region */
    long long bracket_runs, bracketed; /* accuracy: runs, and those whose event interval covered the span */
    double worst_bracket_ns;    /* accuracy: smallest event interval - span */
} run_ctx;

/* Make the program's streams and events; timing: events that keep time. */
static void run_open(run_ctx *x, events_lab *L, gl_sched_program *p, int timing)
{
    memset(x, 0, sizeof *x);
    x->L = L;
    x->worst_margin_ns = INFINITY;
    x->worst_bracket_ns = INFINITY;
    x->run.timed_events = timing;
    gl_sched_run_create(&x->run, p, &L->S.machine, L->common->trace_path != NULL);
    for (int s = 1; s < p->n_streams; s++) gl_nvtx_name_stream(x->run.stream[s], "stream %d", s - 1);
}

/* Check the dependencies on the run just made. */
static void check_edges(run_ctx *x)
{
    if (x->n_edges == 0) return;
    gl_sched_edge_check c = gl_sched_edges_hold(x->run.prog, x->edges, x->n_edges, &x->run.tl, x->L->slack_ns);
    x->checked += c.edges;
    x->held += c.held;
    if (c.worst >= 0) x->worst_margin_ns = fmin(x->worst_margin_ns, c.worst_margin_ns);
}

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

/* Sample x under an NVTX range into row, with the series smp declares. */
static void sample_row(run_ctx *x, gl_sampler *smp, gl_row *row, gl_sample_fn fn, const char *range)
{
    gl_nvtx_push("%s", range);
    gl_sampler_run(smp, row, fn, x);
    gl_nvtx_pop();
}

/* The data check every row makes: every kernel of every run ran its time and left its result. */
static void check_complete(events_lab *L, gl_row *row, const run_ctx *x, const char *what)
{
    const gl_sched_run *r = &x->run;
    gl_check(&L->S.rep, row, r->runs_complete == r->runs,
             "%s: %d of %d runs recorded all %d kernels, each ran its time (the shortest %.3f x its own), and left "
             "its result",
             what, r->runs_complete, r->runs, r->launches, r->shortest_ratio);
}

/* Show the last run beside its model, and free what one row's run used. */
static void run_close(events_lab *L, run_ctx *x, const char *title, const gl_names *names, gl_sampler *smp,
                      gl_sched_edge *edges, gl_sched_program *p)
{
    gl_sched_run_show(&L->S.trace, L->common, &x->run, title, names);
    gl_sampler_free(smp);
    gl_sched_run_destroy(&x->run);
    free(edges);
    gl_sched_program_free(p);
}

/* Whether a median makespan is within --tolerance (plus the timer's slack) of the simulation's. */
static int within_model(const events_lab *L, double makespan_ms, double model_ms)
{
    return fabs(makespan_ms - model_ms) <= L->tolerance * model_ms + L->slack_ns / 1e6;
}

/* Add a work kernel of grid k whose blocks run ns to stream, named label on track; returns its op. */
static int launch(const grid *k, gl_sched_program *p, int stream, int track, int label, double ns)
{
    int op = gl_sched_launch(p, 0, stream, k->blocks, k->threads, k->per_sm, ns, 0);
    p->ops[op].label = label;
    p->ops[op].track = track;
    return op;
}

/* n non-blocking streams; st[i] is the program's index of stream i. */
static void new_streams(gl_sched_program *p, int *st, int n)
{
    for (int i = 0; i < n; i++) st[i] = gl_sched_stream_new(p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
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
static void pattern_claims(events_lab *L, gl_row *row, const run_ctx *x, const char *name, const char *edge_text)
{
    char text[256], what[160], overlaps[160], prefix[96];
    check_complete(L, row, x, name);
    snprintf(text, sizeof text, "%s: %s", name, edge_text);
    snprintf(what, sizeof what, "edge checks (%d edges x %d runs; smallest margin %.3f us)", x->n_edges,
             x->run.runs, x->worst_margin_ns / 1e3);
    gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, x->held, x->checked, what,
                   "the program has no event edges");
    snprintf(overlaps, sizeof overlaps, "%s: everything else overlaps:", name);
    snprintf(prefix, sizeof prefix, "%s:", name);
    gl_sched_run_claims(&L->S.rep, row, overlaps, prefix, L->tolerance, L->slack_ns);
}

/* Run a fan-in or fan-out program as a row of table "pattern", with its claims. */
static void pattern_part(events_lab *L, const char *variant, pattern_fn build, const char *edge_text)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    build(&p, &L->one, L->streams, L->kernels, L->kernel_us * 1e3);
    gl_sched_edge *edges = NULL;
    run_ctx x;
    run_open(&x, L, &p, 0);
    x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
    x.edges = edges;

    gl_row *row = gl_report_row(&L->S.rep, "pattern", variant);
    gl_row_param_num(row, "streams", "", 0, L->streams);
    gl_row_param_num(row, "kernels", "", 0, L->kernels);
    gl_row_param_num(row, "kernel_us", "", -1, L->kernel_us);
    gl_row_param_num(row, "connections", "", 0, L->S.machine.connections);
    gl_row_param_num(row, "edges", "", 0, x.n_edges);
    gl_row_param(row, "textbook", "2*K*T = 2*%d*%g us", L->kernels, L->kernel_us);
    gl_sampler smp;
    pattern_sampler(L, &smp);
    char name[64];
    snprintf(name, sizeof name, "%s S=%d", variant, L->streams);
    sample_row(&x, &smp, row, sample_pattern, name);
    pattern_claims(L, row, &x, name, edge_text);
    gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, L->kernels};
    char title[96];
    snprintf(title, sizeof title, "%s C=%d", name, L->S.machine.connections);
    run_close(L, &x, title, &names, &smp, edges, &p);
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
static void dag_row(events_lab *L, const dag *g, const char *variant, int index, dag_summary *sum)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    gl_sched_edge *edges = NULL;
    int waits = 0, n_edges = dag_program(&L->one, g, &p, &edges, &waits);
    run_ctx x;
    run_open(&x, L, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;
    double critical = dag_critical_ns(g);

    gl_row *row = gl_report_row(&L->S.rep, "dag", variant);
    gl_row_param_num(row, "streams", "", 0, g->streams);
    gl_row_param_num(row, "kernels", "", 0, g->n);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    gl_row_param_num(row, "waits", "", 0, waits);
    gl_row_param_num(row, "connections", "", 0, L->S.machine.connections);
    gl_row_number(row, "critical_path", "ms", 3, 0, critical / 1e6);
    gl_sampler smp;
    pattern_sampler(L, &smp);
    sample_row(&x, &smp, row, sample_pattern, variant);
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
    snprintf(title, sizeof title, "%s C=%d", variant, L->S.machine.connections);
    run_close(L, &x, title, &names, &smp, edges, &p);
}

/* The diamond, then --dags random DAGs, and the claims over all of them. */
static void dag_part(events_lab *L, int n_dags)
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
        dag_random(&g, L->streams, L->kernels, L->kernel_us * 1e3, L->common->seed, d);
        dag_row(L, &g, variant, d, &sum);
        dag_free(&g);
    }

    gl_row *row = gl_report_row(&L->S.rep, "dag", "all random");
    gl_row_param_num(row, "dags", "", 0, sum.dags);
    gl_row_param(row, "seed", "%llu", L->common->seed);
    gl_row_number(row, "worst_model_error", "%", 1, 0, 100 * sum.worst_error);
    gl_check(&L->S.rep, row, sum.runs_complete == sum.runs,
             "%d random DAGs: %d of %d runs recorded all their kernels, each ran its time, and left its result",
             sum.dags, sum.runs_complete, sum.runs);
    char text[192], what[192];
    snprintf(text, sizeof text, "%d random DAGs: every dependency edge (event waits and stream order) holds in every run",
             sum.dags);
    snprintf(what, sizeof what, "edge checks over all DAGs and runs (smallest margin %.3f us, in dag %d)",
             sum.worst_margin_ns / 1e3, sum.worst_margin_dag);
    gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, sum.held, sum.checked, what,
                   "the DAGs have no dependencies");
    snprintf(text, sizeof text, "%d random DAGs: the makespan is within %.0f%% of the simulation's in every DAG",
             sum.dags, 100 * L->tolerance);
    snprintf(what, sizeof what, "DAGs (worst: dag %d, %.1f%% off)", sum.worst_error_dag, 100 * sum.worst_error);
    gl_claim_every(&L->S.rep, row, GL_CLAIM_TIMING, text, sum.within, sum.dags, what, "no DAGs");
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
static void random_spec(const events_lab *L, unsigned long long seed, program_spec *ps, draws *d)
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
static void random_row(events_lab *L, int index, random_summary *sum)
{
    program_spec ps;
    draws d;
    random_spec(L, L->common->seed + (unsigned long long)index, &ps, &d);
    gl_sched_program p;
    gl_sched_program_init(&p);
    gl_sched_edge *edges = NULL;
    int n_edges = random_program(&ps, &d, &p, &edges);
    run_ctx x;
    run_open(&x, L, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;
    int launches = 0, legacy = 0, waits = 0, records = 0;
    for (int i = 0; i < p.n_ops; i++) {
        launches += p.ops[i].kind == GL_SCHED_LAUNCH;
        legacy += p.ops[i].kind == GL_SCHED_LAUNCH && p.ops[i].stream == GL_SCHED_LEGACY;
        waits += p.ops[i].kind == GL_SCHED_WAIT;
        records += p.ops[i].kind == GL_SCHED_RECORD;
    }

    gl_row *row = gl_report_row(&L->S.rep, "random", kind_name[ps.kind]);
    gl_row_param(row, "seed", "%llu", ps.seed);
    gl_row_param_num(row, "streams", "", 0, ps.streams);
    gl_row_param_num(row, "kernels", "", 0, launches);
    gl_row_param_num(row, "kernel_us", "", 1, ps.kernel_ns / 1e3);
    gl_row_param_num(row, "blocks", "", 0, ps.k.blocks);
    gl_row_param_num(row, "threads", "", 0, ps.k.threads);
    gl_row_param_num(row, "connections", "", 0, L->S.machine.connections);
    gl_row_param_num(row, "records", "", 0, records);
    gl_row_param_num(row, "waits", "", 0, waits);
    gl_row_param_num(row, "legacy", "", 0, legacy);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    gl_sampler smp;
    pattern_sampler(L, &smp);
    gl_sampler_series(&smp, "issue_time", "ms", 3, GL_HIDE);
    char name[96];
    snprintf(name, sizeof name, "random %d (%s, seed %llu)", index, kind_name[ps.kind], ps.seed);
    sample_row(&x, &smp, row, sample_random, name);
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
    snprintf(title, sizeof title, "%s C=%d", name, L->S.machine.connections);
    run_close(L, &x, title, &names, &smp, edges, &p);
}

/* --programs random programs, one row each, then one line over them: the
 * bounds over a population are validate-model's to judge, not a claim here. */
static void random_part(events_lab *L, int programs)
{
    random_summary sum;
    memset(&sum, 0, sizeof sum);
    for (int i = 0; i < programs; i++) random_row(L, i, &sum);
    printf("random: %d programs from seed %llu at C=%d: makespan within %.0f%% of the simulation in %d, peak "
           "concurrency equal in %d, every edge held in every run in %d (worst makespan: seed %llu, %.1f%% off); "
           "make validate-model judges such programs as a population\n",
           sum.programs, L->common->seed, L->S.machine.connections, 100 * L->tolerance, sum.within, sum.peak_equal,
           sum.edges_all_held, sum.worst_seed, 100 * sum.worst_error);
}

/* ---- cost: what a record and a wait cost the host and the device --------------------------- */

/* A chain of COST_CHAIN kernels, each after the one before: in one stream by
 * stream order (events 0), through a record and a wait in the same stream,
 * or handed between two streams (cross 1). */
static void build_chain(events_lab *L, gl_sched_program *p, int events, int cross)
{
    int st[2];
    new_streams(p, st, cross ? 2 : 1);
    for (int k = 0; k < COST_CHAIN; k++) {
        int s = cross ? k % 2 : 0;
        if (k > 0 && events) {
            int prev = cross ? (k - 1) % 2 : 0, ev = gl_sched_event_new(p);
            gl_sched_record(p, 0, st[prev], ev);
            gl_sched_wait(p, 0, st[s], ev);
        }
        launch(&L->one, p, st[s], s, k, COST_KERNEL_US * 1e3);
    }
}

/* The median of x[0..n-1] (NAN for none). */
static double median_of(const double *x, int n) { return n ? gl_stats_of(x, n).median : NAN; }

/* One chain: the gaps between consecutive kernels (measured and simulated) and each kind of call's host time. */
static void sample_cost(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    const gl_sched_program *p = r->prog;
    gl_sched_run_once(r);
    check_edges(x);
    double *v = (double *)gl_xcalloc((size_t)p->n_ops * 5 + 5, sizeof(double));
    double *gap = v, *model_gap = v + p->n_ops, *host[3] = {v + 2 * p->n_ops, v + 3 * p->n_ops, v + 4 * p->n_ops};
    int n_gap = 0, n_host[3] = {0, 0, 0}, prev = -1;
    for (int i = 0; i < p->n_ops; i++) {
        int kind = p->ops[i].kind == GL_SCHED_LAUNCH ? 0 : p->ops[i].kind == GL_SCHED_RECORD ? 1 : 2;
        host[kind][n_host[kind]++] = r->return_ns[i] - r->call_ns[i];
        if (kind != 0) continue;
        if (prev >= 0) {
            const gl_interval *a = gl_sched_run_kernel(r, prev), *b = gl_sched_run_kernel(r, i);
            const gl_interval *ma = gl_sched_run_model_kernel(r, prev), *mb = gl_sched_run_model_kernel(r, i);
            if (a && b && ma && mb) {
                gap[n_gap] = b->start_ns - a->end_ns;
                model_gap[n_gap++] = mb->start_ns - ma->end_ns;
            }
        }
        prev = i;
    }
    gl_sample_put(s, "gap", median_of(gap, n_gap) / 1e3);
    gl_sample_put(s, "model_gap", median_of(model_gap, n_gap) / 1e3);
    gl_sample_put(s, "launch_host", median_of(host[0], n_host[0]) / 1e3);
    if (p->n_events > 0) {
        gl_sample_put(s, "record_host", median_of(host[1], n_host[1]) / 1e3);
        gl_sample_put(s, "wait_host", median_of(host[2], n_host[2]) / 1e3);
    }
    free(v);
}

/* The chains, with and without events and timing; each event row's added gap against stream order. */
static void cost_part(events_lab *L)
{
    static const struct {
        const char *variant; /* the row */
        int events, cross, timing;
    } chains[] = {
        {"stream order", 0, 0, 0},         {"same stream", 1, 0, 0},  {"same stream, timing", 1, 0, 1},
        {"cross stream", 1, 1, 0},         {"cross stream, timing", 1, 1, 1},
    };
    double baseline_gap = NAN;
    for (int c = 0; c < GL_ARRAY_LEN(chains); c++) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        build_chain(L, &p, chains[c].events, chains[c].cross);
        gl_sched_edge *edges = NULL;
        run_ctx x;
        run_open(&x, L, &p, chains[c].timing);
        x.n_edges = gl_sched_edges(&p, GL_SCHED_EDGE_EVENT, &edges);
        x.edges = edges;

        gl_row *row = gl_report_row(&L->S.rep, "cost", chains[c].variant);
        gl_row_param(row, "events", "%s", chains[c].events ? "record+wait" : "none");
        gl_row_param(row, "timing", "%s", chains[c].events ? (chains[c].timing ? "on" : "off") : "-");
        gl_row_param_num(row, "streams", "", 0, chains[c].cross ? 2 : 1);
        gl_row_param_num(row, "kernels", "", 0, COST_CHAIN);
        gl_row_param_num(row, "kernel_us", "", -1, COST_KERNEL_US);
        gl_sampler smp;
        gl_device_sampler(&smp, &L->S.dev, L->common);
        gl_sampler_series(&smp, "launch_host", "us", 2, 0);
        if (chains[c].events) {
            gl_sampler_series(&smp, "record_host", "us", 2, GL_SHOW_MIN);
            gl_sampler_series(&smp, "wait_host", "us", 2, GL_SHOW_MIN);
        }
        gl_sampler_series(&smp, "gap", "us", 2, GL_SHOW_MIN | GL_SHOW_NOISE);
        gl_sampler_series(&smp, "model_gap", "us", 2, 0);
        char range[64];
        snprintf(range, sizeof range, "cost %s", chains[c].variant);
        sample_row(&x, &smp, row, sample_cost, range);
        double gap = gl_row_find(row, "gap")->stats.median;
        if (!chains[c].events) baseline_gap = gap;
        else if (isfinite(baseline_gap)) gl_row_number(row, "added_gap", "us", 2, 0, gap - baseline_gap);

        check_complete(L, row, &x, range);
        if (chains[c].events) {
            char text[160], what[128];
            snprintf(text, sizeof text, "%s: each kernel starts after the one its wait names has ended (in every run)",
                     range);
            snprintf(what, sizeof what, "edge checks (smallest margin %.3f us)", x.worst_margin_ns / 1e3);
            gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, x.held, x.checked, what, "no event edges");
        }
        gl_names names = {"k%d", NULL, NULL, "stream %d", NULL, NULL, COST_CHAIN};
        run_close(L, &x, range, &names, &smp, edges, &p);
    }
}

/* ---- accuracy: cudaEventElapsedTime against the spans -------------------------------------- */

/* Names in an accuracy timeline: the holding kernel, then the region's. */
static void region_label(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    if (label == 0) gl_buf_puts(out, "hold");
    else gl_buf_printf(out, "region k%d", label - 1);
}

/* One run: the event interval, the span of the region, and the same two simulated. */
static void sample_accuracy(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run *r = &x->run;
    const gl_sched_program *p = r->prog;
    gl_sched_run_once(r);
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, r->event[p->ops[x->rec0].event], r->event[p->ops[x->rec1].event]));
    double start = INFINITY, end = -INFINITY, model_start = INFINITY, model_end = -INFINITY;
    int missing = 0;
    for (int i = x->region_first; i <= x->region_last; i++) {
        const gl_interval *k = gl_sched_run_kernel(r, i), *m = gl_sched_run_model_kernel(r, i);
        if (!k || !m) {
            missing = 1;
            continue;
        }
        start = fmin(start, k->start_ns);
        end = fmax(end, k->end_ns);
        model_start = fmin(model_start, m->start_ns);
        model_end = fmax(model_end, m->end_ns);
    }
    double event_ns = ms * 1e6, span_ns = missing ? NAN : end - start; /* a lost kernel fails the bracket */
    x->bracket_runs++;
    if (event_ns >= span_ns - EVENT_RESOLUTION_NS - x->L->slack_ns) x->bracketed++;
    if (isfinite(span_ns)) x->worst_bracket_ns = fmin(x->worst_bracket_ns, event_ns - span_ns);
    gl_sample_put(s, "event_time", event_ns / 1e3);
    gl_sample_put(s, "span_time", span_ns / 1e3);
    gl_sample_put(s, "difference", (event_ns - span_ns) / 1e3);
    gl_sample_put(s, "ratio", event_ns / span_ns);
    gl_sample_put(s, "model_event_time", (p->ops[x->rec1].end_ns - p->ops[x->rec0].end_ns) / 1e3);
    gl_sample_put(s, "model_span_time", (model_end - model_start) / 1e3);
}

/* Each region length, queued behind a holding kernel and on an idle stream. */
static void accuracy_part(events_lab *L)
{
    for (int i = 0; i < GL_ARRAY_LEN(REGION_US); i++) {
        if (L->common->quick && REGION_US[i] > 1000) continue;
        for (int held = 1; held >= 0; held--) {
            gl_sched_program p;
            gl_sched_program_init(&p);
            int st;
            new_streams(&p, &st, 1);
            if (held) launch(&L->one, &p, st, 0, 0, HOLD_US * 1e3);
            int e0 = gl_sched_event_new(&p), e1 = gl_sched_event_new(&p);
            int rec0 = gl_sched_record(&p, 0, st, e0), first = p.n_ops;
            for (int k = 0; k < REGION_KERNELS; k++)
                launch(&L->one, &p, st, 0, 1 + k, REGION_US[i] * 1e3 / REGION_KERNELS);
            int last = p.n_ops - 1, rec1 = gl_sched_record(&p, 0, st, e1);
            run_ctx x;
            run_open(&x, L, &p, 1);
            x.rec0 = rec0;
            x.rec1 = rec1;
            x.region_first = first;
            x.region_last = last;

            char variant[64];
            snprintf(variant, sizeof variant, "%g us %s", REGION_US[i], held ? "queued" : "idle");
            gl_row *row = gl_report_row(&L->S.rep, "accuracy", variant);
            gl_row_param_num(row, "region_us", "", -1, REGION_US[i]);
            gl_row_param_num(row, "kernels", "", 0, REGION_KERNELS);
            gl_row_param(row, "stream", "%s", held ? "held by a 200 us kernel" : "idle");
            gl_sampler smp;
            gl_device_sampler(&smp, &L->S.dev, L->common);
            gl_sampler_series(&smp, "event_time", "us", 3, GL_SHOW_NOISE);
            gl_sampler_series(&smp, "span_time", "us", 3, 0);
            gl_sampler_series(&smp, "difference", "us", 3, GL_SHOW_MIN);
            gl_sampler_series(&smp, "ratio", "", 4, 0);
            gl_sampler_series(&smp, "model_event_time", "us", 3, GL_HIDE);
            gl_sampler_series(&smp, "model_span_time", "us", 3, GL_HIDE);
            char range[80];
            snprintf(range, sizeof range, "accuracy %s", variant);
            sample_row(&x, &smp, row, sample_accuracy, range);

            check_complete(L, row, &x, range);
            char text[192], what[128];
            snprintf(text, sizeof text,
                     "%s: cudaEventElapsedTime is never shorter than the region's span, less %.2f us of resolution",
                     range, (EVENT_RESOLUTION_NS + L->slack_ns) / 1e3);
            snprintf(what, sizeof what, "runs (smallest event - span %.3f us)", x.worst_bracket_ns / 1e3);
            gl_claim_every(&L->S.rep, row, GL_CLAIM_ORDERING, text, x.bracketed, x.bracket_runs, what, "no runs");
            gl_names names = {NULL, region_label, NULL, "stream %d", NULL, NULL, REGION_KERNELS + 1};
            gl_sched_run_show(&L->S.trace, L->common, &x.run, range, &names);
            gl_sampler_free(&smp);
            gl_sched_run_destroy(&x.run);
            gl_sched_program_free(&p);
        }
    }
}

/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "stream-events",
        "do events order exactly the dependencies they name (fan-in, fan-out, random DAGs), leave the rest "
        "concurrent, and what does an event cost?",
        "Model: the core's scheduling simulation (gl_sched.h) of each run, issued through schedrun.h; claims: every\n"
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
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|fan-in|fan-out|dag|cost|accuracy|random", NULL,
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

    events_lab L;
    memset(&L, 0, sizeof L);
    gl_sched_lab_open(&L.S, exp.name, &common);
    L.common = &common;
    L.streams = streams;
    L.kernels = kernels;
    L.kernel_us = kernel_us;
    L.tolerance = tolerance;
    L.streams_min = streams_min;
    L.streams_max = streams_max;
    L.one.blocks = 1;
    L.one.threads = THREADS;
    L.one.per_sm = gl_work_blocks_per_sm(THREADS);
    if (L.one.per_sm < 1)
        gl_no_gpu("a block of %d threads of the work kernel does not fit on an SM of this GPU", THREADS);
    L.slack_ns = 2 * L.S.dev.tick_ns;
    /* Random programs' T spans a range: the dispatch gap is measured at its middle (geometric). */
    double calibration_us = part == PART_RANDOM ? sqrt(random_min_us(kernel_us) * kernel_us) : kernel_us;
    gl_sched_lab_calibrate(&L.S, THREADS, calibration_us);
    if (part == PART_RANDOM)
        printf("setup: %d random programs from seed %llu (kinds fan-in, fan-out, dag, cross, legacy by seed mod 5): "
               "S=%d..%d streams, K=1..%d, T=%g..%g us, 1 block of 32..256 threads or 2..16 blocks of 64 or 128; "
               "C=%d connections\n",
               programs, common.seed, streams_min, streams_max, kernels, random_min_us(kernel_us), kernel_us,
               L.S.machine.connections);
    else
        printf("setup: S=%d streams x K=%d kernels x T=%g us, 1 block x %d threads each; C=%d connections; %d random "
               "DAGs of %d kernels from seed %llu\n",
               streams, kernels, kernel_us, THREADS, L.S.machine.connections, dags, streams * kernels, common.seed);

    if (part == PART_ALL || part == PART_FAN_IN)
        pattern_part(&L, "fan-in", build_fan_in, kind_edges[KIND_FAN_IN]);
    if (part == PART_ALL || part == PART_FAN_OUT) pattern_part(&L, "fan-out", build_fan_out, kind_edges[KIND_FAN_OUT]);
    if (part == PART_ALL || part == PART_DAG) dag_part(&L, dags);
    if (part == PART_ALL || part == PART_COST) cost_part(&L);
    if (part == PART_ALL || part == PART_ACCURACY) accuracy_part(&L);
    if (part == PART_RANDOM) random_part(&L, programs);

    return gl_sched_lab_close(&L.S, &common);
}
