/*
 * What one case does, chosen by its seed: exercise a generator built from
 * the grammar, or every pair of a small pool; or one of cases_api.c's (the
 * default generator, two spellings of one configuration, a store on a
 * closed port, the pure functions).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

env_t case_env;

/* ---- what a configuration's lease_dir is ------------------------------------ */

static int dir_kind_of(const cfg_t *c) {
    const char *d = cfg_get(c, "lease_dir");
    if (d == NULL)
        return -1;
    char buf[4096];
    for (int k = 0; k < N_DIRS; k++)
        if (strcmp(d, dir_path(&case_env, k, buf, sizeof buf)) == 0)
            return k;
    return -1;
}

/* Every lease directory a case may have used: none may keep a lock once
 * every generator is closed. */
void check_all_unlocked(const char *why) {
    char buf[4096];
    for (int k = 0; k <= DIR_PLANTED; k++)
        check_no_locks(dir_path(&case_env, k, buf, sizeof buf), why);
    if (case_env.private_vartmp)
        check_no_locks("/var/tmp/idgen", why);
}

/* The key an EINVAL names must be one the configuration holds. */
void check_einval_names_key(const cfg_t *c) {
    const char *m = idgen_last_error();
    const char *colon = strchr(m, ':');
    char key[64] = "";
    if (colon && colon - m < (long)sizeof key)
        snprintf(key, sizeof key, "%.*s", (int)(colon - m), m);
    if (c->raw || strstr(m, "expected key=value"))
        return; /* hand-made syntax: any fragment of it */
    if (strcmp(key, "config") == 0)
        return;
    if (!table_has_key(key) && cfg_get(c, key) == NULL) {
        finding("einval-key", "idgen_open -> EINVAL whose message names no key: %s", m);
        return;
    }
    if (cfg_get(c, key) == NULL) {
        /* A key of the table the string does not hold: the preset's own
         * value (layout of baidu-cached) is fine, and so is a key the
         * preset requires (segment's name), anything else is not. */
        const char *preset = cfg_get(c, "preset");
        int required = strcmp(key, "name") == 0 && preset && strcmp(preset, "segment") == 0 && strstr(m, "needs name=");
        if (!(strcmp(key, "layout") == 0 && preset) && strcmp(key, "worker") != 0 && !required)
            finding("einval-key", "idgen_open -> EINVAL naming %s, which the configuration does not hold: %s", key, m);
    }
}

/* Checks of an open's outcome that need the case: trust of the lease
 * directory, the key an EINVAL names. */
static void judge_open(const cfg_t *c, int rc, int opened, const gen_t *g) {
    int kind = dir_kind_of(c);
    const char *m = idgen_last_error();
    if (rc == IDGEN_EINVAL)
        check_einval_names_key(c);
    if (kind >= 0 && !dir_trusted(kind) && opened && g->leasing)
        finding("untrusted-dir", "idgen_open took a lease in lease_dir %s (%s), which the trust rules refuse", cfg_get(c, "lease_dir"), dir_names[kind]);
    /* (a pool whose every pair's name is planted is full, not untrusted) */
    if (kind >= 0 && dir_trusted(kind) && rc == IDGEN_EWORKER && !strstr(m, "pairs") && (strstr(m, "not trusted") || strstr(m, "symlink")))
        finding("trusted-dir-refused", "idgen_open refused lease_dir %s (%s): %s", cfg_get(c, "lease_dir"), dir_names[kind], m);
    if (kind == DIR_MISSING && opened)
        finding("untrusted-dir", "idgen_open took a lease in a lease_dir that does not exist");
}

/* ---- a generator from the grammar ---------------------------------------------- */

/* A held lease renews every lease_ttl/3, each time moving its fence to
 * max_outage past the clock (DESIGN). */
static void hold(gen_t *g) {
    if (!g->leasing || g->lease_ttl_ms <= 0 || g->lease_ttl_ms > 1000 || g->closed)
        return;
    idgen_stats a, b;
    read_stats(g, &a);
    if (a.lease_state != IDGEN_LEASE_HELD)
        return;
    int64_t wait = g->lease_ttl_ms + 200;
    begin_call(wait + 3000, "sleep %" PRId64 " ms holding the lease (lease_ttl %" PRId64 " ms)", wait, g->lease_ttl_ms);
    usleep((useconds_t)wait * 1000);
    end_call();
    read_stats(g, &b);
    int64_t now = wall_ms(), slack = 1000 + g->unit_ms;
    if (b.lease_state != IDGEN_LEASE_HELD)
        return; /* a loaded machine may miss a renewal: RIDING is allowed */
    if (b.renewals <= a.renewals)
        finding("renewal", "no renewal in %" PRId64 " ms of a held lease (lease_ttl %" PRId64 " ms): renewals %" PRId64 " -> %" PRId64, wait,
            g->lease_ttl_ms, a.renewals, b.renewals);
    else if (b.fence_unix_ms >= 0 && g->fam != FAM_SESSION && g->fam != FAM_ZXID && b.fence_unix_ms < now + g->max_outage_ms - g->lease_ttl_ms / 3 - slack)
        finding("renewal", "a held lease's fence is %" PRId64 " ms past the clock, not max_outage (%" PRId64 " ms) after its last renewal",
            b.fence_unix_ms - now, g->max_outage_ms);
}

static void exercise(gen_t *g, rng_t *r, int nops) {
    for (int i = 0; i < nops && !g->closed; i++) {
        int op = (int)rint_n(r, 100);
        if (g->text_only && op < 40) /* their ids come from next_text */
            op = op < 4 ? op : 45;
        if (g->decode_only && (op < 52 || (op >= 82 && op < 86) || (op >= 94 && op < 98))) {
            do_refused(g); /* it issues nothing: no ids, threads, fork or lease to attack */
            continue;
        }
        if (op < 25)
            do_next(g, 1 + (int)rint_n(r, chance(r, 20) ? 3000 : 50));
        else if (op < 40)
            do_batch(g, r);
        else if (op < 52)
            do_text(g, r);
        else if (op < 64)
            do_decode_compose(g, r);
        else if (op < 72)
            do_config_string(g, r);
        else if (op < 82)
            do_stats(g, r);
        else if (op < 86)
            do_threads(g, r);
        else if (op < 94)
            do_decode_text_junk(g, r);
        else if (op < 96)
            do_fork(g);
        else if (op < 98)
            do_madeup(g, r);
        else
            hold(g);
    }
}

static int64_t file_size(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Removes the lease directory or replaces the pair's file under a live
 * holder: by its fence (directory gone) or its next renewal (file
 * replaced) it must stop issuing from that pair. */
static void sabotage(gen_t *g, rng_t *r) {
    idgen_stats st;
    read_stats(g, &st);
    if (!g->leasing || !g->lease_dir[0] || strncmp(g->lease_dir, case_env.root, strlen(case_env.root)) != 0 || g->text_only ||
        g->lease_ttl_ms > 1000 || st.fence_unix_ms < 0 || st.fence_unix_ms - wall_ms() > 2500 || g->fam == FAM_SESSION || g->fam == FAM_ZXID)
        return;
    if (chance(r, 50)) {
        rm_rf(g->lease_dir);
        struct stat gone;
        if (lstat(g->lease_dir, &gone) == 0)
            return;
        int64_t wait = st.fence_unix_ms - wall_ms() + g->lease_ttl_ms + 300;
        begin_call(wait + 3000, "sleep %" PRId64 " ms after removing lease_dir under the holder", wait);
        if (wait > 0)
            usleep((useconds_t)(wait * 1000));
        end_call();
        idgen_stats after;
        read_stats(g, &after);
        if (after.lease_state == IDGEN_LEASE_HELD)
            finding("lease-state", "lease_state HELD (last renewal acknowledged) %" PRId64 " ms after its lease_dir was removed", wait);
        int64_t id = -1;
        for (int i = 0; i < 3 && next_budget(g) > 0; i++) {
            begin_call(3000, "idgen_next(g) after lease_dir was removed and its fence passed");
            id = idgen_next(g->h);
            end_call();
            if (id >= 0) {
                idgen_parts p;
                if (idgen_decode_with(g->h, id, &p) == IDGEN_OK && p.unix_ms > st.fence_unix_ms)
                    finding("past-fence", "idgen_next(g) -> %" PRId64 " dated %" PRId64 " ms after its lease_dir was removed (fence was %" PRId64 ")",
                        id, p.unix_ms, st.fence_unix_ms);
                else
                    finding("dir-removed", "idgen_next(g) -> an id after lease_dir was removed and the fence %" PRId64 " passed", st.fence_unix_ms);
                break;
            }
        }
        return;
    }
    /* Replace the pair's file with another one under the same name. */
    char pool[512], path[8192], tmp[8300];
    if (!find_pool(g->lease_dir, pool, sizeof pool))
        return;
    snprintf(path, sizeof path, "%s/%s.%" PRId64 ".%" PRId64 ".lease", g->lease_dir, pool, st.datacenter < 0 ? 0 : st.datacenter, st.worker < 0 ? 0 : st.worker);
    if (file_size(path) < 0)
        return;
    snprintf(tmp, sizeof tmp, "%s.fuzz", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL)
        return;
    fputs("replaced\n", f);
    fclose(f);
    if (rename(tmp, path) != 0)
        return;
    int64_t wait = g->lease_ttl_ms + 300;
    begin_call(wait + 3000, "sleep %" PRId64 " ms after replacing the pair's lease file", wait);
    usleep((useconds_t)(wait * 1000));
    end_call();
    if (next_budget(g) <= 0)
        return;
    begin_call(3000, "idgen_next(g) after its lease file was replaced");
    int64_t id = idgen_next(g->h);
    end_call();
    if (id >= 0) {
        idgen_parts p;
        if (idgen_decode_with(g->h, id, &p) == IDGEN_OK && g->worker_bits > 0 &&
            pair_file_locked(g->lease_dir, p.datacenter < 0 ? 0 : p.datacenter, p.worker) != 1)
            finding("replaced-file", "idgen_next(g) -> an id of pair %" PRId64 "/%" PRId64 " whose lease file was replaced and is not locked",
                p.datacenter, p.worker);
    }
}

/* The pool's name, learned by opening the configuration in a scratch
 * directory; "" when it does not open there. */
static void learn_pool(const cfg_t *c, char *pool, size_t cap) {
    pool[0] = 0;
    char scratch[4096];
    snprintf(scratch, sizeof scratch, "%s/d_scratch", case_env.root);
    mkdir(scratch, 0755);
    cfg_t s = *c;
    cfg_set(&s, "lease_dir", scratch);
    cfg_render(&s, NULL, 1);
    gen_t g;
    int rc;
    if (open_gen(&g, s.text, open_bound_ms(s.text), &rc)) {
        close_gen(&g);
        find_pool(scratch, pool, cap);
    }
    free_gen(&g);
}

static void case_generator(rng_t *r) {
    cfg_t c;
    gen_config(r, &case_env, &c);
    int kind = dir_kind_of(&c);
    char pool[512] = "", victim[4096] = "";
    int planted[N_PLANT] = {0};
    if (kind == DIR_PLANTED) {
        learn_pool(&c, pool, sizeof pool);
        if (pool[0]) {
            char d[4096];
            plant(dir_path(&case_env, DIR_PLANTED, d, sizeof d), pool, r, victim, sizeof victim, planted);
        }
    }
    gen_t g;
    int rc;
    int opened = open_gen(&g, c.text, open_bound_ms(c.text), &rc);
    judge_open(&c, rc, opened, &g);
    if (!opened) {
        check_all_unlocked("after an idgen_open that failed");
        free_gen(&g);
        int64_t settle = lease_settle_ms(c.text);
        if (rc == IDGEN_ECLOCK && settle > 0 && settle <= 2500 && !c.raw && (kind < 0 || dir_trusted(kind)) && chance(r, 40)) {
            /* DESIGN: a pair without a record waits for its predecessors'
             * ids to pass once; once that time has passed, it opens. */
            char first[600];
            snprintf(first, sizeof first, "%s", idgen_last_error());
            begin_call(settle + 3000, "sleep %" PRId64 " ms (max_outage + max_drift) after ECLOCK", settle);
            usleep((useconds_t)settle * 1000);
            end_call();
            if (open_gen(&g, c.text, open_bound_ms(c.text), &rc))
                close_gen(&g);
            else if (rc == IDGEN_ECLOCK)
                finding("eclock-again", "idgen_open -> ECLOCK (%s), and again %" PRId64 " ms later, when nothing any holder issued can be ahead: %s",
                    first, settle, idgen_last_error());
            free_gen(&g);
        }
        return;
    }
    if (pool[0] && g.leasing) {
        for (int i = 0; i < N_PLANT; i++)
            if (planted[i] != PLANT_NONE && g.pair_dc == (g.dc_bits ? plant_pairs[i][0] : g.pair_dc) && g.pair_w == plant_pairs[i][1] &&
                (g.dc_bits || plant_pairs[i][0] == 0))
                finding("planted-pair", "idgen_open took pair %" PRId64 "/%" PRId64 " whose lease file name holds a planted %s",
                    g.pair_dc, g.pair_w, (const char *[]){"", "symlink", "FIFO", "directory", "file of another user", "hard link", "record that fails its checksum"}[planted[i]]);
    }
    exercise(&g, r, 3 + (int)rint_n(r, 25));
    /* a second generator of the same pool: another pair, no shared id */
    if (g.leasing && chance(r, 25)) {
        gen_t h;
        int hrc;
        if (open_gen(&h, c.text, open_bound_ms(c.text), &hrc)) {
            if (h.pair_dc == g.pair_dc && h.pair_w == g.pair_w)
                finding("pair-shared", "two open generators of one pool hold pair %" PRId64 "/%" PRId64, h.pair_dc, h.pair_w);
            do_next(&h, 1 + (int)rint_n(r, 500));
            do_next(&g, 1 + (int)rint_n(r, 500));
            gen_t *both[] = {&g, &h};
            if (g.worker_bits + g.dc_bits > 0)
                check_pool_dups(both, 2);
            close_gen(&h);
            do_after_close(&h, r);
        } else if (hrc != IDGEN_EWORKER && hrc != IDGEN_ECLOCK) {
            finding("second-open", "a second idgen_open of a configuration that opened -> %s: %s", rc_name(hrc), idgen_last_error());
        }
        check_dups(&h);
        free_gen(&h);
        set_config(g.config);
    }
    int end = (int)rint_n(r, 100);
    if (end < 12)
        do_close_race(&g, r);
    else if (end < 20)
        sabotage(&g, r);
    check_dups(&g);
    close_gen(&g);
    do_after_close(&g, r);
    free_gen(&g);
    check_all_unlocked("after every generator of the case was closed");
    if (victim[0]) {
        FILE *f = fopen(victim, "r");
        char line[128] = "";
        if (f) {
            if (!fgets(line, sizeof line, f))
                line[0] = 0;
            fclose(f);
        }
        if (strncmp(line, "VICTIM:", 7) != 0)
            finding("symlink-followed", "a file reached through a planted symlink was written: \"%.40s\"", line);
    }
}

/* ---- a small pool: every pair once, one more refused, none kept ------------------ */

static void case_pool(rng_t *r) {
    cfg_t c;
    memset(&c, 0, sizeof c);
    static const char *presets[] = {"snowflake", "leaf", "sonyflake", "js53", "zk-session", "zxid", "baidu", "mybatis-plus"};
    const char *preset = PICK(r, presets);
    int fam = preset_family(preset);
    cfg_set(&c, "preset", preset);
    int wbits = fam == FAM_ZXID ? 0 : (int)rint_n(r, 3);
    char lay[128];
    if (fam == FAM_ZXID)
        snprintf(lay, sizeof lay, "epoch:%d,counter:32", 30 + (int)rint_n(r, 3));
    else if (fam == FAM_SESSION && wbits)
        snprintf(lay, sizeof lay, "worker:%d,time:40,seq:16", wbits);
    else if (fam == FAM_SESSION)
        snprintf(lay, sizeof lay, "time:40,seq:16");
    else if (wbits)
        snprintf(lay, sizeof lay, "time:41,worker:%d,seq:12", wbits);
    else
        snprintf(lay, sizeof lay, "time:41,seq:12");
    cfg_set(&c, "layout", lay);
    if (chance(r, 50))
        cfg_set(&c, "worker", "lease");
    char d[4096];
    int kind = PICK(r, ((const int[]){DIR_GOOD, DIR_STICKY, DIR_PRIVATE, DIR_SPACES}));
    if (!case_env.private_vartmp || chance(r, 80))
        cfg_set(&c, "lease_dir", dir_path(&case_env, kind, d, sizeof d));
    cfg_set(&c, "max_wait", PICK(r, ((const char *[]){"2s", "3s", "2s", "1s"})));
    if (chance(r, 30))
        cfg_set(&c, "lease_ttl", PICK(r, ((const char *[]){"100ms", "200ms", "500ms"})));
    cfg_render(&c, r, 0);
    int pool = 1 << wbits;
    gen_t gs[5];
    gen_t *open_ones[5];
    int n = 0;
    for (int round = 0; round < 2; round++) {
        n = 0;
        for (int i = 0; i <= pool; i++) {
            int rc;
            int ok = open_gen(&gs[n], c.text, open_bound_ms(c.text), &rc);
            if (i < pool && !ok) {
                if (rc == IDGEN_EWORKER)
                    finding(round ? "lease-leak" : "pool-short", "open %d of a %d-pair pool%s -> EWORKER: %s", i + 1, pool,
                        round ? ", after every earlier generator was closed," : "", idgen_last_error());
                else if (rc != IDGEN_ECLOCK)
                    finding("pool-open", "open %d of a %d-pair pool -> %s: %s", i + 1, pool, rc_name(rc), idgen_last_error());
            }
            if (i == pool && ok && n == pool) /* every earlier open holds a pair (one may have failed ECLOCK) */
                finding("pool-over", "open %d of a %d-pair pool -> OK (pair %" PRId64 "/%" PRId64 ")", i + 1, pool, gs[n].pair_dc, gs[n].pair_w);
            if (ok) {
                for (int j = 0; j < n; j++)
                    if (gs[j].pair_dc == gs[n].pair_dc && gs[j].pair_w == gs[n].pair_w)
                        finding("pair-shared", "two open generators of one pool hold pair %" PRId64 "/%" PRId64, gs[n].pair_dc, gs[n].pair_w);
                open_ones[n] = &gs[n];
                n++;
            } else {
                free_gen(&gs[n]);
            }
        }
        for (int j = 0; j < n; j++)
            do_next(&gs[j], 1 + (int)rint_n(r, 300));
        check_pool_dups(open_ones, n);
        for (int j = 0; j < n; j++) {
            if (chance(r, 20))
                do_close_race(&gs[j], r);
            close_gen(&gs[j]);
            check_dups(&gs[j]);
            free_gen(&gs[j]);
        }
        check_all_unlocked("after every generator of a small pool was closed");
    }
}

/* ---- the case ------------------------------------------------------------------ */

int run_case(uint64_t seed, const char *root, int private_vartmp) {
    rng_t r = {seed};
    case_env.root = root;
    case_env.private_vartmp = private_vartmp;
    make_dirs(&case_env, &r);
    int k = (int)rint_n(&r, 100);
    if (k < 52)
        case_generator(&r);
    else if (k < 62)
        case_pool(&r);
    else if (k < 72)
        case_spellings(&r);
    else if (k < 78)
        case_store(&r);
    else if (k < 88)
        case_pure(&r);
    else
        case_default(&r);
    return findings;
}
