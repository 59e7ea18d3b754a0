package dirstore

// Segment counters (preset=segment without store=): one file per counter,
// <name>.segment, in the lease directory, under the same trust rules as
// the lease files (opened relative to the checked directory, never through
// a symlink, a regular file with one link owned by the caller), mode 0600
// so that no other user can even hold its lock. A take locks the file
// with flock, reads the counter, writes the new one and syncs it before
// the values are handed out, then unlocks (by closing). A take that
// finds the file missing (deleted: systemd-tmpfiles aging /var/tmp, an
// operator) or below the taker's mark writes nothing (a missing file is
// left empty, which is missing to every taker): the live generator
// refuses it until it is restored (segment.Store); a process started
// since, which knows no mark, would begin it again at start=.

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// Counters is the host directory as a segment.Store: counters unique per
// host (and user).
type Counters struct{ s *Store }

// OpenCounters opens the lease directory (the rules of Open) for counters.
func OpenCounters(path string, explicit bool) (*Counters, error) {
	s, err := Open(path, explicit)
	if err != nil {
		return nil, err
	}
	return &Counters{s: s}, nil
}

// CounterFile is the file of a counter.
func CounterFile(name string) string { return name + ".segment" }

// Where names the directory.
func (c *Counters) Where() string { return "lease_dir " + c.s.path }

// Close closes the directory.
func (c *Counters) Close() error { return c.s.Close() }

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n, mark int64) (prev, last int64, err error) {
	err = c.update(ctx, name, func(v int64, found bool) (int64, error) {
		switch {
		case !found && mark > 0 || found && v < mark:
			return v, segment.WentBack(c.Where(), name, mark, v, found, "write the line `"+strings.TrimSpace(string(formatCounter(mark)))+"` to "+c.s.path+"/"+CounterFile(name)+", mode 0600, as the user that runs the generators")
		case !found:
			v = start - 1
		}
		prev = v
		last, err = segment.Advance(v, n)
		return last, err
	})
	return prev, last, err
}

// GiveBack implements segment.Store.
func (c *Counters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	gave := false
	err := c.update(ctx, name, func(v int64, found bool) (int64, error) {
		if !found || v != last {
			return v, errKeep
		}
		gave = true
		return to, nil
	})
	if errors.Is(err, errKeep) {
		return false, nil
	}
	return gave, err
}

var errKeep = errors.New("unchanged")

// update runs f on the counter under the file's lock and writes what it
// returns (nothing when it fails).
func (c *Counters) update(ctx context.Context, name string, f func(v int64, found bool) (int64, error)) error {
	if err := c.s.refresh(); err != nil {
		return err
	}
	file, err := c.lock(ctx, name)
	if err != nil {
		return err
	}
	defer closeLocked(file) // unlocks first: see forks.go
	path := file.Name()
	var buf [counterLen + 1]byte
	k, rerr := file.ReadAt(buf[:], 0)
	found := k > 0
	v, ok := parseCounter(buf[:k])
	switch {
	case rerr != nil && !errors.Is(rerr, io.EOF):
		return errs.New(errs.ErrWorker, "segment counter file %s: cannot read it: %v", path, unwrap(rerr))
	case found && !ok:
		return errs.New(errs.ErrWorker, "segment counter file %s does not hold a counter (torn, truncated or not idgen's); idgen never guesses a counter: restore it, or remove it to start again at start=", path)
	}
	nv, err := f(v, found)
	if err != nil {
		return err
	}
	if _, err := file.WriteAt(formatCounter(nv), 0); err != nil {
		return errs.New(errs.ErrWorker, "segment counter file %s: cannot write it: %v", path, unwrap(err))
	}
	if err := file.Sync(); err != nil {
		return errs.New(errs.ErrWorker, "segment counter file %s: cannot sync it: %v", path, unwrap(err))
	}
	return nil
}

// lock opens (creating) and locks a counter's file, within ctx.
func (c *Counters) lock(ctx context.Context, name string) (*os.File, error) {
	fname := CounterFile(name)
	path := c.s.path + "/" + fname
	for try := 0; try < 3; try++ {
		file, st, out, why, err := c.s.openFile(fname, "segment counter file", true, 0o600)
		switch {
		case err != nil:
			return nil, errs.New(errs.ErrWorker, "segment counter file %s: %v", path, err)
		case out == notAFile:
			return nil, errs.New(errs.ErrWorker, "%s", why)
		case out != claimed:
			return nil, c.foreign(path, &st)
		}
		if err := flockWithin(ctx, int(file.Fd())); err != nil {
			closeLocked(file)
			return nil, errs.New(errs.ErrWorker, "segment counter file %s: cannot lock it: %v", path, err)
		}
		// Unlinked or replaced between open and lock: lock the name again.
		if now, ok := c.s.statAt(fname); !ok || now.Dev != st.Dev || now.Ino != st.Ino {
			closeLocked(file)
			continue
		}
		return file, nil
	}
	return nil, errs.New(errs.ErrWorker, "segment counter file %s keeps being replaced while idgen locks it", path)
}

func (c *Counters) foreign(path string, st *syscall.Stat_t) error {
	return errs.New(errs.ErrWorker, "segment counter file %s belongs to another user (%s); idgen never writes it: use another name= or a lease_dir of your own", path, describe(st))
}

// flockWithin takes an exclusive flock, trying until ctx ends: a holder
// keeps it only while it updates the file.
func flockWithin(ctx context.Context, fd int) error {
	pause := 100 * time.Microsecond
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("held by another process past the deadline: %w", ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 10*time.Millisecond)
	}
}

// The counter file: fixed length, rewritten in place, with a CRC-32.
//
//	idgen-segment 1 <last: 20 digits> <crc32: 8 hex>\n
const counterLen = len("idgen-segment 1 ") + 20 + 1 + 8 + 1

func formatCounter(v int64) []byte {
	body := fmt.Sprintf("idgen-segment 1 %020d ", v)
	return []byte(fmt.Sprintf("%s%08x\n", body, crc32.ChecksumIEEE([]byte(body))))
}

func parseCounter(b []byte) (int64, bool) {
	if len(b) != counterLen || b[counterLen-1] != '\n' {
		return 0, false
	}
	body, sum := string(b[:counterLen-9]), string(b[counterLen-9:counterLen-1])
	if fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(body))) != sum {
		return 0, false
	}
	f := strings.Fields(body)
	if len(f) != 3 || f[0] != "idgen-segment" || f[1] != "1" {
		return 0, false
	}
	v, err := strconv.ParseInt(f[2], 10, 64)
	return v, err == nil && v >= 0
}

// Read implements segment.Store: the counter file as it stands, opened
// under the same trust checks, neither locked nor written.
func (c *Counters) Read(_ context.Context, name string) (int64, bool, error) {
	if err := c.s.refresh(); err != nil {
		return 0, false, err
	}
	fname := CounterFile(name)
	path := c.s.path + "/" + fname
	file, _, out, why, err := c.s.openFile(fname, "segment counter file", false, 0)
	switch {
	case err != nil:
		return 0, false, errs.New(errs.ErrWorker, "segment counter file %s: %v", path, err)
	case out == absent:
		return 0, false, nil
	case out == notAFile:
		return 0, false, errs.New(errs.ErrWorker, "%s", why)
	case file == nil:
		return 0, false, errs.New(errs.ErrWorker, "segment counter file %s belongs to another user", path)
	}
	defer closeLocked(file)
	var buf [counterLen + 1]byte
	k, rerr := file.ReadAt(buf[:], 0)
	if k == 0 && errors.Is(rerr, io.EOF) {
		return 0, false, nil // an empty file is a counter never begun, as Take reads it (a refused take leaves one)
	}
	v, ok := parseCounter(buf[:k])
	if rerr != nil && !errors.Is(rerr, io.EOF) || !ok {
		return 0, false, errs.New(errs.ErrWorker, "segment counter file %s does not hold a counter", path)
	}
	return v, true, nil
}
