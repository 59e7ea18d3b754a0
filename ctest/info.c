// idgen_get_info and lease=off through the built libidgen.so: what every
// kind of generator says it is, the size versioning, the clean errors, and
// a configuration opened for decoding only. Prints "N passed, N failed"
// last; exits non-zero on any failure.
#define _GNU_SOURCE
#include <dirent.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "idgen.h"

_Static_assert(IDGEN_KIND_NUMERIC == 1 && IDGEN_KIND_UUIDV7 == 2 && IDGEN_KIND_ULID == 3 &&
                   IDGEN_KIND_ROCKETMQ == 4 && IDGEN_KIND_COUNTER == 5 && IDGEN_KIND_NUMBER == 6,
               "the kinds of DESIGN.md");
_Static_assert(sizeof(idgen_info) == 5 * sizeof(int64_t), "idgen_info: five int64 fields");

static char dir[] = "/tmp/idgen-info-XXXXXX";

static int contains(const char *s, const char *part) { return strstr(s, part) != NULL; }

/* The config with " lease_dir=<dir>" appended. */
static const char *in_dir(const char *config) {
    static char buf[512];
    snprintf(buf, sizeof buf, "%s lease_dir=%s", config, dir);
    return buf;
}

/* How many entries (other than . and ..) the lease directory holds. */
static int dir_entries(void) {
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

typedef struct {
    const char *config;
    int64_t kind, leased, tick_ns, text_len, longest_run;
} want_t;

#define MS 1000000LL

/* Every kind; tick_ns of each time unit and none; text_len fixed and
 * varying; longest_run with and without runs; leased with a lease, a
 * segment store, a fixed worker. */
static void test_kinds(void) {
    want_t cases[] = {
        {"preset=snowflake worker=3", IDGEN_KIND_NUMERIC, 0, MS, 0, 1},
        {"preset=snowflake worker=3 text=base36", IDGEN_KIND_NUMERIC, 0, MS, 13, 1},
        {"preset=snowflake worker=3 text=base62 runs=16", IDGEN_KIND_NUMERIC, 0, MS, 11, 16},
        {"preset=sonyflake worker=1", IDGEN_KIND_NUMERIC, 0, 10 * MS, 0, 1},
        {"preset=baidu-cached worker=1", IDGEN_KIND_NUMERIC, 0, 1000 * MS, 0, 1},
        {"preset=zk-session worker=1", IDGEN_KIND_NUMERIC, 0, MS, 0, 1},
        {"preset=zxid worker=0", IDGEN_KIND_NUMERIC, 0, 0, 0, 1},
        {"preset=uuidv7", IDGEN_KIND_UUIDV7, 0, MS, 36, 1},
        {"preset=ulid", IDGEN_KIND_ULID, 0, MS, 26, 1},
        {"preset=rocketmq ip=10.1.2.3", IDGEN_KIND_ROCKETMQ, 0, MS, 32, 1},
        {"preset=rocketmq ip=fe80::1", IDGEN_KIND_ROCKETMQ, 0, MS, 56, 1},
        {"preset=rocketmq-v1", IDGEN_KIND_ROCKETMQ, 0, 1000 * MS, 34, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        want_t w = cases[i];
        idgen_t *g = must_open(w.config);
        idgen_info in;
        memset(&in, 0x55, sizeof in);
        CHECK_RC(idgen_get_info(g, &in, sizeof in), IDGEN_OK);
        CHECK(in.kind == w.kind && in.leased == w.leased && in.tick_ns == w.tick_ns && in.text_len == w.text_len &&
                  in.longest_run == w.longest_run,
            "%s: kind %" PRId64 " leased %" PRId64 " tick_ns %" PRId64 " text_len %" PRId64 " longest_run %" PRId64,
            w.config, in.kind, in.leased, in.tick_ns, in.text_len, in.longest_run);
        CHECK(in.kind != IDGEN_KIND_NUMBER, "%s: IDGEN_KIND_NUMBER is never returned yet", w.config);
        if (w.text_len > 0) { /* the text is that long */
            char buf[IDGEN_TEXT_MAX];
            CHECK(idgen_next_text(g, buf, sizeof buf) == w.text_len, "%s: next_text's length", w.config);
        }
        idgen_close(g);
    }
}

/* leased: 1 with worker=lease and with a segment store, 0 with a fixed
 * worker of the same layout. */
static void test_leased(void) {
    const char *configs[] = {"preset=snowflake worker=lease", "preset=zxid worker=lease", "preset=segment name=orders"};
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        idgen_t *g = must_open(in_dir(configs[i]));
        idgen_info in;
        CHECK_RC(idgen_get_info(g, &in, sizeof in), IDGEN_OK);
        CHECK(in.leased == 1, "%s: leased %" PRId64, configs[i], in.leased);
        CHECK(in.kind == (i == 2 ? IDGEN_KIND_COUNTER : IDGEN_KIND_NUMERIC), "%s: kind %" PRId64, configs[i], in.kind);
        CHECK(in.tick_ns == (i == 0 ? MS : 0), "%s: tick_ns %" PRId64, configs[i], in.tick_ns);
        idgen_close(g);
    }
    idgen_t *g = must_open("preset=snowflake worker=7");
    idgen_info in;
    CHECK_RC(idgen_get_info(g, &in, sizeof in), IDGEN_OK);
    CHECK(in.leased == 0, "fixed worker: leased %" PRId64, in.leased);
    idgen_close(g);
}

/* An older host passes a smaller size: only that prefix is written (even
 * part of a field), the rest of its struct left alone; size 0 writes
 * nothing; a larger size writes sizeof(idgen_info) bytes and no more. */
static void test_size_versioning(void) {
    idgen_t *g = must_open("preset=snowflake worker=3 runs=8");
    idgen_info in;
    memset(&in, 0x55, sizeof in);
    CHECK_RC(idgen_get_info(g, &in, offsetof(idgen_info, tick_ns)), IDGEN_OK);
    CHECK(in.kind == IDGEN_KIND_NUMERIC && in.leased == 0, "the prefix: kind %" PRId64, in.kind);
    CHECK(in.tick_ns == 0x5555555555555555LL && in.text_len == 0x5555555555555555LL &&
              in.longest_run == 0x5555555555555555LL,
        "bytes past size are untouched: tick_ns %" PRIx64, (uint64_t)in.tick_ns);

    unsigned char raw[sizeof(idgen_info) + 16];
    memset(raw, 0x55, sizeof raw);
    CHECK_RC(idgen_get_info(g, (idgen_info *)raw, 0), IDGEN_OK);
    int untouched = 1;
    for (size_t i = 0; i < sizeof raw; i++)
        untouched &= raw[i] == 0x55;
    CHECK(untouched, "size 0 writes nothing");

    CHECK_RC(idgen_get_info(g, (idgen_info *)raw, 3), IDGEN_OK);
    CHECK(raw[0] == IDGEN_KIND_NUMERIC && raw[1] == 0 && raw[2] == 0 && raw[3] == 0x55, "size 3: three bytes of kind");

    memset(raw, 0x55, sizeof raw);
    CHECK_RC(idgen_get_info(g, (idgen_info *)raw, sizeof raw), IDGEN_OK);
    idgen_info full;
    memcpy(&full, raw, sizeof full);
    CHECK(full.kind == IDGEN_KIND_NUMERIC && full.longest_run == 8, "a larger size: the whole struct");
    untouched = 1;
    for (size_t i = sizeof(idgen_info); i < sizeof raw; i++)
        untouched &= raw[i] == 0x55;
    CHECK(untouched, "nothing past sizeof(idgen_info) is written");
    idgen_close(g);
}

/* NULL out, NULL and made-up handles, closed handles: clean errors with a
 * message, as idgen_get_stats gives; nothing written. */
static void test_errors(void) {
    idgen_t *g = must_open("preset=snowflake worker=3");
    idgen_info in;
    CHECK_RC(idgen_get_info(g, NULL, sizeof in), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "out is NULL"), "NULL out: %s", idgen_last_error());
    memset(&in, 0x55, sizeof in);
    CHECK_RC(idgen_get_info(NULL, &in, sizeof in), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "handle is NULL"), "NULL handle: %s", idgen_last_error());
    CHECK_RC(idgen_get_info((idgen_t *)(uintptr_t)0x7777777, &in, sizeof in), IDGEN_ECLOSED);
    idgen_stats st;
    idgen_close(g);
    CHECK_RC(idgen_get_info(g, &in, sizeof in), IDGEN_ECLOSED);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", idgen_last_error());
    CHECK(contains(msg, "is closed or was never opened"), "closed: %s", msg);
    CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_ECLOSED);
    CHECK(strcmp(msg, idgen_last_error()) == 0, "the same message as idgen_get_stats: %s", idgen_last_error());
    CHECK(in.kind == 0x5555555555555555LL, "a failure writes nothing");
}

/* lease=off: opens without a lease (the lease directory stays empty; a
 * fleet store that is not there is never contacted), refuses every
 * idgen_next* with IDGEN_EINVAL naming lease=off, and decodes, composes
 * and reads text like the leased generator of the same layout. */
static void test_lease_off(void) {
    idgen_t *real = must_open(in_dir("preset=leaf worker=lease text=base36"));
    int64_t id = idgen_next(real);
    char text[IDGEN_TEXT_MAX];
    CHECK(idgen_next_text(real, text, sizeof text) == 13, "base36 text");
    idgen_parts want;
    CHECK_RC(idgen_decode_with(real, id, &want), IDGEN_OK);
    idgen_close(real);
    CHECK(dir_entries() > 0, "the leased generator left its record");
    char other[] = "/tmp/idgen-info-off-XXXXXX";
    CHECK(mkdtemp(other) != NULL, "mkdtemp");
    char cfg[512];
    snprintf(cfg, sizeof cfg, "preset=leaf worker=lease text=base36 lease=off lease_dir=%s", other);
    const char *configs[] = {cfg, "preset=leaf worker=zk://127.0.0.1:1 text=base36 lease=off"};
    for (size_t i = 0; i < 2; i++) {
        idgen_t *g = must_open(configs[i]);
        CHECK_RC(idgen_next(g), IDGEN_EINVAL);
        CHECK(contains(idgen_last_error(), "lease=off"), "next names the key: %s", idgen_last_error());
        int64_t ids[4] = {-1, -1, -1, -1}, fresh = -1;
        CHECK_RC(idgen_next_batch(g, ids, 4), IDGEN_EINVAL);
        CHECK(contains(idgen_last_error(), "lease=off") && ids[0] == -1, "batch: %s", idgen_last_error());
        CHECK_RC(idgen_next_run(g, ids, 4, &fresh), IDGEN_EINVAL);
        CHECK(contains(idgen_last_error(), "lease=off") && fresh == -1, "run: %s", idgen_last_error());
        char buf[IDGEN_TEXT_MAX];
        CHECK_RC(idgen_next_text(g, buf, sizeof buf), IDGEN_EINVAL);
        CHECK(contains(idgen_last_error(), "lease=off"), "next_text: %s", idgen_last_error());
        idgen_parts p;
        CHECK_RC(idgen_decode_with(g, id, &p), IDGEN_OK);
        CHECK(memcmp(&p, &want, sizeof p) == 0, "%s: decodes as the leased one", configs[i]);
        int64_t again = -1;
        CHECK_RC(idgen_compose(g, &p, &again), IDGEN_OK);
        CHECK(again == id, "compose(decode(id)) == id");
        idgen_text_parts tp;
        CHECK_RC(idgen_decode_text(g, text, &tp), IDGEN_OK);
        CHECK(tp.id > id, "decode_text: %" PRId64, tp.id);
        idgen_info in;
        CHECK_RC(idgen_get_info(g, &in, sizeof in), IDGEN_OK);
        CHECK(in.kind == IDGEN_KIND_NUMERIC && in.leased == 0 && in.tick_ns == MS && in.text_len == 13, "info: leased %" PRId64, in.leased);
        char conf[1024];
        CHECK_RC(idgen_config_string(g, conf, sizeof conf), IDGEN_OK);
        CHECK(contains(conf, "lease=off") && !contains(conf, "leased="), "config: %s", conf);
        idgen_close(g);
    }
    CHECK(rmdir(other) == 0, "lease=off took no lease: %s is still empty", other);

    idgen_t *s = must_open(in_dir("preset=segment name=off-counter lease=off"));
    CHECK_RC(idgen_next(s), IDGEN_EINVAL);
    CHECK(contains(idgen_last_error(), "lease=off"), "segment next: %s", idgen_last_error());
    idgen_parts p;
    CHECK_RC(idgen_decode_with(s, 1234, &p), IDGEN_OK);
    CHECK(p.sequence == 1234, "segment decode");
    idgen_info in;
    CHECK_RC(idgen_get_info(s, &in, sizeof in), IDGEN_OK);
    CHECK(in.kind == IDGEN_KIND_COUNTER && in.leased == 0, "segment lease=off: leased %" PRId64, in.leased);
    idgen_close(s);
}

int main(void) {
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    test_kinds();
    test_leased();
    test_size_versioning();
    test_errors();
    test_lease_off();
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    CHECK(system(rm) == 0, "rm");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
