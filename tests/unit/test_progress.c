/* test_progress.c - the progress line: drawn on a terminal only, never under
 * --quiet or into a file, throttled, late, cleared; its time-left arithmetic;
 * and the sampling loop's use of it. Time is a fake clock stepped by hand. */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "testutil.h"

#include <fcntl.h>
#include <math.h>
#include <poll.h>

#include "harness.h"
#include "gl_progress.h"
#include "gl_sample.h"

/* ---- a clock the tests move ---------------------------------------------------------------- */

static double fake_ns;
static double fake_clock(void) { return fake_ns; }
static void at_s(double s) { fake_ns = s * 1e9; }

/* Everything written to f so far, from its start. */
static const char *contents(FILE *f)
{
    static char buf[1 << 14];
    fflush(f);
    long end = ftell(f);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fseek(f, end, SEEK_SET);
    return buf;
}

/* How many times c occurs in s. */
static int count_char(const char *s, char c)
{
    int k = 0;
    for (; *s; s++) k += *s == c;
    return k;
}

/* The same run of calls on any output: a phase of 10 runs, 3 done at 3 s. */
static void three_of_ten(void)
{
    gl_progress_begin(10, 0, "timing");
    gl_progress_at("cpu input=single");
    at_s(1.0);
    gl_progress_step(1); /* inside the first GL_PROGRESS_DELAY_S: nothing */
    at_s(3.0);
    gl_progress_step(2);
}

/* ---- the real decision: isatty(2) --------------------------------------------------------- */

/* The real path with stderr sent to a file: setup must decide "off", and nothing reaches the file. */
static void real_path_to_file(void)
{
    char path[256];
    temp_path(path, sizeof path, ".err");
    fflush(stderr);
    int saved = dup(2), fd = open(path, O_WRONLY | O_TRUNC);
    dup2(fd, 2);
    close(fd);
    at_s(0);
    gl_progress_setup("demo", 0);
    int enabled = gl_progress_enabled();
    three_of_ten();
    at_s(9);
    gl_progress_step(5);
    gl_progress_end();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(path, "r");
    long size = -1;
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fclose(f);
    }
    remove(path);
    test_cond("real path, stderr redirected to a file: off, and the file stays empty", !enabled && size == 0);
}

/* The real path on a pseudo-terminal: a child whose stderr is the terminal draws the line. */
static void real_path_on_terminal(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 || !ptsname(master)) {
        if (master >= 0) close(master);
        test_skip("real path on a terminal draws the line", "no pseudo-terminal here");
        return;
    }
    char slave_name[256];
    snprintf(slave_name, sizeof slave_name, "%s", ptsname(master));
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int slave = open(slave_name, O_RDWR | O_NOCTTY);
        if (slave < 0) _exit(2);
        dup2(slave, 2);
        setenv("TERM", "xterm", 1);
        at_s(0);
        gl_progress_setup("demo", 0);
        three_of_ten();
        fflush(stderr);
        _exit(gl_progress_enabled() ? 0 : 3); /* _exit: the line stays, so the parent sees it */
    }
    char buf[4096];
    size_t got = 0;
    for (;;) { /* read until the child's end closes the terminal (EIO) or a quiet second */
        struct pollfd p = {master, POLLIN, 0};
        if (poll(&p, 1, 1000) <= 0) break;
        ssize_t k = read(master, buf + got, sizeof buf - 1 - got);
        if (k <= 0) break;
        got += (size_t)k;
        if (got >= sizeof buf - 1) break;
    }
    buf[got] = '\0';
    int status = 0;
    waitpid(pid, &status, 0);
    close(master);
    test_cond("real path, stderr a terminal: on, and the line is drawn with a carriage return",
              WIFEXITED(status) && WEXITSTATUS(status) == 0 && strstr(buf, "\rdemo: timing 3/10") != NULL);
}

/* ---- the sampling loop ----------------------------------------------------------------------- */

/* A sample that takes one second of the fake clock. */
static void one_second(gl_sample *s, void *arg)
{
    (void)arg;
    fake_ns += 1e9;
    gl_sample_put(s, "time", 1.0);
}

int main(void)
{
    char buf[512];
    gl_progress_set_clock(fake_clock);
    setenv("COLUMNS", "200", 1); /* the width of a file that stands for a terminal */

    /* ---- arithmetic ---- */
    test_cond("time left: 3 of 10 done in 3 s leaves 7 s", fabs(gl_progress_eta_s(3, 3, 10) - 7) < 1e-12);
    test_cond("time left: 25 of 100 cost units in 10 s leaves 30 s", fabs(gl_progress_eta_s(10, 25, 100) - 30) < 1e-12);
    test_cond("time left: unknown before anything is done, or without a total",
              isnan(gl_progress_eta_s(5, 0, 10)) && isnan(gl_progress_eta_s(5, 3, 0)));
    test_cond("time left: none once everything is done", gl_progress_eta_s(5, 12, 10) == 0);
    gl_progress_duration(7.2, buf, sizeof buf);
    int ok = strcmp(buf, "0:07") == 0;
    gl_progress_duration(725, buf, sizeof buf);
    ok &= strcmp(buf, "12:05") == 0;
    gl_progress_duration(3723, buf, sizeof buf);
    ok &= strcmp(buf, "1:02:03") == 0;
    gl_progress_duration(NAN, buf, sizeof buf);
    ok &= strcmp(buf, "?") == 0;
    test_cond("durations print as m:ss, h:mm:ss, or ? when unknown", ok);

    /* ---- on a terminal ---- */
    FILE *f = tmpfile();
    at_s(0);
    gl_progress_open(f, 1, 0, "demo");
    gl_progress_begin(10, 0, "timing");
    gl_progress_at("cpu input=single");
    at_s(1.0);
    gl_progress_step(1);
    test_cond("terminal: nothing is drawn in the run's first seconds", contents(f)[0] == '\0');
    at_s(3.0);
    gl_progress_step(2);
    const char *s = contents(f);
    test_cond("terminal: after the delay one line is drawn, begun by a carriage return, without a newline",
              s[0] == '\r' && !strchr(s, '\n') && count_char(s, '\r') == 1);
    test_cond("terminal: the line gives the phase, runs done of the total, the percent and the time left",
              strstr(s, "demo: timing 3/10 (30%), 0:03 elapsed, ~0:07 left | cpu input=single") != NULL);
    at_s(3.05);
    gl_progress_step(1);
    test_cond("terminal: redraws are throttled (none 50 ms after the last)", count_char(contents(f), '\r') == 1);
    at_s(3.2);
    gl_progress_step(1);
    s = contents(f);
    test_cond("terminal: redrawn once the interval has passed, with the new count",
              count_char(s, '\r') == 2 && strstr(s, "timing 5/10 (50%)"));
    gl_progress_end();
    s = contents(f);
    size_t len = strlen(s);
    test_cond("terminal: the end erases the line (carriage return, erase to the end) and prints no newline",
              len >= 4 && strcmp(s + len - 4, "\r\033[K") == 0 && !strchr(s, '\n'));
    at_s(9);
    gl_progress_step(1);
    gl_progress_clear();
    test_cond("terminal: after the end, a step with nothing to say draws nothing, and clearing writes nothing",
              strlen(contents(f)) == len);
    fclose(f);

    /* ---- widths, items and costs ---- */
    f = tmpfile();
    at_s(0);
    gl_progress_open(f, 1, 0, "demo");
    gl_progress_at("a-very-long-configuration-name input=uniform bins=256 n=1073741824");
    at_s(10);
    gl_progress_item("runs", 0, 12);
    at_s(13);
    gl_progress_item("runs", 3, 12);
    gl_progress_format(buf, sizeof buf, 200);
    test_cond("without a phase: the item's count and its own time left (3 of 12 runs in 3 s: 9 s)",
              strstr(buf, "demo: 0:13 elapsed | 3/12 runs (~0:09 left) of a-very-long") != NULL);
    test_cond("the line is cut to the terminal's width less one column",
              gl_progress_format(buf, sizeof buf, 20) == 19 && strlen(buf) == 19);
    gl_progress_at("bad\nname\033[2J");
    gl_progress_format(buf, sizeof buf, 200);
    test_cond("control characters in a name are not sent to the terminal", !strchr(buf, '\n') && !strchr(buf, '\033'));
    at_s(20);
    gl_progress_begin(4, 100, "timing");
    gl_progress_cost(10);
    at_s(22);
    gl_progress_step(1);
    gl_progress_format(buf, sizeof buf, 200);
    test_cond("costed units: 10 of 100 cost units in 2 s leave 18 s, though 1 of 4 runs is done",
              strstr(buf, "timing 1/4 (25%), 0:02 elapsed, ~0:18 left") != NULL);
    fclose(f);

    /* ---- not a terminal, or quiet: nothing, whatever happens ---- */
    f = tmpfile();
    at_s(0);
    gl_progress_open(f, 0, 0, "demo");
    three_of_ten();
    at_s(10);
    gl_progress_step(7);
    gl_progress_clear();
    gl_progress_end();
    test_cond("not a terminal: nothing at all is written", contents(f)[0] == '\0' && !gl_progress_enabled());
    fclose(f);
    f = tmpfile();
    at_s(0);
    gl_progress_open(f, 1, 1, "demo");
    three_of_ten();
    at_s(10);
    gl_progress_step(7);
    gl_progress_end();
    test_cond("--quiet on a terminal: nothing at all is written", contents(f)[0] == '\0' && !gl_progress_enabled());
    fclose(f);

    real_path_to_file();
    real_path_on_terminal();

    /* ---- the sampling loop keeps the line ---- */
    {
        gl_common common;
        gl_common_defaults(&common);
        common.warmup = 1;
        common.repeat = 3;
        gl_report r;
        gl_report_init(&r, "demo", &common);
        gl_row *row = gl_report_row(&r, "t", "best");
        gl_row_param(row, "input", "single");
        gl_row_param_num(row, "n", "", 0, 1024);
        gl_sampler smp;
        gl_sampler_init(&smp, &common);
        gl_sampler_series(&smp, "time", "ms", 3, 0);
        f = tmpfile();
        at_s(0);
        gl_progress_open(f, 1, 0, "demo");
        gl_sampler_plan(&smp, 2);
        gl_sampler_run(&smp, row, one_second, NULL);
        s = contents(f);
        len = strlen(s);
        test_cond("gl_sampler_run names the configuration and counts its runs against the plan",
                  strstr(s, "demo: timing 2/8 (25%), 0:02 elapsed, ~0:06 left | 2/4 runs of best input=single n=1024") &&
                      strstr(s, "timing 3/8") && !strchr(s, '\n'));
        test_cond("gl_sampler_run leaves the line erased, so the experiment's next output starts clean",
                  len >= 4 && strcmp(s + len - 4, "\r\033[K") == 0);
        gl_progress_end();
        fclose(f);

        f = tmpfile();
        at_s(0);
        gl_progress_open(f, 0, 0, "demo");
        gl_sampler_plan(&smp, 1);
        gl_sampler_run(&smp, row, one_second, NULL);
        test_cond("gl_sampler_run writes nothing when stderr is not a terminal", contents(f)[0] == '\0');
        fclose(f);
        gl_sampler_free(&smp);
        gl_report_free(&r);
    }
    test_report();
}
