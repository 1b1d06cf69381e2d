/* queue.cuh - what queue-map and queue-dispatch share: their lab, measured as
 * hyperq measured it when both were its parts, and their probes' one-warp
 * kernels. Each probe is a scheduling-model program run by gl_schedrun.h. */
#ifndef GL_STREAMS_QUEUE_CUH
#define GL_STREAMS_QUEUE_CUH

#include "gl_cuda.h"
#include "gl_nvtx.h"
#include "gl_schedrun.h"

static int per_sm32; /* blocks of one warp that fit on an SM */

/* Parse the options, open the report and the device, and measure the model's
 * machine with one-warp kernels of 1 ms (the model: line). */
static inline void queue_lab_start(gl_sched_lab *L, const gl_experiment *exp, gl_option *opts, int n_opts,
                                   gl_common *common, int argc, char **argv)
{
    gl_common_defaults(common);
    gl_options_parse_or_exit(exp, opts, n_opts, common, argc, argv);
    gl_sched_lab_open(L, exp->name, common);
    gl_sched_lab_calibrate(L, 32, 1000);
    per_sm32 = gl_work_blocks_per_sm(32);
    if (per_sm32 < 1) gl_no_gpu("a one-warp block of the work kernel does not fit on an SM of this GPU");
}

/* A one-warp work kernel of ns in stream; returns its op. */
static inline int warp_kernel(gl_sched_program *p, int stream, double ns)
{
    return gl_sched_launch(p, 0, stream, 1, 32, per_sm32, ns, 0);
}

#endif
