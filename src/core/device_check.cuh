/* device_check.cuh - surface launches made from device code on the host.
 *
 * A child launch that fails in device code returns an error only to the thread
 * that made it; nothing reaches the host unless it is recorded. GL_DEVICE_CHECK
 * records the first failure (code, file, line) and counts them all into a
 * gl_dev_error that the host reads with gl_dev_error_check() after it
 * synchronizes. Needs relocatable device code and cudadevrt (src/nested). */
#ifndef GL_DEVICE_CHECK_CUH
#define GL_DEVICE_CHECK_CUH

#include "gl_cuda.h"

__device__ __forceinline__ void gl_device_check(gl_dev_error *e, cudaError_t code, const char *file, int line)
{
    if (code == cudaSuccess) return;
    if (atomicAdd(&e->count, 1) != 0) return; /* keep the first, count the rest */
    e->code = (int)code;
    e->line = line;
    int i = 0;
    for (; file[i] && i < (int)sizeof(e->file) - 1; i++) e->file[i] = file[i];
    e->file[i] = '\0';
}

/* Check the call just made (or, with cudaGetLastError(), the launch just made). */
#define GL_DEVICE_CHECK(d_err, call) gl_device_check((d_err), (call), __FILE__, __LINE__)

#endif
