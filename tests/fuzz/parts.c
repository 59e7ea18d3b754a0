/*
 * Decode and compose (each the inverse of the other), the configuration
 * string (capacity, reopening it) and the stats.
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

/* ---- decode and compose ------------------------------------------------------ */

int64_t field_max(int bits) { return bits <= 0 ? -1 : bits >= 63 ? INT64_MAX : (INT64_C(1) << bits) - 1; }

static void decode_own(gen_t *g, int64_t id) {
    idgen_parts p;
    begin_call(3000, "idgen_decode_with(g, %" PRId64 ", &p)", id);
    int rc = idgen_decode_with(g->h, id, &p);
    end_call();
    if (rc != IDGEN_OK) {
        check_message(rc, "idgen_decode_with");
        finding("decode-own", "idgen_decode_with(g, %" PRId64 ") of its own id -> %s: %s", id, rc_name(rc), idgen_last_error());
        return;
    }
    if (p.id != id)
        finding("decode-own", "idgen_decode_with(g, %" PRId64 ").id = %" PRId64, id, p.id);
    if (g->fixed_worker >= 0 && g->worker_bits > 0 && p.worker != g->fixed_worker)
        finding("decode-worker", "idgen_decode_with(g, %" PRId64 ").worker = %" PRId64 " but the generator is worker %" PRId64, id, p.worker, g->fixed_worker);
    if (g->fixed_dc >= 0 && g->dc_bits > 0 && p.datacenter != g->fixed_dc)
        finding("decode-worker", "idgen_decode_with(g, %" PRId64 ").datacenter = %" PRId64 " but the generator is datacenter %" PRId64, id, p.datacenter, g->fixed_dc);
    if (g->worker_bits == 0 && p.worker != -1)
        finding("decode-absent", "idgen_decode_with(g, %" PRId64 ").worker = %" PRId64 " on a layout without a worker", id, p.worker);
    if (g->leasing && g->worker_bits > 0) {
        idgen_stats st;
        read_stats(g, &st);
        if (st.leases_taken == 1 && p.worker != st.worker)
            finding("decode-lease", "id %" PRId64 " has worker %" PRId64 " but the generator holds %" PRId64 "/%" PRId64, id, p.worker, st.datacenter, st.worker);
        if (g->fam != FAM_SESSION && g->fam != FAM_ZXID && g->time_bits > 0 && p.unix_ms > st.fence_unix_ms && st.fence_unix_ms >= 0)
            finding("past-fence", "id %" PRId64 " is dated %" PRId64 " ms, past the lease's fence %" PRId64, id, p.unix_ms, st.fence_unix_ms);
    }
    if (!g->wall && !g->borrow && g->fam != FAM_SESSION && g->fam != FAM_ZXID && g->fam != FAM_CACHED && p.unix_ms >= 0 && !g->leasing) {
        int64_t now = wall_ms();
        if (p.unix_ms > now + g->unit_ms + 3000)
            finding("id-future", "id %" PRId64 " is dated %" PRId64 " ms, ahead of the clock %" PRId64 " without borrowing", id, p.unix_ms, now);
    }
    int64_t back = -7;
    begin_call(3000, "idgen_compose(g, decode(%" PRId64 "), &out)", id);
    rc = idgen_compose(g->h, &p, &back);
    end_call();
    if (rc != IDGEN_OK || back != id) {
        check_message(rc, "idgen_compose");
        finding("compose-roundtrip", "idgen_compose(g, decode(%" PRId64 ")) -> %s %" PRId64 " (parts unix_ms=%" PRId64 " time=%" PRId64
            " epoch=%" PRId64 " dc=%" PRId64 " worker=%" PRId64 " seq=%" PRId64 ")", id, rc_name(rc), back, p.unix_ms, p.time, p.epoch,
            p.datacenter, p.worker, p.sequence);
    }
}

static int64_t pick_field(rng_t *r, int bits) {
    int64_t m = field_max(bits);
    int64_t v[] = {-1, 0, 1, m, m < INT64_MAX ? m + 1 : m, m > 0 ? rint_n(r, m) : 0, INT64_MAX, INT64_MIN, -2};
    return PICK(r, v);
}

void do_decode_compose(gen_t *g, rng_t *r) {
    if (g->text_only) {
        idgen_parts p;
        memset(&p, 0, sizeof p);
        int64_t out = -7;
        begin_call(3000, "idgen_decode_with/compose on a text preset");
        int rc1 = idgen_decode_with(g->h, 1, &p), rc2 = idgen_compose(g->h, &p, &out);
        end_call();
        if (rc1 == IDGEN_OK || rc2 == IDGEN_OK || rc1 == IDGEN_EINTERNAL || rc2 == IDGEN_EINTERNAL)
            finding("text-decode", "idgen_decode_with/compose on text preset %s -> %s/%s", g->text_form, rc_name(rc1), rc_name(rc2));
        return;
    }
    for (int i = 0; i < 4 && g->n_ids > 0; i++)
        decode_own(g, g->ids[rint_n(r, (int64_t)g->n_ids)]);
    /* Any id: decodes or is refused; whatever decodes composes back. */
    int64_t m = g->total_bits >= 63 ? INT64_MAX : (INT64_C(1) << g->total_bits) - 1;
    int64_t ids[] = {0, 1, -1, INT64_MAX, INT64_MIN, m, m < INT64_MAX ? m + 1 : 0, (int64_t)(rnd(r) >> 1), (int64_t)(rnd(r) >> 1) & m};
    int64_t id = PICK(r, ids);
    idgen_parts p;
    memset(&p, 0x5a, sizeof p);
    begin_call(3000, "idgen_decode_with(g, %" PRId64 ", &p)", id);
    int rc = idgen_decode_with(g->h, id, &p);
    end_call();
    if (rc == IDGEN_OK) {
        int64_t back = -7;
        int rc2 = idgen_compose(g->h, &p, &back);
        if (rc2 != IDGEN_OK || back != id)
            finding("compose-roundtrip", "idgen_compose(g, decode(%" PRId64 ")) -> %s %" PRId64, id, rc_name(rc2), back);
    } else {
        check_message(rc, "idgen_decode_with");
        if (rc != IDGEN_EINVAL && rc != IDGEN_ERANGE)
            finding("decode-code", "idgen_decode_with(g, %" PRId64 ") -> %s", id, rc_name(rc));
        if (rc == IDGEN_EINVAL && id >= 0 && (id & ~m) == 0)
            finding("decode-code", "idgen_decode_with(g, %" PRId64 ") -> EINVAL for an id inside the layout: %s", id, idgen_last_error());
    }
    begin_call(3000, "idgen_decode_with(g, 1, NULL)");
    rc = idgen_decode_with(g->h, 1, NULL);
    end_call();
    if (rc != IDGEN_EINVAL)
        finding("decode-null", "idgen_decode_with(g, 1, NULL) -> %s, want EINVAL", rc_name(rc));
    /* Compose from chosen fields. */
    idgen_parts in = {.id = (int64_t)rnd(r)};
    in.unix_ms = chance(r, 50) ? -1 : PICK(r, ((int64_t[]){0, wall_ms(), wall_ms() + 86400000, INT64_MAX, 1288834974657, -7, 1}));
    in.time = pick_field(r, g->time_bits);
    in.epoch = chance(r, 70) ? -1 : pick_field(r, 4);
    in.datacenter = chance(r, 30) ? -1 : pick_field(r, g->dc_bits);
    in.worker = chance(r, 20) ? -1 : pick_field(r, g->worker_bits);
    in.sequence = pick_field(r, g->seq_bits);
    int64_t out = -7;
    char call[300];
    snprintf(call, sizeof call, "idgen_compose(g, {unix_ms=%" PRId64 " time=%" PRId64 " epoch=%" PRId64 " dc=%" PRId64 " worker=%" PRId64
        " seq=%" PRId64 "}, &out)", in.unix_ms, in.time, in.epoch, in.datacenter, in.worker, in.sequence);
    begin_call(3000, "%s", call);
    rc = idgen_compose(g->h, &in, &out);
    end_call();
    if (rc != IDGEN_OK) {
        check_message(rc, call);
        if (rc != IDGEN_EINVAL && rc != IDGEN_ERANGE)
            finding("compose-code", "%s -> %s", call, rc_name(rc));
        if (out != -7)
            finding("written-on-failure", "%s -> %s but wrote out", call, rc_name(rc));
        return;
    }
    if (out < 0)
        finding("compose-negative", "%s -> OK %" PRId64, call, out);
    /* A field the layout lacks must be -1 or 0 (idgen.h). */
    struct { const char *name; int64_t v; int bits; } f[] = {{"datacenter", in.datacenter, g->dc_bits}, {"worker", in.worker, g->worker_bits},
        {"time", g->time_bits || g->fam == FAM_ZXID ? in.time : in.time, g->fam == FAM_ZXID ? 0 : g->time_bits},
        {"unix_ms", in.unix_ms, g->fam == FAM_ZXID ? 0 : g->time_bits}};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        if (f[i].bits == 0 && f[i].v != -1 && f[i].v != 0)
            finding("compose-absent", "%s -> OK although the layout has no %s field", call, f[i].name);
    idgen_parts p2;
    int drc = idgen_decode_with(g->h, out, &p2);
    if (drc == IDGEN_ERANGE)
        return; /* a raw time whose unix_ms lies beyond int64: ERANGE, as documented */
    if (drc != IDGEN_OK) {
        finding("compose-roundtrip", "%s -> %" PRId64 ", which idgen_decode_with refuses: %s", call, out, idgen_last_error());
        return;
    }
    if ((g->worker_bits && p2.worker != in.worker) || (g->dc_bits && p2.datacenter != in.datacenter) || (g->seq_bits && p2.sequence != in.sequence))
        finding("compose-fields", "%s -> %" PRId64 ", which decodes to dc=%" PRId64 " worker=%" PRId64 " seq=%" PRId64, call, out,
            p2.datacenter, p2.worker, p2.sequence);
    if (g->time_bits && g->fam != FAM_SESSION && in.unix_ms < 0 && p2.time != in.time)
        finding("compose-fields", "%s -> %" PRId64 ", which decodes to time=%" PRId64, call, out, p2.time);
}

/* ---- config string ----------------------------------------------------------- */

/* The canonical string without its leased= pair. */
void strip_leased(const char *in, char *out, size_t cap) {
    cfg_t c;
    kv_parse(in, &c);
    cfg_del(&c, "leased");
    cfg_render(&c, NULL, 1);
    snprintf(out, cap, "%s", c.text);
}

void do_config_string(gen_t *g, rng_t *r) {
    size_t L = strlen(g->canon);
    size_t caps[] = {0, 1, L > 0 ? L - 1 : 0, L, L + 1, L + 2, 8192};
    size_t cap = PICK(r, caps);
    char *buf = (char *)gb_new(cap);
    char call[80];
    snprintf(call, sizeof call, "idgen_config_string(g, buf, %zu) (length %zu)", cap, L);
    begin_call(3000, "%s", call);
    int rc = idgen_config_string(g->h, buf, cap);
    end_call();
    if (!gb_guards_ok(buf, cap))
        finding("guard", "%s -> %s wrote outside buf", call, rc_name(rc));
    if (rc == IDGEN_OK) {
        if (cap < L + 1 && strlen(g->canon) == L)
            finding("config-cap", "%s -> OK in fewer bytes than the string and its NUL", call);
        if (memchr(buf, 0, cap) == NULL)
            finding("config-cap", "%s -> OK without a NUL in buf", call);
    } else {
        check_message(rc, call);
        if (!all_pat((unsigned char *)buf, cap))
            finding("written-on-failure", "%s -> %s but wrote to buf", call, rc_name(rc));
        if (rc != IDGEN_ERANGE)
            finding("config-code", "%s -> %s", call, rc_name(rc));
        else if (cap >= L + 1)
            finding("config-cap", "%s -> ERANGE although it fits", call);
        else {
            char need[32];
            snprintf(need, sizeof need, "%zu", L + 1);
            if (!strstr(idgen_last_error(), need))
                finding("config-cap-message", "%s -> ERANGE; the message does not say %s bytes are needed: %s", call, need, idgen_last_error());
        }
    }
    gb_free(buf);
    if (chance(r, 5)) {
        begin_call(3000, "idgen_config_string(g, NULL, 100)");
        rc = idgen_config_string(g->h, NULL, 100);
        end_call();
        if (rc != IDGEN_EINVAL)
            finding("config-null", "idgen_config_string(g, NULL, 100) -> %s, want EINVAL", rc_name(rc));
    }
    if (!chance(r, 30))
        return;
    /* Opening the string gives the same generator (leasing again). */
    gen_t h;
    int orc;
    char saved[8192];
    snprintf(saved, sizeof saved, "%s", g->config);
    if (open_gen(&h, g->canon, open_bound_ms(g->canon), &orc)) {
        char a[8192], b[8192];
        strip_leased(g->canon, a, sizeof a);
        strip_leased(h.canon, b, sizeof b);
        if (strcmp(a, b) != 0)
            finding("config-reopen", "idgen_open(idgen_config_string(g)) shows \"%s\", not \"%s\"", b, a);
        if (g->leasing && h.leasing && g->pair_dc == h.pair_dc && g->pair_w == h.pair_w && !g->closed)
            finding("pair-shared", "idgen_open(idgen_config_string(g)) holds g's own pair %" PRId64 "/%" PRId64, h.pair_dc, h.pair_w);
        /* the same generator: the same text form, the same reading of an id */
        if (g->text_only && next_budget(g) > 0) {
            char ta[128], tb[128];
            int la = idgen_next_text(g->h, ta, sizeof ta), lb = idgen_next_text(h.h, tb, sizeof tb);
            if (la >= 0)
                check_text(g, ta, (size_t)la);
            if (la >= 0 && lb >= 0 && la != lb)
                finding("config-reopen", "idgen_open(idgen_config_string(g)) makes \"%s\" where g makes \"%s\"", tb, ta);
        } else if (!g->text_only && g->n_ids > 0) {
            int64_t id = g->ids[g->n_ids - 1];
            idgen_parts pa, pb;
            int ra = idgen_decode_with(g->h, id, &pa), rb = idgen_decode_with(h.h, id, &pb);
            if (ra != rb || (ra == IDGEN_OK && memcmp(&pa, &pb, sizeof pa) != 0))
                finding("config-reopen", "idgen_decode_with(%" PRId64 ") reads unix_ms=%" PRId64 " worker=%" PRId64 " seq=%" PRId64
                    " on g but unix_ms=%" PRId64 " worker=%" PRId64 " seq=%" PRId64 " on idgen_open(idgen_config_string(g))",
                    id, pa.unix_ms, pa.worker, pa.sequence, pb.unix_ms, pb.worker, pb.sequence);
        }
        close_gen(&h);
    } else if (!g->leasing || (orc != IDGEN_EWORKER && orc != IDGEN_ECLOCK)) {
        finding("config-reopen", "idgen_open(idgen_config_string(g)) -> %s: %s", rc_name(orc), idgen_last_error());
    }
    free_gen(&h);
    set_config(saved);
}

/* ---- stats --------------------------------------------------------------------- */

void do_stats(gen_t *g, rng_t *r) {
    size_t full = sizeof(idgen_stats);
    size_t sizes[] = {0, 8, 24, full - 8, full, full, full + 64};
    size_t size = PICK(r, sizes);
    unsigned char *buf = gb_new(full + 64);
    begin_call(3000, "idgen_get_stats(g, out, %zu)", size);
    int rc = idgen_get_stats(g->h, (idgen_stats *)buf, size);
    end_call();
    size_t wrote = size < full ? size : full;
    if (rc != IDGEN_OK) {
        check_message(rc, "idgen_get_stats");
        finding("stats-code", "idgen_get_stats(g, out, %zu) -> %s", size, rc_name(rc));
    } else if (!all_pat(buf + wrote, full + 64 - wrote) || !gb_guards_ok(buf, full + 64)) {
        finding("guard", "idgen_get_stats(g, out, %zu) wrote past %zu bytes", size, wrote);
    }
    gb_free(buf);
    idgen_stats st;
    read_stats(g, &st);
    if (st.issued != g->issued && !g->closed)
        finding("stats-issued", "idgen_get_stats: issued = %" PRId64 ", but %" PRId64 " ids were handed out", st.issued, g->issued);
    if (st.lease_state < 0 || st.lease_state > 3)
        finding("stats-values", "idgen_get_stats: lease_state = %" PRId64, st.lease_state);
    if (!g->leasing && (st.fence_unix_ms != -1 || st.renewed_unix_ms != -1 || st.leases_taken != 0))
        finding("stats-values", "idgen_get_stats of a generator without a lease: fence %" PRId64 " renewed %" PRId64 " leases_taken %" PRId64,
            st.fence_unix_ms, st.renewed_unix_ms, st.leases_taken);
    if (!g->leasing && !g->decode_only && g->fixed_worker >= 0 && g->worker_bits > 0 && st.worker != g->fixed_worker)
        finding("stats-values", "idgen_get_stats: worker = %" PRId64 ", configured %" PRId64, st.worker, g->fixed_worker);
    /* lease=off holds no pair and issues with none: stats say -1. */
    if (g->decode_only && (st.worker != -1 || st.datacenter != -1 || st.lease_state != IDGEN_LEASE_NONE || st.issued != 0))
        finding("decode-only", "idgen_get_stats of a lease=off generator: worker %" PRId64 " datacenter %" PRId64 " lease_state %" PRId64
            " issued %" PRId64 " (want -1, -1, NONE, 0)", st.worker, st.datacenter, st.lease_state, st.issued);
    if (g->fam != FAM_SEGMENT && st.segment_left != -1)
        finding("stats-values", "idgen_get_stats: segment_left = %" PRId64 " on a generator that is not a segment", st.segment_left);
    if (g->leasing && g->worker_bits > 0 && st.lease_state == IDGEN_LEASE_HELD && st.worker < 0)
        finding("stats-values", "idgen_get_stats: held lease without a pair");
    if (st.issued < 0 || st.tick_waits < 0 || st.clock_backs < 0 || st.renewals < 0 || st.renewal_failures < 0)
        finding("stats-values", "idgen_get_stats: a negative counter");
    if (chance(r, 5)) {
        begin_call(3000, "idgen_get_stats(g, NULL, sizeof)");
        rc = idgen_get_stats(g->h, NULL, full);
        end_call();
        if (rc != IDGEN_EINVAL)
            finding("stats-null", "idgen_get_stats(g, NULL, sizeof(idgen_stats)) -> %s, want EINVAL", rc_name(rc));
    }
}
