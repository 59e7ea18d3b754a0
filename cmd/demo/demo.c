// make demo: open a generator, print its configuration string, its lease
// and a few ids with their fields, times in RFC 3339 (UTC, ms).
//
//   demo            the defaults, as a program gets them with no config:
//                   preset=snowflake with a pair leased on this host (the
//                   default lease directory, /var/tmp/idgen)
//   demo CONFIG     the generator of CONFIG, e.g. "preset=zk-session worker=5"
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "idgen.h"

/* unix_ms as RFC 3339 in UTC with milliseconds; "-" when there is none. */
static const char *rfc3339(int64_t unix_ms, char *buf, size_t cap) {
    time_t s = (time_t)(unix_ms / 1000);
    struct tm tm;
    if (unix_ms < 0 || gmtime_r(&s, &tm) == NULL) {
        snprintf(buf, cap, "-");
        return buf;
    }
    size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, cap - n, ".%03dZ", (int)(unix_ms % 1000));
    return buf;
}

/* The lease the generator holds, from idgen_get_stats; where, from its
 * configuration string cfg. */
static void print_lease(idgen_t *g, const char *cfg) {
    static const char *const states[] = {"none", "held", "riding out an outage of its store", "lost"};
    idgen_stats st;
    if (idgen_get_stats(g, &st, sizeof st) != IDGEN_OK || st.lease_state < 0 || st.lease_state > IDGEN_LEASE_LOST)
        return;
    if (st.lease_state == IDGEN_LEASE_NONE) {
        printf("lease:  none (a fixed worker)\n");
        return;
    }
    const char *where = strstr(cfg, "worker=lease") && !strstr(cfg, "lease_dir=") ? " in /var/tmp/idgen (the default lease_dir)" : "";
    char fence[32];
    printf("lease:  %s%s: datacenter %" PRId64 ", worker %" PRId64 "; ids up to %s, renewed every lease_ttl/3\n",
           states[st.lease_state], where, st.datacenter, st.worker, rfc3339(st.fence_unix_ms, fence, sizeof fence));
}

static int print_ids(idgen_t *g, int count) {
    printf("%-20s %-13s %-11s %-24s %4s %6s %8s\n", "id", "base36", "base62", "time (UTC)", "dc", "worker", "sequence");
    for (int i = 0; i < count; i++) {
        int64_t id = idgen_next(g);
        if (id < 0) {
            fprintf(stderr, "idgen_next: %s (%s)\n", idgen_strerror((int)id), idgen_last_error());
            return 1;
        }
        idgen_parts p;
        char b36[16], b62[16], when[32];
        if (idgen_decode_with(g, id, &p) != IDGEN_OK || idgen_format(id, 36, 0, b36, sizeof b36) != IDGEN_OK ||
            idgen_format(id, 62, 1, b62, sizeof b62) != IDGEN_OK) {
            fprintf(stderr, "decode %" PRId64 ": %s\n", id, idgen_last_error());
            return 1;
        }
        printf("%-20" PRId64 " %-13s %-11s %-24s %4" PRId64 " %6" PRId64 " %8" PRId64 "\n", id, b36, b62,
               rfc3339(p.unix_ms, when, sizeof when), p.datacenter, p.worker, p.sequence);
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *config = argc > 1 ? argv[1] : NULL; /* NULL: the defaults */
    idgen_t *g;
    if (idgen_open(config, &g) != IDGEN_OK) {
        fprintf(stderr, "idgen_open: %s\n", idgen_last_error());
        return 1;
    }
    char cfg[1024] = "";
    if (idgen_config_string(g, cfg, sizeof cfg) == IDGEN_OK)
        printf("libidgen %s  %s: %s\n", idgen_version(), config ? "config" : "no config, the defaults", cfg);
    print_lease(g, cfg);
    printf("\n");
    int rc = print_ids(g, 5);
    idgen_close(g);
    return rc;
}
