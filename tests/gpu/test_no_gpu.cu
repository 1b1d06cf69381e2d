/* test_no_gpu.cu - the words a run says when it cannot have a GPU. Needs no
 * GPU (every case exits before using one), so tests/cli.sh runs it on every
 * machine (the GPU suite leaves it to them). Each case runs in a child process,
 * since each ends in exit(77). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gl_cuda.h"
#include "harness.h"

static char out[4096]; /* what the last case printed, stdout and stderr */

/* Run fn(arg) in a child with its output captured into out; returns its exit code. */
static int run_case(void (*fn)(const void *), const void *arg)
{
    int fds[2];
    if (pipe(fds)) return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        fn(arg);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n < sizeof out - 1 && (got = read(fds[0], out + n, sizeof out - 1 - n)) > 0) n += (size_t)got;
    out[n] = '\0';
    close(fds[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void say_no_gpu(const void *why) { gl_no_gpu("%s", (const char *)why); }
static void say_no_gpu_cuda(const void *err) { gl_no_gpu_cuda(*(const cudaError_t *)err); }

/* How many times needle occurs in text. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

int main(void)
{
    int rc = run_case(say_no_gpu, "--device 3 requested, but only 1 present");
    test_cond("gl_no_gpu exits 77 with its reason after the prefix",
              rc == GL_EXIT_NO_GPU && strcmp(out, "no suitable GPU: --device 3 requested, but only 1 present\n") == 0);
    rc = run_case(say_no_gpu, "no suitable GPU: no suitable GPU: a reason passed on from a child");
    test_cond("a reason that carries the prefix already gets it once",
              rc == GL_EXIT_NO_GPU && strcmp(out, "no suitable GPU: a reason passed on from a child\n") == 0);

    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    cudaError_t no_device = cudaErrorNoDevice;
    rc = run_case(say_no_gpu_cuda, &no_device);
    test_cond("no device: says no GPU is visible, names CUDA_VISIBLE_DEVICES, and what still works",
              rc == GL_EXIT_NO_GPU && strstr(out, "no suitable GPU: no GPU is visible (") &&
                  strstr(out, "CUDA_VISIBLE_DEVICES='' may hide them)") &&
                  strstr(out, "\nwhat still works without a GPU: make test runs the CPU suite"));
    unsetenv("CUDA_VISIBLE_DEVICES");
    rc = run_case(say_no_gpu_cuda, &no_device);
    test_cond("no device, no CUDA_VISIBLE_DEVICES: it is not mentioned",
              rc == GL_EXIT_NO_GPU && strstr(out, "no GPU is visible") && !strstr(out, "CUDA_VISIBLE_DEVICES"));

    cudaError_t other = cudaErrorDevicesUnavailable;
    rc = run_case(say_no_gpu_cuda, &other);
    test_cond("any other error keeps the runtime's words and its name, said once",
              rc == GL_EXIT_NO_GPU && strstr(out, "cudaErrorDevicesUnavailable") &&
                  count_of(out, "no suitable GPU") == 1);
    test_report();
}
