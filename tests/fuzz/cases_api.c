/*
 * Cases on the ABI around generators: the process-wide default generator
 * (IDGEN_CONFIG, idgen_configure), two spellings of one configuration
 * (separators, order, quoting, 0x hex), a store on a closed port, and the
 * pure functions (idgen_format, idgen_parse, idgen_strerror, made-up
 * handles).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"


/* ---- two spellings of one configuration ---------------------------------------- */

static int int_key(const char *k) {
    static const char *keys[] = {"worker", "datacenter", "zxid_epoch", "boost", "padding", "pid", "loader_hash", "epoch", "step", "start"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(k, keys[i]) == 0)
            return 1;
    return 0;
}

void case_spellings(rng_t *r) {
    cfg_t a;
    gen_config(r, &case_env, &a);
    if (a.raw)
        return;
    cfg_render(&a, r, 1);
    cfg_t b = a;
    int hexed = 0;
    for (int i = 0; i < b.n; i++) {
        char *v = b.kv[i].val, *end;
        if (!int_key(b.kv[i].key) || !*v || !isdigit((unsigned char)*v))
            continue;
        long long n = strtoll(v, &end, 10);
        if (*end == 0 && n >= 0 && strlen(v) < 19 && chance(r, 70)) {
            snprintf(v, VALLEN, chance(r, 50) ? "0x%llx" : "0x%llX", n);
            hexed = 1;
        }
    }
    cfg_render(&b, r, 0);
    gen_t ga, gb;
    int rca, rcb;
    char ca[8192] = "", cb[8192] = "", ma[600] = "";
    int oa = open_gen(&ga, a.text, open_bound_ms(a.text), &rca);
    snprintf(ma, sizeof ma, "%s", idgen_last_error());
    if (oa) {
        strip_leased(ga.canon, ca, sizeof ca);
        close_gen(&ga);
    }
    int ob = open_gen(&gb, b.text, open_bound_ms(b.text), &rcb);
    if (ob) {
        strip_leased(gb.canon, cb, sizeof cb);
        close_gen(&gb);
    }
    if (rca != rcb && !(rca == IDGEN_ECLOCK || rcb == IDGEN_ECLOCK))
        finding(hexed ? "hex-spelling" : "spelling", "\"%s\" -> %s (%s) but the same pairs spelled \"%s\" -> %s (%s)", a.text, rc_name(rca),
            oa ? "" : ma, b.text, rc_name(rcb), ob ? "" : idgen_last_error());
    else if (oa && ob && strcmp(ca, cb) != 0)
        finding(hexed ? "hex-spelling" : "spelling", "\"%s\" opens as \"%s\" but \"%s\" as \"%s\"", a.text, ca, b.text, cb);
    free_gen(&ga);
    free_gen(&gb);
    check_all_unlocked("after two spellings were opened and closed");
}

/* ---- a store on a closed port --------------------------------------------------- */

void case_store(rng_t *r) {
    cfg_t c;
    char pw[64];
    gen_store_config(r, &case_env, &c, pw, sizeof pw);
    gen_t g;
    int rc;
    if (open_gen(&g, c.text, open_bound_ms(c.text), &rc)) {
        finding("store-open", "idgen_open with a store on a closed port -> OK");
        close_gen(&g);
    } else {
        const char *m = idgen_last_error();
        if (strstr(m, pw))
            finding("password", "idgen_open's message shows the password: %s", m);
        if (rc != IDGEN_EWORKER && rc != IDGEN_EINVAL)
            finding("store-code", "idgen_open with a store on a closed port -> %s: %s", rc_name(rc), m);
        if (rc == IDGEN_EINVAL)
            check_einval_names_key(&c);
        if (rc == IDGEN_EWORKER && !strstr(m, ":1") && !strstr(m, ":65535") && !strstr(m, ":2"))
            finding("store-message", "idgen_open -> EWORKER without naming the address: %s", m);
    }
    free_gen(&g);
}

/* ---- format, parse, strerror ----------------------------------------------------- */

static const char *ALPHA = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static void own_format(int64_t id, int base, int fixed, char *out) {
    const char *alpha = base <= 36 ? "0123456789abcdefghijklmnopqrstuvwxyz" : ALPHA;
    char tmp[80];
    int n = 0;
    uint64_t v = (uint64_t)id;
    do {
        tmp[n++] = alpha[v % (uint64_t)base];
        v /= (uint64_t)base;
    } while (v);
    int width = 0;
    if (fixed)
        for (uint64_t m = INT64_MAX; m; m /= (uint64_t)base)
            width++;
    int j = 0;
    for (int k = n; k < width; k++)
        out[j++] = '0';
    while (n)
        out[j++] = tmp[--n];
    out[j] = 0;
}

void case_pure(rng_t *r) {
    set_config("(none: format/parse/strerror)");
    if (strcmp(idgen_version(), IDGEN_VERSION_STRING) != 0)
        finding("version", "idgen_version() = \"%s\", header says %s", idgen_version(), IDGEN_VERSION_STRING);
    for (int it = 0; it < 300; it++) {
        int which = (int)rint_n(r, 10);
        if (which < 1) {
            int code = (int)(chance(r, 50) ? -rint_n(r, 120) : (int)rnd(r));
            const char *s = idgen_strerror(code);
            if (s == NULL || !*s)
                finding("strerror", "idgen_strerror(%d) is NULL or empty", code);
            continue;
        }
        if (which < 5) { /* format */
            int64_t ids[] = {0, 1, INT64_MAX, -1, INT64_MIN, (int64_t)(rnd(r) >> 1), (int64_t)(rnd(r) >> (1 + rint_n(r, 62))), 61, 62, 35, 36};
            int bases[] = {2, 10, 16, 36, 37, 61, 62, 0, 1, 63, -1, 64, INT_MAX, INT_MIN, (int)(2 + rint_n(r, 61))};
            int64_t id = PICK(r, ids);
            int base = PICK(r, bases);
            int fixed = chance(r, 50) ? 0 : PICK(r, ((const int[]){1, 7, -1}));
            int valid = id >= 0 && base >= 2 && base <= 62;
            char want[80] = "";
            if (valid)
                own_format(id, base, fixed, want);
            size_t need = strlen(want) + 1;
            size_t caps[] = {0, 1, need - 1, need, need + 1, 80};
            size_t cap = PICK(r, caps);
            char *buf = malloc(cap + 64);
            memset(buf, 0xA5, cap + 64);
            char call[160];
            snprintf(call, sizeof call, "idgen_format(%" PRId64 ", %d, %d, buf, %zu)", id, base, fixed, cap);
            begin_call(2000, "%s", call);
            int rc = idgen_format(id, base, fixed, buf + 32, cap);
            end_call();
            int untouched = 1, guards = 1;
            for (size_t i = 0; i < cap + 64; i++) {
                unsigned char b = (unsigned char)buf[i];
                if (b != 0xA5 && (i < 32 || i >= 32 + cap))
                    guards = 0;
                if (b != 0xA5)
                    untouched = 0;
            }
            if (!guards)
                finding("guard", "%s -> %s wrote outside buf", call, rc_name(rc));
            if (!valid && rc != IDGEN_EINVAL)
                finding("format", "%s -> %s, want EINVAL", call, rc_name(rc));
            else if (valid && cap < need && rc != IDGEN_ERANGE)
                finding("format", "%s -> %s, want ERANGE (the text takes %zu bytes)", call, rc_name(rc), need);
            else if (valid && cap >= need && (rc != IDGEN_OK || strcmp(buf + 32, want) != 0))
                finding("format", "%s -> %s \"%.70s\", want \"%s\"", call, rc_name(rc), rc == IDGEN_OK ? buf + 32 : "", want);
            if (rc != IDGEN_OK && !untouched)
                finding("written-on-failure", "%s -> %s but wrote to buf", call, rc_name(rc));
            if (rc == IDGEN_EINTERNAL)
                finding("einternal", "%s -> EINTERNAL: %.200s", call, idgen_last_error());
            if (rc == IDGEN_OK) {
                int64_t back = -5;
                int prc = idgen_parse(buf + 32, base, &back);
                if (prc != IDGEN_OK || back != id)
                    finding("parse", "idgen_parse(idgen_format(%" PRId64 ", %d)) -> %s %" PRId64, id, base, rc_name(prc), back);
            }
            free(buf);
            continue;
        }
        /* parse */
        char text[400];
        int base = chance(r, 80) ? (int)(2 + rint_n(r, 61)) : PICK(r, ((const int[]){0, 1, 63, -1, 10, 36, 62}));
        int k = (int)rint_n(r, 10);
        if (k < 4 && base >= 2 && base <= 62) {
            own_format((int64_t)(rnd(r) >> (1 + rint_n(r, 63))), base, chance(r, 30), text);
        } else if (k < 5) {
            snprintf(text, sizeof text, "%s", PICK(r, ((const char *[]){"", "0", "-1", "+1", " 1", "1 ", "9223372036854775807",
                "9223372036854775808", "99999999999999999999999", "7fffffffffffffff", "zzzzzzzzzzzzz", "AzL8n0Y58m7", "AzL8n0Y58m8",
                "0000000000000000000000000000000000000000001", "\xff", "1\x01"})));
        } else if (k < 6) {
            memset(text, '0' + (char)rint_n(r, 10), 300);
            text[300] = 0;
        } else {
            int n = 1 + (int)rint_n(r, 16);
            for (int i = 0; i < n; i++)
                text[i] = chance(r, 90) ? ALPHA[rint_n(r, 62)] : (char)(1 + rint_n(r, 255));
            text[n] = 0;
        }
        int64_t want = base >= 2 && base <= 62 ? own_parse(text, base) : -1;
        int64_t out = -5;
        char call[500];
        snprintf(call, sizeof call, "idgen_parse(\"%.300s\", %d, &out)", text, base);
        begin_call(2000, "%s", call);
        int rc = idgen_parse(text, base, &out);
        end_call();
        int wrc = want == -1 ? IDGEN_EINVAL : want == -2 ? IDGEN_ERANGE : IDGEN_OK;
        if (rc != wrc || (rc == IDGEN_OK && out != want))
            finding("parse", "%s -> %s %" PRId64 ", want %s %" PRId64, call, rc_name(rc), out, rc_name(wrc), want);
        if (rc != IDGEN_OK && out != -5)
            finding("written-on-failure", "%s -> %s but wrote out", call, rc_name(rc));
        if (chance(r, 3)) {
            if (idgen_parse(NULL, 10, &out) != IDGEN_EINVAL || idgen_parse("1", 10, NULL) != IDGEN_EINVAL)
                finding("parse-null", "idgen_parse with a NULL argument is not EINVAL");
            char b[8];
            if (idgen_format(1, 10, 0, NULL, 8) != IDGEN_EINVAL || idgen_format(1, 10, 0, b, 0) == IDGEN_OK)
                finding("format-null", "idgen_format with a NULL buf or cap 0 is not refused");
        }
    }
    for (int i = 0; i < 20; i++)
        do_madeup(NULL, r);
    if (idgen_open("worker=0", NULL) != IDGEN_EINVAL || idgen_next(NULL) != IDGEN_EINVAL)
        finding("null-args", "idgen_open(config, NULL) or idgen_next(NULL) is not EINVAL");
    idgen_close(NULL);
    /* A success does not clear the last error. */
    idgen_t *g = NULL;
    idgen_open("idgen_fuzz_probe=1", &g);
    static char before[8192];
    snprintf(before, sizeof before, "%s", idgen_last_error());
    char b[32];
    idgen_format(12345, 10, 0, b, sizeof b);
    if (strncmp(before, idgen_last_error(), sizeof before - 1) != 0)
        finding("last-error", "a successful idgen_format changed idgen_last_error() from \"%.60s\" to \"%.60s\"", before, idgen_last_error());
}

/* ---- the default generator ------------------------------------------------------ */

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* idgen_configure with the same string never repeats an id of the old
 * generator. */
static void no_repeats(int64_t *ids, size_t n) {
    qsort(ids, n, sizeof *ids, cmp64);
    for (size_t i = 1; i < n; i++)
        if (ids[i] == ids[i - 1]) {
            finding("default-repeat", "the default generator handed out id %" PRId64 " twice across idgen_configure of one string", ids[i]);
            return;
        }
}

/* idgen_next_id in a thread while the case calls idgen_configure: a swap
 * never makes it fail (DESIGN). */
static volatile int race_stop;
static volatile int64_t race_bad;

static void *next_id_loop(void *p) {
    (void)p;
    while (!race_stop) {
        int64_t id = idgen_next_id();
        if (id == IDGEN_ECLOSED || id == IDGEN_EINTERNAL || id == IDGEN_EFORKED || (id < 0 && id != IDGEN_EINVAL && id != IDGEN_EWORKER &&
                                                                                      id != IDGEN_ECLOCK && id != IDGEN_EOVERFLOW))
            race_bad = id;
        if (id < 0)
            usleep(1000);
    }
    return NULL;
}

/* A generator that never waits long: a fine unit, a wide sequence. */
static int fast(const gen_t *g) { return g->unit_ms <= 10 && g->seq_bits >= 8 && g->seq_random < 64; }

void case_default(rng_t *r) {
    cfg_t c;
    int set_env = !case_env.private_vartmp || chance(r, 60);
    if (set_env) {
        gen_config(r, &case_env, &c);
        if (!case_env.private_vartmp && cfg_get(&c, "lease_dir") == NULL && !c.raw) {
            char d[4096];
            cfg_set(&c, "lease_dir", dir_path(&case_env, DIR_GOOD, d, sizeof d));
            cfg_render(&c, r, 1);
        }
        setenv("IDGEN_CONFIG", c.text, 1);
        set_config(c.text);
    } else {
        unsetenv("IDGEN_CONFIG");
        set_config("(IDGEN_CONFIG unset: the defaults)");
    }
    int64_t last = -1;
    static int64_t all[20000];
    size_t n_all = 0;
    int ops = 3 + (int)rint_n(r, 12);

    char current[8192];
    snprintf(current, sizeof current, "%s", set_env ? c.text : "");
    /* ids the default generator may be asked for without waiting long for
     * a coarse unit's next tick (counted per configuration) */
    static gen_t d;
    gen_describe(&d, current);
    for (int i = 0; i < ops; i++) {
        int op = (int)rint_n(r, 10);
        if (op < 4) {
            int k = 1 + (int)rint_n(r, 200);
            if (k > next_budget(&d))
                k = (int)next_budget(&d);
            d.issued += k;
            begin_call(4000 + open_bound_ms(current), "idgen_next_id() x%d", k);
            for (int j = 0; j < k; j++) {
                int64_t id = idgen_next_id();
                if (id < 0) {
                    if (id == IDGEN_EINTERNAL || id == IDGEN_ECLOSED || id == IDGEN_ERANGE || id < IDGEN_EINTERNAL || id == IDGEN_EFORKED)
                        finding("default-code", "idgen_next_id() -> %s: %.200s", rc_name(id), idgen_last_error());
                    break;
                }
                if (id <= last)
                    finding("order", "idgen_next_id() -> %" PRId64 " after %" PRId64 " under one configuration", id, last);
                last = id;
                if (n_all < 20000)
                    all[n_all++] = id;
            }
            end_call();
        } else if (op < 6) {
            size_t n = (size_t)rint_n(r, 300);
            if ((int64_t)n > next_budget(&d))
                n = (size_t)next_budget(&d);
            d.issued += (int64_t)n;
            int64_t *out = malloc((n + 8) * 8);
            memset(out, 0xA5, (n + 8) * 8);
            begin_call(4000 + open_bound_ms(current), "idgen_next_ids(out, %zu)", n);
            int rc = idgen_next_ids(out + 4, n);
            end_call();
            if (!(((unsigned char *)out)[0] == 0xA5 && ((unsigned char *)(out + 4 + n))[0] == 0xA5 && ((unsigned char *)(out + 4 + n))[31] == 0xA5))
                finding("guard", "idgen_next_ids(out, %zu) wrote outside out", n);
            if (rc == IDGEN_OK) {
                for (size_t j = 0; j < n; j++) {
                    if (out[4 + j] <= last)
                        finding("order", "idgen_next_ids -> %" PRId64 " after %" PRId64, out[4 + j], last);
                    last = out[4 + j];
                    if (n_all < 20000)
                        all[n_all++] = last;
                }
            } else if (rc == IDGEN_EINTERNAL || rc == IDGEN_ECLOSED) {
                finding("default-code", "idgen_next_ids(out, %zu) -> %s: %.200s", n, rc_name(rc), idgen_last_error());
            }
            free(out);
        } else if (op < 8) {
            idgen_parts p;
            int64_t id = last >= 0 ? last : (int64_t)(rnd(r) >> 1);
            begin_call(4000 + open_bound_ms(current), "idgen_decode(%" PRId64 ", &p)", id);
            int rc = idgen_decode(id, &p);
            end_call();
            if (rc == IDGEN_EINTERNAL || rc == IDGEN_ECLOSED || (last >= 0 && id == last && rc != IDGEN_OK))
                finding("default-decode", "idgen_decode(%" PRId64 ") -> %s: %.200s", id, rc_name(rc), idgen_last_error());
        } else {
            cfg_t n;
            gen_config(r, &case_env, &n);
            if (!case_env.private_vartmp && cfg_get(&n, "lease_dir") == NULL && !n.raw) {
                char d[4096];
                cfg_set(&n, "lease_dir", dir_path(&case_env, DIR_GOOD, d, sizeof d));
                cfg_render(&n, r, 1);
            }
            const char *cfgs = chance(r, 10) && case_env.private_vartmp ? NULL : n.text;
            set_config(cfgs ? cfgs : "(NULL)");
            /* idgen_next_id in another thread meanwhile, when neither the
             * old nor the new generator can make it wait for a later tick */
            gen_t nd;
            gen_describe(&nd, cfgs ? cfgs : "");
            pthread_t racer;
            race_stop = 0, race_bad = 0;
            int racing = chance(r, 40) && fast(&d) && fast(&nd) && pthread_create(&racer, NULL, next_id_loop, NULL) == 0;
            begin_call(4000 + open_bound_ms(cfgs ? cfgs : ""), "idgen_configure(config)%s", racing ? " racing idgen_next_id()" : "");
            int rc = idgen_configure(cfgs);
            if (racing) {
                race_stop = 1;
                pthread_join(racer, NULL);
            }
            end_call();
            if (race_bad)
                finding("configure-race", "idgen_next_id() racing idgen_configure(config) -> %s", rc_name(race_bad));
            if (rc == IDGEN_OK) {
                /* the replacement may hold another pair, whose ids need not
                 * be above the old ones; with the same string none repeats */
                last = -1;
                if (strcmp(current, cfgs ? cfgs : "") != 0) {
                    no_repeats(all, n_all);
                    n_all = 0;
                    int64_t before = d.issued;
                    gen_describe(&d, cfgs ? cfgs : "");
                    d.issued = before; /* a swap on the same pair goes on in its tick */
                }
                snprintf(current, sizeof current, "%s", cfgs ? cfgs : "");
            } else if (rc != IDGEN_EINVAL && rc != IDGEN_EWORKER && rc != IDGEN_ECLOCK && rc != IDGEN_EOVERFLOW) {
                finding("configure-code", "idgen_configure(config) -> %s: %.200s", rc_name(rc), idgen_last_error());
            }
            set_config(current);
        }
    }
    no_repeats(all, n_all);
}
