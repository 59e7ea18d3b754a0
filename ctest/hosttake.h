// A host's own hand-out from the memory idgen_get_run_memory describes
// (include/idgen.h), as a JVM does it with its own atomics: shared by
// ctest/runs.c (against the built library) and ctest/runs_tsan.c (runs.c
// under ThreadSanitizer).
#ifndef IDGEN_CTEST_HOSTTAKE_H
#define IDGEN_CTEST_HOSTTAKE_H

#include <stdint.h>

/* 1 and *id, or 0 when there is nothing to hand out (then idgen_next). */
static inline int host_take(int64_t cursor_at, int64_t runs_at, int64_t run_size, int64_t serial, int64_t *id) {
    uint64_t *cursor = (uint64_t *)(uintptr_t)cursor_at;
    uint64_t c = __atomic_load_n(cursor, __ATOMIC_ACQUIRE);
    for (;;) {
        uint64_t i = c & ((UINT64_C(1) << 24) - 1);
        const char *run = (const char *)(uintptr_t)runs_at + ((c >> 24) & 3) * (uint64_t)run_size;
        if ((int64_t)(c >> 56) != serial || (int64_t)i >= __atomic_load_n((const int64_t *)(run + 16), __ATOMIC_RELAXED) ||
            __atomic_load_n((const int32_t *)(run + 32), __ATOMIC_RELAXED) != 0) {
            return 0;
        }
        int64_t first = __atomic_load_n((const int64_t *)run, __ATOMIC_RELAXED);
        int64_t step = __atomic_load_n((const int64_t *)(run + 8), __ATOMIC_RELAXED);
        if (__atomic_compare_exchange_n(cursor, &c, c + 1, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            *id = first + (int64_t)i * step;
            return 1;
        }
    }
}

#endif
