/*
 * Ids: next, batches, threads, a close racing next, fork, every call after
 * close, made-up handles; strictly increasing, never repeated, buffers
 * written only on success and never past their capacity.
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

/* ---- guarded buffers ------------------------------------------------------ */

void *gb_new(size_t cap) {
    unsigned char *b = malloc(cap + 2 * GUARD);
    if (b == NULL)
        abort();
    memset(b, PAT, cap + 2 * GUARD);
    return b + GUARD;
}

void gb_free(void *p) { free((unsigned char *)p - GUARD); }

int all_pat(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != PAT)
            return 0;
    return 1;
}

int gb_guards_ok(const void *p, size_t cap) {
    const unsigned char *b = p;
    return all_pat(b - GUARD, GUARD) && all_pat(b + cap, GUARD);
}

/* ---- ids ------------------------------------------------------------------ */

void keep(gen_t *g, int64_t id) {
    if (g->n_ids == g->cap_ids) {
        g->cap_ids = g->cap_ids ? 2 * g->cap_ids : 1024;
        g->ids = realloc(g->ids, g->cap_ids * sizeof *g->ids);
        if (g->ids == NULL)
            abort();
    }
    g->ids[g->n_ids++] = id;
    g->issued++;
}

/* How many more ids this generator may be asked for without making the
 * case wait long for later ticks (a coarse unit with a small sequence). */
int64_t next_budget(const gen_t *g) {
    int64_t budget;
    if (g->overflowed || g->closed)
        return 0;
    if (g->text_only || g->fam == FAM_SESSION || g->fam == FAM_ZXID) {
        budget = 20000;
    } else {
        int64_t per_tick = g->seq_bits >= 24 ? INT64_C(1) << 24 : INT64_C(1) << g->seq_bits;
        if (g->seq_random > 0)
            per_tick = per_tick > g->seq_random ? per_tick - g->seq_random + 1 : 1;
        if (g->unit_ms <= 1000)
            budget = per_tick * (1000 / g->unit_ms);
        else
            budget = per_tick / 4;
    }
    if (budget > 20000)
        budget = 20000;
    budget -= g->issued;
    return budget < 0 ? 0 : budget;
}

int64_t next_bound(const gen_t *g) { return (g->unit_ms <= 2000 ? 2 * g->unit_ms : 0) + 3000; }

/* The codes next may return on an open generator, besides an id. */
int next_code_ok(const gen_t *g, int64_t rc) {
    switch (rc) {
    case IDGEN_EOVERFLOW: return !g->text_only || g->fam == FAM_RANDTEXT;
    case IDGEN_ECLOCK: return g->wall || g->leasing;
    case IDGEN_EWORKER: return g->leasing;
    case IDGEN_EINVAL: return g->text_only || g->decode_only;
    }
    return 0;
}

/* One id from next/batch/text: in order, in range. */
void got_id(gen_t *g, int64_t id, const char *call) {
    if (g->total_bits > 0 && g->total_bits < 63 && (id >> g->total_bits) != 0)
        finding("id-bits", "%s -> %" PRId64 ", which has bits above the layout's %d", call, id, g->total_bits);
    if (id <= g->last)
        finding("order", "%s -> %" PRId64 " after %" PRId64 " (ids must strictly increase)", call, id, g->last);
    g->last = id;
    keep(g, id);
}

void failed_next(gen_t *g, int64_t rc, const char *call) {
    check_message(rc, call);
    if (rc == IDGEN_EOVERFLOW)
        g->overflowed = 1;
    if (!next_code_ok(g, rc))
        finding(rc == IDGEN_ECLOSED ? "eclosed-open" : "next-code", "%s on an open generator -> %s (%" PRId64 "): %s", call,
            rc_name(rc), rc, idgen_last_error());
    if (rc == IDGEN_EINVAL && !strstr(idgen_last_error(), g->decode_only ? "lease=off" : "text"))
        finding("next-code", "%s -> EINVAL: %s", call, idgen_last_error());
}

/* lease=off: every issuing call is IDGEN_EINVAL naming lease=off, at once,
 * and the generator goes on decoding. */
void do_refused(gen_t *g) {
    int64_t one[2] = {-7, -7};
    char text[128];
    begin_call(3000, "an issuing call on a lease=off generator");
    int64_t rcs[3] = {idgen_next(g->h), idgen_next_batch(g->h, one, 2), idgen_next_text(g->h, text, sizeof text)};
    end_call();
    static const char *calls[3] = {"idgen_next", "idgen_next_batch", "idgen_next_text"};
    for (int i = 0; i < 3; i++) {
        if (rcs[i] != IDGEN_EINVAL)
            finding("decode-only", "%s on a lease=off generator -> %s, want EINVAL", calls[i], rc_name(rcs[i]));
        else if (!strstr(idgen_last_error(), "lease=off"))
            finding("decode-only", "%s on a lease=off generator: EINVAL whose message does not name lease=off: %s", calls[i],
                idgen_last_error());
    }
    if (one[0] != -7 || one[1] != -7)
        finding("decode-only", "idgen_next_batch on a lease=off generator wrote ids %" PRId64 ", %" PRId64, one[0], one[1]);
}

int do_next(gen_t *g, int k) {
    int64_t b = next_budget(g);
    if (k > b)
        k = (int)b;
    if (g->text_only) {
        begin_call(3000, "idgen_next(g) on a text preset");
        int64_t rc = idgen_next(g->h);
        end_call();
        if (rc != IDGEN_EINVAL)
            finding("text-next", "idgen_next(g) on text preset %s -> %s, want EINVAL", g->text_form, rc_name(rc));
        return 0;
    }
    begin_call(next_bound(g), "idgen_next(g) x%d after %" PRId64 " ids", k, g->issued);
    for (int i = 0; i < k; i++) {
        int64_t id = idgen_next(g->h);
        if (id < 0) {
            end_call();
            char call[80];
            snprintf(call, sizeof call, "idgen_next(g) #%" PRId64, g->issued + 1);
            failed_next(g, id, call);
            return 0;
        }
        got_id(g, id, "idgen_next(g)");
        count_calls(1);
        if (i % 256 == 255) {
            end_call();
            begin_call(next_bound(g), "idgen_next(g) x%d after %" PRId64 " ids", k - i, g->issued);
        }
    }
    end_call();
    return 1;
}

int do_batch(gen_t *g, rng_t *r) {
    int64_t b = next_budget(g);
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 255, 1000, 4096};
    size_t n = PICK(r, sizes);
    if ((int64_t)n > b)
        n = (size_t)b;
    if (chance(r, 5)) { /* NULL with n > 0; NULL with 0 */
        begin_call(3000, "idgen_next_batch(g, NULL, 5)");
        int rc = idgen_next_batch(g->h, NULL, 5);
        end_call();
        if (rc != IDGEN_EINVAL)
            finding("batch-null", "idgen_next_batch(g, NULL, 5) -> %s, want EINVAL", rc_name(rc));
        begin_call(3000, "idgen_next_batch(g, NULL, 0)");
        rc = idgen_next_batch(g->h, NULL, 0);
        end_call();
        if (rc != IDGEN_OK && !(g->text_only && rc == IDGEN_EINVAL))
            finding("batch-null", "idgen_next_batch(g, NULL, 0) -> %s, want OK", rc_name(rc));
        return 1;
    }
    if (chance(r, 2)) { /* an absurd length with a small buffer: refused before any write */
        int64_t *out = (int64_t *)gb_new(16 * 8);
        begin_call(3000, "idgen_next_batch(g, out[16], 1<<41)");
        int rc = idgen_next_batch(g->h, out, (size_t)1 << 41);
        end_call();
        if (rc != IDGEN_ERANGE && rc != IDGEN_EINVAL)
            finding("batch-huge", "idgen_next_batch(g, out[16], 1<<41) -> %s, want ERANGE", rc_name(rc));
        if (!all_pat((unsigned char *)out - GUARD, 16 * 8 + 2 * GUARD))
            finding("batch-huge", "idgen_next_batch(g, out[16], 1<<41) -> %s wrote to out", rc_name(rc));
        gb_free(out);
        return 1;
    }
    int64_t *out = (int64_t *)gb_new(n * 8 + 8);
    begin_call(next_bound(g) + (int64_t)(n / 64) * 10, "idgen_next_batch(g, out, %zu) after %" PRId64 " ids", n, g->issued);
    int rc = idgen_next_batch(g->h, n ? out : NULL, n);
    end_call();
    char call[96];
    snprintf(call, sizeof call, "idgen_next_batch(g, out, %zu) after %" PRId64 " ids", n, g->issued);
    if (!gb_guards_ok(out, n * 8))
        finding("guard", "%s -> %s wrote outside out[0..%zu)", call, rc_name(rc), n);
    if (rc == IDGEN_OK) {
        for (size_t i = 0; i < n; i++)
            got_id(g, out[i], call);
    } else {
        if (rc > 0 || rc == IDGEN_ECLOSED || rc == IDGEN_EINTERNAL || !(next_code_ok(g, rc) || rc == IDGEN_ERANGE))
            failed_next(g, rc, call);
        else
            check_message(rc, call);
        if (rc == IDGEN_EOVERFLOW)
            g->overflowed = 1;
        /* a prefix of consumed ids may be left (documented), nothing else */
        size_t i = 0;
        while (i < n && !all_pat((unsigned char *)&out[i], 8))
            got_id(g, out[i], call), i++;
        if (!all_pat((unsigned char *)&out[i], (n - i) * 8))
            finding("batch-partial", "%s -> %s left something other than a prefix of ids in out", call, rc_name(rc));
        if (i > 0 && rc != IDGEN_EOVERFLOW && rc != IDGEN_ECLOCK && rc != IDGEN_EWORKER)
            finding("batch-partial", "%s -> %s after writing %zu ids", call, rc_name(rc), i);
    }
    gb_free(out);
    return rc == IDGEN_OK;
}

/* ---- threads, a close racing next, fork ----------------------------------------- */

typedef struct {
    gen_t *g;
    int k;
    int64_t *ids;
    int n, bad_code;
    int64_t code;
    volatile int *stop;
} th_t;

static void *th_next(void *p) {
    th_t *t = p;
    for (int i = 0; i < t->k; i++) {
        int64_t id = idgen_next(t->g->h);
        if (id < 0) {
            t->code = id;
            t->bad_code = !next_code_ok(t->g, id);
            break;
        }
        t->ids[t->n++] = id;
    }
    return NULL;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

void do_threads(gen_t *g, rng_t *r) {
    if (g->text_only)
        return;
    enum { NT = 3 };
    int64_t b = next_budget(g) / NT;
    int k = (int)(b > 3000 ? 3000 : b);
    if (k <= 0)
        return;
    (void)r;
    th_t t[NT];
    pthread_t id[NT];
    begin_call(next_bound(g) + 3000, "idgen_next(g) x%d in each of %d threads", k, NT);
    for (int i = 0; i < NT; i++) {
        t[i] = (th_t){.g = g, .k = k, .ids = malloc(sizeof(int64_t) * (size_t)k)};
        pthread_create(&id[i], NULL, th_next, &t[i]);
    }
    for (int i = 0; i < NT; i++)
        pthread_join(id[i], NULL);
    end_call();
    int64_t hi = g->last;
    for (int i = 0; i < NT; i++) {
        for (int j = 1; j < t[i].n; j++)
            if (t[i].ids[j] <= t[i].ids[j - 1])
                finding("order", "idgen_next(g) in one of %d threads: %" PRId64 " after %" PRId64, NT, t[i].ids[j], t[i].ids[j - 1]);
        for (int j = 0; j < t[i].n; j++) {
            if (t[i].ids[j] <= g->last)
                finding("order", "idgen_next(g) in a thread: %" PRId64 " not above %" PRId64 " issued before", t[i].ids[j], g->last);
            if (t[i].ids[j] > hi)
                hi = t[i].ids[j];
            keep(g, t[i].ids[j]);
        }
        if (t[i].bad_code)
            finding(t[i].code == IDGEN_ECLOSED ? "eclosed-open" : "next-code", "idgen_next(g) in a thread -> %s", rc_name(t[i].code));
        if (t[i].code == IDGEN_EOVERFLOW)
            g->overflowed = 1;
        free(t[i].ids);
    }
    g->last = hi;
}

static void *th_race(void *p) {
    th_t *t = p;
    while (!*t->stop && t->n < t->k) {
        int64_t id = idgen_next(t->g->h);
        if (id < 0) {
            if (id != IDGEN_ECLOSED && !next_code_ok(t->g, id)) {
                t->code = id;
                t->bad_code = 1;
            }
            if (id == IDGEN_ECLOSED || id == IDGEN_EOVERFLOW)
                break;
            continue;
        }
        t->ids[t->n++] = id;
    }
    return NULL;
}

/* A close racing next: next succeeds or says ECLOSED, nothing else. */
void do_close_race(gen_t *g, rng_t *r) {
    if (g->text_only || g->closed)
        return;
    int k = (int)next_budget(g);
    if (k > 20000)
        k = 20000;
    volatile int stop = 0;
    th_t t = {.g = g, .k = k, .ids = malloc(sizeof(int64_t) * (size_t)(k + 1)), .stop = &stop};
    pthread_t id;
    begin_call(next_bound(g) + 3000, "idgen_close(g) racing idgen_next(g)");
    pthread_create(&id, NULL, th_race, &t);
    usleep((useconds_t)rint_n(r, 2000));
    idgen_close(g->h);
    g->closed = 1;
    stop = 1;
    pthread_join(id, NULL);
    end_call();
    for (int j = 0; j < t.n; j++) {
        if (t.ids[j] <= g->last)
            finding("order", "idgen_next(g) racing close: %" PRId64 " after %" PRId64, t.ids[j], g->last);
        g->last = t.ids[j];
        keep(g, t.ids[j]);
    }
    if (g->decode_only && t.n > 0)
        finding("decode-only", "idgen_next(g) racing idgen_close(g) on a lease=off generator handed out %d ids", t.n);
    if (t.bad_code)
        finding("close-race", "idgen_next(g) racing idgen_close(g) -> %s (want an id or ECLOSED)", rc_name(t.code));
    free(t.ids);
}

/* In a forked child every call is EFORKED at once, close does nothing. */
void do_fork(gen_t *g) {
    begin_call(5000, "fork(); idgen_next(g) in the child");
    pid_t pid = fork();
    if (pid == 0) {
        int bad = 0;
        if (idgen_next(g->h) != IDGEN_EFORKED)
            bad |= 1;
        idgen_t *h = NULL;
        if (idgen_open("worker=0", &h) != IDGEN_EFORKED)
            bad |= 2;
        char b[8];
        if (idgen_format(1, 10, 0, b, sizeof b) != IDGEN_EFORKED)
            bad |= 4;
        idgen_close(g->h);
        _exit(bad);
    }
    int st = 0;
    if (pid > 0)
        waitpid(pid, &st, 0);
    end_call();
    if (pid > 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
        finding("fork", "in a forked child: %s%s%s", WIFSIGNALED(st) ? "killed by a signal" : "",
            WIFEXITED(st) && (WEXITSTATUS(st) & 1) ? "idgen_next not EFORKED " : "",
            WIFEXITED(st) && (WEXITSTATUS(st) & 6) ? "idgen_open/idgen_format not EFORKED" : "");
}

typedef struct {
    const char *name;
    int64_t rc;
    int untouched;
} after_t;

/* Every call on a closed handle: ECLOSED, outputs untouched. */
void do_after_close(gen_t *g, rng_t *r) {
    (void)r;
    if (!g->closed)
        close_gen(g);
    begin_call(3000, "every call after idgen_close(g)");
    after_t res[10];
    int n = 0;
    int64_t *ids = (int64_t *)gb_new(4 * 8);
    char *buf = (char *)gb_new(IDGEN_TEXT_MAX + 8);
    idgen_parts p, p0;
    memset(&p, 0x5a, sizeof p);
    p0 = p;
    idgen_stats st;
    memset(&st, 0x5a, sizeof st);
    idgen_stats st0 = st;
    idgen_text_parts tp, tp0;
    memset(&tp, 0x5a, sizeof tp);
    tp0 = tp;
    int64_t out = -7;
    idgen_parts in = {0, -1, 1, -1, -1, -1, 0};
    res[n++] = (after_t){"idgen_next", idgen_next(g->h), 1};
    res[n++] = (after_t){"idgen_next_batch", idgen_next_batch(g->h, ids, 4), all_pat((unsigned char *)ids, 32)};
    res[n++] = (after_t){"idgen_decode_with", idgen_decode_with(g->h, 1, &p), memcmp(&p, &p0, sizeof p) == 0};
    res[n++] = (after_t){"idgen_compose", idgen_compose(g->h, &in, &out), out == -7};
    res[n++] = (after_t){"idgen_config_string", idgen_config_string(g->h, buf, IDGEN_TEXT_MAX + 8), all_pat((unsigned char *)buf, IDGEN_TEXT_MAX + 8)};
    res[n++] = (after_t){"idgen_get_stats", idgen_get_stats(g->h, &st, sizeof st), memcmp(&st, &st0, sizeof st) == 0};
    res[n++] = (after_t){"idgen_next_text", idgen_next_text(g->h, buf, IDGEN_TEXT_MAX + 8), all_pat((unsigned char *)buf, IDGEN_TEXT_MAX + 8)};
    res[n++] = (after_t){"idgen_decode_text", idgen_decode_text(g->h, g->last_text[0] ? g->last_text : "1", &tp), memcmp(&tp, &tp0, sizeof tp) == 0};
    idgen_close(g->h); /* twice: harmless */
    res[n++] = (after_t){"idgen_next (after a second close)", idgen_next(g->h), 1};
    end_call();
    for (int i = 0; i < n; i++) {
        if (res[i].rc != IDGEN_ECLOSED)
            finding("after-close", "%s(g) after idgen_close(g) -> %s (want ECLOSED)", res[i].name, rc_name(res[i].rc));
        if (!res[i].untouched)
            finding("after-close", "%s(g) after idgen_close(g) wrote its output", res[i].name);
    }
    gb_free(ids);
    gb_free(buf);
}

/* ---- duplicates --------------------------------------------------------------- */

void check_dups(gen_t *g) {
    if (g->n_ids < 2)
        return;
    int64_t *s = malloc(g->n_ids * sizeof *s);
    memcpy(s, g->ids, g->n_ids * sizeof *s);
    qsort(s, g->n_ids, sizeof *s, cmp64);
    for (size_t i = 1; i < g->n_ids; i++)
        if (s[i] == s[i - 1]) {
            finding("duplicate", "one generator handed out %s %" PRId64 " twice (of %zu)", g->text_only ? "a text hashed to" : "id", s[i], g->n_ids);
            break;
        }
    free(s);
}

/* Generators that hold distinct pairs of one pool never issue the same id. */
void check_pool_dups(gen_t **gs, int n) {
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += gs[i]->n_ids;
    if (total < 2)
        return;
    int64_t *s = malloc(total * sizeof *s);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        memcpy(s + k, gs[i]->ids, gs[i]->n_ids * sizeof *s);
        k += gs[i]->n_ids;
    }
    qsort(s, total, sizeof *s, cmp64);
    for (size_t i = 1; i < total; i++)
        if (s[i] == s[i - 1]) {
            finding("duplicate-pool", "%d generators of one pool handed out id %" PRId64 " twice", n, s[i]);
            break;
        }
    free(s);
}

/* Made-up handles: near a live token (another serial in its slot, another
 * slot), random ones. Each call is ECLOSED; closing one leaves the live
 * generator alone. */
void do_madeup(gen_t *g, rng_t *r) {
    uintptr_t live = g && g->h && !g->closed ? (uintptr_t)g->h : 0;
    uintptr_t cands[] = {live ^ ((uintptr_t)1 << (20 + rint_n(r, 20))), live + 1, live - 1, live ^ 1, (uintptr_t)rnd(r),
        (uintptr_t)rnd(r) & 0xfffff, (uintptr_t)1, (uintptr_t)-1, (uintptr_t)1 << 63, live + ((uintptr_t)1 << 20)};
    uintptr_t t = PICK(r, cands);
    if (t == 0 || t == live)
        return;
    idgen_t *h = (idgen_t *)t;
    char buf[64];
    idgen_parts p;
    idgen_stats st;
    int64_t out;
    begin_call(3000, "calls on made-up handle %#" PRIxPTR " (live %#" PRIxPTR ")", t, live);
    int64_t rcs[] = {idgen_next(h), idgen_next_batch(h, &out, 1), idgen_decode_with(h, 1, &p), idgen_config_string(h, buf, sizeof buf),
        idgen_get_stats(h, &st, sizeof st), idgen_next_text(h, buf, sizeof buf), idgen_decode_text(h, "1", NULL),
        idgen_next_uuids(h, (uint8_t *)buf, 2)};
    idgen_close(h);
    end_call();
    for (size_t i = 0; i < sizeof rcs / sizeof *rcs; i++) {
        /* decode_text with NULL out may say EINVAL or ECLOSED */
        int ok = rcs[i] == IDGEN_ECLOSED || (i == 6 && rcs[i] == IDGEN_EINVAL);
        if (!ok) {
            finding("made-up-handle", "call %zu of 8 on made-up handle %#" PRIxPTR " -> %s (want ECLOSED)", i + 1, t, rc_name(rcs[i]));
            break;
        }
    }
    if (live && !g->text_only && next_budget(g) > 0) {
        begin_call(next_bound(g), "idgen_next(g) after closing made-up handle %#" PRIxPTR, t);
        int64_t id = idgen_next(g->h);
        end_call();
        if (id == IDGEN_ECLOSED)
            finding("made-up-handle", "idgen_close(%#" PRIxPTR ") closed the live generator %#" PRIxPTR, t, live);
        else if (id >= 0)
            got_id(g, id, "idgen_next(g)");
        else
            failed_next(g, id, "idgen_next(g)");
    }
}
