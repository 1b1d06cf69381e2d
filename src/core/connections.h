/* connections.h - CUDA_DEVICE_MAX_CONNECTIONS, which only counts before the runtime starts.
 *
 * The driver reads the variable once, when it creates the context. Setting it
 * later changes nothing, so gridlab refuses to: gl_connections_request() fails
 * once the runtime may have started. That is checked, not assumed: the CUDA
 * runtime loads the driver library (libcuda.so) on its first call, so a
 * process in which libcuda is mapped may already have a context. */
#ifndef GL_CONNECTIONS_H
#define GL_CONNECTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { GL_CONNECTIONS_DEFAULT = 8, GL_CONNECTIONS_MAX = 32 };

/* Is a shared library whose file name starts with prefix (e.g. "libcuda.so")
 * mapped into this process? 1, 0, or -1 when /proc/self/maps cannot be read. */
int gl_library_mapped(const char *prefix);

/* Record that gridlab is about to start the runtime (gl_device_open does). */
void gl_runtime_mark_started(void);
/* Has the CUDA runtime (possibly) started in this process: marked, or the
 * driver library is mapped? */
int gl_runtime_started(void);

/* Set CUDA_DEVICE_MAX_CONNECTIONS to c for this process. Returns 0, or -1 with
 * a message in err when the runtime may have started or c is out of range. */
int gl_connections_request(int c, char *err, size_t errlen);

/* The value the driver will use: the environment's, or the default. desc gets
 * "8 (default)" or "4 (CUDA_DEVICE_MAX_CONNECTIONS)". Returns the number, or
 * the default when the variable is not a number in 1..32 (desc says so). */
int gl_connections_effective(char *desc, size_t desclen);

#ifdef __cplusplus
}
#endif
#endif
