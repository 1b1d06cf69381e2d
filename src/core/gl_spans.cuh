/* gl_spans.cuh - device-side span recording, included by kernels.
 *
 * Header-only and inline, so that whole-program (non-rdc) experiments and
 * relocatable nested experiments both compile it into their own kernels. */
#ifndef GL_SPANS_CUH
#define GL_SPANS_CUH

#include "gl_timeline.h"

/* Nanoseconds on the GPU's global timer: one clock shared by every SM. */
__device__ __forceinline__ unsigned long long gl_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* The SM this thread runs on. */
__device__ __forceinline__ int gl_smid(void)
{
    unsigned int r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return (int)r;
}

/* Reserve the records of a grid about to be launched from device code (its
 * kernel record, plus one per block when per_block). GL_NO_SPAN when full;
 * the overflow is counted so the host reports it instead of losing spans. */
__device__ __forceinline__ unsigned int gl_span_reserve(gl_span_buf b, int blocks)
{
    unsigned int need = 1u + (b.per_block ? (unsigned int)blocks : 0u);
    unsigned int off = atomicAdd(b.next, need);
    if ((unsigned long long)b.host_slots + off + need > b.capacity) {
        atomicAdd(b.overflow, 1u);
        return GL_NO_SPAN;
    }
    return b.host_slots + off;
}

/* The fields a kernel record and its block records share. */
__device__ __forceinline__ void gl_span_describe(gl_span *s, unsigned int slot, int label, int stream, int parent,
                                                 int sm)
{
    s->label = label;
    s->stream = stream;
    s->kernel = (int)slot;
    s->parent = parent;
    s->blocks = (int)gridDim.x;
    s->threads = (int)blockDim.x;
    s->smid = sm;
    s->kind = GL_SPAN_KERNEL;
}

/* Close this block's span: every thread of the block must call it, once, at
 * the end of the kernel. t0 is the block's start (its first warp's %globaltimer
 * reading at entry, as gl_work_body takes it). The
 * barrier makes the end the moment the block's last thread finished. */
__device__ __forceinline__ void gl_span_block_end(gl_span_buf b, unsigned int slot, unsigned long long t0,
                                                  int label, int stream, int parent)
{
    if (slot == GL_NO_SPAN) return; /* uniform across the block, so the barrier below is safe */
    __syncthreads();
    if (threadIdx.x != 0) return;
    unsigned long long t1 = gl_globaltimer();
    int sm = gl_smid();
    gl_span *k = b.spans + slot;
    atomicMin(&k->start_ns, t0);
    atomicMin(&k->end_inv_ns, ~t1);
    if (blockIdx.x == 0) gl_span_describe(k, slot, label, stream, parent, sm);
    if (b.per_block) {
        gl_span *s = k + 1 + blockIdx.x;
        s->start_ns = t0;
        s->end_inv_ns = ~t1;
        gl_span_describe(s, slot, label, stream, parent, sm);
        s->block = (int)blockIdx.x;
    }
}

#endif
