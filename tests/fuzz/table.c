/*
 * The key table as the library states it (the CLI named by IDGEN_CLI:
 * `idgen explain --keys`, every key and preset; `idgen explain --fields`,
 * the layout field names), the random numbers every
 * choice comes from, and configurations as pairs rendered the ways the
 * syntax allows.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

table_t T;

/* ---- random numbers ------------------------------------------------------ */

uint64_t splitmix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t rnd(rng_t *r) {
    r->s += 0x9e3779b97f4a7c15ULL;
    return splitmix(r->s);
}

int64_t rint_n(rng_t *r, int64_t n) { return n <= 0 ? 0 : (int64_t)(rnd(r) % (uint64_t)n); }

int chance(rng_t *r, int pct) { return rint_n(r, 100) < pct; }

/* ---- the key table ------------------------------------------------------- */

static void add_name(char **names, int *n, const char *name) {
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], name) == 0)
            return;
    if (*n < MAXNAMES)
        names[(*n)++] = strdup(name);
}

/* Runs `IDGEN_CLI explain FLAG` and hands each line of its output, without
 * its newline, to take. Returns the CLI's exit status (-1: not run). */
static int read_cli(const char *cli, const char *flag, void (*take)(char *line)) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' explain %s", cli, flag);
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return -1;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        take(line);
    }
    return pclose(f);
}

/* A line of `idgen explain --keys`: a key's name, the presets it applies
 * to (comma-separated) and its default, tab-separated; a key with a row of
 * its own for segment shows twice. The preset key's row lists every
 * preset. */
static void take_key(char *line) {
    char *presets = strchr(line, '\t');
    if (presets == NULL)
        return;
    *presets++ = 0;
    char *end = strchr(presets, '\t');
    if (end != NULL)
        *end = 0;
    add_name(T.keys, &T.n_keys, line);
    if (strcmp(line, "preset") != 0)
        return;
    for (char *save = NULL, *p = strtok_r(presets, ",", &save); p; p = strtok_r(NULL, ",", &save))
        add_name(T.presets, &T.n_presets, p);
}

/* A line of `idgen explain --fields`: a layout field name. */
static void take_field(char *line) {
    if (*line)
        add_name(T.fields, &T.n_fields, line);
}

void table_load(void) {
    memset(&T, 0, sizeof T);
    const char *cli = getenv("IDGEN_CLI");
    int rc = cli ? read_cli(cli, "--keys", take_key) : -1;
    int frc = cli ? read_cli(cli, "--fields", take_field) : -1;
    T.from_library = rc == 0 && frc == 0 && T.n_keys > 5 && T.n_presets > 3 && T.n_fields > 3;
    if (!T.from_library)
        snprintf(T.why, sizeof T.why, "IDGEN_CLI=%s explain --keys: exit %d, %d keys, %d presets; explain --fields: exit %d, %d fields",
            cli ? cli : "(unset)", rc, T.n_keys, T.n_presets, frc, T.n_fields);
}

int table_has_key(const char *k) {
    for (int i = 0; i < T.n_keys; i++)
        if (strcmp(T.keys[i], k) == 0)
            return 1;
    return 0;
}

/* ---- configurations ------------------------------------------------------ */

const char *cfg_get(const cfg_t *c, const char *key) {
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->kv[i].key, key) == 0)
            return c->kv[i].val;
    return NULL;
}

void cfg_set(cfg_t *c, const char *key, const char *val) {
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->kv[i].key, key) == 0) {
            snprintf(c->kv[i].val, VALLEN, "%s", val);
            return;
        }
    if (c->n >= MAXKV)
        return;
    snprintf(c->kv[c->n].key, sizeof c->kv[c->n].key, "%s", key);
    snprintf(c->kv[c->n].val, VALLEN, "%s", val);
    c->n++;
}

void cfg_del(cfg_t *c, const char *key) {
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->kv[i].key, key) == 0) {
            memmove(&c->kv[i], &c->kv[i + 1], sizeof(kv_t) * (size_t)(c->n - i - 1));
            c->n--;
            return;
        }
}

static int needs_quotes(const char *v) { return *v == 0 || strpbrk(v, " \t\n\r\v\f;'\\") != NULL; }

void append(char *dst, size_t cap, const char *s) {
    size_t n = strlen(dst);
    if (n + 1 < cap)
        snprintf(dst + n, cap - n, "%s", s);
}

static void append_quoted(char *dst, size_t cap, const char *v) {
    char q[2 * VALLEN + 4];
    size_t j = 0;
    q[j++] = '\'';
    for (const char *p = v; *p && j + 3 < sizeof q; p++) {
        if (*p == '\'' || *p == '\\')
            q[j++] = '\\';
        q[j++] = *p;
    }
    q[j++] = '\'';
    q[j] = 0;
    append(dst, cap, q);
}

/* Renders the pairs: plain is "k=v k=v" in order (quoting only where
 * needed); otherwise the separators, order and quoting vary the ways the
 * syntax allows, which must not change the meaning. */
void cfg_render(cfg_t *c, rng_t *r, int plain) {
    if (c->raw)
        return;
    static const char *seps[] = {" ", ";", "\t", "  ", " ; ", ";;", "\n", " \t; "};
    int order[MAXKV];
    for (int i = 0; i < c->n; i++)
        order[i] = i;
    if (!plain && chance(r, 50))
        for (int i = c->n - 1; i > 0; i--) {
            int j = (int)rint_n(r, i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    c->text[0] = 0;
    if (!plain && chance(r, 10))
        append(c->text, sizeof c->text, PICK(r, seps));
    for (int k = 0; k < c->n; k++) {
        const kv_t *p = &c->kv[order[k]];
        if (k > 0)
            append(c->text, sizeof c->text, plain ? " " : PICK(r, seps));
        append(c->text, sizeof c->text, p->key);
        append(c->text, sizeof c->text, "=");
        if (needs_quotes(p->val) || (!plain && chance(r, 5)))
            append_quoted(c->text, sizeof c->text, p->val);
        else
            append(c->text, sizeof c->text, p->val);
    }
    if (!plain && chance(r, 10))
        append(c->text, sizeof c->text, PICK(r, seps));
}
