// idgen_next served in C from runs the Go side reserved (runs.h). The
// argument that it is linearizable is in docs/ARCHITECTURE.md ("Runs in
// C"); in short:
//
//   - A handle's state has one 64-bit cursor: serial (8 bits: whose
//     handle) | generation (32: which run) | index (24: the next id of
//     the run). The run of generation g sits in slot[g % 4].
//   - Handing out is a compare-and-swap of the cursor from (s, g, i) to
//     (s, g, i+1), made only when i < the run's length: the CAS is the
//     moment the id is handed out, and the id is first + i*step. Cursor
//     values only grow (generations go up, an index goes up within one),
//     and so do the ids they stand for: a later CAS hands out a larger id.
//   - A new run is written into the next generation's slot, under the
//     state's lock, and published by a CAS of the cursor to (s, g+1, 0).
//     A reader's CAS succeeds only if the cursor did not move since it
//     read the slot, so the slot it read was the run of its generation.
//   - Anything that must stop the runs (a batch, a close, a fence that
//     dropped) moves the cursor to (s, g+1, DEAD) by CAS: DEAD is past
//     every run's length, so no CAS hands out from it; the tail (i up to
//     the length) is given back to Go.
//   - A timed run's id is handed out only if the clock, read after the
//     CAS, is still before the run's deadline, taken before Go reserved
//     it; else it is dropped (counted) and a new run reserved.
//
// States are never freed: a closed handle's state serves the next handle
// of its slot, so a late reader never touches freed memory; the serial in
// the cursor keeps it from handing out the new handle's ids.
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "runs.h"
#include "runclock.h"

#define IDX_BITS 24
#define GEN_BITS 32
#define SERIAL_SHIFT (IDX_BITS + GEN_BITS)
#define IDX_DEAD ((UINT64_C(1) << IDX_BITS) - 1)
#define GEN_ONE (UINT64_C(1) << IDX_BITS)
#define GEN_FIELD (((UINT64_C(1) << GEN_BITS) - 1) << IDX_BITS)
#define CHUNK_BITS 10

/* One run as a reader sees it; written only for a generation not yet
   published (relaxed atomics: a reader that raced a rewrite fails its CAS). */
typedef struct {
    _Atomic int64_t first, step, n;
    _Atomic int64_t deadline; /* timed: on the counter, or on CLOCK_MONOTONIC */
    _Atomic int timed;        /* 0 untimed, 1 counter deadline, 2 monotonic deadline */
} slot_run;

/* The layout idgen_get_run_memory promises (include/idgen.h). */
_Static_assert(offsetof(slot_run, first) == 0 && offsetof(slot_run, step) == 8 && offsetof(slot_run, n) == 16 &&
                   offsetof(slot_run, timed) == 32 && sizeof(_Atomic int64_t) == 8,
               "idgen_run_memory's run layout");

typedef struct {
    _Atomic uint64_t cursor;
    slot_run slot[4];
    _Atomic int64_t dropped; /* timed ids taken after their deadline: never handed out */
    pthread_mutex_t mu;      /* reservations, holds, close */
    uintptr_t token;         /* under mu: the handle served; 0 when none */
    _Atomic int kind;        /* written under mu; NONE: idgen_next goes to Go */
} runs_state;

/* The default generator's (idgen_next_id): kind -1 until first asked. */
static runs_state default_state = {
    .cursor = IDX_DEAD, .mu = PTHREAD_MUTEX_INITIALIZER, .token = IDGENP_DEFAULT, .kind = -1};

static _Atomic(runs_state *) *_Atomic chunks[1 << (IDGENP_SLOT_BITS - CHUNK_BITS)];
static pthread_mutex_t chunks_mu = PTHREAD_MUTEX_INITIALIZER;

static inline uint64_t serial_of(uintptr_t token) {
    return (uint64_t)(token >> IDGENP_SLOT_BITS) & 0xff;
}

/* The state of a handle's slot; NULL for a made-up token of no slot's,
   and for IDGENP_DEFAULT passed as a handle (a host's idgen_next(1)). */
static inline runs_state *lookup_handle(uintptr_t token) {
    if (token == IDGENP_DEFAULT) {
        return NULL;
    }
    uintptr_t slot = token & ((1u << IDGENP_SLOT_BITS) - 1);
    _Atomic(runs_state *) *c = atomic_load_explicit(&chunks[slot >> CHUNK_BITS], memory_order_acquire);
    if (c == NULL) {
        return NULL;
    }
    return atomic_load_explicit(&c[slot & ((1u << CHUNK_BITS) - 1)], memory_order_acquire);
}

/* token's state: the default generator's for IDGENP_DEFAULT (the Go
   side's hooks and idgen_next_id, never a host's handle). */
static inline runs_state *lookup(uintptr_t token) {
    return token == IDGENP_DEFAULT ? &default_state : lookup_handle(token);
}

/* The state of token's slot, made on first use (NULL: out of memory). */
static runs_state *state_for(uintptr_t token) {
    runs_state *st = lookup_handle(token);
    if (st != NULL) {
        return st;
    }
    uintptr_t slot = token & ((1u << IDGENP_SLOT_BITS) - 1);
    pthread_mutex_lock(&chunks_mu);
    _Atomic(runs_state *) *c = atomic_load(&chunks[slot >> CHUNK_BITS]);
    if (c == NULL) {
        c = calloc(1u << CHUNK_BITS, sizeof *c);
        atomic_store_explicit(&chunks[slot >> CHUNK_BITS], c, memory_order_release);
    }
    if (c != NULL && (st = atomic_load(&c[slot & ((1u << CHUNK_BITS) - 1)])) == NULL) {
        st = aligned_alloc(64, (sizeof(runs_state) + 63) / 64 * 64);
        if (st != NULL) {
            *st = (runs_state){.cursor = IDX_DEAD};
            pthread_mutex_init(&st->mu, NULL);
            atomic_store_explicit(&c[slot & ((1u << CHUNK_BITS) - 1)], st, memory_order_release);
        }
    }
    pthread_mutex_unlock(&chunks_mu);
    return st;
}

/* Hands out the next id of the current run into *id: 1, or 0 when there
   is none to hand out (used up, stale, stopped, another handle's). */
static inline int take(runs_state *st, uint64_t serial, int64_t *id) {
    uint64_t c = atomic_load_explicit(&st->cursor, memory_order_acquire);
    for (;;) {
        if ((c >> SERIAL_SHIFT) != serial) {
            return 0;
        }
        uint64_t i = c & IDX_DEAD;
        slot_run *r = &st->slot[(c >> IDX_BITS) & 3];
        int64_t n = atomic_load_explicit(&r->n, memory_order_relaxed);
        if ((int64_t)i >= n) {
            return 0;
        }
        int64_t first = atomic_load_explicit(&r->first, memory_order_relaxed);
        int64_t step = atomic_load_explicit(&r->step, memory_order_relaxed);
        int timed = atomic_load_explicit(&r->timed, memory_order_relaxed);
        int64_t deadline = atomic_load_explicit(&r->deadline, memory_order_relaxed);
        if (!atomic_compare_exchange_weak_explicit(&st->cursor, &c, c + 1, memory_order_acq_rel,
                                                   memory_order_acquire)) {
            continue;
        }
        if (timed && (timed == 1 ? idgenp_counter() : idgenp_mono_ns()) >= deadline) {
            atomic_fetch_add_explicit(&st->dropped, 1, memory_order_relaxed);
            return 0;
        }
        *id = first + (int64_t)i * step;
        return 1;
    }
}

/* Stops the current run (cursor to the next generation, DEAD) and
   returns its tail: the ids not handed out. */
static idgenp_run stop(runs_state *st) {
    uint64_t c = atomic_load_explicit(&st->cursor, memory_order_acquire);
    uint64_t dead;
    do {
        dead = (c & ~(GEN_FIELD | IDX_DEAD)) | ((c + GEN_ONE) & GEN_FIELD) | IDX_DEAD;
    } while (!atomic_compare_exchange_weak_explicit(&st->cursor, &c, dead, memory_order_acq_rel,
                                                    memory_order_acquire));
    idgenp_run tail = {0, 0, 0};
    uint64_t i = c & IDX_DEAD;
    slot_run *r = &st->slot[(c >> IDX_BITS) & 3];
    int64_t n = atomic_load_explicit(&r->n, memory_order_relaxed);
    if ((int64_t)i < n) {
        tail.step = atomic_load_explicit(&r->step, memory_order_relaxed);
        tail.first = atomic_load_explicit(&r->first, memory_order_relaxed) + (int64_t)i * tail.step;
        tail.n = n - (int64_t)i;
    }
    return tail;
}

/* Publishes run (holding mu) unless the cursor left generation gen (a
   revoke meanwhile): 1 if published. */
static int publish(runs_state *st, uint64_t gen, const idgenp_run *run, int timed, int64_t deadline) {
    uint64_t c = atomic_load_explicit(&st->cursor, memory_order_acquire);
    for (;;) {
        if ((c & GEN_FIELD) != gen) {
            return 0;
        }
        uint64_t next = (c & ~(GEN_FIELD | IDX_DEAD)) | ((c + GEN_ONE) & GEN_FIELD);
        slot_run *r = &st->slot[(next >> IDX_BITS) & 3];
        atomic_store_explicit(&r->n, 0, memory_order_relaxed);
        atomic_store_explicit(&r->first, run->first, memory_order_relaxed);
        atomic_store_explicit(&r->step, run->step, memory_order_relaxed);
        atomic_store_explicit(&r->timed, timed, memory_order_relaxed);
        atomic_store_explicit(&r->deadline, deadline, memory_order_relaxed);
        atomic_store_explicit(&r->n, run->n, memory_order_relaxed);
        if (atomic_compare_exchange_weak_explicit(&st->cursor, &c, next, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            return 1;
        }
    }
}

/* Reserves the next run (holding mu): a status. */
static int refill(runs_state *st, uintptr_t token) {
    idgenp_run tail = stop(st);
    uint64_t gen = atomic_load_explicit(&st->cursor, memory_order_acquire) & GEN_FIELD;
    int timed = 0;
    int64_t deadline = 0;
    if (st->kind == IDGENP_RUNS_TIMED) {
        /* The deadline is read before Go reserves: an id is handed out
           at most IDGENP_FRESH_NS after the reservation, never later. */
        int64_t w = idgenp_counter_window(IDGENP_FRESH_NS);
        timed = w > 0 ? 1 : 2;
        deadline = w > 0 ? idgenp_counter() + w : idgenp_mono_ns() + IDGENP_FRESH_NS;
    }
    for (;;) {
        idgenp_run run = {0, 0, 0};
        int64_t room = st->kind == IDGENP_RUNS_TIMED ? (int64_t)IDX_DEAD - 1 : IDGENP_UNTIMED_ROOM;
        int rc = idgenGoReserve(token, &tail, room, &run);
        if (rc != 0) {
            return rc;
        }
        if (publish(st, gen, &run, timed, deadline)) {
            return 0;
        }
        /* A fence dropped while Go reserved: the run goes back, and Go
           is asked again (it refuses while the lease is lost). */
        tail = run;
        gen = atomic_load_explicit(&st->cursor, memory_order_acquire) & GEN_FIELD;
    }
}

void idgenp_runs_open(uintptr_t token, int kind) {
    runs_state *st = kind == IDGENP_RUNS_NONE ? lookup(token) : state_for(token);
    if (st == NULL) {
        return; /* no runs (or no memory for them): idgen_next goes to Go */
    }
    pthread_mutex_lock(&st->mu);
    (void)stop(st);
    uint64_t c = atomic_load(&st->cursor);
    atomic_store(&st->cursor, (serial_of(token) << SERIAL_SHIFT) | (c & GEN_FIELD) | IDX_DEAD);
    atomic_store(&st->dropped, 0);
    st->token = token;
    atomic_store(&st->kind, kind);
    pthread_mutex_unlock(&st->mu);
}

/* idgen_next or idgen_next_id without runs (or closed): Go answers. */
static int64_t in_go(uintptr_t token) { return token == IDGENP_DEFAULT ? idgenGoNextID() : idgenGoNext(token); }

/* Asks Go the default generator's kind the first time (holding mu): a
   status. */
static int default_kind(runs_state *st) {
    if (st != &default_state || st->kind >= 0) {
        return 0;
    }
    int k = idgenGoDefaultRuns();
    if (k < 0) {
        return k;
    }
    atomic_store(&st->kind, k);
    return 0;
}

int64_t idgenp_runs_next(uintptr_t token) {
    runs_state *st = lookup(token);
    if (st == NULL || atomic_load_explicit(&st->kind, memory_order_relaxed) == IDGENP_RUNS_NONE) {
        return in_go(token);
    }
    uint64_t serial = serial_of(token);
    int64_t id;
    for (;;) {
        if (take(st, serial, &id)) {
            return id;
        }
        pthread_mutex_lock(&st->mu);
        int rc = default_kind(st);
        if (rc == 0 && (st->token != token || st->kind == IDGENP_RUNS_NONE)) {
            pthread_mutex_unlock(&st->mu);
            return in_go(token);
        }
        rc = rc != 0 ? rc : refill(st, token);
        pthread_mutex_unlock(&st->mu);
        if (rc != 0) {
            return rc;
        }
    }
}

int64_t idgenp_runs_in_hand(uintptr_t token) {
    runs_state *st = lookup_handle(token);
    int64_t id;
    return st != NULL && take(st, serial_of(token), &id) ? id : -1;
}

void idgenp_runs_fork_child(void) {
    atomic_store(&default_state.cursor, IDX_DEAD);
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        _Atomic(runs_state *) *c = atomic_load(&chunks[k]);
        for (size_t j = 0; c != NULL && j < (1u << CHUNK_BITS); j++) {
            runs_state *st = atomic_load(&c[j]);
            if (st != NULL) {
                atomic_store(&st->cursor, IDX_DEAD); /* serial 0: no handle's; index past every run */
            }
        }
    }
}

int idgenp_runs_memory(uintptr_t token, int64_t out[6]) {
    runs_state *st = lookup_handle(token);
    if (st == NULL) {
        return 0;
    }
    pthread_mutex_lock(&st->mu);
    int kind = st->token == token ? st->kind : IDGENP_RUNS_NONE;
    pthread_mutex_unlock(&st->mu);
    if (kind != IDGENP_RUNS_TIMED && kind != IDGENP_RUNS_UNTIMED) {
        return 0;
    }
    out[0] = 1;
    out[1] = (int64_t)(uintptr_t)&st->cursor;
    out[2] = (int64_t)(uintptr_t)&st->slot[0];
    out[3] = (int64_t)sizeof(slot_run);
    out[4] = (int64_t)serial_of(token);
    out[5] = kind == IDGENP_RUNS_TIMED;
    return 1;
}

void *idgenp_runs_hold(uintptr_t token) {
    runs_state *st = lookup(token);
    if (st == NULL) {
        return NULL;
    }
    pthread_mutex_lock(&st->mu);
    if (st->token != token || st->kind <= IDGENP_RUNS_NONE) {
        pthread_mutex_unlock(&st->mu);
        return NULL;
    }
    idgenp_run tail = stop(st);
    if (tail.n > 0) {
        idgenGoReturn(token, &tail);
    }
    return st;
}

void idgenp_runs_release(void *held) {
    if (held != NULL) {
        pthread_mutex_unlock(&((runs_state *)held)->mu);
    }
}

void idgenp_runs_close(uintptr_t token) {
    runs_state *st = lookup(token);
    idgenp_run tail = {0, 0, 0};
    if (st != NULL) {
        pthread_mutex_lock(&st->mu);
        if (st->token == token) {
            tail = stop(st);
            st->token = 0;
            atomic_store(&st->kind, IDGENP_RUNS_NONE);
        }
        pthread_mutex_unlock(&st->mu);
    }
    idgenGoClose(token, &tail);
}

int idgenp_runs_configure(const char *config) {
    runs_state *st = &default_state;
    pthread_mutex_lock(&st->mu);
    idgenp_run tail = stop(st); /* the old default's: given back before it closes */
    int kind = st->kind;
    int rc = idgenGoConfigure((char *)config, &tail, &kind);
    atomic_store(&st->kind, kind);
    pthread_mutex_unlock(&st->mu);
    return rc;
}

int64_t idgenp_runs_unissued(uintptr_t token) {
    runs_state *st = lookup(token);
    if (st == NULL) {
        return 0;
    }
    uint64_t c = atomic_load_explicit(&st->cursor, memory_order_acquire);
    int64_t n = atomic_load_explicit(&st->dropped, memory_order_relaxed);
    if ((c >> SERIAL_SHIFT) == serial_of(token)) {
        int64_t left = atomic_load_explicit(&st->slot[(c >> IDX_BITS) & 3].n, memory_order_relaxed) -
                       (int64_t)(c & IDX_DEAD);
        n += left > 0 ? left : 0;
    }
    return n;
}

void idgenp_runs_revoke(uintptr_t token) {
    runs_state *st = lookup(token);
    if (st != NULL && (atomic_load(&st->cursor) >> SERIAL_SHIFT) == serial_of(token)) {
        idgenp_run tail = stop(st);
        /* Go dropped the fence: a time run's tail is dropped, counted. */
        atomic_fetch_add_explicit(&st->dropped, tail.n, memory_order_relaxed);
    }
}
