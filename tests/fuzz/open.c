/*
 * Opening and closing generators, and what the fuzzer reads of them: the
 * configuration strings the library prints, the time an open may take,
 * the status codes and messages of failures.
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

/* ---- reading what the library printed ------------------------------------- */

/* Splits a configuration string the way idgen's syntax does (white space
 * or ';' between pairs, single quotes with \' and \\). */
void kv_parse(const char *s, cfg_t *out) {
    memset(out, 0, sizeof *out);
    const char *p = s;
    for (;;) {
        while (*p && strchr(" \t\n\r\v\f;", *p))
            p++;
        if (!*p || out->n >= MAXKV)
            return;
        const char *k = p;
        while (*p && *p != '=' && !strchr(" \t\n\r\v\f;", *p))
            p++;
        if (*p != '=')
            return;
        kv_t *kv = &out->kv[out->n++];
        snprintf(kv->key, sizeof kv->key, "%.*s", (int)(p - k), k);
        p++;
        size_t j = 0;
        if (*p == '\'') {
            for (p++; *p && *p != '\''; p++) {
                if (*p == '\\' && p[1])
                    p++;
                if (j + 1 < VALLEN)
                    kv->val[j++] = *p;
            }
            if (*p)
                p++;
        } else {
            for (; *p && !strchr(" \t\n\r\v\f;", *p); p++)
                if (j + 1 < VALLEN)
                    kv->val[j++] = *p;
        }
        kv->val[j] = 0;
    }
}

/* A Go duration ("1h0m0s", "1.5s", "100ms", "0s") in ms; -1 if unreadable. */
int64_t go_dur_ms(const char *s) {
    if (s == NULL || !*s)
        return -1;
    if (strcmp(s, "0") == 0)
        return 0;
    double total = 0;
    const char *p = s;
    if (*p == '-')
        return -1;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p)
            return -1;
        p = end;
        double mul;
        if (strncmp(p, "ms", 2) == 0) mul = 1, p += 2;
        else if (strncmp(p, "us", 2) == 0) mul = 1e-3, p += 2;
        else if (strncmp(p, "\xc2\xb5s", 3) == 0) mul = 1e-3, p += 3;
        else if (strncmp(p, "ns", 2) == 0) mul = 1e-6, p += 2;
        else if (*p == 's') mul = 1e3, p++;
        else if (*p == 'm') mul = 60e3, p++;
        else if (*p == 'h') mul = 3600e3, p++;
        else return -1;
        total += v * mul;
    }
    return total > 9e15 ? INT64_MAX / 4 : (int64_t)(total + 0.999);
}

int64_t dur_or(const cfg_t *c, const char *key, int64_t dflt) {
    int64_t v = go_dur_ms(cfg_get(c, key));
    return v >= 0 ? v : dflt;
}

/* How long idgen_open of config may take. DESIGN: no call blocks longer
 * than max_wait plus a store round trip; an unreachable store fails within
 * about lease_ttl plus a few seconds. The slack covers a loaded machine. */
int64_t open_bound_ms(const char *config) {
    cfg_t c;
    kv_parse(config ? config : "", &c);
    const char *w = cfg_get(&c, "worker");
    int fam = preset_family(cfg_get(&c, "preset"));
    int textfam = fam == FAM_ROCKET || fam == FAM_ROCKETV1 || fam == FAM_RANDTEXT;
    int store = w && strstr(w, "://");
    int lease = !textfam && (w == NULL || strcmp(w, "lease") == 0 || store);
    const int64_t slack = 3000;
    if (!lease)
        return slack;
    int64_t ttl = dur_or(&c, "lease_ttl", store ? 10000 : 1000);
    if (store)
        return ttl + 5000 + slack;
    int64_t outage = dur_or(&c, "max_outage", ttl > 1000 ? ttl : 1000);
    int64_t unit = dur_or(&c, "unit", fam == FAM_CACHED || (cfg_get(&c, "preset") && strncmp(cfg_get(&c, "preset"), "baidu", 5) == 0) ? 1000 : 1);
    int64_t drift = 0;
    if (fam == FAM_CACHED) { /* unit << boost, boost 3 by default */
        int64_t boost = cfg_get(&c, "boost") ? strtoll(cfg_get(&c, "boost"), NULL, 0) : 3;
        drift = boost >= 0 && boost <= 20 ? unit << boost : unit * 8;
    }
    else if (cfg_get(&c, "on_exhausted") && strcmp(cfg_get(&c, "on_exhausted"), "borrow") == 0)
        drift = unit > 1000 ? unit : 1000;
    drift = dur_or(&c, "max_drift", drift);
    int64_t wait = dur_or(&c, "max_wait", outage + drift + 1000);
    /* on_clock_back=wait:<d> asks to wait up to d for a record ahead */
    const char *ocb = cfg_get(&c, "on_clock_back");
    int64_t policy = 0;
    for (const char *p = ocb ? strstr(ocb, "wait:") : NULL; p; p = strstr(p + 5, "wait:")) {
        char d[64];
        snprintf(d, sizeof d, "%.*s", (int)strcspn(p + 5, ","), p + 5);
        int64_t v = go_dur_ms(d);
        if (v > policy)
            policy = v;
    }
    return wait + policy + slack;
}

/* How long after a first attempt everything a pool's earlier holders may
 * have issued is behind the clock (max_outage plus max_drift): a host
 * lease refused with ECLOCK then must open. -1 when it does not apply. */
int64_t lease_settle_ms(const char *config) {
    cfg_t c;
    kv_parse(config ? config : "", &c);
    const char *w = cfg_get(&c, "worker");
    int fam = preset_family(cfg_get(&c, "preset"));
    if ((w && strcmp(w, "lease") != 0) || fam == FAM_ROCKET || fam == FAM_ROCKETV1 || fam == FAM_RANDTEXT || cfg_get(&c, "epoch"))
        return -1;
    int64_t ttl = dur_or(&c, "lease_ttl", 1000);
    int64_t outage = dur_or(&c, "max_outage", ttl > 1000 ? ttl : 1000);
    int64_t drift = dur_or(&c, "max_drift", 0);
    if (fam == FAM_CACHED || (cfg_get(&c, "on_exhausted") && strcmp(cfg_get(&c, "on_exhausted"), "borrow") == 0))
        drift = drift > 0 ? drift : 8000;
    /* ids of the current tick may have been issued: a coarse unit waits
     * for the next one, which may be far */
    int64_t unit = dur_or(&c, "unit", fam == FAM_CACHED || (cfg_get(&c, "preset") && strncmp(cfg_get(&c, "preset"), "baidu", 5) == 0) ? 1000 : 1);
    if (unit > 1000)
        return -1;
    return outage + drift + unit + 200;
}

/* ---- status codes ------------------------------------------------------- */

const char *rc_name(int64_t rc) {
    switch (rc) {
    case IDGEN_OK: return "OK";
    case IDGEN_EINVAL: return "EINVAL";
    case IDGEN_ECLOCK: return "ECLOCK";
    case IDGEN_EOVERFLOW: return "EOVERFLOW";
    case IDGEN_ECLOSED: return "ECLOSED";
    case IDGEN_EWORKER: return "EWORKER";
    case IDGEN_ERANGE: return "ERANGE";
    case IDGEN_EFORKED: return "EFORKED";
    case IDGEN_EINTERNAL: return "EINTERNAL";
    }
    return rc >= 0 ? "an id" : "an unknown code";
}

/* A failure's message: EINTERNAL is always a bug; a message must say
 * something. */
void check_message(int64_t rc, const char *call) {
    const char *m = idgen_last_error();
    if (rc == IDGEN_EINTERNAL) {
        char first[300];
        snprintf(first, sizeof first, "%s", m);
        char *nl = strchr(first, '\n');
        if (nl)
            *nl = 0;
        finding("einternal", "%s -> EINTERNAL: %s", call, first);
    } else if (m == NULL || m[0] == 0) {
        finding("no-message", "%s -> %s with an empty idgen_last_error()", call, rc_name(rc));
    }
}

/* ---- generators ------------------------------------------------------------ */

static void layout_bits(gen_t *g, const char *layout) {
    g->seq_bits = g->worker_bits = g->dc_bits = g->time_bits = g->total_bits = 0;
    char buf[VALLEN];
    snprintf(buf, sizeof buf, "%s", layout ? layout : "");
    for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(f, ':');
        if (!colon)
            continue;
        *colon = 0;
        int w = atoi(colon + 1);
        g->total_bits += w;
        if (strcmp(f, "seq") == 0 || strcmp(f, "counter") == 0)
            g->seq_bits = w;
        else if (strcmp(f, "worker") == 0)
            g->worker_bits = w;
        else if (strcmp(f, "datacenter") == 0)
            g->dc_bits = w;
        else if (strcmp(f, "time") == 0)
            g->time_bits = w;
    }
}

static void gen_from_canon(gen_t *g) {
    cfg_t c;
    kv_parse(g->canon, &c);
    const char *preset = cfg_get(&c, "preset");
    g->fam = preset_family(preset);
    g->text_only = g->fam == FAM_ROCKET || g->fam == FAM_ROCKETV1 || g->fam == FAM_RANDTEXT;
    const char *lease = cfg_get(&c, "lease");
    g->decode_only = lease && strcmp(lease, "off") == 0;
    layout_bits(g, cfg_get(&c, "layout"));
    g->unit_ms = dur_or(&c, "unit", 1);
    if (g->unit_ms <= 0)
        g->unit_ms = 1;
    const char *clk = cfg_get(&c, "clock");
    g->wall = clk && strcmp(clk, "wall") == 0;
    const char *ex = cfg_get(&c, "on_exhausted");
    g->borrow = ex && strcmp(ex, "borrow") == 0;
    g->max_drift_ms = dur_or(&c, "max_drift", 0);
    g->max_outage_ms = dur_or(&c, "max_outage", 0);
    g->lease_ttl_ms = dur_or(&c, "lease_ttl", 0);
    const char *ss = cfg_get(&c, "seq_start");
    g->seq_random = ss && strncmp(ss, "random:", 7) == 0 ? strtoll(ss + 7, NULL, 10) : 0;
    const char *w = cfg_get(&c, "worker"), *d = cfg_get(&c, "datacenter");
    char *end;
    g->fixed_worker = g->fixed_dc = -2;
    if (w && *w) {
        long long v = strtoll(w, &end, 10);
        if (*end == 0)
            g->fixed_worker = v;
    }
    if (d && *d) {
        long long v = strtoll(d, &end, 10);
        if (*end == 0)
            g->fixed_dc = v;
    }
    const char *t = cfg_get(&c, "text");
    snprintf(g->text_form, sizeof g->text_form, "%s", g->text_only ? (preset ? preset : "?") : t ? t : "dec");
    const char *ld = cfg_get(&c, "lease_dir");
    g->lease_dir[0] = 0;
    if (w && strcmp(w, "lease") == 0)
        snprintf(g->lease_dir, sizeof g->lease_dir, "%s", ld ? ld : "/var/tmp/idgen");
}

/* What the fuzzer can tell of a configuration before opening it (for a
 * generator it has no handle of: the default one). */
void gen_describe(gen_t *g, const char *config) {
    memset(g, 0, sizeof *g);
    snprintf(g->canon, sizeof g->canon, "%s", config ? config : "");
    gen_from_canon(g);
    cfg_t c;
    kv_parse(g->canon, &c);
    int seq;
    int64_t unit;
    preset_defaults(cfg_get(&c, "preset"), &seq, &unit);
    if (cfg_get(&c, "layout") == NULL)
        g->seq_bits = seq;
    if (cfg_get(&c, "unit") == NULL)
        g->unit_ms = unit;
    if (cfg_get(&c, "seq_start") == NULL && cfg_get(&c, "preset") && strcmp(cfg_get(&c, "preset"), "leaf") == 0)
        g->seq_random = 100;
}

void read_stats(gen_t *g, idgen_stats *st) {
    memset(st, 0, sizeof *st);
    begin_call(3000, "idgen_get_stats(g, &st, sizeof st)");
    int rc = idgen_get_stats(g->h, st, sizeof *st);
    end_call();
    if (rc != IDGEN_OK) {
        check_message(rc, "idgen_get_stats");
        finding("stats-code", "idgen_get_stats(g, &st, sizeof st) on an open generator -> %s", rc_name(rc));
    }
    if (st->fence_unix_ms > g->fence_seen)
        g->fence_seen = st->fence_unix_ms;
}

/* Tells the driver which keys were opened with what outcome (coverage). */
static void note_open(const char *config, int rc) {
    cfg_t c;
    kv_parse(config ? config : "", &c);
    char line[2048];
    int n = snprintf(line, sizeof line, "OPEN\t%d\t", rc);
    for (int i = 0; i < c.n && n < (int)sizeof line - 100; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", i ? " " : "", c.kv[i].key);
    const char *p = cfg_get(&c, "preset");
    /* why it failed, with numbers and paths left out, for the summary */
    char why[96] = "";
    if (rc == IDGEN_ECLOCK || rc == IDGEN_EWORKER) {
        size_t j = 0;
        for (const char *m = idgen_last_error(); *m && j + 2 < sizeof why; m++) {
            if (*m >= '0' && *m <= '9') {
                while (m[1] >= '0' && m[1] <= '9')
                    m++;
                why[j++] = '#';
            } else if (*m == '/' || *m == '\t' || *m == '\n') {
                while (m[1] && m[1] != ' ' && m[1] != ':' && m[1] != ',')
                    m++;
                why[j++] = '~';
            } else {
                why[j++] = *m;
            }
        }
        why[j] = 0;
    }
    n += snprintf(line + n, sizeof line - (size_t)n, "\t%.60s\t%s\n", p ? p : "", why);
    if (write(1, line, (size_t)n) < 0)
        _exit(3);
}

/* Opens config; on success fills g from what the library says of it. */
int open_gen(gen_t *g, const char *config, int64_t bound_ms, int *rc_out) {
    memset(g, 0, sizeof *g);
    snprintf(g->config, sizeof g->config, "%s", config ? config : "(null)");
    set_config(g->config);
    idgen_t *h = (idgen_t *)(uintptr_t)0x5a5a5a5a;
    begin_call(bound_ms, "idgen_open(config, &g)");
    int rc = idgen_open(config, &h);
    end_call();
    *rc_out = rc;
    note_open(config, rc);
    if (rc != IDGEN_OK) {
        check_message(rc, "idgen_open(config, &g)");
        if (h != (idgen_t *)(uintptr_t)0x5a5a5a5a)
            finding("open-out", "idgen_open(config, &g) -> %s but wrote *out", rc_name(rc));
        if (rc != IDGEN_EINVAL && rc != IDGEN_EWORKER && rc != IDGEN_ECLOCK && rc != IDGEN_EOVERFLOW && rc != IDGEN_EINTERNAL)
            finding("open-code", "idgen_open(config, &g) -> %s (%" PRId64 "): %s", rc_name(rc), (int64_t)rc, idgen_last_error());
        return 0;
    }
    g->h = h;
    g->last = -1;
    g->pair_dc = g->pair_w = -1;
    char *buf = gb_new(8192);
    begin_call(3000, "idgen_config_string(g, buf, 8192)");
    int crc = idgen_config_string(h, buf, 8192);
    end_call();
    if (crc != IDGEN_OK) {
        check_message(crc, "idgen_config_string");
        finding("config-string", "idgen_config_string(g, buf, 8192) on a fresh generator -> %s", rc_name(crc));
        buf[0] = 0;
    }
    snprintf(g->canon, sizeof g->canon, "%s", buf);
    gb_free(buf);
    gen_from_canon(g);
    idgen_stats st;
    read_stats(g, &st);
    g->leasing = st.lease_state != IDGEN_LEASE_NONE;
    if (g->leasing) {
        g->pair_dc = st.datacenter;
        g->pair_w = st.worker;
        if (st.lease_state != IDGEN_LEASE_HELD && st.lease_state != IDGEN_LEASE_RIDING)
            finding("lease-state", "a generator just opened reports lease_state %" PRId64, st.lease_state);
        if (st.leases_taken < 1)
            finding("lease-state", "a leased generator reports leases_taken %" PRId64, st.leases_taken);
        char want[64];
        snprintf(want, sizeof want, "leased=%" PRId64 "/%" PRId64, st.datacenter < 0 ? 0 : st.datacenter, st.worker < 0 ? 0 : st.worker);
        if (strstr(g->canon, "leased=") && !strstr(g->canon, want))
            finding("leased-pair", "idgen_config_string shows another pair than the stats (%s): %s", want, g->canon);
        if (g->lease_dir[0] && st.worker >= 0 && pair_file_locked(g->lease_dir, st.datacenter < 0 ? 0 : st.datacenter, st.worker) == 0)
            finding("lease-unlocked", "a leased generator's pair %" PRId64 "/%" PRId64 " has no locked file in %s", st.datacenter, st.worker, g->lease_dir);
    }
    if (strstr(g->canon, "switched=") && st.leases_taken <= 1)
        finding("switched-shown", "idgen_config_string reports a switch that never happened: %s", g->canon);
    return 1;
}

void close_gen(gen_t *g) {
    if (g->h == NULL || g->closed)
        return;
    set_config(g->config);
    begin_call(3000, "idgen_close(g)");
    idgen_close(g->h);
    end_call();
    g->closed = 1;
}

void free_gen(gen_t *g) {
    free(g->ids);
    g->ids = NULL;
}
