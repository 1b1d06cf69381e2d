/* priorities.cu - what a stream's priority buys its kernels, and where it buys nothing.
 *
 * Question: where does a CUDA stream priority let a kernel start earlier: at block dispatch, against a supply of urgent grids, at a hardware queue?
 * Build: none
 * Sanitize: --quick --profile --supply-kernels 1 --skip-timing-claims
 *
 * The scheduling model's rule (gl_sched.h, "Blocks"): the work distributor
 * hands blocks to free SM slots, higher priority first, then the oldest
 * kernel; running blocks are not preempted. A priority acts only there: a
 * queue's head goes in queue order, whatever its priority. Four probes, each
 * a program run by gl_schedrun.h and simulated with its calls' measured host
 * times (the big grids are --waves GPU-fulls of 1024-thread blocks of
 * --block-us, sized from the occupancy calculator and the SM count):
 *   range        cudaDeviceGetStreamPriorityRange, a finding (H200: 0 .. -5).
 *   urgent       a big grid at the least urgent priority, then a one-block
 *                kernel B in another stream at each priority of the range:
 *                equal, B waits for the grid's last blocks to go out (the
 *                end of wave floor(waves)); more urgent, it takes the first
 *                slot that frees (the end of wave 1).
 *   starvation   --supply-streams streams of the most urgent priority, each
 *                issuing --supply-kernels big grids, with B issued after
 *                their first round: at the supply's priority B is older than
 *                every later grid; less urgent, it waits for the supply.
 *   queue        the big grid, then its stream's next kernel (a head that
 *                waits for the grid), then B in another stream, equal or most
 *                urgent. With one queue (--connections 1) B waits behind the
 *                head whatever its priority; with more, B has its own queue
 *                and its priority counts at dispatch.
 * Claims (timing): B's start, relative to the first grid's, within --tolerance
 * (10%) + 5 us of the simulation's; in "queue", the priority's gain (B's start
 * at equal minus most urgent priority) within the same budget. A device with
 * one priority level skips the rows that need two.
 *
 * Run:   make run-priorities ARGS="--connections 1,8"
 * Nsight Systems (make profile-priorities): NVTX ranges "<table>: <row>",
 * streams "stream N". --trace and --timeline show each row's last run beside
 * its simulation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_model.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"

enum { THREADS = 1024 };                              /* every block: the shape calibrated and dispatched */
enum { LABEL_GRID, LABEL_B, LABEL_HEAD, LABEL_SUPPLY }; /* the timeline's labels */
static const double B_NS = 10e3;                      /* B and the blocked head: one block of 10 us */

typedef struct prio_lab {
    gl_sched_lab L;       /* report, device, the model's machine, trace */
    gl_common common;     /* the common options */
    gl_sampler smp;       /* b_start and model_b_start, per row */
    double tolerance;     /* relative tolerance of the claims */
    double block_ns;      /* each big grid's blocks */
    int big;              /* blocks of a big grid */
    int per_sm;           /* 1024-thread work blocks that fit on an SM */
    gl_sched_run run;     /* the row's program on the GPU, and its simulation */
    int a, b;             /* the op B's start is measured from (the first big grid), and B */
} prio_lab;

/* A launch of blocks 1024-thread blocks of ns into stream, labelled for the timeline; returns its op. */
static int launch(const prio_lab *P, gl_sched_program *p, int stream, int blocks, double ns, int label)
{
    int op = gl_sched_launch(p, 0, stream, blocks, THREADS, P->per_sm, ns, 0);
    p->ops[op].label = label;
    p->ops[op].track = stream;
    return op;
}

/* A label's name in the timeline and the trace. */
static void label_name(int label, gl_buf *out, const void *ctx)
{
    static const char *const names[] = {"big grid", "B", "blocked head", "supply"};
    (void)ctx;
    gl_buf_printf(out, "%s", label >= 0 && label < 4 ? names[label] : "?");
}

/* One sample: the run, then B's start relative to the first grid's, measured and simulated (us). */
static void run_probe(gl_sample *smp, void *arg)
{
    prio_lab *P = (prio_lab *)arg;
    gl_sched_run_once(&P->run);
    const gl_interval *a = gl_sched_run_kernel(&P->run, P->a), *b = gl_sched_run_kernel(&P->run, P->b);
    const gl_sched_op *o = P->run.prog->ops;
    gl_sample_put(smp, "model_b_start", (o[P->b].start_ns - o[P->a].start_ns) / 1e3);
    gl_sample_put(smp, "b_start", a && b ? (b->start_ns - a->start_ns) / 1e3 : NAN);
}

/* Sample program p in row (P->a and P->b set), claim that B starts where the model puts it, show the last run.
 * Sets *want and *got to the medians, simulated and measured. */
static void probe(prio_lab *P, gl_sched_program *p, gl_row *row, const char *claim, double *want, double *got)
{
    memset(&P->run, 0, sizeof P->run);
    gl_sched_run_create(&P->run, p, &P->L.machine, P->common.trace_path != NULL);
    for (int s = 1; s < p->n_streams; s++) gl_nvtx_name_stream(P->run.stream[s], "stream %d", s);
    gl_nvtx_push("%s: %s", row->table, row->variant);
    gl_sampler_run(&P->smp, row, run_probe, P);
    gl_nvtx_pop();
    *want = gl_row_find(row, "model_b_start")->stats.median;
    *got = gl_row_find(row, "b_start")->stats.median;
    gl_claim_near(&P->L.rep, row, GL_CLAIM_TIMING, claim, *want, *got, P->tolerance, 5.0, "us");
    char title[160];
    snprintf(title, sizeof title, "%s %s", row->table, row->variant);
    gl_names names = {NULL, label_name, NULL, "stream %d", NULL, NULL, 4};
    gl_sched_run_show(&P->L.trace, &P->common, &P->run, title, &names);
    gl_sched_run_destroy(&P->run);
}

/* A row of table with the parameters every probe has. */
static gl_row *probe_row(prio_lab *P, const char *table, const char *variant, int b_priority)
{
    gl_row *row = gl_report_row(&P->L.rep, table, variant);
    gl_row_param_num(row, "connections", "", 0, P->L.machine.connections);
    gl_row_param_num(row, "b_priority", "", 0, b_priority);
    return row;
}

/* ---- the probes ------------------------------------------------------------------------------------------- */

/* The big grid at the least urgent priority lo, then B in another stream at each priority of the range. */
static void urgent_rows(prio_lab *P, int lo, int hi)
{
    for (int prio = lo; prio >= hi; prio--) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        int sa = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, lo, -1);
        int sb = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, prio, -1);
        P->a = launch(P, &p, sa, P->big, P->block_ns, LABEL_GRID);
        P->b = launch(P, &p, sb, 1, B_NS, LABEL_B);
        char variant[48], claim[160];
        snprintf(variant, sizeof variant, "priority %d", prio);
        gl_row *row = probe_row(P, "urgent", variant, prio);
        gl_row_param_num(row, "grid_blocks", "", 0, P->big);
        gl_row_param_num(row, "block_us", "", -1, P->block_ns / 1e3);
        snprintf(claim, sizeof claim, "urgent, B at priority %d (grid at %d): B starts where the model puts it", prio,
                 lo);
        double want, got;
        probe(P, &p, row, claim, &want, &got);
        gl_sched_program_free(&p);
    }
}

/* Streams of the most urgent priority hi, each issuing kernels big grids breadth-first, and B (priority
 * b_prio) issued after their first round. */
static void starvation_row(prio_lab *P, const char *variant, int streams, int kernels, int b_prio, int hi)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    int s0 = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, hi, -1);
    for (int h = 1; h < streams; h++) gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, hi, -1);
    int sb = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, b_prio, -1);
    for (int k = 0; k < kernels; k++) {
        for (int h = 0; h < streams; h++) {
            int op = launch(P, &p, s0 + h, P->big, P->block_ns, LABEL_SUPPLY);
            if (k == 0 && h == 0) P->a = op;
        }
        if (k == 0) P->b = launch(P, &p, sb, 1, B_NS, LABEL_B);
    }
    gl_row *row = probe_row(P, "starvation", variant, b_prio);
    gl_row_param_num(row, "supply_priority", "", 0, hi);
    gl_row_param_num(row, "supply_grids", "", 0, streams * kernels);
    /* What the supply asks of the GPU, in block times: the order of B's wait when it starves. */
    gl_row_param_num(row, "supply_ms", "", 2,
                     (double)streams * kernels * P->big / ((double)P->per_sm * P->L.machine.sms) * P->block_ns / 1e6);
    char claim[160];
    snprintf(claim, sizeof claim, "starvation, %s: B's delay is the model's", variant);
    double want, got;
    probe(P, &p, row, claim, &want, &got);
    gl_sched_program_free(&p);
}

/* The big grid (priority lo), its stream's next kernel, and B in another stream at b_prio; sets want and got. */
static void queue_row(prio_lab *P, const char *variant, int b_prio, int lo, double *want, double *got)
{
    gl_sched_program p;
    gl_sched_program_init(&p);
    int sa = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, lo, -1);
    int sb = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, b_prio, -1);
    P->a = launch(P, &p, sa, P->big, P->block_ns, LABEL_GRID);
    launch(P, &p, sa, 1, B_NS, LABEL_HEAD); /* waits at its queue's head until the grid ends */
    P->b = launch(P, &p, sb, 1, B_NS, LABEL_B);
    gl_row *row = probe_row(P, "queue", variant, b_prio);
    char claim[160];
    snprintf(claim, sizeof claim, "queue, C=%d, %s B behind a blocked head: B starts where the model puts it",
             P->L.machine.connections, variant);
    probe(P, &p, row, claim, want, got);
    gl_sched_program_free(&p);
}

/* ---- main ------------------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "priorities",
        "where does a CUDA stream priority let a kernel start earlier: at block dispatch, against a supply of "
        "urgent grids, at a hardware queue?",
        "Tables: urgent (B at each priority behind a big grid), starvation (B behind urgent grids), queue (B\n"
        "behind a blocked queue head). Each run is simulated by the core's model; sweep C with --connections 1,8."};
    static prio_lab P;
    double block_us = 300, waves = 2.5;
    int supply_streams = 4, supply_kernels = 6;
    P.tolerance = 0.10;
    gl_option opts[] = {
        {"block-us", GL_OPT_DOUBLE, &block_us, 20, 100000, NULL, "100", "each block's time in the big grids (us)", 0},
        {"waves", GL_OPT_DOUBLE, &waves, 2.25, 16, NULL, NULL,
         "a big grid's blocks in GPU-fulls (over 2: at equal priority B waits at least one wave more)", 0},
        {"supply-streams", GL_OPT_INT, &supply_streams, 1, 16, NULL, NULL, "urgent streams in the starvation probe",
         0},
        {"supply-kernels", GL_OPT_INT, &supply_kernels, 1, 64, NULL, "3", "big grids per urgent stream", 0},
        {"tolerance", GL_OPT_DOUBLE, &P.tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0},
    };
    gl_common_defaults(&P.common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &P.common, argc, argv);
    gl_sched_lab_open(&P.L, exp.name, &P.common);
    P.per_sm = gl_work_blocks_per_sm(THREADS);
    if (P.per_sm < 1) gl_no_gpu("a 1024-thread block of the work kernel does not fit on an SM of this GPU");
    gl_sched_lab_calibrate(&P.L, THREADS, block_us);
    P.block_ns = block_us * 1e3;
    P.big = (int)ceil(waves * P.per_sm * P.L.dev.sms);

    int lo, hi; /* CUDA's convention: lo is the least urgent (the default), hi the most, numerically lower */
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    gl_report_device(&P.L.rep, "stream_priorities", "%d..%d", lo, hi);
    gl_report_finding(&P.L.rep, "stream priorities run from %d (least urgent, the default) to %d (most urgent): %d "
                      "level(s)", lo, hi, lo - hi + 1);
    printf("setup: big grids of %d blocks x %d threads (%g GPU-fulls of %d per SM x %d SMs) x %g us; B: one block "
           "of %g us; C=%d\n",
           P.big, THREADS, waves, P.per_sm, P.L.dev.sms, block_us, B_NS / 1e3, P.L.machine.connections);

    gl_device_sampler(&P.smp, &P.L.dev, &P.common);
    gl_sampler_series(&P.smp, "model_b_start", "us", 1, 0);
    gl_sampler_series(&P.smp, "b_start", "us", 1, GL_SHOW_MIN);
    gl_sampler_plan(&P.smp, (lo - hi + 1) + 2 * (lo > hi ? 2 : 1));

    urgent_rows(&P, lo, hi);
    starvation_row(&P, "B at the supply's priority", supply_streams, supply_kernels, hi, hi);
    if (lo > hi)
        starvation_row(&P, "B less urgent than the supply", supply_streams, supply_kernels, lo, hi);
    else
        gl_row_skip(probe_row(&P, "starvation", "B less urgent than the supply", lo),
                    "n/a: this device has one stream priority (%d)", lo);

    double same_want, same_got, urgent_want, urgent_got;
    queue_row(&P, "equal priority", lo, lo, &same_want, &same_got);
    if (lo > hi) {
        queue_row(&P, "most urgent", hi, lo, &urgent_want, &urgent_got);
        /* The gain is a difference of two starts: judged within the budget of the larger one. */
        gl_row *row = P.L.rep.rows[P.L.rep.n_rows - 1];
        char claim[160];
        snprintf(claim, sizeof claim, "queue, C=%d: priority gains B behind a blocked head what the model says",
                 P.L.machine.connections);
        gl_claim_near(&P.L.rep, row, GL_CLAIM_TIMING, claim, same_want - urgent_want, same_got - urgent_got, 0,
                      P.tolerance * fabs(same_want) + 5.0, "us");
    } else {
        gl_row_skip(probe_row(&P, "queue", "most urgent", hi), "n/a: this device has one stream priority (%d)", hi);
    }
    gl_sampler_free(&P.smp);
    return gl_sched_lab_close(&P.L, &P.common);
}
