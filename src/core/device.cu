/* device.cu - open the GPU, measure the %globaltimer tick, print the device header,
 * and time regions with events. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connections.h"
#include "gl_cuda.h"
#include "spans.cuh"

int gl_max_concurrent_kernels(int major, int minor)
{
    /* Resident grids per device, from the Programming Guide's table of
     * compute-capability limits. */
    if (major >= 7) return 128;
    if (major == 6) return minor == 0 ? 128 : 32;
    if (major == 5) return minor == 3 ? 16 : 32;
    return 16;
}

/* One thread reads %globaltimer back to back and keeps the smallest non-zero
 * step: the resolution every span is quantized to. */
__global__ void gl_tick_kernel(unsigned long long *d_out, int reads)
{
    unsigned long long prev = gl_globaltimer(), best = ~0ULL, changes = 0;
    for (int i = 0; i < reads; i++) {
        unsigned long long t = gl_globaltimer();
        if (t != prev) {
            if (t - prev < best) best = t - prev;
            changes++;
            prev = t;
        }
    }
    d_out[0] = best;
    d_out[1] = changes;
}

/* Print "no CUDA device: <why>" and exit 77: the run is skipped, not failed. */
static void no_device(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("no CUDA device: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(GL_EXIT_NO_GPU);
}

static double measure_tick(void)
{
    unsigned long long *d = NULL, h[2] = {0, 0};
    CUDA_CHECK(cudaMalloc((void **)&d, sizeof h));
    gl_tick_kernel<<<1, 1>>>(d, 1 << 16);
    CUDA_CHECK_LAUNCH("gl_tick_kernel");
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
    return h[1] ? (double)h[0] : 0.0;
}

void gl_device_open(gl_device *dev, const gl_common *common, gl_report *rep)
{
    memset(dev, 0, sizeof *dev);
    gl_runtime_mark_started();
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) no_device("%s (%s)", cudaGetErrorString(err), cudaGetErrorName(err));
    if (count == 0) no_device("no device is visible");
    if (common->device >= count) no_device("--device %d requested, but only %d present", common->device, count);
    dev->id = common->device;
    CUDA_CHECK(cudaSetDevice(dev->id));
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev->id));
    snprintf(dev->name, sizeof dev->name, "%s", p.name);
    dev->major = p.major;
    dev->minor = p.minor;
    dev->sms = p.multiProcessorCount;
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->concurrent_kernels, cudaDevAttrConcurrentKernels, dev->id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->async_engines, cudaDevAttrAsyncEngineCount, dev->id));
    CUDA_CHECK(cudaDriverGetVersion(&dev->driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&dev->runtime));
    dev->max_concurrent_kernels = gl_max_concurrent_kernels(dev->major, dev->minor);

    /* A binary without code for this GPU cannot run anything: that is an
     * unsuitable GPU (77), not a failed experiment. */
    cudaFuncAttributes fa;
    err = cudaFuncGetAttributes(&fa, gl_tick_kernel);
    if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
        no_device("this build has no code for compute capability %d.%d; rebuild with make CUDA_ARCH=%d%d",
                  dev->major, dev->minor, dev->major, dev->minor);
    CUDA_CHECK(err);

    char conn[128];
    dev->max_connections = gl_connections_effective(conn, sizeof conn);
    dev->tick_ns = measure_tick();

    printf("device %d: %s | cc %d.%d | %d SMs | driver %d.%d | runtime %d.%d | concurrentKernels %d | "
           "asyncEngineCount %d | CUDA_DEVICE_MAX_CONNECTIONS %s | globaltimer tick %.0f ns\n",
           dev->id, dev->name, dev->major, dev->minor, dev->sms, dev->driver / 1000, (dev->driver % 1000) / 10,
           dev->runtime / 1000, (dev->runtime % 1000) / 10, dev->concurrent_kernels, dev->async_engines, conn,
           dev->tick_ns);
    fflush(stdout);
    if (rep) {
        gl_report_device(rep, "name", "%s", dev->name);
        gl_report_device(rep, "cc", "%d.%d", dev->major, dev->minor);
        gl_report_device(rep, "sms", "%d", dev->sms);
        gl_report_device(rep, "driver", "%d", dev->driver);
        gl_report_device(rep, "runtime", "%d", dev->runtime);
        gl_report_device(rep, "concurrent_kernels", "%d", dev->concurrent_kernels);
        gl_report_device(rep, "async_engines", "%d", dev->async_engines);
        gl_report_device(rep, "max_connections", "%d", dev->max_connections);
        gl_report_device(rep, "globaltimer_tick_ns", "%.0f", dev->tick_ns);
    }
}

void gl_timer_create(gl_event_timer *t)
{
    CUDA_CHECK(cudaEventCreate(&t->start));
    CUDA_CHECK(cudaEventCreate(&t->stop));
}

void gl_timer_start(gl_event_timer *t, cudaStream_t s) { CUDA_CHECK(cudaEventRecord(t->start, s)); }
void gl_timer_stop(gl_event_timer *t, cudaStream_t s) { CUDA_CHECK(cudaEventRecord(t->stop, s)); }

double gl_timer_ms(gl_event_timer *t)
{
    float ms = 0;
    CUDA_CHECK(cudaEventSynchronize(t->stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
    return ms;
}

void gl_timer_destroy(gl_event_timer *t)
{
    CUDA_CHECK(cudaEventDestroy(t->start));
    CUDA_CHECK(cudaEventDestroy(t->stop));
}
