package dirstore

// The pool marker, <pool>.pool: it says that the pool was used in this
// directory and which of its pairs ever had a record, so that a pair
// whose file is missing is told apart:
//
//   - listed (or any pair, in a marker without the header: one an older
//     idgen made, empty): it had a record, which was lost (Missing);
//   - not listed in a marker with the header: it never had one (Fresh),
//     and is taken at once;
//   - no marker, or one that breaks the trust rules (another user's, a
//     symlink, writable by others, linked elsewhere): no sign the pool was
//     used here (Unmarked). A marker planted by someone else is ignored,
//     as a planted lease file is skipped, and never written: the caller
//     keeps its own, <pool>.pool.<uid>, instead (which can be planted too,
//     but only before the caller's first use; then its pairs are
//     Unmarked, as before any marker).
//
// The file is text, appended to:
//
//	idgen-pool 1\n            written once, by the process that made it
//	pair <dc>.<worker>\n      before the first record of that pair
//	reach <ms>\n              before the first record of a holder whose
//	                          fences run further ahead of its clock (max_outage
//	                          + max_drift) than any listed: a taker of a lost
//	                          record waits for the largest (lease.PoolReacher)
//
// A line is appended before the record it announces is written, so a
// record never exists (or is lost) without its pair listed.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/idgen/idgen/internal/lease"
)

const markerHeader = "idgen-pool 1\n"

// markerName is the pool's marker file.
func markerName(pool string) string { return pool + ".pool" }

// markerOf is the marker the caller reads and writes: the pool's, unless
// something it cannot trust is there, then the caller's own.
func (s *Store) markerOf(pool string) string {
	name := markerName(pool)
	fd, err := syscall.Openat(int(s.dir.Fd()), name, oPath|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return name // none yet: the pool's
	}
	defer syscall.Close(fd)
	if s.trustedMarker(fd) {
		return name
	}
	return name + "." + strconv.Itoa(s.euid)
}

// marker is what a pool's marker says.
type marker struct {
	found  bool // a trusted marker exists
	listed bool // it has the header: pairs names every pair that had a record
	pairs  map[lease.Pair]bool
	reach  time.Duration // the largest reach listed
	until  int64         // the latest until listed (unix ms): a holder's fences ran up to it
}

// absent is the state of a pair whose file is missing or empty.
func (m marker) absent(p lease.Pair) lease.State {
	switch {
	case !m.found:
		return lease.Unmarked
	case m.listed && !m.pairs[p]:
		return lease.Fresh
	}
	return lease.Missing
}

// markerFlags opens a marker without following a symlink or blocking on a
// FIFO.
const markerFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// trustedMarker reports whether an open marker may be believed: a regular
// file with one link, owned by the caller or root, that no one else may
// write.
func (s *Store) trustedMarker(fd int) bool {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Nlink != 1 {
		return false
	}
	return (int(st.Uid) == s.euid || st.Uid == 0) && st.Mode&0o022 == 0
}

// readMarker reads the pool's marker; an untrusted one is no marker.
func (s *Store) readMarker(pool string) marker {
	name := s.markerOf(pool)
	fd, err := syscall.Openat(int(s.dir.Fd()), name, syscall.O_RDONLY|markerFlags, 0)
	if err != nil {
		return marker{}
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if !s.trustedMarker(fd) {
		return marker{}
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<24))
	if err != nil {
		return marker{found: true} // unreadable: every missing record was lost
	}
	m := marker{found: true, listed: bytes.HasPrefix(b, []byte(markerHeader)), pairs: map[lease.Pair]bool{}}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "pair "); ok {
			if p, ok := lease.ParsePair(rest); ok {
				m.pairs[p] = true
			}
		}
		if rest, ok := strings.CutPrefix(line, "reach "); ok {
			if ms, err := strconv.ParseInt(rest, 10, 64); err == nil && ms > 0 {
				m.reach = max(m.reach, time.Duration(min(ms, math.MaxInt64/int64(time.Millisecond)))*time.Millisecond)
			}
		}
		if rest, ok := strings.CutPrefix(line, "until "); ok {
			if ms, err := strconv.ParseInt(rest, 10, 64); err == nil {
				m.until = max(m.until, ms)
			}
		}
	}
	return m
}

// mark makes the pool's marker, with its header, if it is missing.
func (s *Store) mark(pool string) {
	fd, err := syscall.Openat(int(s.dir.Fd()), s.markerOf(pool), syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_APPEND|markerFlags, 0o644)
	if err == nil {
		_, _ = syscall.Write(fd, []byte(markerHeader))
		syscall.Close(fd)
	}
}

// PoolReach implements lease.PoolReacher: the largest reach the pool's
// marker lists, or what is left of its latest until if that is more (0
// with no trusted marker).
func (s *Store) PoolReach(_ context.Context, pool lease.Pool) time.Duration {
	m := s.readMarker(pool.Name)
	if left := m.until - time.Now().UnixMilli(); left > 0 && left < math.MaxInt64/int64(time.Millisecond) {
		return max(m.reach, time.Duration(left)*time.Millisecond)
	}
	return m.reach
}

// note appends what a claim's first write must announce (marker lines,
// each ending in a newline) to the pool's marker, made first if missing.
// A marker that is not trusted is left alone: its pairs are Unmarked to
// every reader anyway.
func (s *Store) note(pool string, lines string) error {
	s.mark(pool)
	name := s.markerOf(pool)
	fd, err := syscall.Openat(int(s.dir.Fd()), name, syscall.O_WRONLY|syscall.O_APPEND|markerFlags, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.EACCES) {
		return nil // a planted name: not ours to write
	}
	if errors.Is(err, syscall.ENOENT) {
		return nil // the directory was removed: the record's write finds it
	}
	if err != nil {
		return fmt.Errorf("cannot open the pool marker %s/%s: %v", s.path, name, err)
	}
	defer syscall.Close(fd)
	if !s.trustedMarker(fd) {
		return nil
	}
	if _, err := syscall.Write(fd, []byte(lines)); err != nil {
		return fmt.Errorf("cannot write %q to the pool marker %s/%s: %v", lines, s.path, name, err)
	}
	return nil
}

// notes is what a claim of pair p by req must add to marker m.
func notes(m marker, p lease.Pair, req lease.Request) string {
	out := ""
	if !m.pairs[p] {
		out += fmt.Sprintf("pair %d.%d\n", p.DC, p.Worker)
	}
	if req.Reach > m.reach {
		out += fmt.Sprintf("reach %d\n", (req.Reach+time.Millisecond-1)/time.Millisecond)
	}
	return out
}
