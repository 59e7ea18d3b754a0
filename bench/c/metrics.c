// idgen_metrics_text's cost: one scrape of a process with 100 open
// generators (µs), and idgen_next beside a thread scraping every 100 ms
// against idgen_next alone (each round alone-beside-beside-alone; the
// median of the rounds' ratios; target <= 1.02x).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

#define ROUNDS 15
#define GENS 100

static char *buf;
static size_t cap = 1 << 20;
static volatile int scraping;
static long scrapes;

static int64_t scrape(void) {
    int64_t n = idgen_metrics_text(buf, cap);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "idgen_metrics_text: %lld: %s\n", (long long)n, idgen_last_error());
        exit(1);
    }
    return n;
}

static void *scraper(void *arg) {
    (void)arg;
    struct timespec pause = {0, 100 * 1000 * 1000};
    while (scraping) {
        scrape();
        scrapes++;
        nanosleep(&pause, NULL);
    }
    return NULL;
}

int main(void) {
    buf = malloc(cap);
    idgen_t *gens[GENS];
    char cfg[128];
    for (int i = 0; i < GENS; i++) {
        snprintf(cfg, sizeof cfg, "preset=snowflake datacenter=%d worker=%d name=bench", i / 32, i % 32);
        gens[i] = open_or_die(cfg);
    }
    idgen_t *unc = open_or_die("layout=time:41,seq:22 worker=0");
    double v_scrape[ROUNDS], ratio[ROUNDS];
    int64_t len = scrape();
    next_ns(unc, 1000000);
    for (int r = 0; r < ROUNDS; r++) {
        double t = now_s();
        for (int i = 0; i < 200; i++)
            scrape();
        v_scrape[r] = (now_s() - t) / 200 * 1e6;
        // alone, beside, beside, alone: a drift of the machine's speed
        // within the round cancels out of its ratio.
        double alone = 0, beside = 0;
        for (int k = 0; k < 4; k++) {
            if (k == 0 || k == 3) {
                alone += next_ns(unc, 5000000);
                continue;
            }
            scraping = 1;
            pthread_t th;
            pthread_create(&th, NULL, scraper, NULL);
            beside += next_ns(unc, 5000000);
            scraping = 0;
            pthread_join(th, NULL);
        }
        ratio[r] = beside / alone;
    }
    double s = median(v_scrape, ROUNDS), q = median(ratio, ROUNDS);
    printf("Metrics (medians of %d rounds)\n", ROUNDS);
    printf("  %-58s %10.1f us (%lld bytes)\n", "idgen_metrics_text, 100 generators, one scrape", s, (long long)len);
    printf("  %-58s %.3fx (median of %d rounds' ratios; target <= 1.02x) %s\n", "idgen_next with a scrape every 100 ms / without", q,
           ROUNDS, verdict(q <= 1.02));
    for (int i = 0; i < GENS; i++)
        idgen_close(gens[i]);
    idgen_close(unc);
    free(buf);
    return 0;
}
