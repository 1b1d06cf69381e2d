/* gl_cuda.h - the CUDA side of the shared module: checks, the device header,
 * event timers, the span buffer, the work kernel and device-side launch errors.
 *
 * A C API (cuda_runtime_api.h is C), so that .cu experiments and plain C
 * experiments (src/omp) use the same calls. */
#ifndef GL_CUDA_H
#define GL_CUDA_H

#include <cuda_runtime_api.h>

#include "gl_common.h"
#include "options.h"
#include "report.h"
#include "span.h"

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

/* The first launch that failed in device code, recorded by GL_DEVICE_CHECK
 * (device_check.cuh) and read back by the host. */
typedef struct gl_dev_error {
    int count;      /* failed device-side launches */
    int code;       /* cudaError_t of the first */
    int line;       /* its source line */
    char file[116]; /* its source file, truncated */
} gl_dev_error;

gl_dev_error *gl_dev_error_create(void);           /* zeroed device allocation */
void gl_dev_error_reset(gl_dev_error *d_err);       /* zero it again */
/* After a synchronize: if any device-side launch failed, print the first
 * (file:line, error name and text, how many) and exit 3. */
void gl_dev_error_check(const gl_dev_error *d_err);
void gl_dev_error_destroy(gl_dev_error *d_err);

/* ---- the device header ----------------------------------------------------- */

typedef struct gl_device {
    int id;                    /* CUDA ordinal */
    char name[256];            /* marketing name */
    int major, minor;          /* compute capability */
    int sms;                   /* multiprocessors */
    int driver, runtime;       /* CUDA driver and runtime versions, e.g. 13000 */
    int concurrent_kernels;    /* cudaDevAttrConcurrentKernels */
    int async_engines;         /* cudaDevAttrAsyncEngineCount */
    int max_connections;       /* effective CUDA_DEVICE_MAX_CONNECTIONS */
    int max_concurrent_kernels;/* architectural limit on resident grids (128 on sm_70..sm_90) */
    double tick_ns;            /* smallest non-zero %globaltimer step observed */
} gl_device;

/* Start the runtime on --device, print the one-line header, and add it to the
 * report. Without a usable GPU, print "no CUDA device: <reason>" and exit 77. */
void gl_device_open(gl_device *dev, const gl_common *common, gl_report *rep);

/* Most grids that can run at once for a compute capability (Programming
 * Guide, "maximum number of resident grids per device"). */
int gl_max_concurrent_kernels(int major, int minor);

/* ---- event timers -------------------------------------------------------- */

typedef struct gl_event_timer {
    cudaEvent_t start, stop; /* recorded around the timed region */
} gl_event_timer;

void gl_timer_create(gl_event_timer *t);
void gl_timer_start(gl_event_timer *t, cudaStream_t s);
void gl_timer_stop(gl_event_timer *t, cudaStream_t s);
double gl_timer_ms(gl_event_timer *t); /* waits for stop */
void gl_timer_destroy(gl_event_timer *t);

/* ---- spans ----------------------------------------------------------------- */

typedef struct gl_spans {
    gl_span_buf dev;       /* what kernels get */
    unsigned int host_next;/* next record the host hands out */
    gl_span *h_spans;      /* host copy, filled by gl_spans_fetch */
} gl_spans;

/* host_slots records for host-launched kernels, device_slots for device launches. */
void gl_spans_create(gl_spans *s, unsigned int host_slots, unsigned int device_slots, int per_block);
/* Mark every record empty and hand out slots from 0 again (synchronous). */
void gl_spans_reset(gl_spans *s);
/* Reserve the records of one host-launched kernel of the given grid size.
 * Exits 3 if the buffer was sized too small: that is a bug, not a result. */
unsigned int gl_spans_reserve(gl_spans *s, int blocks);
/* Copy the records back (call after synchronizing). Returns how many are in
 * h_spans. A device reservation that did not fit exits 3 with the count. */
int gl_spans_fetch(gl_spans *s);
void gl_spans_destroy(gl_spans *s);

/* ---- the work kernel ------------------------------------------------------- */

/* Launch blocks x threads threads that each spin for us microseconds on
 * %globaltimer, add their iteration count to *d_sink (so the loop is real
 * work with a result), and record a span in slot (GL_NO_SPAN: no span). */
void gl_work_launch(cudaStream_t stream, int blocks, int threads, double us, gl_span_buf spans,
                    unsigned int slot, int label, int stream_index, unsigned long long *d_sink);

/* Blocks of the work kernel that fit on the whole device at once, for a block
 * size: SMs x the occupancy calculator's blocks per SM. */
int gl_work_resident_blocks(const gl_device *dev, int threads);

#ifdef __cplusplus
}
#endif
#endif
