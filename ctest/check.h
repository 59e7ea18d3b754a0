// The checks the C test programs share: CHECK counts a passed or failed
// condition (printing the library's last error on failure), CHECK_RC
// compares a status, must_open opens or records a failure.
#ifndef IDGEN_CTEST_CHECK_H
#define IDGEN_CTEST_CHECK_H

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "idgen.h"

static int passed, failed;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            passed++;                                                       \
        } else {                                                            \
            failed++;                                                       \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, " (last error: %s)\n", idgen_last_error());     \
        }                                                                   \
    } while (0)

#define CHECK_RC(call, want)                                                          \
    do {                                                                              \
        int64_t rc_ = (call);                                                         \
        CHECK(rc_ == (want), "%s returned %" PRId64 ", want %d", #call, rc_, (want)); \
    } while (0)

static inline idgen_t *must_open(const char *config) {
    idgen_t *g = NULL;
    int rc = idgen_open(config, &g);
    CHECK(rc == IDGEN_OK && g != NULL, "idgen_open(%s) = %d", config, rc);
    return g;
}

/* The path of a *.lease file in dir into out: 1 if there is one. */
static inline int find_lease_file(const char *dir, char *out, size_t cap) {
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 6 && strcmp(e->d_name + n - 6, ".lease") == 0) {
            snprintf(out, cap, "%s/%s", dir, e->d_name);
            found = 1;
        }
    }
    closedir(d);
    return found;
}

#endif
