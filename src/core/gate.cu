/* gate.cu - hold a stream until everything to be timed is queued behind it.
 *
 * An event timer started on an idle GPU starts at once, and the kernel behind
 * it arrives only when the host has finished the launch call: the measured time
 * then includes the host's issue cost (a few microseconds, more for a library
 * call such as CUB's, which queries the device first). Work queued behind a
 * closed gate starts together when the host opens it, so the events measure
 * the device alone (nvbench's blocking kernel). The gate kernel gives up on its
 * own after a few seconds, so a host that never opens it cannot hang the GPU;
 * gl_gate_open says when that happened, because the timing is then wrong. */
#include <stdio.h>
#include <stdlib.h>

#include "gl_connections.h"
#include "gl_errors.h"
#include "gl_gate.h"
#include "gl_spans.cuh"

enum { GATE_GIVE_UP_NS = 5000000000LL }; /* 5 s: far beyond any queueing, short enough never to hang a run */

/* Spin until the host writes 1 to *flag, or the give-up time passes (then say so in *flag = 2). */
__global__ void gl_gate_kernel(volatile int *flag)
{
    unsigned long long t0 = gl_globaltimer();
    while (*flag == 0) {
        if (gl_globaltimer() - t0 > (unsigned long long)GATE_GIVE_UP_NS) {
            *flag = 2;
            break;
        }
    }
}

void gl_gate_prepare(void)
{
    const char *mode = getenv("CUDA_MODULE_LOADING");
    if (mode && *mode) return; /* a mode the user chose stays; gl_device_open names it */
    if (gl_runtime_started()) {
        /* Not a bug to exit on: something started the driver before main. Say
         * what cannot take effect; gl_device_open reports the mode in force. */
        fprintf(stderr, "warning: CUDA_MODULE_LOADING=EAGER cannot take effect: the CUDA driver in this process "
                        "was initialized before the experiment started; under lazy loading a kernel's first launch "
                        "behind the gate waits the gate's 5 s out (set CUDA_MODULE_LOADING=EAGER in the environment)\n");
        return;
    }
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);
}

void gl_gate_create(gl_gate *g, int enabled)
{
    g->enabled = enabled;
    CUDA_CHECK(cudaHostAlloc((void **)&g->h_flag, sizeof(int), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&g->d_flag, (void *)g->h_flag, 0));
    *g->h_flag = 1;
}

void gl_gate_close(gl_gate *g, cudaStream_t s)
{
    if (!g->enabled) return;
    *g->h_flag = 0;
    gl_gate_kernel<<<1, 1, 0, s>>>(g->d_flag);
    CUDA_CHECK_LAUNCH("gl_gate_kernel");
}

int gl_gate_open(gl_gate *g)
{
    if (!g->enabled) return 1;
    int gave_up = *g->h_flag == 2;
    *g->h_flag = 1;
    return !gave_up;
}

void gl_gate_destroy(gl_gate *g)
{
    CUDA_CHECK(cudaFreeHost((void *)g->h_flag));
    g->h_flag = NULL;
    g->d_flag = NULL;
}
