/*
 * Lease directories: the odd ones a case makes on purpose (symlinks, wrong
 * modes, another user's, a file, a FIFO, names planted where lease files
 * go), lock probes that tell whether a pair's file is held, and sabotage of
 * a directory under a live holder.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define NOBODY 65534

static void mkdir_mode(const char *p, mode_t m) {
    mkdir(p, 0700);
    chmod(p, m);
}

static void write_file(const char *p, const char *text) {
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
        if (write(fd, text, strlen(text)) < 0)
            perror("write");
        close(fd);
    }
}

/* Makes every directory kind under the case root. */
void make_dirs(const env_t *e, rng_t *r) {
    (void)r;
    char p[4096], q[4096];
    mkdir_mode(dir_path(e, DIR_GOOD, p, sizeof p), 0755);
    mkdir_mode(dir_path(e, DIR_STICKY, p, sizeof p), 01777);
    mkdir_mode(dir_path(e, DIR_PRIVATE, p, sizeof p), 0700);
    mkdir_mode(dir_path(e, DIR_SPACES, p, sizeof p), 0755);
    mkdir_mode(dir_path(e, DIR_PLANTED, p, sizeof p), 0755);
    if (symlink(dir_path(e, DIR_GOOD, q, sizeof q), dir_path(e, DIR_SYMLINK, p, sizeof p)) != 0)
        perror("symlink");
    mkdir_mode(dir_path(e, DIR_WORLD, p, sizeof p), 0777);
    mkdir_mode(dir_path(e, DIR_GROUPW, p, sizeof p), 0775);
    mkdir_mode(dir_path(e, DIR_OTHERS, p, sizeof p), 0755);
    if (geteuid() == NOBODY || chown(p, NOBODY, NOBODY) != 0) /* not root: a symlink, refused too */
        rmdir(p), symlink(dir_path(e, DIR_GOOD, q, sizeof q), dir_path(e, DIR_OTHERS, p, sizeof p));
    write_file(dir_path(e, DIR_FILE, p, sizeof p), "not a directory\n");
    if (mkfifo(dir_path(e, DIR_FIFO, p, sizeof p), 0644) != 0)
        perror("mkfifo");
}

/* 1 when someone holds the file's flock, 0 when free, -1 when it cannot
 * be told (no such regular file). */
int lock_probe(const char *path) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    int held = 0;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        flock(fd, LOCK_UN);
    else
        held = errno == EWOULDBLOCK;
    close(fd);
    return held;
}

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* After every generator of the case was closed, no lease file may still
 * be locked: a failed or closed open gives back everything it took. */
void check_no_locks(const char *dir, const char *why) {
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!ends_with(de->d_name, ".lease"))
            continue;
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (lock_probe(p) == 1) {
            finding("lease-kept", "%s: %s is still locked", why, de->d_name);
            break;
        }
    }
    closedir(d);
}

int pair_file_locked(const char *dir, int64_t dc, int64_t w) {
    char suffix[64];
    snprintf(suffix, sizeof suffix, ".%" PRId64 ".%" PRId64 ".lease", dc, w);
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int res = -1;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!ends_with(de->d_name, suffix))
            continue;
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        int l = lock_probe(p);
        if (l == 1) {
            res = 1;
            break;
        }
        if (l == 0)
            res = 0;
    }
    closedir(d);
    return res;
}

/* The pool name of the first lease file in dir ("<pool>.<dc>.<w>.lease"). */
int find_pool(const char *dir, char *pool, size_t cap) {
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    int ok = 0;
    struct dirent *de;
    while (!ok && (de = readdir(d)) != NULL) {
        if (!ends_with(de->d_name, ".lease"))
            continue;
        char name[512];
        snprintf(name, sizeof name, "%s", de->d_name);
        name[strlen(name) - 6] = 0; /* .lease */
        for (int i = 0; i < 2; i++) {
            char *dot = strrchr(name, '.');
            if (dot)
                *dot = 0;
        }
        snprintf(pool, cap, "%s", name);
        ok = 1;
    }
    closedir(d);
    return ok;
}

/* Plants odd entries where the first pairs' lease files go; a symlink
 * points at a victim file whose content must survive. kinds[i] says what
 * went where (PLANT_*) for the pairs plant_pairs lists. */
const int64_t plant_pairs[N_PLANT][2] = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}, {0, 3}};

void plant(const char *dir, const char *pool, rng_t *r, char *victim, size_t vcap, int *kinds) {
    /* beside dir, not dir/..: a case may remove dir */
    snprintf(victim, vcap, "%s", dir);
    char *slash = strrchr(victim, '/');
    snprintf(slash ? slash : victim, vcap - (size_t)(slash ? slash - victim : 0), "/victim");
    write_file(victim, "VICTIM: idgen must never write here\n");
    int n = 1 + (int)rint_n(r, N_PLANT);
    for (int i = 0; i < N_PLANT; i++)
        kinds[i] = PLANT_NONE;
    for (int i = 0; i < n; i++) {
        char p[8192];
        snprintf(p, sizeof p, "%s/%s.%" PRId64 ".%" PRId64 ".lease", dir, pool, plant_pairs[i][0], plant_pairs[i][1]);
        kinds[i] = 1 + (int)rint_n(r, 6);
        switch (kinds[i]) {
        case PLANT_SYMLINK: if (symlink(victim, p) != 0) perror("symlink"); break;
        case PLANT_FIFO: if (mkfifo(p, 0644) != 0) perror("mkfifo"); break;
        case PLANT_DIR: mkdir(p, 0755); break;
        case PLANT_OTHERS:
            write_file(p, "idgen-lease 1 0000000000000000000 000 00000000\n");
            if (geteuid() == NOBODY || chown(p, NOBODY, NOBODY) != 0) /* not root: a record that fails its checksum */
                kinds[i] = PLANT_GARBAGE;
            break;
        case PLANT_HARDLINK: {
            char other[8300];
            snprintf(other, sizeof other, "%s.hardlink", p);
            write_file(other, "x\n");
            if (link(other, p) != 0)
                perror("link");
        } break;
        default: write_file(p, "idgen-lease 1 garbage that fails its checksum\n"); break; /* PLANT_GARBAGE */
        }
    }
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f) {
    (void)st, (void)flag, (void)f;
    remove(p);
    return 0;
}

/* rm -rf without a shell (lease_dir names hold spaces and quotes). */
void rm_rf(const char *path) { nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS); }
