package gen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Lease is a host-local worker id: an exclusive flock on one file per id
// under lease_dir/<scope>/. The kernel drops the lock when the holder dies,
// so nothing stale is left by kill -9. The file records a value (a tick, a
// session counter or a zxid epoch) at or above everything the holder
// issued; the next holder starts above it.
//
// The record is kept ahead of the generator: the hot path only writes when
// it would pass the record, and a background flusher (every 250 ms) moves
// the record ahead while the generator is busy. Close writes the exact last
// value. Writes reach the page cache, which survives the process, not a
// power cut.
type Lease struct {
	f        *os.File
	path     string
	recorded int64

	mu    sync.Mutex
	limit atomic.Int64
	ahead int64
	last  func() int64
	stop  chan struct{}
	done  chan struct{}
	err   error // a failed write: the lease is lost
}

// leaseFileLen is the fixed length of the record, so it is rewritten in place.
const leaseFileLen = 21

// AcquireLease takes the lowest free id for c and writes it into c.Worker
// (and c.DC, when the layout has a datacenter and none was given).
func AcquireLease(c *Config) (*Lease, error) {
	dir := c.LeaseDir
	if dir == "" {
		dir = DefaultLeaseDir()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, errorf(ErrWorker, "lease_dir %s: %v", dir, unwrapPath(err))
		}
	}
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return nil, errorf(ErrWorker, "lease_dir %s: %v", dir, unwrapPath(err))
	case !st.IsDir():
		return nil, errorf(ErrWorker, "lease_dir %s: not a directory", dir)
	}
	resolveMAC(c) // a datacenter given (as a number or mac) scopes the lease
	wbits, dbits := uint(0), uint(0)
	if f, ok := c.Layout.Field(FieldWorker); ok {
		wbits = f.Width
		if f.Max() < int64(1)<<f.Width-1 {
			wbits = uint(len(strconv.FormatInt(f.Max(), 2)))
		}
	}
	withDC := c.Layout.Has(FieldDatacenter) && c.DCSrc == SourceUnset
	if withDC {
		f, _ := c.Layout.Field(FieldDatacenter)
		dbits = f.Width
	}
	scope := leaseScope(c, withDC)
	sub := filepath.Join(dir, scope)
	if err := os.Mkdir(sub, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, errorf(ErrWorker, "lease_dir %s: cannot create %s: %v", dir, scope, unwrapPath(err))
	}
	n := int64(1) << (wbits + dbits)
	for slot := int64(0); slot < n; slot++ {
		path := filepath.Join(sub, strconv.FormatInt(slot, 10)+".lease")
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, errorf(ErrWorker, "lease_dir %s: cannot open %s: %v", dir, path, unwrapPath(err))
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				continue
			}
			return nil, errorf(ErrWorker, "lease_dir %s: cannot lock %s: %v", dir, path, err)
		}
		l := &Lease{f: f, path: path, recorded: readRecord(f)}
		l.limit.Store(l.recorded)
		c.Worker = slot & (int64(1)<<wbits - 1)
		if withDC {
			c.DC = slot >> wbits
		}
		c.WorkerSrc, c.DCSrc = SourceValue, SourceValue
		return l, nil
	}
	return nil, errorf(ErrWorker, "all %d worker ids of layout %s are held by live processes (lease_dir %s)", n, c.Layout, dir)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// leaseScope names the directory of one id space: scheme, layout, unit and
// epoch, and the datacenter when it was given rather than leased.
func leaseScope(c *Config, withDC bool) string {
	r := strings.NewReplacer(":", "", ",", "-")
	s := fmt.Sprintf("%s_%s", []string{"time", "session", "zxid"}[c.Scheme], r.Replace(c.Layout.String()))
	if c.Scheme != SchemeZxid {
		s += fmt.Sprintf("_%s_%d", formatUnit(c.Unit), c.EpochMs)
	}
	if c.Layout.Has(FieldDatacenter) && !withDC {
		s += fmt.Sprintf("_dc%d", c.DC)
	}
	return s
}

func readRecord(f *os.File) int64 {
	buf := make([]byte, 64)
	n, _ := f.ReadAt(buf, 0)
	v, err := strconv.ParseInt(strings.TrimSpace(string(buf[:n])), 10, 64)
	if err != nil {
		return -1
	}
	return v
}

// Path is the lease file.
func (l *Lease) Path() string { return l.path }

// Recorded is the value the previous holder left (-1 for a fresh lease).
func (l *Lease) Recorded() int64 { return l.recorded }

// Limit is the value the record currently covers.
func (l *Lease) Limit() int64 { return l.limit.Load() }

// Extend records v plus the lease's lead before a value above the limit is
// issued; an error means the lease can no longer be trusted.
func (l *Lease) Extend(v int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if v <= l.limit.Load() {
		return nil
	}
	return l.write(v + l.ahead)
}

func (l *Lease) write(v int64) error {
	if l.f == nil {
		return errorf(ErrWorker, "lease %s was released", l.path)
	}
	rec := fmt.Sprintf("%*d\n", leaseFileLen-1, v)
	if _, err := l.f.WriteAt([]byte(rec), 0); err != nil {
		l.err = errorf(ErrWorker, "lease %s lost: cannot record progress: %v", l.path, unwrapPath(err))
		return l.err
	}
	l.limit.Store(v)
	return nil
}

// Start begins the background flusher; last reports the generator's
// progress and ahead is how far the record is kept in front of it.
func (l *Lease) Start(last func() int64, ahead int64) {
	l.mu.Lock()
	l.last, l.ahead = last, ahead
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	l.mu.Unlock()
	go func() {
		defer close(l.done)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-t.C:
				if v := last(); v+l.ahead/2 >= l.Limit() {
					_ = l.Extend(v)
				}
			}
		}
	}()
}

// Release writes the final value and drops the lock. Releasing twice is
// harmless.
func (l *Lease) Release() error {
	if l.stop != nil {
		close(l.stop)
		<-l.done
		l.stop = nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	var err error
	if l.last != nil && l.err == nil {
		err = l.write(l.last())
	}
	l.f.Close() // closing the only descriptor drops the flock
	l.f = nil
	return err
}
