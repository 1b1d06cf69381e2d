/* timeline.c - intervals, concurrency, ordering and lineage facts from spans. */
#include "gl_timeline.h"
#include "gl_common.h"

#include <math.h>
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
    sweep_event *ev = (sweep_event *)gl_xmalloc(sizeof(sweep_event) * (size_t)(2 * tl->n + 1));
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
int gl_filter_kind(const gl_interval *k, const void *kind) { return k->kind == *(const int *)kind; }

/* An id and where it is, sorted by id: the lookup table, with no global state. */
typedef struct id_index {
    int id;    /* a kernel id */
    int index; /* its interval's index in the timeline */
} id_index;

static int by_id(const void *a, const void *b)
{
    int x = ((const id_index *)a)->id, y = ((const id_index *)b)->id;
    return (x > y) - (x < y);
}

int gl_timeline_find(const gl_timeline *tl, int id)
{
    int lo = 0, hi = tl->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, k = tl->k[tl->by_id[mid]].kernel;
        if (k == id) return tl->by_id[mid];
        if (k < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static int is_kernel(const gl_interval *k, const void *unused)
{
    (void)unused;
    return k->kind == GL_SPAN_KERNEL;
}

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
    tl->k = (gl_interval *)gl_xcalloc((size_t)m, sizeof(gl_interval));
    tl->by_id = (int *)gl_xcalloc((size_t)m, sizeof(int));
    tl->origin_ns = m ? origin : 0;
    for (int i = 0, j = 0; i < n; i++) {
        const gl_span *s = &spans[i];
        if (s->block != -1 || s->start_ns == GL_SPAN_EMPTY) continue;
        gl_interval *k = &tl->k[j++];
        k->start_ns = (double)(s->start_ns - origin);
        k->end_ns = (double)(gl_span_end(s) - origin);
        k->kind = s->kind < 0 ? GL_SPAN_KERNEL : s->kind;
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
    id_index *ids = (id_index *)gl_xcalloc((size_t)m, sizeof(id_index));
    for (int i = 0; i < m; i++) ids[i] = (id_index){tl->k[i].kernel, i};
    qsort(ids, (size_t)m, sizeof(id_index), by_id);
    int duplicate = 0;
    for (int i = 0; i < m; i++) {
        tl->by_id[i] = ids[i].index;
        duplicate |= i > 0 && ids[i].id == ids[i - 1].id;
    }
    free(ids);
    if (duplicate) { /* two records claim one id: the lookup would be a guess */
        gl_timeline_free(tl);
        return -1;
    }
    /* The summaries describe kernels: host, copy and marker intervals share
     * the axis but neither occupy the GPU's SMs nor count as concurrency. */
    double first_start = 0, last_end = 0;
    int kernels = 0;
    for (int i = 0; i < m; i++) {
        gl_interval *k = &tl->k[i];
        k->parent_index = k->parent >= 0 ? gl_timeline_find(tl, k->parent) : -1;
        if (k->stream + 1 > tl->n_tracks) tl->n_tracks = k->stream + 1;
        if (k->kind != GL_SPAN_KERNEL) continue;
        if (kernels++ == 0) first_start = k->start_ns; /* sorted by start */
        if (k->end_ns > last_end) last_end = k->end_ns;
        tl->sum_ns += k->end_ns - k->start_ns;
    }
    tl->makespan_ns = kernels ? last_end - first_start : 0;
    sweep(tl, is_kernel, NULL, &tl->peak_concurrency, &tl->busy_ns);
    tl->avg_concurrency = tl->makespan_ns > 0 ? tl->sum_ns / tl->makespan_ns : 0;
    return m;
}

void gl_timeline_free(gl_timeline *tl)
{
    free(tl->k);
    free(tl->by_id);
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
    o.slack_ns = slack_ns;
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

gl_lineage gl_timeline_lineage(const gl_timeline *tl, gl_filter f, const void *arg, double slack_ns)
{
    gl_lineage l;
    memset(&l, 0, sizeof l);
    l.worst_margin_ns = INFINITY;
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *c = &tl->k[i];
        if (c->parent < 0 || !f(c, arg)) continue;
        if (c->parent_index < 0) {
            l.orphans++;
            continue;
        }
        double margin = c->start_ns - tl->k[c->parent_index].end_ns;
        l.pairs++;
        l.after += margin >= -slack_ns;
        if (margin < l.worst_margin_ns) l.worst_margin_ns = margin;
    }
    if (l.pairs == 0) l.worst_margin_ns = 0;
    return l;
}

int gl_timeline_peak(const gl_timeline *tl, gl_filter f, const void *arg)
{
    int peak;
    double busy;
    sweep(tl, f, arg, &peak, &busy);
    return peak;
}

/* Whether at least k intervals run at every instant of some stretch of at
 * least min_ns, over the sorted events ev[0..m-1]. */
static int lasts(const sweep_event *ev, int m, int k, double min_ns)
{
    int cur = 0;
    double from = 0;
    for (int i = 0; i < m; i++) {
        int before = cur;
        cur += ev[i].delta;
        if (before < k && cur >= k) from = ev[i].t;
        if (before >= k && cur < k && ev[i].t - from >= min_ns) return 1;
    }
    return 0;
}

int gl_timeline_peak_lasting(const gl_timeline *tl, gl_filter f, const void *arg, double min_ns)
{
    sweep_event *ev = (sweep_event *)gl_xmalloc(sizeof(sweep_event) * (size_t)(2 * tl->n + 1));
    int m = 0, hi = 0, cur = 0;
    for (int i = 0; i < tl->n; i++) {
        if (!f(&tl->k[i], arg)) continue;
        ev[m++] = (sweep_event){tl->k[i].start_ns, +1};
        ev[m++] = (sweep_event){tl->k[i].end_ns, -1};
    }
    qsort(ev, (size_t)m, sizeof *ev, by_time_ends_first);
    for (int i = 0; i < m; i++) {
        cur += ev[i].delta;
        if (cur > hi) hi = cur;
    }
    /* "k at once for min_ns" only gets harder as k grows: search for the largest k. */
    int lo = 0;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (lasts(ev, m, mid, min_ns))
            lo = mid;
        else
            hi = mid - 1;
    }
    free(ev);
    return lo;
}

/* ---- clocks --------------------------------------------------------------------- */

gl_clock_align gl_clock_align_from(const double *host_before, const double *host_after,
                                   const unsigned long long *device_ns, int n)
{
    gl_clock_align a;
    memset(&a, 0, sizeof a);
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (host_after[i] < host_before[i]) continue;
        if (best < 0 || host_after[i] - host_before[i] < host_after[best] - host_before[best]) best = i;
    }
    if (best < 0) return a;
    /* The device read its clock somewhere inside the trip: the midpoint is the
     * best guess, wrong by at most half the trip. */
    double mid = 0.5 * (host_before[best] + host_after[best]);
    a.offset_ns = (double)device_ns[best] - mid;
    a.uncertainty_ns = 0.5 * (host_after[best] - host_before[best]);
    a.rounds = n;
    a.valid = 1;
    return a;
}

gl_span gl_host_span(const gl_clock_align *a, double host_start_ns, double host_end_ns, int label, int track,
                     int id)
{
    gl_span s;
    memset(&s, 0xFF, sizeof s);
    s.start_ns = (unsigned long long)llround(host_start_ns + a->offset_ns);
    s.end_inv_ns = ~(unsigned long long)llround(host_end_ns + a->offset_ns);
    s.label = label;
    s.stream = track;
    s.kernel = id;
    s.parent = -1;
    s.blocks = 0;
    s.threads = 0;
    s.smid = -1;
    s.block = -1;
    s.kind = GL_SPAN_HOST;
    return s;
}
