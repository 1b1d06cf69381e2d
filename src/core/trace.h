/* trace.h - the measured timeline as a Chrome trace (Perfetto) and as text.
 *
 * The trace holds one process per run (a variant or configuration), one track
 * per stream and one slice per kernel, with its grid size and SMs in the args,
 * so that the device-side timeline can be compared with Nsight Systems. */
#ifndef GL_TRACE_H
#define GL_TRACE_H

#include <stdio.h>

#include "options.h"
#include "span.h"
#include "timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_trace {
    char *buf;   /* the trace events written so far, comma-separated JSON objects */
    size_t len;  /* bytes used in buf */
    size_t cap;  /* bytes allocated */
    int runs;    /* runs added: each becomes a process (pid = run number) */
} gl_trace;

/* Names shown in traces and text timelines. */
typedef struct gl_names {
    const char *const *labels; /* label index -> kernel name */
    int n_labels;
    const char *track;         /* track name prefix: "stream" or "depth" */
} gl_names;

void gl_trace_init(gl_trace *t);

/* Add one run: its kernels from tl, and the SMs of its blocks from the block
 * records in spans (if any). Returns 0, or -1 when out of memory. */
int gl_trace_add(gl_trace *t, const char *run_name, const gl_timeline *tl, const gl_span *spans,
                 int n_spans, const gl_names *names);

/* Write the collected runs to path as {"traceEvents":[...]}. Returns 0 or -1. */
int gl_trace_write(const gl_trace *t, const char *path);
void gl_trace_free(gl_trace *t);

/* Draw a text timeline: one row per track, width columns across the makespan.
 * A column shows the label letter of the kernel running at its midpoint, a
 * digit when several kernels of the track overlap there, '.' when idle; a
 * kernel shorter than a column appears in lower case where it started. */
void gl_timeline_draw(FILE *f, const char *title, const gl_timeline *tl, const gl_names *names,
                      int width);

/* Show one measured run as the common options ask: draw it with --timeline,
 * add it to the trace with --trace. */
void gl_show_run(gl_trace *t, const gl_common *common, const char *title, const gl_timeline *tl,
                 const gl_span *spans, int n_spans, const gl_names *names);

/* Write the trace if --trace was given (saying where), and free it. */
void gl_trace_finish(gl_trace *t, const gl_common *common);

#ifdef __cplusplus
}
#endif
#endif
