/* report.c - claims, checks, rows, tables and the JSON/CSV writers. */
#include "report.h"
#include "gl_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *verdict_name(gl_verdict v)
{
    return v == GL_PASS ? "PASS" : v == GL_FAIL ? "FAIL" : "SKIP";
}

void gl_report_init(gl_report *r, const char *experiment, const gl_common *common)
{
    memset(r, 0, sizeof *r);
    snprintf(r->experiment, sizeof r->experiment, "%s", experiment);
    if (common) {
        r->skip_timing = common->skip_timing_claims;
        r->json_path = common->json_path;
        r->csv_path = common->csv_path;
    }
}

/* Fill a key/value pair from a printf format. */
static void set_kv(gl_kv *kv, const char *key, const char *fmt, va_list ap)
{
    snprintf(kv->key, sizeof kv->key, "%s", key);
    vsnprintf(kv->value, sizeof kv->value, fmt, ap);
}

void gl_report_device(gl_report *r, const char *key, const char *fmt, ...)
{
    if (r->n_device >= GL_MAX_DEVICE_FIELDS) return;
    va_list ap;
    va_start(ap, fmt);
    set_kv(&r->device[r->n_device++], key, fmt, ap);
    va_end(ap);
}

/* Grow *p (of *cap elements of size sz) to hold at least need elements. */
static void grow(void **p, int *cap, int need, size_t sz)
{
    if (need <= *cap) return;
    int c = *cap ? *cap * 2 : 8;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q) gl_die(GL_EXIT_CHECK, "out of host memory in the report");
    *p = q;
    *cap = c;
}

gl_row *gl_report_row(gl_report *r, const char *variant)
{
    grow((void **)&r->rows, &r->cap_rows, r->n_rows + 1, sizeof(gl_row));
    gl_row *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof *row);
    snprintf(row->variant, sizeof row->variant, "%s", variant);
    return row;
}

void gl_row_param(gl_row *row, const char *key, const char *fmt, ...)
{
    if (row->n_params >= GL_MAX_PARAMS) return;
    va_list ap;
    va_start(ap, fmt);
    set_kv(&row->params[row->n_params++], key, fmt, ap);
    va_end(ap);
}

void gl_row_metric(gl_row *row, const char *name, const char *unit, gl_stats stats)
{
    if (row->n_metrics >= GL_MAX_METRICS) return;
    gl_metric *m = &row->metrics[row->n_metrics++];
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    m->stats = stats;
}

/* Append a claim, decide SKIP for timing claims under --skip-timing-claims, print it. */
static gl_verdict add_claim(gl_report *r, gl_claim *c)
{
    if (c->timing && r->skip_timing) {
        c->verdict = GL_SKIP;
        size_t n = strlen(c->evidence);
        snprintf(c->evidence + n, sizeof c->evidence - n, "; not enforced: --skip-timing-claims");
    }
    c->row = r->n_rows - 1;
    grow((void **)&r->claims, &r->cap_claims, r->n_claims + 1, sizeof(gl_claim));
    r->claims[r->n_claims++] = *c;
    printf("CLAIM %s: %s (%s)\n", c->text, verdict_name(c->verdict), c->evidence);
    fflush(stdout);
    return c->verdict;
}

/* A quantitative claim with its text and values; the caller decides the verdict. */
static gl_claim quantitative_claim(int timing, const char *text, double predicted, double measured, const char *unit)
{
    gl_claim c;
    memset(&c, 0, sizeof c);
    snprintf(c.text, sizeof c.text, "%s", text);
    snprintf(c.unit, sizeof c.unit, "%s", unit);
    c.timing = timing;
    c.quantitative = 1;
    c.predicted = predicted;
    c.measured = measured;
    return c;
}

gl_verdict gl_claim_near(gl_report *r, int timing, const char *text, double predicted,
                         double measured, double rel_tol, double abs_slack, const char *unit)
{
    gl_claim c = quantitative_claim(timing, text, predicted, measured, unit);
    c.tolerance = rel_tol;
    c.slack = abs_slack;
    double allowed = rel_tol * fabs(predicted) + abs_slack;
    double dev = predicted != 0 ? 100.0 * (measured - predicted) / fabs(predicted) : 0;
    c.verdict = (isfinite(measured) && fabs(measured - predicted) <= allowed) ? GL_PASS : GL_FAIL;
    snprintf(c.evidence, sizeof c.evidence,
             "predicted %.4g %s, measured %.4g %s (%+.1f%%), allowed +/-%.0f%% + %.3g %s timer slack",
             predicted, unit, measured, unit, dev, 100.0 * rel_tol, abs_slack, unit);
    return add_claim(r, &c);
}

gl_verdict gl_claim_at_most(gl_report *r, int timing, const char *text, double measured,
                            double limit, const char *unit)
{
    gl_claim c = quantitative_claim(timing, text, limit, measured, unit);
    c.verdict = (isfinite(measured) && measured <= limit) ? GL_PASS : GL_FAIL;
    snprintf(c.evidence, sizeof c.evidence, "measured %.4g %s, limit %.4g %s", measured, unit, limit, unit);
    return add_claim(r, &c);
}

gl_verdict gl_claim_fact(gl_report *r, int timing, int holds, const char *text,
                         const char *evidence_fmt, ...)
{
    gl_claim c;
    memset(&c, 0, sizeof c);
    snprintf(c.text, sizeof c.text, "%s", text);
    c.timing = timing;
    c.verdict = holds ? GL_PASS : GL_FAIL;
    va_list ap;
    va_start(ap, evidence_fmt);
    vsnprintf(c.evidence, sizeof c.evidence, evidence_fmt, ap);
    va_end(ap);
    return add_claim(r, &c);
}

int gl_check(gl_report *r, int ok, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (ok) r->checks_passed++;
    else r->checks_failed++;
    printf("CHECK %s: %s\n", text, ok ? "PASS" : "FAIL");
    fflush(stdout);
    return ok;
}

/* ---- JSON ---------------------------------------------------------------- */

void gl_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* A number JSON can hold: NaN and infinities become null. */
static void json_number(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v);
    else fputs("null", f);
}

static void json_kv_object(FILE *f, const gl_kv *kv, int n)
{
    fputc('{', f);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        gl_json_string(f, kv[i].key);
        fputc(':', f);
        gl_json_string(f, kv[i].value);
    }
    fputc('}', f);
}

static void json_claim(FILE *f, const gl_claim *c)
{
    fputs("{\"text\":", f);
    gl_json_string(f, c->text);
    fputs(",\"verdict\":", f);
    gl_json_string(f, verdict_name(c->verdict));
    fprintf(f, ",\"timing\":%s", c->timing ? "true" : "false");
    if (c->quantitative) {
        fputs(",\"predicted\":", f);
        json_number(f, c->predicted);
        fputs(",\"measured\":", f);
        json_number(f, c->measured);
        fputs(",\"tolerance\":", f);
        json_number(f, c->tolerance);
        fputs(",\"slack\":", f);
        json_number(f, c->slack);
        fputs(",\"unit\":", f);
        gl_json_string(f, c->unit);
    }
    fputs(",\"evidence\":", f);
    gl_json_string(f, c->evidence);
    fputc('}', f);
}

static int count_failed(const gl_report *r)
{
    int failed = r->checks_failed;
    for (int i = 0; i < r->n_claims; i++) failed += r->claims[i].verdict == GL_FAIL;
    return failed;
}

int gl_report_write_json(const gl_report *r, FILE *f)
{
    fputs("{\"experiment\":", f);
    gl_json_string(f, r->experiment);
    fputs(",\"verdict\":", f);
    gl_json_string(f, count_failed(r) ? "FAIL" : "PASS");
    fprintf(f, ",\"checks\":{\"passed\":%d,\"failed\":%d}", r->checks_passed, r->checks_failed);
    fputs(",\"rows\":[", f);
    for (int i = 0; i < r->n_rows; i++) {
        const gl_row *row = &r->rows[i];
        if (i) fputc(',', f);
        fputs("\n{\"experiment\":", f);
        gl_json_string(f, r->experiment);
        fputs(",\"device\":", f);
        json_kv_object(f, r->device, r->n_device);
        fputs(",\"variant\":", f);
        gl_json_string(f, row->variant);
        fputs(",\"params\":", f);
        json_kv_object(f, row->params, row->n_params);
        fputs(",\"metrics\":{", f);
        for (int m = 0; m < row->n_metrics; m++) {
            const gl_metric *mt = &row->metrics[m];
            if (m) fputc(',', f);
            gl_json_string(f, mt->name);
            fputs(":{\"unit\":", f);
            gl_json_string(f, mt->unit);
            fprintf(f, ",\"n\":%d,\"min\":", mt->stats.n);
            json_number(f, mt->stats.min);
            fputs(",\"median\":", f);
            json_number(f, mt->stats.median);
            fputs(",\"mean\":", f);
            json_number(f, mt->stats.mean);
            fputs(",\"max\":", f);
            json_number(f, mt->stats.max);
            fputs(",\"stddev\":", f);
            json_number(f, mt->stats.stddev);
            fputs(",\"rsd\":", f);
            json_number(f, mt->stats.rsd);
            fputc('}', f);
        }
        fputs("},\"claims\":[", f);
        int first = 1;
        for (int c = 0; c < r->n_claims; c++) {
            if (r->claims[c].row != i) continue;
            if (!first) fputc(',', f);
            first = 0;
            json_claim(f, &r->claims[c]);
        }
        fputs("]}", f);
    }
    fputs("],\"run_claims\":[", f);
    int first = 1;
    for (int c = 0; c < r->n_claims; c++) {
        if (r->claims[c].row != -1) continue;
        if (!first) fputc(',', f);
        first = 0;
        json_claim(f, &r->claims[c]);
    }
    fputs("]}\n", f);
    return ferror(f) ? -1 : 0;
}

/* ---- CSV ----------------------------------------------------------------- */

/* One CSV field, quoted when it holds a comma, quote or newline. */
static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* Append name to a list of distinct names (columns present in any row). */
static int add_name(char (*names)[64], int n, int cap, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return n;
    if (n < cap) snprintf(names[n++], 64, "%s", name);
    return n;
}

int gl_report_write_csv(const gl_report *r, FILE *f)
{
    enum { CAP = 64 };
    char params[CAP][64], metrics[CAP][64];
    int np = 0, nm = 0;
    for (int i = 0; i < r->n_rows; i++) {
        for (int p = 0; p < r->rows[i].n_params; p++) np = add_name(params, np, CAP, r->rows[i].params[p].key);
        for (int m = 0; m < r->rows[i].n_metrics; m++)
            nm = add_name(metrics, nm, CAP, r->rows[i].metrics[m].name);
    }
    static const char *stat_cols[] = {"n", "min", "median", "mean", "max", "rsd"};
    fputs("experiment", f);
    for (int d = 0; d < r->n_device; d++) {
        fputs(",device_", f);
        csv_field(f, r->device[d].key);
    }
    fputs(",variant", f);
    for (int p = 0; p < np; p++) {
        fputc(',', f);
        csv_field(f, params[p]);
    }
    for (int m = 0; m < nm; m++) {
        const char *unit = "";
        for (int i = 0; i < r->n_rows && !unit[0]; i++)
            for (int k = 0; k < r->rows[i].n_metrics; k++)
                if (strcmp(r->rows[i].metrics[k].name, metrics[m]) == 0) unit = r->rows[i].metrics[k].unit;
        for (int s = 0; s < GL_ARRAY_LEN(stat_cols); s++) {
            char col[160]; /* metric (<64) + stat + unit (<16) always fit */
            if (unit[0] && s > 0 && s < 5) snprintf(col, sizeof col, "%.63s_%s_%.15s", metrics[m], stat_cols[s], unit);
            else snprintf(col, sizeof col, "%.63s_%s", metrics[m], stat_cols[s]);
            fputc(',', f);
            csv_field(f, col);
        }
    }
    fputs(",claims_passed,claims_failed,claims_skipped,verdict,claims\n", f);
    for (int i = 0; i < r->n_rows; i++) {
        const gl_row *row = &r->rows[i];
        csv_field(f, r->experiment);
        for (int d = 0; d < r->n_device; d++) {
            fputc(',', f);
            csv_field(f, r->device[d].value);
        }
        fputc(',', f);
        csv_field(f, row->variant);
        for (int p = 0; p < np; p++) {
            fputc(',', f);
            for (int k = 0; k < row->n_params; k++)
                if (strcmp(row->params[k].key, params[p]) == 0) csv_field(f, row->params[k].value);
        }
        for (int m = 0; m < nm; m++) {
            const gl_metric *mt = NULL;
            for (int k = 0; k < row->n_metrics; k++)
                if (strcmp(row->metrics[k].name, metrics[m]) == 0) mt = &row->metrics[k];
            if (!mt) {
                fputs(",,,,,,", f);
                continue;
            }
            fprintf(f, ",%d,%.9g,%.9g,%.9g,%.9g,%.6g", mt->stats.n, mt->stats.min, mt->stats.median,
                    mt->stats.mean, mt->stats.max, mt->stats.rsd);
        }
        int pass = 0, fail = 0, skip = 0;
        char summary[2048] = "";
        size_t used = 0;
        for (int c = 0; c < r->n_claims; c++) {
            const gl_claim *cl = &r->claims[c];
            if (cl->row != i) continue;
            pass += cl->verdict == GL_PASS;
            fail += cl->verdict == GL_FAIL;
            skip += cl->verdict == GL_SKIP;
            if (used < sizeof summary)
                used += (size_t)snprintf(summary + used, sizeof summary - used, "%s%s: %s", used ? "; " : "",
                                         cl->text, verdict_name(cl->verdict));
        }
        fprintf(f, ",%d,%d,%d,%s,", pass, fail, skip, fail ? "FAIL" : "PASS");
        csv_field(f, summary);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

/* Write one output file with writer; a file that cannot be written is an error of the run. */
static int write_file(const gl_report *r, const char *path, int (*writer)(const gl_report *, FILE *))
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "error: cannot write %s\n", path);
        return -1;
    }
    int rc = writer(r, f);
    if (fclose(f) != 0) rc = -1;
    if (rc) fprintf(stderr, "error: writing %s failed\n", path);
    return rc;
}

int gl_report_finish(gl_report *r)
{
    int io_failed = 0;
    if (r->json_path && write_file(r, r->json_path, gl_report_write_json)) io_failed = 1;
    if (r->csv_path && write_file(r, r->csv_path, gl_report_write_csv)) io_failed = 1;
    int pass = 0, fail = 0, skip = 0;
    for (int i = 0; i < r->n_claims; i++) {
        pass += r->claims[i].verdict == GL_PASS;
        fail += r->claims[i].verdict == GL_FAIL;
        skip += r->claims[i].verdict == GL_SKIP;
    }
    int failed = fail + r->checks_failed + io_failed;
    printf("verdict: %s (claims: %d passed, %d failed, %d skipped; checks: %d passed, %d failed)\n",
           failed ? "FAIL" : "PASS", pass, fail, skip, r->checks_passed, r->checks_failed);
    fflush(stdout);
    free(r->rows);
    free(r->claims);
    r->rows = NULL;
    r->claims = NULL;
    return failed ? GL_EXIT_CHECK : GL_EXIT_OK;
}

/* ---- tables -------------------------------------------------------------- */

void gl_table_init(gl_table *t, int ncols, const char *const *headers)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols > GL_TABLE_MAX_COLS ? GL_TABLE_MAX_COLS : ncols;
    for (int i = 0; i < t->ncols; i++) t->headers[i] = headers[i];
}

void gl_table_cell(gl_table *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    grow((void **)&t->cells, &t->cap, t->ncells + 1, sizeof(char *));
    t->cells[t->ncells] = (char *)malloc(strlen(buf) + 1);
    if (!t->cells[t->ncells]) gl_die(GL_EXIT_CHECK, "out of host memory in a table");
    strcpy(t->cells[t->ncells++], buf);
}

/* Numbers are right-aligned so that their digits line up. */
static int looks_numeric(const char *s)
{
    if (!*s) return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789.+-%eE x/", *p)) return 0;
    return strpbrk(s, "0123456789") != NULL;
}

void gl_table_print(FILE *f, const gl_table *t)
{
    int width[GL_TABLE_MAX_COLS];
    for (int c = 0; c < t->ncols; c++) width[c] = (int)strlen(t->headers[c]);
    for (int i = 0; i < t->ncells; i++) {
        int c = i % t->ncols, w = (int)strlen(t->cells[i]);
        if (w > width[c]) width[c] = w;
    }
    for (int c = 0; c < t->ncols; c++) fprintf(f, "| %-*s ", width[c], t->headers[c]);
    fputs("|\n", f);
    for (int c = 0; c < t->ncols; c++) {
        fputs("|", f);
        for (int k = 0; k < width[c] + 2; k++) fputc('-', f);
    }
    fputs("|\n", f);
    for (int i = 0; i < t->ncells; i++) {
        int c = i % t->ncols;
        if (looks_numeric(t->cells[i])) fprintf(f, "| %*s ", width[c], t->cells[i]);
        else fprintf(f, "| %-*s ", width[c], t->cells[i]);
        if (c == t->ncols - 1) fputs("|\n", f);
    }
    if (t->ncells % t->ncols) fputs("|\n", f);
    fflush(f);
}

void gl_table_free(gl_table *t)
{
    for (int i = 0; i < t->ncells; i++) free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}
