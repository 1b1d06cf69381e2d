/* hyperq.cu - what C hardware queues cost S streams x K kernels, against the scheduling model.
 *
 * Question: how well does the scheduling model predict what C hardware queues cost S streams x K kernels, timed as the published samples time them too?
 * Build: none
 * Sanitize: --quick --profile --kernel-us 20 --legacy-kernel-us 20 --legacy-streams 8 --streams 16 --skip-timing-claims
 *
 * Hyper-Q gives the host C hardware queues (CUDA_DEVICE_MAX_CONNECTIONS, 8 by
 * default, at most 32). Each run is simulated by the core's scheduling model
 * (gl_sched.h), fed with this run's measured costs and each call's own host
 * time, and compared with the GPU's timeline (gl_streamgrid.h).
 *
 * Table "sweep": S non-blocking streams (--streams, 16,32,64,256) x K=4 x
 * T=1 ms, depth-first and breadth-first.
 * Table "legacy": the published samples' way, S=24 blocking streams
 * (cudaStreamCreate) x K=3 x T=2 ms timed with events recorded on the legacy
 * default stream; event-timed and span-timed makespans, each against the model.
 * Claims: makespan within --tolerance (10%) of the simulation, peak
 * concurrency equal, median kernel start error at most 5% of T.
 * Which queue a stream lands in is queue-map's question; when a queue lets its
 * head go, queue-dispatch's.
 *
 * Run:   make run-hyperq ARGS="--connections 4"
 *        make sweep-hyperq      (C = 1,2,4,8,16,32, one process each; results
 *                                and the plot go to experiments/results/<gpu>/)
 * Nsight Systems (make profile-hyperq): NVTX ranges "sweep S=.. depth C=..",
 * "legacy S=.. breadth C=.."; streams "stream N". --trace and --timeline show
 * the model's timeline of each run beside the measured one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_cuda.h"
#include "gl_streamgrid.h"

enum { PART_ALL, PART_SWEEP, PART_LEGACY };
enum { ORDER_BOTH = 2 };

/* S streams x K kernels of T us in table, one row per order asked; blocking: streams from cudaStreamCreate,
 * timed by events on the legacy stream. */
static void grid_rows(gl_sched_lab *L, const gl_common *common, const char *table, int S, int K, double T,
                      int blocking, int orders, double tolerance)
{
    gl_streamgrid g;
    memset(&g, 0, sizeof g);
    g.streams = S;
    g.kernels = K;
    g.blocks = 1;
    g.threads = 32;
    g.kernel_us = T;
    g.blocking = g.legacy_events = blocking;
    g.per_block = common->trace_path != NULL;
    gl_streamgrid_create(&g, &L->machine, L->dev.tick_ns);
    gl_sampler smp;
    gl_device_sampler(&smp, &L->dev, common);
    gl_streamgrid_series(&smp, blocking);
    for (int o = GL_SCHED_DEPTH_FIRST; o <= GL_SCHED_BREADTH_FIRST; o++) {
        if (orders != ORDER_BOTH && orders != o) continue;
        char variant[48];
        snprintf(variant, sizeof variant, "S=%d %s", S, gl_sched_order_name(o));
        g.order = o;
        gl_streamgrid_row(&g, &L->rep, common, &smp, &L->trace, table, variant, tolerance);
    }
    gl_sampler_free(&smp);
    gl_streamgrid_destroy(&g);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "hyperq",
        "how well does the scheduling model predict what C hardware queues cost S streams x K kernels, timed as the "
        "published samples time them too?",
        "Parts: connections sweep (--streams, default 16,32,64,256), published-sample timing (blocking streams,\n"
        "legacy-stream events). Sweep C with --connections 1,2,4,8,16,32 (make sweep-hyperq)."};
    int part = PART_ALL, kernels = 4, order = ORDER_BOTH, legacy_streams = 24, legacy_kernels = 3;
    double kernel_us = 1000, legacy_us = 2000, tolerance = 0.10;
    gl_int_list streams = {NULL, 0};
    gl_option opts[] = {
        {"part", GL_OPT_CHOICE, &part, 0, 0, "all|sweep|legacy", NULL, "which part to run", 0},
        {"streams", GL_OPT_INT_LIST, &streams, 1, 1024, NULL, "16,64", "sweep: stream counts S (none given: 16,32,64,256)", 0},
        {"kernels", GL_OPT_INT, &kernels, 1, 64, NULL, NULL, "sweep: kernels per stream (K)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &kernel_us, 1, 1e6, NULL, NULL, "sweep: kernel duration T in us", 0},
        {"legacy-streams", GL_OPT_INT, &legacy_streams, 1, 1024, NULL, NULL, "legacy part: blocking streams", 0},
        {"legacy-kernels", GL_OPT_INT, &legacy_kernels, 1, 64, NULL, NULL, "legacy part: kernels per stream", 0},
        {"legacy-kernel-us", GL_OPT_DOUBLE, &legacy_us, 1, 1e6, NULL, NULL, "legacy part: kernel duration in us", 0},
        {"order", GL_OPT_CHOICE, &order, 0, 0, "depth|breadth|both", NULL, "issue order", 0},
        {"tolerance", GL_OPT_DOUBLE, &tolerance, 0, 10, NULL, NULL, "relative tolerance of the timing claims", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    static int default_streams[] = {16, 32, 64, 256};
    if (streams.n == 0) {
        streams.v = default_streams;
        streams.n = GL_ARRAY_LEN(default_streams);
    }
    gl_sched_lab L;
    gl_sched_lab_open(&L, exp.name, &common);
    gl_sched_lab_calibrate(&L, 32, kernel_us);
    if (part != PART_LEGACY)
        for (int i = 0; i < streams.n; i++)
            grid_rows(&L, &common, "sweep", streams.v[i], kernels, kernel_us, 0, order, tolerance);
    if (part != PART_SWEEP)
        grid_rows(&L, &common, "legacy", legacy_streams, legacy_kernels, legacy_us, 1, order, tolerance);
    if (streams.v != default_streams) free(streams.v);
    return gl_sched_lab_close(&L, &common);
}
