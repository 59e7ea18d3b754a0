// A child forked from a lease holder must not keep the holder's pair
// locked: the holder (a process of its own, exec'd from here) forks a
// child that sleeps on, and is killed -9; a new generator must then take
// the pair of the one-pair pool. Before idgen closed the child's copies of
// its lease files at fork, the sleeping child held the flock and the open
// failed with IDGEN_EWORKER (pool full).
//
//   ctest_forklock              the test; prints "N passed, N failed" last
//   ctest_forklock hold DIR FD  (internal) the holder
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static void config_for(char *buf, size_t cap, const char *dir) {
    snprintf(buf, cap, "layout=time:41,seq:22 lease_dir=%s lease_ttl=1s", dir);
}

/* The holder: lease the pool's one pair, fork a child that sleeps, tell
   the test the child's pid and the last id, wait to be killed. */
static int hold(const char *dir, int fd) {
    char cfg[512];
    config_for(cfg, sizeof cfg, dir);
    idgen_t *g = NULL;
    if (idgen_open(cfg, &g) != IDGEN_OK) {
        fprintf(stderr, "holder: %s\n", idgen_last_error());
        return 1;
    }
    int64_t id = idgen_next(g);
    pid_t child = fork();
    if (child == 0) {
        sleep(60); /* outlives the holder; killed by the test */
        _exit(0);
    }
    dprintf(fd, "%d %lld\n", (int)child, (long long)id);
    close(fd);
    for (;;)
        pause();
}

/* Children forked while another thread locks and unlocks files: a
   thread runs step (a counter take per id, or an open and close of a
   one-pair pool) until stopped; the test forks children that sleep. */
#define CHILDREN 40

struct churn {
    const char *cfg;
    int segment; /* 1: draw ids (a take each); 0: open and close */
    atomic_int stop;
    int failures;
    char first[512];
};

static void *churn_run(void *arg) {
    struct churn *c = arg;
    idgen_t *g = NULL;
    if (c->segment && idgen_open(c->cfg, &g) != IDGEN_OK) {
        snprintf(c->first, sizeof c->first, "open: %s", idgen_last_error());
        c->failures++;
        return NULL;
    }
    while (!atomic_load(&c->stop)) {
        int rc;
        if (c->segment) {
            rc = idgen_next(g) < 0 ? -1 : 0;
        } else {
            idgen_t *h = NULL;
            rc = idgen_open(c->cfg, &h);
            idgen_close(h);
        }
        if (rc != 0 && c->failures++ == 0)
            snprintf(c->first, sizeof c->first, "%s", idgen_last_error());
    }
    idgen_close(g);
    return NULL;
}

/* Forks CHILDREN sleeping children while c churns; returns after the
   churn stopped, the children still alive (pids in kids). */
static void fork_during(struct churn *c, pid_t *kids) {
    pthread_t t;
    pthread_create(&t, NULL, churn_run, c);
    for (int i = 0; i < CHILDREN; i++) {
        usleep(2000);
        kids[i] = fork();
        if (kids[i] == 0) {
            pause();
            _exit(0);
        }
    }
    atomic_store(&c->stop, 1);
    pthread_join(t, NULL);
}

static void kill_all(pid_t *kids) {
    for (int i = 0; i < CHILDREN; i++) {
        if (kids[i] > 0) {
            kill(kids[i], SIGKILL);
            waitpid(kids[i], NULL, 0);
        }
    }
}

/* A child forked while the counter file is locked (a take) must not keep
   the lock: with the children alive, the counter still serves takes. */
static void counter_children(const char *dir) {
    char cfg[512];
    snprintf(cfg, sizeof cfg, "preset=segment name=forked step=1 max_wait=2s lease_dir=%s", dir);
    struct churn c = {.cfg = cfg, .segment = 1};
    pid_t kids[CHILDREN];
    fork_during(&c, kids);
    CHECK(c.failures == 0, "takes while children were forked: %d failed, first: %s", c.failures, c.first);
    idgen_t *g = NULL;
    int rc = idgen_open(cfg, &g);
    CHECK(rc == IDGEN_OK, "a counter opens while %d children forked during takes live: rc %d", CHILDREN, rc);
    int bad = 0;
    for (int i = 0; rc == IDGEN_OK && i < 20; i++)
        bad += idgen_next(g) < 0;
    CHECK(bad == 0, "20 takes of step 1 while the children live: %d failed", bad);
    idgen_close(g);
    kill_all(kids);
}

/* A child forked while a lease file is opened, locked or closed must not
   keep its lock: with the children alive, the one-pair pool opens. */
static void lease_children(const char *dir) {
    char cfg[512];
    config_for(cfg, sizeof cfg, dir);
    struct churn c = {.cfg = cfg, .segment = 0};
    pid_t kids[CHILDREN];
    fork_during(&c, kids);
    CHECK(c.failures == 0, "opens while children were forked: %d failed, first: %s", c.failures, c.first);
    idgen_t *g = NULL;
    int rc = idgen_open(cfg, &g);
    CHECK(rc == IDGEN_OK, "the one-pair pool opens while %d children forked during opens and closes live: rc %d", CHILDREN, rc);
    idgen_close(g);
    kill_all(kids);
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "hold") == 0)
        return hold(argv[2], atoi(argv[3]));

    char dir[] = "/tmp/idgen-forklock-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    pid_t holder = fork();
    if (holder == 0) {
        close(p[0]);
        char fd[16];
        snprintf(fd, sizeof fd, "%d", p[1]);
        execl("/proc/self/exe", argv[0], "hold", dir, fd, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    char line[64] = {0};
    ssize_t n = read(p[0], line, sizeof line - 1);
    int child = 0;
    long long held_id = -1;
    CHECK(n > 0 && sscanf(line, "%d %lld", &child, &held_id) == 2, "the holder did not start: %s", line);
    CHECK(held_id >= 0, "the holder's id: %lld", held_id);

    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    CHECK(child > 0 && kill(child, 0) == 0, "the holder's child %d is alive, still sharing its lease file", child);

    char cfg[512];
    config_for(cfg, sizeof cfg, dir);
    idgen_t *g = NULL;
    int rc = idgen_open(cfg, &g);
    CHECK(rc == IDGEN_OK, "a new generator takes the pair of the killed holder while its forked child lives: rc %d", rc);
    if (rc == IDGEN_OK) {
        int64_t id = idgen_next(g);
        CHECK(id > held_id, "the new generator's id %lld is above the holder's %lld", (long long)id, held_id);
        idgen_close(g);
    }
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    counter_children(dir);
    lease_children(dir);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    if (system(rm) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
