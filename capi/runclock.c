// The counter's rate, measured against CLOCK_MONOTONIC over the first
// 20 ms of the library's life (runclock.h). Until then, or where the
// counter is not a sound clock, deadlines are taken on CLOCK_MONOTONIC.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "runclock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define CALIBRATE_NS 20000000 /* how long a baseline the rate is measured over */

static _Atomic int64_t rate; /* ticks per second, less the margin; 0: not measured yet; -1: never */
static int64_t base_ns, base_ticks;  /* set once, before any reader (the constructor) */
static pthread_mutex_t calibrating = PTHREAD_MUTEX_INITIALIZER;

/* A reading of both clocks at one moment: the counter between two
   monotonic readings less than 2 us apart (0 if none came in 8 tries). */
static int pair(int64_t *ns, int64_t *ticks) {
    for (int i = 0; i < 8; i++) {
        int64_t a = idgenp_mono_ns(), c = idgenp_counter(), b = idgenp_mono_ns();
        if (b - a < 2000) {
            *ns = a + (b - a) / 2;
            *ticks = c;
            return 1;
        }
    }
    return 0;
}

/* Whether the counter is a clock the kernel trusts: on x86-64 an
   invariant TSC that the kernel keeps time by (it checked that the CPUs'
   TSCs agree); aarch64's generic timer always is. */
static int counter_sound(void) {
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) {
        return 0;
    }
    char buf[16] = {0};
    int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    return n >= 3 && strncmp(buf, "tsc", 3) == 0 && (buf[3] == '\n' || buf[3] == 0);
#elif defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

__attribute__((constructor)) static void idgenp_counter_start(void) {
    if (!counter_sound() || !pair(&base_ns, &base_ticks)) {
        atomic_store(&rate, -1);
    }
}

int64_t idgenp_counter_window(int64_t window_ns) {
    int64_t r = atomic_load_explicit(&rate, memory_order_acquire);
    if (r != 0) {
        return r < 0 ? 0 : (int64_t)((double)r * (double)window_ns / 1e9);
    }
    if (idgenp_mono_ns() - base_ns < CALIBRATE_NS || pthread_mutex_trylock(&calibrating) != 0) {
        return 0;
    }
    int64_t ns, ticks;
    if (atomic_load(&rate) == 0 && pair(&ns, &ticks)) {
        /* Ticks per second, 2% low: a window of ticks then lasts at most
           0.98 / (1 - error) of its length, and the error of two pairs
           2 us off over 20 ms is 1e-4. */
        double r = (double)(ticks - base_ticks) / (double)(ns - base_ns) * 1e9 * 0.98;
        atomic_store_explicit(&rate, r >= 1e6 ? (int64_t)r : -1, memory_order_release);
    }
    pthread_mutex_unlock(&calibrating);
    return 0;
}
