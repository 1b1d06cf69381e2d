/* report.c - rows of values, claims and checks, and the verdicts derived from them. */
#include "gl_report.h"
#include "gl_progress.h"

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

static const char *const kind_names[] = {"timing", "ordering", "data"};
static const char *const form_names[] = {"near",  "at_most", "at_least", "ratio_at_least", "ratio_at_most",
                                         "order", "every",   "fact",     "check",          "skip"};

const char *gl_claim_kind_name(gl_claim_kind k)
{
    return (int)k >= 0 && (int)k < GL_ARRAY_LEN(kind_names) ? kind_names[k] : "?";
}

int gl_claim_kind_of(const char *name)
{
    for (int i = 0; i < GL_ARRAY_LEN(kind_names); i++)
        if (strcmp(name, kind_names[i]) == 0) return i;
    return -1;
}

const char *gl_claim_form_of(const char *name)
{
    for (int i = 0; i < GL_ARRAY_LEN(form_names); i++)
        if (strcmp(name, form_names[i]) == 0) return form_names[i];
    return NULL;
}

/* Free the strings a value owns. */
static void value_free(gl_value *v)
{
    free(v->name);
    free(v->unit);
    free(v->text);
}

/* Free an array of values and what they own. */
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
    for (int i = 0; i < r->n_findings; i++) free(r->findings[i]);
    free(r->findings);
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

/* A new value of row; a name the outputs reserve for themselves is a bug. */
static gl_value *row_value(gl_row *row, const char *name, const char *unit)
{
    static const char *const reserved[] = {"variant", "verdict", "table", "experiment", "skip_reason", "claims",
                                           "bandwidth", "bandwidth_best", "peak_fraction", "throughput"};
    for (int i = 0; i < GL_ARRAY_LEN(reserved); i++)
        if (strcmp(name, reserved[i]) == 0)
            gl_die(GL_EXIT_INTERNAL, "row %s/%s: '%s' is a name the report uses itself", row->table, row->variant, name);
    if (strncmp(name, "claims_", 7) == 0 || strncmp(name, "checks_", 7) == 0)
        gl_die(GL_EXIT_INTERNAL, "row %s/%s: '%s' is a name the report uses itself", row->table, row->variant, name);
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
    /* Derived values are the report's own, so they skip the reserved-name check. */
    gl_value *v = flags & GL_DERIVED ? push_value(&row->values, &row->n_values, &row->cap_values, name, unit)
                                     : row_value(row, name, unit);
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

gl_stats gl_row_stats_of(const gl_row *row, const char *name)
{
    const gl_value *v = row ? gl_row_find(row, name) : NULL;
    return v && v->type == GL_VALUE_STATS ? v->stats : gl_stats_of(NULL, 0);
}

double gl_row_median(const gl_row *row, const char *name)
{
    gl_stats s = gl_row_stats_of(row, name);
    return s.n > 0 ? s.median : NAN;
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
    gl_progress_clear(); /* the line starts clean under a progress line */
    printf("SKIP %s %s: %s\n", row->table, row->variant, row->skip_reason);
    fflush(stdout);
}

/* ---- claims --------------------------------------------------------------------- */

/* Data checks are counted and printed apart from claims. */
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
        gl_progress_clear(); /* the line starts clean under a progress line */
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
    c.form = gl_claim_form_of(form);
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

gl_verdict gl_report_verdict(const gl_report *r)
{
    return r->io_failed ? GL_FAIL : tally_verdict(gl_report_tally(r, GL_TALLY_ALL), 0);
}


void gl_report_finding(gl_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = vformat(fmt, ap);
    va_end(ap);
    for (int i = 0; i < r->n_findings; i++)
        if (strcmp(r->findings[i], text) == 0) { /* said already (a sweep merges its children's: once each) */
            free(text);
            return;
        }
    gl_grow((void **)&r->findings, &r->cap_findings, r->n_findings + 1, sizeof *r->findings);
    r->findings[r->n_findings++] = text;
    if (r->quiet_claims) return;
    gl_progress_clear(); /* the line starts clean under a progress line */
    printf("finding: %s\n", text);
}
