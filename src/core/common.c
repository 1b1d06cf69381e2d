/* common.c - fatal errors, checked allocation and the text buffer. */
#include "gl_common.h"
#include "gl_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gl_die(int code, const char *fmt, ...)
{
    va_list ap;
    gl_progress_clear(); /* the message starts on a clean line */
    fflush(stdout);
    fputs("error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

void *gl_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) gl_die(GL_EXIT_NO_MEMORY, "out of host memory (%zu bytes requested)", bytes);
    return p;
}

void *gl_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) gl_die(GL_EXIT_NO_MEMORY, "out of host memory (%zu x %zu bytes requested)", count, size);
    return p;
}

void *gl_xrealloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) gl_die(GL_EXIT_NO_MEMORY, "out of host memory (%zu bytes requested)", bytes);
    return q;
}

char *gl_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)gl_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void gl_grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return;
    if (need < 0 || need > (1 << 30)) gl_die(GL_EXIT_NO_MEMORY, "an array cannot grow to %d elements", need);
    int c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    *p = gl_xrealloc(*p, (size_t)c * elem);
    *cap = c;
}

/* ---- the text buffer ---------------------------------------------------------- */

/* Make room for n more bytes plus the NUL. */
static void reserve(gl_buf *b, size_t n)
{
    if (b->len + n + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    b->s = (char *)gl_xrealloc(b->s, cap);
    b->cap = cap;
}

void gl_buf_vprintf(gl_buf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    char probe[1];
    int n = vsnprintf(probe, sizeof probe, fmt, ap);
    if (n < 0) gl_die(GL_EXIT_NO_MEMORY, "cannot format text (vsnprintf failed)");
    reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
    va_end(again);
    b->len += (size_t)n;
}

void gl_buf_printf(gl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void gl_buf_puts(gl_buf *b, const char *s)
{
    size_t n = strlen(s);
    reserve(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void gl_buf_json_string(gl_buf *b, const char *s)
{
    gl_buf_puts(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': gl_buf_puts(b, "\\\""); break;
        case '\\': gl_buf_puts(b, "\\\\"); break;
        case '\n': gl_buf_puts(b, "\\n"); break;
        case '\r': gl_buf_puts(b, "\\r"); break;
        case '\t': gl_buf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20) {
                gl_buf_printf(b, "\\u%04x", *p);
            } else {
                reserve(b, 1);
                b->s[b->len++] = (char)*p;
                b->s[b->len] = '\0';
            }
        }
    }
    gl_buf_puts(b, "\"");
}

void gl_buf_json_number(gl_buf *b, double v)
{
    if (isfinite(v)) gl_buf_printf(b, "%.17g", v);
    else gl_buf_puts(b, "null");
}

void gl_buf_csv_field(gl_buf *b, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        gl_buf_puts(b, s);
        return;
    }
    gl_buf_puts(b, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"') gl_buf_puts(b, "\"\"");
        else gl_buf_printf(b, "%c", *p);
    }
    gl_buf_puts(b, "\"");
}

const char *gl_buf_str(const gl_buf *b) { return b->s ? b->s : ""; }

void gl_buf_free(gl_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}
