/* lab.cu - the lab layer (gl_lab.h): everything around an experiment's kernels. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_lab.h"
#include "gl_nvtx.h"
#include "gl_progress.h"

enum { SLOW_REPEAT = 3 };       /* timed runs of a configuration whose check was slow */
enum { DEFAULT_POOL = 2048 };   /* the runtime's pending-launch pool when nobody sets it */

static char *vprint(const char *fmt, va_list ap)
{
    gl_buf b = GL_BUF_INIT;
    gl_buf_vprintf(&b, fmt, ap);
    return b.s ? b.s : gl_xstrdup("");
}

static size_t elem_size(gl_elem_type t)
{
    switch (t) {
    case GL_U8: return 1;
    case GL_I64:
    case GL_U64:
    case GL_F64: return 8;
    default: return 4;
    }
}

gl_lab_spec gl_lab_spec_of(const gl_experiment *exp, const gl_lab_variant *variants, int n_variants,
                           gl_option *options, int n_options, const gl_lab_claim *claims, int n_claims,
                           void (*run)(gl_lab *L, int variant, void *ctx), void *ctx)
{
    gl_lab_spec s;
    memset(&s, 0, sizeof s);
    s.exp = *exp;
    s.variants = variants;
    s.n_variants = n_variants;
    s.options = options;
    s.n_options = n_options;
    s.claims = claims;
    s.n_claims = n_claims;
    s.run = run;
    s.ctx = ctx;
    return s;
}

void gl_lab_open(gl_lab *L, const gl_lab_spec *spec, int argc, char **argv)
{
    memset(L, 0, sizeof *L);
    L->spec = spec;
    L->variant_text = "all";
    L->all_exact = 1;
    /* --variant, from the table: "all" leaves out what is not in all */
    gl_buf help = GL_BUF_INIT;
    gl_buf_puts(&help, "all, or a comma-separated list of: ");
    for (int v = 0; v < spec->n_variants; v++) gl_buf_printf(&help, "%s%s", v ? ", " : "", spec->variants[v].name);
    int n_opts = spec->n_options + 1;
    gl_option *opts = (gl_option *)gl_xcalloc((size_t)n_opts, sizeof *opts);
    memcpy(opts, spec->options, sizeof *opts * (size_t)spec->n_options);
    opts[spec->n_options] = (gl_option){"variant", GL_OPT_STRING, &L->variant_text, 0, 0, NULL, NULL,
                                        gl_buf_str(&help), 0};
    gl_common_defaults(&L->common);
    gl_options_parse_or_exit(&spec->exp, opts, n_opts, &L->common, argc, argv);
    memcpy(spec->options, opts, sizeof *opts * (size_t)spec->n_options); /* "given" flags back to the caller */
    free(opts);
    gl_buf_free(&help);
    gl_gate_prepare(); /* before the runtime starts: see gl_gate.h */
    if (spec->no_spans && (L->common.trace_path || L->common.timeline))
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: %s records no spans (one run per sample, timed by events)",
               spec->exp.name);

    const char **names = (const char **)gl_xcalloc((size_t)spec->n_variants, sizeof *names);
    for (int v = 0; v < spec->n_variants; v++) names[v] = spec->variants[v].name;
    L->chosen = (int *)gl_xcalloc((size_t)spec->n_variants, sizeof(int));
    gl_choose_names("variant", L->variant_text, names, spec->n_variants, L->chosen);
    free(names);
    int every = strcmp(L->variant_text, "all") == 0;
    for (int v = 0; v < spec->n_variants; v++) {
        if (every && (spec->variants[v].flags & GL_LAB_NOT_IN_ALL)) L->chosen[v] = 0;
        L->n_chosen += L->chosen[v];
    }
    if (spec->options_ok) spec->options_ok(L, spec->ctx);

    gl_report_init(&L->rep, spec->exp.name, &L->common);
    gl_device_open(&L->dev, &L->common, &L->rep);
    CUDA_CHECK(cudaStreamCreateWithFlags(&L->stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(L->stream, spec->exp.name);
    gl_timer_create(&L->timer);
    gl_gate_create(&L->gate, !L->common.skip_timing_claims); /* sanitizers serialize launches: no gate there */
    L->timeout_s = 60;
    L->pools = (size_t *)gl_xcalloc((size_t)spec->n_variants, sizeof *L->pools);
    gl_trace_init(&L->trace);
    if (spec->device_launches) {
        L->dev_err = gl_dev_error_create();
        L->d_launches = (unsigned long long *)gl_lab_malloc(L, sizeof *L->d_launches);
    }
}

static int variant_index(const gl_lab *L, const char *name)
{
    for (int v = 0; v < L->spec->n_variants; v++)
        if (strcmp(L->spec->variants[v].name, name) == 0) return v;
    gl_die(GL_EXIT_INTERNAL, "%s: no variant named '%s'", L->spec->exp.name, name);
}

int gl_lab_chosen(const gl_lab *L, const char *name)
{
    return L->chosen[variant_index(L, name)];
}

void gl_lab_drop(gl_lab *L, const char *name)
{
    if (L->n_configs) /* rows already made for it would stay behind */
        gl_die(GL_EXIT_INTERNAL, "%s: variant '%s' dropped after the first configuration", L->spec->exp.name, name);
    int v = variant_index(L, name);
    L->n_chosen -= L->chosen[v];
    L->chosen[v] = 0;
}

void gl_lab_plan(gl_lab *L, int configs, int setup_steps)
{
    gl_progress_begin((double)configs * (setup_steps + L->n_chosen), 0, "validation");
}

/* ---- memory ------------------------------------------------------------------------------- */

void gl_lab_need(gl_lab *L, double bytes, const char *what_fmt, ...)
{
    va_list ap;
    va_start(ap, what_fmt);
    char *what = vprint(what_fmt, ap);
    va_end(ap);
    L->need_bytes += bytes;
    gl_buf_printf(&L->need_what, "%s%s %.2f GB", L->need_what.len ? ", " : "", what, bytes / 1e9);
    free(what);
}

/* Device memory a run needs beside the data: the L2 flush buffer (made at the first sample), and slack. */
static double flush_room(const gl_lab *L)
{
    return 2.0 * L->dev.l2_bytes + (64 << 20);
}

void gl_lab_budget(gl_lab *L)
{
    size_t free_b = 0, total_b = 0;
    double room = flush_room(L);
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (L->need_bytes + room > (double)free_b)
        gl_no_gpu("this configuration needs %.2f GB of device memory for its data (%s); %.2f GB of %.2f GB is free",
                  L->need_bytes / 1e9, gl_buf_str(&L->need_what), free_b / 1e9, total_b / 1e9);
}

void *gl_lab_malloc(gl_lab *L, size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes > 0 ? bytes : 1));
    gl_grow((void **)&L->allocs, &L->cap_allocs, L->n_allocs + 1, sizeof *L->allocs);
    L->allocs[L->n_allocs++] = p;
    return p;
}

void gl_lab_buffers(gl_lab *L, const gl_lab_buffer *bufs, int n)
{
    for (int i = 0; i < n; i++) gl_lab_need(L, bufs[i].bytes, "%s", bufs[i].what);
    gl_lab_budget(L);
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)bufs[i].bytes;
        void *p = gl_lab_malloc(L, bytes);
        CUDA_CHECK(cudaMemset(p, 0, bytes > 0 ? bytes : 1));
        *(void **)bufs[i].ptr = p;
    }
}

/* ---- device-side launches: the pending-launch pool, the spans of the check runs ------------- */

long long gl_lab_pool(gl_lab *L, int v, long long launches, long long units, const char *unit, size_t given)
{
    /* One pool per variant, set again before each of its runs: a second configuration's pool would replace the
     * first's, whose slices were planned for it. */
    if (L->pools[v])
        gl_die(GL_EXIT_INTERNAL, "%s: gl_lab_pool called twice for %s (one pool per variant; one configuration)",
               L->spec->exp.name, L->spec->variants[v].name);
    units = units > 0 ? units : 1;
    long long least = launches / units; /* one unit's launches may all be pending at once */
    size_t want = given ? given : launches > DEFAULT_POOL ? (size_t)launches : (size_t)DEFAULT_POOL;
    size_t pool = 0, free_b = 0, total_b = 0;
    for (;;) {
        CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, want));
        CUDA_CHECK(cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount));
        CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (given || least == 0 || free_b >= flush_room(L) || want / 2 < (size_t)least) break;
        want /= 2; /* the pool is allocated from device memory: a smaller one leaves the run its room */
    }
    L->pool_now = pool;
    gl_row *row = L->configs[L->config].rows[v];
    if (!given && least > 0 && (free_b < flush_room(L) || (long long)pool < least)) {
        gl_row_skip(row, "needs a pending-launch pool of %lld (one %s's launches); the runtime gave %zu, leaving "
                    "%.2f GB free of %.2f GB", least, unit, pool, free_b / 1e9, total_b / 1e9);
        return 0;
    }
    L->pools[v] = pool;
    /* a larger tree is started in slices of whole units, each slice's launches within the pool */
    long long per_slice = !given && least > 0 && launches > (long long)pool ? (long long)pool / least : units;
    long long slices = (units + per_slice - 1) / per_slice;
    gl_row_param_num(row, "pool", "", 0, (double)pool);
    if (slices > 1) gl_row_param_num(row, "slices", "", 0, (double)slices);
    printf("%s: %lld device-side launches per run; pending-launch pool %zu%s", L->spec->variants[v].name, launches,
           pool, given ? " (--pool)" : "");
    if (slices > 1) printf(", the top level launched in %lld slices of %lld %ss", slices, per_slice, unit);
    printf("\n");
    return per_slice;
}

/* Put variant v's pool in force before its runs: another variant's may be in force (never inside a sample). */
static void use_pool(gl_lab *L, int v)
{
    if (!L->pools[v] || L->pools[v] == L->pool_now) return;
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, L->pools[v]));
    CUDA_CHECK(cudaDeviceGetLimit(&L->pool_now, cudaLimitDevRuntimePendingLaunchCount));
    if (L->pool_now != L->pools[v]) /* its slices were planned for the first: they could overflow this one */
        gl_die(GL_EXIT_CUDA, "%s: the runtime gave a pending-launch pool of %zu, %zu when it was sized",
               L->spec->variants[v].name, L->pool_now, L->pools[v]);
}

void gl_lab_spans(gl_lab *L, unsigned int host_slots, unsigned int device_slots, int per_block)
{
    gl_spans_create(&L->spans, host_slots, device_slots, per_block);
    L->has_spans = 1;
}

gl_timeline *gl_lab_timeline(gl_lab *L)
{
    L->n_spans = gl_spans_timeline(&L->spans, &L->tl);
    return &L->tl;
}

void gl_lab_show(gl_lab *L, const char *title, const gl_names *names)
{
    gl_show_run(&L->trace, &L->common, title, &L->tl, L->spans.h_spans, L->n_spans, names);
}

unsigned int gl_lab_grid(const gl_lab *L, const void *kernel, int threads, long long work)
{
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    long long full = (long long)L->dev.sms * (per_sm > 0 ? per_sm : 1), want = (work + threads - 1) / threads;
    return (unsigned int)(want < 1 ? 1 : want < full ? want : full);
}

/* ---- configurations and rows ---------------------------------------------------------------- */

/* A configuration labelled by label_fmt and ap: rows in table (NULL: the spec's, else the label) for the chosen
 * variants that only lets in (NULL: all of them). */
static int add_config(gl_lab *L, const char *table, const int *only, double input_bytes, const char *label_fmt,
                      va_list ap)
{
    const gl_lab_spec *s = L->spec;
    gl_grow((void **)&L->configs, &L->cap_configs, L->n_configs + 1, sizeof *L->configs);
    gl_lab_config *c = &L->configs[L->n_configs];
    c->label = vprint(label_fmt, ap);
    c->input_bytes = input_bytes;
    c->rows = (gl_row **)gl_xcalloc((size_t)s->n_variants, sizeof *c->rows);
    c->check_ms = (double *)gl_xcalloc((size_t)s->n_variants, sizeof *c->check_ms);
    if (!table) table = s->table ? s->table : c->label;
    for (int v = 0; v < s->n_variants; v++)
        if (L->chosen[v] && (!only || only[v])) c->rows[v] = gl_report_row(&L->rep, table, s->variants[v].name);
    L->config = L->n_configs++;
    return L->config;
}

int gl_lab_add_config(gl_lab *L, double input_bytes, const char *label_fmt, ...)
{
    va_list ap;
    va_start(ap, label_fmt);
    int k = add_config(L, NULL, NULL, input_bytes, label_fmt, ap);
    va_end(ap);
    return k;
}

int gl_lab_add_config_in(gl_lab *L, const char *table, const int *only, double input_bytes, const char *label_fmt,
                         ...)
{
    va_list ap;
    va_start(ap, label_fmt);
    int k = add_config(L, table, only, input_bytes, label_fmt, ap);
    va_end(ap);
    return k;
}

gl_row *gl_lab_row(const gl_lab *L, int config, int v)
{
    return config >= 0 && config < L->n_configs ? L->configs[config].rows[v] : NULL;
}

void gl_lab_param(gl_lab *L, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = vprint(fmt, ap);
    va_end(ap);
    for (int v = 0; v < L->spec->n_variants; v++)
        if (L->configs[L->config].rows[v]) gl_row_param(L->configs[L->config].rows[v], name, "%s", text);
    free(text);
}

void gl_lab_param_num(gl_lab *L, const char *name, double x)
{
    for (int v = 0; v < L->spec->n_variants; v++)
        if (L->configs[L->config].rows[v]) gl_row_param_num(L->configs[L->config].rows[v], name, "", 0, x);
}

void gl_lab_work(gl_lab *L, double bytes, double elements)
{
    for (int v = 0; v < L->spec->n_variants; v++)
        if (L->configs[L->config].rows[v]) gl_row_work(L->configs[L->config].rows[v], "time", bytes, elements);
}

/* ---- one run ------------------------------------------------------------------------------ */

/* One run of variant v on the current configuration; its time in ms (GPU: events behind the gate). */
static double run_once(gl_lab *L, int v)
{
    const gl_lab_spec *s = L->spec;
    L->variant = v;
    if (s->before_run) s->before_run(L, v, s->ctx);
    if (L->flush_due) { /* the sample's L2 flush, after the untimed setup, so that what it touched is evicted too */
        L->flush_due = 0;
        if (s->before_run) gl_stream_wait(L->stream, L->timeout_s, "the setup before a run");
        gl_l2_flush(&L->dev);
    }
    if (s->variants[v].flags & GL_LAB_HOST) {
        L->launches = 0;
        double t0 = gl_host_ns();
        s->run(L, v, s->ctx);
        return (gl_host_ns() - t0) / 1e6;
    }
    if (L->d_launches) CUDA_CHECK(cudaMemsetAsync(L->d_launches, 0, sizeof *L->d_launches, L->stream));
    gl_gate_close(&L->gate, L->stream); /* everything queued below starts together: the events time the device */
    gl_timer_start(&L->timer, L->stream);
    s->run(L, v, s->ctx);
    gl_timer_stop(&L->timer, L->stream);
    if (!gl_gate_open(&L->gate))
        gl_die(GL_EXIT_INTERNAL, "queueing %s took longer than the gate waits: its time would include the host's",
               s->variants[v].name);
    gl_stream_wait(L->stream, L->timeout_s, s->variants[v].name); /* a hung run is exit 3, not a hang */
    if (L->dev_err) { /* a child launch that failed is exit 3 here, not a wrong result later */
        gl_dev_error_check(L->dev_err);
        CUDA_CHECK(cudaMemcpy(&L->launches, L->d_launches, sizeof L->launches, cudaMemcpyDeviceToHost));
    }
    if (s->after_run) s->after_run(L, v, s->ctx);
    return gl_timer_ms(&L->timer);
}

double gl_lab_run(gl_lab *L, int v)
{
    int checking = L->checking;
    L->checking = 0;
    use_pool(L, v);
    double ms = run_once(L, v);
    L->checking = checking;
    return ms;
}

/* ---- checks ------------------------------------------------------------------------------- */

void gl_lab_output(gl_lab *L, gl_elem_type type, void *d_out, size_t count, const void *ref, double abs_tol,
                   double rel_tol)
{
    L->out_type = type;
    L->d_out = d_out;
    L->out_count = count;
    L->ref = ref;
    L->abs_tol = abs_tol;
    L->rel_tol = rel_tol;
    size_t bytes = elem_size(type) * (count > 0 ? count : 1);
    if (bytes > L->h_out_bytes) {
        free(L->h_out);
        L->h_out = gl_xmalloc(bytes);
        L->h_out_bytes = bytes;
    }
}

void *gl_lab_host_out(gl_lab *L)
{
    return L->h_out;
}

int gl_lab_check(gl_lab *L, const char *what_fmt, ...)
{
    const gl_lab_spec *s = L->spec;
    gl_lab_config *c = &L->configs[L->config];
    va_list ap;
    va_start(ap, what_fmt);
    char *what = vprint(what_fmt, ap);
    va_end(ap);
    int all = 1, is_float = L->out_type == GL_F32 || L->out_type == GL_F64;
    size_t bytes = elem_size(L->out_type) * L->out_count;
    L->checking = 1;
    for (int v = 0; v < s->n_variants; v++) {
        if (!c->rows[v] || c->rows[v]->skip_reason) continue;
        int host = (s->variants[v].flags & GL_LAB_HOST) != 0, own = s->check != NULL;
        if (!host && !own) /* poison (NaN for floats): an element the variant fails to write shows */
            CUDA_CHECK(cudaMemsetAsync(L->d_out, is_float ? 0xFF : 0xA5, bytes, L->stream)); /* ordered before the run */
        if (!own) memset(L->h_out, 0x5A, bytes);
        gl_progress_at("checking %s on %s", s->variants[v].name, c->label);
        gl_nvtx_push("check %s=%s variant=%s", s->axis ? s->axis : "configuration", c->label, s->variants[v].name);
        use_pool(L, v);
        if (L->has_spans) gl_spans_reset(&L->spans); /* synchronous: before the run's gate */
        double t0 = gl_host_ns();
        run_once(L, v);
        if (!host && !own) CUDA_CHECK(cudaMemcpy(L->h_out, L->d_out, bytes, cudaMemcpyDeviceToHost));
        c->check_ms[v] = (gl_host_ns() - t0) / 1e6;
        gl_nvtx_pop();
        gl_progress_step(1);
        if (own) {
            all &= s->check(L, v, c->rows[v], s->ctx) != 0;
            continue;
        }
        char text[320];
        snprintf(text, sizeof text, "%s %s", s->variants[v].name, what);
        all &= gl_check_compare(&L->rep, c->rows[v], text, L->out_type, L->ref, L->h_out, L->out_count, L->abs_tol,
                                L->rel_tol);
    }
    free(what);
    L->checking = 0;
    L->all_exact &= all;
    return all;
}

/* ---- timing ------------------------------------------------------------------------------- */

/* The sampler's flush, before each sample of a row that declares bytes: left to run_once, which does it after
 * before_run (a reset queued there would otherwise bring its buffers back into the L2 before the timed run). */
static void flush_later(void *arg)
{
    ((gl_lab *)arg)->flush_due = 1;
}

static void sample_fn(gl_sample *smp, void *arg)
{
    gl_lab *L = (gl_lab *)arg;
    gl_sample_put(smp, "time", run_once(L, L->variant) * 1e3);
}

int gl_lab_time(gl_lab *L)
{
    const gl_lab_spec *s = L->spec;
    gl_progress_end(); /* the checks' phase */
    if (!L->all_exact) { /* wrong results are not timed */
        printf("\na result did not match: nothing is timed\n");
        return 0;
    }
    gl_sampler fast, slow;
    gl_common slow_common = L->common;
    slow_common.repeat = L->common.repeat < SLOW_REPEAT ? L->common.repeat : SLOW_REPEAT;
    slow_common.warmup = 0; /* the check was its warm-up */
    gl_device_sampler(&fast, &L->dev, &L->common);
    gl_device_sampler(&slow, &L->dev, &slow_common);
    gl_sampler_set_flush(&fast, flush_later, L);
    gl_sampler_set_flush(&slow, flush_later, L);
    gl_sampler_series(&fast, "time", "us", s->time_precision, GL_SHOW_MIN | GL_SHOW_NOISE);
    gl_sampler_series(&slow, "time", "us", s->time_precision, GL_SHOW_MIN | GL_SHOW_NOISE);
#define IS_SLOW(c, v) (s->slow_run_ms > 0 && (c)->check_ms[v] > s->slow_run_ms)
#define TIMED(c, v) ((c)->rows[v] && !(c)->rows[v]->skip_reason)
    /* The plan, for the progress line: runs, and what they cost as the checks measured them. */
    double runs = 0, cost = 0;
    gl_buf slow_list = GL_BUF_INIT;
    for (int v = 0; v < s->n_variants; v++) {
        int first = 1;
        for (int k = 0; k < L->n_configs; k++) {
            const gl_lab_config *c = &L->configs[k];
            if (!TIMED(c, v)) continue;
            const gl_sampler *smp = IS_SLOW(c, v) ? &slow : &fast;
            runs += smp->warmup + smp->repeat;
            cost += (smp->warmup + smp->repeat) * c->check_ms[v];
            if (!IS_SLOW(c, v)) continue;
            if (first) gl_buf_printf(&slow_list, "%s%s on %s", slow_list.len ? "; " : "", s->variants[v].name, c->label);
            else gl_buf_printf(&slow_list, ", %s", c->label);
            first = 0;
        }
    }
    if (slow_list.len)
        printf("\ntiming: over %g ms a run in validation, so timed %d time%s without warm-up: %s\n", s->slow_run_ms,
               slow.repeat, slow.repeat == 1 ? "" : "s", gl_buf_str(&slow_list));
    gl_buf_free(&slow_list);
    gl_progress_begin(runs, cost, "timing");
    for (int k = 0; k < L->n_configs; k++) {
        gl_lab_config *c = &L->configs[k];
        L->config = k;
        for (int v = 0; v < s->n_variants; v++) {
            if (!TIMED(c, v)) continue;
            gl_nvtx_push("%s=%s variant=%s", s->axis ? s->axis : "configuration", c->label, s->variants[v].name);
            L->variant = v;
            use_pool(L, v);
            gl_progress_cost(c->check_ms[v]);
            gl_sampler_run(IS_SLOW(c, v) ? &slow : &fast, c->rows[v], sample_fn, L);
            gl_nvtx_pop();
        }
    }
#undef IS_SLOW
#undef TIMED
    gl_progress_end();
    gl_sampler_free(&fast);
    gl_sampler_free(&slow);
    return 1;
}

double gl_lab_median(const gl_lab *L, int config, int v)
{
    return gl_row_median(gl_lab_row(L, config, v), "time");
}

/* ---- claims ------------------------------------------------------------------------------- */

void gl_lab_judge(gl_lab *L)
{
    const gl_lab_spec *s = L->spec;
    for (int k = 0; k < L->n_configs; k++)
        for (int b = 0; b < s->n_variants; b++) {
            double base = gl_lab_median(L, k, b);
            if (!(s->variants[b].flags & GL_LAB_BASELINE) || isnan(base)) continue;
            char name[96];
            snprintf(name, sizeof name, "speed_vs_%s", s->variants[b].name);
            for (int v = 0; v < s->n_variants; v++) {
                double t = gl_lab_median(L, k, v);
                if (!isnan(t)) gl_row_number(gl_lab_row(L, k, v), name, "x", 2, 0, base / t);
            }
        }
    static const gl_lab_claim_guard l2_only = {0, NULL, 0};
    for (int i = 0; i < s->n_claims; i++) {
        const gl_lab_claim *cl = &s->claims[i];
        const gl_lab_claim_guard *g = s->claim_guards ? &s->claim_guards[i] : &l2_only;
        int sv = variant_index(L, cl->subject), bv = variant_index(L, cl->baseline);
        for (int k = 0; k < L->n_configs; k++) {
            const gl_lab_config *c = &L->configs[k];
            if (!c->rows[sv] || c->rows[sv]->skip_reason) continue;
            double ts = gl_lab_median(L, k, sv), tb = gl_lab_median(L, k, bv), floor = cl->guard_l2 * L->dev.l2_bytes;
            char text[256];
            snprintf(text, sizeof text, cl->text, c->label);
            if (!c->rows[bv]) { /* a baseline left out of only this configuration (gl_lab_add_config_in) was
                                   never meant to be compared there: no SKIP line for it */
                if (!g->only_if_both && !L->chosen[bv])
                    gl_claim_skip(&L->rep, c->rows[sv], GL_CLAIM_TIMING, text, "n/a: %s is not in --variant",
                                  cl->baseline);
            } else if (c->input_bytes < g->min_bytes) {
                if (!g->why) gl_die(GL_EXIT_INTERNAL, "claim '%s': a guard's min_bytes without its why", text);
                char why[320];
                snprintf(why, sizeof why, g->why, ts, tb, ts / tb);
                gl_claim_skip(&L->rep, c->rows[sv], GL_CLAIM_TIMING, text, "%s", why);
            } else if (c->input_bytes < floor) {
                char times[32];
                snprintf(times, sizeof times, cl->guard_l2 == 2 ? "twice" : "%g times", cl->guard_l2);
                gl_claim_skip(&L->rep, c->rows[sv], GL_CLAIM_TIMING, text,
                              "%.1f MB of input is less than %s the L2 (%.0f MB): the times (%s %.1f us, %s %.1f us) "
                              "measure %s",
                              c->input_bytes / 1e6, times, floor / 1e6, cl->subject, ts, cl->baseline, tb,
                              s->guard_what);
            } else if (cl->relation == GL_LAB_FASTER) {
                gl_claim_ratio_at_least(&L->rep, c->rows[sv], GL_CLAIM_TIMING, text, cl->baseline, tb, cl->subject,
                                        ts, cl->bound);
            } else {
                gl_claim_ratio_at_most(&L->rep, c->rows[sv], GL_CLAIM_TIMING, text, cl->subject, ts, cl->baseline,
                                       tb, cl->bound);
            }
        }
    }
}

/* ---- close -------------------------------------------------------------------------------- */

int gl_lab_close(gl_lab *L)
{
    gl_progress_end();
    gl_trace_finish(&L->trace, &L->common, &L->rep);
    gl_timeline_free(&L->tl);
    if (L->has_spans) gl_spans_destroy(&L->spans);
    if (L->dev_err) gl_dev_error_destroy(L->dev_err);
    gl_timer_destroy(&L->timer);
    gl_gate_destroy(&L->gate);
    for (int i = 0; i < L->n_allocs; i++) CUDA_CHECK(cudaFree(L->allocs[i]));
    CUDA_CHECK(cudaStreamDestroy(L->stream));
    gl_device_close(&L->dev);
    for (int k = 0; k < L->n_configs; k++) {
        free(L->configs[k].label);
        free(L->configs[k].rows);
        free(L->configs[k].check_ms);
    }
    free(L->configs);
    free(L->allocs);
    free(L->chosen);
    free(L->pools);
    free(L->h_out);
    gl_buf_free(&L->need_what);
    return gl_report_finish(&L->rep);
}
