/* trace.c - Chrome trace-event export and the terminal timeline. */
#include "trace.h"
#include "gl_common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void gl_trace_init(gl_trace *t) { memset(t, 0, sizeof *t); }

void gl_trace_free(gl_trace *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

/* Append formatted text to the trace buffer. */
static int emit(gl_trace *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->len;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return -1;
        if (t->buf && (size_t)n < room) {
            t->len += (size_t)n;
            return 0;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + (size_t)n + 1) cap *= 2;
        char *p = (char *)realloc(t->buf, cap);
        if (!p) return -1;
        t->buf = p;
        t->cap = cap;
    }
}

/* Append s as a JSON string; names come from experiments but are still escaped. */
static int emit_string(gl_trace *t, const char *s)
{
    if (emit(t, "\"")) return -1;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int rc;
        if (*p == '"' || *p == '\\') rc = emit(t, "\\%c", *p);
        else if (*p < 0x20) rc = emit(t, "\\u%04x", *p);
        else rc = emit(t, "%c", *p);
        if (rc) return -1;
    }
    return emit(t, "\"");
}

static const char *label_name(const gl_names *names, int label, char *buf, size_t n)
{
    if (names && label >= 0 && label < names->n_labels) return names->labels[label];
    snprintf(buf, n, "kernel %d", label);
    return buf;
}

int gl_trace_add(gl_trace *t, const char *run_name, const gl_timeline *tl, const gl_span *spans,
                 int n_spans, const gl_names *names)
{
    int pid = ++t->runs;
    const char *track = names && names->track ? names->track : "stream";
    int rc = 0;
    rc |= emit(t, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":", t->len ? ",\n" : "", pid);
    rc |= emit_string(t, run_name);
    rc |= emit(t, "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}", pid, pid);
    for (int s = 0; s < tl->n_tracks; s++) {
        char name[64];
        snprintf(name, sizeof name, "%s %d", track, s);
        rc |= emit(t, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", pid, s);
        rc |= emit_string(t, name);
        rc |= emit(t, "}}");
    }
    for (int i = 0; i < tl->n; i++) {
        const gl_interval *k = &tl->k[i];
        char buf[32];
        /* Trace-event times are microseconds; three decimals keep the nanoseconds. */
        rc |= emit(t, ",\n{\"name\":");
        rc |= emit_string(t, label_name(names, k->label, buf, sizeof buf));
        rc |= emit(t,
                   ",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,"
                   "\"args\":{\"kernel\":%d,\"parent\":%d,\"blocks\":%d,\"threads\":%d,\"sm\":%d",
                   pid, k->stream, k->start_ns / 1e3, (k->end_ns - k->start_ns) / 1e3, k->kernel, k->parent,
                   k->blocks, k->threads, k->smid);
        int listed = 0;
        for (int j = 0; j < n_spans; j++) {
            if (spans[j].block < 0 || spans[j].kernel != k->kernel || spans[j].start_ns == GL_SPAN_EMPTY) continue;
            rc |= emit(t, listed ? ",%d" : ",\"block_sms\":[%d", spans[j].smid);
            listed++;
        }
        rc |= emit(t, listed ? "]}}" : "}}");
    }
    return rc ? -1 : 0;
}

int gl_trace_write(const gl_trace *t, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
    if (t->len) fwrite(t->buf, 1, t->len, f);
    fputs("\n]}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    return bad ? -1 : 0;
}

void gl_timeline_draw(FILE *f, const char *title, const gl_timeline *tl, const gl_names *names,
                      int width)
{
    const char *track = names && names->track ? names->track : "stream";
    double span = tl->makespan_ns > 0 ? tl->makespan_ns : 1;
    fprintf(f, "timeline: %s  (0 .. %.3f ms, one column = %.3f ms, %d kernels, peak %d at once)\n", title,
            tl->makespan_ns / 1e6, span / width / 1e6, tl->n, tl->peak_concurrency);
    char *row = (char *)malloc((size_t)width + 1);
    if (!row) return;
    for (int s = 0; s < tl->n_tracks; s++) {
        for (int c = 0; c < width; c++) {
            double mid = (c + 0.5) * span / width;
            int count = 0, label = -1;
            for (int i = 0; i < tl->n; i++) {
                const gl_interval *k = &tl->k[i];
                if (k->stream != s || k->start_ns > mid || k->end_ns <= mid) continue;
                count++;
                label = k->label;
            }
            if (count == 0) row[c] = '.';
            else if (count > 1) row[c] = count > 9 ? '+' : (char)('0' + count);
            else row[c] = label >= 0 && label < 26 ? (char)('A' + label) : '*';
        }
        /* A kernel shorter than a column covers no midpoint: still show it, in
         * the column where it started, if that column is otherwise idle. */
        for (int i = 0; i < tl->n; i++) {
            const gl_interval *k = &tl->k[i];
            if (k->stream != s) continue;
            int c = (int)(k->start_ns / span * width);
            if (c >= width) c = width - 1;
            if (row[c] == '.') row[c] = k->label >= 0 && k->label < 26 ? (char)('a' + k->label) : '*';
        }
        row[width] = '\0';
        fprintf(f, "  %s %3d |%s|\n", track, s, row);
    }
    free(row);
    if (names && names->n_labels > 0) {
        fputs("  legend:", f);
        for (int l = 0; l < names->n_labels && l < 26; l++) fprintf(f, " %c=%s", 'A' + l, names->labels[l]);
        fputs("; lower case: shorter than a column; digits: kernels overlapping on one track; '.': idle\n", f);
    }
}

void gl_show_run(gl_trace *t, const gl_common *common, const char *title, const gl_timeline *tl,
                 const gl_span *spans, int n_spans, const gl_names *names)
{
    if (common->timeline) gl_timeline_draw(stdout, title, tl, names, 72);
    if (common->trace_path && gl_trace_add(t, title, tl, spans, n_spans, names))
        gl_die(GL_EXIT_CHECK, "out of host memory for the trace");
}

void gl_trace_finish(gl_trace *t, const gl_common *common)
{
    if (common->trace_path) {
        if (gl_trace_write(t, common->trace_path)) gl_die(GL_EXIT_CHECK, "cannot write %s", common->trace_path);
        printf("trace: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", common->trace_path);
    }
    gl_trace_free(t);
}
