/* connections.c - the hardware work-queue count requested through the environment. */
#define _POSIX_C_SOURCE 200809L
#include "connections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int runtime_marked;

int gl_library_mapped(const char *prefix)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    char line[4096];
    size_t n = strlen(prefix);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        /* The path is the last field; its file name follows the last '/'. */
        char *slash = strrchr(line, '/');
        if (slash && strncmp(slash + 1, prefix, n) == 0) found = 1;
    }
    fclose(f);
    return found;
}

void gl_runtime_mark_started(void) { runtime_marked = 1; }

int gl_runtime_started(void) { return runtime_marked || gl_library_mapped("libcuda.so") == 1; }

int gl_connections_request(int c, char *err, size_t errlen)
{
    if (gl_runtime_started()) {
        snprintf(err, errlen,
                 "CUDA_DEVICE_MAX_CONNECTIONS=%d requested after the CUDA runtime started (libcuda is loaded); "
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
