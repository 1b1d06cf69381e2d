/* output.c - what a report prints and writes: the bandwidth derived from
 * declared work, the terminal tables, the JSON and the CSV, all from the rows. */
#include "gl_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Has the row been through derive() already? */
static int has_derived(const gl_row *row)
{
    for (int i = 0; i < row->n_values; i++)
        if (row->values[i].flags & GL_DERIVED) return 1;
    return 0;
}

/* Add GB/s, best GB/s, % of peak and elements/s to a row that declared its work.
 * Done once, just before output, so that the order of gl_row_work and the
 * statistics does not matter. A missing or non-time value is a bug, said so. */
static void derive(gl_report *r, gl_row *row)
{
    if (row->skip_reason || !row->time_value || has_derived(row)) return;
    if (row->bytes <= 0 && row->elements <= 0) return;
    const gl_value *t = gl_row_find(row, row->time_value);
    if (!t || t->type != GL_VALUE_STATS || seconds_per(t->unit) == 0) {
        /* A bug of the experiment, found at the end of the run: fail the row
         * rather than lose every result with it. */
        gl_buf why = GL_BUF_INIT;
        gl_buf_printf(&why, "'%s' is not a statistics value in s, ms, us or ns", row->time_value);
        gl_check_evidence(r, row, 0, "the declared work has a time to derive bandwidth from", gl_buf_str(&why));
        gl_buf_free(&why);
        gl_row_number(row, "bandwidth", "GB/s", 1, GL_DERIVED, NAN); /* marks the row as derived */
        return;
    }
    double median_s = t->stats.median * seconds_per(t->unit), min_s = t->stats.min * seconds_per(t->unit);
    if (t->stats.n == 0 || median_s <= 0) return;
    if (row->bytes > 0) {
        double gbps = row->bytes / median_s / 1e9;
        gl_row_number(row, "bandwidth", "GB/s", 1, GL_DERIVED, gbps);
        gl_row_number(row, "bandwidth_best", "GB/s", 1, GL_DERIVED | GL_HIDE, row->bytes / min_s / 1e9);
        if (r->peak_gbps > 0) gl_row_number(row, "peak_fraction", "%", 1, GL_DERIVED, 100 * gbps / r->peak_gbps);
    }
    if (row->elements > 0) gl_row_number(row, "throughput", "Gelem/s", -1, GL_DERIVED, row->elements / median_s / 1e9);
}

/* Derive every row's bandwidth (once). */
static void derive_all(gl_report *r)
{
    for (int i = 0; i < r->n_rows; i++) derive(r, r->rows[i]);
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

/* Add a column for part p of v, unless the table has it already. */
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
    /* A '|' or a line break would end the markdown cell or row early. */
    gl_buf safe = GL_BUF_INIT;
    for (const char *p = gl_buf_str(&b); *p; p++) {
        if (*p == '|') gl_buf_puts(&safe, "\\|");
        else if (*p == '\n' || *p == '\r') gl_buf_puts(&safe, " ");
        else gl_buf_printf(&safe, "%c", *p);
    }
    char *s = gl_xstrdup(gl_buf_str(&safe));
    gl_buf_free(&b);
    gl_buf_free(&safe);
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

/* One cell, padded to the column's width. */
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

/* Device fields or parameters as one JSON object of strings and numbers. */
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

/* ,"key":number */
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

/* The row's parameters (is_param 1) or results (0) as one object. */
static void json_values(gl_buf *b, const gl_row *row, int is_param)
{
    gl_buf_puts(b, "{");
    int first = 1;
    for (int k = 0; k < row->n_values; k++) {
        const gl_value *v = &row->values[k];
        if (v->is_param != is_param) continue;
        if (!first) gl_buf_puts(b, ",");
        first = 0;
        gl_buf_json_string(b, v->name);
        gl_buf_puts(b, ":");
        json_value(b, v);
    }
    gl_buf_puts(b, "}");
}

/* One claim with everything it was judged on. */
static void json_claim(gl_buf *b, const gl_claim *c)
{
    gl_buf_puts(b, "{\"text\":");
    gl_buf_json_string(b, c->text);
    gl_buf_printf(b, ",\"verdict\":\"%s\",\"kind\":\"%s\",\"form\":\"%s\"", gl_verdict_name(c->verdict),
                  gl_claim_kind_name(c->kind), c->form);
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

/* The claims of one row (-1: of the run), as a list. */
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

/* The verdict counts as an object. */
static void json_tally(gl_buf *b, gl_tally t)
{
    gl_buf_printf(b, "{\"claims_passed\":%d,\"claims_failed\":%d,\"claims_skipped\":%d,\"checks_passed\":%d,"
                     "\"checks_failed\":%d,\"checks_skipped\":%d}",
                  t.claims_passed, t.claims_failed, t.claims_skipped, t.checks_passed, t.checks_failed,
                  t.checks_skipped);
}

int gl_report_write_json(gl_report *r, FILE *f)
{
    derive_all(r);
    gl_buf b = GL_BUF_INIT;
    gl_buf_puts(&b, "{\"experiment\":");
    gl_buf_json_string(&b, r->experiment);
    gl_buf_printf(&b, ",\"verdict\":\"%s\",\"tally\":", gl_verdict_name(gl_report_verdict(r)));
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
        gl_buf_puts(&b, ",\"params\":");
        json_values(&b, row, 1);
        gl_buf_puts(&b, ",\"values\":");
        json_values(&b, row, 0);
        gl_buf_puts(&b, ",\"tally\":");
        json_tally(&b, gl_report_tally(r, row->index));
        gl_buf_puts(&b, ",\"claims\":");
        json_claims(&b, r, row->index);
        gl_buf_puts(&b, "}");
    }
    gl_buf_puts(&b, "],\n\"run_claims\":");
    json_claims(&b, r, -1);
    gl_buf_puts(&b, ",\n\"findings\":[");
    for (int i = 0; i < r->n_findings; i++) {
        if (i) gl_buf_puts(&b, ",");
        gl_buf_json_string(&b, r->findings[i]);
    }
    gl_buf_puts(&b, "]}\n");
    size_t wrote = fwrite(gl_buf_str(&b), 1, b.len, f);
    int rc = (wrote != b.len || ferror(f)) ? -1 : 0;
    gl_buf_free(&b);
    return rc;
}

/* ---- CSV --------------------------------------------------------------------------------- */

/* A distinct name list, in order of first appearance. */
typedef struct names {
    const char **name;     /* borrowed from the rows */
    const gl_value **kind; /* the first value seen under that name, for its type and unit */
    int n;                 /* distinct names */
    int cap, cap2;         /* allocated lengths of name and kind */
} names;

/* Add v's name unless it is listed. */
static void names_add(names *s, const gl_value *v)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], v->name) == 0) return;
    gl_grow((void **)&s->name, &s->cap, s->n + 1, sizeof(char *));
    gl_grow((void **)&s->kind, &s->cap2, s->n + 1, sizeof(gl_value *));
    s->name[s->n] = v->name;
    s->kind[s->n++] = v;
}

/* Free the lists (the names are borrowed). */
static void names_free(names *s)
{
    free(s->name);
    free(s->kind);
}

/* The value called name among v[0..n-1], or NULL. */
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

/* ,number (empty when it is not finite) */
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
    gl_buf col = GL_BUF_INIT;
    for (int k = 0; k < dev.n; k++) {
        col.len = 0;
        gl_buf_printf(&col, "device_%s", dev.name[k]);
        gl_buf_puts(&b, ",");
        gl_buf_csv_field(&b, gl_buf_str(&col));
    }
    gl_buf_free(&col);
    gl_buf_puts(&b, ",table,variant");
    for (int k = 0; k < cols.n; k++) csv_header(&b, cols.kind[k]);
    gl_buf_puts(&b, ",claims_passed,claims_failed,claims_skipped,checks_passed,checks_failed,checks_skipped,verdict,"
                    "skip_reason,claims\n");
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
        gl_buf_printf(&b, ",%d,%d,%d,%d,%d,%d,%s,", t.claims_passed, t.claims_failed, t.claims_skipped,
                      t.checks_passed, t.checks_failed, t.checks_skipped, gl_verdict_name(gl_row_verdict(r, row)));
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
    gl_verdict v = gl_report_verdict(r);
    printf("\nverdict: %s (claims: %d passed, %d failed, %d skipped; checks: %d passed, %d failed)\n",
           gl_verdict_name(v), t.claims_passed, t.claims_failed, t.claims_skipped, t.checks_passed,
           t.checks_failed);
    fflush(stdout);
    int io_failed = r->io_failed;
    gl_report_free(r);
    if (io_failed) return GL_EXIT_IO;
    return v == GL_FAIL ? GL_EXIT_CHECK : GL_EXIT_OK;
}
