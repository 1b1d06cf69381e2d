/* launch-device.cu - what it costs to start a grid from device code (CDP2), and a device graph.
 *
 * Question: what does it cost to start a grid from device code: per launch in each CDP2 stream, with a launching thread per SM, until the child starts, and as a device graph?
 * Build: rdc
 * Sanitize: --quick --profile --launches 20 --skip-timing-claims
 *
 * One-thread blocks launch launch.cuh's children, checking every launch. Parts
 * (--part), each a table with a row per stream: the block's implicit NULL
 * stream, cudaStreamFireAndForget and cudaStreamTailLaunch:
 *   device        (device-one) one thread launches K children: time per launch
 *                 call (around the loop), and until every child has run, / K;
 *   many          (device-many) a launching thread in each of #SMs blocks, K
 *                 children each: launches per microsecond, all together;
 *   latency       (device-latency) the parent's clock just before one launch to
 *                 the child's first reading; a tail child cannot start before
 *                 its parent ends, so its start after that end is given too;
 *   device-graph  K children as a graph instantiated for device launch, launched
 *                 fire-and-forget and tail by a kernel that is a graph node itself
 *                 (as the runtime requires); SKIP with the error where refused.
 * Claims: a tail child starts after its parent grid has ended (ordering, every
 * run); every child launched ran, once, with its own argument (data check).
 * No figure is published for CDP2 launches on sm_90, so none is claimed. Tail
 * children are all pending until their parent ends, and a launch beyond the
 * pending-launch pool fails: each part first sizes the pool to its largest
 * burst (#SMs x K in part many), and prints it.
 *
 * Run:   make run-launch-device
 *        make run-launch-device ARGS="--part device --launches 10000"
 *        make run-launch-device ARGS="--part device-graph --repeat 100"
 * Nsight Systems (make profile-launch-device): NVTX ranges "part=<part>", stream
 * "device parents"; it does not trace device-launched children, only parents.
 */
#include "gl_device_check.cuh"
#include "launch.cuh"

enum { PART_ALL, PART_DEVICE, PART_MANY, PART_LATENCY, PART_DEVICE_GRAPH };
enum { KIND_NULL, KIND_FIRE_AND_FORGET, KIND_TAIL, N_KINDS };
static const char *const kind_names[N_KINDS] = {"null stream", "fire-and-forget", "tail"};

static const size_t default_pending_pool = 2048; /* cudaLimitDevRuntimePendingLaunchCount when nobody sets it */

/* ---- kernels ------------------------------------------------------------------------ */

/* A launcher's readings, folded into the record; its last reading comes last. */
__device__ void record_launcher(probe_record *r, unsigned long long before, unsigned long long after_first,
                                unsigned long long after_last, unsigned long long launched)
{
    atomicMin(&r->before_first, before);
    atomicMax(&r->after_first, after_first);
    atomicMax(&r->after_last, after_last);
    atomicAdd(&r->launched, launched);
    atomicMax(&r->parent_end, gl_globaltimer());
}

/* Each thread launches n children into the stream kind names and checks every
 * launch. It runs as one-thread blocks: each NULL stream (one per block) has
 * one launcher. */
__global__ void parent(probe_record *r, gl_dev_error *err, int kind, int n)
{
    unsigned long long before = gl_globaltimer(), after_first = 0, launched = 0;
    for (int i = 0; i < n; i++) {
        if (kind == KIND_NULL) child<<<1, 1>>>(r, i + 1ULL);
        else if (kind == KIND_FIRE_AND_FORGET) child<<<1, 1, 0, cudaStreamFireAndForget>>>(r, i + 1ULL);
        else child<<<1, 1, 0, cudaStreamTailLaunch>>>(r, i + 1ULL);
        if (i == 0) after_first = gl_globaltimer();
        cudaError_t e = cudaGetLastError();
        GL_DEVICE_CHECK(err, e);
        launched += e == cudaSuccess;
    }
    record_launcher(r, before, after_first, gl_globaltimer(), launched);
}

/* Launch a device graph once. Its error goes to a record of its own, so that
 * a runtime without device graph launch skips the row instead of failing it. */
__global__ void graph_launcher(cudaGraphExec_t exec, int tail, probe_record *r, gl_dev_error *err)
{
    unsigned long long before = gl_globaltimer();
    cudaError_t e = cudaGraphLaunch(exec, tail ? cudaStreamGraphTailLaunch : cudaStreamGraphFireAndForget);
    unsigned long long after = gl_globaltimer();
    GL_DEVICE_CHECK(err, e);
    record_launcher(r, before, after, after, e == cudaSuccess);
}

/* ---- host: the parts ------------------------------------------------------------------ */

/* One run of the row's probe: a grid of L->blocks launching threads, L->n
 * children each, or the host graph whose one kernel launches the device graph. */
static probe_record run_probe(lab *L)
{
    record_reset(L);
    if (L->probe == PART_DEVICE_GRAPH) {
        CUDA_CHECK(cudaGraphLaunch(L->exec, L->stream));
        return finish_run(L, "the device graph launch", 1, L->launches, 1);
    }
    parent<<<L->blocks, 1, 0, L->stream>>>(L->d_rec, L->d_err, L->kind, L->n);
    CUDA_CHECK_LAUNCH("parent");
    return finish_run(L, "the device-side launches", L->blocks, L->n, L->blocks * L->n);
}

/* One run, and what the row's part measures. */
static void sample_device(gl_sample *smp, void *ctx)
{
    lab *L = (lab *)ctx;
    probe_record r = run_probe(L);
    double calls_us = ns_between(r.before_first, r.after_last) / 1e3;
    double run_us = ns_between(r.before_first, r.last_end) / 1e3;
    if (L->probe == PART_DEVICE) { /* per launch call, and until all have run */
        gl_sample_put(smp, "call", calls_us / L->n);
        gl_sample_put(smp, "all_run", run_us / L->n);
    } else if (L->probe == PART_MANY) { /* launches per microsecond, all threads together */
        gl_sample_put(smp, "launch_rate", (double)L->blocks * L->n / calls_us);
        gl_sample_put(smp, "run_rate", (double)L->blocks * L->n / run_us);
    } else { /* latency and device-graph: the launcher's clock before the launch to the child's first reading */
        if (L->probe == PART_DEVICE_GRAPH) {
            gl_dev_error_check(L->d_graph_err); /* it worked in the validation run: a failure now is an error */
            gl_sample_put(smp, "device_per_launch", ns_between(r.first_start, r.last_end) / L->launches / 1e3);
        }
        gl_sample_put(smp, "latency", ns_between(r.before_first, r.first_start) / 1e3);
        gl_sample_put(smp, "call", ns_between(r.before_first, r.after_first) / 1e3);
        if (L->tail) gl_sample_put(smp, "after_parent_end", ns_between(r.parent_end, r.first_start) / 1e3);
    }
}

/* Part device, many or latency: one row per stream kind. */
static void part_device(lab *L, int part)
{
    static const char *const tables[] = {"device-one", "device-many", "device-latency"};
    L->probe = part;
    L->blocks = part == PART_MANY ? L->dev.sms : 1;
    L->n = part == PART_LATENCY ? 1 : L->launches;
    for (int k = 0; k < N_KINDS; k++) {
        gl_row *row = gl_report_row(&L->rep, tables[part - PART_DEVICE], kind_names[k]);
        gl_row_param_num(row, "parents", "", 0, L->blocks);
        gl_row_param_num(row, "launches", "", 0, L->n);
        L->kind = k;
        L->tail = k == KIND_TAIL;
        const char *series = part == PART_DEVICE ? "call all_run"
                             : part == PART_MANY ? "launch_rate run_rate"
                             : L->tail           ? "latency call after_parent_end"
                                                 : "latency call";
        measure_row(L, row, part == PART_MANY ? "1/us" : "us", series, sample_device);
    }
}

/* Part device-graph: K children as a device graph; each launch mode runs once
 * to see whether the runtime accepts it (else the row is SKIP with the error),
 * then is timed. */
static void part_device_graph(lab *L)
{
    static const char *const modes[2] = {"fire-and-forget", "tail"};
    L->probe = PART_DEVICE_GRAPH;
    cudaGraph_t g = capture_burst(L);
    cudaGraphExec_t device_exec = NULL;
    cudaError_t e = cudaGraphInstantiate(&device_exec, g, cudaGraphInstantiateFlagDeviceLaunch);
    const char *step = e != cudaSuccess ? "cudaGraphInstantiate(cudaGraphInstantiateFlagDeviceLaunch)"
                                        : "cudaGraphUpload";
    if (e == cudaSuccess && (e = cudaGraphUpload(device_exec, L->stream)) == cudaSuccess)
        gl_stream_wait(L->stream, L->timeout_s, "the device graph's upload");
    if (e != cudaSuccess) (void)cudaGetLastError(); /* the refusal is the result; clear it */

    for (int tail = 0; tail < 2; tail++) {
        gl_row *row = gl_report_row(&L->rep, "device-graph", modes[tail]);
        gl_row_param_num(row, "launches", "", 0, L->launches);
        if (e != cudaSuccess) {
            gl_row_skip(row, "%s failed: %s (%s)", step, cudaGetErrorName(e), cudaGetErrorString(e));
            continue;
        }
        /* A device graph can only be launched from device code by a kernel
         * that runs as part of a graph itself: the launcher is captured too. */
        cudaGraph_t launcher;
        CUDA_CHECK(cudaStreamBeginCapture(L->stream, cudaStreamCaptureModeThreadLocal));
        graph_launcher<<<1, 1, 0, L->stream>>>(device_exec, tail, L->d_rec, L->d_graph_err);
        CUDA_CHECK_LAUNCH("graph_launcher (captured)");
        CUDA_CHECK(cudaStreamEndCapture(L->stream, &launcher));
        CUDA_CHECK(cudaGraphInstantiate(&L->exec, launcher, 0));
        L->tail = tail;
        run_probe(L); /* validation: does the runtime accept the launch? */
        gl_dev_error refused;
        gl_dev_error_read(L->d_graph_err, &refused);
        if (refused.count) {
            gl_buf why = GL_BUF_INIT;
            gl_dev_error_describe(&refused, &why);
            gl_row_skip(row, "device-side cudaGraphLaunch failed: %s", gl_buf_str(&why));
            gl_buf_free(&why);
            gl_dev_error_reset(L->d_graph_err);
        } else {
            measure_row(L, row, "us", tail ? "device_per_launch latency call after_parent_end"
                                           : "device_per_launch latency call", sample_device);
        }
        CUDA_CHECK(cudaGraphExecDestroy(L->exec));
        CUDA_CHECK(cudaGraphDestroy(launcher));
    }
    if (device_exec) CUDA_CHECK(cudaGraphExecDestroy(device_exec));
    CUDA_CHECK(cudaGraphDestroy(g));
}

/* ---- host: the pending-launch pool, and main -------------------------------------------- */

/* Reserve room for need pending device-side launches (never less than the default), and say what it cost in
 * device memory. Each part gets the smallest pool it needs: a larger pool makes every device launch slower
 * (nested-reduce: one tail launch 28 us with the default pool, 285 us with 599186). The runtime clamps the
 * limit without an error: it is read back. TODO(core): a gl_pending_pool(n) would serve nested-hello too. */
static void reserve_pending_pool(size_t need, const char *why)
{
    size_t pool = need > default_pending_pool ? need : default_pending_pool;
    size_t free_before = 0, free_after = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
    cudaError_t e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, pool);
    if (e != cudaSuccess)
        gl_no_gpu("a pool of %zu pending device-side launches does not fit on this GPU: %s (%s); use a smaller "
                  "--launches", pool, cudaGetErrorName(e), cudaGetErrorString(e));
    CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
    CUDA_CHECK(cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount));
    if (pool < need)
        gl_no_gpu("the runtime set the pending-launch pool to %zu, below the %zu this part needs; use a smaller "
                  "--launches", pool, need);
    double mib = free_before > free_after ? (double)(free_before - free_after) / (1 << 20) : 0;
    printf("pending-launch pool: %zu launches (%zu pending at once at most: %s; default %zu), free device memory "
           "%.1f MiB lower after setting it\n", pool, need, why, default_pending_pool, mib);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "launch-device",
        "what does it cost to start a grid from device code: per launch in each CDP2 stream, with a launching thread "
        "per SM, until the child starts, and as a device graph?",
        "Parts: device (one thread launching K children per CDP2 stream), many (#SMs threads launching K each),\n"
        "latency (device child-start latency), device-graph (K nodes launched from a kernel)."};
    static const char *const names[] = {"all", "device", "many", "latency", "device-graph"};
    static const char *const why[] = {NULL, "part device, one thread x K", "part many, #SMs threads x K",
                                      "part latency, one launch at a time",
                                      "part device-graph, one graph launch at a time"};
    lab L;
    int part = lab_open(&L, &exp, "all|device|many|latency|device-graph",
                        "K: children per launching thread, and nodes of the device graph", argc, argv);
    L.d_graph_err = gl_dev_error_create();
    L.stream = named_stream("device parents");
    printf("K = %d kernels per burst; %d launching threads in part many\n", L.launches, L.dev.sms);
    for (int p = PART_DEVICE; p <= PART_DEVICE_GRAPH; p++) {
        if (part != PART_ALL && part != p) continue;
        size_t k = (size_t)L.launches;
        reserve_pending_pool(p == PART_DEVICE ? k : p == PART_MANY ? (size_t)L.dev.sms * k : 1, why[p]);
        gl_nvtx_push("part=%s", names[p]);
        if (p == PART_DEVICE_GRAPH) part_device_graph(&L);
        else part_device(&L, p);
        gl_nvtx_pop();
    }
    CUDA_CHECK(cudaStreamDestroy(L.stream));
    gl_dev_error_destroy(L.d_graph_err);
    return lab_close(&L);
}
