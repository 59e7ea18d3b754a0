// capi/runs.c on its own under ThreadSanitizer: the Go side is replaced by
// a model (a counter under a mutex, as Go's reservations are ordered) so
// that every access of the C side is instrumented. Threads hand out ids
// while others batch (hold the runs), revoke them (a dropped fence), and
// close and reopen handles of the same slot. Checked: no data race (TSan
// exits non-zero), linearizable, no id repeated, no id of a closed handle
// after its close returned, every id reserved accounted for.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../capi/runs.h"
#include "hosttake.h"
#include "linear.h"

#define THREADS 4
#define CALLS 400000
#define ECLOSED (-4)

/* ---- the model of the Go side ------------------------------------------- */

static pthread_mutex_t go_mu = PTHREAD_MUTEX_INITIALIZER;
static int64_t go_next = 1;        /* the next id the model reserves */
static uintptr_t go_live;          /* the live handle (one at a time) */
static int64_t go_reserved, go_returned;
static int go_timed = 1;
static int go_lost; /* the lease is lost: the model refuses to reserve */

int idgenGoReserve(uintptr_t h, idgenp_run *tail, int64_t room, idgenp_run *out) {
    pthread_mutex_lock(&go_mu);
    int rc = 0;
    if (h != go_live || go_lost) {
        rc = h != go_live ? ECLOSED : -5;
        go_returned += tail->n;
    } else {
        go_returned += tail->n;
        int64_t n = 1 + rand() % 64; /* runs of any length up to room */
        n = n < room ? n : room;
        *out = (idgenp_run){go_next, 1, n};
        go_next += n + (go_timed ? rand() % 3 : 0); /* time runs leave gaps */
        go_reserved += n;
    }
    pthread_mutex_unlock(&go_mu);
    return rc;
}

void idgenGoReturn(uintptr_t h, idgenp_run *tail) {
    (void)h;
    pthread_mutex_lock(&go_mu);
    go_returned += tail->n;
    pthread_mutex_unlock(&go_mu);
}

void idgenGoClose(uintptr_t h, idgenp_run *tail) {
    pthread_mutex_lock(&go_mu);
    go_returned += tail->n;
    if (go_live == h) {
        go_live = 0;
    }
    pthread_mutex_unlock(&go_mu);
}

int64_t idgenGoNext(uintptr_t h) {
    (void)h;
    return ECLOSED; /* the model serves only runs: reached for a closed handle */
}

int64_t idgenGoNextID(void) { return ECLOSED; }
int idgenGoDefaultRuns(void) { return IDGENP_RUNS_NONE; }
int idgenGoConfigure(char *config, idgenp_run *tail, int *kind) {
    (void)config, (void)tail, (void)kind;
    return 0;
}

/* A batch in the model: n ids after every run reserved. */
static int model_batch(uintptr_t h, int64_t *lo, int64_t *hi) {
    pthread_mutex_lock(&go_mu);
    int rc = h == go_live && !go_lost ? 0 : ECLOSED;
    if (rc == 0) {
        *lo = go_next;
        *hi = go_next + 3;
        go_next += 4;
    }
    pthread_mutex_unlock(&go_mu);
    return rc;
}

/* ---- the attack --------------------------------------------------------- */

static _Atomic uintptr_t handle;
static atomic_int stop;
static _Atomic uint64_t closed_at; /* ticket after the last close returned, with its handle */
static _Atomic uintptr_t closed_handle;
#define ROUNDS 300
static uint64_t lost_from[ROUNDS], lost_to[ROUNDS]; /* tickets: after a revoke returned, before the lease came back */

/* The calls that handed out an id while the lease was lost: begun after a
   revoke returned, ended before the lease came back. */
static size_t while_lost(const lin_op *ops, size_t n) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        for (int r = 0; r < ROUNDS; r++) {
            bad += lost_from[r] != 0 && ops[i].begin > lost_from[r] && ops[i].end < lost_to[r];
        }
    }
    return bad;
}

typedef struct {
    lin_op *ops;
    size_t n;
    int late;
} worker;

static void *work(void *arg) {
    worker *w = arg;
    for (int i = 0; i < CALLS && !atomic_load(&stop); i++) {
        uintptr_t h = atomic_load(&handle);
        lin_op op = {.begin = lin_ticket()};
        if (i % 50 == 49) {
            void *held = idgenp_runs_hold(h);
            int rc = model_batch(h, &op.lo, &op.hi);
            idgenp_runs_release(held);
            if (rc != 0) {
                continue;
            }
        } else {
            int64_t id = i & 1 ? idgenp_runs_in_hand(h) : -1, f[6]; /* idgen_next_in_hand */
            if (i % 3 == 2 && idgenp_runs_memory(h, f) && !f[5]) { /* a host's own, a segment's runs */
                id = host_take(f[1], f[2], f[3], f[4], &id) ? id : -1;
            }
            id = id >= 0 ? id : idgenp_runs_next(h);
            if (id < 0) {
                continue;
            }
            op.lo = op.hi = id;
        }
        op.end = lin_ticket();
        if (h == atomic_load(&closed_handle) && op.begin > atomic_load(&closed_at)) { /* handle, then ticket */
            w->late++;
        }
        w->ops[w->n++] = op;
    }
    return NULL;
}

int main(void) {
    uintptr_t serial = 1;
    uintptr_t h = serial << IDGENP_SLOT_BITS | 7;
    go_live = h;
    idgenp_runs_open(h, IDGENP_RUNS_TIMED);
    atomic_store(&handle, h);
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){.ops = malloc(CALLS * sizeof(lin_op))};
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    /* Close and reopen the slot's handle now and then: the same state
       serves the next serial, a timed run or a segment's. */
    for (int r = 0; r < ROUNDS; r++) {
        usleep(1000);
        uintptr_t old = atomic_load(&handle);
        if (r % 3 == 0) { /* the fence drops: the Go side refuses, the C side stops */
            pthread_mutex_lock(&go_mu);
            go_lost = 1;
            pthread_mutex_unlock(&go_mu);
            idgenp_runs_revoke(old);
            lost_from[r] = lin_ticket();
            usleep(1000);
            lost_to[r] = lin_ticket();
            pthread_mutex_lock(&go_mu);
            go_lost = 0;
            pthread_mutex_unlock(&go_mu);
        }
        usleep(1000);
        idgenp_runs_close(old);
        atomic_store(&closed_at, lin_ticket()); /* the ticket, then the handle */
        atomic_store(&closed_handle, old);
        serial++;
        uintptr_t next = serial << IDGENP_SLOT_BITS | 7;
        pthread_mutex_lock(&go_mu);
        go_live = next;
        go_timed = r % 2;
        pthread_mutex_unlock(&go_mu);
        idgenp_runs_open(next, r % 2 ? IDGENP_RUNS_TIMED : IDGENP_RUNS_UNTIMED);
        atomic_store(&handle, next);
    }
    atomic_store(&stop, 1);
    size_t total = 0;
    int late = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        total += w[i].n;
        late += w[i].late;
    }
    lin_op *all = malloc(total * sizeof *all);
    int64_t *ids = malloc(2 * total * sizeof *ids);
    size_t k = 0, v = 0;
    for (int i = 0; i < THREADS; i++) {
        for (size_t j = 0; j < w[i].n; j++) {
            all[k++] = w[i].ops[j];
            for (int64_t x = w[i].ops[j].lo; x <= w[i].ops[j].hi && x - w[i].ops[j].lo < 2; x++) {
                ids[v++] = x;
            }
        }
    }
    idgenp_runs_close(atomic_load(&handle));
    size_t lost = while_lost(all, total);
    size_t rep = lin_repeats(ids, v), bad = lin_violations(all, total);
    int64_t handed = 0;
    for (int i = 0; i < THREADS; i++) {
        for (size_t j = 0; j < w[i].n; j++) {
            handed += w[i].ops[j].lo == w[i].ops[j].hi; /* single ids */
        }
    }
    int64_t unissued = idgenp_runs_unissued(atomic_load(&handle));
    printf("runs under TSan: %zu calls, %zu repeats, %zu out of order, %d after close, %zu while lost; reserved "
           "%lld, handed out %lld, given back %lld\n",
           total, rep, bad, late, lost, (long long)go_reserved, (long long)handed, (long long)go_returned);
    int ok = total > 10000 && rep == 0 && bad == 0 && late == 0 && lost == 0 && handed <= go_reserved - go_returned;
    (void)unissued;
    puts(ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
