/* trace.c - names, Chrome trace-event export and the terminal timeline. */
#include "gl_trace.h"

#include <stdlib.h>
#include <string.h>

/* ---- names ---------------------------------------------------------------------- */

int gl_name_pattern_ok(const char *pattern)
{
    if (!pattern) return 0;
    int ints = 0;
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') continue;
        p++;
        if (*p == '%') continue;
        if (*p == 'd' || *p == 'i') ints++;
        else return 0; /* widths, flags and other conversions would need their own arguments */
    }
    return ints == 1;
}

/* index through a pattern or a callback; fallback when neither is given. */
static void name_of(const char *pattern, gl_name_fn fn, const void *ctx, const char *fallback, int index,
                    gl_buf *out)
{
    if (fn) {
        fn(index, out, ctx);
        return;
    }
    if (!pattern) {
        gl_buf_printf(out, "%s %d", fallback, index);
        return;
    }
    if (!gl_name_pattern_ok(pattern))
        gl_die(GL_EXIT_INTERNAL, "name pattern '%s' needs exactly one %%d and no other conversion", pattern);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    gl_buf_printf(out, pattern, index); /* checked just above: one integer conversion */
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}

void gl_label_name(const gl_names *n, int label, gl_buf *out)
{
    name_of(n ? n->label_pattern : NULL, n ? n->label_fn : NULL, n ? n->label_ctx : NULL, "label", label, out);
}

void gl_track_name(const gl_names *n, int track, gl_buf *out)
{
    name_of(n ? n->track_pattern : NULL, n ? n->track_fn : NULL, n ? n->track_ctx : NULL, "track", track, out);
}

/* ---- the Chrome trace ------------------------------------------------------------- */

void gl_trace_init(gl_trace *t) { memset(t, 0, sizeof *t); }

void gl_trace_free(gl_trace *t)
{
    gl_buf_free(&t->events);
    memset(t, 0, sizeof *t);
}

static const char *const kind_names[] = {"kernel", "copy", "marker", "host"};

static int block_record_by_kernel(const void *a, const void *b)
{
    const gl_span *x = *(const gl_span *const *)a, *y = *(const gl_span *const *)b;
    if (x->kernel != y->kernel) return (x->kernel > y->kernel) - (x->kernel < y->kernel);
    return (x->block > y->block) - (x->block < y->block);
}

/* The lanes of one track: intervals that overlap go to different lanes. */
typedef struct lanes {
    double *end; /* when each lane's last interval ends */
    int *tid;    /* the trace thread of each lane */
    int n, cap;  /* lanes in use, and allocated */
} lanes;

/* Give every interval a trace thread (tid) so that no two on one thread
 * overlap: slices on one thread must nest, and grids of one depth overlap
 * freely. Lane 0 of track s is tid s; further lanes get tids after the
 * tracks, named "<track> #<lane>". Greedy first-fit over the start order
 * uses the fewest lanes. Writes the thread names; returns tids per interval. */
static int *assign_lanes(gl_trace *t, int pid, const gl_timeline *tl, const gl_names *names)
{
    gl_buf *b = &t->events;
    gl_buf name = GL_BUF_INIT;
    int tracks = tl->n_tracks > 0 ? tl->n_tracks : 1, next_tid = tracks;
    lanes *per = (lanes *)gl_xcalloc((size_t)tracks, sizeof(lanes));
    int *tid = (int *)gl_xcalloc((size_t)tl->n, sizeof(int));
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        int s = k->stream >= 0 ? k->stream : 0;
        lanes *l = &per[s];
        int lane = 0;
        while (lane < l->n && l->end[lane] > k->start_ns) lane++;
        if (lane == l->n) {
            int c = l->cap;
            gl_grow((void **)&l->end, &l->cap, l->n + 1, sizeof(double));
            gl_grow((void **)&l->tid, &c, l->n + 1, sizeof(int));
            l->tid[lane] = lane == 0 ? s : next_tid++;
            l->n++;
        }
        l->end[lane] = k->end_ns;
        tid[i] = l->tid[lane];
    }
    for (int s = 0; s < tracks; s++) {
        for (int lane = 0; lane < (per[s].n ? per[s].n : 1); lane++) {
            name.len = 0;
            gl_track_name(names, s, &name);
            if (lane > 0) gl_buf_printf(&name, " #%d", lane);
            int id = per[s].n ? per[s].tid[lane] : s;
            gl_buf_printf(b, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", pid,
                          id);
            gl_buf_json_string(b, gl_buf_str(&name));
            gl_buf_printf(b, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                             "\"args\":{\"sort_index\":%lld}}",
                          pid, id, (long long)s * 1000000 + lane);
        }
        free(per[s].end);
        free(per[s].tid);
    }
    free(per);
    gl_buf_free(&name);
    return tid;
}

void gl_trace_add(gl_trace *t, const char *run_name, const gl_timeline *tl, const gl_span *spans, int n_spans,
                  const gl_names *names)
{
    gl_buf *b = &t->events;
    gl_buf name = GL_BUF_INIT;
    int pid = ++t->runs;
    gl_buf_printf(b, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":", b->len ? ",\n" : "",
                  pid);
    gl_buf_json_string(b, run_name);
    gl_buf_printf(b, "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
                  pid, pid);
    int *tid = assign_lanes(t, pid, tl, names);

    /* Block records grouped by kernel id, so each slice finds its blocks by
     * binary search: O(n log n) for 10^5 grids. */
    int nb = 0;
    for (int j = 0; j < n_spans; j++) nb += spans[j].block >= 0 && spans[j].start_ns != GL_SPAN_EMPTY;
    const gl_span **blocks = (const gl_span **)gl_xmalloc(sizeof(gl_span *) * (size_t)(nb ? nb : 1));
    for (int j = 0, m = 0; j < n_spans; j++)
        if (spans[j].block >= 0 && spans[j].start_ns != GL_SPAN_EMPTY) blocks[m++] = &spans[j];
    qsort(blocks, (size_t)nb, sizeof *blocks, block_record_by_kernel);

    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        name.len = 0;
        gl_label_name(names, k->label, &name);
        /* Trace-event times are microseconds; three decimals keep the nanoseconds. */
        gl_buf_puts(b, ",\n{\"name\":");
        gl_buf_json_string(b, gl_buf_str(&name));
        gl_buf_printf(b,
                      ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,"
                      "\"args\":{\"kernel\":%d,\"parent\":%d,\"blocks\":%d,\"threads\":%d,\"sm\":%d",
                      k->kind >= 0 && k->kind < 4 ? kind_names[k->kind] : "kernel", pid, tid[i], k->start_ns / 1e3,
                      (k->end_ns - k->start_ns) / 1e3, k->kernel, k->parent, k->blocks, k->threads, k->smid);
        int lo = 0, hi = nb;
        while (lo < hi) { /* the first block record of this kernel */
            int mid = lo + (hi - lo) / 2;
            if (blocks[mid]->kernel < k->kernel) lo = mid + 1;
            else hi = mid;
        }
        for (int j = lo; j < nb && blocks[j]->kernel == k->kernel; j++)
            gl_buf_printf(b, j == lo ? ",\"block_sms\":[%d" : ",%d", blocks[j]->smid);
        gl_buf_puts(b, lo < nb && blocks[lo]->kernel == k->kernel ? "]}}" : "}}");

        /* A flow arrow from the parent's slice to this one. Its start binds to
         * the slice enclosing it, so it is clamped into the parent's slice
         * (a nanosecond before its end, which the slice does not include). */
        if (k->parent_index >= 0) {
            const gl_interval *p = &tl->k[k->parent_index];
            double last = p->end_ns - 1 > p->start_ns ? p->end_ns - 1 : p->start_ns;
            double from = k->start_ns < last ? k->start_ns : last;
            if (from < p->start_ns) from = p->start_ns;
            int id = ++t->flows;
            gl_buf_printf(b,
                          ",\n{\"name\":\"launch\",\"cat\":\"launch\",\"ph\":\"s\",\"id\":%d,\"pid\":%d,\"tid\":%d,"
                          "\"ts\":%.3f},\n{\"name\":\"launch\",\"cat\":\"launch\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%d,"
                          "\"pid\":%d,\"tid\":%d,\"ts\":%.3f}",
                          id, pid, tid[k->parent_index], from / 1e3, id, pid, tid[i], k->start_ns / 1e3);
        }
    }
    free(tid);
    free(blocks);
    gl_buf_free(&name);
}

int gl_trace_write(const gl_trace *t, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
    fwrite(gl_buf_str(&t->events), 1, t->events.len, f);
    fputs("\n]}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    return bad ? -1 : 0;
}

/* ---- the text timeline ------------------------------------------------------------ */

static char letter(int label, int lower)
{
    if (label < 0) return '*';
    return (char)((lower ? 'a' : 'A') + label % 26);
}

void gl_timeline_draw(FILE *f, const char *title, const gl_timeline *tl, const gl_names *names, int width)
{
    double span = tl->makespan_ns > 0 ? tl->makespan_ns : 1;
    fprintf(f, "timeline: %s  (0 .. %.3f ms, one column = %.3f ms, %d intervals, peak %d at once)\n", title,
            tl->makespan_ns / 1e6, span / width / 1e6, tl->n, tl->peak_concurrency);
    int tracks = tl->n_tracks;
    /* Per track and column: how many intervals cover the column's midpoint, and
     * the label of the last one. Each interval touches only its own columns. */
    int *count = (int *)gl_xcalloc((size_t)tracks * (size_t)width, sizeof(int));
    int *label = (int *)gl_xcalloc((size_t)tracks * (size_t)width, sizeof(int));
    char *rows = (char *)gl_xmalloc((size_t)tracks * (size_t)(width + 1));
    int max_label = -1;
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        if (k->stream < 0) continue;
        if (k->label > max_label) max_label = k->label;
        /* columns c with start <= mid(c) < end, mid(c) = (c + 0.5) * span / width */
        int c0 = (int)(k->start_ns / span * width - 0.5);
        if (c0 < 0) c0 = 0;
        for (int c = c0; c < width; c++) {
            double mid = (c + 0.5) * span / width;
            if (mid < k->start_ns) continue;
            if (mid >= k->end_ns) break;
            count[(size_t)k->stream * width + c]++;
            label[(size_t)k->stream * width + c] = k->label;
        }
    }
    for (int s = 0; s < tracks; s++) {
        char *row = rows + (size_t)s * (width + 1);
        for (int c = 0; c < width; c++) {
            int n = count[(size_t)s * width + c];
            row[c] = n == 0 ? '.' : n > 1 ? (n > 9 ? '+' : (char)('0' + n)) : letter(label[(size_t)s * width + c], 0);
        }
        row[width] = '\0';
    }
    /* An interval shorter than a column covers no midpoint: still show it, in
     * the column where it started, if that column is otherwise idle. */
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        if (k->stream < 0) continue;
        int c = (int)(k->start_ns / span * width);
        if (c >= width) c = width - 1;
        char *cell = &rows[(size_t)k->stream * (width + 1) + c];
        if (*cell == '.') *cell = letter(k->label, 1);
    }
    gl_buf name = GL_BUF_INIT;
    for (int s = 0; s < tracks; s++) {
        name.len = 0;
        gl_track_name(names, s, &name);
        fprintf(f, "  %12s |%s|\n", gl_buf_str(&name), rows + (size_t)s * (width + 1));
    }
    int n_labels = names && names->n_labels > 0 ? names->n_labels : max_label + 1;
    if (n_labels > 0) {
        fputs("  legend:", f);
        for (int l = 0; l < 26 && l < n_labels; l++) {
            fprintf(f, " %c=", letter(l, 0));
            for (int m = l; m < n_labels; m += 26) {
                name.len = 0;
                gl_label_name(names, m, &name);
                fprintf(f, "%s%s", m == l ? "" : "/", gl_buf_str(&name));
            }
        }
        fputs("; lower case: shorter than a column; digits: intervals overlapping on one track; '.': idle\n", f);
    }
    gl_buf_free(&name);
    free(count);
    free(label);
    free(rows);
}

void gl_show_run(gl_trace *t, const gl_common *common, const char *title, const gl_timeline *tl,
                 const gl_span *spans, int n_spans, const gl_names *names)
{
    if (common->timeline) gl_timeline_draw(stdout, title, tl, names, 72);
    if (common->trace_path) gl_trace_add(t, title, tl, spans, n_spans, names);
}

void gl_trace_finish(gl_trace *t, const gl_common *common, gl_report *r)
{
    if (common->trace_path) {
        if (gl_trace_write(t, common->trace_path) == 0) {
            printf("trace: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", common->trace_path);
        } else {
            fprintf(stderr, "error: cannot write the trace to %s\n", common->trace_path);
            r->io_failed = 1;
        }
    }
    gl_trace_free(t);
}
