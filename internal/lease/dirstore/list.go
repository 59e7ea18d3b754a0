package dirstore

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// List reads a pool's lease files (idgen leases) without locking or
// writing any: a pair is held when a process holds its file's flock (as
// /proc/locks shows, which also names the holder's pid).
func (s *Store) List(_ context.Context, pool lease.Pool) ([]lease.Entry, error) {
	names, err := os.ReadDir(s.path)
	if err != nil {
		return nil, errs.New(errs.ErrWorker, "lease_dir %s: %v", s.path, unwrap(err))
	}
	locks := flocks()
	host, _ := os.Hostname()
	var out []lease.Entry
	for _, d := range names {
		rest, ok := strings.CutPrefix(d.Name(), pool.Name+".")
		if !ok {
			continue
		}
		p, ok := lease.ParsePair(strings.TrimSuffix(rest, ".lease"))
		if !ok || !strings.HasSuffix(rest, ".lease") {
			continue
		}
		e, ok := s.entry(d.Name(), p, locks, host)
		if ok {
			out = append(out, e)
		}
	}
	lease.SortEntries(out)
	return out, nil
}

// entry reads one lease file read-only; ok false for anything that is not
// a regular file.
func (s *Store) entry(name string, p lease.Pair, locks map[[2]uint64]int, host string) (lease.Entry, bool) {
	fd, err := syscall.Openat(int(s.dir.Fd()), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return lease.Entry{}, false
	}
	f := os.NewFile(uintptr(fd), s.path+"/"+name)
	defer f.Close() // our own open file: closing it drops no one's flock
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return lease.Entry{}, false
	}
	e := lease.Entry{Pair: p}
	var buf [recordLen + 1]byte
	if n, _ := f.ReadAt(buf[:], 0); n > 0 {
		e.Record, _ = parseRecord(buf[:n])
	}
	if pid, ok := locks[[2]uint64{uint64(st.Dev), st.Ino}]; ok {
		e.Held, e.Holder = true, host+":"+strconv.Itoa(pid)
	}
	return e, true
}

// flocks maps (device, inode) to the pid holding an exclusive flock on it.
func flocks() map[[2]uint64]int {
	out := map[[2]uint64]int{}
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" {
			continue // a waiter ("->") or another kind of lock
		}
		pid, err := strconv.Atoi(f[4])
		di := strings.Split(f[5], ":")
		if err != nil || len(di) != 3 {
			continue
		}
		major, err1 := strconv.ParseUint(di[0], 16, 32)
		minor, err2 := strconv.ParseUint(di[1], 16, 32)
		ino, err3 := strconv.ParseUint(di[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		out[[2]uint64{mkdev(major, minor), ino}] = pid
	}
	return out
}

// mkdev is Linux's makedev.
func mkdev(major, minor uint64) uint64 {
	return (major&0xfff)<<8 | (major&^0xfff)<<32 | minor&0xff | (minor&^0xff)<<12
}
