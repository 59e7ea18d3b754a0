// Lease file descriptors that hold a flock, closed in a forked child.
//
// A flock belongs to the open file, which fork shares with the child: a
// child that lives on after its parent died (killed, crashed) would keep
// the parent's pair locked, and no other process could lease it. The child
// cannot use idgen anyway (IDGEN_EFORKED), so at fork it closes its copies
// of these descriptors; the parent's lock is unaffected.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "capi.h"

#define MAX_LOCK_FDS 4096

static _Atomic int lock_fds[MAX_LOCK_FDS]; // fd + 1; 0 is a free slot

void idgenp_track_lock_fd(int fd, int held) {
    if (held) {
        for (int i = 0; i < MAX_LOCK_FDS; i++) {
            int free_slot = 0;
            if (atomic_compare_exchange_strong(&lock_fds[i], &free_slot, fd + 1)) {
                return;
            }
        }
        return; // more lease files than slots: the child keeps the rest
    }
    for (int i = 0; i < MAX_LOCK_FDS; i++) {
        int mine = fd + 1;
        if (atomic_compare_exchange_strong(&lock_fds[i], &mine, 0)) {
            return;
        }
    }
}

// Forks made, and forks under way (between the prepare and the parent
// handlers): Go reads them around opening a file it will lock (see
// idgenp_fork_count), so a file a child copied before it was tracked is
// opened again.
static _Atomic int64_t forks_made, forks_running;

void idgenp_fork_prepare(void) { atomic_fetch_add(&forks_running, 1); }

void idgenp_fork_parent(void) {
    atomic_fetch_add(&forks_made, 1);
    atomic_fetch_sub(&forks_running, 1);
}

int64_t idgenp_fork_count(void) {
    if (atomic_load(&forks_running) != 0) {
        return -1;
    }
    return atomic_load(&forks_made);
}

// Runs in the child, one thread, before fork returns there.
void idgenp_close_lock_fds_in_child(void) {
    for (int i = 0; i < MAX_LOCK_FDS; i++) {
        int v = atomic_load(&lock_fds[i]);
        if (v > 0) {
            close(v - 1);
            atomic_store(&lock_fds[i], 0);
        }
    }
}
