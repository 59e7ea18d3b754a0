package dirstore

// The trust rules, as checks on what fstat or lstat says: nothing here
// opens or writes a file.

import (
	"fmt"
	"os/user"
	"strconv"
	"syscall"

	"github.com/idgen/idgen/internal/errs"
)

// trusted applies the directory rules to the lease directory at path
// (owner: its owner and mode, for messages), for the caller euid.
func trusted(path, owner string, st *syscall.Stat_t, euid int) error {
	uid := int(st.Uid)
	if uid != 0 && uid != euid {
		return errs.New(errs.ErrWorker, "lease_dir %s is not trusted: %s; it must belong to root or to you (uid %d), or another user could move your leases away: have it made root-owned with install -d -m 1777 %s, or give a lease_dir of your own",
			path, owner, euid, path)
	}
	if st.Mode&0o022 != 0 && st.Mode&syscall.S_ISVTX == 0 {
		return errs.New(errs.ErrWorker, "lease_dir %s is not trusted: %s: others may write to it but it is not sticky, so they could delete or replace your lease files; chmod 1777 %s (or 0755)",
			path, owner, path)
	}
	return nil
}

// unusable says why what is at path cannot be a file of kind ("lease
// file", "segment counter file"), or "" when it is a regular file with one
// link (whoever owns it: another user's file is that user's pair, told
// apart by the caller; euid is the caller's).
func unusable(path, kind string, st *syscall.Stat_t, euid int) string {
	what := ""
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		if int(st.Uid) == euid && st.Nlink != 1 {
			return fmt.Sprintf("%s %s has %d links (%s); idgen never writes a file linked elsewhere: remove it", kind, path, st.Nlink, describe(st))
		}
		return ""
	case syscall.S_IFLNK:
		return fmt.Sprintf("%s %s is a symlink (%s); idgen never follows one: remove it", kind, path, describe(st))
	case syscall.S_IFIFO:
		what = "a fifo"
	case syscall.S_IFDIR:
		what = "a directory"
	case syscall.S_IFSOCK:
		what = "a socket"
	case syscall.S_IFCHR:
		what = "a character device"
	case syscall.S_IFBLK:
		what = "a block device"
	default:
		what = "not a regular file"
	}
	return fmt.Sprintf("%s %s is %s, not a regular file (%s): remove it", kind, path, what, describe(st))
}

// describe names a file's owner and mode for messages.
func describe(st *syscall.Stat_t) string {
	name := strconv.Itoa(int(st.Uid))
	if u, err := user.LookupId(name); err == nil {
		name += " (" + u.Username + ")"
	}
	return fmt.Sprintf("owner uid %s, mode %04o", name, st.Mode&0o7777)
}

func describePath(path string) string {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return err.Error()
	}
	return describe(&st)
}
