/*
 * Text ids: idgen_next_text at every capacity around the form's length,
 * the form's alphabet and order, idgen_decode_text of its own texts and
 * of near misses.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

/* ---- text ------------------------------------------------------------------ */

static int64_t text_need(const gen_t *g, int *unknown) {
    *unknown = 0;
    const char *f = g->text_form;
    if (strcmp(f, "base36") == 0) return 14;
    if (strcmp(f, "base62") == 0) return 12;
    if (strcmp(f, "uuidv7") == 0) return 37;
    if (strcmp(f, "ulid") == 0) return 27;
    if (strcmp(f, "rocketmq-v1") == 0) return 35;
    if (strcmp(f, "rocketmq") == 0) {
        cfg_t c;
        kv_parse(g->canon, &c);
        const char *ip = cfg_get(&c, "ip");
        if (ip && strcmp(ip, "auto") != 0)
            return strchr(ip, ':') ? 57 : 33;
        *unknown = 1;
        return 33;
    }
    if (strcmp(f, "dec") == 0) return 20;
    *unknown = 1;
    return IDGEN_TEXT_MAX;
}

static int in_set(const char *s, const char *set) {
    for (; *s; s++)
        if (!strchr(set, *s))
            return 0;
    return 1;
}

static const char *B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
static const char *B36 = "0123456789abcdefghijklmnopqrstuvwxyz";

/* The fuzzer's own reading of a number in base 2..62 (idgen's alphabets):
 * -1 for text it would refuse, -2 for a value above INT64_MAX. */
int64_t own_parse(const char *s, int base) {
    if (!*s || base < 2 || base > 62)
        return -1;
    const char *alpha = base <= 36 ? B36 : B62;
    uint64_t v = 0;
    for (; *s; s++) {
        const char *p = memchr(alpha, *s, (size_t)base);
        if (p == NULL || *s == 0)
            return -1;
        uint64_t d = (uint64_t)(p - alpha);
        if (v > (UINT64_C(0x7fffffffffffffff) - d) / (uint64_t)base)
            return -2;
        v = v * (uint64_t)base + d;
    }
    return (int64_t)v;
}

static uint64_t fnv(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h & 0x7fffffffffffffffULL;
}

/* Checks one text the generator made: its form, order, and that it
 * decodes back. */
void check_text(gen_t *g, const char *t, size_t len) {
    const char *f = g->text_form;
    int ok = 1;
    int64_t num = -1;
    if (strcmp(f, "dec") == 0) {
        ok = len >= 1 && len <= 19 && in_set(t, "0123456789") && (len == 1 || t[0] != '0');
        num = ok ? own_parse(t, 10) : -1;
    } else if (strcmp(f, "base36") == 0) {
        ok = len == 13 && in_set(t, B36);
        num = ok ? own_parse(t, 36) : -1;
    } else if (strcmp(f, "base62") == 0) {
        ok = len == 11 && in_set(t, B62);
        num = ok ? own_parse(t, 62) : -1;
    } else if (strcmp(f, "uuidv7") == 0) {
        ok = len == 36 && t[8] == '-' && t[13] == '-' && t[18] == '-' && t[23] == '-' && t[14] == '7' && strchr("89ab", t[19]);
        for (size_t i = 0; ok && i < len; i++)
            ok = (i == 8 || i == 13 || i == 18 || i == 23) ? 1 : strchr("0123456789abcdef", t[i]) != NULL;
    } else if (strcmp(f, "ulid") == 0) {
        ok = len == 26 && in_set(t, "0123456789ABCDEFGHJKMNPQRSTVWXYZ") && t[0] <= '7';
    } else if (strcmp(f, "rocketmq") == 0) {
        ok = (len == 32 || len == 56) && in_set(t, "0123456789ABCDEF");
    } else if (strcmp(f, "rocketmq-v1") == 0) {
        ok = len == 34 && t[0] == '0' && t[1] == '1' && in_set(t, "0123456789ABCDEF");
    }
    if (!ok)
        finding("text-form", "idgen_next_text(g) wrote \"%s\", not a %s id", t, f);
    if (num >= 0 || (!g->text_only && ok)) {
        if (num <= g->last)
            finding("order", "idgen_next_text(g) wrote \"%s\" (%" PRId64 ") after %" PRId64, t, num, g->last);
        g->last = num;
        keep(g, num);
        if (strcmp(f, "dec") != 0) {
            int64_t v = -9;
            int rc = idgen_parse(t, strcmp(f, "base36") == 0 ? 36 : 62, &v);
            if (rc != IDGEN_OK || v != num)
                finding("text-parse", "idgen_parse(\"%s\") -> %s %" PRId64 ", its number is %" PRId64, t, rc_name(rc), v, num);
        }
    } else {
        int sortable = strcmp(f, "uuidv7") == 0 || strcmp(f, "ulid") == 0;
        if (sortable && g->last_text[0] && strcmp(t, g->last_text) <= 0)
            finding("order", "idgen_next_text(g) wrote \"%s\" after \"%s\"", t, g->last_text);
        keep(g, (int64_t)fnv(t));
    }
    snprintf(g->last_text, sizeof g->last_text, "%s", t);
    idgen_text_parts tp;
    memset(&tp, 0x5a, sizeof tp);
    begin_call(3000, "idgen_decode_text(g, \"%s\", &tp)", t);
    int rc = idgen_decode_text(g->h, t, &tp);
    end_call();
    if (rc != IDGEN_OK) {
        check_message(rc, "idgen_decode_text");
        finding("text-roundtrip", "idgen_decode_text(g, \"%s\") of its own text -> %s: %s", t, rc_name(rc), idgen_last_error());
        return;
    }
    if (num >= 0 && tp.id != num)
        finding("text-roundtrip", "idgen_decode_text(g, \"%s\").id = %" PRId64 ", want %" PRId64, t, tp.id, num);
    if (tp.addr_len != 0 && tp.addr_len != 4 && tp.addr_len != 6 && tp.addr_len != 16)
        finding("text-roundtrip", "idgen_decode_text(g, \"%s\").addr_len = %d", t, tp.addr_len);
    if (g->text_only && g->fam != FAM_ROCKET) {
        int64_t now = wall_ms();
        if (tp.unix_ms < now - 10000 || tp.unix_ms > now + 10000)
            finding("text-time", "idgen_decode_text(g, \"%s\").unix_ms = %" PRId64 ", the clock says %" PRId64, t, tp.unix_ms, now);
    }
    if (num >= 0) {
        idgen_parts p;
        if (idgen_decode_with(g->h, num, &p) == IDGEN_OK && p.unix_ms != tp.unix_ms)
            finding("text-roundtrip", "idgen_decode_text(\"%s\").unix_ms %" PRId64 " != idgen_decode_with(%" PRId64 ").unix_ms %" PRId64,
                t, tp.unix_ms, num, p.unix_ms);
    }
}

int do_text(gen_t *g, rng_t *r) {
    if (next_budget(g) <= 0)
        return 0;
    int unknown;
    int64_t need = text_need(g, &unknown);
    int64_t caps[] = {0, 1, need - 1, need, need, need + 1, IDGEN_TEXT_MAX, 100};
    int64_t cap = PICK(r, caps);
    if (unknown && cap > 32 && cap < 57)
        cap = 57; /* rocketmq with ip=auto: 33 or 57 */
    if (cap < 0)
        cap = 0;
    if (chance(r, 3)) {
        begin_call(3000, "idgen_next_text(g, NULL, 64)");
        int rc = idgen_next_text(g->h, NULL, 64);
        end_call();
        if (rc != IDGEN_EINVAL)
            finding("text-null", "idgen_next_text(g, NULL, 64) -> %s, want EINVAL", rc_name(rc));
        return 0;
    }
    idgen_stats before, after;
    read_stats(g, &before);
    char *buf = (char *)gb_new((size_t)cap);
    char call[96];
    snprintf(call, sizeof call, "idgen_next_text(g, buf, %" PRId64 ") after %" PRId64 " ids", cap, g->issued);
    begin_call(next_bound(g), "%s", call);
    int rc = idgen_next_text(g->h, cap ? buf : buf, (size_t)cap);
    end_call();
    if (!gb_guards_ok(buf, (size_t)cap))
        finding("guard", "%s -> %s wrote outside buf[0..%" PRId64 ")", call, rc_name(rc), cap);
    if (rc >= 0) {
        if (cap < need && !unknown)
            finding("text-cap", "%s -> %d with a cap below the documented %" PRId64, call, rc, need);
        if ((int64_t)rc + 1 > cap || buf[rc] != 0 || strlen(buf) != (size_t)rc)
            finding("text-nul", "%s -> %d but the text is not NUL-terminated there", call, rc);
        else
            check_text(g, buf, (size_t)rc);
    } else {
        if (!all_pat((unsigned char *)buf, (size_t)cap))
            finding("written-on-failure", "%s -> %s but wrote to buf", call, rc_name(rc));
        if (rc == IDGEN_ERANGE) {
            check_message(rc, call);
            if (cap >= need && !(unknown && cap < 57))
                finding("text-cap", "%s -> ERANGE although the cap holds the documented %" PRId64 " bytes", call, need);
            read_stats(g, &after);
            if (after.issued != before.issued)
                finding("consumed-on-erange", "%s -> ERANGE but issued went %" PRId64 " -> %" PRId64, call, before.issued, after.issued);
        } else if (!(next_code_ok(g, rc) && rc != IDGEN_EINVAL)) {
            failed_next(g, rc, call);
        } else {
            check_message(rc, call);
            if (rc == IDGEN_EOVERFLOW)
                g->overflowed = 1;
        }
    }
    gb_free(buf);
    return rc >= 0;
}

/* Junk for idgen_decode_text: near misses of a real text, and garbage. */
void do_decode_text_junk(gen_t *g, rng_t *r) {
    char t[400];
    snprintf(t, sizeof t, "%s", g->last_text[0] ? g->last_text : "0123456789ABCDEF0123456789ABCDEF");
    size_t n = strlen(t);
    switch (rint_n(r, 10)) {
    case 0: if (n) t[rint_n(r, (int64_t)n)] ^= 0x20; break;
    case 1: if (n) t[rint_n(r, (int64_t)n)] = PICK(r, ((const char[]){'G', 'I', 'L', 'O', 'U', '-', ' ', 'z', '\x80', '+'})); break;
    case 2: t[n ? rint_n(r, (int64_t)n) : 0] = 0; break;
    case 3: snprintf(t + n, sizeof t - n, "%s", PICK(r, ((const char *[]){"0", " ", "\n", "00", "-"}))); break;
    case 4: { char u[400]; snprintf(u, sizeof u, "%s%s", PICK(r, ((const char *[]){"0x", "+", "-", " ", "{", "urn:uuid:"})), t); snprintf(t, sizeof t, "%s", u); } break;
    case 5: memset(t, 'A' + (int)rint_n(r, 26), 300); t[300] = 0; break;
    case 6: memset(t, '0', 257); t[257] = 0; break;
    case 7: snprintf(t, sizeof t, "%s", PICK(r, ((const char *[]){"", "0", "-1", "9223372036854775808", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "80000000000000000000000000", "ffffffff-ffff-7fff-bfff-ffffffffffff", "01", "zzzzzzzzzzzzz", "ZZZZZZZZZZZ"}))); break;
    default: for (size_t i = 0; i < n; i++) if (chance(r, 20)) t[i] = (char)(1 + rint_n(r, 255)); break;
    }
    idgen_text_parts tp;
    memset(&tp, 0x5a, sizeof tp);
    idgen_text_parts same;
    memset(&same, 0x5a, sizeof same);
    begin_call(3000, "idgen_decode_text(g, junk, &tp)");
    int rc = idgen_decode_text(g->h, t, &tp);
    end_call();
    if (rc != IDGEN_OK && rc != IDGEN_EINVAL && rc != IDGEN_ERANGE) {
        check_message(rc, "idgen_decode_text");
        finding("decode-text-code", "idgen_decode_text(g, \"%.80s\") -> %s", t, rc_name(rc));
    }
    if (rc != IDGEN_OK && memcmp(&tp, &same, sizeof tp) != 0)
        finding("written-on-failure", "idgen_decode_text(g, \"%.80s\") -> %s but wrote to out", t, rc_name(rc));
    if (rc == IDGEN_EINTERNAL)
        check_message(rc, "idgen_decode_text");
    begin_call(3000, "idgen_decode_text(g, NULL, &tp)");
    rc = idgen_decode_text(g->h, NULL, &tp);
    end_call();
    if (rc != IDGEN_EINVAL)
        finding("decode-text-null", "idgen_decode_text(g, NULL, &tp) -> %s, want EINVAL", rc_name(rc));
}
