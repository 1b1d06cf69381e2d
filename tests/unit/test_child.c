/* test_child.c - this binary run again in a child, with a deadline, its
 * result bytes read back over a pipe. The test binary is its own child: given
 * --test-child=FD,WHAT it does WHAT and writes to FD. */
#include "testutil.h"

#include <signal.h>

#include "gl_child.h"
#include "gl_common.h"
#include "harness.h"
#include "gl_stats.h"

/* What a child sends: plain data, as the cdp experiments send theirs. */
typedef struct message {
    int value;      /* 41 + the message's index */
    char text[100]; /* the child's arguments after argv[0], joined by spaces, or an environment variable */
} message;

/* The child: WHAT says what it does before and after writing. */
static int child(int fd, const char *what, int argc, char **argv)
{
    message m;
    memset(&m, 0, sizeof m);
    if (strcmp(what, "two") == 0 || strcmp(what, "one-then-exit-3") == 0 || strcmp(what, "one-then-hang") == 0) {
        m.value = 41;
        for (int i = 1; i < argc; i++)
            snprintf(m.text + strlen(m.text), sizeof m.text - strlen(m.text), "%s%s", i > 1 ? " " : "", argv[i]);
        gl_child_write(fd, &m, sizeof m);
        if (strcmp(what, "one-then-exit-3") == 0) return GL_EXIT_CUDA;
        if (strcmp(what, "one-then-hang") == 0) pause(); /* until the parent kills it */
        m.value = 42;
        gl_child_write(fd, &m, sizeof m);
        return 0;
    }
    if (strcmp(what, "env") == 0) {
        snprintf(m.text, sizeof m.text, "%s", getenv("GL_TEST_CHILD") ? getenv("GL_TEST_CHILD") : "(unset)");
        gl_child_write(fd, &m, sizeof m);
        return 0;
    }
    if (strcmp(what, "signal") == 0) raise(SIGTERM);
    return 9;
}

int main(int argc, char **argv)
{
    int fd = -1;
    const char *what = NULL;
    if (gl_child_take_pipe(&argc, argv, "test-child", &fd, &what)) return child(fd, what, argc, argv);
    if (argc > 1 && strcmp(argv[1], "--exit") == 0) return atoi(argv[2]);

    char *args[] = {argv[0], (char *)"a", (char *)"b c", NULL};
    gl_child c;
    message m[2];
    gl_child_spec two = {args, "test-child", "two", NULL, NULL, GL_EXIT_INTERNAL};
    gl_child_start(&c, &two);
    int r1 = gl_child_read(&c, &m[0], sizeof m[0], 30), r2 = gl_child_read(&c, &m[1], sizeof m[1], 30);
    int r3 = gl_child_read(&c, &m[1], 1, 30);
    int status = gl_child_end(&c, 30);
    test_cond("a child's results come back whole and in order", r1 == 1 && r2 == 1 && m[0].value == 41 && m[1].value == 42);
    test_cond("the child gets the arguments it was given, without the pipe's", strcmp(m[0].text, "a b c") == 0);
    test_cond("a read after the child's last write finds the end of the pipe", r3 == 0);
    test_cond("the child is reaped with its exit status", WIFEXITED(status) && WEXITSTATUS(status) == 0 && c.pid == 0);

    gl_child_spec exits = {args, "test-child", "one-then-exit-3", NULL, NULL, GL_EXIT_INTERNAL};
    gl_child_start(&c, &exits);
    r1 = gl_child_read(&c, &m[0], sizeof m[0], 30);
    r2 = gl_child_read(&c, &m[1], sizeof m[1], 30);
    status = gl_child_end(&c, 30);
    char why[160];
    gl_child_describe(status, c.timed_out, why, sizeof why);
    test_cond("a child that exits early: what it wrote is read, then the end of the pipe", r1 == 1 && r2 == 0);
    test_cond("its exit is described with the code and what 3 means",
              strcmp(why, "its process exited 3 (a CUDA error, printed above)") == 0);

    gl_child_spec hangs = {args, "test-child", "one-then-hang", NULL, NULL, GL_EXIT_INTERNAL};
    gl_child_start(&c, &hangs);
    r1 = gl_child_read(&c, &m[0], sizeof m[0], 30);
    double t0 = gl_host_ns();
    r2 = gl_child_read(&c, &m[1], sizeof m[1], 0.3);
    double waited_s = (gl_host_ns() - t0) / 1e9;
    status = gl_child_end(&c, 30);
    gl_child_describe(status, c.timed_out, why, sizeof why);
    test_cond("a read past its deadline returns -1 near the deadline", r1 == 1 && r2 == -1 && waited_s >= 0.29 &&
                                                                            waited_s < 5);
    test_cond("a child that missed a deadline is killed at once when reaped, and said to be",
              WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
                  strcmp(why, "its process did not answer within the timeout and was killed") == 0);

    gl_child_spec env = {args, "test-child", "env", "GL_TEST_CHILD", "seven", GL_EXIT_INTERNAL};
    gl_child_start(&c, &env);
    r1 = gl_child_read(&c, &m[0], sizeof m[0], 30);
    gl_child_end(&c, 30);
    test_cond("the variable is set in the child's environment", r1 == 1 && strcmp(m[0].text, "seven") == 0);
    test_cond("and not in the parent's", getenv("GL_TEST_CHILD") == NULL);

    gl_child_spec killed = {args, "test-child", "signal", NULL, NULL, GL_EXIT_INTERNAL};
    gl_child_start(&c, &killed);
    r1 = gl_child_read(&c, &m[0], sizeof m[0], 30);
    status = gl_child_end(&c, 30);
    gl_child_describe(status, c.timed_out, why, sizeof why);
    test_cond("a child killed by a signal: the end of the pipe, and the signal named",
              r1 == 0 && strcmp(why, "its process was killed by signal 15 (Terminated)") == 0);

    char *exit_args[] = {argv[0], (char *)"--exit", (char *)"5", NULL};
    gl_child_spec no_pipe = {exit_args, NULL, NULL, NULL, NULL, GL_EXIT_INTERNAL};
    gl_child_start(&c, &no_pipe);
    status = gl_child_end(&c, -1);
    test_cond("without a pipe, the child is waited for and its code returned",
              c.fd == -1 && WIFEXITED(status) && WEXITSTATUS(status) == 5);

    char *not_a_pipe[] = {argv[0], (char *)"--test-child=1,two", NULL};
    gl_child_spec bad_fd = {not_a_pipe, NULL, NULL, NULL, NULL, GL_EXIT_INTERNAL};
    capture_begin();
    gl_child_start(&c, &bad_fd);
    status = gl_child_end(&c, -1);
    capture_end();
    test_cond("a child told an fd that is not a pipe's write end exits 2, saying so",
              WIFEXITED(status) && WEXITSTATUS(status) == GL_EXIT_USAGE && strstr(captured, "fd 1 is not the write end"));
    char *malformed[] = {argv[0], (char *)"--test-child=x", NULL};
    gl_child_spec bad_value = {malformed, NULL, NULL, NULL, NULL, GL_EXIT_INTERNAL};
    capture_begin();
    gl_child_start(&c, &bad_value);
    status = gl_child_end(&c, -1);
    capture_end();
    test_cond("a malformed pipe argument exits 2, saying what is expected",
              WIFEXITED(status) && WEXITSTATUS(status) == GL_EXIT_USAGE && strstr(captured, "expected --test-child=FD"));

    char *plain[] = {(char *)"x", (char *)"--other", (char *)"--test-childish", NULL};
    int plain_argc = 3;
    test_cond("without the option, argv is left as it was",
              gl_child_take_pipe(&plain_argc, plain, "test-child", &fd, &what) == 0 && plain_argc == 3 &&
                  strcmp(plain[2], "--test-childish") == 0 && plain[3] == NULL);
    test_report();
}
