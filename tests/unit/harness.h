/* harness.h - test_cond() prints one "ok"/"not ok" line per case, test_skip()
 * an "ok - # SKIP" line that is counted as skipped, never as passed, and
 * test_report() prints "K skipped" (when any were) and "N passed, M failed",
 * and returns the exit status. */
#ifndef GL_TEST_HARNESS_H
#define GL_TEST_HARNESS_H

#include <stdio.h>

static int test_passed, test_failed, test_skipped;

#define test_cond(descr, cond)                                                              \
    do {                                                                                    \
        if (cond) {                                                                         \
            test_passed++;                                                                  \
            printf("ok %d - %s\n", test_passed + test_failed + test_skipped, descr);                       \
        } else {                                                                            \
            test_failed++;                                                                  \
            printf("not ok %d - %s (%s:%d)\n", test_passed + test_failed + test_skipped, descr, __FILE__, __LINE__); \
        }                                                                                   \
    } while (0)

/* A case that cannot run here, and why (TAP's "# SKIP" directive). */
#define test_skip(descr, why)                                                                          \
    do {                                                                                               \
        test_skipped++;                                                                                \
        printf("ok %d - %s # SKIP %s\n", test_passed + test_failed + test_skipped, descr, why);        \
    } while (0)

#define test_report()                                                   \
    do {                                                                \
        if (test_skipped) printf("%d skipped\n", test_skipped);         \
        printf("%d passed, %d failed\n", test_passed, test_failed);     \
        return test_failed ? 1 : 0;                                     \
    } while (0)

#endif
