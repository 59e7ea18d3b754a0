/*
 * The C ABI fuzzer (make fuzz): shared declarations.
 *
 *   fuzz.c      the driver: forks a worker per case (memory cap, time limit,
 *               a private /var/tmp), collects findings, prints the summary
 *   worker.c    the worker's side: what it is doing now (shared with the
 *               driver), findings, time bounds
 *   table.c     the key table read from the library, random numbers,
 *               configurations as pairs and their spellings
 *   grammar.c   a value grammar per key, layouts, whole configurations
 *   open.c      opening and closing generators; reading what the library
 *               prints of them; how long an open may take
 *   ids.c       next, batches, threads, close races, fork, every call after
 *               close, made-up handles; order, duplicates, guard bytes
 *   text.c      idgen_next_text at every capacity, its forms, decode_text
 *   parts.c     decode and compose, the configuration string, the stats
 *   cases.c     what a case does: generators from the grammar, small pools
 *   cases_api.c the default generator, equivalent spellings, store URLs on
 *               closed ports, format/parse/strerror
 *   dirs.c      lease directories: odd ones made on purpose, lock probes
 */
#ifndef IDGEN_FUZZ_H
#define IDGEN_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "idgen.h"

/* ---- random numbers: one seed per case, everything derived from it ---- */

typedef struct {
    uint64_t s;
} rng_t;

uint64_t rnd(rng_t *r);
uint64_t splitmix(uint64_t x);
int64_t rint_n(rng_t *r, int64_t n); /* 0..n-1 */
int chance(rng_t *r, int pct);       /* true pct% of the time */
#define PICK(r, arr) ((arr)[rint_n((r), (int64_t)(sizeof(arr) / sizeof((arr)[0])))])

/* ---- the key table, read from the library ---------------------------- */

#define MAXNAMES 96
typedef struct {
    int n_keys, n_presets, n_fields;
    char *keys[MAXNAMES];    /* every key idgen_open knows */
    char *presets[MAXNAMES]; /* every preset */
    char *fields[MAXNAMES];  /* every layout field name */
    int from_library;        /* 1 when read from the library: explain --keys and its refusals */
    char why[256];           /* when not: what went wrong */
} table_t;

extern table_t T;
void table_load(void);
int table_has_key(const char *k);

/* ---- configurations ---------------------------------------------------- */

#define MAXKV 28
#define VALLEN 700
typedef struct {
    char key[48];
    char val[VALLEN];
} kv_t;

typedef struct {
    int n;
    kv_t kv[MAXKV];
    int raw;           /* 1: text holds a hand-made string (syntax cases) */
    char text[8192];   /* the rendered string */
} cfg_t;

const char *cfg_get(const cfg_t *c, const char *key);
void cfg_set(cfg_t *c, const char *key, const char *val);
void cfg_del(cfg_t *c, const char *key);
void cfg_render(cfg_t *c, rng_t *r, int plain); /* plain: "k=v k=v" in order */
void append(char *dst, size_t cap, const char *s);

/* Families of presets the grammar knows how to aim at; a preset it does
 * not know is fuzzed with the generic grammar. */
enum { FAM_TIME, FAM_CACHED, FAM_SESSION, FAM_ZXID, FAM_ROCKET, FAM_ROCKETV1, FAM_RANDTEXT, FAM_SEGMENT, FAM_UNKNOWN };
int preset_family(const char *preset);

/* What the grammar knows of the lease directories of a case. */
enum { DIR_GOOD, DIR_STICKY, DIR_PRIVATE, DIR_SPACES, DIR_PLANTED, /* trusted */
       DIR_SYMLINK, DIR_WORLD, DIR_GROUPW, DIR_OTHERS, DIR_FILE, DIR_FIFO, DIR_MISSING, /* refused */
       DIR_RELATIVE, N_DIRS };
extern const char *dir_names[N_DIRS];
int dir_trusted(int kind);

typedef struct {
    const char *root;   /* the case directory */
    int private_vartmp; /* /var/tmp is the case's own */
} env_t;

void gen_config(rng_t *r, const env_t *e, cfg_t *c);
void gen_store_config(rng_t *r, const env_t *e, cfg_t *c, char *password, size_t pwcap);
const char *dir_path(const env_t *e, int kind, char *buf, size_t cap);

/* ---- the worker's side ------------------------------------------------- */

/* Shared with the driver (a memfd mapped by both): what the worker is
 * doing now, so that a crash or a timeout names the config and the call. */
typedef struct {
    volatile int64_t deadline_ms; /* CLOCK_MONOTONIC ms; 0: no call in flight */
    volatile int64_t started_ms;  /* when the call in flight began */
    volatile int64_t calls;
    char call[600];
    char config[8192];
} crumb_t;

extern crumb_t *crumb, local_crumb;
int worker_main(int argc, char **argv);
void escape(const char *in, char *out, size_t cap);
extern uint64_t case_seed;
extern int64_t n_calls;
extern int findings;

int64_t mono_ms(void);
int64_t wall_ms(void);
void set_config(const char *config);
void begin_call(int64_t bound_ms, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void end_call(void);
void finding(const char *check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *rc_name(int64_t rc);

/* generators as the worker tracks them */
#define MAXIDS 200000
typedef struct {
    idgen_t *h;
    char config[8192];      /* what it was opened with */
    char canon[8192];       /* its idgen_config_string */
    int fam;                /* from the canonical string */
    int text_only;          /* a text preset */
    int decode_only;        /* lease=off: decodes, issues nothing */
    int leasing;            /* holds a lease (stats) */
    int wall;               /* clock=wall */
    int borrow;
    int64_t unit_ms;
    int seq_bits, worker_bits, dc_bits, time_bits, total_bits;
    int64_t fixed_worker, fixed_dc; /* -2: not fixed */
    int64_t pair_dc, pair_w;        /* leased pair, -1 none */
    int64_t max_drift_ms, max_outage_ms, lease_ttl_ms;
    int64_t seq_random;
    char text_form[16];     /* dec, base36, base62, or the text preset */
    int64_t last;           /* last id, for order */
    char last_text[64];
    int64_t issued;         /* ids we received */
    int64_t *ids;           /* every id (numbers), for duplicates */
    size_t n_ids, cap_ids;
    int overflowed;         /* saw EOVERFLOW */
    int closed;
    int64_t fence_seen;     /* highest fence_unix_ms seen */
    char lease_dir[4096];   /* its lease directory, "" if none */
} gen_t;

int open_gen(gen_t *g, const char *config, int64_t bound_ms, int *rc_out);
void gen_describe(gen_t *g, const char *config);
void preset_defaults(const char *preset, int *seq_bits, int64_t *unit_ms);
void close_gen(gen_t *g);
void free_gen(gen_t *g);
int64_t open_bound_ms(const char *config);
int64_t lease_settle_ms(const char *config);
int64_t next_budget(const gen_t *g);

int do_next(gen_t *g, int k);
void do_refused(gen_t *g);
int do_batch(gen_t *g, rng_t *r);
int do_text(gen_t *g, rng_t *r);
void do_decode_compose(gen_t *g, rng_t *r);
void do_config_string(gen_t *g, rng_t *r);
void do_stats(gen_t *g, rng_t *r);
void do_threads(gen_t *g, rng_t *r);
void do_close_race(gen_t *g, rng_t *r);
void do_fork(gen_t *g);
void do_after_close(gen_t *g, rng_t *r);
void do_decode_text_junk(gen_t *g, rng_t *r);
void do_madeup(gen_t *g, rng_t *r);
void check_dups(gen_t *g);
void check_pool_dups(gen_t **gs, int n);
void read_stats(gen_t *g, idgen_stats *st);
void strip_leased(const char *in, char *out, size_t cap);
int64_t own_parse(const char *s, int base);
void count_calls(int64_t n);

/* helpers the checks share */
#define GUARD 32  /* guard bytes on each side of a buffer */
#define PAT 0xA5  /* what an untouched byte holds */
void *gb_new(size_t cap);
void gb_free(void *p);
int all_pat(const unsigned char *p, size_t n);
int gb_guards_ok(const void *p, size_t cap);
void kv_parse(const char *s, cfg_t *out);
int64_t go_dur_ms(const char *s);
int64_t dur_or(const cfg_t *c, const char *key, int64_t dflt);
void check_message(int64_t rc, const char *call);
void keep(gen_t *g, int64_t id);
int next_code_ok(const gen_t *g, int64_t rc);
void got_id(gen_t *g, int64_t id, const char *call);
void failed_next(gen_t *g, int64_t rc, const char *call);
int64_t next_bound(const gen_t *g);
void check_text(gen_t *g, const char *t, size_t len);
int64_t field_max(int bits);

/* cases.c, cases_api.c */
extern env_t case_env;
void check_all_unlocked(const char *why);
void check_einval_names_key(const cfg_t *c);
void case_spellings(rng_t *r);
void case_store(rng_t *r);
void case_pure(rng_t *r);
void case_default(rng_t *r);
int run_case(uint64_t seed, const char *root, int private_vartmp);

/* dirs.c */
void make_dirs(const env_t *e, rng_t *r);
int lock_probe(const char *path); /* 1 locked by someone, 0 free, -1 error */
void check_no_locks(const char *dir, const char *why);
int pair_file_locked(const char *dir, int64_t dc, int64_t w);
enum { PLANT_NONE, PLANT_SYMLINK, PLANT_FIFO, PLANT_DIR, PLANT_OTHERS, PLANT_HARDLINK, PLANT_GARBAGE, N_PLANT = 6 };
extern const int64_t plant_pairs[N_PLANT][2];
void plant(const char *dir, const char *pool, rng_t *r, char *victim, size_t vcap, int *kinds);
int find_pool(const char *dir, char *pool, size_t cap);
void rm_rf(const char *path);

#endif
