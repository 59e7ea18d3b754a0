package dirstore

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/idgen/idgen/internal/lease"
)

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
	// pool and notes: what the first write adds to the pool's marker
	// before the record (the pair, the taker's reach: marker.go).
	pool  string
	notes string
	until int64 // the latest until (unix ms) the marker lists or the notes announce
}

// AnnounceUntil implements lease.UntilAnnouncer: the first write
// announces now + d when the marker lists an earlier until.
func (c *claim) AnnounceUntil(d time.Duration) {
	u := time.Now().Add(d + time.Millisecond - 1).UnixMilli()
	if u > c.until && c.f != nil {
		c.notes += fmt.Sprintf("until %d\n", u)
		c.until = u
	}
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "lease file " + c.path }

// LockedToTheEnd implements lease.LockedToTheEnd: the flock lasts as long
// as the process; only a removed or replaced file (lease.ErrRemoved) lets
// another take the pair.
func (c *claim) LockedToTheEnd() bool { return true }

func (c *claim) write(rec lease.Record) error {
	if c.f == nil {
		return lease.Gone("released")
	}
	if c.notes != "" {
		if err := c.s.note(c.pool, c.notes); err != nil {
			return err
		}
		c.notes = ""
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
