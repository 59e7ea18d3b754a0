// Runs served in C (runs.c): idgen_next hands out the ids of a run the Go
// side reserved, crossing into Go only for the next run.
#ifndef IDGEN_RUNS_H
#define IDGEN_RUNS_H

#include <stddef.h>
#include <stdint.h>

/* A handle is a token: its low IDGENP_SLOT_BITS name a slot, the rest a
   serial number never reused (handles.go). */
#define IDGENP_SLOT_BITS 20

/* The default generator's token in the calls below (idgen_next_id): no
   handle's (their serial numbers start at 1). */
#define IDGENP_DEFAULT 1

/* A run: n ids first, first+step, ...; n 0: none. */
typedef struct {
    int64_t first, step, n;
} idgenp_run;

/* Run kinds (the Go side's RunKind). */
#define IDGENP_RUNS_NONE 0
#define IDGENP_RUNS_TIMED 1   /* ids handed out at most IDGENP_FRESH_NS after the reservation */
#define IDGENP_RUNS_UNTIMED 2 /* segments: no age limit */
#define IDGENP_FRESH_NS 1000000

/* The longest run asked of a segment counter (a time run's length is the
   Go side's: runs=N, grown and shrunk with use). */
#define IDGENP_UNTIMED_ROOM 1024

/* The Go side (runs.go): give tail back and reserve the next run of at
   most room ids into *out; a status, the message set on failure. */
int idgenGoReserve(uintptr_t h, idgenp_run *tail, int64_t room, idgenp_run *out);
/* The Go side: give tail back before a call that reserves in Go. */
void idgenGoReturn(uintptr_t h, idgenp_run *tail);
/* The Go side: give tail back and close the generator. */
void idgenGoClose(uintptr_t h, idgenp_run *tail);
/* The Go side: idgen_next without runs (and the message of a closed or
   made-up handle); idgen_next_id without runs. */
int64_t idgenGoNext(uintptr_t h);
int64_t idgenGoNextID(void);
/* The Go side: the default generator's run kind (building it), or a
   failure's status; idgen_configure with the tail given back first, the
   new default's kind into *kind. */
int idgenGoDefaultRuns(void);
int idgenGoConfigure(char *config, idgenp_run *tail, int *kind);

/* For the shim (runs.c). */
void idgenp_runs_open(uintptr_t token, int kind);
int64_t idgenp_runs_next(uintptr_t token); /* IDGENP_DEFAULT: idgen_next_id */
/* The next id of token's run in hand, never entering Go, never waiting;
   -1 when there is none (idgen_next_in_hand). */
int64_t idgenp_runs_in_hand(uintptr_t token);
/* Where token's runs live (idgen_get_run_memory: version, cursor, slots,
   slot size, serial, timed): 1, or 0 when token serves no runs in C. */
int idgenp_runs_memory(uintptr_t token, int64_t out[6]);
int idgenp_runs_configure(const char *config);
/* In a forked child (its only thread): every run stopped, so that a host
   handing out from idgen_get_run_memory's memory gets nothing there. */
void idgenp_runs_fork_child(void);
void idgenp_runs_close(uintptr_t token);
/* Holds token's runs still while a call reserves in Go: its tail given
   back, no run handed out until idgenp_runs_release. NULL: no runs. */
void *idgenp_runs_hold(uintptr_t token);
void idgenp_runs_release(void *held);
/* For the Go side's hooks: the ids reserved and not handed out (held or
   dropped); stop handing out at once (the lease's fence dropped). */
int64_t idgenp_runs_unissued(uintptr_t token);
void idgenp_runs_revoke(uintptr_t token);

#endif
