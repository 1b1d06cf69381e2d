/* device.cu - open the GPU and describe it: timer tick, peak and measured
 * bandwidth, host-clock alignment; the L2 flush; event timers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_connections.h"
#include "gl_device.h"
#include "gl_errors.h"
#include "gl_gpu_limits.h"
#include "gl_spans.cuh"

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

/* The best of a few device-to-device copies of up to 256 MiB (a quarter of
 * the free memory at most), counting the bytes read and written. */
static double measure_copy_gbps(void)
{
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t bytes = (size_t)256 << 20;
    if (bytes > free_b / 4) bytes = free_b / 4 & ~(size_t)255;
    if (bytes < ((size_t)1 << 20)) return 0;
    void *a = NULL, *b = NULL;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    gl_event_timer t;
    gl_timer_create(&t);
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    double best_ms = 0;
    for (int i = 0; i < 6; i++) {
        gl_timer_start(&t, s);
        CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s));
        gl_timer_stop(&t, s);
        double ms = gl_timer_ms(&t);
        if (i > 0 && (best_ms == 0 || ms < best_ms)) best_ms = ms; /* the first is a warm-up */
    }
    gl_timer_destroy(&t);
    CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return best_ms > 0 ? 2.0 * (double)bytes / (best_ms * 1e-3) / 1e9 : 0;
}

/* ---- host and device clocks ---------------------------------------------------- */

/* Answers the host's numbered requests with a %globaltimer reading. Ends when
 * the host asks past the last round, or two seconds after it started, so that
 * it can never hang the device. */
__global__ void gl_clock_echo(volatile unsigned int *request, volatile unsigned long long *reply,
                              volatile unsigned int *answered, int rounds)
{
    unsigned long long start = gl_globaltimer();
    for (int i = 1; i <= rounds; i++) {
        while (*request != (unsigned int)i)
            if (*request > (unsigned int)rounds || gl_globaltimer() - start > 2000000000ULL) return;
        *reply = gl_globaltimer();
        __threadfence_system();
        *answered = (unsigned int)i;
    }
}

gl_clock_align gl_clock_align_measure(int rounds)
{
    gl_clock_align a;
    memset(&a, 0, sizeof a);
    unsigned int *h_words = NULL;
    CUDA_CHECK(cudaHostAlloc((void **)&h_words, 64, cudaHostAllocMapped));
    memset(h_words, 0, 64);
    volatile unsigned int *request = h_words, *answered = h_words + 1;
    volatile unsigned long long *reply = (volatile unsigned long long *)(h_words + 2);
    void *d_words = NULL;
    CUDA_CHECK(cudaHostGetDevicePointer(&d_words, h_words, 0));
    unsigned int *d_u = (unsigned int *)d_words;
    double *before = (double *)gl_xcalloc((size_t)rounds, sizeof(double));
    double *after = (double *)gl_xcalloc((size_t)rounds, sizeof(double));
    unsigned long long *dev = (unsigned long long *)gl_xcalloc((size_t)rounds, sizeof(unsigned long long));
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    gl_clock_echo<<<1, 1, 0, s>>>(d_u, (unsigned long long *)(d_u + 2), d_u + 1, rounds);
    CUDA_CHECK_LAUNCH("gl_clock_echo");
    int done = 0;
    for (int i = 1; i <= rounds; i++) {
        double t0 = gl_host_ns();
        *request = (unsigned int)i;
        while (*answered != (unsigned int)i && gl_host_ns() - t0 < 1e9) {
        }
        double t1 = gl_host_ns();
        if (*answered != (unsigned int)i) break; /* the kernel never started or gave up: no alignment */
        __sync_synchronize(); /* read the reply only after seeing it answered (needed on weakly ordered hosts) */
        before[done] = t0;
        after[done] = t1;
        dev[done] = *reply;
        done++;
    }
    *request = (unsigned int)rounds + 1; /* nothing more; the kernel ends on its own either way */
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaStreamDestroy(s));
    if (done > 0) a = gl_clock_align_from(before, after, dev, done);
    free(before);
    free(after);
    free(dev);
    CUDA_CHECK(cudaFreeHost(h_words));
    return a;
}

/* ---- the device header ------------------------------------------------------------ */

void gl_device_open(gl_device *dev, const gl_common *common, gl_report *rep)
{
    memset(dev, 0, sizeof *dev);
    gl_runtime_mark_started();
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) gl_no_gpu_cuda(err);
    if (common->device >= count) gl_no_gpu("--device %d requested, but only %d present", common->device, count);
    dev->id = common->device;
    CUDA_CHECK(cudaSetDevice(dev->id));
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev->id));
    snprintf(dev->name, sizeof dev->name, "%s", p.name);
    dev->major = p.major;
    dev->minor = p.minor;
    dev->sms = p.multiProcessorCount;
    dev->l2_bytes = p.l2CacheSize;
    int mem_khz = 0, bus_bits = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->concurrent_kernels, cudaDevAttrConcurrentKernels, dev->id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->async_engines, cudaDevAttrAsyncEngineCount, dev->id));
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev->id));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev->id));
    CUDA_CHECK(cudaDriverGetVersion(&dev->driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&dev->runtime));
    dev->max_resident_grids = gl_max_resident_grids(dev->major, dev->minor);
    /* Double data rate: two transfers per memory clock over the bus width. */
    dev->peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;

    /* A binary without code for this GPU cannot run anything: that is an
     * unsuitable GPU (77), not a failed experiment. */
    cudaFuncAttributes fa;
    err = cudaFuncGetAttributes(&fa, gl_tick_kernel);
    if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
        gl_no_gpu("this build has no code for compute capability %d.%d; rebuild with make CUDA_ARCH=%d%d",
                  dev->major, dev->minor, dev->major, dev->minor);
    CUDA_CHECK(err);

    char conn[128];
    dev->max_connections = gl_connections_effective(conn, sizeof conn);
    dev->module_loading = gl_module_loading();
    static const char *const loading_names[] = {"unknown", "eager", "lazy"};
    const char *loading_env = getenv("CUDA_MODULE_LOADING");
    dev->tick_ns = measure_tick();
    dev->copy_gbps = measure_copy_gbps();
    dev->clock = gl_clock_align_measure(200);

    printf("device %d: %s | cc %d.%d | %d SMs | L2 %d MiB | driver %d.%d | runtime %d.%d | concurrentKernels %d | "
           "asyncEngineCount %d | CUDA_DEVICE_MAX_CONNECTIONS %s | module loading %s%s%s%s | globaltimer tick %.0f ns | DRAM peak %.0f GB/s, "
           "copy %.0f GB/s measured | host clock aligned +/-%.2f us\n",
           dev->id, dev->name, dev->major, dev->minor, dev->sms, dev->l2_bytes >> 20, dev->driver / 1000,
           (dev->driver % 1000) / 10, dev->runtime / 1000, (dev->runtime % 1000) / 10, dev->concurrent_kernels,
           dev->async_engines, conn, loading_names[dev->module_loading], loading_env ? " (CUDA_MODULE_LOADING=" : "",
           loading_env ? loading_env : "", loading_env ? ")" : "", dev->tick_ns, dev->peak_gbps, dev->copy_gbps,
           dev->clock.valid ? dev->clock.uncertainty_ns / 1e3 : -1.0);
    fflush(stdout);
    if (rep) {
        gl_report_device(rep, "name", "%s", dev->name);
        gl_report_device(rep, "cc", "%d.%d", dev->major, dev->minor);
        gl_report_device(rep, "sms", "%d", dev->sms);
        gl_report_device(rep, "l2_bytes", "%d", dev->l2_bytes);
        gl_report_device(rep, "driver", "%d", dev->driver);
        gl_report_device(rep, "runtime", "%d", dev->runtime);
        gl_report_device(rep, "concurrent_kernels", "%d", dev->concurrent_kernels);
        gl_report_device(rep, "async_engines", "%d", dev->async_engines);
        gl_report_device(rep, "max_connections", "%d", dev->max_connections);
        gl_report_device(rep, "module_loading", "%s", loading_names[dev->module_loading]);
        gl_report_device(rep, "max_resident_grids", "%d", dev->max_resident_grids);
        gl_report_device(rep, "globaltimer_tick_ns", "%.0f", dev->tick_ns);
        gl_report_device(rep, "peak_dram_gbps", "%.1f", dev->peak_gbps);
        gl_report_device(rep, "copy_gbps", "%.1f", dev->copy_gbps);
        gl_report_device(rep, "clock_align_uncertainty_ns", "%.0f", dev->clock.valid ? dev->clock.uncertainty_ns : -1.0);
        gl_report_set_peak(rep, dev->peak_gbps);
    }
}

void gl_device_close(gl_device *dev)
{
    if (dev->d_flush) CUDA_CHECK(cudaFree(dev->d_flush));
    if (dev->flush_stream) CUDA_CHECK(cudaStreamDestroy(dev->flush_stream));
    dev->d_flush = NULL;
    dev->flush_stream = NULL;
}

/* ---- the L2 flush ------------------------------------------------------------------- */

void gl_l2_flush(void *p)
{
    gl_device *dev = (gl_device *)p;
    if (!dev->d_flush) {
        dev->flush_bytes = (size_t)(dev->l2_bytes > 0 ? dev->l2_bytes : 1 << 20) * 2;
        CUDA_CHECK(cudaMalloc(&dev->d_flush, dev->flush_bytes));
        CUDA_CHECK(cudaStreamCreateWithFlags(&dev->flush_stream, cudaStreamNonBlocking));
    }
    /* Writing twice the L2's worth of other lines evicts what the last sample
     * left there. It runs on a stream of its own, so that it never takes part
     * in the legacy stream's implicit ordering an experiment may be measuring,
     * and the wait keeps it out of every timed region. */
    static unsigned char fill;
    CUDA_CHECK(cudaMemsetAsync(dev->d_flush, ++fill, dev->flush_bytes, dev->flush_stream));
    CUDA_CHECK(cudaStreamSynchronize(dev->flush_stream));
}

void gl_device_sampler(gl_sampler *s, gl_device *dev, const gl_common *common)
{
    gl_sampler_init(s, common);
    gl_sampler_set_flush(s, gl_l2_flush, dev);
}

/* ---- event timers -------------------------------------------------------------------- */

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
