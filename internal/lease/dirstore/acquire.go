package dirstore

// Taking a pair: the lowest whose file this process can lock, the others
// counted by why they could not be taken.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// Acquire takes the lowest pair whose file it can lock (lease.Scan),
// skipping pairs held by live processes, pairs whose files belong to
// other users and records that fail their checksum.
func (s *Store) Acquire(_ context.Context, req lease.Request) (lease.Claim, error) {
	if err := s.refresh(); err != nil {
		return nil, err
	}
	m := s.readMarker(req.Pool.Name)
	try := func(p lease.Pair) (lease.Claim, lease.Missed, error) {
		// A pair without a file has no record (lost, or never had one: the
		// marker says): a request that skips it must not create its file.
		c, out, why, err := s.claim(req.Pool.Name, p, !req.Skips(p, lease.Record{}, m.absent(p)))
		if err != nil || out != claimed {
			return nil, missed(out, why, s.path+"/"+FileName(req.Pool.Name, p)), err
		}
		if c.state == lease.Missing {
			c.state = m.absent(p)
		}
		c.pool, c.notes, c.until = req.Pool.Name, notes(m, p, req), m.until
		return c, lease.Missed{}, nil
	}
	giveBack := func(lc lease.Claim) (string, error) {
		c := lc.(*claim)
		c.drop()
		return s.path + "/" + FileName(c.pool, c.pair), nil
	}
	c, err := lease.Scan(req, try, giveBack, func(t lease.Tally) error { return poolFull(req, s.path, t) })
	if err == nil {
		s.mark(req.Pool.Name)
	}
	return c, err
}

// The host directory's own kinds of missed pairs, beside lease.Held and
// lease.Skipped.
const (
	missedForeign  = "foreign"  // another user's file
	missedUnusable = "unusable" // a name that is not a usable lease file
	missedBad      = "bad"      // a record that fails its checksum
)

// missed is the tally's entry for a pair claim did not take (path: its
// file; why: what a notAFile name is).
func missed(out outcome, why, path string) lease.Missed {
	switch out {
	case held:
		return lease.Missed{Kind: lease.Held}
	case absent:
		return lease.Missed{Kind: lease.Skipped, Note: path}
	case othersFile:
		return lease.Missed{Kind: missedForeign}
	case notAFile:
		return lease.Missed{Kind: missedUnusable, Note: why}
	}
	return lease.Missed{Kind: missedBad, Note: path}
}

// poolFull is the pool-full error, with the counts that are not 0.
func poolFull(req lease.Request, dir string, t lease.Tally) error {
	msg := fmt.Sprintf("in lease_dir %s: %d held by live processes", dir, t.Count(lease.Held))
	if n := t.Count(missedForeign); n > 0 {
		msg += fmt.Sprintf(", %d by other users' files", n)
	}
	if n := t.Count(missedUnusable); n > 0 {
		msg += fmt.Sprintf(", %d by names that are not usable lease files (first: %s)", n, t.First(missedUnusable))
	}
	if n := t.Count(lease.Skipped); n > 0 {
		msg += fmt.Sprintf(", %d with records ahead of the clock or missing (first: %s)", n, t.First(lease.Skipped))
	}
	if n := t.Count(missedBad); n > 0 {
		msg += fmt.Sprintf(", %d with records that fail their checksum (first: %s; remove such a file once no process uses the pair)", n, t.First(missedBad))
	}
	return lease.PoolFull(req, "%s", msg)
}

// claim tries one pair's file (creating it when create is set). A name
// that is not a usable lease file (notAFile) comes with a sentence saying
// what it is.
func (s *Store) claim(pool string, p lease.Pair, create bool) (*claim, outcome, string, error) {
	name := FileName(pool, p)
	path := s.path + "/" + name
	for try := 0; try < 3; try++ {
		f, st, out, why, err := s.openFile(name, "lease file", create, 0o644)
		switch {
		case errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM):
			return nil, 0, "", errs.New(errs.ErrWorker, "lease_dir %s (%s): cannot create or open %s: permission denied", s.path, s.owner, name)
		case err != nil:
			return nil, 0, "", errs.New(errs.ErrWorker, "lease file %s: %v", path, err)
		case out != claimed:
			return nil, out, why, nil
		}
		c, out, err := s.lockFile(f, &st, name, p)
		if err != nil || c != nil || out != claimed {
			return c, out, "", err
		}
		// The name was unlinked or replaced meanwhile: try it again.
	}
	return nil, 0, "", errs.New(errs.ErrWorker, "lease file %s keeps being replaced while idgen locks it", path)
}

// lockFile locks an open lease file f (name, stat st) and reads its
// record: a claim; held when another process has the lock; badRecord; or
// no claim but claimed when the name was unlinked or replaced between open
// and lock (this lock guards nothing: the caller tries the name again).
func (s *Store) lockFile(f *os.File, st *syscall.Stat_t, name string, p lease.Pair) (*claim, outcome, error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		closeLocked(f)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, held, nil
		}
		return nil, 0, errs.New(errs.ErrWorker, "lease file %s: cannot lock: %v", f.Name(), err)
	}
	if now, ok := s.statAt(name); !ok || now.Dev != st.Dev || now.Ino != st.Ino {
		closeLocked(f)
		return nil, claimed, nil
	}
	c := &claim{s: s, f: f, name: name, path: f.Name(), pair: p, dev: st.Dev, ino: st.Ino}
	var buf [recordLen + 1]byte // a longer file is no record
	n, err := f.ReadAt(buf[:], 0)
	if n == 0 && (err == nil || errors.Is(err, io.EOF)) {
		c.state = lease.Missing
		return c, claimed, nil
	}
	rec, ok := parseRecord(buf[:n])
	if !ok {
		closeLocked(f)
		return nil, badRecord, nil
	}
	c.rec, c.state = rec, lease.Present
	return c, claimed, nil
}
