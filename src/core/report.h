/* report.h - claims, data checks, result rows, and their output.
 *
 * An experiment states what it expects as a claim (predicted, measured and a
 * tolerance, or a boolean fact with its evidence) and records each
 * configuration as a row of parameters and statistics. Every claim prints one
 * line "CLAIM <text>: PASS|FAIL|SKIP (<evidence>)" as it is made; any FAIL, like
 * any failed data check, makes gl_report_finish return exit code 1. Rows and
 * claims are written to --json and --csv at the end. */
#ifndef GL_REPORT_H
#define GL_REPORT_H

#include <stdio.h>

#include "options.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GL_PASS = 0, GL_FAIL = 1, GL_SKIP = 2 } gl_verdict;

enum { GL_MAX_PARAMS = 16, GL_MAX_METRICS = 16, GL_MAX_DEVICE_FIELDS = 16 };

typedef struct gl_kv {
    char key[40];    /* parameter or field name */
    char value[160]; /* its value, as printed */
} gl_kv;

typedef struct gl_metric {
    char name[48];  /* what was measured, e.g. "makespan" */
    char unit[16];  /* its unit, e.g. "ms" */
    gl_stats stats; /* over the repeats */
} gl_metric;

typedef struct gl_claim {
    char text[192];      /* the claim, in words */
    char evidence[384];  /* the measurement it rests on */
    gl_verdict verdict;  /* PASS, FAIL or SKIP */
    int timing;          /* depends on kernels running concurrently and at full speed */
    int quantitative;    /* predicted, measured and tolerance below are meaningful */
    double predicted;    /* the model's value */
    double measured;     /* what the timeline showed */
    double tolerance;    /* relative tolerance on predicted */
    double slack;        /* absolute slack added to the tolerance (timer resolution) */
    char unit[16];       /* unit of predicted and measured */
    int row;             /* index of the row it belongs to, -1 for the run as a whole */
} gl_claim;

typedef struct gl_row {
    char variant[64];                  /* which variant or configuration */
    gl_kv params[GL_MAX_PARAMS];       /* its parameters */
    int n_params;
    gl_metric metrics[GL_MAX_METRICS]; /* its statistics */
    int n_metrics;
} gl_row;

typedef struct gl_report {
    char experiment[64];                   /* kebab-case name */
    gl_kv device[GL_MAX_DEVICE_FIELDS];    /* the device header, as fields */
    int n_device;
    gl_row *rows;                          /* one per configuration */
    int n_rows, cap_rows;
    gl_claim *claims;                      /* every claim made, in order */
    int n_claims, cap_claims;
    int checks_passed, checks_failed;      /* data checks */
    int skip_timing;                       /* --skip-timing-claims */
    const char *json_path, *csv_path;      /* from the common options */
} gl_report;

void gl_report_init(gl_report *r, const char *experiment, const gl_common *common);

/* Add a field of the device header (name, cc, driver, ...). */
void gl_report_device(gl_report *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Start a new row; later claims belong to it. */
gl_row *gl_report_row(gl_report *r, const char *variant);
void gl_row_param(gl_row *row, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void gl_row_metric(gl_row *row, const char *name, const char *unit, gl_stats stats);

/* measured is within rel_tol * |predicted| + abs_slack of predicted. */
gl_verdict gl_claim_near(gl_report *r, int timing, const char *text, double predicted,
                         double measured, double rel_tol, double abs_slack, const char *unit);

/* measured is at most limit. */
gl_verdict gl_claim_at_most(gl_report *r, int timing, const char *text, double measured,
                            double limit, const char *unit);

/* A boolean fact and the evidence that decided it. */
gl_verdict gl_claim_fact(gl_report *r, int timing, int holds, const char *text,
                         const char *evidence_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* A data check (results against a CPU reference, counters against a
 * prediction): prints "CHECK <text>: PASS|FAIL". Returns ok. */
int gl_check(gl_report *r, int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Write --json / --csv, print the verdict line, free the report, and return
 * the exit code: 0 when every check and claim passed, 1 otherwise. */
int gl_report_finish(gl_report *r);

/* Writers, exposed for the unit tests. Return 0 on success. */
int gl_report_write_json(const gl_report *r, FILE *f);
int gl_report_write_csv(const gl_report *r, FILE *f);

/* An aligned table for stdout. Cells are added left to right, row by row. */
enum { GL_TABLE_MAX_COLS = 24 };
typedef struct gl_table {
    int ncols;                              /* columns */
    const char *headers[GL_TABLE_MAX_COLS]; /* column titles, with units */
    char **cells;                           /* row-major cell text */
    int ncells, cap;
} gl_table;
void gl_table_init(gl_table *t, int ncols, const char *const *headers);
void gl_table_cell(gl_table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void gl_table_print(FILE *f, const gl_table *t);
void gl_table_free(gl_table *t);

/* Write s as a JSON string literal (with quotes), escaping as needed. */
void gl_json_string(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif
