/* connections.c - the hardware work-queue count requested through the environment. */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include "gl_connections.h"

#include <dlfcn.h>
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

int gl_driver_initialized(void)
{
    /* RTLD_NOLOAD: look only at a libcuda already in the process, never load one. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib) return 0;
    int (*device_count)(int *) = (int (*)(int *))dlsym(lib, "cuDeviceGetCount");
    int n = 0;
    /* cuDeviceGetCount answers CUDA_ERROR_NOT_INITIALIZED (3) until cuInit has run. */
    int initialized = device_count ? device_count(&n) != 3 : 1;
    dlclose(lib);
    return initialized;
}

int gl_module_loading(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib) return GL_MODULE_LOADING_UNKNOWN;
    int (*get_mode)(int *) = (int (*)(int *))dlsym(lib, "cuModuleGetLoadingMode");
    int mode = 0;
    /* CU_MODULE_EAGER_LOADING = 1, CU_MODULE_LAZY_LOADING = 2 (cuda.h) */
    int rc = get_mode && get_mode(&mode) == 0 && (mode == 1 || mode == 2) ? mode : GL_MODULE_LOADING_UNKNOWN;
    dlclose(lib);
    return rc;
}

int gl_runtime_started(void)
{
    return runtime_marked || (gl_library_mapped("libcuda.so") == 1 && gl_driver_initialized());
}

int gl_connections_env_check(char *err, size_t errlen)
{
    const char *env = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    if (!env) return 0;
    /* Leading blanks, then digits only: the forms measured to mean what they say
     * (' 4' and '04' ran with 4 queues); a sign was never measured. */
    const char *digits = env + strspn(env, " \t");
    char *end = NULL;
    long v = strtol(digits, &end, 10);
    if (*digits >= '0' && *digits <= '9' && *end == '\0' && v >= 1 && v <= GL_CONNECTIONS_MAX) return 0;
    snprintf(err, errlen,
             "CUDA_DEVICE_MAX_CONNECTIONS='%s' in the environment is not an integer in 1..%d. The driver would not "
             "refuse it: it %s. So gridlab does not run with it: set a value in 1..%d, unset it (the default is %d), "
             "or pass --connections N",
             env, GL_CONNECTIONS_MAX, GL_CONNECTIONS_DRIVER_WORDS, GL_CONNECTIONS_MAX, GL_CONNECTIONS_DEFAULT);
    return -1;
}

int gl_connections_request(int c, char *err, size_t errlen)
{
    if (gl_runtime_started()) {
        snprintf(err, errlen,
                 "CUDA_DEVICE_MAX_CONNECTIONS=%d cannot take effect: the CUDA driver in this process was already "
                 "initialized, and it reads the variable only when it starts, so the value would be ignored",
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
    /* What the driver made of a value outside 1..32 (GL_CONNECTIONS_DRIVER_WORDS);
     * gl_options_parse_or_exit refuses such values, so only a caller that skips
     * that check sees these. */
    char *end = NULL;
    long v = strtol(env, &end, 10);
    if (end == env || v == 0) {
        snprintf(desc, desclen, "%d (the driver's default for CUDA_DEVICE_MAX_CONNECTIONS='%s')",
                 GL_CONNECTIONS_DEFAULT, env);
        return GL_CONNECTIONS_DEFAULT;
    }
    if (v < 0 || v > GL_CONNECTIONS_MAX) {
        snprintf(desc, desclen, "%d (the driver reads CUDA_DEVICE_MAX_CONNECTIONS='%s' as %d)", GL_CONNECTIONS_MAX,
                 env, GL_CONNECTIONS_MAX);
        return GL_CONNECTIONS_MAX;
    }
    if (*end != '\0') {
        snprintf(desc, desclen, "%ld (the driver reads only the leading digits of CUDA_DEVICE_MAX_CONNECTIONS='%s')", v,
                 env);
        return (int)v;
    }
    snprintf(desc, desclen, "%ld (CUDA_DEVICE_MAX_CONNECTIONS)", v);
    return (int)v;
}
