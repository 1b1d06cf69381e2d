/* gl_connections.h - CUDA_DEVICE_MAX_CONNECTIONS, which only counts before the driver starts.
 *
 * The driver reads the variable once, when it starts. Setting it later changes
 * nothing, so gridlab refuses to: gl_connections_request() fails once the
 * runtime may have started. That is checked, not assumed, and the check is
 * "the driver has been initialized", not "libcuda is loaded": tools that inject
 * themselves (compute-sanitizer, ncu) map libcuda into the process before main
 * without initializing it, and a variable set after that still takes effect
 * (both measured on an H100, driver 580: CUDA_DEVICE_MAX_CONNECTIONS=1 and
 * CUDA_MODULE_LOADING=EAGER set in main under ncu took effect). nsys and
 * cuda-gdb load nothing before main.
 *
 * The driver accepts any text in the variable and never says what it made of
 * it (GL_CONNECTIONS_DRIVER_WORDS, measured), so a value that is not an
 * integer in 1..32 is refused before the runtime starts, as --connections is. */
#ifndef GL_CONNECTIONS_H
#define GL_CONNECTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { GL_CONNECTIONS_DEFAULT = 8, GL_CONNECTIONS_MAX = 32 };

/* What the driver does with a value outside 1..32, as measured on an H100
 * (driver 580) by how many queues a depth-first program of 16 and of 64
 * streams used: it reads the leading digits ('1.5' ran with 1 queue, '8x' and
 * '4abc' with 8 and 4), takes an empty value, a non-number or 0 as the default
 * 8, and anything above 32 (33, 48, 64, 100) or below 0 (-1, -8) as 32. */
#define GL_CONNECTIONS_DRIVER_WORDS                                                                                  \
    "would read only its leading digits ('1.5' runs with 1 queue, '8x' with 8), take an empty value, a "             \
    "non-number or 0 as its default 8, and a value above 32 or below 0 as 32 (measured on an H100, driver 580)"

/* Is a shared library whose file name starts with prefix (e.g. "libcuda.so")
 * mapped into this process? 1, 0, or -1 when /proc/self/maps cannot be read. */
int gl_library_mapped(const char *prefix);

/* Record that gridlab is about to start the runtime (gl_device_open does). */
void gl_runtime_mark_started(void);
/* Has the CUDA driver been initialized in this process (cuInit has run)? Asks
 * a libcuda already mapped, without loading one; 0 when none is. */
int gl_driver_initialized(void);
/* Has the CUDA runtime (possibly) started in this process: marked, or the
 * driver library is mapped and initialized? */
int gl_runtime_started(void);

/* The module loading mode the driver runs with (CUDA_MODULE_LOADING, read
 * when the driver starts): lazy loads a kernel's code at its first launch. */
enum { GL_MODULE_LOADING_UNKNOWN = 0, GL_MODULE_LOADING_EAGER = 1, GL_MODULE_LOADING_LAZY = 2 };
/* Ask the initialized driver; UNKNOWN before it starts or where it cannot say. */
int gl_module_loading(void);

/* CUDA_DEVICE_MAX_CONNECTIONS from the environment: 0 when unset or an integer
 * in 1..32; otherwise -1, with a message in err that names the value, what the
 * driver would do with it, and what to set instead. */
int gl_connections_env_check(char *err, size_t errlen);

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
