/* testutil.h - what several unit tests need: temporary files, captured
 * output, a validator run without a shell, and "this call exits with code N". */
#ifndef GL_TESTUTIL_H
#define GL_TESTUTIL_H

#define _DEFAULT_SOURCE /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fresh temporary file's path (the file exists, empty); remove it when done. */
static inline void temp_path(char *path, size_t n, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, n, "%s/gridlab-test-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) {
        perror("mkstemps");
        exit(1);
    }
    close(fd);
}

/* Everything printed to stdout and stderr between capture_begin and capture_end. */
static char captured[1 << 16] __attribute__((unused));
static int saved_stdout __attribute__((unused)) = -1, saved_stderr __attribute__((unused)) = -1;
static FILE *capture_file __attribute__((unused));
static inline void capture_begin(void)
{
    fflush(stdout);
    capture_file = tmpfile();
    if (!capture_file) {
        perror("tmpfile");
        exit(1);
    }
    fflush(stderr);
    saved_stdout = dup(1);
    saved_stderr = dup(2);
    dup2(fileno(capture_file), 1);
    dup2(fileno(capture_file), 2);
}
static inline void capture_end(void)
{
    fflush(stdout);
    fflush(stderr);
    dup2(saved_stdout, 1);
    dup2(saved_stderr, 2);
    close(saved_stdout);
    close(saved_stderr);
    rewind(capture_file);
    size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
    captured[n] = '\0';
    fclose(capture_file);
}

/* Run argv (argv[0] found on PATH) without a shell, its output discarded
 * unless it fails; returns its exit code, or -1 if it could not run. */
static inline int run_argv(char *const argv[])
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The exit code of fn(arg) run in a child process (-1 if it was killed),
 * with its output silenced: for calls that must exit. */
static inline int exit_code_of(void (*fn)(void *), void *arg)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            dup2(fileno(null), 1);
            dup2(fileno(null), 2);
        }
        fn(arg);
        _exit(0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
