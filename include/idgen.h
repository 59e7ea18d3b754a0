/*
 * idgen.h — unique, time-ordered ids from libidgen.so: 64-bit ones
 * (Snowflake family, ZooKeeper session ids and zxids) and text ones
 * (RocketMQ message ids, UUIDv7, ULID).
 *
 * This header is the whole public contract of the library. It compiles as
 * C11 and as C++.
 *
 * OVERVIEW
 *
 *   A generator is opened from a configuration string (see README.md):
 *
 *       idgen_t *g;
 *       if (idgen_open("preset=snowflake worker=3", &g) != IDGEN_OK)
 *           fprintf(stderr, "%s\n", idgen_last_error());
 *       int64_t id = idgen_next(g);          // >= 0, or a negative IDGEN_E*
 *       idgen_close(g);
 *
 *   or, without a handle, the process-wide default generator is used
 *   (idgen_next_id and friends), built on first use from $IDGEN_CONFIG, or
 *   from the defaults (a host lease) when that is unset or empty.
 *
 * THREADS
 *
 *   Every function is thread-safe and may be called from any thread. Ids
 *   from one generator strictly increase across all threads. The first call
 *   from a thread the library has not seen costs a few microseconds.
 *
 * OWNERSHIP
 *
 *   Strings returned by idgen_version, idgen_strerror and idgen_last_error
 *   belong to the library and must not be freed. Every other buffer belongs
 *   to the caller; the library writes to it only during the call, and only
 *   on success. The library never asks the caller to free anything.
 *
 * ERRORS
 *
 *   Functions return IDGEN_OK (0) or a negative IDGEN_E* status; functions
 *   that return an id return the id (always >= 0) or a negative status, so
 *   one test (< 0) serves both. After a failure, idgen_last_error() in the
 *   same thread tells what was wrong in words. Bad input (NULL pointers,
 *   closed or made-up handles, bad text, small buffers) never crashes,
 *   hangs or corrupts a generator.
 *
 * FORK
 *
 *   Go's runtime does not survive fork(). In a child forked from a process
 *   that had loaded this library, every function returns IDGEN_EFORKED at
 *   once (idgen_close does nothing), without entering Go: load the library
 *   only in the children, start them with spawn/forkserver, or exec.
 *
 * LIMITS
 *
 *   The library needs glibc, cannot be unloaded (dlclose does nothing), and
 *   must be the only Go c-shared library in its process.
 */
#ifndef IDGEN_H
#define IDGEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ----------------------------------------------------------- */

#define IDGEN_VERSION_MAJOR 0
#define IDGEN_VERSION_MINOR 1
#define IDGEN_VERSION_PATCH 0
#define IDGEN_VERSION_STRING "0.1.0"

/* The library's version, "MAJOR.MINOR.PATCH". Never NULL. */
const char *idgen_version(void);

/* ---- status codes (stable: never renumbered, only appended) ----------- */

#define IDGEN_OK 0
#define IDGEN_EINVAL (-1)    /* bad argument or configuration */
#define IDGEN_ECLOCK (-2)    /* the clock went back beyond tolerance */
#define IDGEN_EOVERFLOW (-3) /* the layout's time or epoch range is used up */
#define IDGEN_ECLOSED (-4)   /* the handle is closed or unknown */
#define IDGEN_EWORKER (-5)   /* no worker id could be had, or its lease was lost */
#define IDGEN_ERANGE (-6)    /* a value or a buffer does not fit */
#define IDGEN_EFORKED (-7)   /* called in a forked child; see FORK above */
#define IDGEN_EINTERNAL (-99) /* a bug in idgen; the message says where */

/* Static text naming a status code ("unknown status" for others). Never
 * NULL. */
const char *idgen_strerror(int status);

/* This thread's last failure in words, "" if this thread has had none. A
 * success does not clear it. The text stays valid until this thread's next
 * failing call. Never NULL. */
const char *idgen_last_error(void);

/* ---- types ------------------------------------------------------------- */

/* An opaque token naming a generator. It is never dereferenced; a closed
 * or made-up token is detected (IDGEN_ECLOSED), and tokens are never
 * reused. */
typedef struct idgen_handle idgen_t; /* the tag leaves "idgen" free for the C++ namespace */

/* The fields of an id. A field the layout lacks is -1. */
typedef struct {
    int64_t id;
    int64_t unix_ms;    /* generation time in ms since 1970 UTC; -1 if the layout has no time */
    int64_t time;       /* raw time field (units since epoch); -1 if none */
    int64_t epoch;      /* zxid epoch, or the backwards (clock-rollback) counter; -1 if none */
    int64_t datacenter; /* -1 if none */
    int64_t worker;     /* -1 if none */
    int64_t sequence;   /* sequence / counter field */
} idgen_parts;

/* ---- generators -------------------------------------------------------- */

/* Opens a generator. config is a string of key=value pairs separated by
 * white space or ';' (NULL or "" means the defaults: preset=snowflake with
 * a host lease, worker=lease: the pair is always leased, 0/0 on an idle
 * host, never an unleased fixed 0; a fixed worker must be asked for, as
 * worker=0 or worker=N). On success
 * stores the handle in *out and returns IDGEN_OK. Returns IDGEN_EINVAL for
 * a NULL out or a bad config (the message names the key), IDGEN_EWORKER
 * when a lease source finds no free pair, cannot be reached or is not
 * trusted (the message says which), IDGEN_ECLOCK when a predecessor's
 * lease record is not passed within max_wait. */
int idgen_open(const char *config, idgen_t **out);

/* Closes a generator and releases its lease, if any. NULL, a closed or an
 * unknown handle are harmless. Calls racing with the close fail cleanly
 * with IDGEN_ECLOSED. */
void idgen_close(idgen_t *g);

/* The next id (>= 0), or IDGEN_ECLOSED, IDGEN_ECLOCK, IDGEN_EOVERFLOW,
 * IDGEN_EWORKER (lease lost), IDGEN_EFORKED. May wait for the next tick
 * when the tick's sequence is used up. */
int64_t idgen_next(idgen_t *g);

/* For a host whose every call into Go costs more than an id does (a JVM's
 * critical downcall): the next id of the run g has in hand, served in C
 * without entering Go; it never waits, never blocks on a lock, never sets
 * the last error. -1 when there is none in hand: no runs (a generator
 * without runs=N, not a segment counter), a run used up, stale or stopped,
 * a NULL, closed or unknown handle, a forked child. Then call idgen_next,
 * which reserves the next run or says what is wrong. It hands out of the
 * same runs as idgen_next, so the two may be mixed across threads and
 * every guarantee of idgen_next holds. */
int64_t idgen_next_in_hand(idgen_t *g);

/* Where g's runs live in memory, for a host that hands a segment counter's
 * ids out itself, with its own atomics, because even a call into C costs
 * more than an id (a JVM: CosId's segment chain is one increment). The
 * memory is never freed (a closed handle's serves the next handle of its
 * slot), so the addresses stay valid for the life of the process. */
typedef struct {
    int64_t version;  /* 1: the layout below; a host that knows no other uses nothing else */
    int64_t cursor;   /* the address of an 8-byte-aligned uint64_t, changed only by
                         compare-and-swap: serial (top 8 bits) | generation (32) | index (low 24) */
    int64_t runs;     /* the address of 4 runs; generation G's is runs + (G % 4) * run_size */
    int64_t run_size; /* a run: int64_t first at +0, step at +8, n at +16; int32_t timed at +32 */
    int64_t serial;   /* the cursor's serial while g is open */
    int64_t timed;    /* 1: time runs (an age limit, kept in C: hand nothing out), 0: a segment counter's */
} idgen_run_memory;

/* Hands out one id as idgen_next's C side does: read the cursor (acquire);
 * if its serial is not g's, or its index i is not below the run's n, or the
 * run's timed is not 0, hand out nothing (call idgen_next). Else read first
 * and step, compare-and-swap the cursor from what was read to it + 1; on
 * success the id is first + i * step, on failure start again from the
 * cursor now. Mixed freely with idgen_next and idgen_next_in_hand, across
 * threads: every guarantee of idgen_next holds (docs/ARCHITECTURE.md, "Runs
 * in C"). IDGEN_EINVAL for a NULL out, a size below sizeof(idgen_run_memory),
 * or a generator without runs in C (then *out is not written);
 * IDGEN_ECLOSED for a closed or unknown handle. */
int idgen_get_run_memory(idgen_t *g, idgen_run_memory *out, size_t size);

/* Fills out[0..n) with strictly increasing ids, reserving a whole run per
 * tick. n == 0 returns IDGEN_OK and writes nothing; out may be NULL only
 * then. On failure before the first id nothing is written; a failure
 * midway (time range running out) leaves consumed ids in a prefix. */
int idgen_next_batch(idgen_t *g, int64_t *out, size_t n);

/* For a host that hands ids out itself because each call into the library
 * is dear (Python's ctypes): with `runs=N` in g's configuration, reserves
 * g's next run (idgen_next would hand its ids out one by one; never
 * longer than cap, nor than 1024), writes its ids to out and returns how
 * many (> 0); sets
 * *fresh_ns to how many ns from now they may still be handed out, after
 * which the rest must be dropped (never handed out: idgen_next drops them
 * too). Without runs it writes one id, as idgen_next would, and sets
 * *fresh_ns to 0: then call idgen_next. The ids follow every id g handed
 * out before, through any call. cap == 0 reserves nothing and returns
 * the longest run g hands out (N; 1 without runs), as idgen_get_info's
 * longest_run does. IDGEN_EINVAL for a NULL fresh_ns, or a NULL out with cap > 0.
 * On failure neither out nor *fresh_ns is written. */
int idgen_next_run(idgen_t *g, int64_t *out, size_t cap, int64_t *fresh_ns);

/* Splits id by g's layout into *out. IDGEN_EINVAL for a NULL out, a
 * negative id or one with bits above the layout. */
int idgen_decode_with(idgen_t *g, int64_t id, idgen_parts *out);

/* The inverse of decode: builds an id from in's fields. unix_ms is used
 * (with the layout's epoch and unit) unless it is negative, then the raw
 * time. A field the layout lacks must be -1 or 0 (else IDGEN_EINVAL); a
 * value that does not fit its field is IDGEN_ERANGE, never truncated
 * (zk-session keeps the low 40 bits of unix_ms, as ZooKeeper does).
 * in->id is ignored. */
int idgen_compose(idgen_t *g, const idgen_parts *in, int64_t *out);

/* Writes g's effective configuration as a NUL-terminated string: pid/mac
 * resolved to numbers; a lease source kept as a source (a coordinator URL
 * without its password) with the held pair as leased=D/W, which
 * idgen_open accepts and ignores, so opening the string gives a generator
 * of the same layout that leases again, never the same pair; and
 * switched=D/W, the pair given up, only after g itself switched pairs
 * (on_clock_back=switch: a switched= given to idgen_open is ignored too).
 * IDGEN_ERANGE if cap is too small (the message says how much is
 * needed); buf untouched then. */
int idgen_config_string(idgen_t *g, char *buf, size_t cap);

/* ---- for operators ------------------------------------------------------ */

enum { IDGEN_LEASE_NONE = 0,    /* no lease: a fixed worker, a text preset, ... */
       IDGEN_LEASE_HELD = 1,    /* held, last renewal acknowledged */
       IDGEN_LEASE_RIDING = 2,  /* the store does not answer: issuing up to the fence */
       IDGEN_LEASE_LOST = 3 };  /* past the fence or taken away: IDGEN_EWORKER until leased again */

typedef struct {
    int64_t issued;              /* ids (numbers or text) handed out */
    int64_t tick_waits;          /* calls that waited for the next tick: a tick's sequence was used up */
    int64_t clock_backs;         /* steps back of the clock handled (waited out, tolerated, counted, switched) */
    int64_t drift_ms;            /* how far the newest id's time runs ahead of the clock (borrowing), else 0 */
    int64_t lease_state;         /* IDGEN_LEASE_* */
    int64_t datacenter;          /* the pair held now; -1 if none */
    int64_t worker;
    int64_t fence_unix_ms;       /* the highest time it may issue, ms since 1970; -1 without a lease */
    int64_t renewed_unix_ms;     /* the last acknowledged fence write (a renewal, or the
                                    first fence of a take); -1 if none */
    int64_t renewals;            /* acknowledged renewals */
    int64_t renewal_failures;
    int64_t leases_taken;        /* 1 at open, +1 for each re-lease or switch */
    int64_t skew_ms;             /* this host's clock minus the store's (estimate); INT64_MIN if unknown */
    int64_t segment_left;        /* segment: values left in hand (current + prefetched); -1 otherwise */
} idgen_stats;

/* Fills the first min(size, sizeof(idgen_stats)) bytes of *out (pass
   sizeof(idgen_stats); fields are only ever appended, so an older host passes a
   smaller size; bytes past the library's struct are left untouched).
   IDGEN_EINVAL if out is NULL, IDGEN_ECLOSED for a closed handle. A generator
   without a lease reports IDGEN_LEASE_NONE, its fixed datacenter and worker
   (-1 where the layout has none), fence and renewal times -1, leases_taken 0. */
int idgen_get_stats(idgen_t *g, idgen_stats *out, size_t size);

/* ---- what a generator is -------------------------------------------------- */

/* The kinds of idgen_info.kind. */
enum { IDGEN_KIND_NUMERIC = 1,   /* 64-bit ids (idgen_next): the Snowflake family, zk-session, zxid */
       IDGEN_KIND_UUIDV7 = 2,    /* preset=uuidv7: text only */
       IDGEN_KIND_ULID = 3,      /* preset=ulid: text only */
       IDGEN_KIND_ROCKETMQ = 4,  /* preset=rocketmq and rocketmq-v1: text only */
       IDGEN_KIND_COUNTER = 5,   /* preset=segment: a dense counter */
       IDGEN_KIND_NUMBER = 6 };  /* preset=segment with format= (business numbers): idgen_next_text;
                                    with reset= text only (idgen_next is IDGEN_EINVAL) */

typedef struct {
    int64_t kind;         /* IDGEN_KIND_* */
    int64_t leased;       /* 1 when it holds a lease or takes segments from a store, else 0
                             (a fixed worker, a text preset, lease=off) */
    int64_t tick_ns;      /* the unit of its time field in ns (1000000 for 1 ms); 0 without a
                             time field (zxid, segment) */
    int64_t text_len;     /* the length of its text form without the NUL; 0 when it varies
                             (text=dec) */
    int64_t longest_run;  /* N of runs=N (what idgen_next_run hands out at most); 1 without runs */
} idgen_info;

/* What g is, so that a host asks rather than probes: fills the first
   min(size, sizeof(idgen_info)) bytes of *out as idgen_get_stats does (pass
   sizeof(idgen_info); fields are only ever appended, so an older host passes a
   smaller size; bytes past the library's struct are left untouched). Never
   waits. IDGEN_EINVAL if out is NULL, IDGEN_ECLOSED for a closed handle. A
   generator opened with lease=off (decoding only) reports leased 0; its
   idgen_next* calls are IDGEN_EINVAL naming lease=off. */
int idgen_get_info(idgen_t *g, idgen_info *out, size_t size);

/* Every open generator of the process (the default one included) in the
   Prometheus text exposition format (version 0.0.4): the idgen_* families of
   docs/ABI.md, each series labelled name (the name= key, else the preset, else
   "custom") and generator (a number unique among the open generators, never
   reused). Returns the length of the whole text, without the NUL; writes it,
   NUL-terminated, only when it fits (result < cap), and otherwise writes
   nothing at all (unlike snprintf, no truncated prefix). (NULL, 0) asks the
   length. The text changes from call to call (the fence gauges follow the
   clock), so allocate with room to spare and call again while the result is
   >= cap. IDGEN_EINVAL if buf is NULL and cap is not 0. Reads published
   counters only: a scrape never waits for a lease store. */
int64_t idgen_metrics_text(char *buf, size_t cap);

/* ---- the process-wide default generator -------------------------------- */

/* Replaces the default generator by one opened from config (NULL or ""
 * means the defaults). The new one is opened before the old one is
 * closed, so with worker=lease the two never share an id. On error the
 * old one stays. Meant for start-up. */
int idgen_configure(const char *config);

/* The next id of the default generator (>= 0), or a negative status. */
int64_t idgen_next_id(void);

/* idgen_next_batch on the default generator. */
int idgen_next_ids(int64_t *out, size_t n);

/* idgen_decode_with on the default generator. */
int idgen_decode(int64_t id, idgen_parts *out);

/* ---- text forms ---------------------------------------------------------- */

/* Writes id (>= 0) in base 2..62 into buf as a NUL-terminated string.
 * Bases up to 36 use 0-9a-z, higher bases 0-9A-Za-z (ASCII order). With
 * fixed_width != 0 the text is padded with '0' to the length of INT64_MAX
 * in that base (13 for 36, 11 for 62), so equal-width strings sort like
 * the numbers. IDGEN_EINVAL for a bad base, a negative id or a NULL buf;
 * IDGEN_ERANGE if cap cannot hold the text and its NUL. */
int idgen_format(int64_t id, int base, int fixed_width, char *buf, size_t cap);

/* Reads text in base 2..62 into *out. The text must be non-empty and use
 * only the base's alphabet (lower case up to base 36); leading zeros are
 * fine. IDGEN_EINVAL for NULL, an empty string or a stray character;
 * IDGEN_ERANGE for a value above INT64_MAX. */
int idgen_parse(const char *text, int base, int64_t *out);

/* ---- Text ids (appended; the functions above keep their meaning) ----
 *
 * The text presets make only text (idgen_next and idgen_next_batch on them
 * are IDGEN_EINVAL):
 *   `rocketmq`     RocketMQ's UNIQ_KEY, 32 upper-hex chars for an IPv4 host,
 *                  56 for IPv6;
 *   `rocketmq-v1`  the 5.x gRPC client's 34-char V1 id;
 *   `uuidv7`       RFC 9562 version-7 UUIDs, 36 chars, canonical lower case
 *                  (018f...-....-7...-[89ab]...-............): 48-bit unix ms,
 *                  an 18-bit counter re-seeded at random each ms, 56 random
 *                  bits; strictly increasing per generator across threads;
 *   `ulid`         ULIDs, 26 Crockford base32 chars, upper case: 48-bit unix
 *                  ms, 80 bits random at the first id of a ms and +1 after.
 * uuidv7 and ulid wait for the next millisecond rather than overflow, and
 * take no key but `preset`. Any numeric preset writes its id in the form of
 * its `text=` key: `dec` (default), `base36` (13 chars) or `base62` (11
 * chars), fixed width so that the strings sort like the numbers. */

/* A capacity that holds every text form and its NUL (the longest is a
 * rocketmq id of an IPv6 host, 56 characters). */
#define IDGEN_TEXT_MAX 57

typedef struct {
    int64_t id;           /* a numeric preset's id; -1 for text-only forms */
    int64_t unix_ms;      /* when it was made, ms since 1970 UTC; -1 if unknown */
    int64_t sequence;     /* the counter; -1 if none */
    int64_t pid;          /* the process id bits the form keeps; -1 if none */
    int64_t loader_hash;  /* rocketmq: the class-loader hash field; -1 if none */
    int32_t addr_len;     /* bytes used in addr: 4 or 16 (IP), 6 (MAC), 0 (none) */
    uint8_t addr[16];
} idgen_text_parts;

/* Writes the next id as NUL-terminated text and returns its length
 * (without the NUL), or a negative code. cap must hold the form's longest
 * text and its NUL (33 or 57 for rocketmq, 35 for rocketmq-v1, 37 for
 * uuidv7, 27 for ulid, 20 for dec, 14 for base36, 12 for base62;
 * IDGEN_TEXT_MAX always does): a smaller cap is IDGEN_ERANGE and consumes
 * nothing. IDGEN_EOVERFLOW when the clock lies outside what the form can
 * hold (uuidv7 and ulid: 1970 to the year 4199). */
int idgen_next_text(idgen_t *g, char *buf, size_t cap);

/* Fills out with the next n UUIDs of a preset=uuidv7 generator, 16 bytes
 * each in RFC 9562's byte order (big-endian): the UUIDs n idgen_next_text
 * calls would give, as bytes, strictly increasing. For a host that hands
 * UUIDs out itself (the Java binding's nextUuid takes 64: a JVM thread's
 * call into the library costs more than the UUID) or builds a UUID from
 * its bytes (Python's and C++'s next_uuid take one). n 0 does nothing;
 * more than 65,536 is IDGEN_ERANGE; out NULL with n > 0, or any other
 * preset, is IDGEN_EINVAL; both consume nothing. IDGEN_EOVERFLOW as
 * idgen_next_text; a failure part way leaves a prefix filled, and
 * consumed. */
int idgen_next_uuids(idgen_t *g, uint8_t *out, size_t n);

/* Decodes text of the generator's form (hex and base32 in either case)
 * into *out. Text that is not exactly that form (wrong length, a character
 * outside the form, white space, a sign, `0x`) is IDGEN_EINVAL, and so is,
 * for uuidv7, a UUID of another version or variant or not in the 8-4-4-4-12
 * form (braces, `urn:uuid:`, no hyphens), and for ulid, one of the letters
 * I, L, O, U or a value above 7ZZZZZZZZZZZZZZZZZZZZZZZZZ. uuidv7 and ulid
 * fill unix_ms only (any version-7 UUID, any ULID, wherever it was made);
 * the other fields are -1, addr_len 0. */
int idgen_decode_text(idgen_t *g, const char *text, idgen_text_parts *out);

#ifdef __cplusplus
}
#endif

#endif /* IDGEN_H */
