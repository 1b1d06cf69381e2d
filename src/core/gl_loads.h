/* gl_loads.h - lazy module loading, measured, and a pool of kernels that no one has launched yet.
 *
 * Under lazy loading (CUDA_MODULE_LOADING=LAZY, the default of CUDA 12.2 and later) a kernel function is
 * loaded at its first launch, and that load waits for the work already on the device and holds back what
 * comes after (gl_sched.h, "Loads"). A first launch can happen only once per function and process, so the
 * core keeps a pool of distinct, never-launched kernels: gl_load_fresh launches the next one, which is how
 * gl_sched_run issues a GL_SCHED_LOAD, and how gl_load_calibrate measures what a load costs. */
#ifndef GL_LOADS_H
#define GL_LOADS_H

#include <cuda_runtime.h>

#include "gl_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_load_machine {
    int lazy;              /* a first launch waited for another stream's kernel: loads are lazy */
    double gap_ns;         /* median: a 1 ms kernel's end in one stream to a first launch's start in another */
    double call_ns;        /* median host time of a first launch */
    double loaded_call_ns; /* median host time of a launch of the same function again */
    int reps;              /* first launches timed (each one of the pool's kernels) */
} gl_load_machine;

/* Launch the pool's next never-launched kernel (one thread) into s; returns 0, or -1 when the pool is used up. */
int gl_load_fresh(cudaStream_t s);
/* How many of the pool's kernels are still unlaunched. */
int gl_load_left(void);
/* Time reps first launches (reps of the pool's kernels), each in a non-blocking stream while another runs a
 * 1 ms kernel. */
void gl_load_calibrate(int reps, gl_load_machine *m);
/* The machine's load_ns: the gap less the machine's dispatch latency (which the model adds after the load);
 * 0 when loads are not lazy. */
void gl_load_machine_apply(const gl_load_machine *l, gl_sched_machine *m);
/* One line: "module loads: lazy | a first launch starts 6.1 us after ..." */
void gl_load_print(const gl_load_machine *l);

#ifdef __cplusplus
}
#endif
#endif
