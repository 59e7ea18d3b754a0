// The public idgen_* symbols. Each checks the fork flag and returns
// IDGEN_EFORKED in a forked child without entering Go (whose runtime does
// not survive fork), then calls the Go export that does the work.
#include <pthread.h>
#include <stdint.h>

#include "idgen.h"
#include "capi.h"
#include "runs.h"
#include "_cgo_export.h"

static volatile int forked;

static void on_fork_child(void) {
    forked = 1;
    idgenp_close_lock_fds_in_child();
    idgenp_runs_fork_child();
}

__attribute__((constructor)) static void idgenp_install_fork_handler(void) {
    pthread_atfork(idgenp_fork_prepare, idgenp_fork_parent, on_fork_child);
}

static int fork_error(void) {
    idgenp_set_error_str(
        "idgen cannot be used in a child forked from a process that had loaded it "
        "(Go's runtime does not survive fork): load idgen only in the children, "
        "use the spawn or forkserver start method, or exec");
    return IDGEN_EFORKED;
}

/* A host's handle as runs.c takes it: IDGENP_DEFAULT names the default
   generator's runs there, so a host that passes that value as a handle (a
   made-up one) is sent to Go, which answers IDGEN_ECLOSED. */
static inline uintptr_t as_handle(idgen_t *g) {
    uintptr_t t = (uintptr_t)g;
    return t == IDGENP_DEFAULT ? 0 : t;
}

#define FORK_CHECK()                        \
    do {                                    \
        if (__builtin_expect(forked, 0))    \
            return fork_error();            \
    } while (0)

int idgen_open(const char *config, idgen_t **out) {
    FORK_CHECK();
    if (out == NULL) {
        idgenp_set_error_str("idgen_open: out is NULL");
        return IDGEN_EINVAL;
    }
    uintptr_t token = 0;
    int kind = IDGENP_RUNS_NONE;
    int rc = idgenGoOpen((char *)config, &token, &kind);
    if (rc == IDGEN_OK) {
        idgenp_runs_open(token, kind);
        *out = (idgen_t *)token;
    }
    return rc;
}

void idgen_close(idgen_t *g) {
    if (forked || g == NULL) {
        return;
    }
    idgenp_runs_close(as_handle(g));
}

int64_t idgen_next(idgen_t *g) {
    FORK_CHECK();
    uintptr_t h = as_handle(g);
    return h != 0 ? idgenp_runs_next(h) : idgenGoNext((uintptr_t)g);
}

int64_t idgen_next_in_hand(idgen_t *g) {
    uintptr_t h = as_handle(g);
    return forked || h == 0 ? -1 : idgenp_runs_in_hand(h);
}

int idgen_get_run_memory(idgen_t *g, idgen_run_memory *out, size_t size) {
    FORK_CHECK();
    if (out == NULL || size < sizeof(idgen_run_memory)) {
        idgenp_set_error_str(out == NULL ? "idgen_get_run_memory: out is NULL"
                                         : "idgen_get_run_memory: size is smaller than sizeof(idgen_run_memory)");
        return IDGEN_EINVAL;
    }
    int64_t f[6];
    uintptr_t h = as_handle(g);
    if (h != 0 && idgenp_runs_memory(h, f)) {
        *out = (idgen_run_memory){
            .version = f[0], .cursor = f[1], .runs = f[2], .run_size = f[3], .serial = f[4], .timed = f[5]};
        return IDGEN_OK;
    }
    idgen_info info;
    int rc = idgen_get_info(g, &info, sizeof info); /* ECLOSED for a closed or unknown handle */
    if (rc != IDGEN_OK) {
        return rc;
    }
    idgenp_set_error_str("idgen_get_run_memory: this generator serves no runs in C (neither runs=N nor a segment "
                         "counter): call idgen_next");
    return IDGEN_EINVAL;
}

int idgen_next_batch(idgen_t *g, int64_t *out, size_t n) {
    FORK_CHECK();
    void *held = idgenp_runs_hold(as_handle(g)); /* no run handed out meanwhile */
    int rc = idgenGoNextBatch((uintptr_t)g, out, n);
    idgenp_runs_release(held);
    return rc;
}

int idgen_next_run(idgen_t *g, int64_t *out, size_t cap, int64_t *fresh_ns) {
    FORK_CHECK();
    void *held = idgenp_runs_hold(as_handle(g)); /* no run handed out meanwhile */
    int rc = idgenGoNextRun((uintptr_t)g, out, cap, fresh_ns);
    idgenp_runs_release(held);
    return rc;
}

int idgen_decode_with(idgen_t *g, int64_t id, idgen_parts *out) {
    FORK_CHECK();
    return idgenGoDecode((uintptr_t)g, id, out);
}

int idgen_compose(idgen_t *g, const idgen_parts *in, int64_t *out) {
    FORK_CHECK();
    return idgenGoCompose((uintptr_t)g, (idgen_parts *)in, out);
}

int idgen_config_string(idgen_t *g, char *buf, size_t cap) {
    FORK_CHECK();
    return idgenGoConfigString((uintptr_t)g, buf, cap);
}

int idgen_get_stats(idgen_t *g, idgen_stats *out, size_t size) {
    FORK_CHECK();
    return idgenGoStats((uintptr_t)g, out, size);
}

int idgen_get_info(idgen_t *g, idgen_info *out, size_t size) {
    FORK_CHECK();
    return idgenGoInfo((uintptr_t)g, out, size);
}

int64_t idgen_metrics_text(char *buf, size_t cap) {
    FORK_CHECK();
    return idgenGoMetricsText(buf, cap);
}

int idgen_configure(const char *config) {
    FORK_CHECK();
    return idgenp_runs_configure(config);
}

int64_t idgen_next_id(void) {
    FORK_CHECK();
    return idgenp_runs_next(IDGENP_DEFAULT);
}

int idgen_next_ids(int64_t *out, size_t n) {
    FORK_CHECK();
    void *held = idgenp_runs_hold(IDGENP_DEFAULT); /* no run handed out meanwhile */
    int rc = idgenGoNextIDs(out, n);
    idgenp_runs_release(held);
    return rc;
}

int idgen_decode(int64_t id, idgen_parts *out) {
    FORK_CHECK();
    return idgenGoDecodeDefault(id, out);
}

int idgen_format(int64_t id, int base, int fixed_width, char *buf, size_t cap) {
    FORK_CHECK();
    return idgenGoFormat(id, base, fixed_width, buf, cap);
}

int idgen_parse(const char *text, int base, int64_t *out) {
    FORK_CHECK();
    return idgenGoParse((char *)text, base, out);
}

int idgen_next_text(idgen_t *g, char *buf, size_t cap) {
    FORK_CHECK();
    void *held = idgenp_runs_hold(as_handle(g)); /* no run handed out meanwhile */
    int rc = idgenGoNextText((uintptr_t)g, buf, cap);
    idgenp_runs_release(held);
    return rc;
}

int idgen_next_uuids(idgen_t *g, uint8_t *out, size_t n) {
    FORK_CHECK();
    return idgenGoNextUUIDs((uintptr_t)g, out, n);
}

int idgen_decode_text(idgen_t *g, const char *text, idgen_text_parts *out) {
    FORK_CHECK();
    return idgenGoDecodeText((uintptr_t)g, (char *)text, out);
}
