/* gl_hostfns.h - host functions in streams (cudaLaunchHostFunc, cudaStreamAddCallback), measured: what a
 * model of them needs to be fed with.
 *
 * Timed now, medians: the host's time per call of each API; each one's time in its stream (a run of empty
 * host functions between two events, per function); and whether host functions of two streams run one at
 * a time on the driver's thread (two functions that each hold the host for hold_ns, queued in two streams
 * at once: about 2 hold_ns from first start to last end if they do, about 1 if not). gl_hostfn_machine_apply
 * gives the scheduling model (gl_sched.h, "Host functions") those numbers. */
#ifndef GL_HOSTFNS_H
#define GL_HOSTFNS_H

#include <cuda_runtime.h>

#include "gl_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GL_HOSTFN_LAUNCH, GL_HOSTFN_CALLBACK, GL_HOSTFN_APIS }; /* cudaLaunchHostFunc, cudaStreamAddCallback */

typedef struct gl_hostfn_machine {
    double call_ns[GL_HOSTFN_APIS];    /* the host's time in one call */
    double in_stream_ns[GL_HOSTFN_APIS]; /* an empty function's time in its stream, one of a run of them */
    double hold_ns;                    /* how long each of the two functions held the host */
    double two_streams_ns;             /* two such functions in two streams at once: first start to last end */
    int one_at_a_time;                 /* two_streams_ns is nearer 2 hold_ns than 1 */
    double wake_ns;                    /* an empty function's time in its stream right after 200 us of GPU work */
} gl_hostfn_machine;

/* A host function that holds the driver's thread for ns and notes when it ran (host clock, gl_host_ns):
 * cudaLaunchHostFunc(s, gl_hostfn_hold_fn, &hold). The calibration's and gl_sched_run's HOSTFN ops'. */
typedef struct gl_hostfn_hold {
    double ns, start_ns, end_ns;
} gl_hostfn_hold;
void CUDART_CB gl_hostfn_hold_fn(void *hold);

/* One empty function right after 200 us of GPU work in stream s (idle): from the kernel's end (an event after it)
 * to the stream's next event, the driver's thread asleep until the function is due; the median of reps after
 * one (ns). The wake moved between 48 and 226 us from process to process on the H200, and timed just before a
 * run it did not foretell the run's, so callbacks' slow rows take the run's own and report this beside it. */
double gl_hostfn_wake_ns(cudaStream_t s, int reps);
/* Time host functions on the current device: runs of n empty functions, reps times each (median), and two
 * functions of hold_us in two streams. */
void gl_hostfn_calibrate(int n, int reps, double hold_us, gl_hostfn_machine *m);
/* The machine's hostfn_ns (api's time in its stream), hostfn_wake_ns and hostfn_serial. */
void gl_hostfn_machine_apply(const gl_hostfn_machine *h, int api, gl_sched_machine *m);
/* One line: "host functions: cudaLaunchHostFunc call 1.35 us, 1.74 us in its stream | ..." */
void gl_hostfn_print(const gl_hostfn_machine *m);

#ifdef __cplusplus
}
#endif
#endif
