/* progress.c - the one progress line of a long run (see gl_progress.h). */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "gl_progress.h"
#include "gl_stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Everything the line knows. One per process: there is one stderr. */
typedef struct progress {
    FILE *out;              /* where the line is drawn; NULL: off */
    pid_t pid;              /* the process that decided: a forked child draws nothing */
    char name[64];          /* the experiment, first on the line */
    double (*now_ns)(void); /* the clock (gl_host_ns unless a test set one) */
    double start_ns;        /* when the run began: nothing shows for GL_PROGRESS_DELAY_S */
    double drawn_ns;        /* when the line was last drawn (throttle) */
    int shown;              /* the line is on the terminal now */
    int exit_hook;          /* atexit(erase) is registered */
    char phase[64];         /* the phase's name; "" when there is none */
    double phase_ns;        /* when the phase began */
    double total, done;     /* the phase's units, all and done (total <= 0: not known) */
    double total_cost;      /* what the whole phase costs; <= 0: one per unit */
    double cost_done;       /* cost of the units done */
    double unit_cost;       /* what each unit counted now costs */
    char at[192];           /* what runs now */
    char noun[24];          /* what the item counts ("runs"); "" when there is no item */
    long long item_i;       /* of the item: done */
    long long item_n;       /* of the item: all */
    double item_ns;         /* when the item began */
    unsigned char busy;     /* a thread is drawing or changing the text (taken with __atomic_test_and_set) */
} progress;

static progress P;

/* Take the drawing flag without waiting; 1 when taken. */
static int try_lock(void) { return !__atomic_test_and_set(&P.busy, __ATOMIC_ACQUIRE); }
static void unlock(void) { __atomic_clear(&P.busy, __ATOMIC_RELEASE); }
/* Take it, waiting for a drawing thread (a few microseconds at most). */
static void lock(void)
{
    while (!try_lock()) {
    }
}

/* Erase the line if it is up. Caller holds the flag. */
static void erase(void)
{
    if (!P.shown || !P.out || P.pid != getpid()) return;
    fprintf(P.out, "\r\033[K");
    fflush(P.out);
    P.shown = 0;
}

/* The clock in use. */
static double now(void) { return P.now_ns ? P.now_ns() : gl_host_ns(); }

void gl_progress_set_clock(double (*now_ns)(void)) { P.now_ns = now_ns; }

/* Erase the line at exit, so that the shell's prompt starts clean (not when
 * another thread is drawing: exit must not wait on it). */
static void erase_at_exit(void)
{
    if (!try_lock()) return;
    erase();
    unlock();
}

void gl_progress_open(FILE *out, int is_tty, int quiet, const char *name)
{
    double (*clock)(void) = P.now_ns;
    int hook = P.exit_hook;
    memset(&P, 0, sizeof P);
    P.now_ns = clock;
    P.exit_hook = hook;
    P.out = out && is_tty && !quiet ? out : NULL;
    P.pid = getpid();
    snprintf(P.name, sizeof P.name, "%s", name ? name : "");
    P.start_ns = now();
    P.drawn_ns = -INFINITY;
    P.unit_cost = 1;
    if (P.out && !P.exit_hook) P.exit_hook = atexit(erase_at_exit) == 0;
}

void gl_progress_setup(const char *name, int quiet)
{
    const char *term = getenv("TERM");
    int tty = isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
    gl_progress_open(stderr, tty, quiet, name);
}

int gl_progress_enabled(void) { return P.out != NULL && P.pid == getpid(); }

/* ---- the arithmetic ------------------------------------------------------------------------ */

double gl_progress_eta_s(double elapsed_s, double done, double total)
{
    if (!(total > 0) || !(done > 0) || !isfinite(elapsed_s)) return NAN;
    if (done >= total) return 0;
    return elapsed_s * (total - done) / done;
}

void gl_progress_duration(double s, char *buf, size_t n)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, n, "?");
        return;
    }
    long long t = (long long)floor(s + 0.5);
    if (t >= 3600) snprintf(buf, n, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, n, "%lld:%02lld", t / 60, t % 60);
}

/* A count as the line shows it: whole numbers without a point, others with three digits. */
static void count_text(double x, char *buf, size_t n)
{
    if (x == floor(x) && fabs(x) < 1e15) snprintf(buf, n, "%.0f", x);
    else snprintf(buf, n, "%.3g", x);
}

int gl_progress_format(char *buf, size_t n, int width)
{
    if (n == 0) return 0;
    double t = now();
    char line[512], a[32], b[32], el[32], left[32];
    size_t len = 0;
#define ADD(...) /* append; a line that outgrows the buffer stops growing (it is cut below anyway) */ \
    (len += len < sizeof line ? (size_t)snprintf(line + len, sizeof line - len, __VA_ARGS__) : 0)
    ADD("%s:", P.name);
    if (P.phase[0]) {
        double total_cost = P.total_cost > 0 ? P.total_cost : P.total;
        gl_progress_duration((t - P.phase_ns) / 1e9, el, sizeof el);
        gl_progress_duration(gl_progress_eta_s((t - P.phase_ns) / 1e9, P.cost_done, total_cost), left, sizeof left);
        count_text(P.done, a, sizeof a);
        ADD(" %s %s", P.phase, a);
        if (P.total > 0) {
            count_text(P.total, b, sizeof b);
            ADD("/%s (%.0f%%)", b, 100.0 * (P.done < P.total ? P.done : P.total) / P.total);
        }
        ADD(", %s elapsed, ~%s left", el, left);
    } else {
        gl_progress_duration((t - P.start_ns) / 1e9, el, sizeof el);
        ADD(" %s elapsed", el);
    }
    if (P.at[0] || P.noun[0]) ADD(" |");
    if (P.noun[0]) {
        ADD(" %lld/%lld %s", P.item_i, P.item_n, P.noun);
        if (!P.phase[0]) {
            gl_progress_duration(gl_progress_eta_s((t - P.item_ns) / 1e9, (double)P.item_i, (double)P.item_n), left,
                                 sizeof left);
            ADD(" (~%s left)", left);
        }
        if (P.at[0]) ADD(" of");
    }
    if (P.at[0]) ADD(" %s", P.at);
#undef ADD
    if (len >= sizeof line) len = sizeof line - 1;
    /* Cut to the terminal: a line that wraps could not be taken back with one carriage return. */
    size_t most = width > 1 ? (size_t)width - 1 : 0;
    if (len > most) len = most;
    if (len > n - 1) len = n - 1;
    for (size_t i = 0; i < len; i++) /* a control character in a name would move the cursor */
        buf[i] = (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i];
    buf[len] = '\0';
    return (int)len;
}

/* ---- drawing --------------------------------------------------------------------------------- */

/* The terminal's width in columns: the window size, else $COLUMNS, else 80. */
static int terminal_width(void)
{
    struct winsize ws;
    if (ioctl(fileno(P.out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w > 0 ? w : 80;
}

/* Draw the line if one is due: the run is old enough and the last draw long enough ago. Caller holds the flag. */
static void draw_if_due(void)
{
    if (!gl_progress_enabled() || !(P.phase[0] || P.at[0] || P.noun[0])) return; /* off, or nothing to say */
    double t = now();
    if (t - P.start_ns < GL_PROGRESS_DELAY_S * 1e9 || t - P.drawn_ns < 1e9 / GL_PROGRESS_HZ) return;
    char line[512];
    gl_progress_format(line, sizeof line, terminal_width());
    fflush(stdout); /* what the run printed before stays before the line */
    fprintf(P.out, "\r%s\033[K", line);
    fflush(P.out);
    P.shown = 1;
    P.drawn_ns = t;
}

void gl_progress_clear(void)
{
    if (!P.shown) return;
    lock();
    erase();
    unlock();
}

/* ---- what runs ------------------------------------------------------------------------------ */

void gl_progress_begin(double total, double total_cost, const char *fmt, ...)
{
    lock();
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P.phase, sizeof P.phase, fmt, ap);
    va_end(ap);
    if (!P.phase[0]) snprintf(P.phase, sizeof P.phase, "working");
    P.phase_ns = now();
    P.total = total;
    P.total_cost = total_cost;
    P.done = P.cost_done = 0;
    P.unit_cost = 1;
    unlock();
}

void gl_progress_cost(double per_unit) { P.unit_cost = per_unit > 0 ? per_unit : 0; }

void gl_progress_at(const char *fmt, ...)
{
    if (!P.out) return; /* off: nothing to keep */
    lock();
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P.at, sizeof P.at, fmt, ap);
    va_end(ap);
    P.noun[0] = '\0';
    draw_if_due(); /* a long step shows what it is while it runs */
    unlock();
}

void gl_progress_item(const char *noun, long long i, long long n)
{
    if (!P.out) return;
    lock();
    if (n <= 0) {
        P.noun[0] = '\0';
    } else {
        snprintf(P.noun, sizeof P.noun, "%s", noun && noun[0] ? noun : "done");
        if (i == 0) P.item_ns = now();
        P.item_i = i;
        P.item_n = n;
    }
    unlock();
}

/* Add x to *p, from any thread. */
static void atomic_add(double *p, double x)
{
    double old, sum;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    do sum = old + x;
    while (!__atomic_compare_exchange(p, &old, &sum, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

void gl_progress_step(double units)
{
    atomic_add(&P.done, units);
    atomic_add(&P.cost_done, units * P.unit_cost);
    if (!P.out || !try_lock()) return; /* off, or another thread is drawing: it will show these units next time */
    draw_if_due();
    unlock();
}

void gl_progress_end(void)
{
    lock();
    P.phase[0] = P.at[0] = P.noun[0] = '\0';
    P.total = P.done = P.total_cost = P.cost_done = 0;
    erase();
    unlock();
}
