// C benchmarks of libidgen (bench build, which adds idgen_bench_noop: a
// bare C-to-Go call). Each figure is the median of ROUNDS runs, and every
// ratio compares figures taken in this same run.
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

#define ROUNDS 7

/* ns per call of idgen_next_text */
static double text_ns(idgen_t *g, long n) {
    char buf[IDGEN_TEXT_MAX];
    double t = now_s();
    for (long i = 0; i < n; i++)
        if (idgen_next_text(g, buf, sizeof buf) <= 0)
            abort();
    return (now_s() - t) / (double)n * 1e9;
}

/* ns per id of idgen_next_batch with batches of size b */
static double batch_ns(idgen_t *g, long total, size_t b, int64_t *buf) {
    return batch_s(g, total, b, buf) / (double)total * 1e9;
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

/* Baidu's layout with the 29-bit fix: 8192 ids per second per worker. */
#define BAIDU29 "layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00"

static idgen_t *open_fmt(const char *fmt, int worker) {
    char cfg[256];
    snprintf(cfg, sizeof cfg, fmt, worker);
    return open_or_die(cfg);
}

enum { BURST = 32768, TAKES = 24576, ROUNDS2 = 2 * ROUNDS + 1 };

/* ns per call of idgen_next, checking only that none fails */
static double calls_ns(idgen_t *g, long n) {
    double t = now_s();
    for (long i = 0; i < n; i++)
        if (idgen_next(g) < 0)
            abort();
    return (now_s() - t) / (double)n * 1e9;
}

/* M ids/s of idgen_next_batch x4096 filling buf[0..BURST) */
static double burst_mps(idgen_t *g, int64_t *buf) {
    double t = now_s();
    for (int i = 0; i < BURST; i += 4096)
        if (idgen_next_batch(g, buf + i, 4096) != IDGEN_OK)
            abort();
    return BURST / (now_s() - t) / 1e6;
}

/* Classic baidu: the ids of one whole second of id time (the one after
 * the first id's), issued as fast as it lets. */
static double classic_in_second(void) {
    idgen_t *classic = open_or_die("preset=baidu " BAIDU29 " worker=500");
    idgen_parts p;
    int64_t id = idgen_next(classic);
    if (id < 0 || idgen_decode_with(classic, id, &p) != IDGEN_OK)
        abort();
    int64_t whole = p.time + 1, in_whole = 0;
    for (;;) {
        if ((id = idgen_next(classic)) < 0 || idgen_decode_with(classic, id, &p) != IDGEN_OK)
            abort();
        if (p.time > whole)
            break;
        in_whole += p.time == whole;
    }
    idgen_close(classic);
    return (double)in_whole;
}

/* baidu-cached and borrowing, side by side. Per call: from a filled ring
 * (65,536 ids), after a warm-up of 4096, 24,576 takes (too few to wake the
 * filler, so the take path alone) beside as many bare calls made right
 * before or after them, the order alternating by round. Bursts: batches of 4096 from a filled
 * ring, and from a fresh borrowing generator. Each round on workers of its
 * own; then the classic generator's capped rate. */
static void baidu_figures(void) {
    int64_t *buf = malloc(BURST * sizeof *buf);
    double v_call[ROUNDS2], v_bare[ROUNDS2], v_burst[ROUNDS2], v_bcall[ROUNDS2], v_bburst[ROUNDS2];
    struct timespec fill = {0, 100 * 1000 * 1000};
    for (int r = 0; r < ROUNDS2; r++) {
        idgen_t *c1 = open_fmt("preset=baidu-cached " BAIDU29 " worker=%d", 100 + r);
        idgen_t *c2 = open_fmt("preset=baidu-cached " BAIDU29 " worker=%d", 200 + r);
        idgen_t *b1 = open_fmt("preset=baidu " BAIDU29 " on_exhausted=borrow max_drift=8s worker=%d", 300 + r);
        idgen_t *b2 = open_fmt("preset=baidu " BAIDU29 " on_exhausted=borrow max_drift=8s worker=%d", 400 + r);
        nanosleep(&fill, NULL); /* the rings fill */
        for (int i = 0; i < 4096; i++) /* warm up: the core, the caches */
            if (idgen_next(c1) < 0 || idgen_bench_noop() != 0)
                abort();
        for (int k = 0; k < 2; k++) {
            if ((k + r) % 2 == 0)
                v_call[r] = calls_ns(c1, TAKES);
            else
                v_bare[r] = noop_ns(TAKES);
        }
        v_burst[r] = burst_mps(c2, buf);
        v_bcall[r] = calls_ns(b1, BURST);
        v_bburst[r] = burst_mps(b2, buf);
        idgen_close(c1), idgen_close(c2), idgen_close(b1), idgen_close(b2);
    }
    double classic_rate = classic_in_second();
    double call = median(v_call, ROUNDS2), bare = median(v_bare, ROUNDS2), burst = median(v_burst, ROUNDS2);
    printf("Baidu layout 29/21/13 (medians of %d rounds, each on a filled ring or a fresh generator)\n", ROUNDS2);
    printf("  %-58s %10.1f ns   %.2fx bare call (%.1f ns beside it) (target <= 1.25x) %s\n", "baidu-cached idgen_next, the take path", call, call / bare, bare, verdict(call / bare <= 1.25));
    printf("  %-58s %10.0f M ids/s (target >= 100) %s\n", "baidu-cached idgen_next_batch x4096, burst", burst, verdict(burst >= 100));
    printf("  %-58s %10.1f ns\n", "baidu on_exhausted=borrow max_drift=8s, idgen_next", median(v_bcall, ROUNDS2));
    printf("  %-58s %10.0f M ids/s\n", "baidu on_exhausted=borrow, idgen_next_batch x4096, burst", median(v_bburst, ROUNDS2));
    printf("  %-58s %10.0f ids (the layout's cap: 8192)\n", "baidu, no borrowing, idgen_next: ids in one whole second", classic_rate);
    printf("  (uid-generator's own claim for CachedUidGenerator: 6 M ids/s, their figure on their machine)\n");
    free(buf);
}

/* idgen_next with a lease beside the same layout with worker=0: renewal is
 * off the hot path, so the ratio should be ~1. With source = NULL it
 * measures the host lease in a fresh directory. Also the median time to
 * open (take a lease). */
static void lease_ratio(const char *name, const char *source) {
    char dir[] = "/tmp/idgen-bench-XXXXXX";
    char cfg[1024], fixed[128] = "layout=time:41,seq:22 worker=0";
    if (source == NULL) {
        if (!mkdtemp(dir))
            return;
        snprintf(cfg, sizeof cfg, "layout=time:41,seq:22 worker=lease lease_dir=%s", dir);
    } else {
        snprintf(cfg, sizeof cfg, "layout=time:41,worker:4,seq:18 worker=%s", source);
        snprintf(fixed, sizeof fixed, "layout=time:41,worker:4,seq:18 worker=0");
    }
    double v_open[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double t = now_s();
        idgen_t *g = open_or_die(cfg);
        v_open[r] = (now_s() - t) * 1e3;
        idgen_next(g);
        idgen_close(g);
    }
    idgen_t *leased = open_or_die(cfg), *zero = open_or_die(fixed);
    /* Many short alternating rounds: the two differ only by a lease, so
     * the ratio is ~1 and noise from the shared host dominates. */
    enum { LR = 21 };
    double v_l[LR], v_z[LR];
    next_ns(leased, 1000000), next_ns(zero, 1000000);
    for (int r = 0; r < LR; r++) {
        if (r & 1) {
            v_l[r] = next_ns(leased, 500000);
            v_z[r] = next_ns(zero, 500000);
        } else {
            v_z[r] = next_ns(zero, 500000);
            v_l[r] = next_ns(leased, 500000);
        }
    }
    double l = median(v_l, LR), z = median(v_z, LR), o = median(v_open, ROUNDS);
    char label[80];
    snprintf(label, sizeof label, "idgen_next, %s lease vs worker=0", name);
    printf("  %-58s %6.1f / %5.1f ns = %.3fx (target <= 1.05x) %s\n", label, l, z, l / z, verdict(l / z <= 1.05));
    snprintf(label, sizeof label, "idgen_open with a %s lease (median)", name);
    printf("  %-58s %10.2f ms\n", label, o);
    idgen_close(leased);
    idgen_close(zero);
    if (source == NULL)
        remove_scratch(dir);
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    idgen_t *unc = open_or_die("layout=time:41,seq:22 worker=0");
    idgen_t *runs = open_or_die("layout=time:41,seq:22 worker=0 runs=1024");
    idgen_t *sf = open_or_die("preset=snowflake worker=0");
    idgen_t *sfr = open_or_die("preset=snowflake worker=0 runs=1024");
    size_t bmax = 1 << 16;
    int64_t *buf = malloc(bmax * sizeof *buf);
    idgen_t *rq = open_or_die("preset=rocketmq");
    idgen_t *uu = open_or_die("preset=uuidv7"), *ul = open_or_die("preset=ulid");
    double v_text[ROUNDS], v_uuid[ROUNDS], v_ulid[ROUNDS];
    double v_noop[ROUNDS], v_next[ROUNDS], v_b4k[ROUNDS], v_b64k[ROUNDS], v_rn[ROUNDS], v_rb[ROUNDS];
    double v_runs[ROUNDS], v_rr[ROUNDS];
    noop_ns(1000000), next_ns(unc, 1000000); /* warm up */
    for (int r = 0; r < ROUNDS; r++) {
        v_noop[r] = noop_ns(2000000);
        v_next[r] = next_ns(unc, 2000000);
        v_runs[r] = next_ns(runs, 2000000);
        v_text[r] = text_ns(rq, 2000000);
        v_uuid[r] = text_ns(uu, 2000000);
        v_ulid[r] = text_ns(ul, 2000000);
        v_b4k[r] = batch_ns(unc, 1 << 22, 4096, buf);
        v_b64k[r] = batch_ns(unc, 1 << 22, 1 << 16, buf);
        v_rn[r] = rate_next(sf, secs);
        v_rb[r] = rate_batch(sf, secs, 4096, buf);
        v_rr[r] = rate_next(sfr, secs);
    }
    double noop = median(v_noop, ROUNDS), nx = median(v_next, ROUNDS);
    double tx = median(v_text, ROUNDS), ux = median(v_uuid, ROUNDS), lx = median(v_ulid, ROUNDS);
    double b4k = median(v_b4k, ROUNDS), b64k = median(v_b64k, ROUNDS);
    double rn = median(v_rn, ROUNDS), rb = median(v_rb, ROUNDS);
    double nr = median(v_runs, ROUNDS), rr = median(v_rr, ROUNDS);
    printf("C ABI (medians of %d rounds)\n", ROUNDS);
    printf("  %-58s %10.1f ns\n", "bare C->Go call (idgen_bench_noop)", noop);
    printf("  %-58s %10.1f ns   %.2fx bare call (target <= 1.5x) %s\n", "idgen_next, layout=time:41,seq:22", nx, nx / noop, verdict(nx / noop <= 1.5));
    printf("  %-58s %10.1f ns   %.2fx bare call (target <= 0.5x) %s; %.2fx idgen_next without runs\n",
           "idgen_next, layout=time:41,seq:22 runs=1024 (runs in C)", nr, nr / noop, verdict(nr / noop <= 0.5), nr / nx);
    printf("  %-58s %10.1f ns   %.2fx idgen_next (target <= 1.5x) %s\n", "idgen_next_text, preset=rocketmq", tx, tx / nx, verdict(tx / nx <= 1.5));
    printf("  %-58s %10.1f ns   %.2fx idgen_next (target <= 1.5x) %s\n", "idgen_next_text, preset=uuidv7", ux, ux / nx, verdict(ux / nx <= 1.5));
    printf("  %-58s %10.1f ns   %.2fx idgen_next\n", "idgen_next_text, preset=ulid", lx, lx / nx);
    printf("  %-58s %10.2f ns/id (target <= 2) %s\n", "idgen_next_batch x4096, layout=time:41,seq:22", b4k, verdict(b4k <= 2));
    printf("  %-58s %10.2f ns/id\n", "idgen_next_batch x65536, layout=time:41,seq:22", b64k);
    printf("  %-58s %10.2f %% of 4096 ids/ms (target >= 99%%) %s\n", "idgen_next, preset=snowflake, sustained", rn * 100, verdict(rn >= 0.99));
    printf("  %-58s %10.2f %% of 4096 ids/ms (target >= 99%%) %s\n", "idgen_next_batch x4096, preset=snowflake, sustained", rb * 100, verdict(rb >= 0.99));
    printf("  %-58s %10.2f %% of 4096 ids/ms\n", "idgen_next, preset=snowflake runs=1024, sustained", rr * 100);
    free(buf);
    idgen_close(unc), idgen_close(runs);
    idgen_close(sf), idgen_close(sfr);
    idgen_close(rq);
    idgen_close(uu);
    idgen_close(ul);
    baidu_figures();
    printf("Leases (medians of 21 alternating rounds; open: of %d)\n", ROUNDS);
    lease_ratio("host", NULL);
    if (getenv("IDGEN_BENCH_ZK"))
        lease_ratio("ZooKeeper", getenv("IDGEN_BENCH_ZK"));
    if (getenv("IDGEN_BENCH_PG"))
        lease_ratio("PostgreSQL", getenv("IDGEN_BENCH_PG"));
    if (getenv("IDGEN_BENCH_ETCD"))
        lease_ratio("etcd", getenv("IDGEN_BENCH_ETCD"));
    if (getenv("IDGEN_BENCH_MYSQL"))
        lease_ratio("MariaDB", getenv("IDGEN_BENCH_MYSQL"));
    if (getenv("IDGEN_BENCH_REDIS"))
        lease_ratio("Redis", getenv("IDGEN_BENCH_REDIS"));
    return 0;
}
