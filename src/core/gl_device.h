/* gl_device.h - the device an experiment runs on: opening it (the one-line
 * header), the L2 flush, the host-to-device clock alignment, and event timers. */
#ifndef GL_DEVICE_H
#define GL_DEVICE_H

#include <cuda_runtime_api.h>

#include "gl_options.h"
#include "gl_report.h"
#include "gl_sample.h"
#include "gl_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    int module_loading;         /* GL_MODULE_LOADING_* the driver runs with (gl_connections.h) */
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

#ifdef __cplusplus
}
#endif
#endif
