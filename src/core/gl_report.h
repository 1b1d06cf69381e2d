/* gl_report.h - rows of parameters and values, claims and data checks, and every
 * output generated from them.
 *
 * An experiment records each configuration it ran as a row: parameters (what
 * was asked for) and values (what was measured). A value carries a name, a unit
 * and a display hint, and is either a statistics summary over repeated samples,
 * one number, or one word. The terminal tables, the CSV and the JSON are all
 * generated from the rows, so that no experiment types a result twice.
 *
 * What the experiment expects is stated as claims, each owned by the row the
 * caller names (or by the run as a whole, row NULL). A claim prints one line
 * "CLAIM <text>: PASS|FAIL|SKIP (<evidence>)" when it is made; a data check
 * prints "CHECK ...". A claim with nothing to judge is SKIP with its reason,
 * never PASS. A row's verdict is derived from its claims and checks; a row
 * whose configuration does not apply on this device is SKIP with the reason.
 * gl_report_finish (gl_output.h) prints the tables and the verdict line, writes --json and
 * --csv, and returns the exit code (0, or 1 when anything failed).
 *
 * Nothing here has a fixed capacity: parameters, values, device fields, rows,
 * claims and columns all grow. A row handle stays valid while rows are added. */
#ifndef GL_REPORT_H
#define GL_REPORT_H

#include <stdio.h>

#include "gl_common.h"
#include "gl_options.h"
#include "gl_stats.h"
#include "gl_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GL_PASS = 0,      /* the claim holds */
    GL_FAIL = 1,      /* it does not */
    GL_SKIP = 2,      /* nothing to judge, or not enforced in this run; the evidence says why */
    GL_NO_VERDICT = 3 /* a row with no claims or checks at all */
} gl_verdict;

/* What a claim rests on, which decides when it is enforced. */
typedef enum {
    GL_CLAIM_TIMING,   /* needs kernels to run concurrently and at full speed: SKIP under --skip-timing-claims */
    GL_CLAIM_ORDERING, /* an ordering or counting fact that holds under any tool, sanitizers included */
    GL_CLAIM_DATA      /* a data check: results against a reference (printed as CHECK) */
} gl_claim_kind;

/* Display hints of a value (bits). */
enum {
    GL_HIDE = 1u << 0,       /* left out of the terminal table; still in the CSV and JSON */
    GL_SHOW_MIN = 1u << 1,   /* statistics: a "min" column beside the median */
    GL_SHOW_NOISE = 1u << 2, /* statistics: a "noise %" column (relative standard deviation) */
    GL_DERIVED = 1u << 3     /* computed by the report from other values (bandwidth), not measured directly */
};

typedef enum { GL_VALUE_STATS, GL_VALUE_NUMBER, GL_VALUE_TEXT } gl_value_type;

typedef struct gl_value {
    char *name;         /* snake_case: the JSON key and the CSV column stem */
    char *unit;         /* "ms", "GB/s", "%", or "" */
    gl_value_type type; /* which of stats, number, text holds it */
    int is_param;       /* 1: a parameter of the configuration; 0: a result */
    gl_stats stats;     /* GL_VALUE_STATS */
    double number;      /* GL_VALUE_NUMBER */
    char *text;         /* GL_VALUE_TEXT */
    int precision;      /* digits after the point in the terminal; -1: shortest (%g) */
    unsigned flags;     /* GL_HIDE, GL_SHOW_MIN, GL_SHOW_NOISE, GL_DERIVED */
} gl_value;

typedef struct gl_row {
    char *table;        /* which terminal table it belongs to (rows of one table share columns) */
    char *variant;      /* which variant or configuration */
    gl_value *values;   /* parameters and results, in the order they were added */
    int n_values;       /* how many */
    int cap_values;     /* allocated length of values */
    double bytes;       /* declared bytes moved (read + written) per sample; 0: none */
    double elements;    /* declared elements processed per sample; 0: none */
    char *time_value;   /* name of the statistics value (a time) that bandwidth derives from */
    char *skip_reason;  /* set: the configuration does not apply here, and why */
    gl_value *device;   /* device fields of a row merged from another process; NULL: the report's */
    int n_device;       /* how many */
    int index;          /* position in the report */
} gl_row;

typedef struct gl_claim {
    char *text;          /* the claim, in words */
    char *evidence;      /* the measurement it rests on, or why it was skipped */
    const char *form;    /* "near", "at_most", "at_least", "ratio_at_least", "ratio_at_most", "order", "every", "fact", "check", "skip" */
    gl_claim_kind kind;  /* when it is enforced */
    gl_verdict verdict;  /* PASS, FAIL or SKIP */
    int quantitative;    /* predicted, measured, tolerance and unit are meaningful */
    double predicted;    /* the model's value, or the limit */
    double measured;     /* what was measured */
    double tolerance;    /* relative tolerance on predicted (near) */
    double slack;        /* absolute slack added to the tolerance (timer resolution) */
    char *unit;          /* unit of predicted and measured */
    int row;             /* index of the row it belongs to; -1: the run as a whole */
} gl_claim;

typedef struct gl_report {
    char *experiment;          /* kebab-case name */
    gl_value *device;          /* the device header, as fields */
    int n_device, cap_device;  /* fields, and the allocated length */
    gl_row **rows;             /* one per configuration; pointers, so handles stay valid */
    int n_rows, cap_rows;      /* rows, and the allocated length */
    gl_claim *claims;          /* every claim and check, in the order made */
    int n_claims, cap_claims;  /* claims, and the allocated length */
    double peak_gbps;          /* the device's peak DRAM bandwidth, for "% of peak"; 0: unknown */
    int skip_timing;           /* --skip-timing-claims */
    int io_failed;             /* a result file could not be written */
    int quiet_claims;          /* record claims without printing them (merging a report already printed) */
    char **findings;           /* what the run found that no claim judges, one sentence each, in order */
    int n_findings, cap_findings; /* findings, and the allocated length */
    const char *json_path, *csv_path; /* from the common options */
} gl_report;

/* A finding: something measured that no claim judges (a contention factor, a
 * limit found). Printed as "finding: <text>" (not when merging a report
 * already printed) and written to the JSON's "findings" list, so that a
 * finding reaches the record as a claim does. */
void gl_report_finding(gl_report *r, const char *fmt, ...) GL_PRINTF(2, 3);

/* Verdict counts, from the one place that counts them. */
typedef struct gl_tally {
    int claims_passed, claims_failed, claims_skipped; /* claims of kind TIMING and ORDERING */
    int checks_passed, checks_failed, checks_skipped; /* data checks */
} gl_tally;

void gl_report_init(gl_report *r, const char *experiment, const gl_common *common);
/* Free everything the report holds (gl_report_finish calls it). */
void gl_report_free(gl_report *r);

/* Add a field of the device header (name, cc, driver, ...). */
void gl_report_device(gl_report *r, const char *key, const char *fmt, ...) GL_PRINTF(3, 4);
/* The device's peak DRAM bandwidth in GB/s, the denominator of "% of peak". */
void gl_report_set_peak(gl_report *r, double gbps);

/* ---- rows -------------------------------------------------------------------- */

/* Start a row of the named table. The handle stays valid until the report is freed. */
gl_row *gl_report_row(gl_report *r, const char *table, const char *variant);

/* Names the outputs use for their own columns (variant, verdict, table,
 * experiment, skip_reason, the claims_ and checks_ counts) or for derived
 * bandwidth cannot name a parameter or value: using one is a bug (exit 6). */

/* Parameters: a word (printf) or a number with a unit and precision. */
void gl_row_param(gl_row *row, const char *name, const char *fmt, ...) GL_PRINTF(3, 4);
void gl_row_param_num(gl_row *row, const char *name, const char *unit, int precision, double v);
/* Results: statistics, one number, or one word. */
void gl_row_stats(gl_row *row, const char *name, const char *unit, int precision, unsigned flags, gl_stats s);
void gl_row_number(gl_row *row, const char *name, const char *unit, int precision, unsigned flags, double v);
void gl_row_text(gl_row *row, const char *name, unsigned flags, const char *fmt, ...) GL_PRINTF(4, 5);
/* The value called name, or NULL. */
const gl_value *gl_row_find(const gl_row *row, const char *name);
/* The median of the statistics value called name, or NAN when the row is
 * NULL (not run), has no such value, it is not statistics, or it has no samples. */
double gl_row_median(const gl_row *row, const char *name);
/* The statistics value called name; where gl_row_median gives NAN, no samples (n = 0, all zeros). */
gl_stats gl_row_stats_of(const gl_row *row, const char *name);

/* Declare the work one sample does: bytes moved (read + written) and elements.
 * The outputs then derive GB/s and elements/s from the median and the minimum of
 * the statistics value time_value (a time: s, ms, us or ns), and percent of the
 * device's peak bandwidth. Declared before gl_sampler_run, it also turns on
 * the L2 flush there. A time_value that is not such a value fails the row. */
void gl_row_work(gl_row *row, const char *time_value, double bytes, double elements);

/* This configuration does not apply on this device: the row is SKIP, with the reason. */
void gl_row_skip(gl_row *row, const char *fmt, ...) GL_PRINTF(2, 3);

/* The row's verdict: FAIL if any of its claims or checks failed, SKIP if it was
 * skipped or everything in it was, PASS if something passed, else GL_NO_VERDICT. */
gl_verdict gl_row_verdict(const gl_report *r, const gl_row *row);

/* ---- claims --------------------------------------------------------------------
 * row: the row the claim belongs to, or NULL for the run as a whole.
 * Each returns the verdict, already printed. */

/* measured is within rel_tol * |predicted| + abs_slack of predicted. */
gl_verdict gl_claim_near(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, double predicted,
                         double measured, double rel_tol, double abs_slack, const char *unit);
/* measured <= limit, and measured >= limit. */
gl_verdict gl_claim_at_most(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, double measured,
                            double limit, const char *unit);
gl_verdict gl_claim_at_least(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, double measured,
                             double limit, const char *unit);
/* The ratio of two measured values, a / b, is at least (or at most) bound. A
 * value that was not measured (not finite, or b <= 0) makes it SKIP. */
gl_verdict gl_claim_ratio_at_least(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text,
                                   const char *a_name, double a, const char *b_name, double b, double bound);
gl_verdict gl_claim_ratio_at_most(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text,
                                  const char *a_name, double a, const char *b_name, double b, double bound);
/* Every interval of set A started after every interval of set B ended (o from
 * gl_timeline_after). An empty set makes it SKIP with "n/a: <na_reason>". */
gl_verdict gl_claim_order(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, const gl_order *o,
                          const char *na_reason);
/* A property held in held of total cases (what: "parent-child pairs"). Passes
 * only when all held; total == 0 makes it SKIP with "n/a: <na_reason>". */
gl_verdict gl_claim_every(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, long long held,
                          long long total, const char *what, const char *na_reason);
/* A boolean fact and the evidence that decided it. */
gl_verdict gl_claim_fact(gl_report *r, gl_row *row, gl_claim_kind kind, int holds, const char *text,
                         const char *evidence_fmt, ...) GL_PRINTF(6, 7);
/* A claim that cannot be judged in this run, and why. */
gl_verdict gl_claim_skip(gl_report *r, gl_row *row, gl_claim_kind kind, const char *text, const char *reason_fmt,
                         ...) GL_PRINTF(5, 6);

/* Record a claim judged elsewhere (another process's report), copying its
 * strings; form must be one of the names gl_claim.form lists. */
void gl_report_add_claim(gl_report *r, gl_row *row, const gl_claim *c);

/* A data check: prints "CHECK <text>: PASS|FAIL (matches)". Returns ok. */
int gl_check(gl_report *r, gl_row *row, int ok, const char *fmt, ...) GL_PRINTF(4, 5);
/* A data check with its evidence (gl_check_compare, gl_check.h, gives the mismatches). */
int gl_check_evidence(gl_report *r, gl_row *row, int ok, const char *text, const char *evidence);

/* ---- totals ---------------------------------------------------------------------- */

/* The run's verdict: FAIL if any claim or check failed or a result file could
 * not be written, else as for a row. */
gl_verdict gl_report_verdict(const gl_report *r);

/* Counts over the claims of one row (row index), or of the whole run (row -2). */
gl_tally gl_report_tally(const gl_report *r, int row);
enum { GL_TALLY_ALL = -2 };

const char *gl_verdict_name(gl_verdict v);
/* "timing", "ordering", "data", and back (-1 for an unknown name). */
const char *gl_claim_kind_name(gl_claim_kind k);
int gl_claim_kind_of(const char *name);
/* The form's own static string when name is a known claim form, else NULL. */
const char *gl_claim_form_of(const char *name);

#ifdef __cplusplus
}
#endif
#endif
