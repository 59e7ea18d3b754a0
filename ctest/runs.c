// Runs served in C (capi/runs.c) against the built library: idgen_next of
// a generator with runs=N and of a segment counter hands out ids of runs
// without calling into Go. Each test attacks one promise: linearizable
// across threads and methods, fresh ids, a close racing calls (and the
// slot's next handle), a fork, a dropped fence, a clean close giving the
// tail back, the stats; idgen_next_in_hand mixed into each of them.
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "hosttake.h"
#include "linear.h"

#define THREADS 4

static char dir[] = "/tmp/idgen-ctest-runs-XXXXXX";

static int64_t wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The host's own hand-out (hosttake.h) from m. */
static int mem_take(const idgen_run_memory *m, int64_t *id) {
    return host_take(m->cursor, m->runs, m->run_size, m->serial, id);
}

/* idgen_next, or every other call idgen_next_in_hand first (a JVM's
   critical downcall does this): the two hand out of the same runs. */
static int64_t next_mixed(idgen_t *g, size_t i) {
    int64_t id = i & 1 ? idgen_next_in_hand(g) : -1;
    return id >= 0 ? id : idgen_next(g);
}

/* ... and for a segment counter, every third call from the host's own
   hand-out (m: its memory, version 1). */
static int64_t next_mixed3(idgen_t *g, const idgen_run_memory *m, size_t i) {
    int64_t id;
    if (m->version == 1 && i % 3 == 2 && mem_take(m, &id)) {
        return id;
    }
    return next_mixed(g, i);
}

/* ---- linearizable across threads and methods ---------------------------- */

typedef struct {
    idgen_t *g; /* NULL: the default generator, reconfigured now and then */
    const char *config;
    lin_op *ops;
    size_t n, done;
    int errors;
    int64_t handed; /* ids handed out */
    idgen_run_memory mem; /* version 0 unless g has runs in C */
} lin_worker;

static void *lin_run(void *arg) {
    lin_worker *w = arg;
    int64_t buf[8], fresh;
    for (size_t i = 0; i < w->n; i++) {
        lin_op *op = &w->ops[w->done];
        op->begin = lin_ticket();
        if (i % 97 == 96) { /* a batch between two nexts */
            if ((w->g != NULL ? idgen_next_batch(w->g, buf, 5) : idgen_next_ids(buf, 5)) != IDGEN_OK) {
                w->errors++;
                continue;
            }
            op->lo = buf[0], op->hi = buf[4];
            w->handed += 5;
        } else if (i % 211 == 210 && w->g != NULL) { /* a whole run, as Python takes them */
            int got = idgen_next_run(w->g, buf, 8, &fresh);
            if (got <= 0) {
                w->errors++;
                continue;
            }
            op->lo = buf[0], op->hi = buf[got - 1];
            w->handed += got;
        } else if (w->g == NULL && i % 1013 == 1012) { /* the default replaced between two calls */
            if (idgen_configure(w->config) != IDGEN_OK) {
                w->errors++;
            }
            continue;
        } else {
            int64_t id = w->g != NULL ? next_mixed3(w->g, &w->mem, i) : idgen_next_id();
            if (id < 0) {
                w->errors++;
                continue;
            }
            op->lo = op->hi = id;
            w->handed++;
        }
        op->end = lin_ticket();
        w->done++;
    }
    return NULL;
}

/* ... on the default generator (idgen_next_id, idgen_next_ids) when
   dflt: configured with config, and configured again while called. */
static void test_linearizable(const char *config, size_t per_thread, int dflt) {
    idgen_t *g = NULL;
    if (dflt) {
        CHECK_RC(idgen_configure(config), IDGEN_OK);
    } else if ((g = must_open(config)) == NULL) {
        return;
    }
    lin_worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (lin_worker){.g = g, .config = config, .ops = malloc(per_thread * sizeof(lin_op)), .n = per_thread};
        if (g != NULL && idgen_get_run_memory(g, &w[i].mem, sizeof w[i].mem) != IDGEN_OK) {
            w[i].mem.version = 0;
        }
        pthread_create(&t[i], NULL, lin_run, &w[i]);
    }
    size_t total = 0, ids = 0;
    int errors = 0;
    int64_t handed = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        total += w[i].done;
        errors += w[i].errors;
        handed += w[i].handed;
    }
    lin_op *all = malloc(total * sizeof *all);
    for (int i = 0, k = 0; i < THREADS; i++) {
        for (size_t j = 0; j < w[i].done; j++, k++) {
            all[k] = w[i].ops[j];
            ids += (size_t)(w[i].ops[j].hi == w[i].ops[j].lo ? 1 : 2);
        }
        free(w[i].ops);
    }
    int64_t *vals = malloc(ids * sizeof *vals);
    size_t v = 0;
    for (size_t i = 0; i < total; i++) {
        vals[v++] = all[i].lo;
        if (all[i].hi != all[i].lo) {
            vals[v++] = all[i].hi;
        }
    }
    CHECK(errors == 0, "%s: %d calls failed", config, errors);
    CHECK(lin_repeats(vals, v) == 0, "%s: no id repeated among %zu", config, v);
    size_t bad = lin_violations(all, total);
    CHECK(bad == 0, "%s: %zu of %zu calls got an id below one of a call that had ended before they began", config,
          bad, total);
    if (g != NULL) {
        idgen_stats st;
        CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_OK);
        CHECK(st.issued == handed, "%s: stats count the ids handed out: issued %" PRId64 ", handed out %" PRId64,
              config, st.issued, handed);
    }
    printf("  linearizable%s: %s: %zu calls on %d threads (%" PRId64 " ids), 0 repeats, %zu out of order\n",
           dflt ? " (the default generator, reconfigured)" : "", config, total, THREADS, handed, bad);
    free(vals);
    free(all);
    if (g != NULL) {
        idgen_close(g);
    }
}

/* The checker itself fails on a call that ended before another began
   with a larger id. */
static void test_checker_can_fail(void) {
    lin_op ops[3] = {{0, 1, 10, 10}, {2, 3, 5, 5}, {4, 5, 20, 20}};
    CHECK(lin_violations(ops, 3) == 1, "the checker finds the call out of order");
    lin_op ok[3] = {{0, 3, 10, 10}, {1, 2, 5, 5}, {4, 5, 20, 20}};
    CHECK(lin_violations(ok, 3) == 0, "overlapping calls may go either way");
    int64_t ids[4] = {3, 1, 3, 2};
    CHECK(lin_repeats(ids, 4) == 1, "the checker finds a repeat");
}

/* ---- a time run's ids are fresh ----------------------------------------- */

/* An id handed out after the generator sat still is from a new run: its
   time is at most 1 ms (+1 for the ms rounding of two clocks) before the
   call began. Runs kept past their 1 ms would hand out the old time.
   clock=wall: the generator reads the wall clock at each reservation
   (the default clock=mono reads a reading cached for up to about a
   millisecond, more on a busy host, which is not the runs' doing). */
static void test_fresh(void) {
    idgen_t *g = must_open("layout=time:41,seq:22 worker=0 runs=1024 clock=wall");
    if (g == NULL) {
        return;
    }
    int stale = 0, calls = 0;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 2000; i++, calls++) {
            int64_t before = wall_ms();
            int64_t id = idgen_next(g);
            idgen_parts p;
            if (id < 0 || idgen_decode_with(g, id, &p) != IDGEN_OK || p.unix_ms < before - 2) {
                stale++;
            }
        }
        usleep(3000);
    }
    CHECK(stale == 0, "%d of %d ids carried a time more than 1 ms before their call", stale, calls);
    idgen_close(g);
}

/* ---- a close racing calls, and the slot's next handle ------------------ */

typedef struct {
    idgen_t *g;
    atomic_int *stop;
    int64_t bad;          /* a value that is not the old counter's */
    int wrong_status;     /* a status other than ECLOSED */
    uint64_t closed_at;   /* the ticket after the close returned */
    int after_close_ids;  /* ids from calls begun after the close returned */
} race_worker;

static _Atomic uint64_t close_ticket;

static void *race_run(void *arg) {
    race_worker *w = arg;
    for (size_t i = 0; !atomic_load(w->stop); i++) {
        uint64_t begin = lin_ticket();
        int64_t id = next_mixed(w->g, i);
        if (id >= 1000000000000LL) {
            w->bad = id;
        } else if (id < 0 && id != IDGEN_ECLOSED) {
            w->wrong_status = (int)id;
        } else if (id >= 0 && atomic_load(&close_ticket) != 0 && begin > atomic_load(&close_ticket)) {
            w->after_close_ids++;
        }
    }
    return NULL;
}

static void test_close_race(void) {
    char a[256], b[256];
    snprintf(a, sizeof a, "preset=segment name=race_a step=100 lease_dir=%s", dir);
    snprintf(b, sizeof b, "preset=segment name=race_b start=1000000000000 step=100 lease_dir=%s", dir);
    int bad = 0, wrong = 0, late = 0, rounds = 40;
    for (int r = 0; r < rounds; r++) {
        idgen_t *g = must_open(a);
        if (g == NULL) {
            return;
        }
        atomic_int stop = 0;
        atomic_store(&close_ticket, 0);
        race_worker w[THREADS];
        pthread_t t[THREADS];
        for (int i = 0; i < THREADS; i++) {
            w[i] = (race_worker){.g = g, .stop = &stop};
            pthread_create(&t[i], NULL, race_run, &w[i]);
        }
        usleep(1000 + (unsigned)(r % 5) * 500);
        idgen_close(g);
        atomic_store(&close_ticket, lin_ticket());
        /* The next handle most likely takes the closed one's slot; the
           racing threads still call with the old handle. */
        idgen_t *h = must_open(b);
        for (int i = 0; h != NULL && i < 5000; i++) {
            if (idgen_next(h) < 1000000000000LL) {
                bad++;
            }
        }
        usleep(500);
        atomic_store(&stop, 1);
        for (int i = 0; i < THREADS; i++) {
            pthread_join(t[i], NULL);
            bad += w[i].bad != 0;
            wrong += w[i].wrong_status != 0;
            late += w[i].after_close_ids;
        }
        idgen_close(h);
    }
    CHECK(bad == 0, "%d rounds handed the old handle an id of the new one", bad);
    CHECK(wrong == 0, "%d rounds saw a status other than an id or IDGEN_ECLOSED", wrong);
    CHECK(late == 0, "%d ids from calls that began after idgen_close returned", late);
    printf("  close racing idgen_next: %d rounds of %d threads, the slot reused by another counter each time\n", rounds,
           THREADS);
}

/* ---- idgen_next_in_hand: only what is in hand, else -1 ------------------ */

static void test_in_hand(void) {
    char c[256];
    snprintf(c, sizeof c, "preset=segment name=inhand step=1000 lease_dir=%s", dir);
    idgen_t *s = must_open(c), *t = must_open("layout=time:41,seq:22 worker=0 runs=1024"),
            *plain = must_open("layout=time:41,seq:22 worker=0");
    if (s == NULL || t == NULL || plain == NULL) {
        return;
    }
    CHECK(idgen_next_in_hand(NULL) == -1, "NULL: -1");
    CHECK(idgen_next_in_hand((idgen_t *)(uintptr_t)12345) == -1, "a made-up handle: -1");
    CHECK(idgen_next_in_hand(s) == -1, "no run reserved yet: -1 (idgen_next reserves)");
    CHECK(idgen_next(plain) >= 0 && idgen_next_in_hand(plain) == -1, "no runs: -1 after an id too");
    int64_t a = idgen_next(s), b = idgen_next_in_hand(s), c2 = idgen_next_in_hand(s), d = idgen_next(s);
    CHECK(b == a + 1 && c2 == a + 2 && d == a + 3, "the counter's run, in order across both calls: %" PRId64
          " %" PRId64 " %" PRId64 " %" PRId64, a, b, c2, d);
    int64_t batch[3];
    CHECK_RC(idgen_next_batch(s, batch, 3), IDGEN_OK);
    CHECK(idgen_next_in_hand(s) == -1, "a batch stopped the run: -1");
    CHECK(idgen_next(s) == batch[2] + 1, "idgen_next goes on after the batch");
    int64_t x = idgen_next(t), y = idgen_next_in_hand(t);
    /* A time run is handed out within 1 ms of its reservation: y may be
       -1 on a descheduled thread, never an id at or below x. */
    CHECK(y == -1 || y > x, "a time run goes on above idgen_next's id: %" PRId64 " then %" PRId64, x, y);
    idgen_stats st;
    CHECK_RC(idgen_get_stats(s, &st, sizeof st), IDGEN_OK);
    CHECK(st.issued == 8, "stats count the ids handed out in hand: issued %" PRId64 ", want 8", st.issued);
    idgen_close(s);
    CHECK(idgen_next_in_hand(s) == -1, "a closed handle: -1 (its tail went back)");
    CHECK(idgen_next(s) == IDGEN_ECLOSED, "and idgen_next says why");
    s = must_open(c);
    CHECK(s != NULL && idgen_next(s) == batch[2] + 2, "the tail went back to the counter on close");
    idgen_close(s);
    idgen_close(t);
    idgen_close(plain);
}

/* ---- idgen_get_run_memory: a host's own hand-out ------------------------- */

static void test_run_memory(void) {
    char c[256];
    snprintf(c, sizeof c, "preset=segment name=runmem step=1000 lease_dir=%s", dir);
    idgen_t *s = must_open(c), *t = must_open("layout=time:41,seq:22 worker=0 runs=1024"),
            *plain = must_open("layout=time:41,seq:22 worker=0");
    if (s == NULL || t == NULL || plain == NULL) {
        return;
    }
    idgen_run_memory m = {0}, mt = {0}, mp = {0};
    CHECK_RC(idgen_get_run_memory(s, NULL, sizeof m), IDGEN_EINVAL);
    CHECK_RC(idgen_get_run_memory(s, &m, sizeof m - 1), IDGEN_EINVAL);
    CHECK_RC(idgen_get_run_memory(plain, &mp, sizeof mp), IDGEN_EINVAL);
    CHECK(strstr(idgen_last_error(), "no runs") != NULL, "says why: %s", idgen_last_error());
    CHECK(mp.version == 0, "not written on failure");
    CHECK_RC(idgen_get_run_memory(s, &m, sizeof m), IDGEN_OK);
    CHECK_RC(idgen_get_run_memory(t, &mt, sizeof mt), IDGEN_OK);
    CHECK(m.version == 1 && m.timed == 0 && mt.timed == 1, "version 1, a counter's untimed, a time run's timed");
    int64_t id;
    CHECK(!mem_take(&m, &id), "no run reserved yet: nothing");
    int64_t a = idgen_next(s), b = -1, c2 = -1;
    CHECK(mem_take(&m, &b) && mem_take(&m, &c2), "the run idgen_next reserved");
    CHECK(b == a + 1 && c2 == a + 2 && idgen_next(s) == a + 3, "in order with idgen_next: %" PRId64 " %" PRId64
          " %" PRId64, a, b, c2);
    (void)idgen_next(t);
    CHECK(!mem_take(&mt, &id), "a time run is not the host's to hand out (its age limit is kept in C)");
    pid_t pid = fork();
    if (pid == 0) {
        alarm(5);
        _exit(mem_take(&m, &id) ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child hands out nothing of the parent's run (%d)",
          status);
    CHECK(mem_take(&m, &id) && id == a + 4, "the parent goes on: %" PRId64, id);
    idgen_stats st;
    CHECK_RC(idgen_get_stats(s, &st, sizeof st), IDGEN_OK);
    CHECK(st.issued == 5, "stats count the host's ids: issued %" PRId64 ", want 5", st.issued);
    idgen_close(s);
    CHECK(!mem_take(&m, &id), "nothing after idgen_close returned");
    CHECK_RC(idgen_get_run_memory(s, &m, sizeof m), IDGEN_ECLOSED);
    s = must_open(c);
    CHECK(s != NULL && idgen_next(s) == a + 5, "the tail went back on close: the counter goes on without a gap");
    idgen_close(s);
    idgen_close(t);
    idgen_close(plain);
}

/* ---- a clean close gives the tail back; batches take it too ------------- */

static void test_give_back(void) {
    char c[256];
    snprintf(c, sizeof c, "preset=segment name=tail step=1000 lease_dir=%s", dir);
    idgen_t *g = must_open(c);
    if (g == NULL) {
        return;
    }
    int64_t last = -1, gaps = 0;
    for (int i = 0; i < 10; i++) {
        int64_t id = idgen_next(g);
        gaps += last >= 0 && id != last + 1;
        last = id;
    }
    idgen_stats st;
    CHECK_RC(idgen_get_stats(g, &st, sizeof st), IDGEN_OK);
    CHECK(st.issued == 10, "stats count the ids handed out, not the run held: issued %" PRId64, st.issued);
    CHECK(st.segment_left == 1000 - 10 || st.segment_left == 2000 - 10,
          "the run's tail is still in hand: segment_left %" PRId64, st.segment_left);
    int64_t batch[5];
    CHECK_RC(idgen_next_batch(g, batch, 5), IDGEN_OK);
    CHECK(batch[0] == last + 1 && batch[4] == last + 5, "the batch takes the run's tail: %" PRId64 " after %" PRId64,
          batch[0], last);
    int64_t after = idgen_next(g);
    CHECK(after == batch[4] + 1, "next after the batch: %" PRId64 ", want %" PRId64, after, batch[4] + 1);
    idgen_close(g);
    g = must_open(c);
    if (g == NULL) {
        return;
    }
    int64_t again = idgen_next(g);
    CHECK(again == after + 1, "a clean close gave the tail back: reopened at %" PRId64 ", want %" PRId64, again,
          after + 1);
    CHECK(gaps == 0, "consecutive values");
    idgen_close(g);
}

/* ---- idgen_configure between two calls ---------------------------------- */

/* The first id after idgen_configure returned is the new default's, never
   one of the run the replaced default left in hand; the replaced
   counter's tail went back to it. */
static void test_configure_between_calls(void) {
    char a[256], b[256];
    snprintf(a, sizeof a, "preset=segment name=cfg_a step=1000 lease_dir=%s", dir);
    snprintf(b, sizeof b, "preset=segment name=cfg_b start=1000000000000 step=1000 lease_dir=%s", dir);
    CHECK_RC(idgen_configure(a), IDGEN_OK);
    int64_t x = idgen_next_id(), y = idgen_next_id();
    CHECK(y == x + 1, "the default serves a run: %" PRId64 " then %" PRId64, x, y);
    CHECK_RC(idgen_configure(b), IDGEN_OK);
    int64_t z = idgen_next_id();
    CHECK(z >= 1000000000000LL, "the first id after idgen_configure is the new default's: %" PRId64, z);
    CHECK_RC(idgen_configure(a), IDGEN_OK);
    int64_t again = idgen_next_id();
    CHECK(again == y + 1, "the replaced counter's tail went back to it: %" PRId64 " after %" PRId64, again, y);
}

/* ---- a forked child never hands out the parent's run --------------------- */

static void test_fork(void) {
    char c[256];
    snprintf(c, sizeof c, "preset=segment name=fork step=1000 lease_dir=%s", dir);
    idgen_t *g = must_open(c), *t = must_open("layout=time:41,seq:22 worker=0 runs=1024");
    if (g == NULL || t == NULL) {
        return;
    }
    int64_t before = idgen_next(g);
    (void)idgen_next(t);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(5);
        _exit((idgen_next(g) == IDGEN_EFORKED ? 0 : 1) | (idgen_next(t) == IDGEN_EFORKED ? 0 : 2) |
              (idgen_next_in_hand(g) == -1 && idgen_next_in_hand(t) == -1 ? 0 : 4));
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child got IDGEN_EFORKED with runs in hand (%d)",
          status);
    CHECK(idgen_next(g) == before + 1, "the parent goes on with its run");
    idgen_close(g);
    idgen_close(t);
}

/* ---- a dropped fence stops the C side at once ---------------------------- */

typedef struct {
    idgen_t *g;
    atomic_int stop;
    _Atomic uint64_t lost_seen; /* the ticket after the main thread saw LEASE_LOST */
    int ids_after;              /* ids of calls begun after that */
    int64_t calls;
} drop_worker;

static void *drop_run(void *arg) {
    drop_worker *w = arg;
    for (size_t i = 0; !atomic_load(&w->stop); i++) {
        uint64_t begin = lin_ticket();
        int64_t id = next_mixed(w->g, i);
        uint64_t seen = atomic_load(&w->lost_seen);
        if (id >= 0 && seen != 0 && begin > seen) {
            w->ids_after++;
        }
        w->calls++;
    }
    return NULL;
}

static void test_fence_drop(void) {
    char sub[512], c[600], path[600];
    snprintf(sub, sizeof sub, "%s/drop", dir);
    mkdir(sub, 0700);
    snprintf(c, sizeof c, "layout=time:41,seq:22 worker=lease lease_dir=%s lease_ttl=1s runs=1024", sub);
    drop_worker w = {.g = must_open(c)};
    if (w.g == NULL) {
        return;
    }
    CHECK(idgen_next(w.g) >= 0, "issues");
    CHECK(find_lease_file(sub, path, sizeof path), "the lease record is under %s", sub);
    pthread_t t;
    pthread_create(&t, NULL, drop_run, &w);
    usleep(20000);
    CHECK(unlink(path) == 0, "remove %s", path);
    idgen_stats st = {0};
    /* The renewal finds the record gone: bounded by the lease's own
       renewals, which the stats count (no wall-clock bound here). */
    int64_t renewals = -1;
    while (idgen_get_stats(w.g, &st, sizeof st) == IDGEN_OK && st.lease_state != IDGEN_LEASE_LOST) {
        if (renewals < 0) {
            renewals = st.renewals + st.renewal_failures;
        } else if (st.renewals + st.renewal_failures > renewals + 3) {
            break; /* three renewals and still not lost: fail below */
        }
        usleep(200);
    }
    atomic_store(&w.lost_seen, lin_ticket());
    CHECK(st.lease_state == IDGEN_LEASE_LOST, "the removed record was noticed (state %" PRId64 ")", st.lease_state);
    usleep(5000);
    atomic_store(&w.stop, 1);
    pthread_join(t, NULL);
    CHECK(w.ids_after == 0, "%d ids handed out by calls begun after the lease read LOST (of %" PRId64 " calls)",
          w.ids_after, w.calls);
    CHECK(idgen_next(w.g) == IDGEN_EWORKER, "IDGEN_EWORKER once lost");
    idgen_close(w.g);
}

int main(void) {
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char seg[256], small[256];
    snprintf(seg, sizeof seg, "preset=segment name=lin step=auto lease_dir=%s", dir);
    snprintf(small, sizeof small, "preset=segment name=lin_small step=50 lease_dir=%s", dir);
    test_checker_can_fail();
    test_linearizable("layout=time:41,seq:22 worker=0 runs=1024", 200000, 0);
    test_linearizable("preset=snowflake worker=2 runs=1024", 100000, 0);
    test_linearizable(seg, 200000, 0);
    test_linearizable(small, 50000, 0);
    test_linearizable("layout=time:41,seq:22 worker=0 runs=1024", 100000, 1);
    test_linearizable(small, 50000, 1);
    test_in_hand();
    test_run_memory();
    test_fresh();
    test_configure_between_calls();
    test_close_race();
    test_give_back();
    test_fork();
    test_fence_drop();
    printf("%d passed, %d failed\n", passed, failed);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not remove %s\n", dir);
    }
    return failed != 0;
}
