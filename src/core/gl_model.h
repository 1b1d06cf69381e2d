/* gl_model.h - the scheduling model's machine measured on this device, and the
 * lab a scheduling experiment holds from its first row to its last. */
#ifndef GL_MODEL_H
#define GL_MODEL_H

#include "gl_device.h"
#include "gl_options.h"
#include "gl_report.h"
#include "gl_sched.h"
#include "gl_stats.h"
#include "gl_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the scheduling model's machine ---------------------------------------- */

typedef struct gl_sched_calibration {
    gl_stats issue_ns;    /* host time per launch of the work kernel, one per round */
    gl_stats dispatch_ns; /* a kernel's end to the start of the next one waiting in its stream */
    gl_stats latency_ns;  /* a launch call's return to its kernel's start on an idle queue */
    gl_stats block_ns;    /* the work distributor's time per block, in the experiment's block shape */
    gl_stats overrun_ns;  /* a one-block kernel's duration beyond the time it was asked to run */
} gl_sched_calibration;

/* Measure the machine the simulator runs on: queues, resident grids and SMs
 * from the device; timed now: the issue cost, the dispatch gap (with kernels
 * of this duration) and how it grows with chains in progress, the queue's
 * time per entry, the time per block and the block overrun (in blocks of
 * this many threads), and the launch latency. Prints one "model:" line and
 * adds the costs to the report's device fields. */
void gl_sched_calibrate(gl_device *dev, gl_report *rep, int threads, double kernel_us, gl_sched_machine *m,
                        gl_sched_calibration *cal);

/* What a scheduling experiment holds from its first row to its last: the
 * report, the device, the model's machine (measured by gl_sched_lab_calibrate
 * with the experiment's own kernels) and the trace. */
typedef struct gl_sched_lab {
    gl_report rep;
    gl_device dev;
    gl_sched_machine machine;
    gl_sched_calibration cal;
    gl_trace trace;
} gl_sched_lab;

/* Open the report and the device (the device line is printed), start the trace. */
void gl_sched_lab_open(gl_sched_lab *S, const char *name, const gl_common *common);
/* Measure the model's machine with kernels of `threads` threads lasting kernel_us (the model: line). */
void gl_sched_lab_calibrate(gl_sched_lab *S, int threads, double kernel_us);
/* Write the trace, close the device, finish the report; returns the exit code. */
int gl_sched_lab_close(gl_sched_lab *S, const gl_common *common);

#ifdef __cplusplus
}
#endif
#endif
