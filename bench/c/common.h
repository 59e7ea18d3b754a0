// What the C benchmarks share: the clock, medians, opening a generator,
// the timed loops every program measures, removing a scratch directory.
// Header-only (static inline): each benchmark is one translation unit.
#ifndef IDGEN_BENCH_COMMON_H
#define IDGEN_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "idgen.h"

/* The bench build of libidgen adds it: a bare C-to-Go call, the baseline. */
int idgen_bench_noop(void);

/* Seconds on the monotonic clock. */
static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v). */
static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static inline const char *verdict(int ok) { return ok ? "PASS" : "FAIL"; }

/* Opens config, or says why not and exits. */
static inline idgen_t *open_or_die(const char *config) {
    idgen_t *g;
    if (idgen_open(config, &g) != IDGEN_OK) {
        fprintf(stderr, "open %s: %s\n", config, idgen_last_error());
        exit(1);
    }
    return g;
}

/* ns per call of a bare call into Go. */
static inline double noop_ns(long n) {
    double t = now_s();
    int acc = 0;
    for (long i = 0; i < n; i++)
        acc += idgen_bench_noop();
    double el = now_s() - t;
    if (acc != 0)
        abort();
    return el / (double)n * 1e9;
}

/* ns per call of idgen_next; exits unless every id is above the last. */
static inline double next_ns(idgen_t *g, long n) {
    double t = now_s();
    int64_t last = -1;
    for (long i = 0; i < n; i++) {
        int64_t id = idgen_next(g);
        if (id <= last) {
            fprintf(stderr, "idgen_next: %lld after %lld: %s\n", (long long)id, (long long)last, idgen_last_error());
            exit(1);
        }
        last = id;
    }
    return (now_s() - t) / (double)n * 1e9;
}

/* Seconds to draw total ids with idgen_next_batch in batches of b into buf. */
static inline double batch_s(idgen_t *g, long total, size_t b, int64_t *buf) {
    double t = now_s();
    for (long done = 0; done < total; done += (long)b)
        if (idgen_next_batch(g, buf, b) != IDGEN_OK) {
            fprintf(stderr, "idgen_next_batch: %s\n", idgen_last_error());
            exit(1);
        }
    return now_s() - t;
}

/* Removes a scratch directory (made with mkdtemp) and what is in it. */
static inline void remove_scratch(const char *dir) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
}

#endif /* IDGEN_BENCH_COMMON_H */
