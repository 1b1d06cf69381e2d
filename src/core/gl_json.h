/* gl_json.h - a small, strict JSON reader (RFC 8259) that builds a tree in memory.
 *
 * gridlab re-executes an experiment once per environment setting (for example
 * once per CUDA_DEVICE_MAX_CONNECTIONS value, which the driver reads only when
 * the context is created) and merges the children's --json reports. This is
 * what reads those reports back. It only ever reads what gridlab itself wrote,
 * but it is strict on purpose: a child that died mid-write or a corrupt file
 * must be an error with a line and column, not silently merged garbage. So it
 * refuses comments, trailing commas, NaN, leading zeros, raw control
 * characters, invalid UTF-8, lone surrogates and anything after the value. */
#ifndef GL_JSON_H
#define GL_JSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GL_JSON_NULL, GL_JSON_BOOL, GL_JSON_NUMBER, GL_JSON_STRING, GL_JSON_ARRAY, GL_JSON_OBJECT } gl_json_type;

typedef struct gl_json gl_json;
struct gl_json {
    gl_json_type type; /* which of the fields below is meaningful */
    int boolean;       /* GL_JSON_BOOL */
    double number;     /* GL_JSON_NUMBER */
    char *string;      /* GL_JSON_STRING: NUL-terminated UTF-8 (an embedded \u0000 is refused) */
    gl_json *items;    /* GL_JSON_ARRAY and GL_JSON_OBJECT: the elements / member values, in order */
    char **keys;       /* GL_JSON_OBJECT: keys[i] names items[i] */
    int n;             /* number of items */
};

/* Parse text[0..len-1]. Returns a tree to free with gl_json_free, or NULL with a message
   "line L, column C: what was expected" in err (errlen bytes). */
gl_json *gl_json_parse(const char *text, size_t len, char *err, size_t errlen);

/* Read and parse a whole file; NULL with the reason in err (including "cannot open PATH: strerror"). */
gl_json *gl_json_parse_file(const char *path, char *err, size_t errlen);

/* Free a tree from gl_json_parse or gl_json_parse_file; NULL is allowed. */
void gl_json_free(gl_json *j);

/* Member of an object by key (first match), or NULL if j is not an object or has no such key. */
const gl_json *gl_json_get(const gl_json *j, const char *key);

/* Element i of an array, or NULL when out of range or not an array. */
const gl_json *gl_json_at(const gl_json *j, int i);

/* The string value, or fallback when j is NULL or not a string. */
const char *gl_json_str(const gl_json *j, const char *fallback);

/* The number, or fallback when j is NULL or not a number (null also gives fallback). */
double gl_json_num(const gl_json *j, double fallback);

#ifdef __cplusplus
}
#endif
#endif
