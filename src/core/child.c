/* child.c - this binary executed again in a child process; its results read back over a pipe. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* strsignal */
#include "gl_child.h"
#include "gl_common.h"
#include "gl_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the parent's side ---------------------------------------------------------- */

void gl_child_start(gl_child *c, const gl_child_spec *spec)
{
    int fds[2] = {-1, -1};
    if (spec->pipe_option && pipe(fds)) gl_die(GL_EXIT_INTERNAL, "cannot make a pipe: %s", strerror(errno));
    /* Everything the child needs is made here, before the fork: between fork
     * and exec only calls that allocate nothing are safe. */
    int argc = 0;
    while (spec->argv[argc]) argc++;
    char **args = (char **)gl_xcalloc((size_t)argc + 2, sizeof(char *));
    memcpy(args, spec->argv, (size_t)argc * sizeof(char *));
    char arg[256];
    if (spec->pipe_option) {
        /* The write end stays open across exec: pipe() does not set close-on-exec. */
        snprintf(arg, sizeof arg, "--%s=%d%s%s", spec->pipe_option, fds[1], spec->pipe_extra ? "," : "",
                 spec->pipe_extra ? spec->pipe_extra : "");
        args[argc] = arg;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) gl_die(GL_EXIT_NO_MEMORY, "cannot start a child process: %s", strerror(errno));
    if (pid == 0) {
        if (spec->pipe_option) close(fds[0]);
        if (spec->env) setenv(spec->env, spec->env_value, 1);
        execv("/proc/self/exe", args);
        fprintf(stderr, "error: cannot re-execute this binary (/proc/self/exe): %s\n", strerror(errno));
        _exit(spec->exec_failed_exit);
    }
    free(args);
    if (spec->pipe_option) close(fds[1]);
    c->pid = (int)pid;
    c->fd = fds[0];
    c->timed_out = 0;
}

int gl_child_read(gl_child *c, void *buf, size_t n, double timeout_s)
{
    double deadline_ns = gl_host_ns() + timeout_s * 1e9;
    size_t got = 0;
    while (got < n) {
        double left_ms = (deadline_ns - gl_host_ns()) / 1e6;
        if (left_ms <= 0) {
            c->timed_out = 1;
            return -1;
        }
        struct pollfd pfd = {c->fd, POLLIN, 0};
        int rc = poll(&pfd, 1, left_ms > 60000 ? 60000 : (int)left_ms + 1);
        if (rc < 0 && errno != EINTR) gl_die(GL_EXIT_INTERNAL, "waiting for a child process: %s", strerror(errno));
        if (rc <= 0) continue;
        ssize_t k = read(c->fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        got += (size_t)k;
    }
    return 1;
}

int gl_child_end(gl_child *c, double grace_s)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    pid_t pid = (pid_t)c->pid;
    int status = 0;
    if (grace_s < 0) {
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) gl_die(GL_EXIT_INTERNAL, "waiting for a child process failed: %s", strerror(errno));
        c->pid = 0;
        return status;
    }
    double deadline = gl_host_ns() + (c->timed_out ? 0 : grace_s) * 1e9;
    int killed = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            c->pid = 0;
            return status;
        }
        if (w < 0 && errno != EINTR)
            gl_die(GL_EXIT_INTERNAL, "waiting for a child process failed: %s", strerror(errno));
        if (gl_host_ns() > deadline) {
            if (killed) return -1;
            kill(pid, SIGKILL);
            killed = 1;
            deadline = gl_host_ns() + 10e9;
        }
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

void gl_child_describe(int status, int timed_out, char *why, size_t n)
{
    if (timed_out) snprintf(why, n, "its process did not answer within the timeout and was killed");
    else if (status == -1) snprintf(why, n, "its process could not be ended, even by SIGKILL");
    else if (WIFEXITED(status))
        snprintf(why, n, "its process exited %d%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == GL_EXIT_CUDA ? " (a CUDA error, printed above)" : "");
    else snprintf(why, n, "its process was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
}

/* ---- the child's side -------------------------------------------------------------- */

int gl_child_take_pipe(int *argc, char **argv, const char *option, int *fd, const char **extra)
{
    size_t len = strlen(option);
    int found = 0, kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, option, len) != 0 || (a[2 + len] != '=' && a[2 + len] != '\0')) {
            argv[kept++] = argv[i];
            continue;
        }
        if (found) gl_die(GL_EXIT_USAGE, "--%s is given twice", option);
        found = 1;
        const char *p = a[2 + len] == '=' ? a + 3 + len : "";
        char *end = NULL;
        errno = 0;
        long v = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
        if (v < 0 || errno || v > INT_MAX || (*end != ',' && *end != '\0'))
            gl_die(GL_EXIT_USAGE, "'%s': expected --%s=FD[,...] (an internal option: this binary gives it to its child "
                   "processes)", a, option);
        *fd = (int)v;
        *extra = *end == ',' ? end + 1 : "";
        struct stat st;
        int flags = fcntl(*fd, F_GETFL);
        if (*fd <= 2 || fstat(*fd, &st) || !S_ISFIFO(st.st_mode) || flags < 0 || (flags & O_ACCMODE) != O_WRONLY)
            gl_die(GL_EXIT_USAGE, "'%s': fd %d is not the write end of a pipe (an internal option: this binary "
                   "gives it to its child processes)", a, *fd);
    }
    *argc = kept;
    argv[kept] = NULL;
    return found;
}

void gl_child_write(int fd, const void *buf, size_t n)
{
    const char *p = (const char *)buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) _exit(GL_EXIT_INTERNAL);
        p += k;
        n -= (size_t)k;
    }
}
