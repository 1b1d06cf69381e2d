/* gl_child.h - run this binary again in a child process, with a deadline, and
 * read its result bytes back over a pipe (or learn its exit status and why it
 * ended).
 *
 * Some things can be trusted only in a fresh process: a limit of the device
 * runtime set before the process's first device launch, an environment
 * variable that the driver reads once. The child is this binary executed
 * again (/proc/self/exe), not a bare fork: exec gives it a process with no
 * CUDA state inherited, whatever the parent has loaded (a profiler or
 * compute-sanitizer preloads libcuda into it), and those tools follow exec.
 * The parent tells the child the pipe's write end by a hidden argument,
 * --<option>=FD[,EXTRA], which the child takes out of its argv before parsing
 * its options. Results cross the pipe as plain bytes: the parent reads each
 * within its own deadline, and a child that misses one is killed when reaped. */
#ifndef GL_CHILD_H
#define GL_CHILD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How to start one child. */
typedef struct gl_child_spec {
    char **argv;             /* its arguments, argv[0] first, NULL-terminated (the binary is always /proc/self/exe) */
    const char *pipe_option; /* NULL: no pipe; else "--<pipe_option>=FD[,pipe_extra]" is added as its last argument */
    const char *pipe_extra;  /* NULL, or what the child is told after FD and a comma */
    const char *env;         /* NULL, or a variable set in the child's environment only */
    const char *env_value;   /* env's value */
    int exec_failed_exit;    /* the child's exit code when the binary cannot be executed again */
} gl_child_spec;

/* A started child, as the parent holds it. */
typedef struct gl_child {
    int pid;       /* its process id; 0 once reaped */
    int fd;        /* the pipe's read end; -1: no pipe, or closed */
    int timed_out; /* a read ran past its deadline: gl_child_end kills it at once */
} gl_child;

/* Start a child as spec says. stdout and stderr are flushed first, so that
 * nothing buffered is printed twice. Exits 4 when no process can be made. */
void gl_child_start(gl_child *c, const gl_child_spec *spec);

/* Read exactly n bytes from the child within timeout_s seconds. Returns 1,
 * 0 when the child closed the pipe first (it ended), or -1 on timeout (and
 * c->timed_out is set). */
int gl_child_read(gl_child *c, void *buf, size_t n, double timeout_s);

/* Close the pipe and reap the child. One that has not exited within grace_s
 * seconds (none when it timed out) is killed with SIGKILL; grace_s < 0 waits
 * as long as it takes. Returns its wait status, or -1 when even SIGKILL did
 * not end it within 10 s (it is left behind). */
int gl_child_end(gl_child *c, double grace_s);

/* Why a child ended, as a phrase for a report: "its process exited 3 (a
 * CUDA error, printed above)", "... was killed by signal 9 (Killed)", "... did
 * not answer within the timeout and was killed". status as gl_child_end gave it. */
void gl_child_describe(int status, int timed_out, char *why, size_t n);

/* In the child: take --<option>=FD[,EXTRA] out of argv (argv[*argc] becomes
 * NULL). Returns 1 when it was given, with *fd and *extra (the text after the
 * comma, "" when none), 0 when not. Given twice, malformed, or naming an fd
 * that is not the write end of a pipe, it is a usage error (exit 2). */
int gl_child_take_pipe(int *argc, char **argv, const char *option, int *fd, const char **extra);

/* In the child: write all of buf to the parent; if the parent is gone, exit 6 quietly. */
void gl_child_write(int fd, const void *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
