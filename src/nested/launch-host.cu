/* launch-host.cu - what it costs to start a grid from the host: in a stream, and as a graph.
 *
 * Question: what does it cost to start a grid from the host: one launch, K back to back in a stream, and K as a graph?
 * Build: rdc
 * Sanitize: --quick --profile --launches 20 --skip-timing-claims
 *
 * The grids are launch.cuh's one-thread children. Parts (--part), table "host":
 *   host   one launch into an idle stream, from the host clock just before the
 *          call to the child's first %globaltimer reading (plus the alignment's
 *          uncertainty); then K back to back in one stream: host time per call,
 *          device time per kernel (first start to last end, / K); "bound" says
 *          which side was slower and so set the pace;
 *   graph  the same K kernels captured once into a graph, instantiated outside
 *          the timing: the cudaGraphLaunch call, the first node's start, and
 *          device time per node.
 * Model and claims. A graph hands the device its K kernels at once, so a node
 * should cost the device less than a stream launch does (timing). Every child
 * launched ran, once, with its own argument (data check). Published figures
 * for an H200 are printed beside this run's.
 *
 * Run:   make run-launch-host
 *        make run-launch-host ARGS="--launches 10000"
 * Nsight Systems (make profile-launch-host): NVTX ranges "part=<part>", streams
 * "host launches" and "graph launches". The CUDA API row shows part host's K
 * cudaLaunchKernel calls, spaced by the host's issue cost; part graph's one
 * cudaGraphLaunch.
 */
#include "launch.cuh"

enum { PART_ALL, PART_HOST, PART_GRAPH };
enum { PROBE_ONE, PROBE_BURST, PROBE_GRAPH }; /* the rows */

/* Published figures for an H200, in us per launch. */
static const double published_host_launch_us = 2.5; /* back-to-back host launches in one stream */
static const double published_graph_node_us = 1.3;  /* one kernel node of a graph */

/* One run from the host, of the row's probe: one launch into an idle stream, K back to back (the last error is
 * sticky until read, so one check after the loop catches a failed launch without timing K checks), or the graph
 * of K nodes, L->exec. */
static void sample_host(gl_sample *smp, void *ctx)
{
    static const char *const what[] = {"one host launch", "a burst of host launches", "the graph"};
    lab *L = (lab *)ctx;
    int k = L->probe == PROBE_ONE ? 1 : L->launches;
    record_reset(L);
    double h0 = gl_host_ns();
    if (L->probe == PROBE_GRAPH) CUDA_CHECK(cudaGraphLaunch(L->exec, L->stream));
    else for (int i = 0; i < k; i++) child<<<1, 1, 0, L->stream>>>(L->d_rec, i + 1ULL);
    double call_us = (gl_host_ns() - h0) / 1e3;
    CUDA_CHECK_LAUNCH("child");
    probe_record r = finish_run(L, what[L->probe], 1, k, 0);
    /* TODO(core): offset_ns, a double, holds an epoch-sized offset (1.7e18 ns) in 256 ns steps; make it integer. */
    double latency_us = ((double)r.first_start - L->dev.clock.offset_ns - h0) / 1e3; /* through the clock alignment */
    if (L->probe == PROBE_ONE) {
        gl_sample_put(smp, "latency", latency_us);
        gl_sample_put(smp, "call", call_us);
        return;
    }
    gl_sample_put(smp, "device_per_launch", ns_between(r.first_start, r.last_end) / k / 1e3);
    if (L->probe == PROBE_BURST) gl_sample_put(smp, "host_per_launch", call_us / k);
    else gl_sample_put(smp, "graph_call", call_us);
    if (L->probe == PROBE_GRAPH && L->dev.clock.valid) gl_sample_put(smp, "latency", latency_us);
}

/* Part host: one launch into an idle stream, then K back to back; returns the burst's row. */
static const gl_row *part_host(lab *L)
{
    gl_row *row = gl_report_row(&L->rep, "host", "stream, one launch");
    gl_row_param_num(row, "launches", "", 0, 1);
    L->probe = PROBE_ONE;
    if (!L->dev.clock.valid) {
        gl_row_skip(row, "the host and device clocks could not be aligned");
    } else {
        measure_row(L, row, "us", "latency call", sample_host);
        gl_row_number(row, "clock_uncertainty", "us", 3, 0, L->dev.clock.uncertainty_ns / 1e3);
    }
    row = gl_report_row(&L->rep, "host", "stream, back to back");
    gl_row_param_num(row, "launches", "", 0, L->launches);
    L->probe = PROBE_BURST;
    measure_row(L, row, "us", "device_per_launch host_per_launch", sample_host);
    /* When the host's calls take (nearly) as long as the device's kernels, the device waited for the host. */
    double host = gl_row_median(row, "host_per_launch"), device = gl_row_median(row, "device_per_launch");
    gl_row_text(row, "bound", 0, "%s", host >= 0.9 * device ? "host" : "device");
    return row;
}

/* Part graph: K nodes, instantiated here (outside the timing), and the claim against part host's burst
 * (stream_row; NULL when it did not run). Returns the graph's row. */
static const gl_row *part_graph(lab *L, const gl_row *stream_row)
{
    gl_row *row = gl_report_row(&L->rep, "host", "graph of K nodes");
    gl_row_param_num(row, "launches", "", 0, L->launches);
    cudaGraph_t g = capture_burst(L);
    CUDA_CHECK(cudaGraphInstantiate(&L->exec, g, 0));
    L->probe = PROBE_GRAPH;
    measure_row(L, row, "us", L->dev.clock.valid ? "device_per_launch graph_call latency"
                                                 : "device_per_launch graph_call", sample_host);
    CUDA_CHECK(cudaGraphExecDestroy(L->exec));
    CUDA_CHECK(cudaGraphDestroy(g));
    const char *text = "a graph node costs the device less than a back-to-back stream launch";
    if (stream_row && L->launches < 2)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text,
                      "n/a: with K = 1 nothing is back to back; each row's device time is one empty kernel's run, "
                      "a tick or two of the device clock");
    else if (stream_row)
        gl_claim_ratio_at_most(&L->rep, row, GL_CLAIM_TIMING, text, "graph us/node",
                               gl_row_median(row, "device_per_launch"), "stream us/launch",
                               gl_row_median(stream_row, "device_per_launch"), 1.0);
    else
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text,
                      "n/a: the stream burst was not measured (--part all or host)");
    return row;
}

/* One line of the published-figures block. */
static void print_published(const char *what, double published, const gl_row *row)
{
    if (!row || row->skip_reason) return;
    double measured = gl_row_median(row, "device_per_launch");
    printf("  %-46s %9.2f %9.3f %7.2fx\n", what, published, measured, measured / published);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "launch-host",
        "what does it cost to start a grid from the host: one launch, K back to back in a stream, and K as a graph?",
        "Parts: host (one launch, then K back to back in one stream), graph (the same K kernels as a graph)."};
    lab L;
    int part = lab_open(&L, &exp, "all|host|graph", "kernels per burst: K from the host or in the graph", argc, argv);
    cudaStream_t host_stream = named_stream("host launches"), graph_stream = named_stream("graph launches");
    printf("K = %d kernels per burst\n", L.launches);
    const gl_row *stream_row = NULL, *graph_row = NULL;
    if (part != PART_GRAPH) {
        gl_nvtx_push("part=host");
        L.stream = host_stream;
        stream_row = part_host(&L);
        gl_nvtx_pop();
    }
    if (part != PART_HOST) {
        gl_nvtx_push("part=graph");
        L.stream = graph_stream;
        graph_row = part_graph(&L, stream_row);
        gl_nvtx_pop();
    }
    printf("\npublished figures (H200) and this run, device time per launch:\n");
    printf("  %-46s %9s %9s %8s\n", "", "published", "measured", "ratio");
    print_published("host launches back to back in one stream, us", published_host_launch_us, stream_row);
    print_published("graph node, us", published_graph_node_us, graph_row);
    printf("  (no published figure for CDP2 device-side launches on sm_90: see launch-device)\n");
    CUDA_CHECK(cudaStreamDestroy(host_stream));
    CUDA_CHECK(cudaStreamDestroy(graph_stream));
    return lab_close(&L);
}
