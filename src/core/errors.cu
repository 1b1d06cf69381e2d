/* errors.cu - CUDA error checks, host-side and for calls made on the device. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gl_cuda.h"

void gl_cuda_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess) return;
    fflush(stdout);
    fprintf(stderr, "CUDA error at %s:%d: %s: %s (%s)\n", file, line, what, cudaGetErrorName(err),
            cudaGetErrorString(err));
    exit(GL_EXIT_CUDA);
}

void gl_stream_wait(cudaStream_t stream, double timeout_s, const char *what)
{
    double start = gl_host_ns();
    for (;;) {
        cudaError_t err = cudaStreamQuery(stream);
        if (err == cudaSuccess) return;
        if (err != cudaErrorNotReady) gl_cuda_check(err, what, __FILE__, __LINE__);
        if (gl_host_ns() - start > timeout_s * 1e9) break;
        struct timespec nap = {0, 50 * 1000}; /* 50 us: no busy core, and far below any tree's time */
        nanosleep(&nap, NULL);
    }
    fflush(stdout);
    fprintf(stderr, "CUDA error: %s did not finish within %.0f s: the device is hung; exiting without waiting for it\n",
            what, timeout_s);
    fflush(stderr);
    _exit(GL_EXIT_CUDA);
}

void gl_no_gpu(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("no suitable GPU: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
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
    fflush(stdout);
    fprintf(stderr, "CUDA error: device-side call failed: %s (%s)\n", cudaGetErrorName((cudaError_t)h.code),
            gl_buf_str(&text));
    gl_buf_free(&text);
    exit(GL_EXIT_CUDA);
}

void gl_dev_error_destroy(gl_dev_error *d_err) { CUDA_CHECK(cudaFree(d_err)); }
