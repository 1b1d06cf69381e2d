/* gl_common.h - definitions every gridlab file shares: exit codes and small helpers.
 *
 * The exit codes mean the same thing in every experiment, so that scripts and CI
 * can tell a failed check from a usage error from a machine without a GPU. */
#ifndef GL_COMMON_H
#define GL_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

enum gl_exit_code {
    GL_EXIT_OK = 0,      /* every check and claim passed */
    GL_EXIT_CHECK = 1,   /* a data check or a claim failed */
    GL_EXIT_USAGE = 2,   /* bad command line, caught before the CUDA runtime starts */
    GL_EXIT_CUDA = 3,    /* a CUDA call or a kernel launch (host- or device-side) failed */
    GL_EXIT_NO_GPU = 77  /* no suitable GPU: the run is skipped, not failed */
};

#define GL_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Print "<prefix>: message" to stderr and exit with code. Used for errors that
 * leave nothing sensible to continue with. */
void gl_die(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
