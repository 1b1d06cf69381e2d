/* queue-map.cu - which hardware queue each stream's launch lands in.
 *
 * Question: which hardware queue does each stream's launch land in on this GPU, and is it the queue the scheduling model picks?
 * Build: none
 * Sanitize: --quick --profile --streams 8 --skip-timing-claims
 *
 * A long kernel L and a kernel D that waits for it go into stream 0: D blocks
 * the head of its queue until L ends. A short kernel in each other stream
 * then waits exactly when its call went into D's queue. The textbook rule,
 * stream s in queue s mod C, predicts a fixed map; on Hopper the map depends
 * on the sequence of calls instead (gl_sched.h, "Queues"), so two patterns
 * are probed: "busy" (every stream holds a long kernel first, so no queue is
 * idle and calls go round-robin) and "idle" (each short kernel is waited for
 * before the next, so an idle queue is always there to take it). Both for
 * blocking and non-blocking streams, without and with a kernel on the legacy
 * default stream right before L; each probe is simulated by the core's
 * scheduling model with its calls' measured host times (gl_schedrun.h).
 * Claim (table "queue-map"): the streams whose short kernel waited are
 * exactly those the model puts behind D.
 *
 * Run:   make run-queue-map ARGS="--connections 1,2,4,8,16,32"
 * Nsight Systems (make profile-queue-map): NVTX ranges "queue-map <variant>";
 * streams "probe N".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue.cuh"

/* Streams (by index) whose short kernel started only once L had ended: those
 * that waited for D, the head blocked behind L. Written as "3,7,11" or "none";
 * returns how many. Kernels are found by their ops' ids, in either timeline. */
static int waiters(const gl_timeline *tl, const gl_sched_program *p, int l, const int *shorts, int n, gl_buf *out)
{
    int i = gl_timeline_find(tl, p->ops[l].id), count = 0;
    double end = i < 0 ? INFINITY : tl->k[i].end_ns;
    for (int s = 1; s < n; s++) {
        int j = gl_timeline_find(tl, p->ops[shorts[s]].id);
        if (j >= 0 && tl->k[j].start_ns >= end) gl_buf_printf(out, "%s%d", count++ ? "," : "", s);
    }
    if (count == 0) gl_buf_puts(out, "none");
    return count;
}

/* One probe over n streams of one kind, in the busy or idle pattern, with or
 * without a legacy-stream kernel; one row and its claim. */
static void map_probe(gl_sched_lab *L, int n, int blocking, int idle, int legacy)
{
    int C = L->machine.connections, *st = (int *)gl_xcalloc((size_t)n, sizeof(int));
    int *shorts = (int *)gl_xcalloc((size_t)n, sizeof(int)); /* each stream's short kernel (op) */
    /* Long enough that every call is issued while L still runs. */
    double hold_ns = (500 + 15.0 * n) * 1e3, long_ns = idle ? (1000 + 150.0 * n) * 1e3 : hold_ns, short_ns = 20e3;
    gl_sched_program p;
    gl_sched_program_init(&p);
    for (int s = 0; s < n; s++)
        st[s] = gl_sched_stream_new(&p, blocking ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    if (!idle)
        for (int s = 0; s < n; s++) warp_kernel(&p, st[s], hold_ns);
    if (legacy) warp_kernel(&p, GL_SCHED_LEGACY, short_ns);
    int l = warp_kernel(&p, st[0], long_ns), d = warp_kernel(&p, st[0], short_ns);
    for (int s = 1; s < n; s++) {
        shorts[s] = warp_kernel(&p, st[s], short_ns);
        if (idle) gl_sched_sync_stream(&p, 0, st[s]);
    }
    gl_sched_run r;
    memset(&r, 0, sizeof r);
    gl_sched_run_create(&r, &p, &L->machine, 0);
    for (int s = 0; s < n; s++) gl_nvtx_name_stream(r.stream[st[s]], "probe %d", s);
    char variant[64];
    snprintf(variant, sizeof variant, "%s %s%s", blocking ? "blocking" : "non-blocking", idle ? "idle" : "busy",
             legacy ? " +legacy" : "");
    gl_nvtx_push("queue-map %s", variant);
    gl_sched_run_once(&r); /* warms up */
    gl_sched_run_once(&r);
    gl_nvtx_pop();

    gl_buf got = GL_BUF_INIT, want = GL_BUF_INIT, queues = GL_BUF_INIT;
    int n_got = waiters(&r.tl, &p, l, shorts, n, &got), n_want = waiters(&r.model_tl, &p, l, shorts, n, &want);
    /* The model's queue for each stream's short kernel: the map as the model sees it. */
    for (int s = 1; s < n; s++) gl_buf_printf(&queues, "%s%d", s > 1 ? " " : "", p.ops[shorts[s]].queue);
    gl_row *row = gl_report_row(&L->rep, "queue-map", variant);
    gl_row_param_num(row, "streams", "", 0, n);
    gl_row_param_num(row, "connections", "", 0, C);
    gl_row_number(row, "waited", "streams", 0, 0, n_got);
    gl_row_number(row, "model_waited", "streams", 0, 0, n_want);
    gl_row_text(row, "which", 0, "%s", gl_buf_str(&got));
    gl_row_text(row, "model_which", GL_HIDE, "%s", gl_buf_str(&want));
    gl_row_text(row, "model_queues", GL_HIDE, "%s", gl_buf_str(&queues));
    printf("queue map C=%d %s: D blocks queue %d; the model's queue of each stream's short kernel (streams 1..%d): %s\n",
           C, variant, p.ops[d].queue, n - 1, gl_buf_str(&queues));
    char text[160];
    snprintf(text, sizeof text, "queue map, %s: the short kernels that waited behind D are the model's", variant);
    gl_claim_fact(&L->rep, row, GL_CLAIM_TIMING, strcmp(gl_buf_str(&got), gl_buf_str(&want)) == 0, text,
                  "measured streams %s; model %s", gl_buf_str(&got), gl_buf_str(&want));
    gl_buf_free(&got);
    gl_buf_free(&want);
    gl_buf_free(&queues);
    gl_sched_run_destroy(&r);
    gl_sched_program_free(&p);
    free(st);
    free(shorts);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "queue-map",
        "which hardware queue does each stream's launch land in on this GPU, and is it the queue the scheduling model "
        "picks?",
        "Eight probes: blocking and non-blocking streams, busy and idle queues, without and with a legacy-stream\n"
        "kernel. Sweep C with --connections 1,2,4,8,16,32."};
    int streams = 64;
    gl_option opts[] = {{"streams", GL_OPT_INT, &streams, 2, 256, NULL, "16", "streams probed", 0}};
    gl_common common;
    gl_sched_lab L;
    queue_lab_start(&L, &exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    for (int blocking = 0; blocking < 2; blocking++)
        for (int idle = 0; idle < 2; idle++)
            for (int legacy = 0; legacy < 2; legacy++) map_probe(&L, streams, blocking, idle, legacy);
    return gl_sched_lab_close(&L, &common);
}
