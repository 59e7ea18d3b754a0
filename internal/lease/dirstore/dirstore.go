// Package dirstore is the host lease store: one lock file per (pool,
// datacenter, worker) in one directory that every process of the host
// sees, by default /var/tmp/idgen. The kernel's flock is the lock (dropped
// when the holder dies, so kill -9 leaves nothing stale); the file's
// content is the record, with a checksum.
//
// The directory may be shared by several users, so nothing in it is
// trusted blindly:
//
//   - the directory must be a real directory (never a symlink), owned by
//     root or the caller, and sticky when anyone but its owner may write
//     to it; it is opened once and every file is opened relative to it;
//   - lease files are opened with O_NOFOLLOW|O_NONBLOCK (a FIFO never
//     blocks) and must be regular files with one link, owned by the
//     caller: a file of another user is that user's pair and is never
//     written, and anything else under a pair's name (a symlink, FIFO,
//     directory, socket, device, a hard link) is skipped the same way, so
//     that nobody can stop every open on the host by planting one; a pool
//     with no other pair names it;
//   - a holder checks at every renewal, after writing, that its file and
//     the directory are still the ones it locked; if not, the lease is
//     gone (a successor could be holding a new file under the same name).
package dirstore

import (
	"errors"
	"os"
	"strconv"
	"syscall"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// Store is an open lease directory.
type Store struct {
	path     string
	explicit bool // lease_dir given: it must exist
	dir      *os.File
	dev      uint64
	ino      uint64
	euid     int
	owner    string // the directory's owner and mode, for messages
}

// Open checks and opens the lease directory. The default directory is
// made (mode 1777, sticky) when missing; an explicit one must exist
// (errs.ErrInvalid naming lease_dir otherwise). A directory that breaks the
// trust rules is errs.ErrWorker naming it, its owner and mode, and the fix.
func Open(path string, explicit bool) (*Store, error) {
	if !explicit {
		if err := os.Mkdir(path, 0o1777); err == nil {
			// The umask narrowed the mode; a fresh directory is opened
			// below with O_NOFOLLOW and checked like any other.
			if err := os.Chmod(path, 0o777|os.ModeSticky); err != nil {
				return nil, errs.New(errs.ErrWorker, "lease_dir %s: cannot make it mode 1777: %v", path, unwrap(err))
			}
		} else if !errors.Is(err, os.ErrExist) {
			return nil, errs.New(errs.ErrWorker, "lease_dir %s: cannot create it: %v (have it made: install -d -m 1777 %s)", path, unwrap(err), path)
		}
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, syscall.ENOENT) && explicit:
		return nil, errs.Key("lease_dir", "%s does not exist (create it, e.g. install -d -m 1777 %s, or leave lease_dir out for %s)", path, path, "/var/tmp/idgen")
	case errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.ENOTDIR):
		what := "not a directory"
		var lst syscall.Stat_t
		if errors.Is(err, syscall.ELOOP) || syscall.Lstat(path, &lst) == nil && lst.Mode&syscall.S_IFMT == syscall.S_IFLNK {
			what = "a symlink, which idgen never follows" // O_DIRECTORY|O_NOFOLLOW says ENOTDIR for one
		}
		return nil, errs.New(errs.ErrWorker, "lease_dir %s is %s (%s); use a real directory: install -d -m 1777 %s", path, what, describePath(path), path)
	case err != nil:
		return nil, errs.New(errs.ErrWorker, "lease_dir %s: %v", path, err)
	}
	dir := os.NewFile(uintptr(fd), path)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		dir.Close()
		return nil, errs.New(errs.ErrWorker, "lease_dir %s: %v", path, err)
	}
	s := &Store{path: path, explicit: explicit, dir: dir, dev: st.Dev, ino: st.Ino, euid: os.Geteuid(), owner: describe(&st)}
	if err := trusted(path, s.owner, &st, s.euid); err != nil {
		dir.Close()
		return nil, err
	}
	return s, nil
}

// Path is the directory.
func (s *Store) Path() string { return s.path }

// Close closes the directory.
func (s *Store) Close() error { return s.dir.Close() }

// FileName is the lease file of a pair.
func FileName(pool string, p lease.Pair) string {
	return pool + "." + strconv.FormatInt(p.DC, 10) + "." + strconv.FormatInt(p.Worker, 10) + ".lease"
}

// refresh opens the directory again, with the same trust checks, when the
// path names another one than the store opened (moved away and made
// again): leases are taken where the path leads now. Claims in the old
// one find their files gone at their next renewal.
func (s *Store) refresh() error {
	if s.sameDir() {
		return nil
	}
	fresh, err := Open(s.path, s.explicit)
	if err != nil {
		return err
	}
	s.dir.Close()
	*s = *fresh
	return nil
}

// statAt stats name in the directory without following a symlink.
func (s *Store) statAt(name string) (syscall.Stat_t, bool) {
	var st syscall.Stat_t
	fd, err := syscall.Openat(int(s.dir.Fd()), name, oPath|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return st, false
	}
	defer syscall.Close(fd)
	return st, syscall.Fstat(fd, &st) == nil
}

// sameDir reports whether the directory's path still names the directory
// this store opened.
func (s *Store) sameDir() bool {
	fd, err := syscall.Open(s.path, oPath|syscall.O_NOFOLLOW|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	return syscall.Fstat(fd, &st) == nil && st.Dev == s.dev && st.Ino == s.ino
}

func unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// oPath is Linux's O_PATH, which the syscall package does not name: a
// descriptor for fstat only, that opens even a file it could not read.
const oPath = 0x200000

// outcome is what taking a pair's file found.
type outcome int

const (
	claimed outcome = iota
	held
	othersFile
	notAFile // not a regular file with one link, whoever's: skipped
	badRecord
	absent // no file, and the request did not want one made
)

// openUntracked opens name in the directory read-write, creating it (mode
// perm) when create is set, as a file of kind that idgen may write: a
// regular file with one link, the caller's. Anything else is closed again
// and told by the outcome: absent, notAFile (why says what is there),
// othersFile (st is its stat). An error is the system's, unwrapped.
// openFile is the one to call: it tells LockHook of the file.
func (s *Store) openUntracked(name, kind string, create bool, perm uint32) (f *os.File, st syscall.Stat_t, out outcome, why string, err error) {
	path := s.path + "/" + name
	flags := syscall.O_RDWR | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if create {
		flags |= syscall.O_CREAT
	}
	fd, err := syscall.Openat(int(s.dir.Fd()), name, flags, perm)
	if !create && errors.Is(err, syscall.ENOENT) {
		return nil, st, absent, "", nil
	}
	if err != nil {
		// Something that cannot be opened as such a file may be in the
		// way (a symlink: ELOOP, a directory: EISDIR, a socket: ENXIO,
		// another user's file: EACCES): look without opening.
		if st, ok := s.statAt(name); ok {
			if why := unusable(path, kind, &st, s.euid); why != "" {
				return nil, st, notAFile, why, nil
			}
			if int(st.Uid) != s.euid {
				return nil, st, othersFile, "", nil
			}
		}
		return nil, st, 0, "", err
	}
	f = os.NewFile(uintptr(fd), path)
	if err := syscall.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, st, 0, "", err
	}
	if why := unusable(path, kind, &st, s.euid); why != "" {
		f.Close()
		return nil, st, notAFile, why, nil
	}
	if int(st.Uid) != s.euid {
		f.Close() // another user's (root can open it; it still is not root's)
		return nil, st, othersFile, "", nil
	}
	return f, st, claimed, "", nil
}

// OneClock implements lease.OneClock: every holder of a host directory
// reads this host's clock.
func (s *Store) OneClock() bool { return true }
