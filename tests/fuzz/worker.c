/*
 * The worker's side: one case in a fresh process. What it is doing now
 * lives in a page shared with the driver (the call in flight, its
 * deadline, the configuration), so that a crash or a hang can be named;
 * findings are lines on stdout, one each.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

/* ---- shared by driver and worker ------------------------------------------- */

crumb_t *crumb;
uint64_t case_seed;
int64_t n_calls;
int findings;

crumb_t local_crumb;
static int64_t call_start, call_bound;
static int verbose;

int64_t mono_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int64_t wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* C-style escapes, so that a configuration with tabs or newlines (both
 * separators) stays on one line and can be pasted into a C test. */
void escape(const char *in, char *out, size_t cap) {
    size_t j = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && j + 5 < cap; p++) {
        if (*p == '\\' || *p == '"')
            j += (size_t)snprintf(out + j, cap - j, "\\%c", *p);
        else if (*p == '\n')
            j += (size_t)snprintf(out + j, cap - j, "\\n");
        else if (*p == '\t')
            j += (size_t)snprintf(out + j, cap - j, "\\t");
        else if (*p < 0x20 || *p >= 0x7f)
            j += (size_t)snprintf(out + j, cap - j, "\\x%02x\"\"", *p);
        else
            out[j++] = (char)*p;
    }
    out[j] = 0;
}

void set_config(const char *config) { snprintf(crumb->config, sizeof crumb->config, "%s", config ? config : "(NULL)"); }

void count_calls(int64_t n) {
    n_calls += n;
    crumb->calls = n_calls;
}

void begin_call(int64_t bound_ms, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(crumb->call, sizeof crumb->call, fmt, ap);
    va_end(ap);
    call_start = mono_ms();
    call_bound = bound_ms;
    crumb->started_ms = call_start;
    crumb->deadline_ms = call_start + bound_ms;
    count_calls(1);
    if (verbose)
        fprintf(stderr, "  call: %s\n", crumb->call);
}

void end_call(void) {
    int64_t took = mono_ms() - call_start;
    crumb->deadline_ms = 0;
    if (took > call_bound)
        finding("slow", "%s took %" PRId64 " ms (bound %" PRId64 " ms)", crumb->call, took, call_bound);
}

/* One line per finding: FINDING, the check, what happened, the config.
 * At most two of one check per case. */
void finding(const char *check, const char *fmt, ...) {
    static char seen[64][32];
    static int nseen[64], n;
    int i;
    for (i = 0; i < n && strcmp(seen[i], check) != 0; i++)
        ;
    if (i == n && n < 64)
        snprintf(seen[n++], 32, "%s", check);
    if (i < 64 && ++nseen[i] > 2)
        return;
    findings++;
    char what[2048], cfg[4096], line[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    escape(crumb->config, cfg, sizeof cfg);
    char w2[4096];
    escape(what, w2, sizeof w2);
    int len = snprintf(line, sizeof line, "FINDING\t%s\t%s\t%s\n", check, w2, cfg);
    if (len > (int)sizeof line - 1) {
        line[sizeof line - 2] = '\n';
        len = (int)sizeof line - 1;
    }
    if (write(1, line, (size_t)len) < 0)
        _exit(3);
}

/* ---- the worker ---------------------------------------------------------------- */

/* FUZZ_SELFTEST=crash|hang|oom makes the worker fail the way a bug would,
 * so that the driver's reporting of each can be seen to work. */
static void selftest(const char *what) {
    set_config("FUZZ_SELFTEST");
    begin_call(500, "selftest %s", what);
    if (strcmp(what, "crash") == 0) {
        raise(SIGSEGV);
    } else if (strcmp(what, "hang") == 0) {
        sleep(3600);
    } else if (strcmp(what, "oom") == 0) {
        /* a ring of 2^24 ids (128 MiB) under FUZZ_MEM_MB=160 */
        set_config("preset=baidu-cached worker=0 layout=time:30,worker:9,seq:16 boost=8");
        idgen_t *g = NULL;
        if (idgen_open(crumb->config, &g) == IDGEN_OK)
            idgen_next(g);
        finding("selftest", "opened a 128 MiB ring under the memory cap");
    }
    end_call();
}

int worker_main(int argc, char **argv) {
    if (argc < 5)
        return 2;
    case_seed = strtoull(argv[2], NULL, 0);
    crumb = mmap(NULL, sizeof(crumb_t), PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
    if (crumb == MAP_FAILED)
        crumb = &local_crumb;
    verbose = getenv("FUZZ_VERBOSE") != NULL;
    table_load();
    set_config("(none yet)");
    const char *self = getenv("FUZZ_SELFTEST");
    if (self && *self) /* the driver's own checks: crash, hang, oom */
        selftest(self);
    run_case(case_seed, argv[3], atoi(argv[4]));
    char line[64];
    int len = snprintf(line, sizeof line, "CALLS\t%" PRId64 "\n", n_calls);
    if (write(1, line, (size_t)len) < 0)
        return 3;
    return findings ? 1 : 0;
}
