/* gl_cuda.h - the CUDA side of the shared module in one include: errors, the
 * device, the gate, spans and the work kernel, and the scheduling model's
 * machine, with the host modules they take and return (options, report and its
 * output, samples, the scheduling model, the timeline, the trace).
 *
 * An umbrella and nothing else: every declaration lives in the header of the
 * module that implements it (gl_<module>.h beside <module>.c or .cu). It keeps
 * an experiment's include list to what is particular to it. */
#ifndef GL_CUDA_H
#define GL_CUDA_H

#include "gl_common.h"
#include "gl_device.h"
#include "gl_errors.h"
#include "gl_gate.h"
#include "gl_model.h"
#include "gl_options.h"
#include "gl_output.h"
#include "gl_report.h"
#include "gl_sample.h"
#include "gl_sched.h"
#include "gl_spans.h"
#include "gl_timeline.h"
#include "gl_trace.h"

#endif
