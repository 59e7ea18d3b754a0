/* A real lease-holding process for the fleet tests.
 *
 *   holder CONFIG OUTFILE [PAUSE_US [STATS_MS]]
 *
 * Opens a generator (on failure: prints "open CODE MESSAGE" on stdout and
 * exits 3), prints its idgen_config_string as the first stdout line, then
 * issues ids until SIGTERM, writing each successful id (8 bytes, little
 * endian) to OUTFILE with write(2) at once, so a kill -9 loses none that
 * were issued. After each id it sleeps PAUSE_US microseconds (default 200).
 * Each change of status goes to stdout as "status CODE UNIX_MS MESSAGE".
 * With STATS_MS > 0, a second thread reads idgen_get_stats every STATS_MS
 * milliseconds and prints each change of the lease state or pair as
 * "lease STATE UNIX_MS DC/W taken=N renewed=MS fence=MS renewals=N failures=N"
 * (STATE: IDGEN_LEASE_*; UNIX_MS: when the stats were read).
 * On SIGTERM it closes the generator and exits 0. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "idgen.h"

static volatile sig_atomic_t stop;

static void on_term(int sig) {
    (void)sig;
    stop = 1;
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct watch {
    idgen_t *g;
    long ms;
    atomic_int done;
};

/* Prints each change of the lease state or pair (see above). */
static void *watch_stats(void *arg) {
    struct watch *w = arg;
    long long state = -1, dc = -2, worker = -2;
    while (!atomic_load(&w->done)) {
        idgen_stats st;
        if (idgen_get_stats(w->g, &st, sizeof st) == IDGEN_OK &&
            (st.lease_state != state || st.datacenter != dc || st.worker != worker)) {
            state = st.lease_state, dc = st.datacenter, worker = st.worker;
            printf("lease %lld %lld %lld/%lld taken=%lld renewed=%lld fence=%lld renewals=%lld failures=%lld\n",
                   state, now_ms(), dc, worker, (long long)st.leases_taken, (long long)st.renewed_unix_ms,
                   (long long)st.fence_unix_ms, (long long)st.renewals, (long long)st.renewal_failures);
        }
        usleep((useconds_t)w->ms * 1000);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: holder CONFIG OUTFILE [PAUSE_US [STATS_MS]]\n");
        return 2;
    }
    long pause_us = argc > 3 ? atol(argv[3]) : 200;
    long stats_ms = argc > 4 ? atol(argv[4]) : 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);

    idgen_t *g;
    int rc = idgen_open(argv[1], &g);
    if (rc != IDGEN_OK) {
        printf("open %d %s\n", rc, idgen_last_error());
        return 3;
    }
    char cfg[2048];
    if (idgen_config_string(g, cfg, sizeof cfg) != IDGEN_OK)
        snprintf(cfg, sizeof cfg, "?");
    printf("config %s\n", cfg);
    int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    if (fd < 0) {
        perror(argv[2]);
        return 4;
    }
    struct watch w = {g, stats_ms, 0};
    pthread_t watcher;
    if (stats_ms > 0 && pthread_create(&watcher, NULL, watch_stats, &w) != 0) {
        fprintf(stderr, "holder: cannot start the stats thread\n");
        return 4;
    }
    int last = 0;
    while (!stop) {
        int64_t id = idgen_next(g);
        int status = id < 0 ? (int)id : 0;
        if (status != last) {
            printf("status %d %lld %s\n", status, now_ms(), status ? idgen_last_error() : "ok");
            last = status;
        }
        if (id >= 0) {
            if (write(fd, &id, sizeof id) != (ssize_t)sizeof id) {
                perror("write");
                return 4;
            }
        } else {
            usleep(1000);
        }
        if (pause_us > 0)
            usleep((useconds_t)pause_us);
    }
    if (stats_ms > 0) {
        atomic_store(&w.done, 1);
        pthread_join(watcher, NULL);
    }
    close(fd);
    idgen_close(g);
    printf("closed\n");
    return 0;
}
