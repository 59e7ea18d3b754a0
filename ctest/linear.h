// A checker of "call A ended before call B began => every id of A is below
// every id of B" (linearizability of an increasing id source), and of
// uniqueness, for the C tests of runs (runs.c, runs_tsan.c). Each call is
// recorded with two tickets of one shared counter, taken just before it
// began and just after it ended: A ended before B began when A's end
// ticket is below B's begin ticket.
#ifndef IDGEN_CTEST_LINEAR_H
#define IDGEN_CTEST_LINEAR_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    uint64_t begin, end; /* tickets */
    int64_t lo, hi;      /* the call's smallest and largest id */
} lin_op;

static _Atomic uint64_t lin_clock;

static inline uint64_t lin_ticket(void) { return atomic_fetch_add(&lin_clock, 1); }

static int lin_by_begin(const void *a, const void *b) {
    uint64_t x = ((const lin_op *)a)->begin, y = ((const lin_op *)b)->begin;
    return (x > y) - (x < y);
}

static int lin_by_end(const void *a, const void *b) {
    uint64_t x = (*(const lin_op *const *)a)->end, y = (*(const lin_op *const *)b)->end;
    return (x > y) - (x < y);
}

static int lin_by_value(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The number of calls B whose smallest id is not above the largest id of
   a call that ended before B began (0: linearizable). ops is reordered. */
static size_t lin_violations(lin_op *ops, size_t n) {
    qsort(ops, n, sizeof *ops, lin_by_begin);
    lin_op **by_end = malloc(n * sizeof *by_end);
    if (by_end == NULL) {
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        by_end[i] = &ops[i];
    }
    qsort(by_end, n, sizeof *by_end, lin_by_end);
    size_t bad = 0, j = 0;
    int64_t ended_max = INT64_MIN; /* the largest id of the calls that ended so far */
    for (size_t i = 0; i < n; i++) {
        while (j < n && by_end[j]->end < ops[i].begin) {
            if (by_end[j]->hi > ended_max) {
                ended_max = by_end[j]->hi;
            }
            j++;
        }
        if (ops[i].lo <= ended_max) {
            bad++;
        }
    }
    free(by_end);
    return bad;
}

/* The number of repeated values in ids (sorted in place). */
static size_t lin_repeats(int64_t *ids, size_t n) {
    qsort(ids, n, sizeof *ids, lin_by_value);
    size_t rep = 0;
    for (size_t i = 1; i < n; i++) {
        rep += ids[i] == ids[i - 1];
    }
    return rep;
}

#endif
