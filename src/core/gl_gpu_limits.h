/* gl_gpu_limits.h - architectural limits by compute capability, in plain C so
 * that the tables are unit-tested without a GPU.
 *
 * Source: the CUDA C++ Programming Guide's table of technical specifications
 * per compute capability ("Maximum number of resident grids per device
 * (Concurrent Kernel Execution)"). */
#ifndef GL_GPU_LIMITS_H
#define GL_GPU_LIMITS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Most grids that can be resident on the device at once. */
int gl_max_resident_grids(int major, int minor);

#ifdef __cplusplus
}
#endif
#endif
