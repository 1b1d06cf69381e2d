/* model.c - a replayable program as JSON (model.h). */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"
#include "gl_json.h"
#include "model.h"

static const char FORMAT[] = "gridlab-replay-model 1";
enum { N_FIELDS = 21, N_FIELDS_20 = 20, N_FIELDS_19 = 19, N_FIELDS_18 = 18, N_FIELDS_17 = 17, N_FIELDS_16 = 16,
       N_FIELDS_OLD = 15 };
/* an op's array, in model.h's order (an older file's lacks handed, or it and chained, or those and sm_demand, or
   those and wake, or those and after, or those and timed) */
/* What a model may say, at most: a time of a day, a copy of 10 TB, a grid the simulation takes in seconds (its
 * time grows with the blocks), 64 blocks on an SM (Hopper holds 32). */
static const double MAX_MS = 86400e3, MAX_NS = 86400e9, MAX_BYTES = 1e13, MAX_BLOCKS = (double)RP_MAX_BLOCKS;
enum { MAX_PER_SM = 64 };

/* The fitted times a model carries beside the ops, each a number in [0, MAX_NS], absent in an older file (0: none,
 * the machine's own rule): fit.h's, in the order they are written. */
static const struct {
    const char *key;
    size_t at; /* its offset in rp_trace */
} TIMES[] = {{"sync_return_ns", offsetof(rp_trace, sync_return_ns)},
             {"copy_arrive_ns", offsetof(rp_trace, copy_arrive_ns)},
             {"graph_dispatch_ns", offsetof(rp_trace, graph_dispatch_ns)},
             {"graph_copy_after_kernel_ns", offsetof(rp_trace, graph_copy_after_kernel_ns)},
             {"graph_kernel_after_copy_ns", offsetof(rp_trace, graph_kernel_after_copy_ns)},
             {"graph_restart_ns", offsetof(rp_trace, graph_restart_ns)}};

static double *time_of(const rp_trace *t, int k) { return (double *)((char *)t + TIMES[k].at); }

static void num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v);
    else fputs("null", f);
}

int rp_model_write(const char *path, const char *source, const rp_trace *t, const gl_sched_program *p, const double *rs,
                   const double *re, int recorded, double dispatch_ns, double latency_ns)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    gl_buf s = GL_BUF_INIT, g = GL_BUF_INIT;
    gl_buf_json_string(&s, source);
    gl_buf_json_string(&g, t->gpu);
    fprintf(f, "{\"format\": \"%s\", \"source\": %s, \"gpu\": %s, \"sms\": %d, \"major\": %d, \"minor\": %d, \"lazy\": %d,\n",
            FORMAT, s.s, g.s, t->sms, t->major, t->minor, t->lazy);
    gl_buf_free(&s), gl_buf_free(&g);
    fprintf(f, " \"recorded_connections\": %d, \"event_trace\": %d, \"recorded_makespan_ms\": ", recorded, t->event_trace);
    num(f, (t->gpu_last_ns - t->gpu_first_ns) / 1e6);
    fprintf(f, ", \"dispatch_ns\": ");
    num(f, dispatch_ns);
    fprintf(f, ", \"latency_ns\": ");
    num(f, latency_ns);
    const double *gaps[2] = {t->copy_after_kernel_ns, t->kernel_after_copy_ns};
    for (int k = 0; k < 2; k++) {
        fprintf(f, k ? ", \"kernel_after_copy_ns\": [" : ",\n \"copy_after_kernel_ns\": [");
        num(f, gaps[k][0]);
        fputs(", ", f);
        num(f, gaps[k][1]);
        fputc(']', f);
    }
    for (int k = 0; k < GL_ARRAY_LEN(TIMES); k++) {
        fprintf(f, ", \"%s\": ", TIMES[k].key);
        num(f, *time_of(t, k));
    }
    fprintf(f, ",\n \"streams\": [");
    for (int i = 1; i < p->n_streams; i++)
        fprintf(f, "%s[%d, %d]", i > 1 ? ", " : "", p->streams[i].kind, p->streams[i].priority);
    fprintf(f, "], \"events\": %d, \"threads\": %d,\n \"ops\": [", p->n_events, p->n_threads);
    for (int i = 0; i < p->n_ops; i++) {
        const gl_sched_op *o = &p->ops[i];
        fprintf(f, "%s\n  [%d, %d, %d, %d, %d, %d, %d, ", i ? "," : "", o->kind, o->thread, o->stream, o->event,
                o->blocks, o->threads, o->blocks_per_sm);
        double first = o->kind == GL_SCHED_SYNC ? o->wake_ns : o->block_ns; /* a sync's field: its wake (model.h) */
        double wake = o->kind == GL_SCHED_HOSTFN ? o->wake_ns : 0;
        int launch = o->kind == GL_SCHED_LAUNCH;
        double v[14] = {first, o->issue_ns, o->dir,  o->pageable, o->bytes, o->copy_ns, rs[i], re[i], o->timed,
                        o->after, wake, launch ? o->sm_demand : 0, launch || o->kind == GL_SCHED_COPY ? o->chained : 0,
                        o->kind == GL_SCHED_COPY ? o->handed : 0};
        for (int k = 0; k < 14; k++) {
            if (k) fputs(", ", f);
            num(f, v[k]);
        }
        fputc(']', f);
    }
    fprintf(f, "]}\n");
    return fclose(f) == 0 ? 0 : -1;
}

static int bad(char *err, int errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
    return GL_EXIT_USAGE;
}

/* v as an int where it is one (a cast of NaN or of a number out of range would be undefined), else INT_MIN. */
static int as_int(double v)
{
    return isfinite(v) && fabs(v) < 2e9 ? (int)v : INT_MIN;
}

/* A whole number in [lo, hi] from j, or lo - 1. */
static long long whole(const gl_json *j, long long lo, long long hi)
{
    double v = gl_json_num(j, NAN);
    return (isfinite(v) && v == floor(v) && v >= (double)lo && v <= (double)hi) ? (long long)v : lo - 1;
}

int rp_model_read(const char *path, rp_trace *t, gl_sched_program *p, double **rs_out, double **re_out,
                  double *dispatch_ns, double *latency_ns, char *err, int errlen)
{
    char why[200];
    gl_json *j = gl_json_parse_file(path, why, sizeof why);
    if (!j) return bad(err, errlen, "--model %s: %s", path, why);
    memset(t, 0, sizeof *t);
    gl_sched_program_init(p);
    int rc = 0;
    const gl_json *streams = gl_json_get(j, "streams"), *ops = gl_json_get(j, "ops");
    if (strcmp(gl_json_str(gl_json_get(j, "format"), ""), FORMAT) != 0) {
        rc = bad(err, errlen, "--model %s: not a replay model (its \"format\" is not \"%s\": replay --export-model "
                 "writes one)", path, FORMAT);
    } else if (!streams || streams->type != GL_JSON_ARRAY || !ops || ops->type != GL_JSON_ARRAY || ops->n < 1) {
        rc = bad(err, errlen, "--model %s: \"streams\" and \"ops\" must be arrays, with at least one op", path);
    }
    double span_ms = gl_json_num(gl_json_get(j, "recorded_makespan_ms"), NAN);
    const gl_json *dj = gl_json_get(j, "dispatch_ns"), *lj = gl_json_get(j, "latency_ns");
    if (!rc && (!(span_ms > 0 && span_ms <= MAX_MS) || (dj && !(gl_json_num(dj, -1) >= 0 && gl_json_num(dj, -1) <= MAX_NS)) ||
                (lj && !(gl_json_num(lj, -1) >= 0 && gl_json_num(lj, -1) <= MAX_NS))))
        rc = bad(err, errlen, "--model %s: recorded_makespan_ms must be a number in (0, %g], dispatch_ns and latency_ns "
                 "numbers in [0, %g]", path, MAX_MS, MAX_NS);
    int events = (int)whole(gl_json_get(j, "events"), 0, 1 << 24), threads = (int)whole(gl_json_get(j, "threads"), 1, 4096);
    /* whole() gives lo - 1 for anything but a whole number in range: events -1, threads 0, both refused below */
    t->sms = (int)whole(gl_json_get(j, "sms"), 1, 100000);
    t->recorded_connections = (int)whole(gl_json_get(j, "recorded_connections"), 1, 32);
    if (!rc && (events < 0 || threads < 1 || t->sms < 1 || t->recorded_connections < 1))
        rc = bad(err, errlen, "--model %s: events, threads, sms and recorded_connections (1..32) must be given, as "
                 "whole numbers", path);
    if (!rc) {
        snprintf(t->gpu, sizeof t->gpu, "%s", gl_json_str(gl_json_get(j, "gpu"), "?"));
        snprintf(t->schema, sizeof t->schema, "model");
        t->major = (int)whole(gl_json_get(j, "major"), 0, 100), t->minor = (int)whole(gl_json_get(j, "minor"), 0, 100);
        t->lazy = gl_json_num(gl_json_get(j, "lazy"), 1) != 0;
        t->event_trace = gl_json_num(gl_json_get(j, "event_trace"), 0) != 0; /* absent: records traced not */
        t->gpu_first_ns = 0, t->gpu_last_ns = span_ms * 1e6;
        *dispatch_ns = gl_json_num(gl_json_get(j, "dispatch_ns"), *dispatch_ns);
        *latency_ns = gl_json_num(gl_json_get(j, "latency_ns"), *latency_ns);
        for (int k = 0; k < GL_ARRAY_LEN(TIMES) && !rc; k++) {
            const gl_json *g = gl_json_get(j, TIMES[k].key);
            double *v = time_of(t, k);
            *v = g ? gl_json_num(g, -1) : 0;
            if (!(*v >= 0 && *v <= MAX_NS))
                rc = bad(err, errlen, "--model %s: %s must be a number in [0, %g]", path, TIMES[k].key, MAX_NS);
        }
        const gl_json *ak = gl_json_get(j, "copy_after_kernel_ns"), *ac = gl_json_get(j, "kernel_after_copy_ns");
        for (int d = 0; d < 2; d++) { /* absent (an older file): none, as before they were fitted */
            t->copy_after_kernel_ns[d] = ak ? gl_json_num(gl_json_at(ak, d), NAN) : 0;
            t->kernel_after_copy_ns[d] = ac ? gl_json_num(gl_json_at(ac, d), NAN) : 0;
            if ((ak && (ak->type != GL_JSON_ARRAY || ak->n != 2)) || (ac && (ac->type != GL_JSON_ARRAY || ac->n != 2)) ||
                !(t->copy_after_kernel_ns[d] >= 0 && t->copy_after_kernel_ns[d] <= MAX_NS &&
                  t->kernel_after_copy_ns[d] >= 0 && t->kernel_after_copy_ns[d] <= MAX_NS))
                rc = bad(err, errlen, "--model %s: copy_after_kernel_ns and kernel_after_copy_ns must be two numbers "
                         "in [0, %g] each", path, MAX_NS);
        }
        for (int i = 0; i < streams->n && !rc; i++) {
            const gl_json *s = gl_json_at(streams, i);
            long long kind = whole(gl_json_at(s, 0), GL_SCHED_STREAM_BLOCKING, GL_SCHED_STREAM_NONBLOCKING);
            long long prio = whole(gl_json_at(s, 1), -1000, 1000);
            if (kind < GL_SCHED_STREAM_BLOCKING || prio < -1000)
                rc = bad(err, errlen, "--model %s: stream %d is not [kind 1..2, priority]", path, i + 1);
            else
                gl_sched_stream_new(p, (int)kind, (int)prio, -1);
        }
        for (int e = 0; e < events; e++) gl_sched_event_new(p);
    }
    double *rs = (double *)gl_xmalloc(sizeof(double) * (size_t)(ops ? ops->n + 1 : 1));
    double *re = (double *)gl_xmalloc(sizeof(double) * (size_t)(ops ? ops->n + 1 : 1));
    for (int i = 0, kernels = 0; !rc && i < ops->n; i++) {
        const gl_json *o = gl_json_at(ops, i);
        double v[N_FIELDS];
        for (int k = 0; k < N_FIELDS; k++) v[k] = gl_json_num(gl_json_at(o, k), NAN);
        if (o && o->type == GL_JSON_ARRAY && o->n == N_FIELDS_OLD) v[15] = t->event_trace; /* as the importer sets it */
        if (o && o->type == GL_JSON_ARRAY && o->n < N_FIELDS_17) v[16] = -1;
        if (o && o->type == GL_JSON_ARRAY && o->n < N_FIELDS_18) v[17] = 0;
        if (o && o->type == GL_JSON_ARRAY && o->n < N_FIELDS_19) v[18] = 0;
        if (o && o->type == GL_JSON_ARRAY && o->n < N_FIELDS_20) v[19] = 0;
        if (o && o->type == GL_JSON_ARRAY && o->n < N_FIELDS) v[20] = 0;
        int kind = as_int(v[0]), th = as_int(v[1]), st = as_int(v[2]), ev = as_int(v[3]);
        int sized = o && o->type == GL_JSON_ARRAY && o->n >= N_FIELDS_OLD && o->n <= N_FIELDS; /* 15..21 fields */
        int ok = sized && v[0] == kind &&
                 kind >= GL_SCHED_LAUNCH && (v[15] == 0 || v[15] == 1) &&
                 kind <= GL_SCHED_LOAD && kind != GL_SCHED_CREATE && v[1] == th && v[2] == st && v[3] == ev &&
                 th >= 0 && th < threads && fabs(v[8]) <= MAX_NS &&
                 st >= -1 && st < p->n_streams && ev >= -1 && ev < p->n_events && isfinite(v[8]); /* < 0: machine's */
        ok = ok && v[16] == floor(v[16]) && v[16] >= -1 && v[16] < ops->n && v[16] != i && v[17] >= 0 &&
             v[17] <= MAX_NS && (kind == GL_SCHED_HOSTFN || v[17] == 0) &&
             (kind == GL_SCHED_HOST || kind == GL_SCHED_SYNC || st >= 0) && v[18] >= 0 && v[18] <= 1 &&
             (kind == GL_SCHED_LAUNCH || v[18] == 0) &&
             (v[19] == 0 || ((kind == GL_SCHED_LAUNCH || kind == GL_SCHED_COPY) && v[19] == 1) ||
              (kind == GL_SCHED_LAUNCH && v[19] == 2)) &&
             (v[20] == 0 || (kind == GL_SCHED_COPY && v[20] == 1)) &&
             (!(kind == GL_SCHED_RECORD || kind == GL_SCHED_WAIT) || ev >= 0);
        if (ok && kind == GL_SCHED_LAUNCH)
            ok = v[4] >= 1 && v[4] <= MAX_BLOCKS && v[4] == floor(v[4]) && v[5] >= 1 && v[5] <= 1024 &&
                 v[5] == floor(v[5]) && v[6] >= 1 && v[6] <= MAX_PER_SM && v[6] == floor(v[6]) && v[7] >= 0 &&
                 v[7] <= MAX_NS;
        if (ok && kind == GL_SCHED_HOSTFN) ok = isnan(v[7]) || (v[7] >= 0 && v[7] <= MAX_NS);
        if (ok && kind == GL_SCHED_SYNC) ok = v[7] == -1 || (v[7] >= 0 && v[7] <= MAX_NS); /* -1 none, 0 the file's */
        if (ok && kind == GL_SCHED_COPY)
            ok = v[9] >= 0 && v[9] < GL_SCHED_DIRS && v[9] == floor(v[9]) && v[11] >= 0 && v[11] <= MAX_BYTES &&
                 v[12] >= 0 && v[12] <= MAX_NS;
        if (!ok) {
            rc = bad(err, errlen, "--model %s: op %d is not [kind, thread, stream, event, blocks, threads, "
                     "blocks_per_sm, block_ns, issue_ns, dir, pageable, bytes, copy_ns, start, end, timed, after, wake, "
                     "sm_demand, chained, handed] of "
                     "this program", path, i);
            break;
        }
        int op;
        switch (kind) {
        case GL_SCHED_LAUNCH:
            op = gl_sched_launch(p, th, st, (int)v[4], (int)v[5], (int)v[6], v[7], kernels++);
            p->ops[op].sm_demand = v[18];
            p->ops[op].chained = (int)v[19];
            break;
        case GL_SCHED_RECORD:
            op = gl_sched_record(p, th, st, ev);
            p->ops[op].timed = (int)v[15];
            break;
        case GL_SCHED_WAIT: op = gl_sched_wait(p, th, st, ev); break;
        case GL_SCHED_SYNC:
            op = ev >= 0 ? gl_sched_sync_event(p, th, ev) : gl_sched_sync_stream(p, th, st);
            p->ops[op].wake_ns = v[7];
            break;
        case GL_SCHED_COPY:
            op = gl_sched_copy(p, th, st, (int)v[9], v[11], v[10] != 0);
            p->ops[op].copy_ns = v[12];
            p->ops[op].chained = (int)v[19];
            p->ops[op].handed = (int)v[20];
            break;
        case GL_SCHED_HOSTFN:
            op = gl_sched_hostfn(p, th, st, isfinite(v[7]) ? v[7] : 0);
            p->ops[op].wake_ns = v[17];
            break;
        case GL_SCHED_LOAD: op = gl_sched_load(p, th, st); break;
        default: op = gl_sched_host(p, th, v[8]); break;
        }
        p->ops[op].issue_ns = v[8];
        p->ops[op].after = (int)v[16]; /* each entry is one op, in order: an op's index is its entry's */
        rs[op] = v[13], re[op] = v[14];
    }
    for (int i = 0; !rc && i < p->n_ops; i++)
        if (p->ops[i].after >= 0 && p->ops[p->ops[i].after].thread == p->ops[i].thread)
            rc = bad(err, errlen, "--model %s: op %d comes after op %d of its own thread (after: another thread's op)",
                     path, i, p->ops[i].after);
    gl_json_free(j);
    if (rc) {
        free(rs), free(re);
        gl_sched_program_free(p);
        return rc;
    }
    t->n_threads = p->n_threads, t->n_streams = p->n_streams, t->n_events = p->n_events;
    rp_rank_starts(p, rs);
    *rs_out = rs, *re_out = re;
    return 0;
}
