/* gl_cuda.h - the CUDA side of the shared module: checks, the device header,
 * device-side launch errors, event timers, the L2 flush, clock alignment, the
 * span buffer and the work kernel.
 *
 * A C API (cuda_runtime_api.h is C), so that .cu experiments and plain C
 * experiments (src/omp) use the same calls. */
#ifndef GL_CUDA_H
#define GL_CUDA_H

#include <cuda_runtime_api.h>

#include "gl_common.h"
#include "options.h"
#include "report.h"
#include "sample.h"
#include "gl_sched.h"
#include "span.h"
#include "timeline.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -------------------------------------------------------------- */

/* Check a CUDA call; on failure print the call, file:line and the error's name
 * and text, and exit 3. */
#define CUDA_CHECK(call) gl_cuda_check((call), #call, __FILE__, __LINE__)
/* Check the launch just made (configuration errors surface here; faults during
 * execution surface at the next synchronizing CUDA_CHECK). */
#define CUDA_CHECK_LAUNCH(what) gl_cuda_check(cudaGetLastError(), "launch of " what, __FILE__, __LINE__)
void gl_cuda_check(cudaError_t err, const char *what, const char *file, int line);

/* Wait for everything queued in stream to finish, for at most timeout_s
 * seconds. Work that never finishes (a hung grid tree) is an error the host
 * can only report: say what did not finish, and exit 3 at once, without the
 * runtime's teardown, which would wait on the GPU too. */
void gl_stream_wait(cudaStream_t stream, double timeout_s, const char *what);

/* Print "no suitable GPU: <why>" and exit 77: the run is skipped, not failed.
 * For a machine without a GPU, and for a configuration this GPU cannot run. */
void gl_no_gpu(const char *fmt, ...) GL_PRINTF(1, 2) GL_NORETURN;
/* Exit 77 for a runtime that found no GPU (err from cudaGetDeviceCount, or
 * cudaSuccess when it counted none), saying which of no CUDA driver, a driver
 * older than the runtime (both versions) or no visible GPU it is, and that
 * make test still runs the CPU suite. */
void gl_no_gpu_cuda(cudaError_t err) GL_NORETURN;

enum { GL_DEV_ERROR_CODES = 16 }; /* distinct error codes counted one by one */

/* Launches and calls that failed in device code, recorded by GL_DEVICE_CHECK
 * (device_check.cuh) and read back by the host. */
typedef struct gl_dev_error {
    int count;                          /* failed device-side calls in all */
    int code;                           /* cudaError_t of the first */
    int line;                           /* its source line */
    char file[116];                     /* its source file, truncated */
    int codes[GL_DEV_ERROR_CODES];      /* the distinct codes seen (0: free slot) */
    int per_code[GL_DEV_ERROR_CODES];   /* how many failures had each */
    int other;                          /* failures whose code found no free slot */
} gl_dev_error;

gl_dev_error *gl_dev_error_create(void);           /* zeroed device allocation */
void gl_dev_error_reset(gl_dev_error *d_err);       /* zero it again */
/* Copy the record to the host after a synchronize; for experiments that probe
 * limits and expect failures. */
void gl_dev_error_read(const gl_dev_error *d_err, gl_dev_error *h);
/* "3 failures: cudaErrorLaunchOutOfResources x3; the first at file:line" */
void gl_dev_error_describe(const gl_dev_error *h, gl_buf *out);
/* After a synchronize: if any device-side call failed, print what failed and
 * exit 3. */
void gl_dev_error_check(const gl_dev_error *d_err);
void gl_dev_error_destroy(gl_dev_error *d_err);

/* ---- the device header ----------------------------------------------------- */

typedef struct gl_device {
    int id;                     /* CUDA ordinal */
    char name[256];             /* marketing name */
    int major, minor;           /* compute capability */
    int sms;                    /* multiprocessors */
    int driver, runtime;        /* CUDA driver and runtime versions, e.g. 13000 */
    int concurrent_kernels;     /* cudaDevAttrConcurrentKernels */
    int async_engines;          /* cudaDevAttrAsyncEngineCount */
    int max_connections;        /* effective CUDA_DEVICE_MAX_CONNECTIONS */
    int module_loading;         /* GL_MODULE_LOADING_* the driver runs with (connections.h) */
    int max_resident_grids;     /* architectural limit on resident grids (128 on sm_70..sm_90) */
    int l2_bytes;               /* L2 cache size */
    double peak_gbps;           /* DRAM bandwidth from the attributes: 2 * memory clock * bus width / 8 */
    double copy_gbps;           /* measured device-to-device copy, read + write bytes over time */
    double tick_ns;             /* smallest non-zero %globaltimer step observed */
    gl_clock_align clock;       /* host monotonic clock -> %globaltimer */
    void *d_flush;              /* buffer written to evict the L2 (allocated on first flush) */
    size_t flush_bytes;         /* its size: twice the L2 */
    cudaStream_t flush_stream;  /* a non-blocking stream of the flush's own, so it never orders other work */
} gl_device;

/* Start the runtime on --device, measure the timer tick, the copy bandwidth
 * and the clock alignment, print the one-line header, and add it to the
 * report. Without a usable GPU, print "no suitable GPU: <reason>" and exit 77. */
void gl_device_open(gl_device *dev, const gl_common *common, gl_report *rep);
void gl_device_close(gl_device *dev);

/* A sampler from the common options whose L2 flush is this device's. */
void gl_device_sampler(gl_sampler *s, gl_device *dev, const gl_common *common);
/* Evict the L2 by writing a buffer twice its size; returns when done. */
void gl_l2_flush(void *dev);

/* Measure how the host's monotonic clock maps onto %globaltimer: rounds round
 * trips through mapped host memory to a one-thread kernel; the shortest bounds
 * the offset. */
gl_clock_align gl_clock_align_measure(int rounds);

/* ---- event timers -------------------------------------------------------- *
 * The core is compiled with the legacy default stream: a stream argument of 0
 * means the legacy stream even in an experiment built with "Build:
 * per-thread", which passes cudaStreamPerThread to mean its own. */

typedef struct gl_event_timer {
    cudaEvent_t start, stop; /* recorded around the timed region */
} gl_event_timer;

void gl_timer_create(gl_event_timer *t);
void gl_timer_start(gl_event_timer *t, cudaStream_t s);
void gl_timer_stop(gl_event_timer *t, cudaStream_t s);
double gl_timer_ms(gl_event_timer *t); /* waits for stop */
void gl_timer_destroy(gl_event_timer *t);

/* ---- the gate: queue first, then start (gate.cu) ---------------------------- */
typedef struct gl_gate {
    volatile int *h_flag; /* mapped host word: 0 closed, 1 open, 2 the kernel gave up waiting */
    int *d_flag;          /* the same word as the device sees it */
    int enabled;          /* 0: close and open do nothing */
} gl_gate;
/* enabled = 0 makes a gate that never holds: for runs under tools that
 * serialize launches (compute-sanitizer), where a held stream would only wait
 * for the gate to give up, and where times are not judged anyway. */
void gl_gate_create(gl_gate *g, int enabled);
/* Call before the CUDA runtime starts, in every experiment that uses a gate:
 * sets CUDA_MODULE_LOADING=EAGER unless the environment already names a mode.
 * When the driver was started before main, nothing can take effect: it warns,
 * naming the variable, and goes on (the device line shows the mode in force).
 * With lazy loading (the default since CUDA 12.2) a kernel's first launch
 * loads its code, and that waits for the device, which the gate holds: the
 * first gated run of each kernel would wait the gate's 5 s out (nvbench's
 * blocking kernel has the same trap). */
void gl_gate_prepare(void);
/* Queue a one-thread kernel in s that holds everything queued after it until
 * gl_gate_open (or until it gives up after 5 s). */
void gl_gate_close(gl_gate *g, cudaStream_t s);
/* Let the held work start. Returns 0 when the gate had already given up, so
 * the work did not wait for everything to be queued. */
int gl_gate_open(gl_gate *g);
void gl_gate_destroy(gl_gate *g);

/* ---- spans ----------------------------------------------------------------- */

typedef struct gl_spans {
    gl_span_buf dev;        /* what kernels get */
    unsigned int host_next; /* next record the host hands out */
    gl_span *h_spans;       /* host copy, filled by gl_spans_fetch */
} gl_spans;

/* host_slots records for host-launched kernels, device_slots for device launches. */
void gl_spans_create(gl_spans *s, unsigned int host_slots, unsigned int device_slots, int per_block);
/* Mark every record empty and hand out slots from 0 again (synchronous). */
void gl_spans_reset(gl_spans *s);
/* Reserve the records of one host-launched kernel of the given grid size.
 * A buffer sized too small is a bug of the experiment: exits 1 saying so. */
unsigned int gl_spans_reserve(gl_spans *s, int blocks);
/* Copy the records back (call after synchronizing). Returns how many are in
 * h_spans. Device reservations that did not fit exit 1 with the count. */
int gl_spans_fetch(gl_spans *s);
/* Fetch, and build the timeline from what was fetched (freeing tl's last one). */
int gl_spans_timeline(gl_spans *s, gl_timeline *tl);
void gl_spans_destroy(gl_spans *s);

/* ---- the work kernel ------------------------------------------------------- */

/* Launch blocks x threads threads whose blocks each spin for us microseconds
 * on %globaltimer from the block's first warp, add their iteration count to
 * *d_sink (so the loop is real work with a result), and record a span in slot
 * (GL_NO_SPAN: no span). A kernel in device code can run the same body
 * (gl_work_body in work.cuh). */
void gl_work_launch(cudaStream_t stream, int blocks, int threads, double us, gl_span_buf spans,
                    unsigned int slot, int label, int stream_index, unsigned long long *d_sink);

/* Blocks of the work kernel that fit on one SM at once, for a block size (the
 * occupancy calculator). */
int gl_work_blocks_per_sm(int threads);

/* ---- the scheduling model's machine ---------------------------------------- */

typedef struct gl_sched_calibration {
    gl_stats issue_ns;    /* host time per launch of the work kernel, one per round */
    gl_stats dispatch_ns; /* a kernel's end to the start of the next one waiting in its stream */
    gl_stats latency_ns;  /* a launch call's return to its kernel's start on an idle queue */
    gl_stats block_ns;    /* the work distributor's time per block, in the experiment's block shape */
    gl_stats overrun_ns;  /* a one-block kernel's duration beyond the time it was asked to run */
} gl_sched_calibration;

/* Measure the machine the simulator runs on: queues, resident grids and SMs
 * from the device; timed now: the issue cost, the dispatch gap (with kernels
 * of this duration) and how it grows with chains in progress, the queue's
 * time per entry, the time per block and the block overrun (in blocks of
 * this many threads), and the launch latency. Prints one "model:" line and
 * adds the costs to the report's device fields. */
void gl_sched_calibrate(gl_device *dev, gl_report *rep, int threads, double kernel_us, gl_sched_machine *m,
                        gl_sched_calibration *cal);

/* What a scheduling experiment holds from its first row to its last: the
 * report, the device, the model's machine (measured by gl_sched_lab_calibrate
 * with the experiment's own kernels) and the trace. */
typedef struct gl_sched_lab {
    gl_report rep;
    gl_device dev;
    gl_sched_machine machine;
    gl_sched_calibration cal;
    gl_trace trace;
} gl_sched_lab;

/* Open the report and the device (the device line is printed), start the trace. */
void gl_sched_lab_open(gl_sched_lab *S, const char *name, const gl_common *common);
/* Measure the model's machine with kernels of `threads` threads lasting kernel_us (the model: line). */
void gl_sched_lab_calibrate(gl_sched_lab *S, int threads, double kernel_us);
/* Write the trace, close the device, finish the report; returns the exit code. */
int gl_sched_lab_close(gl_sched_lab *S, const gl_common *common);

#ifdef __cplusplus
}
#endif
#endif
