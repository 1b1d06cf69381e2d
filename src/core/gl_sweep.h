/* gl_sweep.h - run an experiment once per environment setting and merge the results.
 *
 * Some settings only count when a process starts: the driver reads
 * CUDA_DEVICE_MAX_CONNECTIONS once, when it creates the context. To sweep such
 * a setting, the binary re-executes itself once per value, with the variable
 * set in the child's environment and a --json file of its own, then merges the
 * children's JSON rows into one report: one set of tables, one CSV, one JSON,
 * one verdict. Nothing reads a printed table. */
#ifndef GL_SWEEP_H
#define GL_SWEEP_H

#include <stddef.h>

#include "gl_options.h"
#include "gl_report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Re-execute this binary once per value of the environment variable env, with
 * the command line minus --json, --csv, --trace and --option (the option that
 * asked for the sweep). Each row gets a parameter named option with the value
 * when it has none. A --trace FILE becomes one file per value (FILE with
 * "-<value>" before its extension). A child that exits 77 (no suitable GPU)
 * stops the sweep: it has said why, and the later values would only say it
 * again; the values merged before it are still reported. Returns the exit code
 * for the whole sweep: the first child's code among 3..6, else 1 if a child or
 * the merged report failed a check, else 5 if the merged report could not be
 * written, else 77 if the sweep stopped, else 0. */
int gl_sweep_env(const char *experiment, int argc, char **argv, const gl_common *common, const char *env,
                 const char *option, const int *values, int n_values);

/* Add the rows and claims of a report that another process wrote with
 * gl_report_write_json. Rows keep their own device fields; claims are not
 * printed again. Returns 0, or -1 with the reason in err. */
int gl_report_merge_json(gl_report *r, const char *path, char *err, size_t errlen);

/* The path of one value's trace: "run.json", 4 -> "run-4.json". */
void gl_sweep_path(const char *path, int value, gl_buf *out);

#ifdef __cplusplus
}
#endif
#endif
