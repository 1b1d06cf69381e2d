/* connections.c - the hardware work-queue count requested through the environment. */
#define _POSIX_C_SOURCE 200809L
#include "connections.h"

#include <stdio.h>
#include <stdlib.h>

static int runtime_started;

void gl_runtime_mark_started(void) { runtime_started = 1; }
int gl_runtime_started(void) { return runtime_started; }

int gl_connections_request(int c, char *err, size_t errlen)
{
    if (runtime_started) {
        snprintf(err, errlen,
                 "CUDA_DEVICE_MAX_CONNECTIONS=%d requested after the CUDA runtime started; "
                 "the driver reads it only when the context is created, so it would be ignored",
                 c);
        return -1;
    }
    if (c < 1 || c > GL_CONNECTIONS_MAX) {
        snprintf(err, errlen, "CUDA_DEVICE_MAX_CONNECTIONS=%d is outside 1..%d", c, GL_CONNECTIONS_MAX);
        return -1;
    }
    char text[16];
    snprintf(text, sizeof text, "%d", c);
    if (setenv("CUDA_DEVICE_MAX_CONNECTIONS", text, 1) != 0) {
        snprintf(err, errlen, "setenv(CUDA_DEVICE_MAX_CONNECTIONS) failed");
        return -1;
    }
    return 0;
}

int gl_connections_effective(char *desc, size_t desclen)
{
    const char *env = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    if (!env || !*env) {
        snprintf(desc, desclen, "%d (default)", GL_CONNECTIONS_DEFAULT);
        return GL_CONNECTIONS_DEFAULT;
    }
    char *end = NULL;
    long v = strtol(env, &end, 10);
    if (end == env || *end != '\0' || v < 1 || v > GL_CONNECTIONS_MAX) {
        snprintf(desc, desclen, "%d (assumed default: CUDA_DEVICE_MAX_CONNECTIONS='%s' is not in 1..%d)",
                 GL_CONNECTIONS_DEFAULT, env, GL_CONNECTIONS_MAX);
        return GL_CONNECTIONS_DEFAULT;
    }
    snprintf(desc, desclen, "%ld (CUDA_DEVICE_MAX_CONNECTIONS)", v);
    return (int)v;
}
