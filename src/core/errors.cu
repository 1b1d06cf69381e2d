/* errors.cu - CUDA error checks, host-side and for launches made on the device. */
#include <stdio.h>
#include <stdlib.h>

#include "gl_cuda.h"

void gl_cuda_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess) return;
    fflush(stdout);
    fprintf(stderr, "CUDA error at %s:%d: %s: %s (%s)\n", file, line, what, cudaGetErrorName(err),
            cudaGetErrorString(err));
    exit(GL_EXIT_CUDA);
}

gl_dev_error *gl_dev_error_create(void)
{
    gl_dev_error *d = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d, sizeof *d));
    gl_dev_error_reset(d);
    return d;
}

void gl_dev_error_reset(gl_dev_error *d_err) { CUDA_CHECK(cudaMemset(d_err, 0, sizeof *d_err)); }

void gl_dev_error_check(const gl_dev_error *d_err)
{
    gl_dev_error h;
    CUDA_CHECK(cudaMemcpy(&h, d_err, sizeof h, cudaMemcpyDeviceToHost));
    if (h.count == 0) return;
    cudaError_t code = (cudaError_t)h.code;
    fflush(stdout);
    fprintf(stderr, "CUDA error at %s:%d: device-side launch failed: %s (%s); %d device-side failure%s in all\n",
            h.file, h.line, cudaGetErrorName(code), cudaGetErrorString(code), h.count, h.count == 1 ? "" : "s");
    exit(GL_EXIT_CUDA);
}

void gl_dev_error_destroy(gl_dev_error *d_err) { CUDA_CHECK(cudaFree(d_err)); }
