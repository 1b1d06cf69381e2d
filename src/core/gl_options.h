/* gl_options.h - declarative command-line options, parsed before the CUDA runtime starts.
 *
 * An experiment declares its own options in one table (type, default, range,
 * --quick value, help line); the common options (--repeat, --json, ...) are added
 * by the parser. Every malformed or out-of-range value is a usage error (exit 2)
 * whose message names the option and the accepted range. */
#ifndef GL_OPTIONS_H
#define GL_OPTIONS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GL_OPT_INT,    /* value points to an int; range [min, max] */
    GL_OPT_U64,    /* value points to an unsigned long long; range [min, max] */
    GL_OPT_DOUBLE, /* value points to a double; range [min, max] */
    GL_OPT_FLAG,   /* value points to an int set to 1; takes no argument */
    GL_OPT_CHOICE, /* value points to an int: the index of the word in choices */
    GL_OPT_STRING, /* value points to a const char *; any non-empty text */
    GL_OPT_INT_LIST /* value points to a gl_int_list: "4" or "1,2,4", each in [min, max] */
} gl_opt_type;

/* A list of integers from the command line, e.g. --connections 1,2,4. */
typedef struct gl_int_list {
    int *v; /* the values, in the order given (heap; NULL when empty) */
    int n;  /* how many */
} gl_int_list;

/* The smallest and the largest value of a list that has one (n >= 1). */
int gl_int_list_min(gl_int_list l);
int gl_int_list_max(gl_int_list l);

typedef struct gl_option {
    const char *name;    /* long name without the leading "--" */
    gl_opt_type type;    /* how the argument is read and checked */
    void *value;         /* where the value goes; its initial content is the default */
    double min, max;     /* accepted range for INT, U64 and DOUBLE */
    const char *choices; /* "a|b|c" for CHOICE */
    const char *quick;   /* value applied under --quick when the option was not given (NULL: keep) */
    const char *help;    /* one line for --help */
    int given;           /* set by the parser when the option appears on the command line */
} gl_option;

/* The options every experiment has. Defaults are set by gl_common_defaults(). */
typedef struct gl_common {
    int quick;               /* small, fast configuration, for tests */
    int repeat;              /* timed repetitions per configuration */
    int warmup;              /* untimed repetitions before those */
    unsigned long long seed; /* seed for random inputs */
    int device;              /* CUDA device ordinal */
    const char *json_path;   /* results as JSON, or NULL */
    const char *csv_path;    /* results as CSV, or NULL */
    const char *trace_path;  /* Chrome trace-event JSON timeline, or NULL */
    int timeline;            /* draw a text timeline in the terminal */
    int skip_timing_claims;  /* report timing claims as SKIP (for runs under tools that serialize kernels) */
    int profile;             /* one run of each configuration, no warm-up, no repeats (for nsys) */
    int no_l2_flush;         /* do not flush the L2 cache before samples that declare bytes */
    gl_int_list connections; /* CUDA_DEVICE_MAX_CONNECTIONS: one value is set before the runtime starts; several re-execute the binary once per value */
    int quiet;               /* no progress line on stderr (gl_progress.h), even on a terminal */
} gl_common;

/* Who the experiment is, for --help. */
typedef struct gl_experiment {
    const char *name;     /* kebab-case, the same as the make target */
    const char *question; /* the question the experiment answers, one line */
    const char *notes;    /* extra --help text (examples, model), or NULL */
} gl_experiment;

enum { GL_PARSE_OK = 0, GL_PARSE_HELP = -1 };

void gl_common_defaults(gl_common *common);

/* Parse argv against the experiment's table plus the common options. Returns
 * GL_PARSE_OK, GL_PARSE_HELP (help was printed to out), or GL_EXIT_USAGE (a
 * message was printed to err). Applies --quick values afterwards.
 * An experiment's option may have the name of a common one: the experiment's
 * is the one the parser fills and --help lists; when both are flags, the
 * common flag is set as well, so that a word means one thing to the user
 * (nested-hello's --quiet, which counts its hello lines instead of printing
 * them, also silences the progress line). Under --quick such an option takes
 * the experiment's --quick value, and keeps a value given on the command
 * line (omp-streams' --repeat: 9 under --quick, not the common 3). */
int gl_options_parse(const gl_experiment *exp, gl_option *opts, int nopts, gl_common *common,
                     int argc, char **argv, FILE *out, FILE *err);

/* Check before any GPU work that every result file (--json, --csv, --trace)
 * can be written: a path that cannot is a usage error, said in err (a file
 * that did not exist before is not left behind). Returns 0 or GL_EXIT_USAGE. */
int gl_outputs_check(const gl_common *common, FILE *err);

/* gl_options_parse for main(): exits 0 after --help and 2 after a usage error
 * or an unwritable output path. Sets up the progress line (gl_progress.h: on a
 * terminal, unless --quiet). Then applies --connections: one value is set
 * in the environment before the CUDA runtime starts; several re-execute this
 * binary once per value, merge the results, and exit (gl_sweep_env). */
void gl_options_parse_or_exit(const gl_experiment *exp, gl_option *opts, int nopts,
                              gl_common *common, int argc, char **argv);

/* The option called name, or NULL: lets an experiment ask whether it was given. */
const gl_option *gl_option_find(const gl_option *opts, int nopts, const char *name);

/* A selection from a list of names, as --variant takes it: "all", or names
 * separated by commas. Sets chosen[i] for each name picked (all of them for
 * "all") and returns how many; a name not in names, an empty one or one given
 * twice exits 2 with a message that names the option and lists the names. */
int gl_choose_names(const char *option, const char *text, const char *const *names, int n, int *chosen);

/* The word at index in a "a|b|c" list, copied into buf (for printing a CHOICE). */
const char *gl_choice_name(const char *choices, int index, char *buf, int buflen);

#ifdef __cplusplus
}
#endif
#endif
