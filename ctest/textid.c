// The uuidv7 and ulid presets through the built libidgen.so, from C11 with
// pthreads and a real fork. Prints "N passed, N failed" last; exits
// non-zero on any failure.
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "idgen.h"


static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The canonical form: 8-4-4-4-12 lower-case hex, version 7, variant 10. */
static int canonical_v7(const char *s) {
    if (strlen(s) != 36)
        return 0;
    for (int i = 0; i < 36; i++) {
        int dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !(isdigit((unsigned char)s[i]) || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    }
    return s[14] == '7' && strchr("89ab", s[19]) != NULL;
}

/* The 16 bytes of a canonical UUID: what PostgreSQL's uuid type sorts by. */
static void uuid_bytes(const char *s, unsigned char out[16]) {
    for (int i = 0, j = 0; j < 16; j++) {
        if (s[i] == '-')
            i++;
        unsigned v;
        sscanf(s + i, "%2x", &v);
        out[j] = (unsigned char)v;
        i += 2;
    }
}

static void test_uuidv7(void) {
    idgen_t *g = must_open("preset=uuidv7");
    char cfg[64], buf[IDGEN_TEXT_MAX], small[37];
    CHECK_RC(idgen_config_string(g, cfg, sizeof cfg), IDGEN_OK);
    CHECK(strcmp(cfg, "preset=uuidv7") == 0, "config %s", cfg);
    memset(small, 'x', sizeof small);
    CHECK_RC(idgen_next_text(g, small, 36), IDGEN_ERANGE);
    CHECK(small[0] == 'x', "nothing written when cap is short");
    CHECK_RC(idgen_next_text(g, small, 37), 36);
    CHECK(canonical_v7(small) && small[36] == '\0', "%s", small);
    CHECK_RC(idgen_next_text(g, buf, sizeof buf), 36);
    CHECK(strcmp(buf, small) > 0, "%s after %s", buf, small);
    idgen_text_parts p;
    CHECK_RC(idgen_decode_text(g, buf, &p), IDGEN_OK);
    CHECK(llabs(p.unix_ms - now_ms()) < 2000 && p.id == -1 && p.sequence == -1 && p.pid == -1 &&
              p.loader_hash == -1 && p.addr_len == 0,
          "decoded ms %" PRId64, p.unix_ms);
    /* RFC 9562 A.6, in upper case: 2022-02-22T19:22:22Z. */
    CHECK_RC(idgen_decode_text(g, "017F22E2-79B0-7CC3-98C4-DC0C0C07398F", &p), IDGEN_OK);
    CHECK(p.unix_ms == 1645557742000LL, "RFC example: %" PRId64, p.unix_ms);
    const char *bad[] = {"017f22e2-79b0-4cc3-98c4-dc0c0c07398f", "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f",
                         "017f22e279b07cc398c4dc0c0c07398f", "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}",
                         "017f22e2-79b0-7cc3-98c4-dc0c0c07398f ", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&p, 0x55, sizeof p);
        CHECK_RC(idgen_decode_text(g, bad[i], &p), IDGEN_EINVAL);
        CHECK(p.unix_ms == 0x5555555555555555LL, "out untouched for %s", bad[i]);
    }
    CHECK_RC(idgen_next(g), IDGEN_EINVAL);
    CHECK(strstr(idgen_last_error(), "idgen_next_text") != NULL, "%s", idgen_last_error());
    int64_t ids[2];
    CHECK_RC(idgen_next_batch(g, ids, 2), IDGEN_EINVAL);
    idgen_close(g);
    CHECK_RC(idgen_next_text(g, buf, sizeof buf), IDGEN_ECLOSED);
    idgen_t *x = NULL;
    CHECK_RC(idgen_open("preset=uuidv7 worker=1", &x), IDGEN_EINVAL);
    CHECK(strstr(idgen_last_error(), "worker") != NULL, "%s", idgen_last_error());
}

static void test_ulid(void) {
    idgen_t *g = must_open("preset=ulid");
    char a[27], b[IDGEN_TEXT_MAX];
    CHECK_RC(idgen_next_text(g, a, 26), IDGEN_ERANGE);
    CHECK_RC(idgen_next_text(g, a, 27), 26);
    CHECK_RC(idgen_next_text(g, b, sizeof b), 26);
    CHECK(strcmp(b, a) > 0 && a[0] <= '7' && strspn(a, "0123456789ABCDEFGHJKMNPQRSTVWXYZ") == 26, "%s %s", a, b);
    idgen_text_parts p;
    CHECK_RC(idgen_decode_text(g, b, &p), IDGEN_OK);
    CHECK(llabs(p.unix_ms - now_ms()) < 2000 && p.sequence == -1, "ms %" PRId64, p.unix_ms);
    CHECK_RC(idgen_decode_text(g, "01arz3ndektsv4rrffq69g5fav", &p), IDGEN_OK);
    CHECK(p.unix_ms == 1469922850259LL, "the spec's example: %" PRId64, p.unix_ms);
    const char *bad[] = {"01ARZ3NDEKTSV4RRFFQ69G5FAI", "01ARZ3NDEKTSV4RRFFQ69G5FAL", "01ARZ3NDEKTSV4RRFFQ69G5FAO",
                         "01ARZ3NDEKTSV4RRFFQ69G5FAU", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FA"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_RC(idgen_decode_text(g, bad[i], &p), IDGEN_EINVAL);
    CHECK_RC(idgen_next(g), IDGEN_EINVAL);
    idgen_close(g);
}

enum { THREADS = 8, PER = 125000 };
static idgen_t *shared;
static char (*texts)[37];

static void *make_ids(void *arg) {
    char(*mine)[37] = texts + (intptr_t)arg * PER;
    for (int i = 0; i < PER; i++)
        if (idgen_next_text(shared, mine[i], 37) != 36)
            mine[i][0] = '\0';
    return NULL;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* 1,000,000 ids from 8 threads: distinct, increasing per thread, and the
   text order of all of them is their byte order. */
/* idgen_next_uuids: the UUIDs idgen_next_text would give, as bytes, in
   order with the text ones; bad arguments consume nothing. */
static void test_uuid_bytes(void) {
    idgen_t *g = must_open("preset=uuidv7");
    char a[40], b[40];
    unsigned char raw[64 * 16], first[16];
    CHECK_RC(idgen_next_text(g, a, sizeof a), 36);
    CHECK_RC(idgen_next_uuids(g, raw, 64), IDGEN_OK);
    CHECK_RC(idgen_next_text(g, b, sizeof b), 36);
    unsigned char ta[16], tb[16];
    uuid_bytes(a, ta);
    uuid_bytes(b, tb);
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        const unsigned char *u = raw + 16 * i;
        bad += (u[6] >> 4) != 7 || (u[8] >> 6) != 2;                    /* version 7, variant 10 */
        bad += memcmp(i == 0 ? ta : u - 16, u, 16) >= 0;              /* above the one before */
        int64_t ms = 0;
        for (int k = 0; k < 6; k++)
            ms = ms << 8 | u[k];
        bad += llabs(ms - now_ms()) > 2000;
    }
    CHECK(bad == 0 && memcmp(raw + 63 * 16, tb, 16) < 0, "%d bad of 64, or the text after them not above", bad);
    memcpy(first, raw, 16);
    CHECK_RC(idgen_next_uuids(g, raw, 0), IDGEN_OK);
    CHECK_RC(idgen_next_uuids(g, NULL, 0), IDGEN_OK);
    CHECK_RC(idgen_next_uuids(g, NULL, 2), IDGEN_EINVAL);
    CHECK_RC(idgen_next_uuids(g, raw, 65537), IDGEN_ERANGE);
    CHECK(memcmp(raw, first, 16) == 0, "nothing written by a refused call");
    CHECK_RC(idgen_next_uuids(NULL, raw, 1), IDGEN_EINVAL);
    idgen_t *n = must_open("preset=ulid");
    CHECK_RC(idgen_next_uuids(n, raw, 1), IDGEN_EINVAL);
    CHECK(strstr(idgen_last_error(), "uuidv7") != NULL, "%s", idgen_last_error());
    idgen_close(n);
    n = must_open("layout=time:41,seq:22 worker=0");
    CHECK_RC(idgen_next_uuids(n, raw, 1), IDGEN_EINVAL);
    idgen_close(n);
    idgen_close(g);
    CHECK_RC(idgen_next_uuids(g, raw, 1), IDGEN_ECLOSED);
}

static void test_threads(void) {
    shared = must_open("preset=uuidv7");
    texts = calloc((size_t)THREADS * PER, sizeof *texts);
    pthread_t t[THREADS];
    for (intptr_t k = 0; k < THREADS; k++)
        pthread_create(&t[k], NULL, make_ids, (void *)k);
    for (int k = 0; k < THREADS; k++)
        pthread_join(t[k], NULL);
    int unordered = 0, malformed = 0, repeats = 0, byte_order = 0;
    for (int i = 0; i < THREADS * PER; i++) {
        malformed += !canonical_v7(texts[i]);
        unordered += i % PER != 0 && strcmp(texts[i - 1], texts[i]) >= 0;
    }
    qsort(texts, (size_t)THREADS * PER, sizeof *texts, cmp_text);
    for (int i = 1; i < THREADS * PER; i++) {
        repeats += strcmp(texts[i - 1], texts[i]) == 0;
        unsigned char x[16], y[16];
        uuid_bytes(texts[i - 1], x);
        uuid_bytes(texts[i], y);
        byte_order += memcmp(x, y, 16) >= 0;
    }
    CHECK(malformed == 0 && unordered == 0 && repeats == 0 && byte_order == 0,
          "malformed %d, out of order %d, repeats %d, byte order differs %d", malformed, unordered, repeats, byte_order);
    free(texts);
    idgen_close(shared);
}

/* A forked child gets IDGEN_EFORKED, without entering Go. */
static void test_fork(void) {
    idgen_t *g = must_open("preset=uuidv7");
    char buf[40];
    CHECK_RC(idgen_next_text(g, buf, sizeof buf), 36);
    pid_t pid = fork();
    if (pid == 0) {
        int rc = idgen_next_text(g, buf, sizeof buf);
        _exit(rc == IDGEN_EFORKED ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK_RC(idgen_next_text(g, buf, sizeof buf), 36);
    idgen_close(g);
}

int main(void) {
    test_uuidv7();
    test_uuid_bytes();
    test_ulid();
    test_threads();
    test_fork();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
