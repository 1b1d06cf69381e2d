/* views.h - the replay's views of a program simulated at the recorded setting (replay.c --trace, --explain). */
#ifndef RP_VIEWS_H
#define RP_VIEWS_H

#include "gl_sched.h"
#include "gl_trace.h"

/* Add one run to tr: each kernel and copy on its stream's track, at the recorded times (rs, re; NAN where none)
 * or, with rs NULL, at the simulation's, which also shows on a track per hardware queue how long each entry
 * waited there before it left the head. */
void rp_trace_add(gl_trace *tr, const char *name, const gl_sched_program *p, const double *rs, const double *re);

/* Print the N kernels and copies that waited longest in the recording (recorded start rs less the call's return),
 * each with what held it in the simulation p holds now (run on m): the constraint that cleared last before its
 * start. */
void rp_explain(const gl_sched_program *p, const gl_sched_machine *m, const double *rs, int N);

#endif
