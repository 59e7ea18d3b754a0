// C benchmarks of libidgen (bench build, which adds idgen_bench_noop: a
// bare C-to-Go call). Each figure is the median of ROUNDS runs, and every
// ratio compares figures taken in this same run.
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idgen.h"

int idgen_bench_noop(void);

#define ROUNDS 7

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return v[n / 2];
}

static idgen_t *open_or_die(const char *config) {
    idgen_t *g;
    if (idgen_open(config, &g) != IDGEN_OK) {
        fprintf(stderr, "open %s: %s\n", config, idgen_last_error());
        exit(1);
    }
    return g;
}

/* ns per call of a bare call into Go */
static double noop_ns(long n) {
    double t = now_s();
    int acc = 0;
    for (long i = 0; i < n; i++)
        acc += idgen_bench_noop();
    double el = now_s() - t;
    if (acc != 0)
        abort();
    return el / (double)n * 1e9;
}

/* ns per call of idgen_next */
static double next_ns(idgen_t *g, long n) {
    double t = now_s();
    int64_t last = -1;
    for (long i = 0; i < n; i++) {
        int64_t id = idgen_next(g);
        if (id <= last)
            abort();
        last = id;
    }
    return (now_s() - t) / (double)n * 1e9;
}

/* ns per id of idgen_next_batch with batches of size b */
static double batch_ns(idgen_t *g, long total, size_t b, int64_t *buf) {
    double t = now_s();
    for (long done = 0; done < total; done += (long)b)
        if (idgen_next_batch(g, buf, b) != IDGEN_OK)
            abort();
    return (now_s() - t) / (double)total * 1e9;
}

/* Share of the layout's ceiling used over `secs` seconds: ids issued
 * divided by 4096 times the ticks from the first id's to the last's. */
static double tick_of(idgen_t *g, int64_t id) {
    idgen_parts p;
    if (idgen_decode_with(g, id, &p) != IDGEN_OK)
        abort();
    return (double)p.time;
}

static double rate_next(idgen_t *g, double secs) {
    long n = 0;
    int64_t first = idgen_next(g), last = first;
    double t = now_s();
    do {
        for (int i = 0; i < 4096; i++)
            if ((last = idgen_next(g)) < 0)
                abort();
        n += 4096;
    } while (now_s() - t < secs);
    return (double)(n + 1) / ((tick_of(g, last) - tick_of(g, first) + 1) * 4096.0);
}

static double rate_batch(idgen_t *g, double secs, size_t b, int64_t *buf) {
    long n = 0;
    int64_t first = -1;
    double t = now_s();
    do {
        if (idgen_next_batch(g, buf, b) != IDGEN_OK)
            abort();
        if (first < 0)
            first = buf[0];
        n += (long)b;
    } while (now_s() - t < secs);
    return (double)n / ((tick_of(g, buf[b - 1]) - tick_of(g, first) + 1) * 4096.0);
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    idgen_t *unc = open_or_die("layout=time:41,seq:22");
    idgen_t *sf = open_or_die("preset=snowflake");
    size_t bmax = 1 << 16;
    int64_t *buf = malloc(bmax * sizeof *buf);
    double v_noop[ROUNDS], v_next[ROUNDS], v_b4k[ROUNDS], v_b64k[ROUNDS], v_rn[ROUNDS], v_rb[ROUNDS];
    noop_ns(1000000), next_ns(unc, 1000000); /* warm up */
    for (int r = 0; r < ROUNDS; r++) {
        v_noop[r] = noop_ns(2000000);
        v_next[r] = next_ns(unc, 2000000);
        v_b4k[r] = batch_ns(unc, 1 << 22, 4096, buf);
        v_b64k[r] = batch_ns(unc, 1 << 22, 1 << 16, buf);
        v_rn[r] = rate_next(sf, secs);
        v_rb[r] = rate_batch(sf, secs, 4096, buf);
    }
    double noop = median(v_noop, ROUNDS), nx = median(v_next, ROUNDS);
    double b4k = median(v_b4k, ROUNDS), b64k = median(v_b64k, ROUNDS);
    double rn = median(v_rn, ROUNDS), rb = median(v_rb, ROUNDS);
    printf("C ABI (medians of %d rounds)\n", ROUNDS);
    printf("  %-58s %10.1f ns\n", "bare C->Go call (idgen_bench_noop)", noop);
    printf("  %-58s %10.1f ns   %.2fx bare call (target <= 1.5x)\n", "idgen_next, layout=time:41,seq:22", nx, nx / noop);
    printf("  %-58s %10.2f ns/id (target <= 2)\n", "idgen_next_batch x4096, layout=time:41,seq:22", b4k);
    printf("  %-58s %10.2f ns/id\n", "idgen_next_batch x65536, layout=time:41,seq:22", b64k);
    printf("  %-58s %10.2f %% of 4096 ids/ms (target >= 99%%)\n", "idgen_next, preset=snowflake, sustained", rn * 100);
    printf("  %-58s %10.2f %% of 4096 ids/ms (target >= 99%%)\n", "idgen_next_batch x4096, preset=snowflake, sustained", rb * 100);
    free(buf);
    idgen_close(unc);
    idgen_close(sf);
    return 0;
}
