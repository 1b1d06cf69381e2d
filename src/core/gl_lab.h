/* gl_lab.h - the lab layer: an experiment declares its variants, options, output
 * and claims as data, and writes its kernels and its inputs; the core does
 * everything around them.
 *
 * What the core does, in the order main() asks for it (GL_LAB_SPEC makes the
 * spec's common part: name, question, notes, the tables, the run):
 *   gl_lab_open     the options (the experiment's, the common ones, and
 *                   --variant generated from the variant table), the gate's
 *                   preparation, the report, the device, one stream, the event
 *                   timer and the gate;
 *   gl_lab_drop     from spec.options_ok, before the runtime starts: a variant
 *                   left out of --variant's choice, for an option of the
 *                   experiment's own that picks variants (--table);
 *   gl_lab_need, gl_lab_malloc
 *                   a memory budget: what the data needs is checked against
 *                   what the device has free (less the L2 flush buffer) before
 *                   anything is allocated, and said in one line when it does
 *                   not fit (exit 77); allocations are freed at close
 *                   (gl_lab_buffers: a table of buffers, counted, checked,
 *                   allocated and zeroed in one call);
 *   gl_lab_add_config one configuration (an input, a type, a size): a row per
 *                   chosen variant, input-major, with the parameters given;
 *                   gl_lab_add_config_in puts its rows in a table of their
 *                   own, for some of the chosen variants (a measurement beside
 *                   the variants' own: a gather over each table's memory);
 *   gl_lab_check    every chosen variant of the configuration run once on a
 *                   poisoned output and compared with the reference (exactly,
 *                   or within a tolerance), the first mismatches printed;
 *   gl_lab_time     only when every check passed: every row timed with
 *                   warm-up, repeats, the L2 flushed before each sample, GPU
 *                   variants behind the gate and timed by events, host
 *                   variants by the host clock; a configuration whose check
 *                   took longer than the spec's slow_run_ms is timed at most
 *                   three times without warm-up (its check was its warm-up);
 *   gl_lab_judge    the declared claims, per configuration, with the standard
 *                   guard (judged only where the input is at least guard_l2
 *                   times the L2, SKIP with the reason below it), and a
 *                   speed_vs_<baseline> column per baseline variant;
 *   gl_lab_close    frees, closes the device, writes --trace, prints the
 *                   tables and the verdict, writes --json and --csv, and
 *                   returns the exit code.
 * Findings (gl_report_finding on L->rep) reach the JSON as claims do.
 *
 * A variant's run is one function: GPU variants queue their work on
 * L->stream (zeroing their output is part of the run), host variants compute
 * into gl_lab_host_out(L). The core calls it for the check and for every
 * sample, so what is timed is what was checked.
 *
 * For experiments whose kernels launch kernels (CDP2), and others that need them:
 *   spec.before_run untimed setup before every run (a host variant's working
 *                   copy, a reset queued before the gate); a sample's L2
 *                   flush comes after it, so what it touched is evicted too;
 *   spec.device_launches
 *                   the core counts device-side launches (L->d_launches, read
 *                   into L->launches after each run) and checks L->dev_err
 *                   after each run: a failed child launch is exit 3, not a
 *                   wrong result; L->timeout_s says when a tree is hung;
 *   gl_lab_pool     a pending-launch pool per variant, set again before each
 *                   of its runs (a larger pool slows every device launch);
 *   gl_lab_spans    a span buffer reset before every check run, so the check
 *                   run records its grids; gl_lab_timeline and gl_lab_show
 *                   read it, judge it and draw it (--timeline, --trace);
 *   gl_lab_run      one more run of a variant, for a demonstration that
 *                   repeats one (a race that shows only sometimes);
 *   spec.claim_guards
 *                   a claim's minimum input with its own SKIP reason, beside
 *                   the multiple of the L2. */
#ifndef GL_LAB_H
#define GL_LAB_H

#include "gl_check.h"
#include "gl_cuda.h"
#include "gl_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    GL_LAB_GPU = 0,       /* queued on L->stream, timed by events behind the gate */
    GL_LAB_HOST = 1,      /* computed on the host into gl_lab_host_out, timed by the host clock */
    GL_LAB_BASELINE = 2,  /* a library baseline: every row of a configuration gets speed_vs_<name> */
    GL_LAB_NOT_IN_ALL = 4 /* --variant all leaves it out (a demonstration, a slow reference) */
};

typedef struct gl_lab_variant {
    const char *name; /* as --variant takes it and the tables show it */
    unsigned flags;   /* GL_LAB_GPU or GL_LAB_HOST, and BASELINE, NOT_IN_ALL */
} gl_lab_variant;

enum {
    GL_LAB_FASTER, /* baseline time / subject time >= bound: "at least bound x as fast as" */
    GL_LAB_SLOWER  /* subject time / baseline time <= bound: "takes at most bound x the time of" */
};

/* A speed claim between two variants, judged in every configuration that ran both. */
typedef struct gl_lab_claim {
    const char *text;     /* printf format with one %s, the configuration's label */
    const char *subject;  /* the variant judged */
    int relation;         /* GL_LAB_FASTER or GL_LAB_SLOWER */
    const char *baseline; /* the variant it is compared with */
    double bound;         /* the ratio's bound */
    double guard_l2;      /* judged where the configuration's input is at least this many L2s; 0: always */
} gl_lab_claim;

/* More of a claim's guard, in spec.claim_guards (one per claim, in the same order), for a claim whose own
 * measure is not the L2: below a minimum input the time is mostly something else (a launch). */
typedef struct gl_lab_claim_guard {
    double min_bytes;  /* judged where the configuration's input is at least this many bytes; 0: no such guard */
    const char *why;   /* the SKIP reason below it: a printf format given three doubles, the subject's and the
                          baseline's times (us) and their ratio (subject / baseline) */
    int only_if_both;  /* 1: no claim where the baseline is not in --variant; 0: SKIP "n/a: ..." there */
} gl_lab_claim_guard;

typedef struct gl_lab gl_lab;

typedef struct gl_lab_spec {
    gl_experiment exp;               /* name, question, --help notes */
    const char *table;               /* the report's table; NULL: each configuration's label is its table */
    const gl_lab_variant *variants;  /* every variant, in the order of the rows */
    int n_variants;
    gl_option *options;              /* the experiment's own options; --variant is added */
    int n_options;
    const gl_lab_claim *claims;      /* the speed claims */
    int n_claims;
    const gl_lab_claim_guard *claim_guards; /* n_claims of them, or NULL: the L2 guard only */
    void (*run)(gl_lab *L, int variant, void *ctx); /* one run of a variant on configuration L->config: the
                                                       lab times every configuration after all were added, so
                                                       state kept per configuration is found by L->config, never
                                                       in a "current" field (that holds the last one added) */
    void *ctx;                       /* passed to run and to every hook below */
    void (*options_ok)(gl_lab *L, void *ctx); /* after parsing, before the runtime starts: refuse a combination
                                                 of values (gl_die with GL_EXIT_USAGE); NULL: none to refuse */
    int (*check)(gl_lab *L, int variant, gl_row *row, void *ctx); /* a check that is not an output compared
                                                 with a reference (a table walked, an invariant): called after
                                                 the variant's check run, it records its own CHECK lines on row
                                                 and returns 1 when they passed; NULL: gl_lab_output's compare */
    void (*after_run)(gl_lab *L, int variant, void *ctx); /* a GPU run has ended (L->checking: it was the check);
                                                             NULL: nothing to read back */
    void (*before_run)(gl_lab *L, int variant, void *ctx); /* before every run, outside its time: a host variant's
                                                              setup, a GPU variant's resets (queued on L->stream
                                                              before the gate); NULL: none */
    int device_launches;             /* kernels launch kernels: count them and check their errors after each run */
    int time_precision;              /* digits of the "time" column (us) */
    double slow_run_ms;              /* a check run this long: timed at most 3 times, no warm-up; 0: never */
    const char *guard_what;          /* what times below the guard measure: "launches, not the histogram" */
    int no_spans;                    /* --trace and --timeline are refused: nothing records spans */
    const char *axis;                /* what a configuration's label names, for NVTX ranges: "input" */
} gl_lab_spec;

/* One configuration: its rows (per variant; NULL when not chosen) and what the checks and the guard need. */
typedef struct gl_lab_config {
    char *label;          /* e.g. "uniform", "int32 inclusive" */
    gl_row **rows;        /* per variant */
    double *check_ms;     /* per variant: host time of its check run */
    double input_bytes;   /* the guard's measure */
} gl_lab_config;

struct gl_lab {
    const gl_lab_spec *spec;
    gl_common common;
    gl_report rep;
    gl_device dev;
    cudaStream_t stream;       /* every run's stream, named after the experiment */
    gl_event_timer timer;      /* around one GPU run */
    gl_gate gate;              /* holds the stream until a run is queued (not under --skip-timing-claims) */
    const char *variant_text;  /* --variant */
    int *chosen;               /* per variant: picked */
    int n_chosen;
    gl_lab_config *configs;    /* every configuration so far */
    int n_configs, cap_configs;
    int config, variant;       /* the one being run */
    int checking;              /* the run is a check, not a sample */
    int flush_due;             /* the sampler asked for an L2 flush: run_once does it after before_run */
    int all_exact;             /* every check so far passed */
    double need_bytes;         /* gl_lab_need's total */
    gl_buf need_what;          /* and what it is for */
    void **allocs;             /* gl_lab_malloc's, freed at close */
    int n_allocs, cap_allocs;
    void *h_out;               /* the host variants' output, and what a GPU output is read back into */
    size_t h_out_bytes;
    /* the current configuration's output, from gl_lab_output */
    gl_elem_type out_type;
    void *d_out;
    size_t out_count;
    const void *ref;
    double abs_tol, rel_tol;
    double timeout_s;          /* a GPU run still going after this long is hung: exit 3 (default 60) */
    /* spec.device_launches: what the kernels get, and what the last run did */
    gl_dev_error *dev_err;     /* device-side launches that failed: checked after every GPU run */
    unsigned long long *d_launches; /* device-side launches that succeeded: zeroed before every GPU run */
    unsigned long long launches;    /* ... and read back after it (0 after a host run) */
    size_t *pools;             /* per variant: its pending-launch pool (gl_lab_pool); 0: left as it is */
    size_t pool_now;           /* the pool in force */
    /* gl_lab_spans: the check runs' grids */
    int has_spans;             /* a span buffer was made */
    gl_spans spans;            /* reset before every check run */
    gl_timeline tl;            /* the last check run's, from gl_lab_timeline */
    int n_spans;               /* records fetched with it */
    gl_trace trace;            /* every run gl_lab_show added, written at close under --trace */
};

/* A spec of what every experiment declares: its name, question and notes, its tables of variants, options and
 * claims (arrays, counted here), and its run with its ctx; every other field zero, to be set by name. */
#define GL_LAB_SPEC(exp, variants, options, claims, run, ctx)                                                     \
    gl_lab_spec_of(&(exp), (variants), GL_ARRAY_LEN(variants), (options), GL_ARRAY_LEN(options), (claims),        \
                   GL_ARRAY_LEN(claims), (run), (ctx))
gl_lab_spec gl_lab_spec_of(const gl_experiment *exp, const gl_lab_variant *variants, int n_variants,
                           gl_option *options, int n_options, const gl_lab_claim *claims, int n_claims,
                           void (*run)(gl_lab *L, int variant, void *ctx), void *ctx);

/* Parse the options, prepare the gate, open the report and the device, make the stream, timer and gate. */
void gl_lab_open(gl_lab *L, const gl_lab_spec *spec, int argc, char **argv);
/* Whether variant v was chosen, by name. */
int gl_lab_chosen(const gl_lab *L, const char *name);
/* Leave the variant named out of the choice, for an option of the experiment's own that picks variants. Call it
 * from spec.options_ok, before any configuration has rows; saying why when nothing is left is the caller's. */
void gl_lab_drop(gl_lab *L, const char *name);

/* The checks' progress: configs configurations, each with setup_steps steps of the experiment's own (it
 * marks them with gl_progress_at and gl_progress_step) before its checks. */
void gl_lab_plan(gl_lab *L, int configs, int setup_steps);

/* Count bytes of device memory the data needs, and what for (one phrase). */
void gl_lab_need(gl_lab *L, double bytes, const char *what_fmt, ...) GL_PRINTF(3, 4);
/* Check the needs against free device memory, less twice the L2 (the flush buffer) and 64 MB; exits 77 saying so. */
void gl_lab_budget(gl_lab *L);
/* cudaMalloc, freed at close; at least one byte. */
void *gl_lab_malloc(gl_lab *L, size_t bytes);

/* Set variant v's pending-launch pool (cudaLimitDevRuntimePendingLaunchCount) for a run of `launches` device-side
 * launches made by `units` independent units (a chain of child grids each, one per top-level block; 1 when the
 * launches cannot be split), so that one unit's launches, launches / units, must fit at once. The pool asked for is
 * launches, at least the runtime's default 2048, halved while it leaves less device memory free than gl_lab_budget's
 * room (the L2 flush buffer and 64 MB), but not below one unit's; given (a --pool) is set as it is. The runtime
 * clamps the limit without an error, so it is read back. Adds the row's "pool" parameter (and "slices" when the
 * units are launched in more than one slice), prints "<variant>: <launches> device-side launches per run;
 * pending-launch pool <pool>", and sets the pool again before each of v's runs. Returns the units one host launch may
 * start so that its launches fit the pool (all of them when they fit). Returns 0 when one unit does not fit, or the
 * pool leaves too little memory (given aside): v's row is then SKIP, "needs a pending-launch pool of <n> (one
 * <unit>'s launches); the runtime gave ...". Call it after gl_lab_add_config, for a chosen v. */
long long gl_lab_pool(gl_lab *L, int v, long long launches, long long units, const char *unit, size_t given);

/* A span buffer for the check runs (gl_spans_create's arguments): reset before each, so that a run records its
 * grids from slot 0 (the run function reserves them when L->checking). Freed at close. */
void gl_lab_spans(gl_lab *L, unsigned int host_slots, unsigned int device_slots, int per_block);
/* From the spec's check: the check run's spans as a timeline (L->tl), for claims on its order. */
gl_timeline *gl_lab_timeline(gl_lab *L);
/* Show that timeline as the common options ask: drawn with --timeline, added to the trace with --trace. */
void gl_lab_show(gl_lab *L, const char *title, const gl_names *names);

/* A device buffer declared as data: gl_lab_buffers counts it, checks the budget and allocates it. */
typedef struct gl_lab_buffer {
    void *ptr;        /* the address of the experiment's device pointer (a T **): set to the allocation */
    double bytes;     /* its size (0: one byte is allocated) */
    const char *what; /* what it holds, for the budget's line when it does not fit */
} gl_lab_buffer;
/* gl_lab_need for every buffer, then gl_lab_budget (exit 77 when the needs do not fit), then each buffer allocated
 * with gl_lab_malloc and zeroed: counters and flags start at 0. */
void gl_lab_buffers(gl_lab *L, const gl_lab_buffer *bufs, int n);

/* Blocks of `threads` for a grid-stride pass over `work` items: as many as the GPU holds at once (the
 * occupancy calculator's blocks per SM x SMs), no more than the work needs, at least one. */
unsigned int gl_lab_grid(const gl_lab *L, const void *kernel, int threads, long long work);

/* Start a configuration: rows for every chosen variant, each with param "name" set to the label unless name
 * is NULL. input_bytes is what the claims' guard measures. Returns its index. */
int gl_lab_add_config(gl_lab *L, double input_bytes, const char *label_fmt, ...) GL_PRINTF(3, 4);
/* The same, with its rows in `table` (NULL: where gl_lab_add_config puts them) and only for the chosen variants v
 * with only[v] set (only NULL: every chosen variant), for a measurement beside the variants' own. A claim whose
 * baseline was chosen but left out here is not judged in it. */
int gl_lab_add_config_in(gl_lab *L, const char *table, const int *only, double input_bytes, const char *label_fmt,
                         ...) GL_PRINTF(5, 6);
/* The current configuration's row of variant v (NULL when not chosen). */
gl_row *gl_lab_row(const gl_lab *L, int config, int v);
/* Add a parameter to every row of the current configuration. */
void gl_lab_param(gl_lab *L, const char *name, const char *fmt, ...) GL_PRINTF(3, 4);
void gl_lab_param_num(gl_lab *L, const char *name, double v);
/* Declare every row's bytes moved and elements per run: GB/s and elements/s are derived, the L2 is flushed. */
void gl_lab_work(gl_lab *L, double bytes, double elements);

/* The current configuration's output: count elements of type at d_out (GPU variants write there; it is
 * poisoned before each check), compared with ref within abs_tol + rel_tol * |ref| (0, 0: exactly). */
void gl_lab_output(gl_lab *L, gl_elem_type type, void *d_out, size_t count, const void *ref, double abs_tol,
                   double rel_tol);
/* Where a host variant writes its output (count elements of the output's type). */
void *gl_lab_host_out(gl_lab *L);
/* Check every chosen variant of the current configuration that is not skipped: poison the output (NaN for
 * floats), run once, compare (or call the spec's check); the check's text is "<variant> <what>", e.g. what = "on uniform: 256 bins match
 * the CPU reference exactly". Returns 1 when all matched. */
int gl_lab_check(gl_lab *L, const char *what_fmt, ...) GL_PRINTF(2, 3);

/* One more run of variant v on the current configuration, as a sample runs (before_run, the gate, the events,
 * the device-side checks, after_run), neither a check (L->checking is 0 during it) nor timed: for a demonstration
 * that repeats a variant. Returns its time in ms. */
double gl_lab_run(gl_lab *L, int v);

/* Time every row not skipped, when every check passed (else says that nothing is timed); returns whether it
 * timed. */
int gl_lab_time(gl_lab *L);
/* Median time (us) of a configuration's variant; NAN when it was not run or not timed. */
double gl_lab_median(const gl_lab *L, int config, int v);
/* The speed_vs_<baseline> columns and the declared claims (SKIP where the baseline was not chosen, unless the
 * claim is only_if_both; SKIP below its guard). */
void gl_lab_judge(gl_lab *L);

/* Free everything, close the device, finish the report; returns the exit code. */
int gl_lab_close(gl_lab *L);

#ifdef __cplusplus
}
#endif
#endif
