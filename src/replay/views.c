/* views.c - the replay's two views of one program: the Perfetto trace and the longest waits (views.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"
#include "views.h"

/* ---- --trace: the recorded and replayed timelines, for Perfetto ---------------------------------------------- */

enum { LBL_KERNEL, LBL_H2D, LBL_D2H, LBL_D2D, LBL_MEMSET, LBL_QUEUED, N_LBL };
typedef struct track_ctx {
    int n_streams;
} track_ctx;

static void label_name(int label, gl_buf *out, const void *ctx)
{
    static const char *const names[N_LBL] = {"kernel", "H2D", "D2H", "D2D", "memset", "in its queue"};
    (void)ctx;
    gl_buf_puts(out, label >= 0 && label < N_LBL ? names[label] : "?");
}

static void track_name(int track, gl_buf *out, const void *ctx)
{
    int S = ((const track_ctx *)ctx)->n_streams;
    if (track == 0) gl_buf_puts(out, "legacy stream");
    else if (track < S) gl_buf_printf(out, "stream %d", track);
    else gl_buf_printf(out, "hardware queue %d", track - S);
}

/* One run of the trace: each kernel and copy on its stream's track, at the recorded times (rs, re) or at the
 * replay's; the replay's also shows, on its hardware queue's track, how long each entry waited there before it
 * left the head (its submission to its going). */
void rp_trace_add(gl_trace *tr, const char *name, const gl_sched_program *p, const double *rs, const double *re)
{
    gl_span *sp = (gl_span *)gl_xcalloc((size_t)(2 * p->n_ops + 1), sizeof *sp);
    int n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        if (o->kind != GL_SCHED_LAUNCH && o->kind != GL_SCHED_COPY) continue;
        double s = rs ? rs[i] : o->start_ns, e = rs ? re[i] : o->end_ns;
        if (!(e >= s) || s < -GL_SCHED_ORIGIN_NS) continue;
        gl_span *x = &sp[n++];
        x->start_ns = (unsigned long long)llround(GL_SCHED_ORIGIN_NS + s);
        x->end_inv_ns = ~(unsigned long long)llround(GL_SCHED_ORIGIN_NS + e);
        x->label = o->kind == GL_SCHED_LAUNCH ? LBL_KERNEL : LBL_H2D + o->dir;
        x->stream = o->stream, x->kernel = 2 * i, x->parent = -1, x->smid = -1, x->block = -1;
        x->blocks = o->blocks, x->threads = o->threads;
        x->kind = o->kind == GL_SCHED_LAUNCH ? GL_SPAN_KERNEL : GL_SPAN_COPY;
        if (!rs && o->queue >= 0 && o->go_ns > o->submit_ns) { /* the replay's hardware queue */
            gl_span *q = &sp[n++];
            *q = *x;
            q->start_ns = (unsigned long long)llround(GL_SCHED_ORIGIN_NS + o->submit_ns);
            q->end_inv_ns = ~(unsigned long long)llround(GL_SCHED_ORIGIN_NS + o->go_ns);
            q->label = LBL_QUEUED, q->stream = p->n_streams + o->queue, q->kernel = 2 * i + 1, q->kind = GL_SPAN_HOST;
        }
    }
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    track_ctx ctx = {p->n_streams};
    gl_names names = {NULL, label_name, NULL, NULL, track_name, &ctx, N_LBL};
    if (gl_timeline_build(&tl, sp, n) >= 0) gl_trace_add(tr, name, &tl, NULL, 0, &names);
    gl_timeline_free(&tl);
    free(sp);
}

/* ---- --explain: what held each operation that waited ------------------------------------------------------- */

static const char *op_what(const gl_sched_op *o)
{
    static const char *const dirs[] = {"H2D", "D2H", "D2D copy", "memset"};
    static const char *const kinds[] = {"kernel", "event record", "event wait", "synchronization", "host work",
                                        "stream creation", "copy", "host function", "module load"};
    if (o->kind == GL_SCHED_COPY) return dirs[o->dir];
    return o->kind >= 0 && o->kind <= GL_SCHED_LOAD ? kinds[o->kind] : "op";
}

/* Why op i (a kernel or copy) started when it did in the replay: the constraint that cleared last before its start.
 * Candidates, each with the time it cleared: its call (returned, plus its arrival: gl_sched_arrival_ns), its
 * stream's previous operation (through records and waits: the record a wait waits for), the legacy stream's
 * barrier, a lazy load, the operation ahead of it in its hardware queue (it left the head), the previous copy of its
 * direction (the engine), and for a kernel that left its queue well before its first block, no free SM. */
static void explain_one(const gl_sched_program *p, const gl_sched_machine *m, int i, char *why, int n)
{
    const gl_sched_op *o = &p->ops[i];
    double best = o->submit_ns + gl_sched_arrival_ns(m, o);
    snprintf(why, (size_t)n, "a late host call (it returned %.1f us before its start)", (o->start_ns - o->submit_ns) / 1e3);
    int prev_stream = -1, last_load = -1, prev_queue = -1, prev_engine = -1, legacy = -1;
    for (int j = i - 1; j >= 0; j--) {
        const gl_sched_op *q = &p->ops[j];
        if (prev_stream < 0 && q->stream == o->stream && q->kind != GL_SCHED_HOST && q->kind != GL_SCHED_SYNC)
            prev_stream = j;
        if (last_load < 0 && q->kind == GL_SCHED_LOAD) last_load = j;
        if (prev_queue < 0 && o->queue >= 0 && q->queue == o->queue) prev_queue = j;
        if (prev_engine < 0 && o->kind == GL_SCHED_COPY && o->queue < 0 && q->kind == GL_SCHED_COPY && q->queue < 0 &&
            q->dir == o->dir && q->start_ns <= o->start_ns)
            prev_engine = j;
        if (legacy < 0 && q->stream == GL_SCHED_LEGACY && o->stream != GL_SCHED_LEGACY &&
            p->streams[o->stream].kind == GL_SCHED_STREAM_BLOCKING)
            legacy = j;
    }
    struct { int op; double t; const char *what; } c[6] = {
        {prev_stream, prev_stream >= 0 ? p->ops[prev_stream].end_ns : -1, "its stream's previous operation"},
        {legacy, legacy >= 0 ? p->ops[legacy].end_ns : -1, "the legacy stream"},
        {last_load, last_load >= 0 ? p->ops[last_load].end_ns : -1, "a lazy module load"},
        {prev_queue, prev_queue >= 0 ? p->ops[prev_queue].go_ns : -1, "a shared hardware queue, behind"},
        {prev_engine, prev_engine >= 0 ? p->ops[prev_engine].end_ns : -1, "the copy engine, busy with"},
        {-1, -1, NULL}};
    for (int k = 0; k < 5; k++) {
        if (c[k].op < 0 || !(c[k].t > best) || c[k].t > o->start_ns + 1) continue;
        best = c[k].t;
        const gl_sched_op *q = &p->ops[c[k].op];
        if (q->kind == GL_SCHED_LOAD)
            snprintf(why, (size_t)n, "a lazy module load (#%d, which waits for all issued before it), done at %.3f ms",
                     c[k].op, q->end_ns / 1e6);
        else if (q->kind == GL_SCHED_WAIT || q->kind == GL_SCHED_RECORD)
            snprintf(why, (size_t)n, "%s (an event %s, done at %.3f ms)", c[k].what,
                     q->kind == GL_SCHED_WAIT ? "wait" : "record", q->end_ns / 1e6);
        else
            snprintf(why, (size_t)n, "%s%s %s #%d on stream %d (done at %.3f ms)", c[k].what, k >= 3 ? " the" : ":",
                     op_what(q), c[k].op, q->stream, c[k].t / 1e6);
    }
    if (o->kind == GL_SCHED_LAUNCH && o->go_ns > best && o->start_ns - o->go_ns > m->dispatch_ns + 1000)
        snprintf(why, (size_t)n, "no free SM (it left its queue %.1f us before its first block)",
                 (o->start_ns - o->go_ns) / 1e3);
}

static int by_wait(const void *x, const void *y)
{
    const double *a = (const double *)x, *b = (const double *)y;
    return (a[0] < b[0]) - (a[0] > b[0]);
}

/* The N kernels and copies that waited longest in the recording (its start less its call's return), each with what
 * held it in the replay at the recorded setting, which p holds now. */
void rp_explain(const gl_sched_program *p, const gl_sched_machine *m, const double *rs, int N)
{
    double *w = (double *)gl_xmalloc(sizeof(double) * 2 * (size_t)(p->n_ops + 1));
    int n = 0;
    for (int i = 0; i < p->n_ops; i++)
        if ((p->ops[i].kind == GL_SCHED_LAUNCH || p->ops[i].kind == GL_SCHED_COPY) && !isnan(rs[i]))
            w[2 * n] = rs[i] - p->ops[i].submit_ns, w[2 * n + 1] = i, n++;
    qsort(w, (size_t)n, 2 * sizeof(double), by_wait);
    printf("\nwaited longest in the recording (its start less its call's return), and what held it in the replay:\n");
    printf("| op | what | stream | waited us | replay waited us | held by |\n|---:|---|---:|---:|---:|---|\n");
    for (int k = 0; k < n && k < N; k++) {
        int i = (int)w[2 * k + 1];
        const gl_sched_op *o = &p->ops[i];
        char why[200];
        explain_one(p, m, i, why, sizeof why);
        printf("| %d | %s | %d | %.1f | %.1f | %s |\n", i, op_what(o), o->stream, w[2 * k] / 1e3,
               (o->start_ns - o->submit_ns) / 1e3, why);
    }
    free(w);
}

/* The model's machine for the trace's GPU at C connections. Copies and kernels run at their recorded times, so
 * the link's sharing is already in them: the shared speeds are the alone ones. */
