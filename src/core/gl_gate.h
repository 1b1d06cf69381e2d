/* gl_gate.h - hold a stream until everything is queued, then let it start, so
 * that a measurement is of the device and not of the host's issue loop. */
#ifndef GL_GATE_H
#define GL_GATE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the gate: queue first, then start (gate.cu) ---------------------------- */
typedef struct gl_gate {
    volatile int *h_flag; /* mapped host word: 0 closed, 1 open, 2 the kernel gave up waiting */
    int *d_flag;          /* the same word as the device sees it */
    int enabled;          /* 0: close and open do nothing */
} gl_gate;
/* enabled = 0 makes a gate that never holds: for runs under tools that
 * serialize launches (compute-sanitizer), where a held stream would only wait
 * for the gate to give up, and where times are not judged anyway. */
void gl_gate_create(gl_gate *g, int enabled);
/* Call before the CUDA runtime starts, in every experiment that uses a gate:
 * sets CUDA_MODULE_LOADING=EAGER unless the environment already names a mode.
 * When the driver was started before main, nothing can take effect: it warns,
 * naming the variable, and goes on (the device line shows the mode in force).
 * With lazy loading (the default since CUDA 12.2) a kernel's first launch
 * loads its code, and that waits for the device, which the gate holds: the
 * first gated run of each kernel would wait the gate's 5 s out (nvbench's
 * blocking kernel has the same trap). */
void gl_gate_prepare(void);
/* Queue a one-thread kernel in s that holds everything queued after it until
 * gl_gate_open (or until it gives up after 5 s). */
void gl_gate_close(gl_gate *g, cudaStream_t s);
/* Let the held work start. Returns 0 when the gate had already given up, so
 * the work did not wait for everything to be queued. */
int gl_gate_open(gl_gate *g);
void gl_gate_destroy(gl_gate *g);

#ifdef __cplusplus
}
#endif
#endif
