/*
 * make fuzz: a grammar-driven fuzzer of idgen's C ABI.
 *
 *   build/fuzz                   run for FUZZ_SECONDS (60) from FUZZ_SEED
 *                                (random when unset; printed)
 *   build/fuzz --case 0xSEED     replay one case, printing what it did
 *
 * Environment: FUZZ_SECONDS, FUZZ_SEED, FUZZ_JOBS (parallel workers,
 * default 4 x CPUs, 4 to 16: cases mostly wait), FUZZ_MEM_MB (each
 * worker's data limit, default 1024), FUZZ_CASES (stop after that many),
 * FUZZ_CASE_MAX (seconds a case may take, 90), FUZZ_KEEP=1 (keep the case
 * directories of findings), FUZZ_SELF (the command the reproducers name),
 * IDGEN_CLI (the idgen CLI, whose explain --keys gives the key table),
 * FUZZ_SELFTEST=crash|hang|oom (a worker that fails on purpose, to see
 * the driver report it).
 *
 * Go's runtime does not survive fork, so each case runs in a fresh process:
 * the driver forks, the child gets a memory cap (setrlimit), its own mount
 * namespace with a private /var/tmp (so default leases stay in the case)
 * and execs this program as a worker, which loads libidgen.so anew. The
 * worker writes what it is doing into a page shared with the driver; the
 * driver kills it when a call outlives its bound and reports the call.
 * Every finding is one line: the check, the call, the configuration and
 * the command that replays the case. Exit status 0 only when nothing was
 * found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

/* ---- the driver ------------------------------------------------------------------ */

typedef struct {
    pid_t pid;
    int64_t idx;
    uint64_t seed;
    int64_t start;
    int crumb_fd, out_fd;
    crumb_t *crumb;
    char dir[4200];
    int timed_out, cut;
    char timeout_call[600];
    int64_t timeout_ms, timeout_bound;
} slot_t;

static char root[256];
static int private_ns;
static uint64_t run_seed;
static int64_t mem_mb = 1024;
static int keep_dirs, replay;

/* Findings by check: how many cases, and the first lines. */
#define MAXCHECKS 128
static struct {
    char name[32];
    int64_t cases;
} checks[MAXCHECKS];
static int n_checks;
static int64_t total_findings, cases_with_findings, total_calls, cases_done, cut_cases;

static int64_t env_int(const char *name, int64_t dflt) {
    const char *v = getenv(name);
    return v && *v ? strtoll(v, NULL, 0) : dflt;
}

/* Can a child have a mount namespace of its own with a private /var/tmp? */
static int probe_private_ns(void) {
    pid_t pid = fork();
    if (pid == 0) {
        char d[300];
        snprintf(d, sizeof d, "%s/probe", root);
        mkdir(d, 01777);
        if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
            mount(d, "/var/tmp", NULL, MS_BIND, NULL) != 0)
            _exit(1);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void spawn(slot_t *s, int64_t idx, uint64_t seed) {
    memset(s, 0, sizeof *s);
    s->idx = idx;
    s->seed = seed;
    snprintf(s->dir, sizeof s->dir, "%s/c%" PRId64, root, idx);
    s->crumb_fd = memfd_create("fuzz-crumb", 0);
    s->out_fd = memfd_create("fuzz-out", 0);
    if (s->crumb_fd < 0 || s->out_fd < 0 || ftruncate(s->crumb_fd, sizeof(crumb_t)) != 0) {
        perror("fuzz: memfd");
        exit(2);
    }
    s->crumb = mmap(NULL, sizeof(crumb_t), PROT_READ | PROT_WRITE, MAP_SHARED, s->crumb_fd, 0);
    if (s->crumb == MAP_FAILED) {
        perror("fuzz: mmap");
        exit(2);
    }
    s->start = mono_ms();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fuzz: fork");
        exit(2);
    }
    if (pid == 0) {
        setpgid(0, 0);
        mkdir(s->dir, 0755);
        if (private_ns) {
            char vt[4300];
            snprintf(vt, sizeof vt, "%s/vartmp", s->dir);
            mkdir(vt, 0700);
            chmod(vt, 01777);
            if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
                mount(vt, "/var/tmp", NULL, MS_BIND, NULL) != 0)
                _exit(4);
        }
        struct rlimit data = {(rlim_t)mem_mb << 20, (rlim_t)mem_mb << 20};
        struct rlimit as = {((rlim_t)mem_mb + 4096) << 20, ((rlim_t)mem_mb + 4096) << 20};
        struct rlimit zero = {0, 0}, fsize = {64 << 20, 64 << 20};
        setrlimit(RLIMIT_DATA, &data);
        setrlimit(RLIMIT_AS, &as);
        setrlimit(RLIMIT_CORE, &zero);
        setrlimit(RLIMIT_FSIZE, &fsize);
        dup2(s->crumb_fd, 3);
        dup2(s->out_fd, 1);
        dup2(s->out_fd, 2);
        for (int fd = 4; fd < 1024; fd++)
            close(fd);
        char seedhex[32];
        snprintf(seedhex, sizeof seedhex, "0x%016" PRIx64, seed);
        execl("/proc/self/exe", "fuzz", "--worker", seedhex, s->dir, private_ns ? "1" : "0", (char *)NULL);
        _exit(127);
    }
    s->pid = pid;
}

static void note_check(const char *name) {
    for (int i = 0; i < n_checks; i++)
        if (strcmp(checks[i].name, name) == 0) {
            checks[i].cases++;
            return;
        }
    if (n_checks < MAXCHECKS) {
        snprintf(checks[n_checks].name, sizeof checks[n_checks].name, "%s", name);
        checks[n_checks++].cases = 1;
    }
}

static int64_t check_cases(const char *name) {
    for (int i = 0; i < n_checks; i++)
        if (strcmp(checks[i].name, name) == 0)
            return checks[i].cases;
    return 0;
}

/* Prints a finding: at most three lines per check over the run (all of
 * them when replaying one case). */
static void report(const slot_t *s, const char *check, const char *what, const char *config) {
    total_findings++;
    if (!replay && check_cases(check) > 3)
        return;
    printf("fuzz: FINDING [%s] %s | config: \"%s\" | replay: %s --case 0x%016" PRIx64 "\n", check, what, config,
        getenv("FUZZ_SELF") ? getenv("FUZZ_SELF") : "build/fuzz", s->seed);
    fflush(stdout);
}

/* Coverage: idgen_open outcomes, and which keys and presets reached a
 * generator that opened. */
static int64_t opens_by_rc[8], keys_opened[MAXNAMES], presets_opened[MAXNAMES];
static struct {
    char text[96];
    int64_t n;
} reasons[256];
static int n_reasons;

static void note_open_line(char *rest) {
    int rc = atoi(rest);
    static const int codes[] = {IDGEN_OK, IDGEN_EINVAL, IDGEN_ECLOCK, IDGEN_EOVERFLOW, IDGEN_ECLOSED, IDGEN_EWORKER, IDGEN_ERANGE};
    int slot = 7;
    for (int i = 0; i < 7; i++)
        if (codes[i] == rc)
            slot = i;
    opens_by_rc[slot]++;
    char *keys = strchr(rest, '\t');
    if (!keys)
        return;
    keys++;
    char *preset = strchr(keys, '\t');
    if (preset)
        *preset++ = 0;
    char *why = preset ? strchr(preset, '\t') : NULL;
    if (why)
        *why++ = 0;
    if (why && *why) {
        int i;
        for (i = 0; i < n_reasons && strcmp(reasons[i].text, why) != 0; i++)
            ;
        if (i == n_reasons && n_reasons < 256)
            snprintf(reasons[n_reasons++].text, sizeof reasons[0].text, "%s", why);
        if (i < 256)
            reasons[i].n++;
    }
    if (rc != IDGEN_OK)
        return;
    for (char *save = NULL, *k = strtok_r(keys, " ", &save); k; k = strtok_r(NULL, " ", &save))
        for (int i = 0; i < T.n_keys; i++)
            if (strcmp(T.keys[i], k) == 0)
                keys_opened[i]++;
    for (int i = 0; preset && i < T.n_presets; i++)
        if (strcmp(T.presets[i], preset) == 0)
            presets_opened[i]++;
}

static void print_coverage(void) {
    printf("fuzz: idgen_open: %" PRId64 " OK, %" PRId64 " EINVAL, %" PRId64 " EWORKER, %" PRId64 " ECLOCK, %" PRId64 " EOVERFLOW, %" PRId64 " other\n",
        opens_by_rc[0], opens_by_rc[1], opens_by_rc[5], opens_by_rc[2], opens_by_rc[3], opens_by_rc[4] + opens_by_rc[6] + opens_by_rc[7]);
    for (int shown = 0; shown < 6; shown++) { /* the commonest refusals */
        int best = -1;
        for (int i = 0; i < n_reasons; i++)
            if (reasons[i].n > 0 && (best < 0 || reasons[i].n > reasons[best].n))
                best = i;
        if (best < 0)
            break;
        printf("fuzz:   %6" PRId64 " x %s\n", reasons[best].n, reasons[best].text);
        reasons[best].n = -reasons[best].n;
    }
    char miss[2048] = "";
    for (int i = 0; i < T.n_keys; i++)
        if (keys_opened[i] == 0 && strcmp(T.keys[i], "preset") != 0)
            snprintf(miss + strlen(miss), sizeof miss - strlen(miss), " %s", T.keys[i]);
    for (int i = 0; i < T.n_presets; i++)
        if (presets_opened[i] == 0)
            snprintf(miss + strlen(miss), sizeof miss - strlen(miss), " preset=%s", T.presets[i]);
    if (miss[0])
        printf("fuzz: never in a generator that opened:%s\n", miss);
    else
        printf("fuzz: every key and preset of the table was in a generator that opened\n");
}

static void reap(slot_t *s, int status) {
    char *out = NULL;
    off_t size = lseek(s->out_fd, 0, SEEK_END);
    if (size > 0) {
        if (size > (1 << 20))
            size = 1 << 20;
        out = malloc((size_t)size + 1);
        ssize_t got = pread(s->out_fd, out, (size_t)size, 0);
        out[got > 0 ? got : 0] = 0;
    }
    char checks_here[32][32];
    int n_here = 0, any = 0;
    char *crash_line = NULL;
    for (char *save = NULL, *line = out ? strtok_r(out, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "FINDING\t", 8) == 0) {
            char *check = line + 8, *what = strchr(check, '\t');
            if (!what)
                continue;
            *what++ = 0;
            char *cfg = strchr(what, '\t');
            if (cfg)
                *cfg++ = 0;
            int seen = 0;
            for (int i = 0; i < n_here; i++)
                seen |= strcmp(checks_here[i], check) == 0;
            if (!seen && n_here < 32) {
                snprintf(checks_here[n_here++], 32, "%s", check);
                note_check(check);
            }
            report(s, check, what, cfg ? cfg : "");
            any = 1;
        } else if (strncmp(line, "OPEN\t", 5) == 0) {
            note_open_line(line + 5);
        } else if (strncmp(line, "CALLS\t", 6) == 0) {
            total_calls += strtoll(line + 6, NULL, 10);
        } else {
            if (replay)
                printf("  %s\n", line);
            if (crash_line == NULL && (strstr(line, "fatal error") || strstr(line, "panic") || strstr(line, "SIG") ||
                                          strstr(line, "out of memory") || strstr(line, "runtime:")))
                crash_line = line;
        }
    }
    char cfg[4096], what[2048];
    escape(s->crumb->config, cfg, sizeof cfg);
    if (s->timed_out) {
        snprintf(what, sizeof what, "%s did not return within %" PRId64 " ms (bound %" PRId64 " ms); killed", s->timeout_call,
            s->timeout_ms, s->timeout_bound);
        note_check("timeout");
        report(s, "timeout", what, cfg);
        any = 1;
    } else if (!s->cut && (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) > 1))) {
        char c[700];
        escape(s->crumb->call, c, sizeof c);
        char first[300] = "";
        if (crash_line)
            escape(crash_line, first, sizeof first);
        const char *check = crash_line && (strstr(crash_line, "out of memory") || strstr(crash_line, "cannot allocate memory")) ? "memory" : "crash";
        if (WIFSIGNALED(status))
            snprintf(what, sizeof what, "worker killed by signal %d during %s%s%s", WTERMSIG(status), c, first[0] ? ": " : "", first);
        else
            snprintf(what, sizeof what, "worker exited %d during %s%s%s", WEXITSTATUS(status), c, first[0] ? ": " : "", first);
        note_check(check);
        report(s, check, what, cfg);
        any = 1;
    }
    if (any)
        cases_with_findings++;
    if (!s->cut)
        cases_done++;
    free(out);
    munmap(s->crumb, sizeof(crumb_t));
    close(s->crumb_fd);
    close(s->out_fd);
    if (!(any && keep_dirs))
        rm_rf(s->dir);
    s->pid = 0;
}

static volatile sig_atomic_t interrupted;
static void on_int(int sig) {
    (void)sig;
    interrupted = 1;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--worker") == 0)
        return worker_main(argc, argv);
    crumb = &local_crumb;
    uint64_t one_case = 0;
    if (argc >= 3 && strcmp(argv[1], "--case") == 0) {
        replay = 1;
        one_case = strtoull(argv[2], NULL, 0);
    } else if (argc >= 2) {
        fprintf(stderr, "usage: fuzz [--case SEED]   (FUZZ_SECONDS, FUZZ_SEED, FUZZ_JOBS, FUZZ_MEM_MB, FUZZ_CASES, FUZZ_KEEP)\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    int64_t seconds = env_int("FUZZ_SECONDS", 60);
    run_seed = (uint64_t)env_int("FUZZ_SEED", 0);
    if (getenv("FUZZ_SEED") == NULL || !*getenv("FUZZ_SEED"))
        run_seed = (uint64_t)wall_ms() ^ ((uint64_t)getpid() << 32);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    /* Most of a case's time is spent waiting (leases on fresh
     * directories wait out max_outage once): more workers than CPUs. */
    int64_t jobs = env_int("FUZZ_JOBS", cpus * 4 > 16 ? 16 : cpus * 4 < 4 ? 4 : cpus * 4);
    if (jobs < 1)
        jobs = 1;
    if (jobs > 64)
        jobs = 64;
    mem_mb = env_int("FUZZ_MEM_MB", 1024);
    int64_t max_cases = env_int("FUZZ_CASES", 0);
    keep_dirs = env_int("FUZZ_KEEP", 0) != 0;
    int64_t case_max_ms = env_int("FUZZ_CASE_MAX", 90) * 1000;
    if (replay) {
        jobs = 1, max_cases = 1, keep_dirs = 1;
        setenv("FUZZ_VERBOSE", "1", 1);
    }
    snprintf(root, sizeof root, "/tmp/idgen-fuzz-XXXXXX");
    if (mkdtemp(root) == NULL) {
        perror("fuzz: mkdtemp");
        return 2;
    }
    chmod(root, 0755);
    table_load();
    private_ns = probe_private_ns();
    if (replay)
        printf("fuzz: replaying case 0x%016" PRIx64 " in %s\n", one_case, root);
    else
        printf("fuzz: seed %" PRIu64 ", %" PRId64 " s, %" PRId64 " workers, %" PRId64 " MiB data cap each, %s\n", run_seed, seconds, jobs, mem_mb,
            private_ns ? "a private /var/tmp per case" : "no mount namespace (leases always name a lease_dir)");
    if (!T.from_library) {
        /* The grammar is the library's table: there is no second copy. */
        fprintf(stderr, "fuzz: could not read the key table from the library (%s)\n", T.why);
        return 2;
    }
    printf("fuzz: grammar over the library's own table: %d keys, %d presets, %d layout fields\n", T.n_keys, T.n_presets, T.n_fields);
    signal(SIGINT, on_int);
    signal(SIGTERM, on_int);
    slot_t *slots = calloc((size_t)jobs, sizeof *slots);
    int64_t start = mono_ms(), next_idx = 0;
    for (;;) {
        int running = 0;
        int stop = interrupted || (replay ? next_idx >= 1 : (mono_ms() - start >= seconds * 1000 || (max_cases && next_idx >= max_cases)));
        for (int i = 0; i < jobs; i++) {
            slot_t *s = &slots[i];
            if (s->pid == 0 && !stop) {
                uint64_t seed = replay ? one_case : splitmix(run_seed + 0x632be59bd9b4e019ULL * (uint64_t)next_idx);
                spawn(s, next_idx++, seed);
            }
            if (s->pid == 0)
                continue;
            int status;
            pid_t w = waitpid(s->pid, &status, WNOHANG);
            if (w == s->pid) {
                reap(s, status);
                continue;
            }
            running++;
            int64_t now = mono_ms(), dl = s->crumb->deadline_ms;
            int late = dl > 0 && now > dl + 2000;
            /* time is up: a case still running gets its current call's
             * bound, at most 15 s more, and is then cut (not a finding) */
            int cut = stop && !replay && !late && now - start > seconds * 1000 + 15000;
            /* past the case's limit inside a call whose own bound is
             * longer: nothing can be concluded, the case is cut */
            int long_call = !late && now - s->start > case_max_ms && dl > now;
            if (long_call && !cut) {
                char c[700], cfg[1200];
                escape(s->crumb->call, c, sizeof c);
                escape(s->crumb->config, cfg, sizeof cfg);
                printf("fuzz: note: case 0x%016" PRIx64 " cut after %" PRId64 " s in %s, whose bound is %" PRId64 " s (config \"%s\")\n", s->seed,
                    case_max_ms / 1000, c, (dl - s->crumb->started_ms) / 1000, cfg);
                cut = 1;
            }
            if (late || now - s->start > case_max_ms || interrupted || cut) {
                if (cut) {
                    cut_cases++;
                    s->cut = 1;
                } else if (!interrupted) {
                    s->timed_out = 1;
                    snprintf(s->timeout_call, sizeof s->timeout_call, "%s", late ? s->crumb->call : "the case");
                    s->timeout_ms = late ? now - s->crumb->started_ms : now - s->start;
                    s->timeout_bound = late ? dl - s->crumb->started_ms : case_max_ms;
                }
                kill(-s->pid, SIGKILL);
                kill(s->pid, SIGKILL);
                waitpid(s->pid, &status, 0);
                if (interrupted || cut)
                    s->timed_out = 0;
                reap(s, status);
            }
        }
        if (stop && running == 0)
            break;
        usleep(2000);
    }
    double secs = (double)(mono_ms() - start) / 1000.0;
    if (!replay)
        print_coverage();
    for (int i = 0; i < n_checks; i++)
        printf("fuzz: check %-22s failed in %" PRId64 " case%s\n", checks[i].name, checks[i].cases, checks[i].cases == 1 ? "" : "s");
    if (cut_cases)
        printf("fuzz: %" PRId64 " case%s cut short (still running at the end, or in a call whose bound is longer than a case may take); not counted\n",
            cut_cases, cut_cases == 1 ? "" : "s");
    printf("fuzz: %" PRId64 " cases in %.1f s (%.1f cases/s, %.0f calls/s), %" PRId64 " findings in %" PRId64 " cases, %d checks (seed %" PRIu64 ")\n",
        cases_done, secs, (double)cases_done / secs, (double)total_calls / secs, total_findings, cases_with_findings, n_checks, run_seed);
    if (!keep_dirs || total_findings == 0)
        rm_rf(root);
    else
        printf("fuzz: case directories kept in %s\n", root);
    return total_findings ? 1 : 0;
}
