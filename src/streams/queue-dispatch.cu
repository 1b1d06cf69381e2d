/* queue-dispatch.cu - when a hardware queue lets its head kernel go, and which grid starts first.
 *
 * Question: when does a hardware queue let its head kernel go, and which waiting grid does the work distributor start first?
 * Build: none
 * Sanitize: --quick --profile --skip-timing-claims
 *
 * A grid A of 2.5 waves of 1024-thread blocks, then a one-block kernel B: in
 * another stream (it starts when A's last blocks are out: oldest grid first),
 * in the most urgent stream (it takes the first free slot); and whether an
 * urgent stream's kernel waits behind a blocked queue head (A's stream's next
 * kernel) like any other. Each run is simulated by the core's scheduling model
 * with its calls' measured host times (gl_schedrun.h). The model releases a
 * queue when its head kernel reaches the work distributor; Bakita & Anderson
 * (RTAS 2024) found that pre-Hopper GPUs release it only once all of the
 * kernel's blocks are out. Both predictions are printed; the claim (table
 * "dispatch") is the model's: B's start, relative to A's, within --tolerance
 * (10%) + 5 us.
 *
 * Run:   make run-queue-dispatch ARGS="--connections 1,8"
 * Nsight Systems (make profile-queue-dispatch): NVTX ranges "dispatch <variant>";
 * streams "stream A", "stream B", "urgent".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "queue.cuh"

typedef struct dispatch_ctx {
    gl_sched_run run;        /* the variant's program on the GPU, and its simulation */
    gl_sched_machine bakita; /* the model's machine with the release rule found before Hopper */
    int a, b;                /* the ops of A and B */
} dispatch_ctx;

/* B's start relative to A's in the program's ops, as the last simulation put them, in us. */
static double model_b_start(const gl_sched_program *p, const dispatch_ctx *d)
{
    return (p->ops[d->b].start_ns - p->ops[d->a].start_ns) / 1e3;
}

/* One sample: the run, then B's start relative to A's, measured and under both release rules. */
static void run_dispatch(gl_sample *smp, void *arg)
{
    dispatch_ctx *d = (dispatch_ctx *)arg;
    gl_sched_run_once(&d->run);
    const gl_interval *a = gl_sched_run_kernel(&d->run, d->a), *b = gl_sched_run_kernel(&d->run, d->b);
    double model = model_b_start(d->run.prog, d);
    gl_sched_result r;
    char err[160];
    if (gl_sched_simulate(d->run.prog, &d->bakita, &r, err, sizeof err) != 0)
        gl_die(GL_EXIT_INTERNAL, "the model: %s", err);
    gl_sample_put(smp, "bakita_b_start", model_b_start(d->run.prog, d));
    gl_sample_put(smp, "model_b_start", model);
    gl_sample_put(smp, "b_start", a && b ? (b->start_ns - a->start_ns) / 1e3 : NAN);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "queue-dispatch",
        "when does a hardware queue let its head kernel go, and which waiting grid does the work distributor start "
        "first?",
        "Three probes: B in another stream, B in the most urgent stream, an urgent kernel behind a blocked queue\n"
        "head. Sweep C with --connections 1,2,4,8,16,32."};
    static const char *const names[] = {"other stream", "urgent stream", "urgent behind a blocked head"};
    double tolerance = 0.10, a_us = 300;
    gl_option opts[] = {
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0}};
    gl_common common;
    gl_sched_lab L;
    queue_lab_start(&L, &exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    int per_sm = gl_work_blocks_per_sm(1024), lo, hi;
    if (per_sm < 1 || per_sm32 < 1) {
        gl_claim_skip(&L.rep, NULL, GL_CLAIM_TIMING, "dispatch rules",
                      "n/a: a 1024-thread block of the work kernel does not fit on an SM of this GPU");
        return gl_sched_lab_close(&L, &common);
    }
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    int blocks = per_sm * L.dev.sms * 5 / 2; /* A: 2.5 waves */
    dispatch_ctx d;
    memset(&d, 0, sizeof d);
    d.bakita = L.machine;
    d.bakita.release_rule = GL_SCHED_RELEASE_DISPATCHED;
    gl_sampler smp;
    gl_device_sampler(&smp, &L.dev, &common);
    gl_sampler_series(&smp, "model_b_start", "us", 1, 0);
    gl_sampler_series(&smp, "bakita_b_start", "us", 1, 0);
    gl_sampler_series(&smp, "b_start", "us", 1, GL_SHOW_MIN);
    for (int v = 0; v < 3; v++) {
        gl_sched_program p;
        gl_sched_program_init(&p);
        /* Streams A and B of the lowest priority, and the most urgent one. */
        int sa = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, lo, -1);
        int sb = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, lo, -1);
        int su = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, hi, -1);
        if (v < 2) {
            d.a = gl_sched_launch(&p, 0, sa, blocks, 1024, per_sm, a_us * 1e3, 0);
            d.b = gl_sched_launch(&p, 0, v ? su : sb, 1, 1024, per_sm, 10e3, 0);
        } else { /* A's stream's next kernel waits for A at its queue's head */
            d.a = warp_kernel(&p, sa, a_us * 1e3);
            warp_kernel(&p, sa, 10e3);
            d.b = warp_kernel(&p, su, 10e3);
        }
        memset(&d.run, 0, sizeof d.run);
        gl_sched_run_create(&d.run, &p, &L.machine, 0);
        gl_nvtx_name_stream(d.run.stream[sa], "stream A");
        gl_nvtx_name_stream(d.run.stream[sb], "stream B");
        gl_nvtx_name_stream(d.run.stream[su], "urgent");
        gl_row *row = gl_report_row(&L.rep, "dispatch", names[v]);
        gl_row_param_num(row, "connections", "", 0, L.machine.connections);
        gl_row_param_num(row, "a_blocks", "", 0, v < 2 ? blocks : 1);
        gl_row_param_num(row, "a_us", "", 0, a_us);
        gl_nvtx_push("dispatch %s", names[v]);
        gl_sampler_run(&smp, row, run_dispatch, &d);
        gl_nvtx_pop();
        gl_stats got = gl_row_find(row, "b_start")->stats, want = gl_row_find(row, "model_b_start")->stats;
        char text[160];
        snprintf(text, sizeof text, "dispatch, %s: B starts where the model puts it (relative to A's start)", names[v]);
        gl_claim_near(&L.rep, row, GL_CLAIM_TIMING, text, want.median, got.median, tolerance, 5.0, "us");
        gl_sched_run_destroy(&d.run);
        gl_sched_program_free(&p);
    }
    gl_sampler_free(&smp);
    return gl_sched_lab_close(&L, &common);
}
