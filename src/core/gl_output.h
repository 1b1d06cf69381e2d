/* gl_output.h - what a report prints and writes: the bandwidth derived from
 * declared work, the terminal tables, the JSON and the CSV, all from the rows
 * (gl_report.h holds the rows, claims and checks they are made from). */
#ifndef GL_OUTPUT_H
#define GL_OUTPUT_H

#include <stdio.h>

#include "gl_report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print every table (one per table name, in the order first used), then the
 * reasons of skipped rows. */
void gl_report_print_tables(gl_report *r, FILE *f);

/* Print the tables, write --json and --csv, print the verdict line, free the
 * report, and return the exit code: 0 when nothing failed, 1 when a claim or
 * check failed, 5 (GL_EXIT_IO) when a result file could not be written. */
int gl_report_finish(gl_report *r);

/* Writers, exposed for the unit tests and the sweep helper. Return 0 on success. */
int gl_report_write_json(gl_report *r, FILE *f);
int gl_report_write_csv(gl_report *r, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
