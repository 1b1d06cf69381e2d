/* gl_errors.h - CUDA errors: the check macros, waiting for a stream with a
 * deadline, the "no suitable GPU" exit, and the record of calls and launches
 * that failed in device code (filled by gl_device_check.cuh).
 *
 * A C API (cuda_runtime_api.h is C), so that .cu experiments and plain C
 * experiments use the same calls. */
#ifndef GL_ERRORS_H
#define GL_ERRORS_H

#include <cuda_runtime_api.h>

#include "gl_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -------------------------------------------------------------- */

/* Check a CUDA call; on failure print the call, file:line and the error's name
 * and text, and exit 3. */
#define CUDA_CHECK(call) gl_cuda_check((call), #call, __FILE__, __LINE__)
/* Check the launch just made (configuration errors surface here; faults during
 * execution surface at the next synchronizing CUDA_CHECK). */
#define CUDA_CHECK_LAUNCH(what) gl_cuda_check(cudaGetLastError(), "launch of " what, __FILE__, __LINE__)
void gl_cuda_check(cudaError_t err, const char *what, const char *file, int line);

/* Wait for everything queued in stream to finish, for at most timeout_s
 * seconds, polling an untimed event recorded on it (a trace shows the wait).
 * Work that never finishes (a hung grid tree) is an error the host can only
 * report: say what did not finish, and exit 3 at once, without the runtime's
 * teardown, which would wait on the GPU too. */
void gl_stream_wait(cudaStream_t stream, double timeout_s, const char *what);

/* Print "no suitable GPU: <why>" and exit 77: the run is skipped, not failed.
 * For a machine without a GPU, and for a configuration this GPU cannot run. */
void gl_no_gpu(const char *fmt, ...) GL_PRINTF(1, 2) GL_NORETURN;
/* Exit 77 for a runtime that found no GPU (err from cudaGetDeviceCount, or
 * cudaSuccess when it counted none), saying which of no CUDA driver, a driver
 * older than the runtime (both versions) or no visible GPU it is, and that
 * make test still runs the CPU suite. */
void gl_no_gpu_cuda(cudaError_t err) GL_NORETURN;

enum { GL_DEV_ERROR_CODES = 16 }; /* distinct error codes counted one by one */

/* Launches and calls that failed in device code, recorded by GL_DEVICE_CHECK
 * (gl_device_check.cuh) and read back by the host. */
typedef struct gl_dev_error {
    int count;                          /* failed device-side calls in all */
    int code;                           /* cudaError_t of the first */
    int line;                           /* its source line */
    char file[116];                     /* its source file, truncated */
    int codes[GL_DEV_ERROR_CODES];      /* the distinct codes seen (0: free slot) */
    int per_code[GL_DEV_ERROR_CODES];   /* how many failures had each */
    int other;                          /* failures whose code found no free slot */
} gl_dev_error;

gl_dev_error *gl_dev_error_create(void);           /* zeroed device allocation */
void gl_dev_error_reset(gl_dev_error *d_err);       /* zero it again */
/* Copy the record to the host after a synchronize; for experiments that probe
 * limits and expect failures. */
void gl_dev_error_read(const gl_dev_error *d_err, gl_dev_error *h);
/* "3 failures: cudaErrorLaunchOutOfResources x3; the first at file:line" */
void gl_dev_error_describe(const gl_dev_error *h, gl_buf *out);
/* After a synchronize: if any device-side call failed, print what failed and
 * exit 3. */
void gl_dev_error_check(const gl_dev_error *d_err);
void gl_dev_error_destroy(gl_dev_error *d_err);

#ifdef __cplusplus
}
#endif
#endif
