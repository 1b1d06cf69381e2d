/* harness.h - two macros: test_cond() prints one "ok"/"not ok" line per case,
 * test_report() prints "N passed, M failed" and returns the exit status. */
#ifndef GL_TEST_HARNESS_H
#define GL_TEST_HARNESS_H

#include <stdio.h>

static int test_passed, test_failed;

#define test_cond(descr, cond)                                                              \
    do {                                                                                    \
        if (cond) {                                                                         \
            test_passed++;                                                                  \
            printf("ok %d - %s\n", test_passed + test_failed, descr);                       \
        } else {                                                                            \
            test_failed++;                                                                  \
            printf("not ok %d - %s (%s:%d)\n", test_passed + test_failed, descr, __FILE__, __LINE__); \
        }                                                                                   \
    } while (0)

#define test_report()                                            \
    do {                                                         \
        printf("%d passed, %d failed\n", test_passed, test_failed); \
        return test_failed ? 1 : 0;                              \
    } while (0)

#endif
