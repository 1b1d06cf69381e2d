/* test_json.c - the strict JSON reader: every type, escapes, numbers, every
 * rejection with its line and column, the depth limit, files and accessors. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gl_common.h"
#include "harness.h"
#include "gl_json.h"

static char err[512];

/* Parse a NUL-terminated text; the message of a refusal stays in err. */
static gl_json *parse(const char *text) { return gl_json_parse(text, strlen(text), err, sizeof err); }

/* Whether text[0..len-1] is refused with a message "line L, column C: something". */
static int refused_at(const char *text, size_t len, int line, int column)
{
    char want[64];
    snprintf(want, sizeof want, "line %d, column %d: ", line, column);
    err[0] = '\0';
    gl_json *j = gl_json_parse(text, len, err, sizeof err);
    int ok = j == NULL && strncmp(err, want, strlen(want)) == 0 && strlen(err) > strlen(want);
    if (!ok) printf("# wanted \"%s...\", got %s\n", want, j ? "a tree" : err);
    gl_json_free(j);
    return ok;
}

/* A string literal's own length, so that a test text may hold a NUL byte. */
#define REFUSED_AT(text, line, column) refused_at(text, sizeof(text) - 1, line, column)

/* Whether text is refused with a message that mentions needle. */
static int refused_saying(const char *text, const char *needle)
{
    err[0] = '\0';
    gl_json *j = parse(text);
    int ok = j == NULL && strstr(err, needle) != NULL;
    if (!ok) printf("# wanted a refusal mentioning \"%s\", got %s\n", needle, j ? "a tree" : err);
    gl_json_free(j);
    return ok;
}

/* Whether the JSON text is a string that decodes to exactly the bytes want. */
static int decodes_to(const char *text, const char *want)
{
    gl_json *j = parse(text);
    int ok = j && j->type == GL_JSON_STRING && strcmp(j->string, want) == 0;
    gl_json_free(j);
    return ok;
}

/* Whether the JSON text is a number equal to want (which the compiler converted). */
static int number_is(const char *text, double want)
{
    gl_json *j = parse(text);
    int ok = j && j->type == GL_JSON_NUMBER && j->number == want;
    gl_json_free(j);
    return ok;
}

/* depth copies of open, then inner, then depth copies of close, in a new buffer. */
static char *nested(int depth, const char *open, const char *inner, const char *close)
{
    gl_buf b = GL_BUF_INIT;
    for (int i = 0; i < depth; i++) gl_buf_puts(&b, open);
    gl_buf_puts(&b, inner);
    for (int i = 0; i < depth; i++) gl_buf_puts(&b, close);
    return b.s;
}

/* Whether the nested text parses (1), or is refused naming the limit of 256 (0); -1 otherwise. */
static int nesting_outcome(char *text)
{
    err[0] = '\0';
    gl_json *j = parse(text);
    int outcome = j ? 1 : (strstr(err, "256") && strstr(err, "line 1, column ") == err) ? 0 : -1;
    gl_json_free(j);
    free(text);
    return outcome;
}

/* A directory for temporary files: $TMPDIR, or /tmp. */
static const char *temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

int main(void)
{
    /* ---- every type, and whitespace around the value ---- */
    gl_json *j = parse("null");
    test_cond("null", j && j->type == GL_JSON_NULL);
    gl_json_free(j);
    j = parse("true");
    test_cond("true", j && j->type == GL_JSON_BOOL && j->boolean == 1);
    gl_json_free(j);
    j = parse("false");
    test_cond("false", j && j->type == GL_JSON_BOOL && j->boolean == 0);
    gl_json_free(j);
    test_cond("a number", number_is("42", 42.0));
    test_cond("a string", decodes_to("\"abc\"", "abc"));
    test_cond("an empty string", decodes_to("\"\"", ""));
    j = parse("[]");
    test_cond("an empty array", j && j->type == GL_JSON_ARRAY && j->n == 0);
    gl_json_free(j);
    j = parse("{}");
    test_cond("an empty object", j && j->type == GL_JSON_OBJECT && j->n == 0);
    gl_json_free(j);
    j = parse(" \t\r\n [ 1 , \"x\" ] \n\t ");
    test_cond("whitespace around and inside the value is skipped",
              j && j->type == GL_JSON_ARRAY && j->n == 2 && gl_json_num(gl_json_at(j, 0), 0) == 1 &&
                  strcmp(gl_json_str(gl_json_at(j, 1), ""), "x") == 0);
    gl_json_free(j);

    /* ---- nesting, key order and lookup ---- */
    j = parse("{\"run\": {\"cases\": [1, [2, 3], {\"ms\": null}], \"ok\": true}, \"empty\": []}");
    const gl_json *cases = gl_json_get(gl_json_get(j, "run"), "cases");
    test_cond("nested objects and arrays",
              j && j->n == 2 && cases && cases->n == 3 && gl_json_num(gl_json_at(cases, 0), 0) == 1 &&
                  gl_json_num(gl_json_at(gl_json_at(cases, 1), 1), 0) == 3 &&
                  gl_json_get(gl_json_at(cases, 2), "ms")->type == GL_JSON_NULL &&
                  gl_json_get(gl_json_get(j, "run"), "ok")->boolean == 1 &&
                  gl_json_get(j, "empty")->type == GL_JSON_ARRAY && gl_json_get(j, "empty")->n == 0);
    gl_json_free(j);
    j = parse("{\"z\": 1, \"a\": 2, \"z\": 3}");
    test_cond("keys stay in document order, duplicates kept",
              j && j->n == 3 && strcmp(j->keys[0], "z") == 0 && strcmp(j->keys[1], "a") == 0 &&
                  strcmp(j->keys[2], "z") == 0 && j->items[2].number == 3);
    test_cond("lookup of a duplicate key returns the first", gl_json_num(gl_json_get(j, "z"), 0) == 1);
    gl_json_free(j);
    j = parse("{\"a\\u0062\": 5}");
    test_cond("keys are unescaped like strings", gl_json_num(gl_json_get(j, "ab"), 0) == 5);
    gl_json_free(j);

    /* ---- string escapes and UTF-8 ---- */
    test_cond("the two-character escapes", decodes_to("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\" \\ / \b \f \n \r \t"));
    test_cond("\\u0041 is A", decodes_to("\"\\u0041\"", "A"));
    test_cond("\\u00e9 is two bytes of UTF-8", decodes_to("\"caf\\u00e9\"", "caf\xC3\xA9"));
    test_cond("\\u20AC (upper-case hex) is three bytes", decodes_to("\"\\u20AC\"", "\xE2\x82\xAC"));
    test_cond("a surrogate pair is one four-byte character", decodes_to("\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80"));
    test_cond("raw UTF-8 passes through", decodes_to("\"caf\xC3\xA9 \xF0\x9F\x98\x80\"", "caf\xC3\xA9 \xF0\x9F\x98\x80"));

    /* ---- numbers ---- */
    j = parse("-0");
    test_cond("-0 is a negative zero", j && j->type == GL_JSON_NUMBER && j->number == 0 && signbit(j->number));
    gl_json_free(j);
    test_cond("0", number_is("0", 0.0));
    test_cond("1e-7", number_is("1e-7", 1e-7));
    test_cond("123456789012 is exact", number_is("123456789012", 123456789012.0));
    test_cond("1.5E+3", number_is("1.5E+3", 1500.0));
    test_cond("-12.25e-2", number_is("-12.25e-2", -12.25e-2));
    test_cond("a 100-digit number", number_is("1000000000000000000000000000000000000000000000000000000000000000000000"
                                              "0000000000000000000000000000000",
                                              1e100));
    test_cond("an underflowing exponent gives 0", number_is("1e-400", 0.0));
    test_cond("an overflowing exponent is refused", refused_saying("1e999", "range"));

    /* ---- every rejection, each with its line and column ---- */
    test_cond("refused: trailing comma in an array", REFUSED_AT("[1,2,]", 1, 6));
    test_cond("refused: trailing comma in an object", REFUSED_AT("{\"a\":1,}", 1, 8));
    test_cond("refused: a // comment", REFUSED_AT("// note\n1", 1, 1));
    test_cond("refused: a /* */ comment", REFUSED_AT("[1 /* note */]", 1, 4));
    test_cond("refused: leading zero 01", REFUSED_AT("01", 1, 1));
    test_cond("refused: leading zero -01", REFUSED_AT("[-01]", 1, 3));
    test_cond("refused: +1", REFUSED_AT("+1", 1, 1));
    test_cond("refused: .5", REFUSED_AT(".5", 1, 1));
    test_cond("refused: 1.", REFUSED_AT("1.", 1, 3));
    test_cond("refused: 1.e5", REFUSED_AT("1.e5", 1, 3));
    test_cond("refused: 1e with no exponent digits", REFUSED_AT("1e", 1, 3));
    test_cond("refused: a lone minus", REFUSED_AT("[-]", 1, 3));
    test_cond("refused: hex 0x10", REFUSED_AT("0x10", 1, 2));
    test_cond("refused: NaN", REFUSED_AT("NaN", 1, 1));
    test_cond("refused: Infinity", REFUSED_AT("Infinity", 1, 1));
    test_cond("refused: -Infinity", REFUSED_AT("-Infinity", 1, 2));
    test_cond("refused: a control character in a string", REFUSED_AT("\"a\x01z\"", 1, 3));
    test_cond("refused: a raw tab in a string", REFUSED_AT("\"a\tz\"", 1, 3));
    test_cond("refused: a raw line break in a string", REFUSED_AT("\"a\nz\"", 1, 3));
    test_cond("refused: a raw carriage return in a string", REFUSED_AT("\"a\rz\"", 1, 3));
    test_cond("refused: invalid escape \\x", REFUSED_AT("\"\\x41\"", 1, 3));
    test_cond("refused: invalid escape \\'", REFUSED_AT("\"\\'\"", 1, 3));
    test_cond("refused: \\u with a non-hex digit", REFUSED_AT("\"\\u12G4\"", 1, 2));
    test_cond("refused: \\u with too few digits", REFUSED_AT("\"\\u12\"", 1, 2));
    test_cond("refused: a lone high surrogate", REFUSED_AT("\"\\ud83d\"", 1, 2));
    test_cond("refused: a high surrogate before a non-surrogate", REFUSED_AT("\"\\ud83d\\u0041\"", 1, 2));
    test_cond("refused: a lone low surrogate", REFUSED_AT("\"x\\ude00\"", 1, 3));
    test_cond("refused: \\u0000, which a C string cannot hold", REFUSED_AT("\"a\\u0000\"", 1, 3));
    test_cond("refused: a NUL byte in a string", REFUSED_AT("\"a\0\"", 1, 3));
    test_cond("refused: invalid UTF-8 byte 0xff", REFUSED_AT("\"a\xFF\"", 1, 3));
    test_cond("refused: overlong UTF-8 for '/'", REFUSED_AT("\"\xC0\xAF\"", 1, 2));
    test_cond("refused: UTF-8 cut short by the quote", REFUSED_AT("\"\xE2\x82\"", 1, 2));
    test_cond("refused: UTF-8-encoded surrogate", REFUSED_AT("\"\xED\xA0\x80\"", 1, 2));
    test_cond("refused: UTF-8 above U+10FFFF", REFUSED_AT("\"\xF4\x90\x80\x80\"", 1, 2));
    test_cond("refused: 0xF9, which cannot start UTF-8", REFUSED_AT("\"\xF9\x80\x80\x80\"", 1, 2));
    test_cond("refused: single quotes", REFUSED_AT("'a'", 1, 1));
    test_cond("refused: True with a capital", REFUSED_AT("True", 1, 1));
    test_cond("refused: nul", REFUSED_AT("[nul]", 1, 5));
    test_cond("refused: a key that is not a string", REFUSED_AT("{1:2}", 1, 2));
    test_cond("refused: a missing colon", REFUSED_AT("{\"a\" 1}", 1, 6));
    test_cond("refused: a missing comma", REFUSED_AT("[1 2]", 1, 4));
    test_cond("refused: form feed is not whitespace", REFUSED_AT("\f1", 1, 1));
    test_cond("refused: trailing garbage after a number", REFUSED_AT("1 2", 1, 3));
    test_cond("refused: trailing garbage after an object", REFUSED_AT("{} x", 1, 4));
    test_cond("refused: an extra closing bracket", REFUSED_AT("[1]]", 1, 4));
    test_cond("refused: a NUL byte after the value", REFUSED_AT("1\0", 1, 2));
    test_cond("refused: empty input", REFUSED_AT("", 1, 1));
    test_cond("refused: only whitespace", REFUSED_AT(" \n ", 2, 2));
    test_cond("refused: truncated array", REFUSED_AT("[1, 2", 1, 6));
    test_cond("refused: truncated object", REFUSED_AT("{\"a\": ", 1, 7));
    test_cond("refused: truncated key", REFUSED_AT("{\"ab", 1, 5));
    test_cond("refused: truncated string", REFUSED_AT("\"abc", 1, 5));
    test_cond("refused: truncated escape", REFUSED_AT("\"abc\\", 1, 6));
    test_cond("refused: truncated literal", REFUSED_AT("tru", 1, 4));
    test_cond("refused: truncated number", REFUSED_AT("-", 1, 2));
    test_cond("refused: an error on line 3 names line 3", REFUSED_AT("[\n  1,\n  ,2]", 3, 3));
    test_cond("refused: a leading zero says why", refused_saying("[0123]", "leading zero"));
    test_cond("refused: a lone surrogate says why", refused_saying("\"\\udc00\"", "surrogate"));
    j = gl_json_parse("[", 1, NULL, 0);
    test_cond("a refusal with no error buffer is still NULL", j == NULL);

    /* ---- the depth limit ---- */
    test_cond("200 nested arrays parse", nesting_outcome(nested(200, "[", "", "]")) == 1);
    test_cond("256 nested arrays parse", nesting_outcome(nested(256, "[", "0", "]")) == 1);
    test_cond("257 nested arrays are refused, naming the limit", nesting_outcome(nested(257, "[", "0", "]")) == 0);
    test_cond("300 nested arrays are refused, naming the limit", nesting_outcome(nested(300, "[", "", "]")) == 0);
    test_cond("300 nested objects are refused, naming the limit", nesting_outcome(nested(300, "{\"a\":", "1", "}")) == 0);
    test_cond("100000 open brackets are refused, not a stack overflow",
              nesting_outcome(nested(100000, "[", "", "")) == 0);

    /* ---- a large input ---- */
    gl_buf big = GL_BUF_INIT;
    gl_buf_puts(&big, "[");
    for (int i = 0; i < 20000; i++) gl_buf_printf(&big, "%s{\"i\": %d, \"s\": \"a\\tb\\u00e9\"}", i ? "," : "", i);
    gl_buf_puts(&big, "]");
    j = gl_json_parse(big.s, big.len, err, sizeof err);
    test_cond("20000 objects parse, the last one intact",
              j && j->n == 20000 && gl_json_num(gl_json_get(gl_json_at(j, 19999), "i"), 0) == 19999 &&
                  strcmp(gl_json_str(gl_json_get(gl_json_at(j, 19999), "s"), ""), "a\tb\xC3\xA9") == 0);
    gl_json_free(j);
    gl_buf_free(&big);

    /* ---- files ---- */
    char path[4096];
    snprintf(path, sizeof path, "%s/gl_test_json_XXXXXX", temp_dir());
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int written = f && fputs("{\"experiment\": \"false-dependency\",\n \"ms\": [1.5, 2]}\n", f) >= 0;
    test_cond("a temporary file is written", f && fclose(f) == 0 && written);
    j = gl_json_parse_file(path, err, sizeof err);
    test_cond("gl_json_parse_file reads it",
              j && strcmp(gl_json_str(gl_json_get(j, "experiment"), ""), "false-dependency") == 0 &&
                  gl_json_num(gl_json_at(gl_json_get(j, "ms"), 0), 0) == 1.5);
    gl_json_free(j);
    f = fopen(path, "w");
    written = f && fputs("{\"ms\": [1.5,\n 2,]}", f) >= 0;
    test_cond("the temporary file is rewritten with an error on line 2", f && fclose(f) == 0 && written);
    char want[4200];
    snprintf(want, sizeof want, "%s: line 2, column 4: ", path);
    j = gl_json_parse_file(path, err, sizeof err);
    test_cond("a parse error in a file names the path, line and column",
              j == NULL && strncmp(err, want, strlen(want)) == 0);
    test_cond("the temporary file is removed", unlink(path) == 0);
    snprintf(want, sizeof want, "cannot open %s: %s", path, strerror(ENOENT));
    j = gl_json_parse_file(path, err, sizeof err);
    test_cond("a missing file: cannot open PATH: reason", j == NULL && strcmp(err, want) == 0);
    snprintf(want, sizeof want, "cannot read %s: ", temp_dir());
    j = gl_json_parse_file(temp_dir(), err, sizeof err);
    test_cond("a directory: cannot read PATH: reason", j == NULL && strncmp(err, want, strlen(want)) == 0);

    /* ---- accessors and their fallbacks ---- */
    j = parse("{\"s\": \"text\", \"n\": 2.5, \"z\": null, \"a\": [10, 20]}");
    const gl_json *a = gl_json_get(j, "a");
    test_cond("parsed the accessor fixture", j && a && a->n == 2);
    test_cond("gl_json_get: a missing key gives NULL", gl_json_get(j, "missing") == NULL);
    test_cond("gl_json_get: NULL gives NULL", gl_json_get(NULL, "s") == NULL);
    test_cond("gl_json_get: an array gives NULL", gl_json_get(a, "s") == NULL);
    test_cond("gl_json_at: in range", gl_json_num(gl_json_at(a, 1), 0) == 20);
    test_cond("gl_json_at: -1 and n give NULL", gl_json_at(a, -1) == NULL && gl_json_at(a, 2) == NULL);
    test_cond("gl_json_at: NULL gives NULL", gl_json_at(NULL, 0) == NULL);
    test_cond("gl_json_at: an object gives NULL", gl_json_at(j, 0) == NULL);
    test_cond("gl_json_str: a string", strcmp(gl_json_str(gl_json_get(j, "s"), "fb"), "text") == 0);
    test_cond("gl_json_str: NULL gives the fallback", strcmp(gl_json_str(NULL, "fb"), "fb") == 0);
    test_cond("gl_json_str: a number gives the fallback", strcmp(gl_json_str(gl_json_get(j, "n"), "fb"), "fb") == 0);
    test_cond("gl_json_str: fallback may be NULL", gl_json_str(gl_json_get(j, "z"), NULL) == NULL);
    test_cond("gl_json_num: a number", gl_json_num(gl_json_get(j, "n"), -1) == 2.5);
    test_cond("gl_json_num: NULL gives the fallback", gl_json_num(NULL, -1) == -1);
    test_cond("gl_json_num: null gives the fallback", gl_json_num(gl_json_get(j, "z"), -1) == -1);
    test_cond("gl_json_num: a string gives the fallback", gl_json_num(gl_json_get(j, "s"), -1) == -1);
    gl_json_free(j);
    gl_json_free(NULL);

    test_report();
}
