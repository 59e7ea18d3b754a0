// C benchmarks of preset=segment (bench build of libidgen, which adds
// idgen_bench_noop: a bare C-to-Go call).
//
//   segbench [SECONDS]
//
// 1. idgen_next on a segment generator (host directory, step=auto) beside
//    the bare call, in alternating rounds; idgen_next_batch x4096 while a
//    segment lasts (step=1000000000), in values/s.
// 2. With $IDGEN_BENCH_PG (a postgres:// URL and keys): 4 threads on one
//    generator for SECONDS, step=auto beside step=1000: values/s, the
//    longest idgen_next after a 1 s warm-up, the calls over 1 ms, and the
//    segments taken per second (prefetches landing, seen in segment_left).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define ROUNDS 15
#define THREADS 4

static void hot_path(void) {
    char dir[] = "/tmp/idgen-segbench-XXXXXX", cfg[256], big[256];
    if (!mkdtemp(dir))
        return;
    snprintf(cfg, sizeof cfg, "preset=segment name=bench step=auto lease_dir=%s", dir);
    snprintf(big, sizeof big, "preset=segment name=batch step=1000000000 lease_dir=%s", dir);
    idgen_t *g = open_or_die(cfg), *gb = open_or_die(big);
    int64_t *buf = malloc(4096 * sizeof *buf);
    double v_noop[ROUNDS], v_next[ROUNDS], v_batch[ROUNDS];
    noop_ns(1000000), next_ns(g, 3000000); /* warm up: step=auto grows */
    for (int r = 0; r < ROUNDS; r++) {
        if (r & 1) {
            v_next[r] = next_ns(g, 1000000);
            v_noop[r] = noop_ns(1000000);
        } else {
            v_noop[r] = noop_ns(1000000);
            v_next[r] = next_ns(g, 1000000);
        }
        v_batch[r] = (double)(1 << 22) / batch_s(gb, 1 << 22, 4096, buf);
    }
    double noop = median(v_noop, ROUNDS), nx = median(v_next, ROUNDS), br = median(v_batch, ROUNDS);
    printf("Segments, host directory (medians of %d alternating rounds)\n", ROUNDS);
    printf("  %-58s %10.1f ns\n", "bare C->Go call (idgen_bench_noop)", noop);
    printf("  %-58s %10.1f ns   %.2fx bare call (target <= 0.5x: runs in C) %s\n", "idgen_next, preset=segment step=auto", nx,
           nx / noop, verdict(nx / noop <= 0.5));
    printf("  %-58s %10.0f M values/s (target >= 500 M) %s\n", "idgen_next_batch x4096, while a segment lasts", br / 1e6,
           verdict(br >= 5e8));
    free(buf);
    idgen_close(g);
    idgen_close(gb);
    remove_scratch(dir);
}

struct run {
    idgen_t *g;
    double warm, end;            /* when the warm-up ends, when to stop */
    atomic_long values;          /* values issued after the warm-up */
    atomic_long slow;            /* calls over 1 ms after the warm-up */
    _Atomic double longest;      /* the longest call after the warm-up, s */
    atomic_long takes;           /* segments landing after the warm-up */
};

static void *drawer(void *arg) {
    struct run *r = arg;
    long n = 0, slow = 0;
    double longest = 0, t = now_s();
    while (t < r->end) {
        int64_t id = idgen_next(r->g);
        double u = now_s();
        if (id < 0) {
            fprintf(stderr, "idgen_next: %s\n", idgen_last_error());
            exit(1);
        }
        if (t >= r->warm) {
            n++;
            slow += u - t > 1e-3;
            longest = u - t > longest ? u - t : longest;
        }
        t = u;
    }
    atomic_fetch_add(&r->values, n);
    atomic_fetch_add(&r->slow, slow);
    double cur = atomic_load(&r->longest);
    while (longest > cur && !atomic_compare_exchange_weak(&r->longest, &cur, longest)) {
    }
    return NULL;
}

/* Counts prefetches landing: segment_left jumps up. */
static void *watcher(void *arg) {
    struct run *r = arg;
    int64_t prev = -1;
    for (double t = now_s(); t < r->end; t = now_s()) {
        idgen_stats st;
        if (idgen_get_stats(r->g, &st, sizeof st) == IDGEN_OK) {
            if (prev >= 0 && st.segment_left > prev && t >= r->warm)
                atomic_fetch_add(&r->takes, 1);
            prev = st.segment_left;
        }
        usleep(200);
    }
    return NULL;
}

/* 4 threads draw from one generator for secs after a 1 s warm-up. */
static void sustained(const char *cfg, const char *label, double secs) {
    struct run r = {.g = open_or_die(cfg)};
    r.warm = now_s() + 1.0, r.end = r.warm + secs;
    pthread_t th[THREADS], w;
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, drawer, &r);
    pthread_create(&w, NULL, watcher, &r);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    pthread_join(w, NULL);
    printf("  %-40s %7.1f M values/s; longest call %7.3f ms; %5ld calls > 1 ms; %5.1f segments/s\n", label,
           (double)atomic_load(&r.values) / secs / 1e6, atomic_load(&r.longest) * 1e3, atomic_load(&r.slow),
           (double)atomic_load(&r.takes) / secs);
    idgen_close(r.g);
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 5.0;
    hot_path();
    const char *pg = getenv("IDGEN_BENCH_PG");
    if (pg) {
        char cfg[1024];
        printf("Segments, %d threads on one generator for %.0f s after a 1 s warm-up (each call timed with two clock reads)\n", THREADS, secs);
        sustained("layout=time:41,seq:22 worker=0", "control: no store, layout=time:41,seq:22", secs);
        snprintf(cfg, sizeof cfg, "preset=segment name=sustained_auto step=auto store=%s", pg);
        sustained(cfg, "PostgreSQL, step=auto", secs);
        snprintf(cfg, sizeof cfg, "preset=segment name=sustained_1000 step=1000 store=%s", pg);
        sustained(cfg, "PostgreSQL, step=1000", secs);
    }
    return 0;
}
