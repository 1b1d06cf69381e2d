/* gl_nvtx.h - NVTX v3 ranges and stream names, so that Nsight Systems shows our phases.
 *
 * NVTX v3 is header-only and does nothing unless a tool is attached, so the
 * ranges stay in every build. */
#ifndef GL_NVTX_H
#define GL_NVTX_H

#include <stdarg.h>
#include <stdio.h>

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>

/* Open a range named by a printf format; close it with gl_nvtx_pop(). */
static inline void gl_nvtx_push(const char *fmt, ...)
{
    char name[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    nvtxRangePushA(name);
}

static inline void gl_nvtx_pop(void) { nvtxRangePop(); }

/* Give a stream the name Nsight Systems shows on its row. */
static inline void gl_nvtx_name_stream(cudaStream_t s, const char *fmt, ...)
{
    char name[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    nvtxNameCudaStreamA(s, name);
}

#endif
