/* gl_copies.h - the copy engines of this device, measured: what a model of copies needs to be fed with.
 *
 * Every number is timed now, with events around copies on idle non-blocking streams, the median of reps:
 * each direction's per-copy time for a small copy (its latency) and its bandwidth for a large one; two
 * copies at once, in opposite directions and in the same direction (one link shared, or one engine each?);
 * and a copy from or to pageable host memory, whose staging by the driver decides how long the host's
 * cudaMemcpyAsync call lasts. gl_sched_copy_fit (gl_sched.h) turns the times into the model's copy
 * engines, whose rules these measurements are to confirm or replace (issue 18). */
#ifndef GL_COPIES_H
#define GL_COPIES_H

#include "gl_device.h"
#include "gl_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_copy_machine {
    int async_engines;          /* cudaDevAttrAsyncEngineCount, as the runtime reports it */
    gl_sched_copy_times t;      /* the times, medians (GL_SCHED_H2D, _D2H, _D2D) */
    double pageable_call_ns[2]; /* the host's cudaMemcpyAsync call for a large pageable H2D, D2H */
    double pinned_call_ns[2];   /* the same call with pinned memory, for comparison */
    gl_sched_machine fitted;    /* the copy fields gl_sched_copy_fit made of t (engines 0: it did not hold) */
    char fit_error[320];        /* why, when it did not (or which device-side direction did not) */
} gl_copy_machine;

/* Time the copy engines of dev's device with copies of small_bytes and large_bytes, reps times each (median).
 * Allocates and frees its own pinned, pageable and device buffers (2 * large_bytes of each). */
void gl_copy_calibrate(const gl_device *dev, size_t small_bytes, size_t large_bytes, int reps, gl_copy_machine *m);
/* Give machine m the fitted copy fields (engines, bandwidths, latencies, pageable rates); returns 0, or -1
 * when the fit did not hold (m's copy engines stay 0: a program with copies is refused, saying so). */
int gl_copy_machine_apply(const gl_copy_machine *cm, gl_sched_machine *m);
/* One copy of bytes (kind) on stream s, timed with events: the median of reps after one untimed (ns). */
double gl_copy_time_ns(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, cudaStream_t s, int reps);
/* One line: the times, and the engines, bandwidths and latencies fitted to them (or why not). */
void gl_copy_print(const gl_copy_machine *m);

#ifdef __cplusplus
}
#endif
#endif
