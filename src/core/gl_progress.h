/* gl_progress.h - one line on stderr that says what a long run is doing and how long it has left.
 *
 * A run that lasts more than a few seconds shows, on stderr when stderr is a
 * terminal, one line that it rewrites in place (a carriage return, never a
 * newline) and erases before anything else is printed:
 *
 *     histogram: timing 41/96 (43%), 0:35 elapsed, ~0:47 left | 2/3 runs of cpu input=single bins=256 n=1073741824
 *
 * Nothing at all is written when stderr is not a terminal (a file, a pipe, CI),
 * when TERM is "dumb", under the common option --quiet, or before the run is
 * GL_PROGRESS_DELAY_S old: quick runs and the tests print what they printed
 * before. The line is redrawn at most GL_PROGRESS_HZ times a second, cut to the
 * terminal's width (so it never wraps), and erased at exit.
 *
 * Every experiment gets it without a call: gl_options_parse_or_exit sets it up,
 * and gl_sampler_run (gl_sample.h) shows the configuration it is running (the
 * row's variant and parameters) and its runs done out of warm-up + repeat,
 * with the time left in that configuration. An experiment that knows its whole
 * plan declares it, and the line then counts and estimates over the plan:
 *
 *     gl_sampler_plan(&smp, rows_to_time);          (rows x (warm-up + repeat) runs)
 *  or gl_progress_begin(total, 0, "timing");   ...   gl_progress_end();
 *
 * Its own long host steps (a CPU reference over 2^30 bytes, an input generator)
 * report the same way: gl_progress_at("reference %s", input) says what runs,
 * gl_progress_step(k) counts k units of a declared phase done (from any thread:
 * an OpenMP loop may call it per chunk), gl_progress_item("chunks", i, n) says how
 * far the current step is. Output of one's own while the line may be up (printf in a
 * long loop) goes after gl_progress_clear(); the report's CHECK, CLAIM and SKIP
 * lines do that themselves.
 *
 * The estimate is linear: time left = elapsed x (cost left) / (cost done). A
 * unit costs 1 unless the phase says otherwise: when its runs are far from
 * equal (a CPU loop of seconds beside kernels of microseconds), it declares
 * what the whole phase costs and, before each part, what one unit of that part
 * costs (gl_progress_cost; milliseconds measured in validation, say), and the
 * estimate stops swinging from one configuration to the next. Without a phase
 * it is the current item's: elapsed in it x (n - i) / i. */
#ifndef GL_PROGRESS_H
#define GL_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#include "gl_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GL_PROGRESS_DELAY_S 2.0 /* nothing shows in a run's first seconds: quick runs stay as they were */
#define GL_PROGRESS_HZ 10.0     /* redraws per second, at most */

/* ---- setting up -------------------------------------------------------------------------- */

/* Decide for this process: on when stderr is a terminal (isatty(2)), TERM is
 * not "dumb" and quiet is 0. name begins the line. Called by
 * gl_options_parse_or_exit with the experiment's name and --quiet; the run's
 * clock (GL_PROGRESS_DELAY_S) starts here. */
void gl_progress_setup(const char *name, int quiet);

/* The same with the decision made by the caller, for tests: draw on out when
 * is_tty and not quiet (out NULL: off). Resets every phase and count. */
void gl_progress_open(FILE *out, int is_tty, int quiet, const char *name);

/* Replace the clock (nanoseconds, monotonic; NULL: gl_host_ns), for tests that
 * step time by hand. Set it before gl_progress_open, which reads the start. */
void gl_progress_set_clock(double (*now_ns)(void));

/* 1 when a line may be drawn (setup decided on). */
int gl_progress_enabled(void);

/* ---- what runs --------------------------------------------------------------------------- */

/* Begin a phase of total units (runs, say; total <= 0: not known), named by
 * fmt: the line then shows done/total, the percent and the time left. What the
 * whole phase costs is total_cost (any unit), or <= 0 when every unit costs 1.
 * A new phase replaces the one before. */
void gl_progress_begin(double total, double total_cost, const char *fmt, ...) GL_PRINTF(3, 4);

/* What each unit counted from now on costs, in the phase's total_cost units. */
void gl_progress_cost(double per_unit);

/* Say what runs now (a configuration and its variant, "reference uniform"),
 * and redraw if one is due, so that a long step shows while it runs. Resets
 * the item count. */
void gl_progress_at(const char *fmt, ...) GL_PRINTF(1, 2);

/* How far the current item is: i of n done, counted in noun ("runs" of this
 * configuration, "chunks" of this reference); n <= 0 clears it. The item's
 * clock, for its own estimate, starts at the call with i == 0. */
void gl_progress_item(const char *noun, long long i, long long n);

/* Units of the phase done: adds them, and redraws when one is due. Safe from
 * any thread; a thread that finds another drawing does not wait for it. */
void gl_progress_step(double units);

/* End the phase and erase the line. */
void gl_progress_end(void);

/* Erase the line now, if it is up, so that other output starts on a clean
 * line; the next step draws it again. Cheap when nothing is shown. */
void gl_progress_clear(void);

/* ---- the arithmetic, exposed for the tests ----------------------------------------------- */

/* Seconds left at a constant rate: elapsed_s * (total - done) / done, done and
 * total in cost units; NAN when nothing is done yet or the total is not known,
 * 0 when done >= total. */
double gl_progress_eta_s(double elapsed_s, double done, double total);

/* A duration as the line prints it: "0:07", "12:05", "1:02:03"; "?" when not finite or negative. */
void gl_progress_duration(double s, char *buf, size_t n);

/* The line as it would be drawn now, at most width - 1 characters (no control
 * characters); returns its length. */
int gl_progress_format(char *buf, size_t n, int width);

#ifdef __cplusplus
}
#endif
#endif
