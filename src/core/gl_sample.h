/* gl_sample.h - the one sampling loop: warm-up, repeats, named samples, statistics.
 *
 * An experiment hands the loop one function that performs the work once and
 * reports what it measured as named samples (gl_sample_put). The loop runs it
 * --warmup times untimed, then --repeat times, collects each named series, and
 * adds one statistics value per series to the row (min, median, mean, noise).
 * Under --profile it runs once, with no warm-up, so that a profiler shows one
 * clean instance of each configuration.
 *
 * Before each sample of a row that declared the bytes it moves (gl_row_work),
 * the loop flushes the L2 cache, unless --no-l2-flush: without the flush a
 * small working set is served from L2 and the "DRAM" bandwidth is the cache's.
 * The flush itself is the CUDA side's (gl_device_sampler); this file is pure C.
 *
 * The loop also keeps the progress line (gl_progress.h) of a long run: it says
 * which configuration runs (the row's variant and parameters) and how many of
 * its runs are done, with the time left in it; each run counts one unit of a
 * phase the experiment declared, which gl_sampler_plan does in one call. */
#ifndef GL_SAMPLE_H
#define GL_SAMPLE_H

#include "gl_options.h"
#include "gl_report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One named series of samples. */
typedef struct gl_series {
    char *name;     /* the value's name in the row */
    char *unit;     /* its unit */
    int precision;  /* display hint */
    unsigned flags; /* display hint bits (GL_SHOW_MIN, ...) */
    double *x;      /* the timed samples */
    int n;          /* samples taken in this run of the loop */
} gl_series;

typedef struct gl_sampler {
    int warmup, repeat;     /* untimed and timed repetitions */
    int flush_enabled;      /* 0 under --no-l2-flush */
    void (*flush)(void *);  /* empties the L2 cache; NULL when there is none to flush */
    void *flush_ctx;        /* passed to flush */
    long long flushes;      /* flushes done, for the record */
    gl_series *series;      /* declared series */
    int n_series;           /* how many */
    int cap_series;         /* allocated length of series */
    const char *steady_series; /* gl_sampler_steady's series (NULL: none), */
    double steady_rsd;         /* the noise it must be under, */
    int steady_rounds;         /* and the most sets of repeat runs taken for it */
} gl_sampler;

/* What one call of the sample function is. */
typedef struct gl_sample {
    gl_sampler *sampler; /* the loop */
    int rep;             /* 0.. for timed repetitions, negative for warm-up */
    int timed;           /* rep >= 0: what it puts is kept */
} gl_sample;

typedef void (*gl_sample_fn)(gl_sample *s, void *ctx);

/* Warm-up and repeats from the common options (one run under --profile). */
void gl_sampler_init(gl_sampler *s, const gl_common *common);
void gl_sampler_free(gl_sampler *s);
/* The flush to call before samples of rows that declare bytes. */
void gl_sampler_set_flush(gl_sampler *s, void (*flush)(void *), void *ctx);

/* Declare a series before running: its value's name, unit and display hint. */
void gl_sampler_series(gl_sampler *s, const char *name, const char *unit, int precision, unsigned flags);

/* Record this repetition's sample of a declared series (ignored during
 * warm-up). Putting an undeclared name, or one name twice in a repetition, is a
 * bug and exits saying so. */
void gl_sample_put(gl_sample *s, const char *name, double value);

/* Declare the timing phase to the progress line: configurations rows, each
 * run warm-up + repeat times by this sampler. The line then counts every run
 * against the whole plan and estimates the time left in it; gl_progress_end
 * (gl_progress.h) closes it. Without it the line still shows each configuration. */
void gl_sampler_plan(const gl_sampler *s, int configurations);

/* A row whose series' noise (relative standard deviation) is over max_rsd after its repeats gets another repeat
 * runs, all kept, until it is under or max_rounds sets are taken (each extension prints a note line; fewer than 3
 * repeats, as under --profile, never extend): a disturbance of several runs (copy-overlap on an H100 machine,
 * FINDINGS session 9) outlasts a median of 10, and more runs outlast it. The criterion is the measurement's own
 * spread, never its model. */
void gl_sampler_steady(gl_sampler *s, const char *series, double max_rsd, int max_rounds);

/* Run fn warm-up + repeat times for row (more under gl_sampler_steady), then add each series' statistics to
 * the row (a series with no samples is an error: every repetition must put
 * every series). Returns the number of timed repetitions. */
int gl_sampler_run(gl_sampler *s, gl_row *row, gl_sample_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
