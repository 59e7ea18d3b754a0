// The clock a run's freshness is read on (runs.c): the CPU's counter where
// it is a sound clock (aarch64's generic timer; x86-64's TSC when it is
// invariant and the kernel itself keeps time by it), else
// CLOCK_MONOTONIC. A reading is only ever compared with a deadline taken
// on the same clock, so the two never mix.
#ifndef IDGEN_RUNCLOCK_H
#define IDGEN_RUNCLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t idgenp_mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#if defined(__x86_64__)
#include <x86intrin.h>
static inline int64_t idgenp_counter(void) { return (int64_t)__rdtsc(); }
#elif defined(__aarch64__)
static inline int64_t idgenp_counter(void) {
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return (int64_t)v;
}
#else
static inline int64_t idgenp_counter(void) { return idgenp_mono_ns(); }
#endif

/* How many counter ticks surely fit in window_ns (rounded down, with a
   margin for the calibration's error), or 0 while the counter cannot be
   trusted yet (not calibrated) or at all: then deadlines are taken on
   CLOCK_MONOTONIC. Cheap after the first calls. */
int64_t idgenp_counter_window(int64_t window_ns);

#endif
