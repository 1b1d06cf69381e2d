/* graph.c - a graph launch traced node by node, as model operations (import.h, rp_graph_ops).
 *
 * nsys --cuda-graph-trace=node records each node's kernel, copy or memset with its launch's correlationId and the
 * stream it ran in: the launch stream, or a stream of the driver's for a branch. It records no edges, and no host
 * node. So the edges are taken from the times: a node waits for its stream's previous node, and for each other
 * stream's latest node of the launch that had ended before it started (a node still running then is no edge).
 * On simpleCudaGraphs (H200) that gives the graph's own edges and one more: its first kernel also waits for the
 * 8-byte memset its second kernel needs, which ends long before the 64 MiB copy both wait for. Host nodes run at
 * the launch's end, in the launch stream: the host functions of the graph, their time fitted as any other's.
 * A launch call that returned after some of its nodes had ended waited for them (simpleCudaGraphs' 8-byte D2H
 * into pageable memory made each cudaGraphLaunch return 2-3 us after it ended): the host waits for the latest. */
#include <math.h>
#include <stdlib.h>

#include "gl_common.h"
#include "import.h"

/* An op added by call, issued at no host time of its own. (Two statements: the call may move p->ops.) */
static int free_op(gl_sched_program *p, int op)
{
    p->ops[op].issue_ns = 0;
    return op;
}

int rp_graph_ops(const rp_trace *t, const rp_call *c, int th, gl_sched_program *p, int *kernels, int *node_op)
{
    const rp_node *nd = &t->nodes[c->node_first];
    int n = c->n_nodes, launch = c->stream, S = 0;
    int *st = (int *)gl_xmalloc(sizeof(int) * (size_t)(n + 1));       /* the launch's streams, the launch's first */
    int *latest = (int *)gl_xmalloc(sizeof(int) * (size_t)(n + 1));   /* each one's latest node issued, -1 */
    st[S] = launch, latest[S++] = -1;
    for (int k = 0; k < n; k++) {
        int seen = 0;
        for (int j = 0; j < S && !seen; j++) seen = st[j] == nd[k].stream;
        if (!seen) st[S] = nd[k].stream, latest[S++] = -1;
    }
    int *synced = (int *)gl_xmalloc(sizeof(int) * (size_t)S * (size_t)S); /* [x*S+y]: y's node that x waits for */
    for (int i = 0; i < S * S; i++) synced[i] = -1;
    /* A launch whose call returned after some of its nodes had ended waited for them (a pageable copy node: the
     * host stages it): the call hands the nodes over once they start, and returns after the latest of them. */
    int waited = -1;
    for (int k = 0; k < n; k++)
        if (nd[k].gpu_end_ns <= c->end_ns && (waited < 0 || nd[k].gpu_end_ns > nd[waited].gpu_end_ns)) waited = k;
    int start = gl_sched_event_new(p), waited_event = -1; /* the launch: branches wait for its stream's earlier work */
    int call_op = gl_sched_record(p, th, launch, start);
    double issue = c->end_ns - c->start_ns;
    if (waited >= 0) issue = fmax(0, fmin(issue, nd[0].gpu_start_ns - c->start_ns));
    p->ops[call_op].issue_ns = issue;
    for (int k = 0; k < n; k++) {
        int x = 0;
        while (st[x] != nd[k].stream) x++;
        if (x > 0 && latest[x] < 0) free_op(p, gl_sched_wait(p, th, st[x], start));
        for (int y = 0; y < S; y++) { /* the other streams' latest nodes that had ended */
            int j = latest[y];
            if (y == x || j < 0 || synced[x * S + y] >= j || nd[j].gpu_end_ns > nd[k].gpu_start_ns) continue;
            int e = gl_sched_event_new(p);
            free_op(p, gl_sched_record(p, th, st[y], e));
            free_op(p, gl_sched_wait(p, th, st[x], e));
            synced[x * S + y] = j;
        }
        node_op[k] = free_op(p, rp_work_op(t, p, th, &nd[k], kernels)); /* in the stream it ran in, st[x] */
        if (nd[k].kind == RP_COPY) p->ops[node_op[k]].handed = 1; /* no call of its own to arrive after */
        /* behind its launch's node in its stream: the graph's own chaining and copy costs, or its body's restart
         * (gl_sched.h "Blocks") */
        int restarts = latest[x] >= 0 && nd[k].kind == RP_LAUNCH && rp_node_restarts(&nd[k], &nd[latest[x]]) &&
                       !rp_node_crossed(nd, 0, k, &nd[k], &nd[latest[x]]); /* as the fit takes them (fit.c) */
        p->ops[node_op[k]].chained = latest[x] < 0 ? 0 : restarts ? 2 : 1;
        latest[x] = k;
        /* the call waits for that node: through an event, unless the node is a pageable copy the host itself waits
         * for (gl_sched.h "Staging"), whose end the thread sees as it returns (an event recorded after it would be
         * issued then, and the call return a launch latency late: jacobiCudaGraphs' 8-byte D2H per graph) */
        int host_waits = nd[k].kind == RP_COPY && rp_host_waits_pageable(nd[k].pageable, nd[k].dir, nd[k].bytes);
        if (k == waited && !host_waits)
            free_op(p, gl_sched_record(p, th, st[x], waited_event = gl_sched_event_new(p)));
    }
    for (int y = 1; y < S; y++) { /* the launch stream's later work waits for the whole graph */
        int e = gl_sched_event_new(p);
        free_op(p, gl_sched_record(p, th, st[y], e));
        free_op(p, gl_sched_wait(p, th, launch, e));
    }
    for (int h = 0; h < c->host_nodes; h++) {
        int op = gl_sched_hostfn(p, th, launch, 0);
        p->ops[op].issue_ns = 0;
        p->ops[op].id = RP_GRAPH_HOST_NODE;
    }
    if (waited >= 0) { /* the call's wait, then its own time after the node (a staging buffer copied out) */
        if (waited_event >= 0) free_op(p, gl_sched_sync_event(p, th, waited_event));
        double post = c->end_ns - nd[waited].gpu_end_ns;
        if (post > 0) gl_sched_host(p, th, post);
    }
    free(st), free(latest), free(synced);
    return call_op;
}
