/* errors.cu - CUDA error checks, host-side and for calls made on the device. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gl_errors.h"
#include "gl_progress.h"
#include "gl_stats.h"

void gl_cuda_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess) return;
    gl_progress_clear(); /* the message starts on a clean line */
    fflush(stdout);
    fprintf(stderr, "CUDA error at %s:%d: %s: %s (%s)\n", file, line, what, cudaGetErrorName(err),
            cudaGetErrorString(err));
    exit(GL_EXIT_CUDA);
}

/* How long gl_stream_wait spins before it naps: the waits at the end of a run are mostly shorter. */
static const double SPIN_NS = 10e6;

void gl_stream_wait(cudaStream_t stream, double timeout_s, const char *what)
{
    /* Poll an event recorded at the stream's end, not the stream: Nsight Systems traces each cudaEventQuery (the
     * unfinished ones too) and no cudaStreamQuery, so a trace of a gridlab run shows this wait as a wait, which the
     * replay reads as one (a cudaEventQuery loop), and not as host work of its recorded length. Untimed, the
     * record holds no queue and costs no copy engine time (FINDINGS, "Records that hold their queue"). */
    cudaEvent_t done;
    gl_cuda_check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), what, __FILE__, __LINE__);
    gl_cuda_check(cudaEventRecord(done, stream), what, __FILE__, __LINE__);
    double start = gl_host_ns();
    for (;;) {
        cudaError_t err = cudaEventQuery(done);
        if (err == cudaSuccess) {
            gl_cuda_check(cudaEventDestroy(done), what, __FILE__, __LINE__);
            return;
        }
        if (err != cudaErrorNotReady) gl_cuda_check(err, what, __FILE__, __LINE__);
        double waited = gl_host_ns() - start;
        if (waited > timeout_s * 1e9) break;
        if (waited < SPIN_NS) {
            /* Spin: the wait ends within a few us of its event, where a nap ended 36-109 us after it (p10-p90;
             * 50 us and the timer's slack), which a run's next host call inherits. */
            gl_host_spin(2e3);
        } else {
            struct timespec nap = {0, 50 * 1000}; /* 50 us: no busy core on a long wait, far below any tree's time */
            nanosleep(&nap, NULL);
        }
    }
    gl_progress_clear(); /* _exit below skips the exit hook that would erase it */
    fflush(stdout);
    fprintf(stderr, "CUDA error: %s did not finish within %.0f s: the device is hung; exiting without waiting for it\n",
            what, timeout_s);
    fflush(stderr);
    _exit(GL_EXIT_CUDA);
}

void gl_no_gpu(const char *fmt, ...)
{
    static const char prefix[] = "no suitable GPU: ";
    gl_buf why = GL_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(&why, fmt, ap);
    va_end(ap);
    /* A reason passed on from another process (a sweep's child, a probe)
     * may carry the prefix already: say it once. */
    const char *text = gl_buf_str(&why);
    while (strncmp(text, prefix, sizeof prefix - 1) == 0) text += sizeof prefix - 1;
    gl_progress_clear();
    fflush(stdout);
    fprintf(stderr, "%s%s\n", prefix, text);
    fflush(stderr);
    exit(GL_EXIT_NO_GPU);
}

/* "13.0" for 13000: the form nvidia-smi and the toolkit's release notes use. */
static void cuda_version_text(int v, char *out, size_t n) { snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10); }

/* The runtime's one text for both a missing and an old driver reads as
 * "upgrade your driver", so the cause is worked out here. */
void gl_no_gpu_cuda(cudaError_t err)
{
    static const char cpu_suite[] =
        "what still works without a GPU: make test runs the CPU suite (the unit and command-line tests)";
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver); /* 0 when no driver could be loaded */
    cudaRuntimeGetVersion(&runtime);
    char dv[16], rv[16];
    cuda_version_text(driver, dv, sizeof dv);
    cuda_version_text(runtime, rv, sizeof rv);
    gl_buf why = GL_BUF_INIT;
    if (err == cudaErrorInsufficientDriver) {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char *dl = dlerror();
            if (dl && strncmp(dl, "libcuda.so.1: ", 14) == 0) dl += 14; /* the message names the library already */
            gl_buf_printf(&why, "no CUDA driver is installed: libcuda.so.1 cannot be loaded (%s)",
                          dl ? dl : "no reason given");
        } else {
            dlclose(lib);
            if (driver > 0 && driver < runtime)
                gl_buf_printf(&why,
                              "the CUDA driver is older than the CUDA runtime of this build: the driver supports CUDA %s, "
                              "the runtime is CUDA %s; upgrade the NVIDIA driver to one for CUDA %s or newer",
                              dv, rv, rv);
        }
    } else if (err == cudaErrorNoDevice || err == cudaSuccess) { /* cudaSuccess: the runtime counted no devices */
        const char *visible = getenv("CUDA_VISIBLE_DEVICES");
        gl_buf_puts(&why, "no GPU is visible");
        if (driver) gl_buf_printf(&why, " (CUDA driver %s is installed%s", dv, visible ? "; " : ")");
        if (visible)
            gl_buf_printf(&why, "%sCUDA_VISIBLE_DEVICES='%s' may hide them)", driver ? "" : " (", visible);
    }
    if (why.len == 0) /* a driver and a GPU that cannot work together: the runtime's words are all there is */
        gl_buf_printf(&why, "%s (%s; CUDA driver %s, runtime %s)", cudaGetErrorString(err), cudaGetErrorName(err),
                      driver ? dv : "none", rv);
    gl_progress_clear();
    fflush(stdout);
    fprintf(stderr, "no suitable GPU: %s\n%s\n", gl_buf_str(&why), cpu_suite);
    fflush(stderr);
    exit(GL_EXIT_NO_GPU);
}

gl_dev_error *gl_dev_error_create(void)
{
    gl_dev_error *d = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d, sizeof *d));
    gl_dev_error_reset(d);
    return d;
}

void gl_dev_error_reset(gl_dev_error *d_err)
{
    CUDA_CHECK(cudaMemset(d_err, 0, sizeof *d_err));
    CUDA_CHECK(cudaDeviceSynchronize());
}

void gl_dev_error_read(const gl_dev_error *d_err, gl_dev_error *h)
{
    CUDA_CHECK(cudaMemcpy(h, d_err, sizeof *h, cudaMemcpyDeviceToHost));
}

void gl_dev_error_describe(const gl_dev_error *h, gl_buf *out)
{
    if (h->count == 0) {
        gl_buf_puts(out, "no device-side failures");
        return;
    }
    gl_buf_printf(out, "%d device-side failure%s:", h->count, h->count == 1 ? "" : "s");
    for (int i = 0; i < GL_DEV_ERROR_CODES && h->codes[i]; i++)
        gl_buf_printf(out, "%s %s x%d", i ? "," : "", cudaGetErrorName((cudaError_t)h->codes[i]), h->per_code[i]);
    if (h->other) gl_buf_printf(out, ", %d more with other codes (over %d distinct codes)", h->other, GL_DEV_ERROR_CODES);
    gl_buf_printf(out, "; the first at %s:%d: %s", h->file, h->line, cudaGetErrorString((cudaError_t)h->code));
}

void gl_dev_error_check(const gl_dev_error *d_err)
{
    gl_dev_error h;
    gl_dev_error_read(d_err, &h);
    if (h.count == 0) return;
    gl_buf text = GL_BUF_INIT;
    gl_dev_error_describe(&h, &text);
    gl_progress_clear();
    fflush(stdout);
    fprintf(stderr, "CUDA error: device-side call failed: %s (%s)\n", cudaGetErrorName((cudaError_t)h.code),
            gl_buf_str(&text));
    gl_buf_free(&text);
    exit(GL_EXIT_CUDA);
}

void gl_dev_error_destroy(gl_dev_error *d_err) { CUDA_CHECK(cudaFree(d_err)); }
