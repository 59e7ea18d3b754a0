// Private declarations shared by the C files of capi and the Go exports.
#ifndef IDGEN_CAPI_H
#define IDGEN_CAPI_H

#include <stddef.h>
#include <stdint.h>

void idgenp_set_error(const char *msg, size_t n);
void idgenp_set_error_str(const char *msg);
void idgenp_track_lock_fd(int fd, int held);
void idgenp_close_lock_fds_in_child(void);
void idgenp_fork_prepare(void);
void idgenp_fork_parent(void);
int64_t idgenp_fork_count(void);

#endif
