/* Checks for the C API tests: a failed check prints where, what and the library's last error
 * message, then exits 1 (ctest reports the test failed). */
#ifndef SPINDRIFT_TESTS_CAPI_CHECK_H
#define SPINDRIFT_TESTS_CAPI_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spindrift/spindrift.h"

#define CHECK(condition)                                                                           \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, __LINE__,       \
                    #condition, spindrift_last_error_message());                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* A call that must succeed. */
#define CHECK_OK(call)                                                                             \
    do {                                                                                           \
        spindrift_result check_ok_result_ = (call);                                                \
        if (check_ok_result_ != SPINDRIFT_OK) {                                                    \
            fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,              \
                    spindrift_result_name(check_ok_result_), spindrift_last_error_message());      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* A call that must fail with `expected` and leave a message containing `needle` ("" for any
 * non-empty message). */
#define CHECK_FAILS(call, expected, needle)                                                        \
    do {                                                                                           \
        spindrift_result check_result_ = (call);                                                   \
        const char* check_message_ = spindrift_last_error_message();                               \
        if (check_result_ != (expected) || check_message_[0] == '\0' ||                            \
            strstr(check_message_, (needle)) == NULL) {                                            \
            fprintf(stderr,                                                                        \
                    "%s:%d: %s returned %s (expected %s) with message '%s' (expected "             \
                    "it to contain '%s')\n",                                                       \
                    __FILE__, __LINE__, #call, spindrift_result_name(check_result_),               \
                    spindrift_result_name(expected), check_message_, (needle));                    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
