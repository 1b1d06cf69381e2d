/* test_connections.c - CUDA_DEVICE_MAX_CONNECTIONS: reading it, and refusing to set it too late. */
#define _POSIX_C_SOURCE 200809L
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

    test_cond("a request before the runtime starts sets the variable",
              gl_connections_request(2, err, sizeof err) == 0 &&
                  strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
    test_cond("out-of-range requests are refused", gl_connections_request(0, err, sizeof err) == -1 &&
                                                       gl_connections_request(33, err, sizeof err) == -1);
    test_cond("the runtime is not started yet", gl_runtime_started() == 0);
    gl_runtime_mark_started();
    test_cond("a request after the runtime started is an error, not a silent no-op",
              gl_connections_request(16, err, sizeof err) == -1 && strstr(err, "after the CUDA runtime started") &&
                  strcmp(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "2") == 0);
    test_report();
}
