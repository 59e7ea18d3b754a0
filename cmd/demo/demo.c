// make demo: open a generator, print a few ids and their fields.
#include <inttypes.h>
#include <stdio.h>

#include "idgen.h"

int main(int argc, char **argv) {
    const char *config = argc > 1 ? argv[1] : "preset=snowflake datacenter=1 worker=7";
    idgen_t *g;
    if (idgen_open(config, &g) != IDGEN_OK) {
        fprintf(stderr, "idgen_open: %s\n", idgen_last_error());
        return 1;
    }
    char cfg[512];
    if (idgen_config_string(g, cfg, sizeof cfg) == IDGEN_OK)
        printf("libidgen %s  config: %s\n\n", idgen_version(), cfg);
    printf("%-20s %-13s %-11s %-24s %4s %6s %8s\n", "id", "base36", "base62", "time (unix ms)", "dc", "worker", "sequence");
    for (int i = 0; i < 5; i++) {
        int64_t id = idgen_next(g);
        if (id < 0) {
            fprintf(stderr, "idgen_next: %s (%s)\n", idgen_strerror((int)id), idgen_last_error());
            return 1;
        }
        idgen_parts p;
        char b36[16], b62[16];
        idgen_decode_with(g, id, &p);
        idgen_format(id, 36, 0, b36, sizeof b36);
        idgen_format(id, 62, 1, b62, sizeof b62);
        printf("%-20" PRId64 " %-13s %-11s %-24" PRId64 " %4" PRId64 " %6" PRId64 " %8" PRId64 "\n",
               id, b36, b62, p.unix_ms, p.datacenter, p.worker, p.sequence);
    }
    idgen_close(g);
    return 0;
}
