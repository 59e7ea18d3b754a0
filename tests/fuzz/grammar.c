/*
 * The grammar: a value grammar per key (valid values, boundaries, near
 * misses), layouts at the edge of 64 bits, lease directories, and whole
 * configurations built from them.
 *
 * The keys come from the library (table.c), so a key added to
 * internal/config is fuzzed without an edit here: with the generic values
 * until it gets a grammar of its own. Only when the library's messages
 * cannot be read does the fuzzer fall back to its own list (and says so
 * at the start of the run).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* ---- presets ------------------------------------------------------------- */

/* Where the grammar aims for a preset it knows; others get the generic
 * grammar. This is aiming, not the key table. */
int preset_family(const char *p) {
    if (p == NULL)
        return FAM_TIME;
    static const struct {
        const char *name;
        int fam;
    } known[] = {{"snowflake", FAM_TIME}, {"hutool", FAM_TIME}, {"mybatis-plus", FAM_TIME}, {"leaf", FAM_TIME},
        {"baidu", FAM_TIME}, {"baidu-cached", FAM_CACHED}, {"sonyflake", FAM_TIME}, {"sonyflake-v2", FAM_TIME},
        {"js53", FAM_TIME}, {"zk-session", FAM_SESSION}, {"zxid", FAM_ZXID}, {"rocketmq", FAM_ROCKET},
        {"rocketmq-v1", FAM_ROCKETV1}, {"uuidv7", FAM_RANDTEXT}, {"ulid", FAM_RANDTEXT}, {"segment", FAM_SEGMENT}};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(known[i].name, p) == 0)
            return known[i].fam;
    return FAM_UNKNOWN;
}

/* The default widths of a preset's fields, to aim numbers at them. */
typedef struct {
    int time, dc, worker, seq, back, epoch, counter;
} widths_t;

static widths_t preset_widths(const char *p) {
    widths_t w = {41, 5, 5, 12, 0, 0, 0};
    if (p == NULL)
        return w;
    if (strcmp(p, "leaf") == 0)
        w = (widths_t){41, 0, 10, 12, 0, 0, 0};
    else if (strncmp(p, "baidu", 5) == 0)
        w = (widths_t){28, 0, 22, 13, 0, 0, 0};
    else if (strncmp(p, "sonyflake", 9) == 0)
        w = (widths_t){39, 0, 16, 8, 0, 0, 0};
    else if (strcmp(p, "js53") == 0)
        w = (widths_t){41, 0, 5, 7, 0, 0, 0};
    else if (strcmp(p, "zk-session") == 0)
        w = (widths_t){40, 0, 7, 16, 0, 0, 0}; /* worker:8 holds 0..127 */
    else if (strcmp(p, "zxid") == 0)
        w = (widths_t){0, 0, 0, 0, 0, 32, 32};
    return w;
}

/* A preset's sequence width and unit, for configurations that do not
 * restate them (the default generator's budget). */
void preset_defaults(const char *p, int *seq_bits, int64_t *unit_ms) {
    widths_t w = preset_widths(p);
    *seq_bits = w.counter ? w.counter : w.seq;
    *unit_ms = 1;
    if (p && strncmp(p, "baidu", 5) == 0)
        *unit_ms = 1000;
    else if (p && strncmp(p, "sonyflake", 9) == 0)
        *unit_ms = 10;
}

/* ---- values -------------------------------------------------------------- */

typedef struct {
    rng_t *r;
    const env_t *e;
    const char *preset;
    int fam;
    widths_t w;
    int leasing;   /* the worker source takes a lease */
    int store;     /* a network store */
} ctx_t;

/* A whole number as the syntax allows it: decimal, 0x hex (DESIGN: whole
 * numbers may be written so), now and then with leading zeros. */
static void put_int(ctx_t *x, char *out, size_t cap, int64_t v) {
    int k = (int)rint_n(x->r, 100);
    if (v >= 0 && k < 8)
        snprintf(out, cap, "0x%" PRIx64, (uint64_t)v);
    else if (v >= 0 && k < 10)
        snprintf(out, cap, "0X%" PRIX64, (uint64_t)v);
    else if (v >= 0 && k < 12)
        snprintf(out, cap, "00%" PRId64, v);
    else
        snprintf(out, cap, "%" PRId64, v);
}

/* A number aimed at a field of `bits` bits: inside, at both ends, one
 * past, or one of the usual suspects. */
static void num_for(ctx_t *x, char *out, size_t cap, int bits) {
    int64_t max = bits <= 0 ? 0 : bits >= 63 ? INT64_MAX : (INT64_C(1) << bits) - 1;
    static const char *odd[] = {"-1", "9223372036854775807", "9223372036854775808", "4294967296", "2147483648",
        "1e3", "1.0", "", " 1", "+1", "--1", "0x", "0xg", "0x8000000000000000", "18446744073709551615", "one", "1_0"};
    switch (rint_n(x->r, 10)) {
    case 0: put_int(x, out, cap, 0); break;
    case 1: put_int(x, out, cap, max); break;
    case 2: put_int(x, out, cap, max < INT64_MAX ? max + 1 : max); break;
    case 3: snprintf(out, cap, "%s", PICK(x->r, odd)); break;
    case 4: put_int(x, out, cap, 1); break;
    default: put_int(x, out, cap, max > 0 ? rint_n(x->r, max < INT64_MAX ? max + 1 : max) : 0); break;
    }
}

/* Durations: small ones mostly (a case must finish), boundaries now and
 * then. */
static const char *dur_small[] = {"1ms", "5ms", "10ms", "50ms", "100ms", "200ms", "500ms", "1s", "2s"};
static const char *dur_odd[] = {"0", "0s", "0ms", "99ms", "1us", "1ns", "-1s", "1.5s", "1h1ms", "25h", "24h",
    "1h", "10s", "1m", "1", "s", "ms", "2562047h", "9999999999h", "1e3ms", "1.0000001s", "1m0s", "0.5ms"};

static const char *dur(ctx_t *x, int odd_pct) {
    return chance(x->r, odd_pct) ? PICK(x->r, dur_odd) : PICK(x->r, dur_small);
}

/* A layout for the family: mostly summing to 62..65 bits (the edge of
 * what an id holds), sometimes anything, sometimes malformed. */
static void gen_layout(ctx_t *x, char *out, size_t cap) {
    rng_t *r = x->r;
    int target = chance(r, 55) ? 62 + (int)rint_n(r, 4) : 8 + (int)rint_n(r, 60);
    char f[8][40];
    int n = 0;
    widths_t w = {0, 0, 0, 0, 0, 0, 0};
    if (x->fam == FAM_ZXID) {
        w.epoch = 1 + (int)rint_n(r, 40);
        w.counter = target - w.epoch < 1 ? 1 : target - w.epoch;
        snprintf(f[n++], 40, "epoch:%d", w.epoch);
        snprintf(f[n++], 40, "counter:%d", w.counter);
    } else if (x->fam == FAM_SESSION) {
        w.worker = (int)rint_n(r, 12);
        w.seq = 1 + (int)rint_n(r, 24);
        w.time = target - w.worker - w.seq < 1 ? 1 + (int)rint_n(r, 40) : target - w.worker - w.seq;
        if (w.worker > 0)
            snprintf(f[n++], 40, "worker:%d", w.worker);
        snprintf(f[n++], 40, "time:%d", w.time);
        snprintf(f[n++], 40, "seq:%d", w.seq);
    } else {
        int big_seq = chance(r, 10);
        w.seq = big_seq ? 20 + (int)rint_n(r, 44) : 1 + (int)rint_n(r, 22);
        w.dc = chance(r, 40) ? (int)rint_n(r, 11) : 0;
        w.worker = chance(r, 75) ? (int)rint_n(r, 23) : 0;
        w.back = chance(r, 15) ? (int)rint_n(r, 6) : 0;
        w.time = target - w.seq - w.dc - w.worker - w.back;
        if (w.time < 1)
            w.time = 1 + (int)rint_n(r, 12);
        if (chance(r, 12)) { /* a time field used up (or nearly): 63 bits, the rest seq */
            w.time = 1 + (int)rint_n(r, 30);
            w.back = 0;
            w.dc = chance(r, 30) ? (int)rint_n(r, 3) : 0;
            w.worker = chance(r, 70) ? 1 + (int)rint_n(r, 2) : 0;
            w.seq = 63 - w.time - w.dc - w.worker;
        } else if (x->fam == FAM_CACHED && chance(r, 60)) { /* keep the ring small often */
            w.seq = 1 + (int)rint_n(r, 16);
            w.time = target - w.seq - w.dc - w.worker - w.back;
            if (w.time < 1)
                w.time = 1 + (int)rint_n(r, 40);
        }
        snprintf(f[n++], 40, "time:%d", w.time);
        if (w.back > 0 || chance(r, 2))
            snprintf(f[n++], 40, "backwards:%d", w.back);
        if (w.dc > 0)
            snprintf(f[n++], 40, "datacenter:%d", w.dc);
        if (w.worker > 0)
            snprintf(f[n++], 40, "worker:%d", w.worker);
        snprintf(f[n++], 40, "%s:%d", chance(r, 5) ? "sequence" : "seq", w.seq);
        if (chance(r, 10) && n > 2) { /* sonyflake's order: seq before worker */
            char t[40];
            memcpy(t, f[n - 1], 40);
            memcpy(f[n - 1], f[n - 2], 40);
            memcpy(f[n - 2], t, 40);
        }
    }
    /* Malformed now and then: every such layout is IDGEN_EINVAL. */
    int k = (int)rint_n(r, 100);
    if (k < 3 && n > 1) {
        int i = (int)rint_n(r, n), j = (int)rint_n(r, n);
        char t[40];
        memcpy(t, f[i], 40);
        memcpy(f[i], f[j], 40);
        memcpy(f[j], t, 40);
    } else if (k < 5) {
        snprintf(f[(int)rint_n(r, n)], 40, "%s:%s", PICK(r, T.fields), PICK(r, ((const char *[]){"0", "64", "-1", "", "x", "63", "255", "256"})));
    } else if (k < 6 && n < 8) {
        snprintf(f[n++], 40, "%s:%d", T.n_fields ? T.fields[rint_n(r, T.n_fields)] : "time", 1 + (int)rint_n(r, 8));
    } else if (k < 7 && n < 8) {
        snprintf(f[n++], 40, "%s", PICK(r, ((const char *[]){"", "bogus:3", ":3", "time", "time:1:2"})));
    }
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            append(out, cap, chance(r, 3) ? ", " : ",");
        append(out, cap, f[i]);
    }
    x->w = w;
}

static const char *epochs[] = {"0", "1288834974657", "1463673600000", "1409529600000", "1735689600000",
    "1704067200000", "9223372036854", "9223372036855", "-1", "2016-09-20T00:00:00+08:00", "2016-09-20T00:00:00Z",
    "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2262-04-11T23:47:16Z", "2262-04-11T23:47:17Z",
    "2099-01-01T00:00:00Z", "2016-09-20T00:00:00.0005Z", "2016-09-20", "2016-09-20T00:00:00+25:00", "now"};

/* The value of `key` for this configuration. */
static void gen_value(ctx_t *x, const char *key, char *out, size_t cap) {
    rng_t *r = x->r;
    out[0] = 0;
    if (strcmp(key, "preset") == 0) {
        snprintf(out, cap, "%s", chance(r, 97) ? T.presets[rint_n(r, T.n_presets)] : PICK(r, ((const char *[]){"Snowflake", "snowflake ", "idgen", "", "zxid2"})));
    } else if (strcmp(key, "layout") == 0) {
        gen_layout(x, out, cap);
    } else if (strcmp(key, "unit") == 0) {
        static const char *u[] = {"1ms", "1ms", "10ms", "1s", "2ms", "100ms", "24h", "25h", "0ms", "1500us", "1.5ms",
            "-1ms", "1m", "1h", "1us", "ms", "1", "86400000ms"};
        snprintf(out, cap, "%s", PICK(r, u));
    } else if (strcmp(key, "epoch") == 0) {
        if (chance(r, 15)) {
            int64_t now = wall_ms();
            put_int(x, out, cap, now + (chance(r, 50) ? 1000 * (int64_t)rint_n(r, 100000) : -1000 * (int64_t)rint_n(r, 1000)));
        } else
            snprintf(out, cap, "%s", PICK(r, epochs));
    } else if (strcmp(key, "worker") == 0) {
        int k = (int)rint_n(r, 100);
        if (k < 55)
            num_for(x, out, cap, x->w.worker ? x->w.worker : x->w.dc ? 0 : 1);
        else if (k < 85)
            snprintf(out, cap, "lease");
        else if (k < 92)
            snprintf(out, cap, "pid");
        else
            snprintf(out, cap, "%s", PICK(r, ((const char *[]){"ordinal", "Lease", "mac", "auto", "lease ", "zk://", "postgres://"})));
    } else if (strcmp(key, "datacenter") == 0) {
        if (chance(r, 12))
            snprintf(out, cap, "%s", PICK(r, ((const char *[]){"mac", "lease", "pid", "zk://127.0.0.1:1"})));
        else
            num_for(x, out, cap, x->w.dc);
    } else if (strcmp(key, "clock") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"mono", "wall", "monotonic", "wall", "WALL", "realtime", "mono,wall"})));
    } else if (strcmp(key, "on_clock_back") == 0) {
        static const char *p[] = {"error", "wait:5ms", "wait:15ms", "tolerate:2s", "switch", "wait:15ms,switch",
            "wait:5ms,tolerate:1s", "tolerate:5ms,switch", "wait:", "wait", "tolerate:-1s", "wait:1h", "switch,switch",
            "error,switch", "wait:0", "", ",", "wait:5ms,", "tolerate:24h"};
        snprintf(out, cap, "%s", PICK(r, p));
    } else if (strcmp(key, "on_exhausted") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"wait", "borrow", "borrow", "spin", "Borrow", "error"})));
    } else if (strcmp(key, "max_drift") == 0 || strcmp(key, "max_skew") == 0) {
        snprintf(out, cap, "%s", dur(x, 30));
    } else if (strcmp(key, "seq_start") == 0) {
        int64_t n = x->w.seq > 0 && x->w.seq < 62 ? INT64_C(1) << x->w.seq : 4096;
        switch (rint_n(r, 8)) {
        case 0: snprintf(out, cap, "0"); break;
        case 1: snprintf(out, cap, "random:1"); break;
        case 2: snprintf(out, cap, "random:%" PRId64, n); break;
        case 3: snprintf(out, cap, "random:%" PRId64, n + 1); break;
        case 4: snprintf(out, cap, "random:%" PRId64, 1 + rint_n(r, n)); break;
        case 5: snprintf(out, cap, "%s", PICK(r, ((const char *[]){"random:0", "random:-1", "random:", "1", "random:9223372036854775807", "random:0x10"}))); break;
        default: snprintf(out, cap, "random:%" PRId64, 1 + rint_n(r, 200)); break;
        }
    } else if (strcmp(key, "lease_dir") == 0) {
        int k = (int)rint_n(r, 100), kind = k < 55 ? DIR_GOOD : k < 63 ? DIR_STICKY : k < 68 ? DIR_PRIVATE : k < 72 ? DIR_SPACES : k < 80 ? DIR_PLANTED : DIR_SYMLINK + (int)rint_n(r, N_DIRS - DIR_SYMLINK);
        char buf[4096];
        snprintf(out, cap, "%s", dir_path(x->e, kind, buf, sizeof buf));
    } else if (strcmp(key, "lease_ttl") == 0) {
        if (x->store)
            snprintf(out, cap, "%s", PICK(r, ((const char *[]){"1s", "1s", "2s", "500ms", "100ms", "3s"})));
        else
            snprintf(out, cap, "%s", chance(r, 12) ? PICK(r, dur_odd) : PICK(r, ((const char *[]){"100ms", "150ms", "200ms", "300ms", "500ms", "1s"})));
    } else if (strcmp(key, "max_outage") == 0) {
        snprintf(out, cap, "%s", chance(r, 12) ? PICK(r, dur_odd) : PICK(r, ((const char *[]){"100ms", "200ms", "500ms", "1s", "1s", "2s"})));
    } else if (strcmp(key, "max_wait") == 0) {
        /* mostly long enough for a fresh directory's one wait (max_outage) */
        snprintf(out, cap, "%s", chance(r, 6) ? PICK(r, ((const char *[]){"1h", "-1s", "x", "0"}))
            : chance(r, 30) ? PICK(r, ((const char *[]){"0s", "1ms", "10ms", "100ms", "500ms", "1s"})) : PICK(r, ((const char *[]){"2s", "3s", "2500ms"})));
    } else if (strcmp(key, "lease_table") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"idgen_leases", "t", "_x1", "1t", "a;drop table x", "a.b", "\"q\"",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})));
    } else if (strcmp(key, "zxid_epoch") == 0) {
        num_for(x, out, cap, x->w.epoch ? x->w.epoch : 32);
    } else if (strcmp(key, "leased") == 0 || strcmp(key, "switched") == 0) {
        static const char *p[] = {"0/0", "3/4", "99/99", "0/31", "31/31", "32/0", "-1/0", "a/b", "1", "1/", "/1", "0/0/0", "0x1/0x2"};
        snprintf(out, cap, "%s", PICK(r, p));
    } else if (strcmp(key, "text") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"dec", "base36", "base62", "dec", "hex", "base64", "Base36"})));
    } else if (strcmp(key, "ip") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"auto", "127.0.0.1", "10.0.0.1", "::1", "2001:db8::1", "::ffff:1.2.3.4",
            "fe80::1%eth0", "300.1.1.1", "1.2.3.4.5", "0.0.0.0", "255.255.255.255", "localhost", "1.2.3"})));
    } else if (strcmp(key, "mac") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"auto", "02:fc:00:00:00:01", "02-FC-00-00-00-01", "00:00:00:00:00:00",
            "ff:ff:ff:ff:ff:ff", "02:fc:00:00:00:00:00:01", "02fc.0000.0001", "02:fc:00:00:00", "zz:00:00:00:00:00"})));
    } else if (strcmp(key, "pid") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"auto", "0", "1", "65535", "65536", "4194304", "4194305", "-1", "0x10", "32768"})));
    } else if (strcmp(key, "loader_hash") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"random", "0", "-1", "-2", "-2147483648", "-2147483649", "2147483647",
            "4294967295", "4294967296", "0x30946E09", "0x30946e09", "816213513"})));
    } else if (strcmp(key, "tz") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"local", "UTC", "Asia/Shanghai", "America/St_Johns", "+08:00", "-05:30",
            "+18:00", "-18:00", "+18:01", "+00:00", "+-1:-5", "-+9:+5", "+8", "+0800", "../etc/passwd", "Local",
            "/etc/localtime", "Etc/GMT+12", "Mars/Olympus", "utc"})));
    } else if (strcmp(key, "boost") == 0) {
        put_int(x, out, cap, chance(r, 85) ? rint_n(r, 11) : PICK(r, ((const int64_t[]){11, -1, 24, 63, 64})));
    } else if (strcmp(key, "padding") == 0) {
        put_int(x, out, cap, chance(r, 80) ? 1 + rint_n(r, 99) : PICK(r, ((const int64_t[]){0, 100, -1, 50})));
    } else if (strcmp(key, "name") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"orders", "a", "x.y-z_1", ".hidden", "a/b", "a b", "",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "é"})));
    } else if (strcmp(key, "store") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"zk://127.0.0.1:1", "postgres://u:pw@127.0.0.1:1/db", "redis://127.0.0.1:1",
            "etcd://127.0.0.1:1", "mysql://u:pw@127.0.0.1:1/db", "file:///tmp", "lease"})));
    } else if (strcmp(key, "lease") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"off", "off", "off", "on", "OFF", "no", "false", "", "off "})));
    } else if (strcmp(key, "step") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"1", "1000", "auto", "0", "-1", "10000000", "10000001", "9223372036854775807"})));
    } else if (strcmp(key, "start") == 0) {
        snprintf(out, cap, "%s", PICK(r, ((const char *[]){"1", "0", "1000", "9223372036854775807", "9223372036854775806", "-1"})));
    } else {
        /* A key without a grammar of its own (new in the library). */
        static const char *g[] = {"0", "1", "-1", "yes", "auto", "random", "1s", "x", "0x10", "lease", "true",
            "9223372036854775808", "a b", "'", "\\"};
        snprintf(out, cap, "%s", PICK(r, g));
    }
}

/* ---- lease directories ------------------------------------------------- */

const char *dir_names[N_DIRS] = {"good", "sticky", "private", "spaces", "planted", "symlink", "world", "groupw",
    "others", "file", "fifo", "missing", "relative"};

int dir_trusted(int kind) { return kind <= DIR_PLANTED; }

const char *dir_path(const env_t *e, int kind, char *buf, size_t cap) {
    if (kind == DIR_RELATIVE)
        snprintf(buf, cap, "relative/leases");
    else if (kind == DIR_SPACES)
        snprintf(buf, cap, "%s/d with spaces;and 'quotes'", e->root);
    else
        snprintf(buf, cap, "%s/d_%s", e->root, dir_names[kind]);
    return buf;
}

/* ---- whole configurations ------------------------------------------------ */

static void add(ctx_t *x, cfg_t *c, const char *key) {
    char v[VALLEN];
    gen_value(x, key, v, sizeof v);
    cfg_set(c, key, v);
}

/* Keys that a lease takes, with the probabilities that keep cases short. */
static void lease_keys(ctx_t *x, cfg_t *c) {
    rng_t *r = x->r;
    if (!x->store && (!x->e->private_vartmp || chance(r, 85)))
        add(x, c, "lease_dir");
    if (chance(r, 35))
        add(x, c, "lease_ttl");
    if (chance(r, 30))
        add(x, c, "max_outage");
    if (chance(r, 75))
        add(x, c, "max_wait");
}

void gen_config(rng_t *r, const env_t *e, cfg_t *c) {
    memset(c, 0, sizeof *c);
    ctx_t x = {.r = r, .e = e};
    if (chance(r, 85))
        add(&x, c, "preset");
    x.preset = cfg_get(c, "preset");
    x.fam = preset_family(x.preset);
    x.w = preset_widths(x.preset);
    int textfam = x.fam == FAM_ROCKET || x.fam == FAM_ROCKETV1 || x.fam == FAM_RANDTEXT;
    if (textfam) {
        static const char *rk[] = {"ip", "pid", "loader_hash", "tz", "mac"};
        for (size_t i = 0; i < sizeof rk / sizeof *rk; i++)
            if (chance(r, x.fam == FAM_RANDTEXT ? 3 : 40))
                add(&x, c, rk[i]);
    } else if (x.fam == FAM_SEGMENT) {
        static const char *sk[] = {"name", "step", "start", "padding", "max_wait", "text", "lease_dir", "lease"};
        for (size_t i = 0; i < sizeof sk / sizeof *sk; i++)
            if (chance(r, i == 0 ? 90 : 35))
                add(&x, c, sk[i]);
    } else {
        if (chance(r, 40))
            add(&x, c, "layout");
        int k = (int)rint_n(r, 100);
        if (k < 45) { /* a fixed worker */
            char v[64];
            num_for(&x, v, sizeof v, x.w.worker);
            if (chance(r, 85)) /* mostly in range */
                put_int(&x, v, sizeof v, x.w.worker > 0 ? rint_n(r, (INT64_C(1) << (x.w.worker < 62 ? x.w.worker : 62))) : 0);
            cfg_set(c, "worker", v);
        } else if (k < 72) {
            cfg_set(c, "worker", "lease");
            x.leasing = 1;
        } else if (k < 88) {
            x.leasing = 1; /* the default source */
        } else {
            add(&x, c, "worker");
            x.leasing = strcmp(cfg_get(c, "worker"), "lease") == 0;
        }
        if (chance(r, 25))
            add(&x, c, "datacenter");
        if (x.leasing)
            lease_keys(&x, c);
        static const struct {
            const char *key;
            int pct;
        } opt[] = {{"unit", 15}, {"epoch", 15}, {"clock", 20}, {"on_clock_back", 20}, {"on_exhausted", 15},
            {"max_drift", 8}, {"seq_start", 10}, {"text", 20}, {"name", 5}, {"leased", 3}, {"switched", 3}, {"lease", 6}};
        for (size_t i = 0; i < sizeof opt / sizeof *opt; i++)
            if (chance(r, opt[i].pct))
                add(&x, c, opt[i].key);
        if (x.fam == FAM_ZXID && chance(r, 40))
            add(&x, c, "zxid_epoch");
        if (x.fam == FAM_CACHED) {
            if (chance(r, 45))
                add(&x, c, "boost");
            if (chance(r, 30))
                add(&x, c, "padding");
        }
        /* borrowing and a coarse unit make long drifts: keep max_wait
         * bounded so the case is. */
        if (x.leasing && cfg_get(c, "max_wait") == NULL && (x.fam == FAM_CACHED || cfg_get(c, "unit") || cfg_get(c, "max_drift")))
            cfg_set(c, "max_wait", "1s");
    }
    /* A case must end: a long max_outage or lease_ttl without max_wait
     * may legitimately hold an open that long (max_wait's default). */
    if (x.leasing) {
        cfg_render(c, r, 1);
        if (open_bound_ms(c->text) > 20000)
            cfg_set(c, "max_wait", "2s");
    }
    if (x.leasing) {
        cfg_render(c, r, 1);
        if (open_bound_ms(c->text) > 20000 && cfg_get(c, "on_clock_back"))
            cfg_set(c, "on_clock_back", "wait:15ms");
    }
    /* Any key of the library's table, any value: what does not apply must
     * be refused by name. */
    int extra = chance(r, 25) ? 1 + (int)rint_n(r, 2) : 0;
    for (int i = 0; i < extra; i++)
        add(&x, c, T.keys[rint_n(r, T.n_keys)]);
    if (chance(r, 2))
        cfg_set(c, PICK(r, ((const char *[]){"Preset", "workers", "lease-dir", "x", "preset "})), "1");
    /* Without a private /var/tmp, no lease may reach the host's own
     * directory (other programs' pools are there). */
    const char *w = cfg_get(c, "worker");
    if (!e->private_vartmp && cfg_get(c, "lease_dir") == NULL && (w == NULL || strcmp(w, "lease") == 0)) {
        char d[4096];
        cfg_set(c, "lease_dir", dir_path(e, DIR_GOOD, d, sizeof d));
    }
    cfg_render(c, r, 0);
    /* Syntax now and then: every such string is IDGEN_EINVAL or means what
     * its pairs mean. */
    int k = (int)rint_n(r, 100);
    if (k < 4) {
        static const char *junk[] = {"=", "k", "k=", "='x'", "x='unterminated", "worker=1 worker=1", "a='b'c",
            "\x01=\x02", "worker=\xff\xfe", "preset=snowflake;;;;", "'worker'=1", "worker = 1", "\\=1"};
        append(c->text, sizeof c->text, chance(r, 50) ? " " : "");
        append(c->text, sizeof c->text, PICK(r, junk));
        c->raw = 1;
    } else if (k < 5) {
        size_t n = strlen(c->text);
        while (n + 40 < 6000) /* long strings */
            n += (size_t)snprintf(c->text + n, sizeof c->text - n, " name=%" PRIu64, rnd(r) % 1000);
        c->raw = 1;
    }
}

/* A coordinator on a closed loopback port: the open must fail in time,
 * naming the address and never the password. */
void gen_store_config(rng_t *r, const env_t *e, cfg_t *c, char *password, size_t pwcap) {
    memset(c, 0, sizeof *c);
    ctx_t x = {.r = r, .e = e, .store = 1, .leasing = 1};
    snprintf(password, pwcap, "Pw%08" PRIx64 "x", rnd(r) & 0xffffffffu);
    static const char *hosts[] = {"127.0.0.1:1", "127.0.0.1:1,127.0.0.1:2", "[::1]:1", "localhost:1", "127.0.0.1:65535"};
    const char *h = PICK(r, hosts);
    char url[600];
    switch (rint_n(r, 9)) {
    case 0: snprintf(url, sizeof url, "zk://%s", h); break;
    case 1: snprintf(url, sizeof url, "zk://%s/idgen/fuzz", h); break;
    case 2: snprintf(url, sizeof url, "zk://fuzz:%s@%s", password, h); break;
    case 3: snprintf(url, sizeof url, "postgres://fuzz:%s@%s/db?sslmode=disable&connect_timeout=1", password, h); break;
    case 4: snprintf(url, sizeof url, "postgresql://fuzz:%s@%s/db", password, h); break;
    case 5: snprintf(url, sizeof url, "mysql://fuzz:%s@%s/db", password, h); break;
    case 6: snprintf(url, sizeof url, "redis://fuzz:%s@%s/0", password, h); break;
    case 7: snprintf(url, sizeof url, "etcd://fuzz:%s@%s", password, h); break;
    default: snprintf(url, sizeof url, "%s", PICK(r, ((const char *[]){"zk://127.0.0.1:0", "zk://127.0.0.1:70000", "zk://:1", "zk:///x", "postgres://",
        "postgres://127.0.0.1:1:2/db", "zk://127.0.0.1:1//", "zk://127.0.0.1:1/zookeeper", "zk://127.0.0.1:1/a b"})));
    }
    if (chance(r, 80))
        cfg_set(c, "preset", PICK(r, ((const char *[]){"snowflake", "leaf", "zk-session", "zxid", "baidu", "sonyflake"})));
    cfg_set(c, "worker", url);
    x.preset = cfg_get(c, "preset");
    x.fam = preset_family(x.preset);
    x.w = preset_widths(x.preset);
    add(&x, c, "lease_ttl");
    if (chance(r, 60))
        add(&x, c, "max_wait");
    if (chance(r, 20))
        add(&x, c, "lease_table");
    if (chance(r, 10))
        add(&x, c, "datacenter");
    if (chance(r, 10) && table_has_key("max_skew"))
        add(&x, c, "max_skew");
    cfg_render(c, r, 0);
}
