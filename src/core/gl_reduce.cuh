/* gl_reduce.cuh - the sum of a value over a thread block, for any kernel.
 *
 * Header-only and inline, like gl_work.cuh, so that host-launched kernels and
 * grids launched from device code in relocatable experiments run the same code.
 * Warps sum by shuffles, then warp 0 sums the warps' totals: two barriers. */
#ifndef GL_REDUCE_CUH
#define GL_REDUCE_CUH

/* The sum of v over the block, valid in thread 0 (blockDim a multiple of 32).
 * It may be called more than once in a kernel: the first barrier keeps a
 * warp from overwriting warp_sums while warp 0 still reads the last call's. */
template <typename T>
__device__ __forceinline__ T gl_block_sum(T v)
{
    __shared__ T warp_sums[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[lane] : (T)0;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    return v;
}

#endif
