/* gl_common.h - definitions every gridlab file shares: exit codes, allocation
 * that cannot silently fail, and a growable text buffer.
 *
 * The exit codes mean the same thing in every experiment, so that scripts and CI
 * can tell a failed check from a usage error from a machine without a GPU. The
 * README's table lists the same codes; this enum is the one source. */
#ifndef GL_COMMON_H
#define GL_COMMON_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gl_exit_code {
    GL_EXIT_OK = 0,        /* every check and claim passed */
    GL_EXIT_CHECK = 1,     /* a data check or a claim failed */
    GL_EXIT_USAGE = 2,     /* bad command line or unwritable output path, caught before the CUDA runtime starts */
    GL_EXIT_CUDA = 3,      /* a CUDA call or a kernel launch (host- or device-side) failed */
    GL_EXIT_NO_MEMORY = 4, /* the host ran out of memory */
    GL_EXIT_IO = 5,        /* a result file could not be written (the run's results are incomplete) */
    GL_EXIT_INTERNAL = 6,  /* a bug: an experiment misused the core (undeclared sample, span buffer too small, ...) */
    GL_EXIT_NO_GPU = 77    /* no suitable GPU, or this configuration cannot run on this one: skipped, not failed */
};

#define GL_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* An OpenMP directive where the file is built with OpenMP ("Build: openmp"),
 * nothing elsewhere: the loop then runs on one thread, with the same result. */
#ifdef _OPENMP
#define GL_OMP(directive) _Pragma(#directive)
#else
#define GL_OMP(directive)
#endif

#if defined(__GNUC__)
#define GL_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define GL_NORETURN __attribute__((noreturn))
#else
#define GL_PRINTF(fmt, args)
#define GL_NORETURN
#endif

/* Print "error: message" to stderr and exit with code. Used for errors that
 * leave nothing sensible to continue with. */
void gl_die(int code, const char *fmt, ...) GL_PRINTF(2, 3) GL_NORETURN;

/* malloc, calloc, realloc and strdup that exit with GL_EXIT_NO_MEMORY (and say
 * how much was asked for) instead of returning NULL. Zero sizes are allowed. */
void *gl_xmalloc(size_t bytes);
void *gl_xcalloc(size_t count, size_t size);
void *gl_xrealloc(void *p, size_t bytes);
char *gl_xstrdup(const char *s);

/* Grow *p, an array of *cap elements of size elem, so that it holds at least
 * need elements (doubling, so appends are amortized O(1)). */
void gl_grow(void **p, int *cap, int need, size_t elem);

/* A growable NUL-terminated text buffer. Start it as GL_BUF_INIT. */
typedef struct gl_buf {
    char *s;    /* the text, NUL-terminated once anything was appended */
    size_t len; /* bytes used, without the NUL */
    size_t cap; /* bytes allocated */
} gl_buf;
#define GL_BUF_INIT {NULL, 0, 0}

void gl_buf_printf(gl_buf *b, const char *fmt, ...) GL_PRINTF(2, 3);
void gl_buf_vprintf(gl_buf *b, const char *fmt, va_list ap);
void gl_buf_puts(gl_buf *b, const char *s);
/* s as a JSON string literal, with quotes; the one JSON escaper of the project. */
void gl_buf_json_string(gl_buf *b, const char *s);
/* A JSON number: NaN and infinities, which JSON cannot hold, become null. */
void gl_buf_json_number(gl_buf *b, double v);
/* s as one CSV field, quoted only when it holds a comma, quote or line break. */
void gl_buf_csv_field(gl_buf *b, const char *s);
/* The text so far ("" when empty); stays owned by the buffer. */
const char *gl_buf_str(const gl_buf *b);
void gl_buf_free(gl_buf *b);

#ifdef __cplusplus
}
#endif
#endif
