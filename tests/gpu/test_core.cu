/* test_core.cu - the parts of src/core that need a GPU: the device header's
 * measurements, the non-fatal read of device-side errors, the L2 flush, and
 * the watchdog that turns a hung stream into exit 3. Run by the GPU suite. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gl_device_check.cuh"
#include "gl_connections.h"
#include "gl_copies.h"
#include "gl_cuda.h"
#include "gl_hostfns.h"
#include "gl_loads.h"
#include "harness.h"
#include "gl_schedrun.h"
#include "gl_spans.cuh"

/* Record made-up failures: 3 x InvalidValue and 2 x LaunchOutOfResources
 * (many = 0), or 20 distinct codes, more than the record has slots for. */
__global__ void record_errors(gl_dev_error *e, int many)
{
    int t = (int)threadIdx.x;
    if (many) {
        if (t < 20) gl_device_check(e, (cudaError_t)(400 + t), "many.cu", 30);
    } else if (t < 3) {
        gl_device_check(e, cudaErrorInvalidValue, "first.cu", 10 + t);
    } else if (t < 5) {
        gl_device_check(e, cudaErrorLaunchOutOfResources, "second.cu", 20);
    } else {
        gl_device_check(e, cudaSuccess, "never.cu", 40); /* success records nothing */
    }
}

/* Spin until *release is set or ten seconds pass: a stand-in for a hung tree. */
__global__ void spin(volatile int *release)
{
    unsigned long long t0 = gl_globaltimer();
    while (!*release && gl_globaltimer() - t0 < 10000000000ULL) {
    }
}

/* The child process: a stream that does not finish within its timeout. */
static int hang(void)
{
    gl_common common;
    gl_common_defaults(&common);
    gl_device dev;
    gl_device_open(&dev, &common, NULL);
    int *h_release = NULL, *d_release = NULL;
    CUDA_CHECK(cudaHostAlloc((void **)&h_release, sizeof(int), cudaHostAllocMapped));
    *h_release = 0;
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&d_release, h_release, 0));
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    spin<<<1, 1, 0, s>>>(d_release);
    CUDA_CHECK_LAUNCH("spin");
    gl_stream_wait(s, 1.0, "the spinning kernel");
    return 0; /* not reached: the wait exits 3 */
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--hang") == 0) return hang();

    gl_common common;
    gl_common_defaults(&common);
    gl_device dev;
    gl_device_open(&dev, &common, NULL);
    test_cond("the timer tick is measured", dev.tick_ns > 0 && dev.tick_ns < 1e4);
    test_cond("the DRAM peak comes from the attributes", dev.peak_gbps > 100);
    test_cond("the measured copy is real and below the peak", dev.copy_gbps > 0.2 * dev.peak_gbps &&
                                                                  dev.copy_gbps < 1.05 * dev.peak_gbps);
    test_cond("the host clock is aligned to within 50 us", dev.clock.valid && dev.clock.uncertainty_ns < 5e4 &&
                                                              dev.clock.rounds == 200);
    /* A reading taken now, mapped through the alignment, lands near the device's own clock. */
    gl_clock_align again = gl_clock_align_measure(50);
    double drift = (again.offset_ns - dev.clock.offset_ns);
    test_cond("two alignments a moment apart agree within their uncertainties plus 20 us",
              again.valid && drift * (drift < 0 ? -1 : 1) < again.uncertainty_ns + dev.clock.uncertainty_ns + 2e4);

    gl_dev_error *d_err = gl_dev_error_create();
    record_errors<<<1, 64>>>(d_err, 0);
    CUDA_CHECK_LAUNCH("record_errors");
    record_errors<<<1, 64>>>(d_err, 1); /* after the first, so the first two codes hold their slots */
    CUDA_CHECK_LAUNCH("record_errors");
    CUDA_CHECK(cudaDeviceSynchronize());
    gl_dev_error h;
    gl_dev_error_read(d_err, &h);
    int invalid = 0, oor = 0, distinct = 0;
    for (int i = 0; i < GL_DEV_ERROR_CODES; i++) {
        if (h.codes[i]) distinct++;
        if (h.codes[i] == cudaErrorInvalidValue) invalid = h.per_code[i];
        if (h.codes[i] == cudaErrorLaunchOutOfResources) oor = h.per_code[i];
    }
    test_cond("the non-fatal read counts every failure", h.count == 25);
    test_cond("failures are counted per code", invalid == 3 && oor == 2);
    test_cond("codes past the slots are counted, not lost", distinct == GL_DEV_ERROR_CODES && h.other == 25 - 5 - 14);
    test_cond("the first failure is kept whole",
              h.code == cudaErrorInvalidValue && h.line >= 10 && h.line <= 12 && strcmp(h.file, "first.cu") == 0);
    gl_buf text = GL_BUF_INIT;
    gl_dev_error_describe(&h, &text);
    test_cond("the description names the codes and the overflow",
              strstr(gl_buf_str(&text), "25 device-side failures:") &&
                  strstr(gl_buf_str(&text), "cudaErrorInvalidValue x3") &&
                  strstr(gl_buf_str(&text), "cudaErrorLaunchOutOfResources x2") && strstr(gl_buf_str(&text), "6 more"));
    gl_buf_free(&text);
    gl_dev_error_reset(d_err);
    gl_dev_error_read(d_err, &h);
    test_cond("a reset record reads empty", h.count == 0 && h.codes[0] == 0);
    gl_dev_error_destroy(d_err);

    gl_l2_flush(&dev);
    gl_l2_flush(&dev);
    test_cond("the L2 flush writes twice the L2, on a stream of its own",
              dev.d_flush && dev.flush_bytes == 2 * (size_t)dev.l2_bytes && dev.flush_stream);

    /* The copy engines, as the model of copies is fed: every time measured, and the model's engines fitted to
     * them (a fit that does not hold is a finding of this GPU, printed with its reason, and fails here). */
    gl_copy_machine cm;
    gl_copy_calibrate(&dev, 4096, 64u << 20, 5, &cm);
    gl_copy_print(&cm);
    int timed = cm.async_engines > 0 && cm.t.n_stage > 0 && cm.t.n_points > 1;
    for (int i = 0; i < cm.t.n_stage; i++) timed &= cm.t.stage_call_ns[i] > 0;
    for (int i = 0; i < cm.t.n_points; i++) timed &= cm.t.point_ns[GL_SCHED_H2D][i] > 0 && cm.t.point_ns[GL_SCHED_D2H][i] > 0;
    for (int d = 0; d < GL_SCHED_DIRS; d++)
        timed &= cm.t.small_ns[d] > 0 && cm.t.large_ns[d] > cm.t.small_ns[d] && cm.t.pair_ns[d] > 0;
    for (int d = 0; d < 2; d++)
        timed &= cm.t.pageable_ns[d] > 0 && cm.pageable_call_ns[d] > 0 && cm.t.opposite_ns[d] > 0 && cm.t.behind_ns[d] > 0;
    test_cond("the copy engines are timed: each direction and memsets small, large and in pairs, both directions, "
              "pageable, behind a held copy, pageable calls behind a held stream", timed);
    test_cond("the model's copy engines fit the times (engines, bandwidth and latency per direction)",
              cm.fitted.copy_engines[0] > 0 && cm.fitted.copy_gbps[GL_SCHED_H2D] > 1);

    /* Host functions in streams: each API's call and in-stream time, and two holds of 2 ms in two streams. */
    gl_hostfn_machine hm;
    gl_hostfn_calibrate(100, 5, 2000, &hm);
    gl_hostfn_print(&hm);
    int hf_ok = hm.two_streams_ns >= hm.hold_ns && hm.two_streams_ns < 10 * hm.hold_ns;
    for (int a = 0; a < GL_HOSTFN_APIS; a++) hf_ok &= hm.call_ns[a] > 0 && hm.in_stream_ns[a] > 0;
    test_cond("host functions are measured: each API's call and in-stream time, two streams' holds", hf_ok);

    /* Lazy loads: a few of the pool's kernels launched for the first time behind another stream's 1 ms kernel. */
    gl_load_machine lm;
    int pool = gl_load_left();
    gl_load_calibrate(5, &lm);
    gl_load_print(&lm);
    test_cond("module loads are measured with five of the pool's never-launched kernels",
              lm.reps == 5 && gl_load_left() == pool - 5 && lm.call_ns > 0 && isfinite(lm.gap_ns));
    test_cond("the loading mode measured is the one the device line reports (lazy or eager)",
              dev.module_loading == GL_MODULE_LOADING_UNKNOWN || lm.lazy == (dev.module_loading == GL_MODULE_LOADING_LAZY));

    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    gl_event_timer t;
    gl_timer_create(&t);
    gl_timer_start(&t, s);
    gl_timer_stop(&t, s);
    gl_stream_wait(s, 5.0, "an empty stream");
    test_cond("waiting on finished work returns", gl_timer_ms(&t) >= 0);
    gl_timer_destroy(&t);
    CUDA_CHECK(cudaStreamDestroy(s));

    /* A program run for real and simulated: two streams joined by an event, a
     * gate closed, one gate opened. The machine is calibrated, as experiments do. */
    gl_report rep;
    gl_report_init(&rep, "test_core", &common);
    gl_sched_machine m;
    gl_sched_calibration cal;
    gl_sched_calibrate(&dev, &rep, 32, 200, &m, &cal);
    gl_sched_program p;
    gl_sched_program_init(&p);
    int a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
    int ev = gl_sched_event_new(&p);
    gl_sched_launch(&p, 0, a, 1, 32, 1, 200e3, 0);
    gl_sched_record(&p, 0, a, ev);
    gl_sched_launch(&p, 0, b, 1, 32, 1, 200e3, 0);
    gl_sched_wait(&p, 0, b, ev);
    gl_sched_launch(&p, 0, b, 1, 32, 1, 200e3, 0);
    gl_sched_run r;
    memset(&r, 0, sizeof r);
    gl_sched_run_create(&r, &p, &m, 0);
    gl_sched_run_once(&r);
    gl_sched_run_once(&r);
    test_cond("schedrun: every kernel ran its time and left its result, twice", r.runs == 2 && r.runs_complete == 2 &&
              r.tl.n == 3);
    gl_sched_edge *e = NULL;
    int n = gl_sched_edges(&p, GL_SCHED_EDGE_ALL, &e);
    gl_sched_edge_check c = gl_sched_edges_hold(&p, e, n, &r.tl, 2 * dev.tick_ns);
    test_cond("schedrun: the wait's edge holds on the GPU", n == 1 && c.held == 1);
    test_cond("schedrun: the two first kernels overlap, the third follows: makespan ~400 us, within 10% of the model",
              r.tl.makespan_ns > 399e3 && fabs(r.tl.makespan_ns - r.sim.makespan_ns) < 0.1 * r.sim.makespan_ns);
    free(e);
    gl_sched_run_destroy(&r);
    gl_sched_program_free(&p);

    /* Copies run for real and simulated with the engines fitted above: an 8 MiB H2D then a 200 us kernel in
     * one stream, an 8 MiB D2H in another. The kernel must wait for its copy; how well the model predicts
     * the copies' ends is printed, for issue 18 to judge. */
    if (gl_copy_machine_apply(&cm, &m) == 0) {
        gl_sched_program_init(&p);
        a = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        b = gl_sched_stream_new(&p, GL_SCHED_STREAM_NONBLOCKING, 0, -1);
        int up = gl_sched_copy(&p, 0, a, GL_SCHED_H2D, 8 << 20, 0);
        int k = gl_sched_launch(&p, 0, a, 1, 32, 1, 200e3, 0);
        int down = gl_sched_copy(&p, 0, b, GL_SCHED_D2H, 8 << 20, 0);
        memset(&r, 0, sizeof r);
        gl_sched_run_create(&r, &p, &m, 0);
        gl_sched_run_once(&r);
        const gl_interval *ki = gl_sched_run_kernel(&r, k);
        double up_end = r.copy_end_ns[up], slack = r.copy_anchor_error_ns + 2 * dev.tick_ns;
        printf("# copies through schedrun: H2D ends %.1f us before the kernel starts (model %.1f); D2H took %.1f us "
               "from the run's first copy end (model %.1f); anchor error %.1f us\n",
               ki ? (ki->start_ns - up_end) / 1e3 : NAN, (p.ops[k].start_ns - p.ops[up].end_ns) / 1e3,
               (r.copy_end_ns[down] - up_end) / 1e3, (p.ops[down].end_ns - p.ops[up].end_ns) / 1e3,
               r.copy_anchor_error_ns / 1e3);
        test_cond("schedrun: copies run, each with an end on the device clock",
                  isfinite(up_end) && isfinite(r.copy_end_ns[down]) && r.runs_complete == 1);
        test_cond("schedrun: the kernel starts after its stream's copy has ended", ki && ki->start_ns >= up_end - slack);
        gl_sched_run_destroy(&r);
        gl_sched_program_free(&p);
    } else {
        test_skip("schedrun: copies run, and the kernel waits for its copy", cm.fit_error);
    }
    gl_report_free(&rep);
    gl_device_close(&dev);

    /* The hang runs in a fresh process, since the watchdog ends its process. */
    fflush(stdout);
    double t0 = gl_host_ns();
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "--hang", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    double seconds = (gl_host_ns() - t0) / 1e9;
    test_cond("a stream that does not finish in time ends the process with exit 3, without waiting for it",
              WIFEXITED(status) && WEXITSTATUS(status) == GL_EXIT_CUDA && seconds < 9);
    test_report();
}
