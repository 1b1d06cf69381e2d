/* sweep.c - re-execute once per environment value; merge the children's JSON reports. */
#define _POSIX_C_SOURCE 200809L
#include "gl_sweep.h"
#include "gl_child.h"
#include "gl_json.h"
#include "gl_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- reading a report back ------------------------------------------------------ */

/* The verdict a report wrote as text. */
static gl_verdict verdict_of(const char *s)
{
    if (strcmp(s, "PASS") == 0) return GL_PASS;
    if (strcmp(s, "FAIL") == 0) return GL_FAIL;
    if (strcmp(s, "SKIP") == 0) return GL_SKIP;
    return GL_NO_VERDICT;
}

/* One claim object into row (NULL: the run). Returns 0 or -1 with err. */
static int read_claim(gl_report *r, gl_row *row, const gl_json *j, char *err, size_t errlen)
{
    gl_claim c;
    memset(&c, 0, sizeof c);
    int kind = gl_claim_kind_of(gl_json_str(gl_json_get(j, "kind"), ""));
    c.kind = (gl_claim_kind)kind;
    c.form = gl_claim_form_of(gl_json_str(gl_json_get(j, "form"), ""));
    c.verdict = verdict_of(gl_json_str(gl_json_get(j, "verdict"), ""));
    c.text = (char *)gl_json_str(gl_json_get(j, "text"), NULL);
    c.evidence = (char *)gl_json_str(gl_json_get(j, "evidence"), "");
    if (kind < 0 || !c.form || !c.text || c.verdict == GL_NO_VERDICT) {
        snprintf(err, errlen, "a claim without a known kind, form, text or verdict");
        return -1;
    }
    if (gl_json_get(j, "predicted")) {
        c.quantitative = 1;
        c.predicted = gl_json_num(gl_json_get(j, "predicted"), NAN);
        c.measured = gl_json_num(gl_json_get(j, "measured"), NAN);
        c.tolerance = gl_json_num(gl_json_get(j, "tolerance"), 0);
        c.slack = gl_json_num(gl_json_get(j, "slack"), 0);
        c.unit = (char *)gl_json_str(gl_json_get(j, "unit"), "");
    }
    gl_report_add_claim(r, row, &c);
    return 0;
}

/* A list of claims into row (NULL: the run). */
static int read_claims(gl_report *r, gl_row *row, const gl_json *arr, char *err, size_t errlen)
{
    if (!arr || arr->type != GL_JSON_ARRAY) {
        snprintf(err, errlen, "claims are not a list");
        return -1;
    }
    for (int i = 0; i < arr->n; i++)
        if (read_claim(r, row, &arr->items[i], err, errlen)) return -1;
    return 0;
}

/* One parameter or value object into row. */
static int read_value(gl_row *row, const char *name, const gl_json *j, int is_param, char *err, size_t errlen)
{
    const char *type = gl_json_str(gl_json_get(j, "type"), "");
    const char *unit = gl_json_str(gl_json_get(j, "unit"), "");
    int precision = (int)gl_json_num(gl_json_get(j, "precision"), -1);
    unsigned flags = (unsigned)gl_json_num(gl_json_get(j, "flags"), 0);
    if (strcmp(type, "stats") == 0) {
        gl_stats s;
        s.n = (int)gl_json_num(gl_json_get(j, "n"), 0);
        s.min = gl_json_num(gl_json_get(j, "min"), NAN);
        s.median = gl_json_num(gl_json_get(j, "median"), NAN);
        s.mean = gl_json_num(gl_json_get(j, "mean"), NAN);
        s.max = gl_json_num(gl_json_get(j, "max"), NAN);
        s.stddev = gl_json_num(gl_json_get(j, "stddev"), NAN);
        s.rsd = gl_json_num(gl_json_get(j, "rsd"), NAN);
        gl_row_stats(row, name, unit, precision, flags, s);
    } else if (strcmp(type, "number") == 0) {
        double v = gl_json_num(gl_json_get(j, "value"), NAN);
        if (is_param) gl_row_param_num(row, name, unit, precision, v);
        else gl_row_number(row, name, unit, precision, flags, v);
    } else if (strcmp(type, "text") == 0) {
        const char *t = gl_json_str(gl_json_get(j, "value"), "");
        if (is_param) gl_row_param(row, name, "%s", t);
        else gl_row_text(row, name, flags, "%s", t);
    } else {
        snprintf(err, errlen, "value '%s' has no known type", name);
        return -1;
    }
    return 0;
}

static int read_values(gl_row *row, const gl_json *obj, int is_param, char *err, size_t errlen)
{
    if (!obj || obj->type != GL_JSON_OBJECT) {
        snprintf(err, errlen, "row %s/%s: %s is not an object", row->table, row->variant, is_param ? "params" : "values");
        return -1;
    }
    for (int i = 0; i < obj->n; i++)
        if (read_value(row, obj->keys[i], &obj->items[i], is_param, err, errlen)) return -1;
    return 0;
}

static int read_row(gl_report *r, const gl_json *j, char *err, size_t errlen)
{
    const char *table = gl_json_str(gl_json_get(j, "table"), NULL), *variant = gl_json_str(gl_json_get(j, "variant"), NULL);
    const gl_json *dev = gl_json_get(j, "device");
    if (!table || !variant || !dev || dev->type != GL_JSON_OBJECT) {
        snprintf(err, errlen, "a row without table, variant or device");
        return -1;
    }
    gl_row *row = gl_report_row(r, table, variant);
    row->device = (gl_value *)gl_xcalloc((size_t)dev->n, sizeof(gl_value));
    row->n_device = dev->n;
    for (int i = 0; i < dev->n; i++) {
        gl_value *v = &row->device[i];
        v->name = gl_xstrdup(dev->keys[i]);
        v->unit = gl_xstrdup("");
        v->type = GL_VALUE_TEXT;
        v->precision = -1;
        v->text = gl_xstrdup(gl_json_str(&dev->items[i], ""));
    }
    const char *skip = gl_json_str(gl_json_get(j, "skip_reason"), NULL);
    if (skip) row->skip_reason = gl_xstrdup(skip);
    const gl_json *work = gl_json_get(j, "work");
    if (work && work->type == GL_JSON_OBJECT)
        gl_row_work(row, gl_json_str(gl_json_get(work, "time_value"), ""), gl_json_num(gl_json_get(work, "bytes"), 0),
                    gl_json_num(gl_json_get(work, "elements"), 0));
    if (read_values(row, gl_json_get(j, "params"), 1, err, errlen)) return -1;
    if (read_values(row, gl_json_get(j, "values"), 0, err, errlen)) return -1;
    return read_claims(r, row, gl_json_get(j, "claims"), err, errlen);
}

int gl_report_merge_json(gl_report *r, const char *path, char *err, size_t errlen)
{
    char why[256];
    gl_json *doc = gl_json_parse_file(path, why, sizeof why);
    if (!doc) {
        snprintf(err, errlen, "%s", why); /* names the path already */
        return -1;
    }
    const gl_json *rows = gl_json_get(doc, "rows");
    int rc = 0;
    int quiet = r->quiet_claims;
    r->quiet_claims = 1; /* the other process printed them already */
    if (!rows || rows->type != GL_JSON_ARRAY) {
        snprintf(why, sizeof why, "no rows list");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < rows->n; i++) rc = read_row(r, &rows->items[i], why, sizeof why);
    if (rc == 0) rc = read_claims(r, NULL, gl_json_get(doc, "run_claims"), why, sizeof why);
    const gl_json *found = gl_json_get(doc, "findings"); /* absent in records written before findings were kept */
    for (int i = 0; rc == 0 && found && found->type == GL_JSON_ARRAY && i < found->n; i++)
        gl_report_finding(r, "%s", gl_json_str(&found->items[i], ""));
    if (rc == 0 && r->peak_gbps == 0) r->peak_gbps = gl_json_num(gl_json_get(doc, "peak_gbps"), 0);
    r->quiet_claims = quiet;
    if (rc) snprintf(err, errlen, "%s: %s", path, why);
    gl_json_free(doc);
    return rc;
}

/* ---- running the children ------------------------------------------------------------ */

void gl_sweep_path(const char *path, int value, gl_buf *out)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (dot && (!slash || dot > slash + 1)) gl_buf_printf(out, "%.*s-%d%s", (int)(dot - path), path, value, dot);
    else gl_buf_printf(out, "%s-%d", path, value);
}

/* Is arg the option --name, alone ("--name", value follows) or "--name=..."? */
static int is_option(const char *arg, const char *name, int *takes_next)
{
    size_t n = strlen(name);
    if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, n) != 0) return 0;
    if (arg[2 + n] == '\0') {
        *takes_next = 1;
        return 1;
    }
    if (arg[2 + n] == '=') {
        *takes_next = 0;
        return 1;
    }
    return 0;
}

/* Run one child with env=value and the given arguments; returns its exit code.
 * A child killed by a signal crashed: that counts as 3, like a CUDA error. */
static int run_child(char **args, const char *env, int value)
{
    char text[16];
    snprintf(text, sizeof text, "%d", value);
    gl_child_spec spec = {args, NULL, NULL, env, text, GL_EXIT_USAGE};
    gl_child child;
    gl_child_start(&child, &spec);
    int status = gl_child_end(&child, -1);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    fprintf(stderr, "error: the run with %s=%d was killed by signal %d\n", env, value,
            WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return GL_EXIT_CUDA;
}

int gl_sweep_env(const char *experiment, int argc, char **argv, const gl_common *common, const char *env,
                 const char *option, const int *values, int n_values)
{
    char dir[] = "/tmp/gridlab-sweep-XXXXXX";
    if (!mkdtemp(dir)) gl_die(GL_EXIT_IO, "cannot make a folder for the sweep's reports: %s", strerror(errno));

    /* The children's command line: ours without the options the sweep owns,
     * plus a --json (and maybe --trace) of their own, and a NULL. */
    char **args = (char **)gl_xcalloc((size_t)argc + 5, sizeof(char *));
    int n = 0;
    args[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        int next = 0;
        if (is_option(argv[i], "json", &next) || is_option(argv[i], "csv", &next) ||
            is_option(argv[i], "trace", &next) || is_option(argv[i], option, &next)) {
            i += next;
            continue;
        }
        args[n++] = argv[i];
    }
    gl_report r;
    gl_report_init(&r, experiment, common);
    /* A value that cannot run here (77) stops the sweep: the child has said
     * why, and every later value would meet the same machine and say it again.
     * Errors (3, 4, 5, 6) outrank a failed check (1), and both outrank 77, so
     * that a skip never hides a failure. */
    int first_error = 0, failed = 0, merged = 0, stopped_at = -1;
    for (int v = 0; v < n_values && stopped_at < 0; v++) {
        gl_buf json = GL_BUF_INIT, trace = GL_BUF_INIT;
        gl_buf_printf(&json, "%s/%d.json", dir, v);
        int k = n;
        args[k++] = (char *)"--json";
        args[k++] = (char *)gl_buf_str(&json);
        if (common->trace_path) {
            gl_sweep_path(common->trace_path, values[v], &trace);
            args[k++] = (char *)"--trace";
            args[k++] = (char *)gl_buf_str(&trace);
        }
        args[k] = NULL;
        printf("== sweep %d of %d: %s=%d\n", v + 1, n_values, env, values[v]);
        int rc = run_child(args, env, values[v]);
        failed |= rc == GL_EXIT_CHECK;
        if (rc == GL_EXIT_NO_GPU) {
            stopped_at = v;
            fflush(stdout);
            fprintf(stderr, "note: the run with %s=%d exited 77, skipped for the reason above; the sweep stops there", env,
                    values[v]);
            if (v + 1 < n_values) {
                fprintf(stderr, " (not run: %s=", env);
                for (int u = v + 1; u < n_values; u++) fprintf(stderr, "%s%d", u > v + 1 ? "," : "", values[u]);
                fputc(')', stderr);
            }
            fputc('\n', stderr);
        } else if (rc != GL_EXIT_OK && rc != GL_EXIT_CHECK) {
            fprintf(stderr, "error: the run with %s=%d exited %d\n", env, values[v], rc);
            if (!first_error) first_error = rc;
        } else {
            char err[512];
            int before = r.n_rows;
            if (gl_report_merge_json(&r, gl_buf_str(&json), err, sizeof err)) {
                fprintf(stderr, "error: cannot merge the run with %s=%d: %s\n", env, values[v], err);
                if (!first_error) first_error = GL_EXIT_IO;
            } else {
                merged++;
            }
            for (int i = before; i < r.n_rows; i++)
                if (!gl_row_find(r.rows[i], option)) gl_row_param_num(r.rows[i], option, "", 0, values[v]);
        }
        remove(gl_buf_str(&json));
        gl_buf_free(&json);
        gl_buf_free(&trace);
    }
    rmdir(dir);
    free(args);
    int skipped = stopped_at >= 0;
    if (r.n_rows == 0 && r.n_claims == 0) { /* nothing ran to the end: there is nothing to merge */
        gl_report_free(&r);
        return first_error ? first_error : failed ? GL_EXIT_CHECK : skipped ? GL_EXIT_NO_GPU : GL_EXIT_INTERNAL;
    }
    if (skipped)
        printf("\n== sweep of %s stopped at %s=%d: %d of %d values merged, merged report of those:\n", env, env,
               values[stopped_at], merged, n_values);
    else
        printf("\n== sweep of %s: %d of %d values merged, merged report:\n", env, merged, n_values);
    int rc = gl_report_finish(&r);
    if (first_error) return first_error;
    if (failed || rc == GL_EXIT_CHECK) return GL_EXIT_CHECK;
    if (rc != GL_EXIT_OK) return rc; /* 5: the merged files are incomplete */
    return skipped ? GL_EXIT_NO_GPU : GL_EXIT_OK;
}
