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
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
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
	if err := s.trusted(&st); err != nil {
		dir.Close()
		return nil, err
	}
	return s, nil
}

// trusted applies the directory rules.
func (s *Store) trusted(st *syscall.Stat_t) error {
	uid := int(st.Uid)
	if uid != 0 && uid != s.euid {
		return errs.New(errs.ErrWorker, "lease_dir %s is not trusted: %s; it must belong to root or to you (uid %d), or another user could move your leases away: have it made root-owned with install -d -m 1777 %s, or give a lease_dir of your own",
			s.path, s.owner, s.euid, s.path)
	}
	if st.Mode&0o022 != 0 && st.Mode&syscall.S_ISVTX == 0 {
		return errs.New(errs.ErrWorker, "lease_dir %s is not trusted: %s: others may write to it but it is not sticky, so they could delete or replace your lease files; chmod 1777 %s (or 0755)",
			s.path, s.owner, s.path)
	}
	return nil
}

// Path is the directory.
func (s *Store) Path() string { return s.path }

// Close closes the directory.
func (s *Store) Close() error { return s.dir.Close() }

// FileName is the lease file of a pair.
func FileName(pool string, p lease.Pair) string {
	return pool + "." + strconv.FormatInt(p.DC, 10) + "." + strconv.FormatInt(p.Worker, 10) + ".lease"
}

// Acquire takes the lowest pair whose file it can lock, skipping pairs held
// by live processes, pairs whose files belong to other users and records
// that fail their checksum.
func (s *Store) Acquire(_ context.Context, req lease.Request) (lease.Claim, error) {
	if err := s.refresh(); err != nil {
		return nil, err
	}
	var busy, foreign, bad, skipped, unusable int
	firstBad, firstUnusable := "", ""
	absentState := lease.Unmarked // a pool never used here
	if st, ok := s.statAt(markerName(req.Pool.Name)); ok && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		absentState = lease.Missing
	}
	for _, p := range req.Candidates() {
		// A pair without a file has a missing record: a request that
		// skips those must not create files for them.
		c, outcome, why, err := s.claim(req.Pool.Name, p, !req.Skips(p, lease.Record{}, absentState))
		if err != nil {
			return nil, err
		}
		switch outcome {
		case claimed:
			if c.state == lease.Missing {
				c.state = absentState
			}
			if rec, state := c.Predecessor(); req.Skips(p, rec, state) {
				c.drop()
				skipped++
				continue
			}
			s.mark(req.Pool.Name)
			return c, nil
		case held:
			busy++
		case absent:
			skipped++
		case othersFile:
			foreign++
		case notAFile:
			unusable++
			if firstUnusable == "" {
				firstUnusable = why
			}
		case badRecord:
			bad++
			if firstBad == "" {
				firstBad = s.path + "/" + FileName(req.Pool.Name, p)
			}
		}
	}
	n := req.Count()
	msg := fmt.Sprintf("all %d pairs of pool %s are taken in lease_dir %s: %d held by live processes", n, req.Pool.Name, s.path, busy)
	if req.DC >= 0 {
		msg = fmt.Sprintf("all %d workers of datacenter %d in pool %s (%d pairs) are taken in lease_dir %s: %d held by live processes",
			n, req.DC, req.Pool.Name, req.Pool.Size(), s.path, busy)
	}
	if foreign > 0 {
		msg += fmt.Sprintf(", %d by other users' files", foreign)
	}
	if unusable > 0 {
		msg += fmt.Sprintf(", %d by names that are not usable lease files (first: %s)", unusable, firstUnusable)
	}
	if skipped > 0 {
		msg += fmt.Sprintf(", %d with records ahead of the clock", skipped)
	}
	if bad > 0 {
		msg += fmt.Sprintf(", %d with records that fail their checksum (first: %s; remove such a file once no process uses the pair)", bad, firstBad)
	}
	return nil, errs.New(errs.ErrWorker, "%s", msg)
}

type outcome int

const (
	claimed outcome = iota
	held
	othersFile
	notAFile // not a regular file with one link, whoever's: skipped
	badRecord
	absent // no file, and the request did not want one made
)

// claim tries one pair's file (creating it when create is set). A name
// that is not a usable lease file (notAFile) comes with a sentence saying
// what it is.
func (s *Store) claim(pool string, p lease.Pair, create bool) (*claim, outcome, string, error) {
	name := FileName(pool, p)
	path := s.path + "/" + name
	dirfd := int(s.dir.Fd())
	for try := 0; try < 3; try++ {
		flags := syscall.O_RDWR | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
		if create {
			flags |= syscall.O_CREAT
		}
		fd, err := syscall.Openat(dirfd, name, flags, 0o644)
		if !create && errors.Is(err, syscall.ENOENT) {
			return nil, absent, "", nil
		}
		if err != nil {
			// Something that cannot be opened as a lease file may be in
			// the way (a symlink: ELOOP, a directory: EISDIR, a socket:
			// ENXIO, another user's file: EACCES): look without opening.
			if st, ok := s.statAt(name); ok {
				if why := s.unusable(path, &st); why != "" {
					return nil, notAFile, why, nil
				}
				if int(st.Uid) != s.euid {
					return nil, othersFile, "", nil
				}
			}
			if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
				return nil, 0, "", errs.New(errs.ErrWorker, "lease_dir %s (%s): cannot create or open %s: permission denied", s.path, s.owner, name)
			}
			return nil, 0, "", errs.New(errs.ErrWorker, "lease file %s: %v", path, err)
		}
		f := os.NewFile(uintptr(fd), path)
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			f.Close()
			return nil, 0, "", errs.New(errs.ErrWorker, "lease file %s: %v", path, err)
		}
		if why := s.unusable(path, &st); why != "" {
			f.Close()
			return nil, notAFile, why, nil
		}
		if int(st.Uid) != s.euid {
			f.Close() // another user's pair (root can open it; it still is not root's)
			return nil, othersFile, "", nil
		}
		LockHook(fd, true) // before the lock: a child forked from now on lets it go
		if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			closeLocked(f)
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, held, "", nil
			}
			return nil, 0, "", errs.New(errs.ErrWorker, "lease file %s: cannot lock: %v", path, err)
		}
		// The name may have been unlinked or replaced between open and
		// lock: then this lock guards nothing; try the name again.
		if now, ok := s.statAt(name); !ok || now.Dev != st.Dev || now.Ino != st.Ino {
			closeLocked(f)
			continue
		}
		c := &claim{s: s, f: f, name: name, path: path, pair: p, dev: st.Dev, ino: st.Ino}
		var buf [recordLen + 1]byte // a longer file is no record
		n, err := f.ReadAt(buf[:], 0)
		switch {
		case n == 0 && (err == nil || errors.Is(err, io.EOF)):
			c.state = lease.Missing
		default:
			rec, ok := parseRecord(buf[:n])
			if !ok {
				closeLocked(f)
				return nil, badRecord, "", nil
			}
			c.rec, c.state = rec, lease.Present
		}
		return c, claimed, "", nil
	}
	return nil, 0, "", errs.New(errs.ErrWorker, "lease file %s keeps being replaced while idgen locks it", path)
}

// unusable says why what is at path cannot be a lease file, or "" when it
// is a regular file with one link (whoever owns it: another user's file is
// that user's pair, told apart by the caller).
func (s *Store) unusable(path string, st *syscall.Stat_t) string {
	kind := ""
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		if int(st.Uid) == s.euid && st.Nlink != 1 {
			return fmt.Sprintf("lease file %s has %d links (%s); idgen never writes a file linked elsewhere: remove it", path, st.Nlink, describe(st))
		}
		return ""
	case syscall.S_IFLNK:
		return fmt.Sprintf("lease file %s is a symlink (%s); idgen never follows one: remove it", path, describe(st))
	case syscall.S_IFIFO:
		kind = "a fifo"
	case syscall.S_IFDIR:
		kind = "a directory"
	case syscall.S_IFSOCK:
		kind = "a socket"
	case syscall.S_IFCHR:
		kind = "a character device"
	case syscall.S_IFBLK:
		kind = "a block device"
	default:
		kind = "not a regular file"
	}
	return fmt.Sprintf("lease file %s is %s, not a regular file (%s): remove it", path, kind, describe(st))
}

// markerName is the file that says a pool was used in this directory: a
// pair of it whose file is missing lost its record (Missing), where in a
// pool never used here it is new (Unmarked).
func markerName(pool string) string { return pool + ".pool" }

// mark makes the pool's marker (an empty file) if it is missing.
func (s *Store) mark(pool string) {
	fd, err := syscall.Openat(int(s.dir.Fd()), markerName(pool), syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o644)
	if err == nil {
		syscall.Close(fd)
	}
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

func (s *Store) describeAt(name string) string {
	st, ok := s.statAt(name)
	if !ok {
		return "gone"
	}
	return describe(&st)
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

// claim is one locked lease file.
type claim struct {
	s     *Store
	f     *os.File
	name  string
	path  string
	pair  lease.Pair
	dev   uint64
	ino   uint64
	rec   lease.Record
	state lease.State
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "lease file " + c.path }

func (c *claim) write(rec lease.Record) error {
	if c.f == nil {
		return lease.Gone("released")
	}
	b := formatRecord(rec)
	if _, err := c.f.WriteAt(b, 0); err != nil {
		return fmt.Errorf("cannot write the record: %v", unwrap(err))
	}
	return nil
}

// Renew writes the record, then checks that the file and the directory are
// still the ones locked: if either was removed or replaced, a successor may
// hold a new file of the same name, and the lease is gone.
func (c *claim) Renew(_ context.Context, rec lease.Record) error {
	if err := c.write(rec); err != nil {
		return err
	}
	if st, ok := c.s.statAt(c.name); !ok || st.Dev != c.dev || st.Ino != c.ino {
		return lease.Removed("the file was removed or replaced")
	}
	if !c.s.sameDir() {
		return lease.Removed("lease_dir %s was removed or replaced", c.s.path)
	}
	return nil
}

// Release writes the final record and unlocks. The file stays: its record
// outlives the holder.
func (c *claim) Release(_ context.Context, rec lease.Record) error {
	if c.f == nil {
		return nil
	}
	err := c.write(rec)
	c.drop()
	return err
}

// Abandon unlocks without writing.
func (c *claim) Abandon(context.Context) error {
	c.drop()
	return nil
}

// drop unlocks without writing.
func (c *claim) drop() {
	if c.f != nil {
		closeLocked(c.f) // the only descriptor: closing it drops the flock
		c.f = nil
	}
}

// LockHook is told of every lease file descriptor that may hold a flock
// (held true) before it is locked, and again (held false) before it is
// closed. A flock belongs to the open file, which a forked child shares: a
// child living on after its parent died would keep the pair locked. The C
// library sets a hook that closes the child's copies at fork (the parent
// keeps its lock); the default does nothing.
var LockHook = func(fd int, held bool) {}

// closeLocked closes a lease file that LockHook was told of: the hook
// first, so a child never closes a number the parent has since reused.
func closeLocked(f *os.File) {
	LockHook(int(f.Fd()), false)
	f.Close()
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
