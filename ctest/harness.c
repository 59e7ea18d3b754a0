// The C harness: every function of idgen.h and every status code, through
// the built libidgen.so, from C11 with pthreads and a real fork.
// Prints "N passed, N failed" last; exits non-zero on any failure.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ctype.h>
#include "check.h"
#include "idgen.h"

static int contains(const char *s, const char *part) { return strstr(s, part) != NULL; }


static void test_version_and_strerror(void) {
    CHECK(strcmp(idgen_version(), IDGEN_VERSION_STRING) == 0, "version %s", idgen_version());
    int codes[] = {IDGEN_OK, IDGEN_EINVAL, IDGEN_ECLOCK, IDGEN_EOVERFLOW, IDGEN_ECLOSED,
                   IDGEN_EWORKER, IDGEN_ERANGE, IDGEN_EFORKED, IDGEN_EINTERNAL};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = idgen_strerror(codes[i]);
        CHECK(s != NULL && strlen(s) > 0 && strcmp(s, "unknown status") != 0, "strerror(%d)", codes[i]);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(s, idgen_strerror(codes[j])) != 0, "codes %d and %d share a text", codes[i], codes[j]);
    }
    CHECK(strcmp(idgen_strerror(12345), "unknown status") == 0, "unknown code");
    CHECK(idgen_last_error() != NULL, "last_error never NULL");
}

static void test_open_errors(void) {
    idgen_t *g = (idgen_t *)0x1;
    CHECK_RC(idgen_open("bogus=1", &g), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "bogus"), "message names the key: %s", idgen_last_error());
    CHECK(g == (idgen_t *)0x1, "out untouched on failure");
    CHECK_RC(idgen_open("worker=99", &g), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "worker"), "message names the key");
    CHECK_RC(idgen_open("layout=time:50,seq:20", &g), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "layout"), "message names the key");
    CHECK_RC(idgen_open("preset=snowflake", NULL), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "out"), "NULL out named");
    /* NULL and "" are the defaults: a host lease, never an unleased fixed 0. */
    idgen_t *d1 = must_open(NULL), *d2 = must_open("");
    CHECK(idgen_next(d1) >= 0 && idgen_next(d2) >= 0, "NULL and empty config are the defaults");
    CHECK(d1 != d2, "distinct handles");
    char c1[512] = "", c2[512] = "";
    CHECK_RC(idgen_config_string(d1, c1, sizeof c1), IDGEN_OK);
    CHECK_RC(idgen_config_string(d2, c2, sizeof c2), IDGEN_OK);
    CHECK(contains(c1, "worker=lease") && contains(c1, "leased=") && contains(c2, "worker=lease"), "defaults lease: %s", c1);
    CHECK(strcmp(c1, c2) != 0, "two default generators hold two pairs: %s / %s", c1, c2);
    idgen_close(d1);
    idgen_close(d2);
}

static void test_handles(void) {
    idgen_t *g = must_open("preset=snowflake worker=1");
    int64_t a = idgen_next(g), b = idgen_next(g);
    CHECK(a >= 0 && b > a, "increasing %" PRId64 " %" PRId64, a, b);
    idgen_close(g);
    CHECK_RC(idgen_next(g), IDGEN_ECLOSED);
    CHECK(contains(idgen_last_error(), "closed"), "message says closed");
    int64_t buf[4] = {0};
    CHECK_RC(idgen_next_batch(g, buf, 4), IDGEN_ECLOSED);
    idgen_parts p;
    CHECK_RC(idgen_decode_with(g, a, &p), IDGEN_ECLOSED);
    char s[64];
    CHECK_RC(idgen_config_string(g, s, sizeof s), IDGEN_ECLOSED);
    idgen_close(g); /* twice: harmless */
    idgen_close(NULL);
    idgen_t *fake = (idgen_t *)(uintptr_t)0xdeadbeef12345ULL;
    CHECK_RC(idgen_next(fake), IDGEN_ECLOSED);
    idgen_close(fake);
    CHECK_RC(idgen_next(NULL), IDGEN_EINVAL);
    /* Tokens are never reused: a new generator never answers to an old token. */
    idgen_t *h = must_open("worker=2 datacenter=0");
    CHECK(h != g, "token reused");
    CHECK_RC(idgen_next(g), IDGEN_ECLOSED);
    idgen_close(h);
}

static void test_batch(void) {
    idgen_t *g = must_open("preset=snowflake worker=0");
    CHECK_RC(idgen_next_batch(g, NULL, 0), IDGEN_OK);
    CHECK_RC(idgen_next_batch(g, NULL, 5), IDGEN_EINVAL);
    size_t n = 10000;
    int64_t *buf = calloc(n, sizeof *buf);
    CHECK_RC(idgen_next_batch(g, buf, n), IDGEN_OK);
    int ok = 1;
    for (size_t i = 1; i < n; i++)
        ok &= buf[i] > buf[i - 1];
    CHECK(ok && buf[0] >= 0, "batch strictly increasing");
    CHECK(idgen_next(g) > buf[n - 1], "next after batch is larger");
    free(buf);
    idgen_close(g);
}

static void test_decode_compose(void) {
    idgen_t *g = must_open("preset=snowflake worker=0");
    idgen_parts p;
    CHECK_RC(idgen_decode_with(g, 910499571847892992LL, &p), IDGEN_OK);
    CHECK(p.id == 910499571847892992LL && p.unix_ms == 1505914988849LL && p.datacenter == 17 &&
              p.worker == 25 && p.sequence == 0 && p.epoch == -1 && p.time == 1505914988849LL - 1288834974657LL,
          "seed 004's example decodes");
    int64_t out = 0;
    idgen_parts in = {.id = 0, .unix_ms = 1505914988849LL, .time = -1, .epoch = -1, .datacenter = 17, .worker = 25, .sequence = 0};
    CHECK_RC(idgen_compose(g, &in, &out), IDGEN_OK);
    CHECK(out == 910499571847892992LL, "compose gives %" PRId64, out);
    CHECK_RC(idgen_decode_with(g, -5, &p), IDGEN_EINVAL);
    CHECK_RC(idgen_decode_with(g, 1, NULL), IDGEN_EINVAL);
    CHECK_RC(idgen_compose(g, NULL, &out), IDGEN_EINVAL);
    CHECK_RC(idgen_compose(g, &in, NULL), IDGEN_EINVAL);
    in.worker = 32;
    out = 42;
    CHECK_RC(idgen_compose(g, &in, &out), IDGEN_ERANGE);
    CHECK(out == 42, "output untouched on failure");
    CHECK(contains(idgen_last_error(), "worker"), "names the field");
    in.worker = 1;
    in.epoch = 7;
    CHECK_RC(idgen_compose(g, &in, &out), IDGEN_EINVAL);
    idgen_close(g);

    idgen_t *z = must_open("preset=zxid zxid_epoch=3 worker=0");
    CHECK(idgen_next(z) == (3LL << 32), "first zxid of epoch 3");
    CHECK_RC(idgen_decode_with(z, (5LL << 32) | 9, &p), IDGEN_OK);
    CHECK(p.epoch == 5 && p.sequence == 9 && p.unix_ms == -1 && p.time == -1 && p.worker == -1, "zxid fields");
    idgen_close(z);

    idgen_t *s = must_open("preset=zk-session worker=7");
    int64_t sid = idgen_next(s);
    CHECK_RC(idgen_decode_with(s, sid, &p), IDGEN_OK);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    CHECK(p.worker == 7 && llabs(p.unix_ms - now_ms) < 5000 && (sid >> 56) == 7, "session id of worker 7 at now");
    idgen_close(s);
}

static void test_config_string(void) {
    idgen_t *g = must_open("preset=leaf worker=12");
    char small[8];
    memset(small, 'x', sizeof small);
    CHECK_RC(idgen_config_string(g, small, sizeof small), IDGEN_ERANGE);
    CHECK(small[0] == 'x', "buffer untouched when too small");
    CHECK(contains(idgen_last_error(), "needed"), "says how much is needed");
    CHECK_RC(idgen_config_string(g, NULL, 100), IDGEN_EINVAL);
    char buf[512];
    CHECK_RC(idgen_config_string(g, buf, sizeof buf), IDGEN_OK);
    CHECK(contains(buf, "preset=leaf") && contains(buf, "worker=12") && contains(buf, "seq_start=random:100"), "%s", buf);
    /* The exact size fits. */
    char *exact = malloc(strlen(buf) + 1);
    CHECK_RC(idgen_config_string(g, exact, strlen(buf) + 1), IDGEN_OK);
    CHECK_RC(idgen_config_string(g, exact, strlen(buf)), IDGEN_ERANGE);
    /* Opening the printed config gives the same configuration. */
    idgen_t *g2 = must_open(buf);
    char buf2[512];
    CHECK_RC(idgen_config_string(g2, buf2, sizeof buf2), IDGEN_OK);
    CHECK(strcmp(buf, buf2) == 0, "round trip: %s vs %s", buf, buf2);
    free(exact);
    idgen_close(g2);
    idgen_close(g);

    /* A leased generator's string keeps its source: reopening it leases
     * again (another pair while the first is held), never reuses the pair. */
    char dir[] = "/tmp/idgen-ctest-cfg-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char config[256];
    snprintf(config, sizeof config, "preset=snowflake lease_dir=%s", dir);
    idgen_t *l1 = must_open(config);
    char s1[512], s2[512];
    CHECK_RC(idgen_config_string(l1, s1, sizeof s1), IDGEN_OK);
    CHECK(contains(s1, "worker=lease") && contains(s1, "leased=0/0"), "%s", s1);
    idgen_t *l2 = must_open(s1);
    CHECK_RC(idgen_config_string(l2, s2, sizeof s2), IDGEN_OK);
    CHECK(contains(s2, "leased=0/1"), "reopening leases another pair: %s", s2);
    idgen_close(l2);
    idgen_close(l1);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

/* zxid in its last epoch: EOVERFLOW (it once answered ECLOSED), and
 * close still releases the lease. */
static void test_zxid_last_epoch(void) {
    char dir[] = "/tmp/idgen-ctest-zxid-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char config[256];
    snprintf(config, sizeof config, "preset=zxid zxid_epoch=2147483647 lease_dir=%s", dir);
    idgen_t *g = must_open(config);
    int64_t buf[2];
    CHECK_RC(idgen_next_batch(g, buf, 2), IDGEN_OK);
    CHECK(buf[0] == (INT64_C(2147483647) << 32), "first zxid of the last epoch");
    int64_t big[1000];
    int rc = IDGEN_OK;
    for (int i = 0; i < 5000 && rc == IDGEN_OK; i++)
        rc = idgen_next_batch(g, big, 1000);
    CHECK(rc == IDGEN_OK, "still in the epoch");
    int64_t *rest = malloc(sizeof(int64_t) * 1000000);
    rc = IDGEN_OK;
    while (rc == IDGEN_OK)
        rc = idgen_next_batch(g, rest, 1000000);
    free(rest);
    CHECK(rc == IDGEN_EOVERFLOW, "the last epoch runs out with EOVERFLOW, got %d: %s", rc, idgen_last_error());
    CHECK_RC(idgen_next(g), IDGEN_EOVERFLOW);
    idgen_close(g);
    snprintf(config, sizeof config, "preset=zxid lease_dir=%s", dir);
    idgen_t *h = NULL;
    CHECK_RC(idgen_open(config, &h), IDGEN_EOVERFLOW); /* the lease was released: its record says the epochs are used up */
    CHECK(contains(idgen_last_error(), "epochs are used up"), "%s", idgen_last_error());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

struct race_arg {
    idgen_t *g;
    int bad;
};

static void *race_next(void *p) {
    struct race_arg *a = p;
    for (int i = 0; i < 200000; i++) {
        int64_t v = idgen_next(a->g);
        if (v < 0 && v != IDGEN_ECLOSED)
            a->bad = (int)v;
        if (v == IDGEN_ECLOSED)
            break;
    }
    return NULL;
}

static volatile int reconf_stop;

static void *reconfigure(void *p) {
    (void)p;
    int i = 0;
    while (!reconf_stop)
        idgen_configure((i++ & 1) ? "preset=snowflake worker=3" : "preset=snowflake worker=4");
    return NULL;
}

/* Calls racing idgen_close on a lease-holding handle get ECLOSED or an id,
 * never EWORKER; idgen_configure in a loop never makes idgen_next_id fail. */
static void test_races(void) {
    char dir[] = "/tmp/idgen-ctest-race-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char config[256];
    snprintf(config, sizeof config, "preset=snowflake worker=lease lease_dir=%s", dir);
    for (int round = 0; round < 20; round++) {
        struct race_arg a[2] = {{must_open(config), 0}, {NULL, 0}};
        a[1].g = a[0].g;
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, race_next, &a[i]);
        usleep(200 * (round + 1));
        idgen_close(a[0].g);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        CHECK(a[0].bad == 0 && a[1].bad == 0, "racing close: got %d / %d", a[0].bad, a[1].bad);
    }
    pthread_t rt;
    reconf_stop = 0;
    pthread_create(&rt, NULL, reconfigure, NULL);
    int fails = 0, last = 0;
    for (int i = 0; i < 300000; i++) {
        int64_t v = idgen_next_id();
        if (v < 0) {
            fails++;
            last = (int)v;
        }
    }
    reconf_stop = 1;
    pthread_join(rt, NULL);
    CHECK(fails == 0, "next_id racing configure failed %d times (last %d: %s)", fails, last, idgen_last_error());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

static void test_default_generator(void) {
    CHECK_RC(idgen_configure("preset=nope"), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "preset"), "names the key");
    CHECK_RC(idgen_configure("preset=snowflake datacenter=2 worker=3"), IDGEN_OK);
    int64_t id = idgen_next_id();
    CHECK(id >= 0, "next_id");
    idgen_parts p;
    CHECK_RC(idgen_decode(id, &p), IDGEN_OK);
    CHECK(p.datacenter == 2 && p.worker == 3, "default generator's fields");
    CHECK_RC(idgen_decode(id, NULL), IDGEN_EINVAL);
    int64_t buf[100];
    CHECK_RC(idgen_next_ids(buf, 100), IDGEN_OK);
    CHECK(buf[0] > id && buf[99] > buf[0], "next_ids increasing");
    CHECK_RC(idgen_next_ids(NULL, 3), IDGEN_EINVAL);
    CHECK_RC(idgen_next_ids(NULL, 0), IDGEN_OK);
    CHECK_RC(idgen_configure("preset=baidu worker=0"), IDGEN_OK);
    CHECK_RC(idgen_next_id(), IDGEN_EOVERFLOW);
    CHECK(contains(idgen_last_error(), "2024-11-20"), "says when Baidu's bits ran out: %s", idgen_last_error());
    CHECK_RC(idgen_next_ids(buf, 2), IDGEN_EOVERFLOW);
    CHECK_RC(idgen_configure("preset=snowflake worker=1"), IDGEN_OK);
    CHECK(idgen_next_id() >= 0, "reconfigured");
}

static void test_text(void) {
    char buf[80];
    CHECK_RC(idgen_format(910499571847892992LL, 62, 1, buf, sizeof buf), IDGEN_OK);
    CHECK(strcmp(buf, "15G63YLn9Ae") == 0, "base62 %s", buf);
    CHECK_RC(idgen_format(35, 36, 1, buf, sizeof buf), IDGEN_OK);
    CHECK(strcmp(buf, "000000000000z") == 0 && strlen(buf) == 13, "fixed base36 %s", buf);
    CHECK_RC(idgen_format(INT64_MAX, 2, 0, buf, sizeof buf), IDGEN_OK);
    CHECK(strlen(buf) == 63, "base 2 max");
    char tiny[4] = "abc";
    CHECK_RC(idgen_format(123456, 10, 0, tiny, sizeof tiny), IDGEN_ERANGE);
    CHECK(strcmp(tiny, "abc") == 0, "untouched");
    CHECK_RC(idgen_format(123, 10, 0, tiny, sizeof tiny), IDGEN_OK);
    CHECK(strcmp(tiny, "123") == 0, "exact fit");
    CHECK_RC(idgen_format(1, 1, 0, buf, sizeof buf), IDGEN_EINVAL);
    CHECK_RC(idgen_format(1, 63, 0, buf, sizeof buf), IDGEN_EINVAL);
    CHECK_RC(idgen_format(-1, 10, 0, buf, sizeof buf), IDGEN_EINVAL);
    CHECK_RC(idgen_format(1, 10, 0, NULL, 10), IDGEN_EINVAL);
    int64_t v = 0;
    CHECK_RC(idgen_parse("15G63YLn9Ae", 62, &v), IDGEN_OK);
    CHECK(v == 910499571847892992LL, "parse base62");
    CHECK_RC(idgen_parse("000000000000z", 36, &v), IDGEN_OK);
    CHECK(v == 35, "parse fixed");
    v = 7;
    CHECK_RC(idgen_parse("", 62, &v), IDGEN_EINVAL);
    CHECK_RC(idgen_parse("12#4", 10, &v), IDGEN_EINVAL);
    CHECK_RC(idgen_parse("ZZ", 36, &v), IDGEN_EINVAL);
    CHECK_RC(idgen_parse("9223372036854775808", 10, &v), IDGEN_ERANGE);
    CHECK_RC(idgen_parse(NULL, 10, &v), IDGEN_EINVAL);
    CHECK_RC(idgen_parse("1", 10, NULL), IDGEN_EINVAL);
    CHECK_RC(idgen_parse("1", 99, &v), IDGEN_EINVAL);
    CHECK(v == 7, "untouched on failure");
    char garbage[300];
    for (int i = 0; i < 299; i++)
        garbage[i] = (char)(1 + (i * 37) % 255);
    garbage[299] = 0;
    CHECK_RC(idgen_parse(garbage, 62, &v), IDGEN_EINVAL);
}

/* ---- leases: IDGEN_EWORKER and IDGEN_ECLOCK ------------------------------ */


static void test_leases(void) {
    char dir[] = "/tmp/idgen-ctest-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char config[256];
    idgen_t *g;
    CHECK_RC(idgen_open("worker=lease lease_dir=/nonexistent/idgen", &g), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "lease_dir") && contains(idgen_last_error(), "/nonexistent/idgen"),
          "names the key and the path: %s", idgen_last_error());

    snprintf(config, sizeof config, "preset=snowflake worker=lease lease_dir=%s", dir);
    idgen_t *a = must_open(config), *b = must_open(config);
    idgen_parts pa, pb;
    idgen_decode_with(a, idgen_next(a), &pa);
    idgen_decode_with(b, idgen_next(b), &pb);
    CHECK(pa.worker * 32 + pa.datacenter != pb.worker * 32 + pb.datacenter, "two leases differ");
    idgen_close(a);
    idgen_close(b);

    /* A record far ahead of the clock (the clock was set back): the next
     * holder waits max_wait, then ECLOCK naming both times. A garbage
     * record is never read as fresh. */
    char path[512];
    CHECK(find_lease_file(dir, path, sizeof path), "lease file exists under %s", dir);
    snprintf(config, sizeof config, "layout=time:41,seq:22 worker=lease lease_dir=%s", dir);
    idgen_t *one = must_open(config);
    idgen_next(one);
    idgen_close(one);
    char fresh[512];
    DIR *dd = opendir(dir);
    struct dirent *e;
    fresh[0] = 0;
    while (dd && (e = readdir(dd)) != NULL)
        if (strncmp(e->d_name, "time_time41-seq22", 17) == 0)
            snprintf(fresh, sizeof fresh, "%s/%s", dir, e->d_name);
    if (dd)
        closedir(dd);
    FILE *f = fopen(fresh, "r+");
    CHECK(f != NULL, "open %s", fresh);
    if (f) {
        char rec[64] = "";
        CHECK(fgets(rec, sizeof rec, f) != NULL && strncmp(rec, "idgen-lease 2 ", 14) == 0, "record format: %s", rec);
        rewind(f);
        fputs("idgen-lease 1 garbage garbage garbage\n", f);
        fclose(f);
    }
    snprintf(config, sizeof config, "layout=time:41,seq:22 worker=lease lease_dir=%s max_wait=50ms", dir);
    CHECK_RC(idgen_open(config, &g), IDGEN_EWORKER);
    CHECK(contains(idgen_last_error(), "checksum") && contains(idgen_last_error(), fresh), "names the file: %s", idgen_last_error());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

/* ---- threads ---------------------------------------------------------- */

#define THREADS 4
#define PER_THREAD 1000000

struct worker_arg {
    idgen_t *g;
    int64_t *ids;
    int ok;
};

static void *worker(void *p) {
    struct worker_arg *a = p;
    a->ok = 1;
    size_t i = 0;
    while (i < PER_THREAD) {
        if (i % 100000 == 50000 && i + 1000 <= PER_THREAD) {
            if (idgen_next_batch(a->g, a->ids + i, 1000) != IDGEN_OK)
                a->ok = 0;
            i += 1000;
            continue;
        }
        int64_t id = idgen_next(a->g);
        if (id < 0)
            a->ok = 0;
        a->ids[i++] = id;
    }
    for (i = 1; i < PER_THREAD; i++)
        if (a->ids[i] <= a->ids[i - 1])
            a->ok = 0;
    return NULL;
}

static int cmp64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static volatile int churn_stop;

static void *churn(void *p) {
    (void)p;
    /* Opens and closes handles while others work: the registry must cope,
     * and calls on the just-closed handles fail cleanly. */
    while (!churn_stop) {
        idgen_t *g = NULL;
        if (idgen_open("layout=time:41,seq:22 worker=0", &g) != IDGEN_OK)
            continue;
        idgen_next(g);
        idgen_close(g);
        if (idgen_next(g) != IDGEN_ECLOSED)
            abort();
    }
    return NULL;
}

static void test_threads(void) {
    idgen_t *g = must_open("preset=snowflake worker=5");
    pthread_t th[THREADS], ch;
    struct worker_arg args[THREADS];
    int64_t *all = malloc(sizeof(int64_t) * THREADS * PER_THREAD);
    pthread_create(&ch, NULL, churn, NULL);
    for (int i = 0; i < THREADS; i++) {
        args[i].g = g;
        args[i].ids = all + (size_t)i * PER_THREAD;
        pthread_create(&th[i], NULL, worker, &args[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK(args[i].ok, "thread %d: ids valid and increasing", i);
    }
    churn_stop = 1;
    pthread_join(ch, NULL);
    qsort(all, (size_t)THREADS * PER_THREAD, sizeof(int64_t), cmp64);
    size_t dups = 0;
    for (size_t i = 1; i < (size_t)THREADS * PER_THREAD; i++)
        dups += all[i] == all[i - 1];
    CHECK(dups == 0, "%zu duplicates among %d ids", dups, THREADS * PER_THREAD);
    free(all);
    idgen_close(g);
}

/* ---- fork ------------------------------------------------------------- */

static void test_fork(void) {
    idgen_t *g = must_open("preset=snowflake worker=9");
    int64_t before = idgen_next(g);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(5); /* a hang kills the child, which the parent sees */
        int code = 0;
        if (idgen_next(g) != IDGEN_EFORKED)
            code |= 1;
        if (!strstr(idgen_last_error(), "fork"))
            code |= 2;
        idgen_t *h;
        if (idgen_open(NULL, &h) != IDGEN_EFORKED)
            code |= 4;
        if (idgen_next_id() != IDGEN_EFORKED)
            code |= 8;
        int64_t v;
        if (idgen_parse("1", 10, &v) != IDGEN_EFORKED)
            code |= 16;
        idgen_close(g); /* harmless */
        if (strcmp(idgen_version(), IDGEN_VERSION_STRING) != 0)
            code |= 32;
        _exit(code);
    }
    CHECK(pid > 0, "fork");
    int status = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t done = 0;
    for (;;) {
        done = waitpid(pid, &status, WNOHANG);
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
        if (done != 0 || el > 1.0)
            break;
        usleep(1000);
    }
    CHECK(done == pid, "the child answered within a second");
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: every call said IDGEN_EFORKED (status %d)", status);
    int64_t after = idgen_next(g);
    CHECK(after > before, "the parent still works");
    idgen_close(g);
}

/* The rollback and ring keys: bad values name the key. */
static void test_rollback_keys(void) {
    struct {
        const char *cfg, *key;
    } bad[] = {
        {"layout=time:41,backwards:0,worker:8,seq:12 worker=1", "layout"},
        {"layout=time:41,backwards:5,worker:8,seq:12 worker=1", "layout"},
        {"preset=snowflake worker=1 clock=wall on_clock_back=switch", "on_clock_back"},
        {"preset=baidu-cached worker=1 boost=-1", "boost"},
        {"preset=baidu-cached worker=1 padding=150", "padding"},
        {"preset=snowflake worker=1 boost=2", "boost"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        idgen_t *g = NULL;
        CHECK_RC(idgen_open(bad[i].cfg, &g), IDGEN_EINVAL);
        CHECK(strncmp(idgen_last_error(), bad[i].key, strlen(bad[i].key)) == 0, "%s: %s", bad[i].cfg, idgen_last_error());
    }
    idgen_t *g = must_open("layout=time:41,backwards:2,worker:8,seq:12 worker=3");
    idgen_parts in = {0, -1, 5, 3, -1, 3, 9}, out;
    int64_t id = 0;
    CHECK_RC(idgen_compose(g, &in, &id), IDGEN_OK);
    CHECK_RC(idgen_decode_with(g, id, &out), IDGEN_OK);
    CHECK(out.epoch == 3 && out.time == 5 && out.worker == 3 && out.sequence == 9, "backwards round trip: epoch %" PRId64, out.epoch);
    CHECK(idgen_next(g) >= 0, "issues");
    idgen_close(g);
    idgen_t *c = must_open("preset=baidu-cached layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00 worker=9");
    int64_t ids[5000];
    CHECK_RC(idgen_next_batch(c, ids, 5000), IDGEN_OK);
    int ok = 1;
    for (int i = 1; i < 5000; i++)
        ok &= ids[i] > ids[i - 1];
    CHECK(ok && idgen_next(c) > ids[4999], "baidu-cached: increasing");
    idgen_close(c);
    idgen_t *old = must_open("preset=baidu-cached worker=9");
    CHECK_RC(idgen_next(old), IDGEN_EOVERFLOW);
    idgen_close(old);
}

/* Text ids: idgen_next_text / idgen_decode_text. */
static void test_text_ids(void) {
    idgen_t *r = must_open("preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC");
    char buf[64];
    memset(buf, 'x', sizeof buf);
    int n = idgen_next_text(r, buf, sizeof buf);
    CHECK(n == 32 && buf[32] == '\0' && strlen(buf) == 32, "rocketmq text of 32 chars and a NUL: %d %s", n, buf);
    CHECK(strncmp(buf, "0A010203123412345678", 20) == 0, "fixed part: %s", buf);
    idgen_text_parts tp;
    memset(&tp, 0x55, sizeof tp);
    CHECK_RC(idgen_decode_text(r, buf, &tp), IDGEN_OK);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    CHECK(tp.id == -1 && tp.pid == 4660 && tp.loader_hash == 305419896 && tp.addr_len == 4 &&
              tp.addr[0] == 10 && tp.addr[3] == 3 && tp.sequence == 0 && llabs(tp.unix_ms - now_ms) < 2000,
          "decoded: id %" PRId64 " pid %" PRId64 " hash %" PRId64 " len %d seq %" PRId64 " ms %" PRId64, tp.id, tp.pid,
          tp.loader_hash, tp.addr_len, tp.sequence, tp.unix_ms);

    /* cap: exactly the length + NUL works; one less is ERANGE and consumes nothing. */
    char small[33];
    memset(small, 'x', sizeof small);
    CHECK_RC(idgen_next_text(r, small, 32), IDGEN_ERANGE);
    CHECK(small[0] == 'x', "buffer untouched when too small");
    CHECK(contains(idgen_last_error(), "nothing was consumed"), "%s", idgen_last_error());
    CHECK_RC(idgen_next_text(r, small, 33), 32);
    CHECK_RC(idgen_decode_text(r, small, &tp), IDGEN_OK);
    CHECK(tp.sequence == 1, "the ERANGE call consumed no counter value: %" PRId64, tp.sequence);
    CHECK_RC(idgen_next_text(r, NULL, 64), IDGEN_EINVAL);
    CHECK_RC(idgen_next_text(NULL, buf, sizeof buf), IDGEN_EINVAL);

    /* A text preset makes no numbers. */
    CHECK_RC(idgen_next(r), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "idgen_next_text"), "%s", idgen_last_error());
    int64_t ids[2];
    CHECK_RC(idgen_next_batch(r, ids, 2), IDGEN_EINVAL);

    /* Garbage to the decoder. */
    const char *bad[] = {"", "xyz", "0A010203123412345678", "0A0102031234123456780000000000000", " A010203123412345678000000000000",
                         "0x010203123412345678000000000000", "-A010203123412345678000000000000",
                         "0A01020312341234567800000000000G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&tp, 0x55, sizeof tp);
        CHECK_RC(idgen_decode_text(r, bad[i], &tp), IDGEN_EINVAL);
        CHECK(tp.id == 0x5555555555555555LL, "out untouched for %s", bad[i]);
    }
    CHECK_RC(idgen_decode_text(r, NULL, &tp), IDGEN_EINVAL);
    CHECK_RC(idgen_decode_text(r, buf, NULL), IDGEN_EINVAL);
    char lower[64];
    for (int i = 0; i <= 32; i++)
        lower[i] = (char)tolower((unsigned char)buf[i]);
    CHECK_RC(idgen_decode_text(r, lower, &tp), IDGEN_OK);
    char huge[5000];
    memset(huge, 'A', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    CHECK_RC(idgen_decode_text(r, huge, &tp), IDGEN_EINVAL);
    idgen_close(r);
    CHECK_RC(idgen_next_text(r, buf, sizeof buf), IDGEN_ECLOSED);
    CHECK_RC(idgen_decode_text(r, lower, &tp), IDGEN_ECLOSED);

    idgen_t *v1 = must_open("preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=70000");
    CHECK_RC(idgen_next_text(v1, buf, 34), IDGEN_ERANGE);
    CHECK_RC(idgen_next_text(v1, buf, 35), 34);
    CHECK(strncmp(buf, "0102FC000000011170", 18) == 0, "v1: %s", buf);
    CHECK_RC(idgen_decode_text(v1, buf, &tp), IDGEN_OK);
    CHECK(tp.addr_len == 6 && tp.addr[1] == 0xfc && tp.pid == 0x1170 && tp.loader_hash == -1 &&
              llabs(tp.unix_ms - now_ms) < 3000,
          "v1 decoded");
    buf[1] = '2';
    CHECK_RC(idgen_decode_text(v1, buf, &tp), IDGEN_EINVAL);
    idgen_close(v1);

    /* Numeric presets in their text= form. */
    idgen_t *s = must_open("preset=snowflake worker=1 text=base62");
    CHECK_RC(idgen_next_text(s, buf, 11), IDGEN_ERANGE);
    CHECK_RC(idgen_next_text(s, buf, 12), 11);
    int64_t v = 0;
    CHECK_RC(idgen_parse(buf, 62, &v), IDGEN_OK);
    CHECK_RC(idgen_decode_text(s, buf, &tp), IDGEN_OK);
    CHECK(tp.id == v && v > 0 && tp.pid == -1 && tp.addr_len == 0 && llabs(tp.unix_ms - now_ms) < 2000, "base62 decode");
    CHECK(idgen_next(s) > v, "the numeric call goes on after the text one");
    idgen_close(s);
    idgen_t *d = must_open("preset=snowflake worker=1");
    CHECK_RC(idgen_next_text(d, buf, 19), IDGEN_ERANGE);
    n = idgen_next_text(d, buf, 20);
    CHECK(n > 0 && (size_t)n == strlen(buf), "dec text %d %s", n, buf);
    CHECK(strtoll(buf, NULL, 10) > 0, "dec is decimal: %s", buf);
    CHECK_RC(idgen_decode_text(d, "+1", &tp), IDGEN_EINVAL);
    CHECK_RC(idgen_decode_text(d, "01", &tp), IDGEN_EINVAL);
    idgen_close(d);

    idgen_t *x = NULL;
    CHECK_RC(idgen_open("preset=snowflake ip=10.0.0.1", &x), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "ip"), "%s", idgen_last_error());
    CHECK_RC(idgen_open("preset=rocketmq text=dec", &x), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "text"), "%s", idgen_last_error());
}

/* Fuzz the text decoders: random bytes and mutations of real ids never
   crash, always give OK or EINVAL, and a valid decode leaves sane fields. */
static void test_text_fuzz(void) {
    const char *cfgs[] = {"preset=rocketmq ip=fd00::2 pid=1 loader_hash=2", "preset=rocketmq-v1 mac=02:00:00:00:00:01 pid=1",
                          "preset=snowflake worker=1 text=base36", "preset=snowflake worker=1"};
    unsigned seed = 12345;
    int bad = 0;
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        idgen_t *g = must_open(cfgs[c]);
        char good[64], t[80];
        int n = idgen_next_text(g, good, sizeof good);
        CHECK(n > 0, "%s", cfgs[c]);
        for (int i = 0; i < 20000; i++) {
            int len;
            if (i % 2) {
                memcpy(t, good, (size_t)n + 1);
                len = n;
                int pos = (int)(rand_r(&seed) % (unsigned)n);
                t[pos] = (char)(1 + rand_r(&seed) % 255);
                if (i % 7 == 0)
                    t[n - 1 - (int)(rand_r(&seed) % 3)] = '\0';
            } else {
                len = (int)(rand_r(&seed) % 70);
                for (int k = 0; k < len; k++)
                    t[k] = (char)(1 + rand_r(&seed) % 255);
                t[len] = '\0';
            }
            idgen_text_parts p;
            int rc = idgen_decode_text(g, t, &p);
            if (rc != IDGEN_OK && rc != IDGEN_EINVAL)
                bad++;
            if (rc == IDGEN_OK && !(p.addr_len == 0 || p.addr_len == 4 || p.addr_len == 6 || p.addr_len == 16))
                bad++;
        }
        idgen_close(g);
    }
    CHECK(bad == 0, "text decoder fuzz: %d bad results", bad);
}

/* Found by fuzzing the C ABI (issue 27): bad input is IDGEN_EINVAL naming
 * the key, never IDGEN_EINTERNAL (a Go panic), never a leaked lease, and a
 * config string never reports what did not happen. */
/* idgen_get_stats: a fixed worker has no lease; a leased one is HELD with
 * its pair, a fence ahead of the clock and one lease taken; a smaller size
 * leaves the rest of the caller's struct alone; NULL and closed handles
 * are clean errors. */
static void test_stats(void) {
    char dir[] = "/tmp/idgen-stats-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    idgen_t *g = must_open("preset=snowflake worker=3 datacenter=1");
    idgen_stats st;
    memset(&st, 0x55, sizeof st);
    CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_OK);
    CHECK(st.lease_state == IDGEN_LEASE_NONE && st.worker == 3 && st.datacenter == 1, "fixed: state %" PRId64 " pair %" PRId64 "/%" PRId64, st.lease_state, st.datacenter, st.worker);
    CHECK(st.fence_unix_ms == -1 && st.leases_taken == 0 && st.issued == 0, "fixed: fence %" PRId64, st.fence_unix_ms);
    int64_t ids[100];
    CHECK_RC(idgen_next_batch(g, ids, 100), IDGEN_OK);
    CHECK(idgen_next(g) > ids[99], "next after the batch");
    CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_OK);
    CHECK(st.issued >= 101, "issued %" PRId64, st.issued);
    CHECK_RC(idgen_get_stats(g, NULL, sizeof st), IDGEN_EINVAL);
    idgen_close(g);
    CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_ECLOSED);

    char cfg[256];
    snprintf(cfg, sizeof cfg, "preset=snowflake worker=lease lease_dir=%s", dir);
    g = must_open(cfg);
    int64_t before = (int64_t)time(NULL) * 1000;
    memset(&st, 0x55, sizeof st);
    CHECK_RC(idgen_get_stats(g, &st, offsetof(idgen_stats, worker)), IDGEN_OK);
    CHECK(st.lease_state == IDGEN_LEASE_HELD && st.datacenter == 0, "leased: state %" PRId64, st.lease_state);
    CHECK(st.worker == 0x5555555555555555LL, "bytes past size are untouched");
    CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_OK);
    CHECK(st.leases_taken == 1 && st.worker == 0, "leased: taken %" PRId64 " worker %" PRId64, st.leases_taken, st.worker);
    CHECK(st.fence_unix_ms > before && st.fence_unix_ms < before + 5000, "fence %" PRId64 " ~ now + max_outage", st.fence_unix_ms);
    idgen_close(g);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    CHECK(system(rm) == 0, "rm");
}

static void test_bad_input_found_by_fuzzing(void) {
    idgen_t *g = NULL;
    char dir[] = "/tmp/idgen-ctest-bad-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char config[512];
    /* baidu-cached rings whose size overflowed int64 (makeslice panic). */
    CHECK_RC(idgen_open("preset=baidu-cached layout=time:3,seq:60 worker=0", &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "layout:", 7) == 0, "names layout: %s", idgen_last_error());
    CHECK_RC(idgen_open("preset=baidu-cached layout=time:10,seq:53 boost=10 worker=0", &g), IDGEN_EINVAL);
    CHECK_RC(idgen_open("preset=baidu-cached layout=time:30,worker:12,seq:21 boost=4 worker=0", &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "boost:", 6) == 0, "names boost: %s", idgen_last_error());
    snprintf(config, sizeof config, "preset=baidu-cached layout=time:5,worker:1,seq:57 boost=6 lease_dir=%s", dir);
    for (int i = 0; i < 3; i++) /* the third found the 2-pair pool full */
        CHECK_RC(idgen_open(config, &g), IDGEN_EINVAL);
    /* tz: a sign starts ±hh:mm, digits only. */
    CHECK_RC(idgen_open("preset=rocketmq tz=+-1:-5", &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "tz:", 3) == 0, "names tz: %s", idgen_last_error());
    CHECK_RC(idgen_open("preset=rocketmq tz=-+9:+5", &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "tz:", 3) == 0, "names tz: %s", idgen_last_error());
    /* compose without a time field: unix_ms and time must be -1 or 0. */
    idgen_t *z = must_open("preset=zxid worker=0");
    idgen_parts in = {.id = 0, .unix_ms = -7, .time = -9, .epoch = 5, .datacenter = -1, .worker = -1, .sequence = 7};
    int64_t out = 42;
    CHECK_RC(idgen_compose(z, &in, &out), IDGEN_EINVAL);
    CHECK(out == 42 && contains(idgen_last_error(), "unix_ms"), "unix_ms=-7 refused: %s", idgen_last_error());
    in.unix_ms = -1;
    CHECK_RC(idgen_compose(z, &in, &out), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "time"), "time=-9 refused: %s", idgen_last_error());
    in.time = 0;
    CHECK_RC(idgen_compose(z, &in, &out), IDGEN_OK);
    CHECK(out == ((5LL << 32) | 7), "-1 and 0 compose: %" PRId64, out);
    idgen_close(z);
    /* switched= is accepted and ignored: never reported; out of range refused. */
    snprintf(config, sizeof config, "preset=snowflake on_clock_back=error switched=99/99 lease_dir=%s", dir);
    CHECK_RC(idgen_open(config, &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "switched:", 9) == 0, "names switched: %s", idgen_last_error());
    snprintf(config, sizeof config, "preset=snowflake on_clock_back=error switched=3/4 lease_dir=%s", dir);
    idgen_t *sw = must_open(config);
    char buf[1024] = "";
    CHECK_RC(idgen_config_string(sw, buf, sizeof buf), IDGEN_OK);
    CHECK(!contains(buf, "switched="), "no switch reported: %s", buf);
    idgen_close(sw);
    /* tolerate needs clock=wall (hutool's tolerate:2s is dropped under mono). */
    snprintf(config, sizeof config, "preset=snowflake on_clock_back=tolerate:2s lease_dir=%s", dir);
    CHECK_RC(idgen_open(config, &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "on_clock_back:", 14) == 0, "names on_clock_back: %s", idgen_last_error());
    snprintf(config, sizeof config, "preset=hutool lease_dir=%s", dir);
    idgen_t *h = must_open(config);
    CHECK_RC(idgen_config_string(h, buf, sizeof buf), IDGEN_OK);
    CHECK(contains(buf, "clock=mono") && contains(buf, "on_clock_back=error"), "hutool under mono: %s", buf);
    idgen_close(h);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

/* Found by make fuzz (tests/fuzz), each failing before its fix. */
static void test_found_by_abi_fuzzer(void) {
    char a[1024] = "", b[1024] = "";
    /* hex-spelling: whole numbers in 0x hex (DESIGN) mean what their
     * decimal spelling means. */
    idgen_t *h = must_open("preset=hutool worker=0x1F datacenter=0X3");
    idgen_t *d = must_open("preset=hutool worker=31 datacenter=3");
    CHECK_RC(idgen_config_string(h, a, sizeof a), IDGEN_OK);
    CHECK_RC(idgen_config_string(d, b, sizeof b), IDGEN_OK);
    CHECK(strcmp(a, b) == 0 && contains(a, "worker=31"), "hex %s / decimal %s", a, b);
    idgen_close(h);
    idgen_close(d);
    h = must_open("preset=rocketmq ip=10.0.0.1 pid=0x1170 loader_hash=0x30946E09 tz=UTC");
    char t[IDGEN_TEXT_MAX] = "";
    idgen_text_parts tp = {0};
    CHECK(idgen_next_text(h, t, sizeof t) == 32, "rocketmq text %s", t);
    CHECK_RC(idgen_decode_text(h, t, &tp), IDGEN_OK);
    CHECK(tp.pid == 0x1170 && tp.loader_hash == 0x30946E09, "pid %" PRId64 " loader_hash %" PRId64, tp.pid, tp.loader_hash);
    idgen_close(h);
    /* text-cap: an IPv4-mapped address makes 56-character ids; the
     * configuration string said ip=1.2.3.4 (32-character ones). */
    h = must_open("preset=rocketmq ip=::ffff:1.2.3.4 tz=UTC");
    CHECK(idgen_next_text(h, t, sizeof t) == 56, "IPv4-mapped rocketmq id %s", t);
    CHECK_RC(idgen_config_string(h, a, sizeof a), IDGEN_OK);
    CHECK(contains(a, "ip=::ffff:1.2.3.4"), "shown as given: %s", a);
    d = must_open(a);
    CHECK(idgen_next_text(d, t, sizeof t) == 56, "reopened from its string: %s", t);
    idgen_close(h);
    idgen_close(d);
    /* einval-key: leaf's own seq_start=random:100 and a narrower restated
     * seq name the layout, the key that was given. */
    idgen_t *g = NULL;
    CHECK_RC(idgen_open("preset=leaf layout=time:45,worker:17,seq:1 worker=3", &g), IDGEN_EINVAL);
    CHECK(strncmp(idgen_last_error(), "layout:", 7) == 0, "names layout: %s", idgen_last_error());
    g = must_open("preset=leaf layout=time:45,worker:17,seq:1 worker=3 seq_start=0");
    idgen_close(g);
    /* loader_hash=-1 is Java's int -1, as its message says. */
    g = must_open("preset=rocketmq loader_hash=-1");
    idgen_close(g);
    /* config-reopen: baidu-cached's default max_drift (unit << boost) was
     * printed past what max_drift may be, so its own string did not open. */
    g = must_open("preset=baidu-cached worker=0 unit=24h boost=7");
    CHECK_RC(idgen_config_string(g, a, sizeof a), IDGEN_OK);
    h = must_open(a);
    idgen_close(h);
    idgen_close(g);
}

/* R8: outputs are written only on success; a failed idgen_next_run leaves
 * *fresh_ns as it was. */
static void test_next_run_failure_writes_nothing(void) {
    int64_t buf[4] = {0}, fresh = 12345;
    idgen_t *g = must_open("preset=snowflake worker=1 runs=64");
    CHECK_RC(idgen_next_run(g, NULL, 4, &fresh), IDGEN_EINVAL);
    CHECK(fresh == 12345, "a NULL out: fresh_ns untouched, got %" PRId64, fresh);
    idgen_close(g);
    g = must_open("preset=uuidv7");
    CHECK_RC(idgen_next_run(g, buf, 4, &fresh), IDGEN_EINVAL);
    CHECK(fresh == 12345, "a text preset: fresh_ns untouched, got %" PRId64, fresh);
    idgen_close(g);
}

int main(void) {
    test_version_and_strerror();
    test_next_run_failure_writes_nothing();
    test_open_errors();
    test_handles();
    test_batch();
    test_decode_compose();
    test_config_string();
    test_default_generator();
    test_text();
    test_text_ids();
    test_rollback_keys();
    test_text_fuzz();
    test_bad_input_found_by_fuzzing();
    test_found_by_abi_fuzzer();
    test_stats();
    test_leases();
    test_zxid_last_epoch();
    test_races();
    test_fork();
    test_threads();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
