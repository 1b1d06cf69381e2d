/* gl_work.cuh - the body of the work kernel, callable from any kernel.
 *
 * Header-only and inline, so that host-launched work (gl_work_launch) and
 * grids launched from device code in relocatable nested experiments run the
 * same code. The duration is set in nanoseconds of %globaltimer, not in loop
 * counts, and the loop's iteration count is stored, so the compiler cannot
 * remove the work and its length does not depend on the clock speed. */
#ifndef GL_WORK_CUH
#define GL_WORK_CUH

#include "gl_spans.cuh"

/* Spin until spin_ns after t0 (the block's start); returns the iterations done. */
__device__ __forceinline__ unsigned long long gl_work_spin(unsigned long long t0, unsigned long long spin_ns)
{
    unsigned long long now = t0, iters = 0;
    while (now - t0 < spin_ns) {
        now = gl_globaltimer();
        iters++;
    }
    return iters;
}

/* The whole work kernel, for every thread of a block: spin until spin_ns
 * after the block's first warp started, leave the result in *d_sink (thread 0
 * of each block), and close the block's span. A block lasts its time from its
 * first warp: a warp that starts late (seen on Hopper, by up to 16 us, with
 * many grids resident) catches up instead of stretching the block. Every
 * thread of a 1-D block calls it, once per kernel (it has a barrier). */
__device__ __forceinline__ void gl_work_body(unsigned long long spin_ns, gl_span_buf spans, unsigned int slot,
                                             int label, int stream, int parent, unsigned long long *d_sink)
{
    __shared__ unsigned long long warp_t0[32]; /* each warp's start; one slot per warp, so no race */
    unsigned long long mine = gl_globaltimer();
    if ((threadIdx.x & 31) == 0) warp_t0[threadIdx.x >> 5] = mine;
    __syncthreads();
    unsigned long long t0 = warp_t0[0];
    for (unsigned int w = 1; w < (blockDim.x + 31) / 32; w++) t0 = warp_t0[w] < t0 ? warp_t0[w] : t0;
    unsigned long long iters = gl_work_spin(t0, spin_ns);
    if (threadIdx.x == 0) atomicAdd(d_sink, iters + 1);
    gl_span_block_end(spans, slot, t0, label, stream, parent);
}

#endif
