/* timeline.c - kernel intervals, concurrency and ordering facts from spans. */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

static int by_start(const void *a, const void *b)
{
    const gl_interval *x = (const gl_interval *)a, *y = (const gl_interval *)b;
    if (x->start_ns != y->start_ns) return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
    return (x->kernel > y->kernel) - (x->kernel < y->kernel);
}

/* A sweep event: +1 at a start, -1 at an end. */
typedef struct { double t; int delta; } sweep_event;

static int by_time_ends_first(const void *a, const void *b)
{
    const sweep_event *x = (const sweep_event *)a, *y = (const sweep_event *)b;
    if (x->t != y->t) return (x->t > y->t) - (x->t < y->t);
    return x->delta - y->delta; /* an end (-1) before a start (+1) at the same instant */
}

/* Peak overlap and union length of the chosen intervals. */
static void sweep(const gl_timeline *tl, gl_filter f, const void *arg, int *peak, double *busy)
{
    *peak = 0;
    *busy = 0;
    sweep_event *ev = (sweep_event *)malloc(sizeof(sweep_event) * (size_t)(2 * tl->n + 1));
    if (!ev) return;
    int m = 0;
    for (int i = 0; i < tl->n; i++) {
        if (!f(&tl->k[i], arg)) continue;
        ev[m++] = (sweep_event){tl->k[i].start_ns, +1};
        ev[m++] = (sweep_event){tl->k[i].end_ns, -1};
    }
    qsort(ev, (size_t)m, sizeof *ev, by_time_ends_first);
    int cur = 0;
    double open_at = 0;
    for (int i = 0; i < m; i++) {
        if (cur == 0 && ev[i].delta > 0) open_at = ev[i].t;
        cur += ev[i].delta;
        if (cur > *peak) *peak = cur;
        if (cur == 0 && ev[i].delta < 0) *busy += ev[i].t - open_at;
    }
    free(ev);
}

int gl_filter_all(const gl_interval *k, const void *unused) { (void)k; (void)unused; return 1; }
int gl_filter_label(const gl_interval *k, const void *label) { return k->label == *(const int *)label; }
int gl_filter_not_label(const gl_interval *k, const void *label) { return k->label != *(const int *)label; }
int gl_filter_stream(const gl_interval *k, const void *stream) { return k->stream == *(const int *)stream; }

int gl_timeline_build(gl_timeline *tl, const gl_span *spans, int n)
{
    memset(tl, 0, sizeof *tl);
    int m = 0;
    unsigned long long origin = GL_SPAN_EMPTY;
    for (int i = 0; i < n; i++) {
        if (spans[i].block != -1 || spans[i].start_ns == GL_SPAN_EMPTY) continue;
        if (gl_span_end(&spans[i]) < spans[i].start_ns) return -1;
        if (spans[i].start_ns < origin) origin = spans[i].start_ns;
        m++;
    }
    tl->k = (gl_interval *)calloc((size_t)(m ? m : 1), sizeof(gl_interval));
    if (!tl->k) return -1;
    tl->origin_ns = m ? origin : 0;
    for (int i = 0, j = 0; i < n; i++) {
        const gl_span *s = &spans[i];
        if (s->block != -1 || s->start_ns == GL_SPAN_EMPTY) continue;
        gl_interval *k = &tl->k[j++];
        k->start_ns = (double)(s->start_ns - origin);
        k->end_ns = (double)(gl_span_end(s) - origin);
        k->label = s->label;
        k->stream = s->stream;
        k->kernel = s->kernel;
        k->parent = s->parent;
        k->blocks = s->blocks;
        k->threads = s->threads;
        k->smid = s->smid;
    }
    tl->n = m;
    qsort(tl->k, (size_t)m, sizeof(gl_interval), by_start);
    double last_end = 0;
    for (int i = 0; i < m; i++) {
        if (tl->k[i].end_ns > last_end) last_end = tl->k[i].end_ns;
        tl->sum_ns += tl->k[i].end_ns - tl->k[i].start_ns;
        if (tl->k[i].stream + 1 > tl->n_tracks) tl->n_tracks = tl->k[i].stream + 1;
    }
    tl->makespan_ns = m ? last_end : 0; /* the earliest start is 0 by construction */
    sweep(tl, gl_filter_all, NULL, &tl->peak_concurrency, &tl->busy_ns);
    tl->avg_concurrency = tl->makespan_ns > 0 ? tl->sum_ns / tl->makespan_ns : 0;
    return m;
}

void gl_timeline_free(gl_timeline *tl)
{
    free(tl->k);
    memset(tl, 0, sizeof *tl);
}

gl_track gl_timeline_track(const gl_timeline *tl, int stream)
{
    gl_track t;
    memset(&t, 0, sizeof t);
    t.stream = stream;
    int peak;
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        if (k->stream != stream) continue;
        if (t.count == 0 || k->start_ns < t.first_start_ns) t.first_start_ns = k->start_ns;
        if (t.count == 0 || k->end_ns > t.last_end_ns) t.last_end_ns = k->end_ns;
        t.count++;
    }
    sweep(tl, gl_filter_stream, &stream, &peak, &t.busy_ns);
    return t;
}

gl_order gl_timeline_after(const gl_timeline *tl, gl_filter a, const void *a_arg, gl_filter b,
                           const void *b_arg, double slack_ns)
{
    gl_order o;
    memset(&o, 0, sizeof o);
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        if (a(k, a_arg)) {
            if (o.n_a == 0 || k->start_ns < o.a_first_start_ns) o.a_first_start_ns = k->start_ns;
            o.n_a++;
        }
        if (b(k, b_arg)) {
            if (o.n_b == 0 || k->end_ns > o.b_last_end_ns) o.b_last_end_ns = k->end_ns;
            o.n_b++;
        }
    }
    o.margin_ns = o.a_first_start_ns - o.b_last_end_ns;
    /* An empty set proves nothing, so the fact does not hold vacuously. */
    o.holds = o.n_a > 0 && o.n_b > 0 && o.margin_ns >= -slack_ns;
    return o;
}

int gl_timeline_peak(const gl_timeline *tl, gl_filter f, const void *arg)
{
    int peak;
    double busy;
    sweep(tl, f, arg, &peak, &busy);
    return peak;
}
