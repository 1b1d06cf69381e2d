/* gl_trace.h - a timeline as a Chrome trace (Perfetto) and as text, with names.
 *
 * The trace holds one process per run (a variant or configuration), one track
 * per stream (or per depth for nested grids), one slice per interval with its
 * grid size and SMs in the args, and a flow arrow from each parent grid to each
 * child it launched, so that a nested tree reads as a tree. Nsight Systems does
 * not trace device-launched grids; this is the way to see them.
 *
 * Names of labels and tracks come from a printf pattern with one integer
 * conversion ("k%d", "stream %d") or from a callback, so that any number of
 * them can be named. */
#ifndef GL_TRACE_H
#define GL_TRACE_H

#include <stdio.h>

#include "gl_common.h"
#include "gl_options.h"
#include "gl_report.h"
#include "gl_timeline.h"
#include "gl_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Append the name of index to out. */
typedef void (*gl_name_fn)(int index, gl_buf *out, const void *ctx);

typedef struct gl_names {
    const char *label_pattern; /* e.g. "k%d": one integer conversion, "%%" allowed; used when label_fn is NULL */
    gl_name_fn label_fn;       /* names a label index; overrides the pattern */
    const void *label_ctx;     /* passed to label_fn */
    const char *track_pattern; /* e.g. "stream %d"; used when track_fn is NULL */
    gl_name_fn track_fn;       /* names a track index; overrides the pattern */
    const void *track_ctx;     /* passed to track_fn */
    int n_labels;              /* labels in the legend of the text timeline (0: those present in it) */
} gl_names;

/* A pattern is usable when it has exactly one %d (or %i) and no other
 * conversion but "%%". Returns 1 or 0. */
int gl_name_pattern_ok(const char *pattern);
/* The name of a label or a track, appended to out ("label 7"/"track 7" when
 * names gives none). A bad pattern exits 2 naming it: that is a bug. */
void gl_label_name(const gl_names *names, int label, gl_buf *out);
void gl_track_name(const gl_names *names, int track, gl_buf *out);

typedef struct gl_trace {
    gl_buf events; /* the trace events written so far, comma-separated JSON objects */
    int runs;      /* runs added: each becomes a process (pid = run number) */
    int flows;     /* flow arrows emitted, for unique flow ids */
} gl_trace;

void gl_trace_init(gl_trace *t);

/* Add one run: its intervals from tl, and the SMs of its blocks from the block
 * records in spans (if any). */
void gl_trace_add(gl_trace *t, const char *run_name, const gl_timeline *tl, const gl_span *spans, int n_spans,
                  const gl_names *names);

/* Write the collected runs to path as {"traceEvents":[...]}. Returns 0 or -1. */
int gl_trace_write(const gl_trace *t, const char *path);
void gl_trace_free(gl_trace *t);

/* Draw a text timeline: one row per track, width columns across the makespan.
 * A column shows the letter of the label running at its midpoint (labels past
 * 26 reuse letters, and the legend lists every label of a letter), a digit
 * when several intervals of the track overlap there, '.' when idle; an
 * interval shorter than a column appears in lower case where it started. */
void gl_timeline_draw(FILE *f, const char *title, const gl_timeline *tl, const gl_names *names, int width);

/* Show one measured run as the common options ask: draw it with --timeline,
 * add it to the trace with --trace. */
void gl_show_run(gl_trace *t, const gl_common *common, const char *title, const gl_timeline *tl,
                 const gl_span *spans, int n_spans, const gl_names *names);

/* Write the trace if --trace was given (saying where), and free it. A trace
 * that cannot be written is said on stderr and marks the report, so that the
 * run ends with GL_EXIT_IO after the other results are written. */
void gl_trace_finish(gl_trace *t, const gl_common *common, gl_report *r);

#ifdef __cplusplus
}
#endif
#endif
