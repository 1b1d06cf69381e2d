/* options.c - the command-line parser shared by every experiment.
 *
 * Parsing is pure C and runs before any CUDA call, so a usage error never waits
 * for a context to be created and is reported the same on machines without a GPU. */
#include "gl_options.h"
#include "gl_connections.h"
#include "gl_common.h"
#include "gl_sched.h"
#include "gl_progress.h"
#include "gl_sweep.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gl_int_list_min(gl_int_list l)
{
    int m = l.v[0];
    for (int i = 1; i < l.n; i++) m = l.v[i] < m ? l.v[i] : m;
    return m;
}

int gl_int_list_max(gl_int_list l)
{
    int m = l.v[0];
    for (int i = 1; i < l.n; i++) m = l.v[i] > m ? l.v[i] : m;
    return m;
}

void gl_common_defaults(gl_common *c)
{
    memset(c, 0, sizeof(*c));
    c->repeat = 10;
    c->warmup = 2;
    c->seed = 20261121ULL;
    c->device = 0;
}

/* The common options, bound to one gl_common. Rebuilt per parse so that the
 * table points at the caller's struct. */
enum { N_COMMON = 15 };
static void common_table(gl_common *c, gl_option t[N_COMMON])
{
    gl_option tmp[N_COMMON] = {
        {"quick", GL_OPT_FLAG, &c->quick, 0, 0, NULL, NULL, "small, fast configuration (used by the tests)", 0},
        {"repeat", GL_OPT_INT, &c->repeat, 1, 100000, NULL, "3", "timed repetitions per configuration", 0},
        {"warmup", GL_OPT_INT, &c->warmup, 0, 100000, NULL, "1", "untimed repetitions before the timed ones", 0},
        {"seed", GL_OPT_U64, &c->seed, 0, 18446744073709551615.0, NULL, NULL, "seed for random inputs", 0},
        {"device", GL_OPT_INT, &c->device, 0, 1023, NULL, NULL, "CUDA device ordinal", 0},
        {"json", GL_OPT_STRING, &c->json_path, 0, 0, NULL, NULL, "write results (one row per configuration) as JSON to FILE", 0},
        {"csv", GL_OPT_STRING, &c->csv_path, 0, 0, NULL, NULL, "write results (one row per configuration) as CSV to FILE", 0},
        {"trace", GL_OPT_STRING, &c->trace_path, 0, 0, NULL, NULL, "write the measured timeline as Chrome trace-event JSON (Perfetto) to FILE", 0},
        {"timeline", GL_OPT_FLAG, &c->timeline, 0, 0, NULL, NULL, "draw the measured timeline in the terminal", 0},
        {"skip-timing-claims", GL_OPT_FLAG, &c->skip_timing_claims, 0, 0, NULL, NULL,
         "report timing claims as SKIP (for tools that serialize kernels, e.g. compute-sanitizer)", 0},
        {"profile", GL_OPT_FLAG, &c->profile, 0, 0, NULL, NULL,
         "run each configuration once, without warm-up or repeats (for Nsight Systems)", 0},
        {"no-l2-flush", GL_OPT_FLAG, &c->no_l2_flush, 0, 0, NULL, NULL,
         "do not flush the L2 cache before timed samples that move declared bytes", 0},
        {"connections", GL_OPT_INT_LIST, &c->connections, 1, GL_CONNECTIONS_MAX, NULL, NULL,
         "CUDA_DEVICE_MAX_CONNECTIONS, set before the runtime starts; a list (1,2,4) runs once per value and merges the results", 0},
        {"quiet", GL_OPT_FLAG, &c->quiet, 0, 0, NULL, NULL,
         "no progress line on stderr (shown only on a terminal, in runs longer than 2 s)", 0},
        {"help", GL_OPT_FLAG, NULL, 0, 0, NULL, NULL, "show this help and exit", 0},
    };
    memcpy(t, tmp, sizeof(tmp));
}

const char *gl_choice_name(const char *choices, int index, char *buf, int buflen)
{
    const char *p = choices;
    for (int i = 0; i < index && p; i++) {
        p = strchr(p, '|');
        if (p) p++;
    }
    if (!p || buflen <= 0) return "?";
    int n = 0;
    while (p[n] && p[n] != '|' && n < buflen - 1) {
        buf[n] = p[n];
        n++;
    }
    buf[n] = '\0';
    return buf;
}

/* Index of word in a "a|b|c" list, or -1. */
static int choice_index(const char *choices, const char *word)
{
    const char *p = choices;
    size_t len = strlen(word);
    for (int i = 0; p && *p; i++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, word, n) == 0) return i;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

/* "integer 1..1024", "one of a|b|c": the accepted values, for help and errors. */
static void describe_range(const gl_option *o, char *buf, size_t n)
{
    switch (o->type) {
    case GL_OPT_INT: snprintf(buf, n, "integer %.0f..%.0f", o->min, o->max); break;
    case GL_OPT_U64:
        /* 2^64 - 1 does not survive a round trip through double; say it in words. */
        if (o->max >= 18446744073709551615.0) snprintf(buf, n, "integer %.0f..2^64-1", o->min);
        else snprintf(buf, n, "integer %.0f..%.0f", o->min, o->max);
        break;
    case GL_OPT_DOUBLE: snprintf(buf, n, "number %g..%g", o->min, o->max); break;
    case GL_OPT_CHOICE: snprintf(buf, n, "one of %s", o->choices); break;
    case GL_OPT_STRING: snprintf(buf, n, "a non-empty path or text"); break;
    case GL_OPT_INT_LIST: snprintf(buf, n, "integers %.0f..%.0f, comma-separated", o->min, o->max); break;
    case GL_OPT_FLAG: snprintf(buf, n, "no value"); break;
    }
}

/* The option's current value as text (its default, when called before parsing). */
static void describe_value(const gl_option *o, char *buf, size_t n)
{
    char word[64];
    buf[0] = '\0';
    if (!o->value) return;
    switch (o->type) {
    case GL_OPT_INT: snprintf(buf, n, "%d", *(int *)o->value); break;
    case GL_OPT_U64: snprintf(buf, n, "%llu", *(unsigned long long *)o->value); break;
    case GL_OPT_DOUBLE: snprintf(buf, n, "%g", *(double *)o->value); break;
    case GL_OPT_CHOICE:
        snprintf(buf, n, "%s", gl_choice_name(o->choices, *(int *)o->value, word, sizeof word));
        break;
    case GL_OPT_STRING: {
        const char *s = *(const char **)o->value;
        if (s) snprintf(buf, n, "%s", s);
        break;
    }
    case GL_OPT_INT_LIST: {
        const gl_int_list *l = (const gl_int_list *)o->value;
        size_t used = 0;
        for (int i = 0; i < l->n && used < n; i++)
            used += (size_t)snprintf(buf + used, n - used, "%s%d", i ? "," : "", l->v[i]);
        break;
    }
    case GL_OPT_FLAG: break;
    }
}

/* Read a comma-separated list of integers in the option's range. */
static int set_list(gl_option *o, const char *text, const char *range, FILE *err)
{
    gl_int_list *l = (gl_int_list *)o->value;
    int n = 1;
    for (const char *p = text; *p; p++) n += *p == ',';
    int *v = (int *)gl_xcalloc((size_t)n, sizeof(int));
    const char *p = text;
    for (int i = 0; i < n; i++) {
        char *end = NULL;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        /* strtoll would skip spaces and take a '+': a list element is digits, with at most a leading '-'. */
        if (end == p || (*end != ',' && *end != '\0') || !(p[0] == '-' || (p[0] >= '0' && p[0] <= '9'))) {
            fprintf(err, "error: --%s: '%s' is not a list of integers; accepted: %s\n", o->name, text, range);
            free(v);
            return GL_EXIT_USAGE;
        }
        if (errno == ERANGE || x < o->min || x > o->max) {
            fprintf(err, "error: --%s: %.*s is out of range; accepted: %s\n", o->name, (int)(end - p), p, range);
            free(v);
            return GL_EXIT_USAGE;
        }
        for (int k = 0; k < i; k++) {
            if (v[k] != (int)x) continue;
            fprintf(err, "error: --%s: %lld is listed twice in '%s'\n", o->name, x, text);
            free(v);
            return GL_EXIT_USAGE;
        }
        v[i] = (int)x;
        p = end + 1;
    }
    free(l->v);
    l->v = v;
    l->n = n;
    return 0;
}

/* Read text into the option's destination, or explain on err why not. */
static int set_value(gl_option *o, const char *text, FILE *err)
{
    char range[128];
    describe_range(o, range, sizeof range);
    if (o->type != GL_OPT_STRING && o->type != GL_OPT_FLAG && text[0] == '\0') {
        fprintf(err, "error: --%s: empty value; accepted: %s\n", o->name, range);
        return GL_EXIT_USAGE;
    }
    switch (o->type) {
    case GL_OPT_INT:
    case GL_OPT_U64: {
        char *end = NULL;
        errno = 0;
        if (text[0] == '-' && o->type == GL_OPT_U64) {
            fprintf(err, "error: --%s: '%s' is out of range; accepted: %s\n", o->name, text, range);
            return GL_EXIT_USAGE;
        }
        unsigned long long u = 0;
        long long v = 0;
        if (o->type == GL_OPT_U64) u = strtoull(text, &end, 10);
        else v = strtoll(text, &end, 10);
        if (end == text || *end != '\0') {
            fprintf(err, "error: --%s: '%s' is not an integer; accepted: %s\n", o->name, text, range);
            return GL_EXIT_USAGE;
        }
        double d = o->type == GL_OPT_U64 ? (double)u : (double)v;
        int full_u64 = o->type == GL_OPT_U64 && o->max >= 18446744073709551615.0;
        if (errno == ERANGE || d < o->min || (!full_u64 && d > o->max)) {
            fprintf(err, "error: --%s: '%s' is out of range; accepted: %s\n", o->name, text, range);
            return GL_EXIT_USAGE;
        }
        if (o->type == GL_OPT_U64) *(unsigned long long *)o->value = u;
        else *(int *)o->value = (int)v;
        return 0;
    }
    case GL_OPT_DOUBLE: {
        char *end = NULL;
        errno = 0;
        double d = strtod(text, &end);
        if (end == text || *end != '\0' || isnan(d)) {
            fprintf(err, "error: --%s: '%s' is not a number; accepted: %s\n", o->name, text, range);
            return GL_EXIT_USAGE;
        }
        if (errno == ERANGE || isinf(d) || d < o->min || d > o->max) {
            fprintf(err, "error: --%s: '%s' is out of range; accepted: %s\n", o->name, text, range);
            return GL_EXIT_USAGE;
        }
        *(double *)o->value = d;
        return 0;
    }
    case GL_OPT_CHOICE: {
        int i = choice_index(o->choices, text);
        if (i < 0) {
            fprintf(err, "error: --%s: '%s' is not accepted; accepted: %s\n", o->name, text, range);
            return GL_EXIT_USAGE;
        }
        *(int *)o->value = i;
        return 0;
    }
    case GL_OPT_STRING:
        if (text[0] == '\0') {
            fprintf(err, "error: --%s: empty value; accepted: %s\n", o->name, range);
            return GL_EXIT_USAGE;
        }
        *(const char **)o->value = text;
        return 0;
    case GL_OPT_FLAG:
        *(int *)o->value = 1;
        return 0;
    case GL_OPT_INT_LIST:
        return set_list(o, text, range, err);
    }
    return GL_EXIT_USAGE;
}

const gl_option *gl_option_find(const gl_option *opts, int nopts, const char *name)
{
    for (int i = 0; i < nopts; i++)
        if (strcmp(opts[i].name, name) == 0) return &opts[i];
    return NULL;
}

static gl_option *find_len(gl_option *opts, int nopts, const char *name, size_t len)
{
    for (int i = 0; i < nopts; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0) return &opts[i];
    return NULL;
}

static void print_option(FILE *out, const gl_option *o)
{
    char range[128], def[128], lhs[64];
    describe_range(o, range, sizeof range);
    describe_value(o, def, sizeof def);
    const char *meta = "";
    switch (o->type) {
    case GL_OPT_INT: case GL_OPT_U64: meta = " N"; break;
    case GL_OPT_DOUBLE: meta = " X"; break;
    case GL_OPT_CHOICE: meta = " WORD"; break;
    case GL_OPT_STRING: meta = o->help && strstr(o->help, "FILE") ? " FILE" : " TEXT"; break; /* a path, or words */
    case GL_OPT_INT_LIST: meta = " N[,N...]"; break;
    case GL_OPT_FLAG: break;
    }
    snprintf(lhs, sizeof lhs, "--%s%s", o->name, meta);
    fprintf(out, "  %-24s %s", lhs, o->help);
    if (o->type != GL_OPT_FLAG && o->type != GL_OPT_STRING) {
        fprintf(out, " (%s; default %s", range, def[0] ? def : "none");
        if (o->quick) fprintf(out, "; --quick %s", o->quick);
        fputc(')', out);
    } else if (o->type == GL_OPT_STRING && def[0]) {
        fprintf(out, " (default %s)", def);
    }
    fputc('\n', out);
}

static void print_help(const gl_experiment *exp, const gl_option *opts, int nopts,
                       const gl_option *common, FILE *out)
{
    fprintf(out, "%s: %s\n\nusage: %s [options]    (or: make run-%s ARGS=\"...\")\n", exp->name,
            exp->question, exp->name, exp->name);
    if (exp->notes) fprintf(out, "\n%s\n", exp->notes);
    if (nopts > 0) {
        fprintf(out, "\nexperiment options:\n");
        for (int i = 0; i < nopts; i++) print_option(out, &opts[i]);
    }
    fprintf(out, "\ncommon options:\n");
    for (int i = 0; i < N_COMMON; i++) /* one the experiment took over is listed once, as its own */
        if (!gl_option_find(opts, nopts, common[i].name)) print_option(out, &common[i]);
    fprintf(out, "\nexit codes: 0 ok, 1 a check or claim failed, 2 usage error, 3 CUDA error (or a crash), 4 out of host "
                 "memory, 5 a result file could not be written, 6 internal error (a bug), 77 no suitable GPU for this "
                 "configuration\n");
}

int gl_options_parse(const gl_experiment *exp, gl_option *opts, int nopts, gl_common *common,
                     int argc, char **argv, FILE *out, FILE *err)
{
    gl_option ctab[N_COMMON];
    common_table(common, ctab);
    for (int i = 0; i < nopts; i++) opts[i].given = 0;

    /* --help wins over everything else, and shows the defaults untouched. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help(exp, opts, nopts, ctab, out);
            return GL_PARSE_HELP;
        }
    }

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            fprintf(err, "error: unexpected argument '%s' (options start with --; see --help)\n", arg);
            return GL_EXIT_USAGE;
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        gl_option *o = find_len(opts, nopts, name, len), *same = find_len(ctab, N_COMMON, name, len);
        if (!o) o = same;
        if (!o) {
            fprintf(err, "error: unknown option '--%.*s' (see --help)\n", (int)len, name);
            return GL_EXIT_USAGE;
        }
        const char *text;
        if (o->type == GL_OPT_FLAG) {
            if (eq) {
                fprintf(err, "error: --%s takes no value\n", o->name);
                return GL_EXIT_USAGE;
            }
            text = "";
        } else if (eq) {
            text = eq + 1;
        } else if (i + 1 < argc) {
            text = argv[++i];
        } else {
            char range[128];
            describe_range(o, range, sizeof range);
            fprintf(err, "error: --%s needs a value; accepted: %s\n", o->name, range);
            return GL_EXIT_USAGE;
        }
        int rc = set_value(o, text, err);
        if (rc) return rc;
        o->given = 1;
        if (same && same != o && same->type == GL_OPT_FLAG && o->type == GL_OPT_FLAG) { /* see gl_options.h */
            set_value(same, "", err);
            same->given = 1;
        }
    }

    if (common->quick) {
        gl_option *tables[2] = {opts, ctab};
        int counts[2] = {nopts, N_COMMON};
        for (int t = 0; t < 2; t++) {
            for (int i = 0; i < counts[t]; i++) {
                gl_option *o = &tables[t][i];
                if (!o->quick || o->given) continue;
                /* A common option the experiment's table names again is the experiment's: its --quick value, or
                 * the value given (marked given on the experiment's entry, not this one), stands (omp-streams'
                 * --repeat: 9 under --quick where the common one says 3, and --quick --repeat 5 gave 3 before). */
                if (t == 1 && find_len(opts, nopts, o->name, strlen(o->name))) continue;
                /* A --quick value that fails its own range is a bug in the table, not user error. */
                if (set_value(o, o->quick, err)) {
                    fprintf(err, "internal error: --quick value '%s' of --%s is invalid\n", o->quick, o->name);
                    return GL_EXIT_USAGE;
                }
            }
        }
    }
    return GL_PARSE_OK;
}

/* Can path be written? Opened for appending, so that an existing file is not
 * truncated by the check; a file the check created is removed again. */
static int writable(const char *path, FILE *err, const char *option)
{
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(err, "error: --%s %s: cannot write there (%s)\n", option, path, strerror(errno));
        return 0;
    }
    fclose(f);
    if (!existed) remove(path);
    return 1;
}

int gl_outputs_check(const gl_common *c, FILE *err)
{
    if (c->json_path && !writable(c->json_path, err, "json")) return GL_EXIT_USAGE;
    if (c->csv_path && !writable(c->csv_path, err, "csv")) return GL_EXIT_USAGE;
    if (c->trace_path && !writable(c->trace_path, err, "trace")) return GL_EXIT_USAGE;
    return 0;
}

void gl_options_parse_or_exit(const gl_experiment *exp, gl_option *opts, int nopts,
                              gl_common *common, int argc, char **argv)
{
    int rc = gl_options_parse(exp, opts, nopts, common, argc, argv, stdout, stderr);
    if (rc == GL_PARSE_HELP) exit(GL_EXIT_OK);
    if (rc != GL_PARSE_OK) exit(GL_EXIT_USAGE);
    if (gl_outputs_check(common, stderr)) exit(GL_EXIT_USAGE);
    gl_progress_setup(exp->name, common->quiet);
    char rule_err[160];
    if (gl_sched_queue_rule_env(0, rule_err, sizeof rule_err) < 0) gl_die(GL_EXIT_USAGE, "%s", rule_err);
    if (common->connections.n > 1)
        exit(gl_sweep_env(exp->name, argc, argv, common, "CUDA_DEVICE_MAX_CONNECTIONS", "connections",
                          common->connections.v, common->connections.n));
    if (common->connections.n == 0) {
        char err[512];
        if (gl_connections_env_check(err, sizeof err) < 0) gl_die(GL_EXIT_USAGE, "%s", err);
    }
    if (common->connections.n == 1) {
        char err[256];
        int c = common->connections.v[0];
        const char *before = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
        if (before && *before)
            printf("note: --connections %d overrides CUDA_DEVICE_MAX_CONNECTIONS=%s\n", c, before);
        if (gl_connections_request(c, err, sizeof err)) gl_die(GL_EXIT_USAGE, "--connections: %s", err);
    }
}

int gl_choose_names(const char *option, const char *text, const char *const *names, int n, int *chosen)
{
    memset(chosen, 0, sizeof(int) * (size_t)n);
    if (strcmp(text, "all") == 0) {
        for (int i = 0; i < n; i++) chosen[i] = 1;
        return n;
    }
    int count = 0;
    for (const char *p = text;;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < n; i++)
            if (strlen(names[i]) == len && strncmp(p, names[i], len) == 0) found = i;
        if (found < 0) {
            gl_buf list = GL_BUF_INIT;
            for (int i = 0; i < n; i++) gl_buf_printf(&list, "%s%s", i ? ", " : "", names[i]);
            gl_die(GL_EXIT_USAGE, "--%s: '%.*s' is not a known %s; accepted: all, or a comma-separated list of %s",
                   option, (int)len, p, option, gl_buf_str(&list));
        }
        if (chosen[found]) gl_die(GL_EXIT_USAGE, "--%s: %s is listed twice", option, names[found]);
        chosen[found] = 1;
        count++;
        if (p[len] == '\0') break;
        p += len + 1;
    }
    return count;
}
