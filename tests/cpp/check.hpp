// The C++ tests' harness: CHECK counts a passed or failed assertion (and
// prints the failed ones), code_of runs a call and returns the code of the
// idgen::Error it throws (0 when it throws none).
#ifndef IDGEN_TEST_CHECK_HPP
#define IDGEN_TEST_CHECK_HPP

#include "idgen.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>

inline int passed, failed;

#define CHECK(cond, what)                                              \
    do {                                                               \
        if (cond) {                                                    \
            passed++;                                                  \
        } else {                                                       \
            failed++;                                                  \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, what); \
        }                                                              \
    } while (0)

template <class F> int code_of(F f) {
    try {
        f();
    } catch (const idgen::Error &e) {
        return e.code();
    }
    return 0;
}

inline int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

/* tests/cpp/test_calls.cpp: the calls over text ids, text forms, the
 * default generator, the version and the config string. */
void test_forms();
void test_default_generator();
void test_numeric_text();
void test_rocketmq_text();
void test_version_and_config();
void test_runs();

#endif
