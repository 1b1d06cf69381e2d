/* gl_copies.h - the copy engines of this device, measured: what a model of copies needs to be fed with.
 *
 * Every number is timed now, with events around copies on idle non-blocking streams, the median of reps:
 * each direction's per-copy time for a small copy (its latency) and its bandwidth for a large one; two
 * copies at once, in opposite directions and in the same direction (one link shared, or one engine each?);
 * and a copy from or to pageable host memory, whose staging by the driver decides how long the host's
 * cudaMemcpyAsync call lasts. Nothing here models anything: the scheduling model's rules for copies are
 * to be written from these measurements (issue 18), not assumed before them. */
#ifndef GL_COPIES_H
#define GL_COPIES_H

#include "gl_device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GL_COPY_H2D, GL_COPY_D2H, GL_COPY_D2D, GL_COPY_DIRS } gl_copy_dir;

typedef struct gl_copy_machine {
    int async_engines;              /* cudaDevAttrAsyncEngineCount, as the runtime reports it */
    double small_bytes, large_bytes; /* the sizes timed */
    double latency_ns[GL_COPY_DIRS]; /* a small pinned (device: D2D) copy, event to event */
    double gbps[GL_COPY_DIRS];      /* a large one: bytes over its time */
    double opposite_gbps;           /* a large H2D and a large D2H at once, in two streams: both's bytes over
                                       the pair's time */
    double same_gbps;               /* two large H2D at once, in two streams: the same */
    double pageable_gbps[2];        /* H2D from, D2H to pageable memory (large) */
    double pageable_call_ns[2];     /* the host's cudaMemcpyAsync call for each: how long it held the host */
    double pinned_call_ns[2];       /* the same call with pinned memory, for comparison */
} gl_copy_machine;

/* Time the copy engines of dev's device with copies of small_bytes and large_bytes, reps times each (median).
 * Allocates and frees its own pinned, pageable and device buffers (2 * large_bytes of each). */
void gl_copy_calibrate(const gl_device *dev, size_t small_bytes, size_t large_bytes, int reps, gl_copy_machine *m);
/* One line: "copies: 3 engines | H2D 55.5 GB/s (latency 3.1 us) | ..." */
void gl_copy_print(const gl_copy_machine *m);

#ifdef __cplusplus
}
#endif
#endif
