/* json.c - a recursive-descent JSON parser: one function per grammar rule, the
 * tree built in place, and the first error reported with its line and column. */
#include "gl_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"

/* Deeper nesting is refused so that "[[[[..." cannot exhaust the stack of the
 * recursive parser; gridlab's own reports are a handful of levels deep. */
#define MAX_DEPTH 256

/* The state of one parse. Every rule returns -1 as soon as it fails and nothing
 * runs after that, so the message in err is always the first error. */
typedef struct parser {
    const char *text; /* the whole input, not NUL-terminated */
    size_t len;       /* its length in bytes */
    size_t pos;       /* offset of the next byte to read */
    char *err;        /* where the error message goes (may be NULL) */
    size_t errlen;    /* size of err in bytes */
} parser;

/* ---- errors ------------------------------------------------------------------ */

/* snprintf into err, tolerating a caller that passed no buffer. */
static void say(char *err, size_t errlen, const char *fmt, ...) GL_PRINTF(3, 4);
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Report an error at byte offset at as "line L, column C: message" and return -1.
 * Lines and columns (in bytes, from 1) are counted only here, once, so that the
 * parse itself stays a single pass over the input. */
static int fail_at(parser *p, size_t at, const char *fmt, ...) GL_PRINTF(3, 4);
static int fail_at(parser *p, size_t at, const char *fmt, ...)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at; i++) {
        if (p->text[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(p->err, p->errlen, "line %zu, column %zu: %s", line, column, msg);
    return -1;
}

/* Report "expected WHAT, found X" at the current position, naming what is there. */
static int expected(parser *p, const char *what)
{
    if (p->pos >= p->len) return fail_at(p, p->pos, "expected %s, found the end of the input", what);
    unsigned char c = (unsigned char)p->text[p->pos];
    if (c >= 0x20 && c < 0x7f) return fail_at(p, p->pos, "expected %s, found '%c'", what, c);
    return fail_at(p, p->pos, "expected %s, found byte 0x%02x", what, c);
}

/* ---- the tree ---------------------------------------------------------------- */

/* Free what j owns but not j itself: an element lives in its parent's array. */
static void free_contents(gl_json *j)
{
    free(j->string);
    for (int i = 0; i < j->n; i++) {
        free_contents(&j->items[i]);
        if (j->keys) free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
}

/* Append an empty (null) element to j and return it. It is counted in j->n
 * before it is parsed, so that after an error the partial tree, as it stands,
 * is exactly what gl_json_free must release. */
static gl_json *push_item(gl_json *j, int *cap)
{
    void *items = j->items;
    gl_grow(&items, cap, j->n + 1, sizeof(gl_json));
    j->items = (gl_json *)items;
    j->items[j->n] = (gl_json){.type = GL_JSON_NULL};
    return &j->items[j->n++];
}

/* ---- scanning ---------------------------------------------------------------- */

/* The next byte, or -1 at the end of the input. */
static int peek(const parser *p) { return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1; }

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* Consume the next byte if it is c; returns whether it was. */
static int eat(parser *p, int c)
{
    if (peek(p) != c) return 0;
    p->pos++;
    return 1;
}

/* JSON's four whitespace bytes, and no others (no form feed, no comments). */
static void skip_space(parser *p)
{
    for (int c = peek(p); c == ' ' || c == '\t' || c == '\n' || c == '\r'; c = peek(p)) p->pos++;
}

/* Skip a run of digits; returns how many there were. */
static size_t skip_digits(parser *p)
{
    size_t start = p->pos;
    while (is_digit(peek(p))) p->pos++;
    return p->pos - start;
}

/* ---- scalars ----------------------------------------------------------------- */

/* true, false or null, spelled out in full; the error points at the first wrong byte. */
static int parse_literal(parser *p, const char *word)
{
    for (const char *w = word; *w; w++, p->pos++) {
        if (peek(p) != (unsigned char)*w) {
            char what[32];
            snprintf(what, sizeof what, "'%c' of '%s'", *w, word);
            return expected(p, what);
        }
    }
    return 0;
}

/* A number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?. The grammar is
 * checked here because strtod accepts more ("+1", ".5", "1.", hex, "inf"); strtod
 * then converts a NUL-terminated copy of the token, so it cannot read past it.
 * The decimal point is '.' because gridlab never leaves the "C" locale. */
static int parse_number(parser *p, gl_json *out)
{
    size_t start = p->pos;
    eat(p, '-');
    if (eat(p, '0')) {
        if (is_digit(peek(p))) return fail_at(p, p->pos - 1, "a number cannot have a leading zero");
    } else if (!skip_digits(p)) {
        return expected(p, "a digit");
    }
    if (eat(p, '.') && !skip_digits(p)) return expected(p, "a digit after the decimal point");
    if (eat(p, 'e') || eat(p, 'E')) {
        if (!eat(p, '+')) eat(p, '-');
        if (!skip_digits(p)) return expected(p, "a digit in the exponent");
    }
    size_t n = p->pos - start;
    char small[64];
    char *token = n < sizeof small ? small : (char *)gl_xmalloc(n + 1);
    memcpy(token, p->text + start, n);
    token[n] = '\0';
    double v = strtod(token, NULL);
    if (token != small) free(token);
    /* gridlab writes NaN and infinities as null, so an infinity here means a
     * corrupt number such as 1e999; underflow to 0 or a subnormal is accepted. */
    if (isinf(v)) return fail_at(p, start, "number out of the range of a double");
    out->type = GL_JSON_NUMBER;
    out->number = v;
    return 0;
}

/* ---- strings ----------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[0..avail-1], or 0 if there is none
 * there. Overlong forms, surrogates and code points above U+10FFFF are invalid
 * (RFC 3629), so a string that passes is well-formed UTF-8 throughout. */
static size_t utf8_length(const unsigned char *s, size_t avail)
{
    size_t n;
    unsigned long cp, min;
    if (s[0] < 0x80) return 1;
    if ((s[0] & 0xE0) == 0xC0) {
        n = 2; cp = s[0] & 0x1Fu; min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        n = 3; cp = s[0] & 0x0Fu; min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        n = 4; cp = s[0] & 0x07u; min = 0x10000;
    } else {
        return 0; /* a continuation byte, or 0xF8..0xFF, cannot start a sequence */
    }
    if (avail < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

/* Write code point cp (a Unicode scalar value) to out as UTF-8; returns the byte count. */
static int put_utf8(char *out, unsigned long cp)
{
    static const unsigned char lead[] = {0, 0x00, 0xC0, 0xE0, 0xF0}; /* by sequence length */
    int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (int i = n - 1; i > 0; i--, cp >>= 6) out[i] = (char)(0x80 | (cp & 0x3F));
    out[0] = (char)(lead[n] | cp);
    return n;
}

/* The value of four hex digits at text[at..], or -1 if they are not all there. */
static long hex4(const parser *p, size_t at)
{
    if (at > p->len || p->len - at < 4) return -1;
    long v = 0;
    for (size_t i = 0; i < 4; i++) {
        char c = p->text[at + i];
        int d = is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* One escape sequence, p->pos at its backslash; its UTF-8 goes to out. Returns
 * the bytes written, or -1. A high surrogate must be followed at once by a \u
 * low surrogate: the pair names one code point above U+FFFF. */
static int parse_escape(parser *p, char *out)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    size_t at = p->pos++;
    int c = peek(p);
    const char *hit = c > 0 ? strchr(from, c) : NULL;
    if (hit) {
        p->pos++;
        out[0] = to[hit - from];
        return 1;
    }
    if (c != 'u') return expected(p, "one of \" \\ / b f n r t u after a backslash");
    long cp = hex4(p, p->pos + 1);
    if (cp < 0) return fail_at(p, at, "expected four hex digits after \\u");
    p->pos += 5;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return fail_at(p, at, "lone low surrogate \\u%.4s", p->text + at + 2);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        int pair = p->len - p->pos >= 2 && p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u';
        long low = pair ? hex4(p, p->pos + 2) : -1;
        if (low < 0xDC00 || low > 0xDFFF)
            return fail_at(p, at, "lone high surrogate \\u%.4s (a \\u low surrogate must follow)", p->text + at + 2);
        p->pos += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (cp == 0) return fail_at(p, at, "\\u0000 is not allowed: strings are NUL-terminated");
    return put_utf8(out, (unsigned long)cp);
}

/* One character of a string's body at p->pos: an escape, or one UTF-8 sequence
 * copied as it is. Returns the bytes written to out, or -1. */
static int string_char(parser *p, char *out)
{
    int c = peek(p);
    if (c == '\\') return parse_escape(p, out);
    if (c < 0) return expected(p, "'\"' to close the string");
    if (c == '\n' || c == '\r') return fail_at(p, p->pos, "a line break in a string must be escaped as \\n or \\r");
    if (c < 0x20) return fail_at(p, p->pos, "control character 0x%02x in a string must be escaped", c);
    size_t n = utf8_length((const unsigned char *)p->text + p->pos, p->len - p->pos);
    if (n == 0) return fail_at(p, p->pos, "invalid UTF-8 (byte 0x%02x) in a string", c);
    memcpy(out, p->text + p->pos, n);
    p->pos += n;
    return (int)n;
}

/* A string, p->pos at its opening quote; returns it decoded in a new buffer, or
 * NULL. Decoding never makes text longer (\uXXXX gives at most 3 bytes, a 12-byte
 * surrogate pair 4), so a first scan to the closing quote sizes the one buffer,
 * and the whole string costs time linear in its length. */
static char *parse_string(parser *p)
{
    size_t start = ++p->pos, end = start;
    while (end < p->len && p->text[end] != '"') end += p->text[end] == '\\' ? 2 : 1;
    char *s = (char *)gl_xmalloc((end < p->len ? end : p->len) - start + 1);
    size_t used = 0;
    while (!eat(p, '"')) {
        int n = string_char(p, s + used);
        if (n < 0) {
            free(s);
            return NULL;
        }
        used += (size_t)n;
    }
    s[used] = '\0';
    return s;
}

/* ---- arrays, objects and values ---------------------------------------------- */

static int parse_value(parser *p, gl_json *out, int depth);

/* An array, p->pos at '['; its elements are one level deeper than it. */
static int parse_array(parser *p, gl_json *out, int depth)
{
    int cap = 0;
    out->type = GL_JSON_ARRAY;
    p->pos++;
    skip_space(p);
    if (eat(p, ']')) return 0;
    for (;;) {
        if (parse_value(p, push_item(out, &cap), depth + 1) < 0) return -1;
        skip_space(p);
        if (eat(p, ']')) return 0;
        if (!eat(p, ',')) return expected(p, "',' or ']' after an array element");
    }
}

/* An object, p->pos at '{'. Members stay in document order and duplicate keys
 * are kept; gl_json_get returns the first. */
static int parse_object(parser *p, gl_json *out, int depth)
{
    int item_cap = 0, key_cap = 0;
    out->type = GL_JSON_OBJECT;
    p->pos++;
    skip_space(p);
    if (eat(p, '}')) return 0;
    for (;;) {
        skip_space(p);
        if (peek(p) != '"') return expected(p, "a string key");
        char *key = parse_string(p);
        if (!key) return -1;
        void *keys = out->keys;
        gl_grow(&keys, &key_cap, out->n + 1, sizeof(char *));
        out->keys = (char **)keys;
        out->keys[out->n] = key;
        gl_json *value = push_item(out, &item_cap);
        skip_space(p);
        if (!eat(p, ':')) return expected(p, "':' after an object key");
        if (parse_value(p, value, depth + 1) < 0) return -1;
        skip_space(p);
        if (eat(p, '}')) return 0;
        if (!eat(p, ',')) return expected(p, "',' or '}' after an object member");
    }
}

/* Any value, after optional whitespace. depth counts the arrays and objects
 * that enclose it. */
static int parse_value(parser *p, gl_json *out, int depth)
{
    skip_space(p);
    int c = peek(p);
    if ((c == '[' || c == '{') && depth >= MAX_DEPTH)
        return fail_at(p, p->pos, "arrays and objects nested deeper than %d levels", MAX_DEPTH);
    switch (c) {
    case '[': return parse_array(p, out, depth);
    case '{': return parse_object(p, out, depth);
    case '"':
        out->type = GL_JSON_STRING;
        out->string = parse_string(p);
        return out->string ? 0 : -1;
    case 't': out->type = GL_JSON_BOOL; out->boolean = 1; return parse_literal(p, "true");
    case 'f': out->type = GL_JSON_BOOL; out->boolean = 0; return parse_literal(p, "false");
    case 'n': return parse_literal(p, "null");
    default:
        if (c == '-' || is_digit(c)) return parse_number(p, out);
        return expected(p, "a value");
    }
}

/* ---- the interface ----------------------------------------------------------- */

gl_json *gl_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    parser p = {text, len, 0, err, errlen};
    gl_json *root = (gl_json *)gl_xmalloc(sizeof *root);
    *root = (gl_json){.type = GL_JSON_NULL};
    if (parse_value(&p, root, 0) == 0) {
        skip_space(&p);
        if (p.pos == p.len) return root;
        expected(&p, "the end of the input after the value");
    }
    gl_json_free(root);
    return NULL;
}

/* The file is read in chunks rather than sized with fseek, so that a pipe or
 * /dev/stdin works too. A parse error is prefixed with the path, so that a
 * merge of many children's reports says which one is corrupt. */
gl_json *gl_json_parse_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        say(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            text = (char *)gl_xrealloc(text, cap);
        }
        size_t got = fread(text + len, 1, cap - len, f);
        if (got == 0) break;
        len += got;
    }
    int failed = ferror(f), read_errno = errno;
    fclose(f);
    if (failed) {
        say(err, errlen, "cannot read %s: %s", path, strerror(read_errno));
        free(text);
        return NULL;
    }
    char msg[512] = "";
    gl_json *j = gl_json_parse(text, len, msg, sizeof msg);
    free(text);
    if (!j) say(err, errlen, "%s: %s", path, msg);
    return j;
}

void gl_json_free(gl_json *j)
{
    if (!j) return;
    free_contents(j);
    free(j);
}

const gl_json *gl_json_get(const gl_json *j, const char *key)
{
    if (!j || j->type != GL_JSON_OBJECT) return NULL;
    for (int i = 0; i < j->n; i++)
        if (strcmp(j->keys[i], key) == 0) return &j->items[i];
    return NULL;
}

const gl_json *gl_json_at(const gl_json *j, int i)
{
    if (!j || j->type != GL_JSON_ARRAY || i < 0 || i >= j->n) return NULL;
    return &j->items[i];
}

const char *gl_json_str(const gl_json *j, const char *fallback)
{
    return j && j->type == GL_JSON_STRING ? j->string : fallback;
}

double gl_json_num(const gl_json *j, double fallback)
{
    return j && j->type == GL_JSON_NUMBER ? j->number : fallback;
}
