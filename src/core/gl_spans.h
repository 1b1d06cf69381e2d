/* gl_spans.h - the host side of span recording: the span buffer (the record
 * itself, gl_span, is in gl_timeline.h, which plain C reads without CUDA; the
 * device side is gl_spans.cuh), and the work kernel that records spans. */
#ifndef GL_SPANS_H
#define GL_SPANS_H

#include <cuda_runtime_api.h>

#include "gl_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- spans ----------------------------------------------------------------- */

typedef struct gl_spans {
    gl_span_buf dev;        /* what kernels get */
    unsigned int host_next; /* next record the host hands out */
    gl_span *h_spans;       /* host copy, filled by gl_spans_fetch */
} gl_spans;

/* host_slots records for host-launched kernels, device_slots for device launches. */
void gl_spans_create(gl_spans *s, unsigned int host_slots, unsigned int device_slots, int per_block);
/* Mark every record empty and hand out slots from 0 again (synchronous). */
void gl_spans_reset(gl_spans *s);
/* Reserve the records of one host-launched kernel of the given grid size.
 * A buffer sized too small is a bug of the experiment: exits 1 saying so. */
unsigned int gl_spans_reserve(gl_spans *s, int blocks);
/* Copy the records back (call after synchronizing). Returns how many are in
 * h_spans. Device reservations that did not fit exit 1 with the count. */
int gl_spans_fetch(gl_spans *s);
/* Fetch, and build the timeline from what was fetched (freeing tl's last one). */
int gl_spans_timeline(gl_spans *s, gl_timeline *tl);
void gl_spans_destroy(gl_spans *s);

/* ---- the work kernel ------------------------------------------------------- */

/* Launch blocks x threads threads whose blocks each spin for us microseconds
 * on %globaltimer from the block's first warp, add their iteration count to
 * *d_sink (so the loop is real work with a result), and record a span in slot
 * (GL_NO_SPAN: no span). A kernel in device code can run the same body
 * (gl_work_body in gl_work.cuh). */
void gl_work_launch(cudaStream_t stream, int blocks, int threads, double us, gl_span_buf spans,
                    unsigned int slot, int label, int stream_index, unsigned long long *d_sink);

/* One thread that holds stream for ns of %globaltimer, then writes when it ended to *end (NULL: nowhere): what
 * the calibrations queue work behind (a copy behind a held stream, a first launch beside one, ...). */
void gl_hold_launch(cudaStream_t stream, double ns, unsigned long long *end);

/* Blocks of the work kernel that fit on one SM at once, for a block size (the
 * occupancy calculator). */
int gl_work_blocks_per_sm(int threads);

#ifdef __cplusplus
}
#endif
#endif
