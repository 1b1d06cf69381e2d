/* fit.c - what the trace does not say, fitted to it at the recorded setting (fit.h): the dispatch gap and launch
 * latency, each kernel's time alone, each host function's stream and its own time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "gl_common.h"
#include "gl_stats.h"
#include "gl_timeline.h"

static int by_gpu_start(const void *x, const void *y)
{
    const rp_call *a = *(const rp_call *const *)x, *b = *(const rp_call *const *)y;
    return (a->gpu_start_ns > b->gpu_start_ns) - (a->gpu_start_ns < b->gpu_start_ns);
}

/* The calls in start order, earlier index first among equal starts. (An insertion sort, which merging the
 * threads' ordered runs seemed to ask for, takes n^2 steps on two threads' interleaved calls.) */
static const rp_trace *sort_trace; /* by_call_start's trace (qsort takes no context) */
static int by_call_start(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    double sa = sort_trace->calls[a].start_ns, sb = sort_trace->calls[b].start_ns;
    return sa < sb ? -1 : sa > sb ? 1 : (a > b) - (a < b);
}

int *rp_calls_by_start(const rp_trace *t)
{
    int *order = (int *)gl_xmalloc(sizeof(int) * (size_t)(t->n_calls + 1));
    for (int i = 0; i < t->n_calls; i++) order[i] = i;
    sort_trace = t;
    qsort(order, (size_t)t->n_calls, sizeof *order, by_call_start);
    return order;
}


/* Each synchronizing call's return after its work ended (fit.h, rp_sync_returns): a device or stream sync whose
 * work, every kernel, copy, memset and graph node called before it (on any thread; of its stream, or of any for the
 * device), ended after it was called, and before it returned. Calls in the order they were made, each sync's work
 * the latest end so far: one pass. A sync of the legacy stream is no sample (it waits for the blocking streams
 * only, which the sweep does not tell apart), nor one that returned over 1 ms after its work (its thread was held
 * by something else: the recordings' samples lie within 0-30 us). cudaEventSynchronize blocks alike and replays
 * with the median, but its work, its record's, is not traced back here. */
double *rp_sync_returns(const rp_trace *t, const int *order)
{
    double *last = (double *)gl_xmalloc(sizeof(double) * (size_t)(t->n_streams + 1));
    double *r = (double *)gl_xmalloc(sizeof(double) * (size_t)(t->n_calls + 1));
    double any = -INFINITY;
    for (int s = 0; s < t->n_streams; s++) last[s] = -INFINITY;
    for (int i = 0; i < t->n_calls; i++) r[i] = NAN;
    for (int i = 0; i < t->n_calls; i++) {
        const rp_call *c = &t->calls[order[i]];
        if (c->kind == RP_GRAPH) { /* its nodes ran in the streams they took */
            for (int k = 0; k < c->n_nodes; k++) {
                const rp_node *nd = &t->nodes[c->node_first + k];
                any = fmax(any, nd->gpu_end_ns);
                if (nd->stream >= 0) last[nd->stream] = fmax(last[nd->stream], nd->gpu_end_ns);
            }
            continue;
        }
        if (c->kind == RP_LAUNCH || c->kind == RP_COPY) { /* fmax passes over a NAN end: no work ran (a capture) */
            any = fmax(any, c->gpu_end_ns);
            if (c->stream >= 0) last[c->stream] = fmax(last[c->stream], c->gpu_end_ns);
            continue;
        }
        if ((c->kind != RP_SYNC_STREAM && c->kind != RP_SYNC_DEVICE) ||
            (c->kind == RP_SYNC_STREAM && c->stream <= GL_SCHED_LEGACY))
            continue;
        double done = c->kind == RP_SYNC_STREAM ? last[c->stream] : any;
        double back = c->end_ns - done;
        if (done > c->start_ns && back >= 0 && back < 1e6) r[order[i]] = back;
    }
    free(last);
    return r;
}

/* A graph's chaining (fit.h, t->graph_dispatch_ns and the graph's copy costs): from a node's end to the start of
 * the next node of its launch in its stream, where that one had not begun before and no node of the launch in
 * another stream ended between (it may have waited for that one: simpleCudaGraphs' kernels after a copy, 9 of 12
 * behind a cross-stream edge), the median of each kind of pair with RP_FIT_MIN of them: a kernel after a kernel (the
 * graph's dispatch), a copy or memset after a kernel, a kernel after a copy or memset (less the dispatch it then
 * takes: the graph's, else dispatch_ns), a conditional body's kernel node that begins the body again (kept out of
 * the kernels after kernels). Each 1 ns at least: 0 is the machine's "none" (its own rule); a gap
 * shorter than the dispatch it takes is so taken as 1 ns beyond it. The nodes are by launch, then start. */
static void fit_graph_gaps(rp_trace *t, double dispatch_ns)
{
    double *gap[4];
    int n[4] = {0, 0, 0, 0}; /* [0] kernel after kernel, [1] copy after kernel, [2] kernel after copy, [3] restart */
    for (int q = 0; q < 4; q++) gap[q] = (double *)gl_xmalloc(sizeof(double) * (size_t)(t->n_nodes + 1));
    for (int k = 0, first = 0; k < t->n_nodes; k++) {
        const rp_node *x = &t->nodes[k];
        if (t->nodes[first].call != x->call) first = k; /* the launch's first node */
        for (int j = k - 1; j >= first; j--) { /* its stream's node before it */
            const rp_node *y = &t->nodes[j];
            if (y->stream != x->stream) continue;
            double g = x->gpu_start_ns - y->gpu_end_ns;
            int q = y->kind == RP_LAUNCH ? (x->kind == RP_LAUNCH ? 0 : 1) : x->kind == RP_LAUNCH ? 2 : -1;
            if (q >= 0 && rp_node_restarts(x, y)) q = x->kind == RP_LAUNCH ? 3 : -1; /* a copy's: in no pool */
            if (q >= 0 && rp_node_crossed(t->nodes, first, k, x, y)) q = -1; /* it may have waited for that one */
            if (q >= 0 && g >= 0 && g < 1e6) gap[q][n[q]++] = g;
            break;
        }
    }
    double fit[4]; /* each kind's median, NAN where fewer than RP_FIT_MIN pairs show it */
    for (int q = 0; q < 4; q++) fit[q] = n[q] >= RP_FIT_MIN ? gl_quantile(gap[q], n[q], 0.5) : NAN;
    t->graph_restart_ns = isnan(fit[3]) ? 0 : fmax(1, fit[3]);
    t->graph_dispatch_ns = isnan(fit[0]) ? 0 : fmax(1, fit[0]);
    t->graph_copy_after_kernel_ns = isnan(fit[1]) ? 0 : fmax(1, fit[1]);
    double dispatch = t->graph_dispatch_ns > 0 ? t->graph_dispatch_ns : dispatch_ns;
    t->graph_kernel_after_copy_ns = isnan(fit[2]) ? 0 : fmax(1, fit[2] - dispatch);
    for (int q = 0; q < 4; q++) free(gap[q]);
}

/* The median of rp_sync_returns (fit.h). */
static void fit_sync_return(rp_trace *t, const int *order)
{
    double *r = rp_sync_returns(t, order);
    int nv = 0;
    for (int i = 0; i < t->n_calls; i++)
        if (!isnan(r[i])) r[nv++] = r[i];
    t->sync_return_n = nv;
    t->sync_return_ns = nv >= RP_GAP_MIN ? gl_quantile(r, nv, 0.5) : 0;
    free(r);
}

int rp_fit_pool(rp_trace *t, double dispatch_ns)
{
    int took = 0;
    for (int k = 0; k < 4; k++) {
        t->gap_pool_from[k] = -1;
        if (t->gap_n[k] >= RP_GAP_MIN) continue;
        int side = k < 2 ? RP_POOL_COPIES : RP_POOL_KERNELS; /* k: H2D, D2H after a kernel; a kernel after them */
        const int order[4] = {side, RP_POOLS + side, RP_POOL_ALL, RP_POOLS + RP_POOL_ALL};
        for (int j = 0; j < 4 && t->gap_pool_from[k] < 0; j++)
            if (t->gap_pool_n[order[j]] >= RP_GAP_MIN) t->gap_pool_from[k] = order[j];
        if (t->gap_pool_from[k] < 0) continue;
        double g = t->gap_pool_ns[t->gap_pool_from[k]];
        if (k < 2) t->copy_after_kernel_ns[k] = g;
        else t->kernel_after_copy_ns[k - 2] = fmax(0, g - dispatch_ns);
        took++;
    }
    return t->gap_pooled = took;
}

/* A graph node's kernel, its span and stream (others_latest_end). */
typedef struct kspan { double start, end; int stream; } kspan;
static int by_kspan_start(const void *x, const void *y)
{
    const kspan *a = (const kspan *)x, *b = (const kspan *)y;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* For each kernel or copy work[i] (by GPU start), the latest end of a kernel of another stream, a launch's or a graph
 * node's, that started no later than it (-INFINITY: none): one sweep by start over work's kernels and the nodes'
 * (sorted here: work is already), that keeps the two latest ends of two different streams. A gap counts for the
 * dispatch only where that end came before the gap began (rp_fit): the other kernel neither ran at the stream's
 * previous kernel's end nor started in the gap. */
static double *others_latest_end(const rp_trace *t, const rp_call *const *work, int n)
{
    kspan *k = (kspan *)gl_xmalloc(sizeof *k * (size_t)(t->n_nodes + 1));
    int nk = 0;
    for (int i = 0; i < t->n_nodes; i++)
        if (t->nodes[i].kind == RP_LAUNCH) k[nk++] = (kspan){t->nodes[i].gpu_start_ns, t->nodes[i].gpu_end_ns, t->nodes[i].stream};
    qsort(k, (size_t)nk, sizeof *k, by_kspan_start);
    double *out = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1)), end1 = -INFINITY, end2 = -INFINITY;
    int s1 = -1, s2 = -1; /* the latest end's stream, and the latest end's of any other stream */
    for (int i = 0, j = 0, w = 0; i < n; i++) {
        double at = work[i]->gpu_start_ns;
        for (;;) { /* the next kernel by start, of work or of the nodes, up to work[i]'s start */
            int from_work = w < n && work[w]->gpu_start_ns <= at, from_node = j < nk && k[j].start <= at;
            if (!from_work && !from_node) break;
            kspan x;
            if (from_work) {
                const rp_call *c = work[w++];
                if (c->kind != RP_LAUNCH || c->captured) continue;
                x = (kspan){c->gpu_start_ns, c->gpu_end_ns, c->stream};
            } else {
                x = k[j++];
            }
            if (x.stream == s1) end1 = fmax(end1, x.end);
            else if (x.end > end1) end2 = end1, s2 = s1, end1 = x.end, s1 = x.stream;
            else if (x.end > end2) end2 = x.end, s2 = x.stream;
        }
        out[i] = s1 != work[i]->stream ? end1 : s2 != work[i]->stream ? end2 : -INFINITY;
    }
    free(k);
    return out;
}

/* Each call's stream's call before it, by the calls' starts (order: rp_calls_by_start's; -1: none, or no stream). */
static int *entries_before(const rp_trace *t, const int *order)
{
    int *before = (int *)gl_xmalloc(sizeof(int) * (size_t)(t->n_calls + 1));
    int *last = (int *)gl_xmalloc(sizeof(int) * (size_t)(t->n_streams + 1));
    for (int s = 0; s < t->n_streams; s++) last[s] = -1;
    for (int k = 0; k < t->n_calls; k++) {
        int i = order[k], s = t->calls[i].stream;
        before[i] = -1;
        if (s < 0 || s >= t->n_streams || t->calls[i].captured) continue;
        before[i] = last[s], last[s] = i;
    }
    free(last);
    return before;
}

int rp_fit(rp_trace *t, double *dispatch_ns, int *n_gap, double *latency_ns, int *n_latency)
{
    const rp_call **work = (const rp_call **)gl_xmalloc(sizeof *work * (size_t)(t->n_calls + 1));
    int n = 0;
    for (int i = 0; i < t->n_calls; i++)
        if ((t->calls[i].kind == RP_LAUNCH || t->calls[i].kind == RP_COPY) && !isnan(t->calls[i].gpu_start_ns))
            work[n++] = &t->calls[i]; /* not a captured call's (no start: it would leave the order undefined) */
    qsort(work, (size_t)n, sizeof *work, by_gpu_start);
    double *gap = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    double *lat = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    double *clat = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    double dir_end[2] = {-INFINITY, -INFINITY}; /* each direction's latest copy end so far (not graphs' nodes) */
    double *cg[4]; /* copy after kernel: H2D, D2H; kernel after copy: H2D, D2H */
    int ncg[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) cg[k] = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    const rp_call **last = (const rp_call **)gl_xcalloc((size_t)t->n_streams + 1, sizeof *last);
    int ng = 0, nl = 0, ncl = 0;
    int *order = rp_calls_by_start(t), *before = entries_before(t, order); /* one sort for both */
    double *others = others_latest_end(t, work, n);
    for (int i = 0; i < n; i++) {
        const rp_call *c = work[i], *prev = last[c->stream];
        last[c->stream] = c;
        double engine_end = -INFINITY; /* the latest end of a copy of its direction begun before it */
        if (c->kind == RP_COPY && c->dir < 2)
            engine_end = dir_end[c->dir], dir_end[c->dir] = fmax(dir_end[c->dir], c->gpu_end_ns);
        if (prev && prev->gpu_end_ns > c->end_ns) { /* it waited for that op */
            double g = c->gpu_start_ns - prev->gpu_end_ns;
            if (!(g >= 0 && g < 100e3)) continue;
            /* a pageable copy's start holds its staging; a copy the host waited for returned after it */
            /* The dispatch gap: the stream's previous kernel, and nothing else, held it. No other stream's kernel
             * ran at that one's end or started in the gap (others), and no other call of the stream lay between
             * the two (before: a record, a wait, a host function, a graph launch, a sync). The torch job's
             * branches at C=8 (session 25): five 128-block GEMMs, four fitting an SM, filled the H200, and the
             * gaps put the dispatch at 15.1 us where it is 1.3; a check that the other grids' slots were full
             * (kept from then to session 27) let through a 160-block GEMM shape whose next kernels waited 4-80 us
             * beside three others, and the legacy stream's kernels of the join, each behind five event records
             * (16.5 us between them under nsys's event trace, 8.8 at C=1): 16.5 us, and that recording replayed
             * 9.6% long at its own C=8; with this, 3.1 us and +1.4% (experiments/results/h200/session27). */
            if (c->kind == RP_LAUNCH && prev->kind == RP_LAUNCH) {
                if (before[c - t->calls] == prev - t->calls && !(others[i] > prev->gpu_end_ns)) gap[ng++] = g;
            }
            else if (c->kind == RP_COPY && c->dir < 2 && !c->pageable && prev->kind == RP_LAUNCH) cg[c->dir][ncg[c->dir]++] = g;
            else if (c->kind == RP_LAUNCH && prev->kind == RP_COPY && prev->dir < 2 && !prev->pageable)
                cg[2 + prev->dir][ncg[2 + prev->dir]++] = g;
        } else if (c->kind == RP_LAUNCH && (!prev || prev->gpu_end_ns < c->end_ns)) { /* its stream was idle */
            double l = c->gpu_start_ns - c->end_ns;
            if (l >= 0 && l < 1e6) lat[nl++] = l;
        } else if (c->kind == RP_COPY && c->dir < 2 && (!prev || prev->gpu_end_ns < c->end_ns) &&
                   engine_end < c->end_ns) { /* its stream and its direction's engine were idle */
            double l = c->gpu_start_ns - c->end_ns; /* a copy the host waited for returned after it: none */
            if (l >= 0 && l < 1e6) clat[ncl++] = l;
        }
    }
    /* A handful of kernels is no fit: in one of priorities' recordings the two kernels of a configuration put
     * the launch latency at 90 us, and its memsets 90 us late. */
    if (ng < RP_FIT_MIN) ng = 0;
    if (nl < RP_FIT_MIN) nl = 0;
    *n_gap = ng, *n_latency = nl;
    if (ng) *dispatch_ns = gl_quantile(gap, ng, 0.5);
    /* The latency is a floor: a kernel into an idle stream may still wait for its queue, the legacy stream or
     * a load, so a low quantile (the first quartile put it at 78-107 us in two of random 25's recordings at C=1,
     * where the H200 takes 2.6, and every op 100 us late; the tenth percentile, 0-34 us). */
    if (nl) *latency_ns = fmax(0, gl_quantile(lat, nl, 0.10) - *dispatch_ns);
    /* A copy into an idle stream with its engine idle, from its call's return: the same floor, beyond the launch
     * latency (gl_sched.h "Host", copy_arrive_ns; threadFenceReduction at C=8: 0.9 us, which left out had it 3.2%
     * short). */
    t->copy_arrive_n = ncl >= RP_FIT_MIN ? ncl : 0;
    t->copy_arrive_ns = t->copy_arrive_n ? fmax(0, gl_quantile(clat, ncl, 0.10) - *latency_ns) : 0;
    int fitted = 0, np = 0;
    for (int k = 0; k < 4; k++) t->gap_n[k] = ncg[k];
    for (int d = 0; d < 2; d++) {
        t->copy_after_kernel_ns[d] = ncg[d] >= RP_GAP_MIN ? gl_quantile(cg[d], ncg[d], 0.5) : 0;
        t->kernel_after_copy_ns[d] =
            ncg[2 + d] >= RP_GAP_MIN ? fmax(0, gl_quantile(cg[2 + d], ncg[2 + d], 0.5) - *dispatch_ns) : 0;
        fitted += (ncg[d] >= RP_GAP_MIN) + (ncg[2 + d] >= RP_GAP_MIN);
    }
    /* The pools (rp_fit_pool): copies after kernels (cg[0], cg[1]), kernels after copies (cg[2], cg[3]), all four;
     * in gap, whose kernels' gaps are done with (ng <= n - np). The whole trace's are gaps_from_whole's to give. */
    const int pool_first[3] = {0, 2, 0}, pool_last[3] = {1, 3, 3};
    for (int q = 0; q < RP_POOLS; q++) {
        np = 0;
        for (int k = pool_first[q]; k <= pool_last[q]; k++)
            for (int j = 0; j < ncg[k]; j++) gap[np++] = cg[k][j];
        t->gap_pool_n[q] = np >= RP_GAP_MIN ? np : 0;
        t->gap_pool_ns[q] = t->gap_pool_n[q] ? gl_quantile(gap, np, 0.5) : 0;
        t->gap_pool_n[RP_POOLS + q] = 0, t->gap_pool_ns[RP_POOLS + q] = 0;
    }
    for (int k = 0; k < 4; k++) t->gap_pool_from[k] = -1;
    t->gap_pooled = 0;
    for (int k = 0; k < 4; k++) free(cg[k]);
    free(work), free(gap), free(lat), free(clat), free(last), free(before), free(others);
    fit_sync_return(t, order);
    fit_graph_gaps(t, *dispatch_ns);
    free(order);
    return fitted;
}

static const gl_sched_op *sort_ops; /* by_submit's program (qsort takes no context) */
static int by_submit(const void *x, const void *y)
{
    const gl_sched_op *a = &sort_ops[*(const int *)x], *b = &sort_ops[*(const int *)y];
    return (a->submit_ns > b->submit_ns) - (a->submit_ns < b->submit_ns);
}

enum { FIT_GAP_NS = 2000 }; /* from a host function's end to its stream's next operation's start, about */

static int by_start(const void *x, const void *y)
{
    const gl_sched_op *a = &sort_ops[*(const int *)x], *b = &sort_ops[*(const int *)y];
    return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

/* A pageable copy's simulated time, to set beside its recorded one: from its first piece (its start), or, where the
 * recording began it nearer when an engine took it in the simulation than its first piece, from then: the recording
 * then holds the pause before that piece too (random 30: a pageable D2H that went before a pinned one in half its
 * recordings, and paused inside its time for it; random 4: one that began after a pinned one, 36 of 36). */
static double paced_ns(const gl_sched_op *o, double recorded_start)
{
    int from_go = recorded_start < o->start_ns - 0.5 * (o->start_ns - o->go_ns);
    return o->end_ns - (from_go ? o->go_ns : o->start_ns);
}

/* ---- kernels that share their SMs' throughput (gl_sched.h "Sharing") ---------------------------------------- */

/* A kernel ran beside others for over SHARE_BESIDE of its recorded time (shared), or for under SHARE_ALONE of it
 * (alone); a kind of kernel (one name and shape) shares its SMs when SHARE_MIN_ALONE or more of its launches ran
 * alone, and alike (the longest within SHARE_ALIKE of the shortest), SHARE_MIN_SHARED or more beside others, and
 * the shared ones took SHARE_SLOWER times as long at the median. A demand fitted under SHARE_MIN_DEMAND is none, and
 * one over SHARE_MAX_DEMAND too: a whole SM a block does not explain how much slower they ran.
 * One launch alone suffices (a PyTorch job's 6 towers at C=8 ran 1 of 360 GEMMs alone: without a demand C=1 came out
 * +162%), but nothing then shows that the kind is one work (gridlab's random programs run one kernel for many
 * times): its demand stands only if it explains the kind's shared launches one by one, the simulated within
 * SHARE_EXPLAINS of the recorded at the median (that job: 10-12% at C=8, 0.2% at C=1). */
static const double SHARE_BESIDE = 0.25, SHARE_ALONE = 0.01, SHARE_SLOWER = 1.10, SHARE_MIN_DEMAND = 0.05,
                    SHARE_ALIKE = 1.10, SHARE_MAX_DEMAND = 0.99, SHARE_EXPLAINS = 0.25;
enum { SHARE_MIN_ALONE = 1, SHARE_MIN_SHARED = 4, SHARE_ROUNDS = 8 };

static const gl_sched_op *kind_ops; /* by_kind's ops (qsort takes no context) */
static int by_kind(const void *x, const void *y)
{
    const gl_sched_op *a = &kind_ops[*(const int *)x], *b = &kind_ops[*(const int *)y];
    int k[4] = {(a->label > b->label) - (a->label < b->label), (a->blocks > b->blocks) - (a->blocks < b->blocks),
                (a->threads > b->threads) - (a->threads < b->threads),
                (a->blocks_per_sm > b->blocks_per_sm) - (a->blocks_per_sm < b->blocks_per_sm)};
    for (int i = 0; i < 4; i++)
        if (k[i]) return k[i];
    return (*(const int *)x > *(const int *)y) - (*(const int *)x < *(const int *)y);
}

void rp_sort_kinds(const gl_sched_program *p, int *ix, int n)
{
    kind_ops = p->ops;
    qsort(ix, (size_t)n, sizeof *ix, by_kind);
}

int rp_same_kind(const gl_sched_op *a, const gl_sched_op *b)
{
    return a->label == b->label && a->blocks == b->blocks && a->threads == b->threads &&
           a->blocks_per_sm == b->blocks_per_sm;
}

typedef struct edge { double t; int d; } edge;
static int by_edge(const void *x, const void *y)
{
    const edge *a = (const edge *)x, *b = (const edge *)y;
    return a->t < b->t ? -1 : a->t > b->t ? 1 : (a->d > b->d) - (a->d < b->d); /* ends before starts at a tie */
}

int rp_sharing_peak(const gl_sched_program *p, const double *start, const double *end)
{
    gl_span *spans = (gl_span *)gl_xcalloc((size_t)p->n_ops + 1, sizeof *spans);
    int n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        gl_sched_op o = p->ops[i]; /* at the recorded times where given: the core's timeline counts the peak */
        if (o.kind != GL_SCHED_LAUNCH || !(o.sm_demand > 0)) continue;
        if (start) o.start_ns = start[i], o.end_ns = end[i];
        if (o.end_ns > o.start_ns) spans[n++] = gl_sched_op_span(&o);
    }
    gl_timeline tl;
    memset(&tl, 0, sizeof tl);
    int peak = gl_timeline_build(&tl, spans, n) < 0 ? 0 : gl_timeline_peak(&tl, gl_filter_all, NULL);
    gl_timeline_free(&tl);
    free(spans);
    return peak;
}

/* For each recorded kernel, the share of its time that another kernel ran beside it (NAN: not a recorded kernel). */
static double *beside_shares(const gl_sched_program *p, const double *rs, const double *re)
{
    double *share = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    edge *e = (edge *)gl_xmalloc(sizeof(edge) * (size_t)(2 * p->n_ops + 1));
    int n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        share[i] = NAN;
        if (p->ops[i].kind == GL_SCHED_LAUNCH && !isnan(rs[i]) && re[i] > rs[i])
            e[n++] = (edge){rs[i], 1}, e[n++] = (edge){re[i], -1};
    }
    qsort(e, (size_t)n, sizeof *e, by_edge);
    /* crowded[k]: from e[k].t to e[k+1].t, two or more kernels ran; prefix sums of that time */
    double *upto = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    int running = 0;
    upto[0] = 0;
    for (int k = 0; k < n; k++) {
        running += e[k].d;
        upto[k + 1] = upto[k] + (k + 1 < n && running >= 2 ? e[k + 1].t - e[k].t : 0);
    }
    for (int i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind != GL_SCHED_LAUNCH || isnan(rs[i]) || !(re[i] > rs[i])) continue;
        int lo = 0, hi = n; /* the first edge at or after its start, and after its end */
        while (lo < hi) { int mid = (lo + hi) / 2; if (e[mid].t < rs[i]) lo = mid + 1; else hi = mid; }
        int a = lo;
        hi = n;
        while (lo < hi) { int mid = (lo + hi) / 2; if (e[mid].t <= re[i]) lo = mid + 1; else hi = mid; }
        share[i] = (upto[lo > 0 ? lo - 1 : 0] - upto[a]) / (re[i] - rs[i]); /* crowded time inside it */
        if (share[i] < 0) share[i] = 0;
        if (share[i] > 1) share[i] = 1;
    }
    free(e), free(upto);
    return share;
}

/* Give the kind whose launches are ix[a..] (kind_of a) the demand d, and each launch the time per wave that makes it
 * last its lone time per wave alone in the simulation: its own blocks share the SMs too, once a wave's blocks
 * (at most one per slot) make more than one SM's worth of demand an SM (a grid of 512 blocks, four fitting an SM,
 * fitted 0.34 and ran its lone launches a third longer than recorded). Never more than its own recorded time. */
static void set_demand(gl_sched_program *p, const gl_sched_machine *m, const int *ix, const int *kind_of,
                       const double *kept, int a, int n, double d, double wave)
{
    for (int k = a; k < n && kind_of[ix[k]] == a; k++) {
        gl_sched_op *o = &p->ops[ix[k]];
        double resident = fmin(o->blocks, (double)m->sms * o->blocks_per_sm);
        o->sm_demand = d;
        o->block_ns = fmin(kept[ix[k]], wave / gl_sched_share_slowdown(resident * d / m->sms));
    }
}

/* Each kind of kernel whose launches ran slower beside others in the recording than alone gets a demand (the share
 * of an SM one block uses alone, gl_sched.h "Sharing"), bisected over SHARE_ROUNDS simulations at the recorded
 * setting until its shared launches last as long in the simulation as recorded, in sum; its launches then take the
 * median of its lone launches' time per wave (never more than their own). A demand under SHARE_MIN_DEMAND or over
 * SHARE_MAX_DEMAND is none, and so is one fitted from a single lone launch that does not explain the shared ones one
 * by one; those kinds' launches keep their times, and the other kinds are fitted again without them. Returns how
 * many kinds got a demand. */
static int fit_sharing(gl_sched_program *p, const gl_sched_machine *m, const double *rs, const double *re)
{
    int n = 0, kinds = 0, *ix = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1));
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == GL_SCHED_LAUNCH && p->ops[i].label > 0 && !isnan(rs[i]) && re[i] > rs[i]) ix[n++] = i;
    if (n < SHARE_MIN_ALONE + SHARE_MIN_SHARED) { /* too few named kernels for any kind (a trace without names) */
        free(ix);
        return 0;
    }
    rp_sort_kinds(p, ix, n);
    double *share = beside_shares(p, rs, re), *vals = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    double *kept = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    int *kind_of = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1)); /* the kind's first index in ix, -1 */
    double *lo = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1)), *hi = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1));
    double *wave_of = (double *)gl_xmalloc(sizeof(double) * (size_t)(n + 1)); /* a kind's lone time per wave */
    int *lone_of = (int *)gl_xmalloc(sizeof(int) * (size_t)(n + 1)), singles = 0; /* its launches alone */
    int *left_out = (int *)gl_xmalloc(sizeof(int) * (size_t)(n + 1)); /* a kind whose demand was left out */
    for (int i = 0; i < p->n_ops; i++) kept[i] = p->ops[i].block_ns;
    for (int a = 0; a < n; a++) left_out[a] = 0;
    /* Twice at most: a kind whose demand is left out (too small, over a whole SM, or from one lone launch and
     * explaining too little) has been simulated with it beside the others, so they are fitted again without it. */
    for (int attempt = 0, redo = 1; attempt < 2 && redo; attempt++) {
        redo = 0, kinds = 0, singles = 0;
        for (int i = 0; i < p->n_ops; i++) { /* the kinds of the attempt before as they came */
            if (attempt > 0 && kind_of[i] >= 0) p->ops[i].sm_demand = 0, p->ops[i].block_ns = kept[i];
            kind_of[i] = -1;
        }
        for (int a = 0, b; a < n; a = b) {
            for (b = a + 1; b < n && rp_same_kind(&p->ops[ix[a]], &p->ops[ix[b]]); b++) continue;
            if (left_out[a]) continue;
            int alone = 0, shared = 0;
            for (int k = a; k < b; k++)
                if (share[ix[k]] < SHARE_ALONE) vals[alone++] = p->ops[ix[k]].block_ns;
            if (alone < SHARE_MIN_ALONE) continue;
            double wave = gl_quantile(vals, alone, 0.5);
            for (int k = a, c = 0; k < b; k++)
                if (share[ix[k]] < SHARE_ALONE) vals[c++] = re[ix[k]] - rs[ix[k]];
            double lone_ns = gl_quantile(vals, alone, 0.5);
            /* one kind, one work: its lone launches alike (gridlab's own kernels take their time as an argument,
             * and one name and grid ran 0.3 to 2 ms in random 38's recording, which is no sharing) */
            double shortest = INFINITY, longest = 0;
            for (int k = 0; k < alone; k++) shortest = fmin(shortest, vals[k]), longest = fmax(longest, vals[k]);
            if (longest > SHARE_ALIKE * shortest) continue;
            for (int k = a; k < b; k++)
                if (share[ix[k]] > SHARE_BESIDE) vals[shared++] = re[ix[k]] - rs[ix[k]];
            if (shared < SHARE_MIN_SHARED || !(gl_quantile(vals, shared, 0.5) >= SHARE_SLOWER * lone_ns)) continue;
            for (int k = a; k < b; k++) kind_of[ix[k]] = a;
            lo[a] = 0, hi[a] = 1, wave_of[a] = wave, lone_of[a] = alone;
            singles += alone < 2;
            set_demand(p, m, ix, kind_of, kept, a, n, 0.5, wave);
            kinds++;
        }
        for (int round = 0; kinds > 0 && round < SHARE_ROUNDS; round++) {
            gl_sched_result r;
            char err[160];
            if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) break;
            for (int a = 0; a < n; a++) vals[a] = 0; /* a kind's shared launches: simulated less recorded, summed */
            for (int k = 0; k < n; k++) {
                int i = ix[k], a = kind_of[i];
                if (a >= 0 && share[i] > SHARE_BESIDE) vals[a] += (p->ops[i].end_ns - p->ops[i].start_ns) - (re[i] - rs[i]);
            }
            for (int a = 0; a < n; a++) {
                if (kind_of[ix[a]] != a) continue;
                double d = p->ops[ix[a]].sm_demand;
                if (vals[a] < 0) lo[a] = d;
                else hi[a] = d;
                set_demand(p, m, ix, kind_of, kept, a, n, 0.5 * (lo[a] + hi[a]), wave_of[a]);
            }
        }
        gl_sched_result r;
        char err[160];
        int judged = singles > 0 && gl_sched_simulate(p, m, &r, err, sizeof err) == 0; /* at the demands fitted */
        /* A demand too small to tell from none, or one that not even a whole SM a block makes, is none; and one
         * fitted from a single lone launch must explain the kind's shared launches one by one. */
        for (int a = 0; a < n; a++) {
            double d = p->ops[ix[a]].sm_demand;
            if (kind_of[ix[a]] != a) continue;
            int explains = 1;
            if (lone_of[a] < 2) {
                int c = 0;
                for (int k = a; k < n && kind_of[ix[k]] == a; k++) {
                    int i = ix[k];
                    if (share[i] > SHARE_BESIDE)
                        vals[c++] = fabs((p->ops[i].end_ns - p->ops[i].start_ns) - (re[i] - rs[i])) / (re[i] - rs[i]);
                }
                explains = judged && c > 0 && gl_quantile(vals, c, 0.5) <= SHARE_EXPLAINS;
            }
            if (explains && d >= SHARE_MIN_DEMAND && d <= SHARE_MAX_DEMAND) continue;
            left_out[a] = 1, redo = 1;
            kinds--;
            for (int k = a; k < n && kind_of[ix[k]] == a; k++) p->ops[ix[k]].sm_demand = 0, p->ops[ix[k]].block_ns = kept[ix[k]];
        }
        redo = redo && kinds > 0; /* nothing else kept: nothing to fit again */
    }
    free(ix), free(share), free(vals), free(kept), free(kind_of), free(lo), free(hi), free(wave_of), free(lone_of);
    free(left_out);
    return kinds;
}

int rp_fit_kernels(gl_sched_program *p, const gl_sched_machine *m, const double *rs, const double *re, int *copies_changed)
{
    double *first = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    double *lo = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    double *hi = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    double *best = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1)); /* the copies' times of the best pass */
    double best_score = INFINITY;
    for (int i = 0; i < p->n_ops; i++) {
        first[i] = p->ops[i].kind == GL_SCHED_COPY ? p->ops[i].copy_ns : p->ops[i].block_ns;
        lo[i] = 0.05 * first[i], hi[i] = first[i];
    }
    fit_sharing(p, m, rs, re); /* before the passes: what sharing explains, they need not */
    /* Kernels in three passes; a pageable copy in up to twelve, bracketed: its simulated time grows with its own,
     * but its pauses do too (a longer copy overlaps more engine copies), so the step by difference alone can
     * swing between two values (a 3.79 us one between 3.79 and 0.97 for ever), and the time may jump past the
     * recorded one (a copy that ends before an engine copy starts or waits all of it out). Of the passes after
     * the kernels' last (simulated with their final times), the copies keep the times of the one whose
     * simulation put them nearest the recording, summed: a set of times that was simulated together. */
    for (int pass = 0, copies_moved = 1; pass < 12 && (pass < 3 || copies_moved); pass++) {
        gl_sched_result r;
        char err[160];
        if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) break;
        int moved = 0; /* times that moved by over 0.1%: none, and the fit is done */
        double score = 0;
        copies_moved = 0;
        for (int i = 0; i < p->n_ops; i++) {
            const gl_sched_op *o = &p->ops[i];
            if (!gl_sched_copy_blocks_host(m, o)) continue;
            double sim = paced_ns(o, rs[i]), rec = re[i] - rs[i];
            if (sim > 0 && rec > 0 && o->copy_ns > 0) score += fabs(sim - rec);
        }
        if (pass >= 3 && score < best_score) {
            best_score = score;
            for (int i = 0; i < p->n_ops; i++) best[i] = p->ops[i].copy_ns;
        }
        for (int i = 0; i < p->n_ops; i++) {
            gl_sched_op *o = &p->ops[i];
            int paced = gl_sched_copy_blocks_host(m, o);
            double sim = paced ? paced_ns(o, rs[i]) : o->end_ns - o->start_ns, rec = re[i] - rs[i];
            if (paced && sim > 0 && rec > 0 && o->copy_ns > 0) {
                /* what the simulation added to it (its pauses behind engine copies) comes off */
                if (fabs(sim - rec) <= 1e-3 * rec) continue;
                double next = gl_sched_bracket_step(o->copy_ns, sim, rec, &lo[i], &hi[i]);
                copies_moved += fabs(next - o->copy_ns) > 1e-3 * o->copy_ns;
                moved += fabs(next - o->copy_ns) > 1e-3 * o->copy_ns;
                o->copy_ns = next;
                continue;
            }
            /* Sharing only slows a kernel: its time alone is never above its recorded one. A kernel with a demand
             * keeps its kind's time alone: what it shares, the simulation gives it, and scaled one by one the
             * kernels that share feed each other's time (the PyTorch job's branches at batch 64, session 25: a
             * GEMM's 85 us alone went to 150 and the replay at C=8 to +86%). */
            if (pass >= 3 || o->kind != GL_SCHED_LAUNCH || o->sm_demand > 0 || !(sim > 0) || !(rec > 0)) continue;
            double fitted = fmin(first[i], o->block_ns * rec / sim);
            moved += fabs(fitted - o->block_ns) > 1e-3 * o->block_ns;
            o->block_ns = fitted;
        }
        if (!moved) break;
    }
    if (isfinite(best_score))
        for (int i = 0; i < p->n_ops; i++)
            if (gl_sched_copy_blocks_host(m, &p->ops[i])) p->ops[i].copy_ns = best[i];
    int changed = 0, copies = 0;
    for (int i = 0; i < p->n_ops; i++) {
        changed += p->ops[i].kind == GL_SCHED_LAUNCH && fabs(p->ops[i].block_ns - first[i]) > 0.01 * first[i];
        copies += gl_sched_copy_blocks_host(m, &p->ops[i]) && fabs(p->ops[i].copy_ns - first[i]) > 0.01 * first[i];
    }
    if (copies_changed) *copies_changed = copies;
    free(first), free(lo), free(hi), free(best);
    return changed;
}

static const double PLACE_HELD_NS = 20e3; /* a stream's next work this much later than simulated: held */
static const double PLACE_RATIO = 3;      /* held this many times longer than the previous call's stream */

/* How long each kernel and copy waited in the recording after its call returned and its stream's recorded work
 * before it was done (records and waits passed on: a wait's event as done as its record's stream was then), in
 * submit order; INFINITY where the recording shows neither. A host function before it in its stream, which the
 * trace does not show, counts as nothing: so the wait it made is what is left. */
static void recorded_holds(const gl_sched_program *p, const int *order, const double *rs, const double *re,
                           const double *rr, double *hold)
{
    double *done = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_streams + p->n_events + 1));
    double *event_done = done + p->n_streams;
    for (int k = 0; k < p->n_streams + p->n_events; k++) done[k] = -INFINITY;
    for (int k = 0; k < p->n_ops; k++) {
        int i = order[k];
        const gl_sched_op *o = &p->ops[i];
        hold[i] = INFINITY;
        if (o->stream < 0 || o->kind == GL_SCHED_SYNC) continue;
        double *last = &done[o->stream];
        if (o->kind == GL_SCHED_RECORD && o->event >= 0) event_done[o->event] = *last;
        else if (o->kind == GL_SCHED_WAIT && o->event >= 0) *last = fmax(*last, event_done[o->event]);
        else if ((o->kind == GL_SCHED_LAUNCH || o->kind == GL_SCHED_COPY) && !isnan(rs[i])) {
            double ready = fmax(*last, isnan(rr[i]) ? -INFINITY : rr[i]);
            if (ready > -INFINITY) hold[i] = rs[i] - ready;
            if (!isnan(re[i])) *last = re[i];
        }
    }
    free(done);
}

/* Whether the driver's thread ran between from and to (absolute): a function called at from can have run before
 * to (rp_trace.fn_runs; unknown, where the trace shows no runs, counts as yes). From the call's start, not its
 * return: whether a held call's function is queued before the call returns is not known, and a run during the
 * hold then counts as one that could have run it. */
static int driver_ran(const rp_trace *t, double from, double to)
{
    if (t->n_fn_runs < 2) return 1;
    int lo = 0, hi = t->n_fn_runs / 2; /* the first run that ends after from (runs in time order, apart) */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->fn_runs[2 * mid + 1] > from) hi = mid;
        else lo = mid + 1;
    }
    return lo < t->n_fn_runs / 2 && t->fn_runs[2 * lo] < to;
}

int rp_place_hostfns(const rp_trace *t, gl_sched_program *p, const gl_sched_machine *m, const double *rs,
                     const double *re, const double *rr)
{
    gl_sched_result r;
    char err[160];
    if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) return 0;
    int *order = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1));
    int *pos = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1));
    for (int i = 0; i < p->n_ops; i++) order[i] = i;
    sort_ops = p->ops;
    qsort(order, (size_t)p->n_ops, sizeof *order, by_submit);
    for (int k = 0; k < p->n_ops; k++) pos[order[k]] = k;
    double *hold = (double *)gl_xmalloc(sizeof(double) * (size_t)(p->n_ops + 1));
    recorded_holds(p, order, rs, re, rr, hold);
    int moved = 0;
    double t0 = rp_time0(t);
    for (int th = 0; th < t->n_threads; th++) {
        int op = 0; /* the thread's host functions in order, call for op */
        for (int i = 0; i < t->n_calls; i++) {
            const rp_call *c = &t->calls[i];
            if (c->thread != th || c->kind != RP_HOSTFN) continue;
            while (op < p->n_ops && !(p->ops[op].kind == GL_SCHED_HOSTFN && p->ops[op].thread == th &&
                                      p->ops[op].id != RP_GRAPH_HOST_NODE)) /* a graph's host node is no call's */
                op++;
            if (op >= p->n_ops) break;
            double late[4] = {0, 0, 0, 0};
            int can[4] = {1, 1, 1, 1}; /* the stream's next work began after the driver's thread could run it */
            double early = isnan(rr[op]) ? 0 : rr[op] - p->ops[op].submit_ns; /* the simulation, where it is */
            /* The candidate's next kernel or copy after it; none where another function goes in that stream first,
             * which is what held that work (callbacks' two slow functions, issued back to back from one thread: the
             * first one's candidates both show the hold that the second one makes). */
            for (int k = 0; c->n_cand > 1 && k < c->n_cand; k++)
                for (int j = pos[op] + 1; j < p->n_ops; j++) {
                    const gl_sched_op *o = &p->ops[order[j]];
                    /* None after the thread waits: what it issues then starts late by the wait, which is no sign
                     * of the function (callbacks' slow two functions on an H100: the legacy stream's readback after
                     * the run's end wait had been late longest, and took both functions). A wait for this stream
                     * alone is a sign, as late as it returned. (Taking none as unknown, so that the previous call's
                     * stream kept the function, put random 3's starts at C=2 15% of the span off on the H100,
                     * against 0.9%.) */
                    if (o->kind == GL_SCHED_SYNC && o->thread == th) {
                        if (o->stream == c->cand[k] && o->event < 0 && !isnan(rr[order[j]]))
                            late[k] = rr[order[j]] - o->end_ns - early;
                        break;
                    }
                    if (o->stream != c->cand[k]) continue;
                    if (o->kind == GL_SCHED_HOSTFN) break;
                    if (o->kind != GL_SCHED_LAUNCH && o->kind != GL_SCHED_COPY) continue;
                    /* No later than it waited in the recording itself: where a function before this one, not yet
                     * fitted, held the work it follows, the simulation is early there by that function's time too
                     * (event-programs' random 2 on an H100: two functions back to back in one stream, the first
                     * taken by another stream whose kernel followed one that such a function had held). */
                    if (!isnan(rs[order[j]])) late[k] = fmin(rs[order[j]] - o->start_ns - early, hold[order[j]]);
                    /* Not its stream where that work began before the driver's thread ran at all after the call
                     * began: nothing ran the function (validate-replay's random 28 at C=8: a call held 12.6 ms
                     * by another thread's pageable copy, after which the D2H that its previous call's stream
                     * issued next began 87 us before the driver's thread first ran; kept there, the function
                     * woke at that run and held the D2H behind a 256 MB one, +15% and +21% in two recordings). */
                    if (!isnan(rs[order[j]]) && !driver_ran(t, c->start_ns, rs[order[j]] + t0)) can[k] = 0;
                    break;
                }
            /* Moved only where its thread's previous call's stream shows no such hold, or one under a third of
             * another's: at C=1 the work behind a function's stream waits in the one queue, so the previous call's
             * stream is held too, if for less (callbacks' slow row at C=1: 290 us against 1081 us). */
            /* Where no candidate can, it stays in the previous call's stream. */
            for (int k = 1, best = 0; k < c->n_cand; k++)
                if (can[k] && (!can[0] || ((late[0] <= PLACE_HELD_NS || late[k] > PLACE_RATIO * late[0]) &&
                                           late[k] > PLACE_HELD_NS)) &&
                    (best == 0 || late[k] > late[best]))
                    best = k, moved += p->ops[op].stream == c->cand[0], p->ops[op].stream = c->cand[k];
            op++;
        }
    }
    free(order), free(pos), free(hold);
    return moved;
}

int rp_fit_hostfns(gl_sched_program *p, const gl_sched_machine *m, const double *rs, const double *rr)
{
    int *order = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1)), n_fn = 0, fitted = 0;
    int *next = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1));
    int *pending = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_streams + 1));
    int *rec_fn = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1)); /* a record's stream's pending function */
    int *event_rec = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_events + 1)); /* each event's latest record */
    char *was_fitted = (char *)gl_xcalloc((size_t)p->n_ops + 1, 1);
    double *added = (double *)gl_xcalloc((size_t)p->n_ops + 1, sizeof *added); /* each function's time fitted */
    for (int i = 0; i < p->n_ops; i++) n_fn += p->ops[i].kind == GL_SCHED_HOSTFN;
    for (int pass = 0; n_fn > 0 && pass < 64; pass++) {
        gl_sched_result r;
        char err[160];
        if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) break;
        /* Each function's stream's next kernel or copy, in the order the simulation submitted them. */
        for (int i = 0; i < p->n_ops; i++) order[i] = i, next[i] = -1;
        sort_ops = p->ops;
        qsort(order, (size_t)p->n_ops, sizeof *order, by_submit);
        for (int s = 0; s < p->n_streams; s++) pending[s] = -1;
        for (int e = 0; e < p->n_events; e++) event_rec[e] = -1;
        for (int k = 0; k < p->n_ops; k++) {
            const gl_sched_op *o = &p->ops[order[k]];
            if (o->kind == GL_SCHED_SYNC && o->event < 0) { /* the host waits for the stream, or the device */
                for (int s = o->stream < 0 ? 0 : o->stream; s < (o->stream < 0 ? p->n_streams : o->stream + 1); s++)
                    if (pending[s] >= 0) next[pending[s]] = order[k], pending[s] = -1;
                continue;
            }
            /* The host waits for an event recorded behind a function, before anything else followed it in its stream
             * (callbacks' calibration: a kernel, a function, a record, cudaEventSynchronize; the sync returned
             * 126 us after the kernel in the recording, 12 us in the replay before). */
            if (o->kind == GL_SCHED_RECORD && o->stream >= 0 && o->event >= 0) {
                rec_fn[order[k]] = pending[o->stream], event_rec[o->event] = order[k];
                continue;
            }
            /* Not a cudaEventQuery loop (no recorded return): the work after the function in its stream tells. */
            if (o->kind == GL_SCHED_SYNC && o->event >= 0 && event_rec[o->event] >= 0 && !isnan(rr[order[k]])) {
                int fn = rec_fn[event_rec[o->event]];
                if (fn >= 0 && pending[p->ops[fn].stream] == fn) next[fn] = order[k], pending[p->ops[fn].stream] = -1;
                continue;
            }
            if (o->stream < 0 || o->kind == GL_SCHED_SYNC) continue;
            if (o->kind == GL_SCHED_HOSTFN) pending[o->stream] = order[k];
            else if ((o->kind == GL_SCHED_LAUNCH || o->kind == GL_SCHED_COPY) && pending[o->stream] >= 0)
                next[pending[o->stream]] = order[k], pending[o->stream] = -1;
        }
        /* Fix the late ones in the order the simulation started them, up to the first fixed one's end:
         * a fix delays only what comes after that, so the others before it are fitted on sound ground. */
        int changed = 0;
        double horizon = INFINITY;
        sort_ops = p->ops;
        qsort(order, (size_t)p->n_ops, sizeof *order, by_start);
        for (int k = 0; k < p->n_ops; k++) {
            int h = order[k], nx = next[h];
            if (p->ops[h].kind != GL_SCHED_HOSTFN || nx < 0) continue;
            const gl_sched_op *fn = &p->ops[h], *o = &p->ops[nx];
            int sync = o->kind == GL_SCHED_SYNC; /* a host wait that returned late (rr: its recorded return) */
            if (isnan(sync ? rr[nx] : rs[nx])) continue;
            if (fn->start_ns >= horizon) break;
            /* No more than that operation waited after its call returned, in the recording: a later call, not the
             * function, may be why it started late. A wait: no more than it returned late. */
            double late = sync ? rr[nx] - o->end_ns : rs[nx] - o->start_ns;
            double more = sync ? fmin(rr[nx] - FIT_GAP_NS - fn->end_ns, late)
                               : fmin(rs[nx] - FIT_GAP_NS - fn->end_ns, rs[nx] - rr[nx] - added[h]); /* all passes */
            if (m->hostfn_serial && late > 1e3 && more > 0) {
                /* One driver thread: a function that became ready before this one's new end, and ran after it,
                 * waits for it, so this one ends no later than that one's stream's next op started in the
                 * recording, less that function's own least time (random 32 at C=1: a function fitted to
                 * 4.77 ms where the next one's stream went on 1.87 ms after the first could begin). */
                double end = fn->end_ns + more;
                for (int j = k + 1; j < p->n_ops && p->ops[order[j]].start_ns < end; j++) {
                    int g = order[j], gx = next[g];
                    if (p->ops[g].kind != GL_SCHED_HOSTFN || gx < 0 || p->ops[gx].kind == GL_SCHED_SYNC ||
                        isnan(rs[gx]) || !(p->ops[g].go_ns < end))
                        continue;
                    end = fmin(end, fmax(fn->end_ns, rs[gx] - FIT_GAP_NS - m->hostfn_ns));
                }
                more = end - fn->end_ns;
            }
            if (late > 1e3 && more > 0) { /* it ends just before that operation's recorded start */
                p->ops[h].block_ns += more;
                added[h] += more;
                changed = 1;
                fitted += !was_fitted[h];
                was_fitted[h] = 1;
                horizon = fmin(horizon, fn->end_ns); /* what starts after it ends may wait for it (one thread) */
            }
        }
        if (!changed) break;
    }
    free(order), free(next), free(pending), free(was_fitted), free(added), free(rec_fn), free(event_rec);
    return fitted;
}

enum { RP_WAKE_MAX_NS = 2000000 };

int rp_fit_wakes(const rp_trace *t, gl_sched_program *p, const gl_sched_machine *m)
{
    if (t->n_fn_runs < 2) return 0;
    double t0 = rp_time0(t);
    int *fn = (int *)gl_xmalloc(sizeof(int) * (size_t)(p->n_ops + 1)), n_fn = 0, fitted = 0;
    char *done = (char *)gl_xcalloc((size_t)p->n_ops + 1, 1);
    for (int pass = 0; pass < 64; pass++) {
        gl_sched_result r;
        char err[160];
        if (gl_sched_simulate(p, m, &r, err, sizeof err) != 0) break;
        n_fn = 0;
        for (int i = 0; i < p->n_ops; i++)
            if (p->ops[i].kind == GL_SCHED_HOSTFN && isfinite(p->ops[i].start_ns)) fn[n_fn++] = i;
        sort_ops = p->ops;
        qsort(fn, (size_t)n_fn, sizeof *fn, by_start);
        int changed = 0, k = 0;
        double busy_until = -INFINITY; /* the simulated driver's thread: running functions until then */
        for (int j = 0; j < n_fn && !changed; j++) {
            gl_sched_op *o = &p->ops[fn[j]];
            int woke = o->go_ns >= busy_until; /* idle when the function became ready */
            busy_until = fmax(busy_until, o->end_ns);
            if (!woke || done[fn[j]]) continue;
            double go = o->go_ns + t0;
            while (k + 1 < t->n_fn_runs && t->fn_runs[k + 1] <= go) k += 2; /* the first run ending after go */
            if (k + 1 >= t->n_fn_runs) break;
            done[fn[j]] = 1;
            double wake = t->fn_runs[k] - go;
            if (!(wake > 0) || wake > RP_WAKE_MAX_NS) continue; /* running then in the recording, or far off */
            o->wake_ns = wake + m->hostfn_ns; /* the simulated thread takes it wake - hostfn_ns after go */
            fitted++;
            changed = 1; /* what comes after moves with it: simulate again */
        }
        if (!changed) break;
    }
    free(fn), free(done);
    return fitted;
}

