/* report.c - rows, claims, verdicts, and the table, JSON and CSV generated from them. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gl_verdict_name(gl_verdict v)
{
    switch (v) {
    case GL_PASS: return "PASS";
    case GL_FAIL: return "FAIL";
    case GL_SKIP: return "SKIP";
    default: return "NONE";
    }
}

/* printf into a fresh heap string. */
static char *vformat(const char *fmt, va_list ap)
{
    gl_buf b = GL_BUF_INIT;
    gl_buf_vprintf(&b, fmt, ap);
    char *s = gl_xstrdup(gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

static char *format(const char *fmt, ...) GL_PRINTF(1, 2);
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    return s;
}

static void value_free(gl_value *v)
{
    free(v->name);
    free(v->unit);
    free(v->text);
}

static void values_free(gl_value *v, int n)
{
    for (int i = 0; i < n; i++) value_free(&v[i]);
    free(v);
}

void gl_report_init(gl_report *r, const char *experiment, const gl_common *common)
{
    memset(r, 0, sizeof *r);
    r->experiment = gl_xstrdup(experiment);
    if (common) {
        r->skip_timing = common->skip_timing_claims;
        r->json_path = common->json_path;
        r->csv_path = common->csv_path;
    }
}

void gl_report_free(gl_report *r)
{
    for (int i = 0; i < r->n_rows; i++) {
        gl_row *row = r->rows[i];
        values_free(row->values, row->n_values);
        values_free(row->device, row->n_device);
        free(row->table);
        free(row->variant);
        free(row->time_value);
        free(row->skip_reason);
        free(row);
    }
    for (int i = 0; i < r->n_claims; i++) {
        free(r->claims[i].text);
        free(r->claims[i].evidence);
        free(r->claims[i].unit);
    }
    values_free(r->device, r->n_device);
    free(r->rows);
    free(r->claims);
    free(r->experiment);
    memset(r, 0, sizeof *r);
}

/* Append a value to an array and return it, zeroed but for its name and unit. */
static gl_value *push_value(gl_value **arr, int *n, int *cap, const char *name, const char *unit)
{
    gl_grow((void **)arr, cap, *n + 1, sizeof(gl_value));
    gl_value *v = &(*arr)[(*n)++];
    memset(v, 0, sizeof *v);
    v->name = gl_xstrdup(name);
    v->unit = gl_xstrdup(unit ? unit : "");
    v->precision = -1;
    return v;
}

void gl_report_device(gl_report *r, const char *key, const char *fmt, ...)
{
    gl_value *v = push_value(&r->device, &r->n_device, &r->cap_device, key, "");
    v->type = GL_VALUE_TEXT;
    va_list ap;
    va_start(ap, fmt);
    v->text = vformat(fmt, ap);
    va_end(ap);
}

void gl_report_set_peak(gl_report *r, double gbps) { r->peak_gbps = gbps; }

/* ---- rows ---------------------------------------------------------------------- */

gl_row *gl_report_row(gl_report *r, const char *table, const char *variant)
{
    gl_row *row = (gl_row *)gl_xcalloc(1, sizeof *row);
    row->table = gl_xstrdup(table);
    row->variant = gl_xstrdup(variant);
    row->index = r->n_rows;
    gl_grow((void **)&r->rows, &r->cap_rows, r->n_rows + 1, sizeof(gl_row *));
    r->rows[r->n_rows++] = row;
    return row;
}

static gl_value *row_value(gl_row *row, const char *name, const char *unit)
{
    return push_value(&row->values, &row->n_values, &row->cap_values, name, unit);
}

void gl_row_param(gl_row *row, const char *name, const char *fmt, ...)
{
    gl_value *v = row_value(row, name, "");
    v->type = GL_VALUE_TEXT;
    v->is_param = 1;
    va_list ap;
    va_start(ap, fmt);
    v->text = vformat(fmt, ap);
    va_end(ap);
}

void gl_row_param_num(gl_row *row, const char *name, const char *unit, int precision, double x)
{
    gl_value *v = row_value(row, name, unit);
    v->type = GL_VALUE_NUMBER;
    v->is_param = 1;
    v->number = x;
    v->precision = precision;
}

void gl_row_stats(gl_row *row, const char *name, const char *unit, int precision, unsigned flags, gl_stats s)
{
    gl_value *v = row_value(row, name, unit);
    v->type = GL_VALUE_STATS;
    v->stats = s;
    v->precision = precision;
    v->flags = flags;
}

void gl_row_number(gl_row *row, const char *name, const char *unit, int precision, unsigned flags, double x)
{
    gl_value *v = row_value(row, name, unit);
    v->type = GL_VALUE_NUMBER;
    v->number = x;
    v->precision = precision;
    v->flags = flags;
}

void gl_row_text(gl_row *row, const char *name, unsigned flags, const char *fmt, ...)
{
    gl_value *v = row_value(row, name, "");
    v->type = GL_VALUE_TEXT;
    v->flags = flags;
    va_list ap;
    va_start(ap, fmt);
    v->text = vformat(fmt, ap);
    va_end(ap);
}

const gl_value *gl_row_find(const gl_row *row, const char *name)
{
    for (int i = 0; i < row->n_values; i++)
        if (strcmp(row->values[i].name, name) == 0) return &row->values[i];
    return NULL;
}

void gl_row_work(gl_row *row, const char *time_value, double bytes, double elements)
{
    free(row->time_value);
    row->time_value = gl_xstrdup(time_value);
    row->bytes = bytes;
    row->elements = elements;
}

void gl_row_skip(gl_row *row, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(row->skip_reason);
    row->skip_reason = vformat(fmt, ap);
    va_end(ap);
    printf("SKIP %s %s: %s\n", row->table, row->variant, row->skip_reason);
    fflush(stdout);
}

/* ---- bandwidth ------------------------------------------------------------------ */

/* Seconds in one unit of a time, or 0 when unit is not a time. */
static double seconds_per(const char *unit)
{
    if (strcmp(unit, "s") == 0) return 1;
    if (strcmp(unit, "ms") == 0) return 1e-3;
    if (strcmp(unit, "us") == 0) return 1e-6;
    if (strcmp(unit, "ns") == 0) return 1e-9;
    return 0;
}

static int has_derived(const gl_row *row)
{
    for (int i = 0; i < row->n_values; i++)
        if (row->values[i].flags & GL_DERIVED) return 1;
    return 0;
}

/* Add GB/s, best GB/s, % of peak and elements/s to a row that declared its work.
 * Done once, just before output, so that the order of gl_row_work and the
 * statistics does not matter. A missing or non-time value is a bug, said so. */
static void derive(const gl_report *r, gl_row *row)
{
    if (row->skip_reason || !row->time_value || has_derived(row)) return;
    if (row->bytes <= 0 && row->elements <= 0) return;
    const gl_value *t = gl_row_find(row, row->time_value);
    if (!t || t->type != GL_VALUE_STATS || seconds_per(t->unit) == 0)
        gl_die(GL_EXIT_CHECK, "row %s/%s declares work per '%s', which is not a statistics value in s, ms, us or ns",
               row->table, row->variant, row->time_value);
    double median_s = t->stats.median * seconds_per(t->unit), min_s = t->stats.min * seconds_per(t->unit);
    if (t->stats.n == 0 || median_s <= 0) return;
    if (row->bytes > 0) {
        double gbps = row->bytes / median_s / 1e9;
        gl_row_number(row, "bandwidth", "GB/s", 1, GL_DERIVED, gbps);
        gl_row_number(row, "bandwidth_best", "GB/s", 1, GL_DERIVED | GL_HIDE, row->bytes / min_s / 1e9);
        if (r->peak_gbps > 0) gl_row_number(row, "peak_fraction", "%", 1, GL_DERIVED, 100 * gbps / r->peak_gbps);
    }
    if (row->elements > 0) gl_row_number(row, "throughput", "Gelem/s", 3, GL_DERIVED, row->elements / median_s / 1e9);
}

static void derive_all(gl_report *r)
{
    for (int i = 0; i < r->n_rows; i++) derive(r, r->rows[i]);
}

/* ---- claims --------------------------------------------------------------------- */

static int counts_as_check(const gl_claim *c) { return c->kind == GL_CLAIM_DATA; }

/* Record a claim for row, decide SKIP for timing claims under
 * --skip-timing-claims, print it, and return its verdict. Takes ownership of
 * the claim's strings. */
static gl_verdict add_claim(gl_report *r, gl_row *row, gl_claim *c)
{
    if (c->kind == GL_CLAIM_TIMING && r->skip_timing && c->verdict != GL_SKIP) {
        char *e = format("%s; not enforced: --skip-timing-claims", c->evidence);
        free(c->evidence);
        c->evidence = e;
        c->verdict = GL_SKIP;
    }
    c->row = row ? row->index : -1;
    if (!c->unit) c->unit = gl_xstrdup("");
    gl_grow((void **)&r->claims, &r->cap_claims, r->n_claims + 1, sizeof(gl_claim));
    r->claims[r->n_claims++] = *c;
    if (!r->quiet_claims) {
        printf("%s %s: %s (%s)\n", counts_as_check(c) ? "CHECK" : "CLAIM", c->text, gl_verdict_name(c->verdict),
               c->evidence);
        fflush(stdout);
    }
    return c->verdict;
}

void gl_report_add_claim(gl_report *r, gl_row *row, const gl_claim *c)
{
    gl_claim copy = *c;
    copy.text = gl_xstrdup(c->text);
    copy.evidence = gl_xstrdup(c->evidence);
    copy.unit = gl_xstrdup(c->unit ? c->unit : "");
    int skip = r->skip_timing;
    r->skip_timing = 0; /* judged already, under the other process's options */
    add_claim(r, row, &copy);
    r->skip_timing = skip;
}

/* A claim with its text; the caller fills in the rest. */
static gl_claim new_claim(gl_claim_kind kind, const char *form, const char *text)
{
    gl_claim c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.form = form;
    c.text = gl_xstrdup(text);
    return c;
}

/* A claim comparing a measurement with a number; the caller decides the verdict. */
static gl_claim quantitative(gl_claim_kind kind, const char *form, const char *text, double predicted,
                             double measured, const char *unit)
{
    gl_claim c = new_claim(kind, form, text);
    c.quantitative = 1;
    c.predicted = predicted;
    c.measured = measured;
    c.unit = gl_xstrdup(unit);
    return c;
}

gl_verdict gl_claim_near(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, double predicted,
                         double measured, double rel_tol, double abs_slack, const char *unit)
{
    gl_claim c = quantitative(kind, "near", text, predicted, measured, unit);
    c.tolerance = rel_tol;
    c.slack = abs_slack;
    double allowed = rel_tol * fabs(predicted) + abs_slack;
    c.verdict = (isfinite(measured) && fabs(measured - predicted) <= allowed) ? GL_PASS : GL_FAIL;
    if (predicted != 0)
        c.evidence = format("predicted %.4g %s, measured %.4g %s (%+.1f%%), allowed +/-%.0f%% + %.3g %s timer slack",
                            predicted, unit, measured, unit, 100.0 * (measured - predicted) / fabs(predicted),
                            100.0 * rel_tol, abs_slack, unit);
    else
        c.evidence = format("predicted 0 %s, measured %.4g %s, allowed +/-%.3g %s", unit, measured, unit, allowed, unit);
    return add_claim(r, row, &c);
}

gl_verdict gl_claim_at_most(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, double measured,
                            double limit, const char *unit)
{
    gl_claim c = quantitative(kind, "at_most", text, limit, measured, unit);
    c.verdict = (isfinite(measured) && measured <= limit) ? GL_PASS : GL_FAIL;
    c.evidence = format("measured %.4g %s, at most %.4g %s", measured, unit, limit, unit);
    return add_claim(r, row, &c);
}

gl_verdict gl_claim_at_least(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, double measured,
                             double limit, const char *unit)
{
    gl_claim c = quantitative(kind, "at_least", text, limit, measured, unit);
    c.verdict = (isfinite(measured) && measured >= limit) ? GL_PASS : GL_FAIL;
    c.evidence = format("measured %.4g %s, at least %.4g %s", measured, unit, limit, unit);
    return add_claim(r, row, &c);
}

/* a / b against bound, at least (sign +1) or at most (sign -1). */
static gl_verdict ratio_claim(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, const char *a_name,
                              double a, const char *b_name, double b, double bound, int sign)
{
    gl_claim c = new_claim(kind, sign > 0 ? "ratio_at_least" : "ratio_at_most", text);
    if (!isfinite(a) || !isfinite(b) || b <= 0) {
        c.verdict = GL_SKIP;
        c.evidence = format("n/a: %s = %.4g and %s = %.4g do not give a ratio", a_name, a, b_name, b);
        return add_claim(r, row, &c);
    }
    double ratio = a / b;
    c.quantitative = 1;
    c.predicted = bound;
    c.measured = ratio;
    c.unit = gl_xstrdup("x");
    c.verdict = (sign > 0 ? ratio >= bound : ratio <= bound) ? GL_PASS : GL_FAIL;
    c.evidence = format("%s / %s = %.4g / %.4g = %.3fx, %s %.3fx", a_name, b_name, a, b, ratio,
                        sign > 0 ? "at least" : "at most", bound);
    return add_claim(r, row, &c);
}

gl_verdict gl_claim_ratio_at_least(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text,
                                   const char *a_name, double a, const char *b_name, double b, double bound)
{
    return ratio_claim(r, row, kind, text, a_name, a, b_name, b, bound, +1);
}

gl_verdict gl_claim_ratio_at_most(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text,
                                  const char *a_name, double a, const char *b_name, double b, double bound)
{
    return ratio_claim(r, row, kind, text, a_name, a, b_name, b, bound, -1);
}

gl_verdict gl_claim_order(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, const gl_order *o,
                          const char *na_reason)
{
    gl_claim c = new_claim(kind, "order", text);
    if (o->n_a == 0 || o->n_b == 0) {
        c.verdict = GL_SKIP;
        c.evidence = format("n/a: %s (%d intervals after, %d before)", na_reason, o->n_a, o->n_b);
        return add_claim(r, row, &c);
    }
    c.verdict = o->holds ? GL_PASS : GL_FAIL;
    c.evidence = format("first start of %d after - last end of %d before = %.3f us (slack %.3f us)", o->n_a, o->n_b,
                        o->margin_ns / 1e3, o->slack_ns / 1e3);
    return add_claim(r, row, &c);
}

gl_verdict gl_claim_every(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, long long held,
                          long long total, const char *what, const char *na_reason)
{
    gl_claim c = new_claim(kind, "every", text);
    if (total <= 0) {
        c.verdict = GL_SKIP;
        c.evidence = format("n/a: %s", na_reason);
    } else {
        c.verdict = held == total ? GL_PASS : GL_FAIL;
        c.evidence = format("%lld of %lld %s", held, total, what);
    }
    return add_claim(r, row, &c);
}

gl_verdict gl_claim_fact(gl_report *r, gl_row *row, gl_claim_kind kind, int holds, const char *text,
                         const char *evidence_fmt, ...)
{
    gl_claim c = new_claim(kind, "fact", text);
    c.verdict = holds ? GL_PASS : GL_FAIL;
    va_list ap;
    va_start(ap, evidence_fmt);
    c.evidence = vformat(evidence_fmt, ap);
    va_end(ap);
    return add_claim(r, row, &c);
}

gl_verdict gl_claim_skip(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, const char *reason_fmt,
                         ...)
{
    gl_claim c = new_claim(kind, "skip", text);
    c.verdict = GL_SKIP;
    va_list ap;
    va_start(ap, reason_fmt);
    c.evidence = vformat(reason_fmt, ap);
    va_end(ap);
    return add_claim(r, row, &c);
}

int gl_check_evidence(gl_report *r, gl_row *row, int ok, const char *text, const char *evidence)
{
    gl_claim c = new_claim(GL_CLAIM_DATA, "check", text);
    c.verdict = ok ? GL_PASS : GL_FAIL;
    c.evidence = gl_xstrdup(evidence);
    add_claim(r, row, &c);
    return ok;
}

int gl_check(gl_report *r, gl_row *row, int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = vformat(fmt, ap);
    va_end(ap);
    gl_check_evidence(r, row, ok, text, ok ? "matches" : "does not match");
    free(text);
    return ok;
}

/* ---- verdicts ---------------------------------------------------------------------- */

gl_tally gl_report_tally(const gl_report *r, int row)
{
    gl_tally t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < r->n_claims; i++) {
        const gl_claim *c = &r->claims[i];
        if (row != GL_TALLY_ALL && c->row != row) continue;
        int *counts = counts_as_check(c) ? &t.checks_passed : &t.claims_passed;
        counts[c->verdict == GL_PASS ? 0 : c->verdict == GL_FAIL ? 1 : 2]++;
    }
    return t;
}

/* The verdict of a set of counts: any failure fails; then anything that passed passes. */
static gl_verdict tally_verdict(gl_tally t, int skipped)
{
    if (t.claims_failed || t.checks_failed) return GL_FAIL;
    if (skipped) return GL_SKIP;
    if (t.claims_passed || t.checks_passed) return GL_PASS;
    if (t.claims_skipped || t.checks_skipped) return GL_SKIP;
    return GL_NO_VERDICT;
}

gl_verdict gl_row_verdict(const gl_report *r, const gl_row *row)
{
    return tally_verdict(gl_report_tally(r, row->index), row->skip_reason != NULL);
}

/* ---- the terminal table --------------------------------------------------------------- */

/* One terminal column: a value's name, and which part of it is shown. */
typedef enum { PART_VALUE, PART_MEDIAN, PART_MIN, PART_NOISE } part;
typedef struct column {
    const char *name; /* the value's name */
    part part;        /* what of it this column shows */
    char *header;     /* title with unit */
    int width;        /* widest cell */
} column;

/* "makespan_ms" -> "makespan ms": headers read as words. */
static char *header_for(const gl_value *v, part p)
{
    gl_buf b = GL_BUF_INIT;
    for (const char *s = v->name; *s; s++) gl_buf_printf(&b, "%c", *s == '_' ? ' ' : *s);
    if (p == PART_MIN) gl_buf_puts(&b, " min");
    if (p == PART_NOISE) gl_buf_puts(&b, " noise %");
    else if (v->unit[0]) gl_buf_printf(&b, " %s", v->unit);
    char *h = gl_xstrdup(gl_buf_str(&b));
    gl_buf_free(&b);
    return h;
}

static void add_column(column **cols, int *n, int *cap, const gl_value *v, part p)
{
    for (int i = 0; i < *n; i++)
        if ((*cols)[i].part == p && strcmp((*cols)[i].name, v->name) == 0) return;
    gl_grow((void **)cols, cap, *n + 1, sizeof(column));
    column *c = &(*cols)[(*n)++];
    c->name = v->name;
    c->part = p;
    c->header = header_for(v, p);
    c->width = (int)strlen(c->header);
}

/* A number as the hint says: fixed precision, or shortest. */
static void put_number(gl_buf *b, double x, int precision)
{
    if (!isfinite(x)) gl_buf_puts(b, "-");
    else if (precision >= 0) gl_buf_printf(b, "%.*f", precision, x);
    else gl_buf_printf(b, "%g", x);
}

/* The text of one cell; "" when the row has no such value. */
static char *cell_text(const gl_row *row, const column *c)
{
    const gl_value *v = gl_row_find(row, c->name);
    gl_buf b = GL_BUF_INIT;
    if (v) {
        switch (c->part) {
        case PART_VALUE:
            if (v->type == GL_VALUE_TEXT) gl_buf_puts(&b, v->text);
            else put_number(&b, v->number, v->precision);
            break;
        case PART_MEDIAN: put_number(&b, v->stats.median, v->precision); break;
        case PART_MIN: put_number(&b, v->stats.min, v->precision); break;
        case PART_NOISE: put_number(&b, 100 * v->stats.rsd, 2); break;
        }
    }
    char *s = gl_xstrdup(gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

/* Numbers are right-aligned so that their digits line up. */
static int looks_numeric(const char *s)
{
    if (!*s) return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789.+-eE", *p)) return 0;
    return strpbrk(s, "0123456789") != NULL;
}

static void print_cell(FILE *f, const char *s, int width)
{
    if (looks_numeric(s)) fprintf(f, "| %*s ", width, s);
    else fprintf(f, "| %-*s ", width, s);
}

/* One markdown table of the rows of one table name. */
static void print_table(const gl_report *r, const char *table, FILE *f)
{
    column *cols = NULL;
    int n = 0, cap = 0;
    gl_value variant = {(char *)"variant", (char *)"", GL_VALUE_TEXT, 1, {0}, 0, NULL, -1, 0};
    add_column(&cols, &n, &cap, &variant, PART_VALUE);
    for (int i = 0; i < r->n_rows; i++) {
        const gl_row *row = r->rows[i];
        if (strcmp(row->table, table) != 0) continue;
        for (int k = 0; k < row->n_values; k++) {
            const gl_value *v = &row->values[k];
            if (v->flags & GL_HIDE) continue;
            if (v->type != GL_VALUE_STATS) {
                add_column(&cols, &n, &cap, v, PART_VALUE);
                continue;
            }
            add_column(&cols, &n, &cap, v, PART_MEDIAN);
            if (v->flags & GL_SHOW_MIN) add_column(&cols, &n, &cap, v, PART_MIN);
            if (v->flags & GL_SHOW_NOISE) add_column(&cols, &n, &cap, v, PART_NOISE);
        }
    }
    gl_value verdict = {(char *)"verdict", (char *)"", GL_VALUE_TEXT, 0, {0}, 0, NULL, -1, 0};
    add_column(&cols, &n, &cap, &verdict, PART_VALUE);

    /* Cells, row-major, so that widths are known before anything is printed. */
    int nrows = 0;
    for (int i = 0; i < r->n_rows; i++) nrows += strcmp(r->rows[i]->table, table) == 0;
    char **cells = (char **)gl_xcalloc((size_t)nrows * (size_t)n, sizeof(char *));
    for (int i = 0, j = 0; i < r->n_rows; i++) {
        const gl_row *row = r->rows[i];
        if (strcmp(row->table, table) != 0) continue;
        for (int c = 0; c < n; c++) {
            char *s;
            if (c == 0) s = gl_xstrdup(row->variant);
            else if (c == n - 1) s = gl_xstrdup(gl_verdict_name(gl_row_verdict(r, row)));
            else s = cell_text(row, &cols[c]);
            if (c == n - 1 && strcmp(s, "NONE") == 0) s[0] = '-', s[1] = '\0';
            int w = (int)strlen(s);
            if (w > cols[c].width) cols[c].width = w;
            cells[(size_t)j * n + c] = s;
        }
        j++;
    }
    fprintf(f, "\n%s:\n", table);
    for (int c = 0; c < n; c++) fprintf(f, "| %-*s ", cols[c].width, cols[c].header);
    fputs("|\n", f);
    for (int c = 0; c < n; c++) {
        fputc('|', f);
        for (int k = 0; k < cols[c].width + 2; k++) fputc('-', f);
    }
    fputs("|\n", f);
    for (int j = 0; j < nrows; j++) {
        for (int c = 0; c < n; c++) print_cell(f, cells[(size_t)j * n + c], cols[c].width);
        fputs("|\n", f);
    }
    for (size_t k = 0; k < (size_t)nrows * (size_t)n; k++) free(cells[k]);
    free(cells);
    for (int c = 0; c < n; c++) free(cols[c].header);
    free(cols);
}

void gl_report_print_tables(gl_report *r, FILE *f)
{
    derive_all(r);
    for (int i = 0; i < r->n_rows; i++) {
        int first = 1;
        for (int k = 0; k < i && first; k++) first = strcmp(r->rows[k]->table, r->rows[i]->table) != 0;
        if (first) print_table(r, r->rows[i]->table, f);
    }
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i]->skip_reason)
            fprintf(f, "skipped: %s %s: %s\n", r->rows[i]->table, r->rows[i]->variant, r->rows[i]->skip_reason);
    fflush(f);
}

/* ---- JSON ----------------------------------------------------------------------------- */

static void json_fields(gl_buf *b, const gl_value *v, int n)
{
    gl_buf_puts(b, "{");
    for (int i = 0; i < n; i++) {
        if (i) gl_buf_puts(b, ",");
        gl_buf_json_string(b, v[i].name);
        gl_buf_puts(b, ":");
        if (v[i].type == GL_VALUE_TEXT) gl_buf_json_string(b, v[i].text);
        else gl_buf_json_number(b, v[i].number);
    }
    gl_buf_puts(b, "}");
}

static void json_stat(gl_buf *b, const char *key, double x)
{
    gl_buf_printf(b, ",\"%s\":", key);
    gl_buf_json_number(b, x);
}

/* A result value: its unit, hint and content. */
static void json_value(gl_buf *b, const gl_value *v)
{
    gl_buf_puts(b, "{\"unit\":");
    gl_buf_json_string(b, v->unit);
    gl_buf_printf(b, ",\"precision\":%d,\"flags\":%u,\"type\":", v->precision, v->flags);
    if (v->type == GL_VALUE_STATS) {
        gl_buf_printf(b, "\"stats\",\"n\":%d", v->stats.n);
        json_stat(b, "min", v->stats.min);
        json_stat(b, "median", v->stats.median);
        json_stat(b, "mean", v->stats.mean);
        json_stat(b, "max", v->stats.max);
        json_stat(b, "stddev", v->stats.stddev);
        json_stat(b, "rsd", v->stats.rsd);
    } else if (v->type == GL_VALUE_NUMBER) {
        gl_buf_puts(b, "\"number\",\"value\":");
        gl_buf_json_number(b, v->number);
    } else {
        gl_buf_puts(b, "\"text\",\"value\":");
        gl_buf_json_string(b, v->text);
    }
    gl_buf_puts(b, "}");
}

static void json_claim(gl_buf *b, const gl_claim *c)
{
    static const char *const kinds[] = {"timing", "ordering", "data"};
    gl_buf_puts(b, "{\"text\":");
    gl_buf_json_string(b, c->text);
    gl_buf_printf(b, ",\"verdict\":\"%s\",\"kind\":\"%s\",\"form\":\"%s\"", gl_verdict_name(c->verdict),
                  kinds[c->kind], c->form);
    if (c->quantitative) {
        json_stat(b, "predicted", c->predicted);
        json_stat(b, "measured", c->measured);
        json_stat(b, "tolerance", c->tolerance);
        json_stat(b, "slack", c->slack);
        gl_buf_puts(b, ",\"unit\":");
        gl_buf_json_string(b, c->unit);
    }
    gl_buf_puts(b, ",\"evidence\":");
    gl_buf_json_string(b, c->evidence);
    gl_buf_puts(b, "}");
}

static void json_claims(gl_buf *b, const gl_report *r, int row)
{
    gl_buf_puts(b, "[");
    int first = 1;
    for (int i = 0; i < r->n_claims; i++) {
        if (r->claims[i].row != row) continue;
        if (!first) gl_buf_puts(b, ",");
        first = 0;
        json_claim(b, &r->claims[i]);
    }
    gl_buf_puts(b, "]");
}

static void json_tally(gl_buf *b, gl_tally t)
{
    gl_buf_printf(b, "{\"claims_passed\":%d,\"claims_failed\":%d,\"claims_skipped\":%d,\"checks_passed\":%d,"
                     "\"checks_failed\":%d,\"checks_skipped\":%d}",
                  t.claims_passed, t.claims_failed, t.claims_skipped, t.checks_passed, t.checks_failed,
                  t.checks_skipped);
}

static gl_verdict run_verdict(const gl_report *r)
{
    gl_verdict v = tally_verdict(gl_report_tally(r, GL_TALLY_ALL), 0);
    return r->io_failed ? GL_FAIL : v;
}

int gl_report_write_json(gl_report *r, FILE *f)
{
    derive_all(r);
    gl_buf b = GL_BUF_INIT;
    gl_buf_puts(&b, "{\"experiment\":");
    gl_buf_json_string(&b, r->experiment);
    gl_buf_printf(&b, ",\"verdict\":\"%s\",\"tally\":", gl_verdict_name(run_verdict(r)));
    json_tally(&b, gl_report_tally(r, GL_TALLY_ALL));
    gl_buf_puts(&b, ",\"peak_gbps\":");
    gl_buf_json_number(&b, r->peak_gbps);
    gl_buf_puts(&b, ",\"device\":");
    json_fields(&b, r->device, r->n_device);
    gl_buf_puts(&b, ",\"rows\":[");
    for (int i = 0; i < r->n_rows; i++) {
        const gl_row *row = r->rows[i];
        gl_buf_puts(&b, i ? ",\n{" : "\n{");
        gl_buf_puts(&b, "\"experiment\":");
        gl_buf_json_string(&b, r->experiment);
        gl_buf_puts(&b, ",\"device\":");
        if (row->device) json_fields(&b, row->device, row->n_device);
        else json_fields(&b, r->device, r->n_device);
        gl_buf_puts(&b, ",\"table\":");
        gl_buf_json_string(&b, row->table);
        gl_buf_puts(&b, ",\"variant\":");
        gl_buf_json_string(&b, row->variant);
        gl_buf_printf(&b, ",\"verdict\":\"%s\",\"skip_reason\":", gl_verdict_name(gl_row_verdict(r, row)));
        if (row->skip_reason) gl_buf_json_string(&b, row->skip_reason);
        else gl_buf_puts(&b, "null");
        gl_buf_puts(&b, ",\"work\":");
        if (row->time_value) {
            gl_buf_puts(&b, "{\"time_value\":");
            gl_buf_json_string(&b, row->time_value);
            json_stat(&b, "bytes", row->bytes);
            json_stat(&b, "elements", row->elements);
            gl_buf_puts(&b, "}");
        } else {
            gl_buf_puts(&b, "null");
        }
        gl_buf_puts(&b, ",\"params\":{");
        int first = 1;
        for (int k = 0; k < row->n_values; k++) {
            const gl_value *v = &row->values[k];
            if (!v->is_param) continue;
            if (!first) gl_buf_puts(&b, ",");
            first = 0;
            gl_buf_json_string(&b, v->name);
            gl_buf_puts(&b, ":");
            json_value(&b, v);
        }
        gl_buf_puts(&b, "},\"values\":{");
        first = 1;
        for (int k = 0; k < row->n_values; k++) {
            const gl_value *v = &row->values[k];
            if (v->is_param) continue;
            if (!first) gl_buf_puts(&b, ",");
            first = 0;
            gl_buf_json_string(&b, v->name);
            gl_buf_puts(&b, ":");
            json_value(&b, v);
        }
        gl_buf_puts(&b, "},\"tally\":");
        json_tally(&b, gl_report_tally(r, row->index));
        gl_buf_puts(&b, ",\"claims\":");
        json_claims(&b, r, row->index);
        gl_buf_puts(&b, "}");
    }
    gl_buf_puts(&b, "],\n\"run_claims\":");
    json_claims(&b, r, -1);
    gl_buf_puts(&b, "}\n");
    size_t wrote = fwrite(gl_buf_str(&b), 1, b.len, f);
    int rc = (wrote != b.len || ferror(f)) ? -1 : 0;
    gl_buf_free(&b);
    return rc;
}

/* ---- CSV --------------------------------------------------------------------------------- */

/* A distinct name list, in order of first appearance. */
typedef struct names {
    const char **name;  /* borrowed from the rows */
    const gl_value **kind; /* the first value seen under that name, for its type and unit */
    int n, cap, cap2;
} names;

static void names_add(names *s, const gl_value *v)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], v->name) == 0) return;
    gl_grow((void **)&s->name, &s->cap, s->n + 1, sizeof(char *));
    gl_grow((void **)&s->kind, &s->cap2, s->n + 1, sizeof(gl_value *));
    s->name[s->n] = v->name;
    s->kind[s->n++] = v;
}

static void names_free(names *s)
{
    free(s->name);
    free(s->kind);
}

static const gl_value *find_in(const gl_value *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0) return &v[i];
    return NULL;
}

static const char *const stat_names[] = {"n", "min", "median", "mean", "max", "stddev", "rsd"};

/* The CSV columns of one value: one column, or one per statistic. */
static void csv_header(gl_buf *b, const gl_value *v)
{
    gl_buf col = GL_BUF_INIT;
    if (v->type != GL_VALUE_STATS) {
        gl_buf_printf(&col, "%s%s%s", v->name, v->unit[0] ? "_" : "", v->unit);
        gl_buf_puts(b, ",");
        gl_buf_csv_field(b, gl_buf_str(&col));
    } else {
        for (int s = 0; s < GL_ARRAY_LEN(stat_names); s++) {
            col.len = 0;
            int with_unit = v->unit[0] && s > 0 && s < 6; /* n and rsd have no unit */
            gl_buf_printf(&col, "%s_%s%s%s", v->name, stat_names[s], with_unit ? "_" : "", with_unit ? v->unit : "");
            gl_buf_puts(b, ",");
            gl_buf_csv_field(b, gl_buf_str(&col));
        }
    }
    gl_buf_free(&col);
}

static void csv_number(gl_buf *b, double x)
{
    gl_buf_puts(b, ",");
    if (isfinite(x)) gl_buf_printf(b, "%.9g", x);
}

/* The cells of one value in a row (empty when the row lacks it). */
static void csv_cells(gl_buf *b, const gl_value *shape, const gl_value *v)
{
    if (shape->type != GL_VALUE_STATS) {
        gl_buf_puts(b, ",");
        if (!v) return;
        if (v->type == GL_VALUE_TEXT) gl_buf_csv_field(b, v->text);
        else if (v->type == GL_VALUE_NUMBER && isfinite(v->number)) gl_buf_printf(b, "%.9g", v->number);
        return;
    }
    if (!v || v->type != GL_VALUE_STATS) {
        for (int s = 0; s < GL_ARRAY_LEN(stat_names); s++) gl_buf_puts(b, ",");
        return;
    }
    gl_buf_printf(b, ",%d", v->stats.n);
    csv_number(b, v->stats.min);
    csv_number(b, v->stats.median);
    csv_number(b, v->stats.mean);
    csv_number(b, v->stats.max);
    csv_number(b, v->stats.stddev);
    csv_number(b, v->stats.rsd);
}

int gl_report_write_csv(gl_report *r, FILE *f)
{
    derive_all(r);
    names dev, cols;
    memset(&dev, 0, sizeof dev);
    memset(&cols, 0, sizeof cols);
    for (int i = 0; i < r->n_rows; i++) {
        const gl_row *row = r->rows[i];
        const gl_value *d = row->device ? row->device : r->device;
        int nd = row->device ? row->n_device : r->n_device;
        for (int k = 0; k < nd; k++) names_add(&dev, &d[k]);
        for (int k = 0; k < row->n_values; k++) names_add(&cols, &row->values[k]);
    }
    gl_buf b = GL_BUF_INIT;
    gl_buf_puts(&b, "experiment");
    for (int k = 0; k < dev.n; k++) {
        gl_buf_puts(&b, ",device_");
        gl_buf_csv_field(&b, dev.name[k]);
    }
    gl_buf_puts(&b, ",table,variant");
    for (int k = 0; k < cols.n; k++) csv_header(&b, cols.kind[k]);
    gl_buf_puts(&b, ",claims_passed,claims_failed,claims_skipped,checks_passed,checks_failed,verdict,skip_reason,claims\n");
    for (int i = 0; i < r->n_rows; i++) {
        const gl_row *row = r->rows[i];
        const gl_value *d = row->device ? row->device : r->device;
        int nd = row->device ? row->n_device : r->n_device;
        gl_buf_csv_field(&b, r->experiment);
        for (int k = 0; k < dev.n; k++) {
            const gl_value *v = find_in(d, nd, dev.name[k]);
            gl_buf_puts(&b, ",");
            if (v) gl_buf_csv_field(&b, v->text);
        }
        gl_buf_puts(&b, ",");
        gl_buf_csv_field(&b, row->table);
        gl_buf_puts(&b, ",");
        gl_buf_csv_field(&b, row->variant);
        for (int k = 0; k < cols.n; k++) csv_cells(&b, cols.kind[k], gl_row_find(row, cols.name[k]));
        gl_tally t = gl_report_tally(r, row->index);
        gl_buf_printf(&b, ",%d,%d,%d,%d,%d,%s,", t.claims_passed, t.claims_failed, t.claims_skipped, t.checks_passed,
                      t.checks_failed, gl_verdict_name(gl_row_verdict(r, row)));
        if (row->skip_reason) gl_buf_csv_field(&b, row->skip_reason);
        gl_buf summary = GL_BUF_INIT;
        for (int c = 0; c < r->n_claims; c++) {
            const gl_claim *cl = &r->claims[c];
            if (cl->row != row->index) continue;
            gl_buf_printf(&summary, "%s%s: %s", summary.len ? "; " : "", cl->text, gl_verdict_name(cl->verdict));
        }
        gl_buf_puts(&b, ",");
        gl_buf_csv_field(&b, gl_buf_str(&summary));
        gl_buf_free(&summary);
        gl_buf_puts(&b, "\n");
    }
    size_t wrote = fwrite(gl_buf_str(&b), 1, b.len, f);
    int rc = (wrote != b.len || ferror(f)) ? -1 : 0;
    gl_buf_free(&b);
    names_free(&dev);
    names_free(&cols);
    return rc;
}

/* ---- the end of a run ---------------------------------------------------------------------- */

/* Write one result file with writer; a file that cannot be written is said, and counted. */
static void write_file(gl_report *r, const char *path, int (*writer)(gl_report *, FILE *))
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "error: cannot write %s\n", path);
        r->io_failed = 1;
        return;
    }
    int rc = writer(r, f);
    if (fclose(f) != 0) rc = -1;
    if (rc) {
        fprintf(stderr, "error: writing %s failed\n", path);
        r->io_failed = 1;
    }
}

int gl_report_finish(gl_report *r)
{
    gl_report_print_tables(r, stdout);
    if (r->json_path) write_file(r, r->json_path, gl_report_write_json);
    if (r->csv_path) write_file(r, r->csv_path, gl_report_write_csv);
    gl_tally t = gl_report_tally(r, GL_TALLY_ALL);
    gl_verdict v = run_verdict(r);
    printf("\nverdict: %s (claims: %d passed, %d failed, %d skipped; checks: %d passed, %d failed)\n",
           gl_verdict_name(v), t.claims_passed, t.claims_failed, t.claims_skipped, t.checks_passed,
           t.checks_failed);
    fflush(stdout);
    int io_failed = r->io_failed;
    gl_report_free(r);
    if (io_failed) return GL_EXIT_IO;
    return v == GL_FAIL ? GL_EXIT_CHECK : GL_EXIT_OK;
}
