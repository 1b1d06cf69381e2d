/* gl_device_check.cuh - surface calls and launches made from device code on the host.
 *
 * A child launch that fails in device code returns an error only to the thread
 * that made it; nothing reaches the host unless it is recorded. GL_DEVICE_CHECK
 * records the first failure (code, file, line), counts every failure per error
 * code, and the host reads the record after it synchronizes: fatally with
 * gl_dev_error_check(), or to report on with gl_dev_error_read() when the
 * experiment probes a limit and expects failures. Device code that launches
 * needs relocatable device code and cudadevrt (declare "Build: rdc"). */
#ifndef GL_DEVICE_CHECK_CUH
#define GL_DEVICE_CHECK_CUH

#include "gl_errors.h"

__device__ __forceinline__ void gl_device_check(gl_dev_error *e, cudaError_t code, const char *file, int line)
{
    if (code == cudaSuccess) return;
    if (atomicAdd(&e->count, 1) == 0) { /* the first failure keeps its place */
        e->code = (int)code;
        e->line = line;
        int i = 0;
        for (; file[i] && i < (int)sizeof(e->file) - 1; i++) e->file[i] = file[i];
        e->file[i] = '\0';
    }
    for (int i = 0; i < GL_DEV_ERROR_CODES; i++) {
        int seen = atomicCAS(&e->codes[i], 0, (int)code); /* claim a free slot, or find this code's */
        if (seen == 0 || seen == (int)code) {
            atomicAdd(&e->per_code[i], 1);
            return;
        }
    }
    atomicAdd(&e->other, 1);
}

/* Check the call just made (or, with cudaGetLastError(), the launch just made). */
#define GL_DEVICE_CHECK(d_err, call) gl_device_check((d_err), (call), __FILE__, __LINE__)

#endif
