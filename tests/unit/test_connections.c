/* test_connections.c - CUDA_DEVICE_MAX_CONNECTIONS: reading it, and refusing to
 * set it once the CUDA driver library is in the process. */
#define _GNU_SOURCE /* dlopen */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "connections.h"
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
    test_cond("a value that is not a number is reported, not trusted",
              gl_connections_effective(desc, sizeof desc) == 8 && strstr(desc, "'lots'"));
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "64", 1);
    test_cond("a value beyond 32 is reported", gl_connections_effective(desc, sizeof desc) == 8 && strstr(desc, "1..32"));

    /* The check looks at what is really mapped into this process. */
    test_cond("the C library is seen as mapped", gl_library_mapped("libc.so") == 1);
    test_cond("a library nobody loaded is not", gl_library_mapped("libgridlab-no-such-library.so") == 0);
    test_cond("this test has not loaded the CUDA driver, so the runtime has not started", gl_runtime_started() == 0);

    test_cond("a request before the runtime starts sets the variable",
              gl_connections_request(2, err, sizeof err) == 0 &&
                  strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
    test_cond("out-of-range requests are refused", gl_connections_request(0, err, sizeof err) == -1 &&
                                                       gl_connections_request(33, err, sizeof err) == -1);

    /* Load the driver library the way the runtime does, where it exists. */
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (cuda) {
        test_cond("with libcuda loaded, the runtime counts as started", gl_runtime_started() == 1);
        test_cond("and a request is an error, not a silent no-op",
                  gl_connections_request(16, err, sizeof err) == -1 && strstr(err, "after the CUDA runtime started") &&
                      strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
        dlclose(cuda);
    } else {
        printf("ok - # SKIP libcuda.so.1 is not on this machine; the loaded-driver case runs where it is\n");
    }
    gl_runtime_mark_started();
    test_cond("once gridlab starts the runtime itself, a request is refused",
              gl_connections_request(16, err, sizeof err) == -1 && strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
    test_report();
}
