/* copies.cuh - what a program run through gl_schedrun.h needs when it copies (issue 18), beside events.cuh: the
 * model's machine fed with the copy engines and host functions measured now, its pageable copies' times on the
 * run's own buffers, and the copies' ends against the model's. event-programs' copies population uses it. */
#ifndef GL_STREAMS_COPIES_CUH
#define GL_STREAMS_COPIES_CUH

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gl_copies.h"
#include "gl_hostfns.h"
#include "gl_schedrun.h"

/* Measure the copy engines (4 KiB and large_bytes, reps each) and host functions (cudaLaunchHostFunc, what schedrun
 * issues) now, print them, and give m what was fitted. A fit that does not hold leaves the model no engines to put a
 * copy on: no suitable GPU for programs with copies (exit 77, saying why); so does a D2D or memset left without
 * engines, since these programs draw both. About a second. */
static inline void copies_machine(const gl_device *dev, size_t large_bytes, int reps, gl_sched_machine *m)
{
    gl_copy_machine cm;
    gl_copy_calibrate(dev, 4096, large_bytes, reps, &cm);
    gl_copy_print(&cm);
    if (gl_copy_machine_apply(&cm, m) != 0 || m->copy_engines[GL_SCHED_D2D] < 1 || m->copy_engines[GL_SCHED_MEMSET] < 1)
        gl_no_gpu("the model's copy engines could not be fitted to this GPU's copies: %s", cm.fit_error);
    gl_hostfn_machine h;
    gl_hostfn_calibrate(50, reps, 500, &h);
    gl_hostfn_print(&h);
    gl_hostfn_machine_apply(&h, GL_HOSTFN_LAUNCH, m);
}

/* The median over the last run's copies of |measured end - simulated end| (us), each from its timeline's first
 * kernel start: the measured ends are early by up to the run's copy_anchor_error_ns. NAN without copies. */
static inline double copies_end_error_us(const gl_sched_run *r)
{
    const gl_sched_program *p = r->prog;
    double first = INFINITY, *e = (double *)gl_xmalloc(sizeof(double) * ((size_t)r->copies + 1));
    int n = 0;
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH) first = fmin(first, p->ops[i].start_ns);
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_COPY && !isnan(r->copy_end_ns[i]))
            e[n++] = fabs(r->copy_end_ns[i] - (p->ops[i].end_ns - first));
    double median = n > 0 ? gl_stats_of(e, n).median / 1e3 : NAN;
    free(e);
    return median;
}

#endif
