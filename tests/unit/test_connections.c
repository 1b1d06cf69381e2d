/* test_connections.c - CUDA_DEVICE_MAX_CONNECTIONS: reading it, and refusing to
 * set it once the CUDA driver library is in the process. */
#define _GNU_SOURCE /* dlopen */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"

#include "gl_connections.h"
#include "harness.h"

int main(void)
{
    char desc[160], err[256];
    unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
    test_cond("unset means the driver default, 8", gl_connections_effective(desc, sizeof desc) == 8 &&
                                                      strcmp(desc, "8 (default)") == 0);
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "4", 1);
    test_cond("the environment's value is used and named",
              gl_connections_effective(desc, sizeof desc) == 4 && strstr(desc, "CUDA_DEVICE_MAX_CONNECTIONS"));
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "lots", 1);
    test_cond("a value that is not a number is the driver's default, and says so",
              gl_connections_effective(desc, sizeof desc) == 8 && strstr(desc, "'lots'"));
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "64", 1);
    test_cond("a value beyond 32 is what the driver makes of it, 32", gl_connections_effective(desc, sizeof desc) == 32 && strstr(desc, "'64'"));
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1.5", 1);
    test_cond("only the leading digits count, as for the driver", gl_connections_effective(desc, sizeof desc) == 1);

    /* What the environment may hold: an integer in 1..32 (strtol's leading
     * blanks and zeros allowed), or nothing. */
    static const char *const good[] = {"1", "8", "32", "04", " 4"};
    static const char *const bad[] = {"0", "33", "64", "-1", "abc", "8x", "1.5", "", "4 ", "+4", " "};
    for (int i = 0; i < GL_ARRAY_LEN(good); i++) {
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", good[i], 1);
        char name[96];
        snprintf(name, sizeof name, "CUDA_DEVICE_MAX_CONNECTIONS='%s' is accepted", good[i]);
        test_cond(name, gl_connections_env_check(err, sizeof err) == 0);
    }
    for (int i = 0; i < GL_ARRAY_LEN(bad); i++) {
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", bad[i], 1);
        char name[96], quoted[16];
        snprintf(name, sizeof name, "CUDA_DEVICE_MAX_CONNECTIONS='%s' is refused, naming the value", bad[i]);
        snprintf(quoted, sizeof quoted, "'%s'", bad[i]);
        test_cond(name, gl_connections_env_check(err, sizeof err) == -1 && strstr(err, quoted) && strstr(err, "1..32"));
    }
    unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
    test_cond("an unset variable is accepted", gl_connections_env_check(err, sizeof err) == 0);

    /* The check looks at what is really mapped into this process. */
    test_cond("the C library is seen as mapped", gl_library_mapped("libc.so") == 1);
    test_cond("a library nobody loaded is not", gl_library_mapped("libgridlab-no-such-library.so") == 0);
    test_cond("this test has not loaded the CUDA driver, so the runtime has not started", gl_runtime_started() == 0);

    test_cond("a request before the runtime starts sets the variable",
              gl_connections_request(2, err, sizeof err) == 0 &&
                  strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
    test_cond("out-of-range requests are refused", gl_connections_request(0, err, sizeof err) == -1 &&
                                                       gl_connections_request(33, err, sizeof err) == -1);

    /* Load the driver library the way an injected tool does (compute-sanitizer
     * and ncu map it before main), where it exists: loaded is not started. */
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (cuda) {
        test_cond("libcuda loaded but not initialized (an injected tool): the runtime has not started",
                  gl_driver_initialized() == 0 && gl_runtime_started() == 0);
        test_cond("so a request still sets the variable",
                  gl_connections_request(2, err, sizeof err) == 0 &&
                      strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
        test_cond("and the loading mode is unknown until the driver starts", gl_module_loading() == GL_MODULE_LOADING_UNKNOWN);
        int (*cu_init)(unsigned) = (int (*)(unsigned))dlsym(cuda, "cuInit");
        if (cu_init && cu_init(0) == 0) {
            test_cond("once cuInit has run, the runtime counts as started", gl_runtime_started() == 1);
            test_cond("and a request is an error that says why, not a silent no-op",
                      gl_connections_request(16, err, sizeof err) == -1 && strstr(err, "cannot take effect") &&
                          strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
        } else {
            test_skip("once cuInit has run, the runtime counts as started", "cuInit fails here (no GPU or driver)");
        }
        dlclose(cuda);
    } else {
        test_skip("libcuda loaded but not initialized: the runtime has not started",
                  "libcuda.so.1 is not on this machine; the loaded-driver cases run where it is");
    }
    gl_runtime_mark_started();
    test_cond("once gridlab starts the runtime itself, a request is refused",
              gl_connections_request(16, err, sizeof err) == -1 && strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
    test_report();
}
