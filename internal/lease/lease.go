// Package lease is idgen's lease protocol: a generator holds a (datacenter,
// worker) pair of its pool that no other live generator of the pool holds,
// and a fence, the highest value it may issue. The same protocol serves the
// host directory (dirstore), ZooKeeper (zkstore) and PostgreSQL (pgstore),
// behind the Store interface.
//
//   - Every pair has a record that outlives its holders: IssuedUpTo, in the
//     generator's own terms (a tick, a session counter, a zxid epoch).
//   - A Holder renews its claim every ttl/3 off the hot path, writing a new
//     fence; the generator never issues above the last fence the store
//     acknowledged. When renewal fails, the fence stands still, so issuing
//     stops there; when the store says the claim is gone, or no renewal was
//     acknowledged for ttl (measured from before the renewal was sent), the
//     holder is lost.
//   - A taker reads its predecessor's record and never issues at or below
//     it; the generator decides how to wait (it knows its clock and units).
//   - A clean release writes the real last value.
package lease

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"
)

// Pool is one id space: every lease of one scheme, layout, unit and epoch.
// Two generators of one pool never hold the same pair, whichever of them
// fixed its datacenter.
type Pool struct {
	// Name identifies the pool in a store: [a-z0-9_.-] only.
	Name string
	// DCs and Workers are the sizes of the two fields (1 when the layout
	// lacks the field).
	DCs, Workers int64
}

// Size is the number of pairs in the pool.
func (p Pool) Size() int64 { return p.DCs * p.Workers }

// Pair is a (datacenter, worker) pair of a pool.
type Pair struct{ DC, Worker int64 }

func (p Pair) String() string { return fmt.Sprintf("%d/%d", p.DC, p.Worker) }

// Record is what a pair's holders leave for their successors.
type Record struct {
	// IssuedUpTo is at or above every value the holder issued (or may
	// still issue): the fence.
	IssuedUpTo int64
	// Backwards is the clock-rollback counter of layouts that have one.
	Backwards int64
	// Seq, when above 0, says only sequences below it were issued in value
	// IssuedUpTo (a clean release writes it), so a successor goes on in
	// that tick; 0: all of it may have been. Fences never carry one.
	Seq int64
	// Holder is a random number of the Keeper that wrote the record (0:
	// unknown). It only lets a Keeper recognise its own record when it
	// takes its pair again (two holders may write the same fence value);
	// no one issues lower because of it.
	Holder int64
}

// after reports whether position (v, seq) is at or beyond (w, wseq), a
// seq of 0 standing for a whole value.
func after(v, seq, w, wseq int64) bool {
	if v != w {
		return v > w
	}
	return seq == 0 || wseq != 0 && seq >= wseq
}

// State says what a taker found in a pair's record.
type State int

const (
	// Fresh: the pair never had a holder (ZooKeeper, PostgreSQL: the
	// record is made before the first id).
	Fresh State = iota
	// Present: Record is the predecessor's.
	Present
	// Missing: the record is gone though a holder may have lived (the host
	// directory, where a file can be deleted under a live holder). The
	// taker waits one ttl before it issues.
	Missing
	// Unmarked: no record, and no sign that the pool was ever used in this
	// store (the host directory's pool marker is missing too): a new
	// directory, or one wiped whole. A time generator waits as for Missing;
	// a counter layout, which cannot wait, starts as on a fresh pair.
	Unmarked
)

// Request is what a taker asks a store for.
type Request struct {
	Pool Pool
	// DC fixes the datacenter; -1 leases it with the worker.
	DC int64
	// First, when set, is tried before the others (a holder leasing its
	// own pair again).
	First *Pair
	// Limit, when positive, bounds how many pairs are tried (a preference
	// pass never scans a huge pool).
	Limit int64
	// Skip, when set, rejects a pair the store could grant by what its
	// record says (a taker preferring pairs whose record is behind its
	// clock).
	Skip func(Pair, Record, State) bool
	// TTL is how long the claim outlives its last renewal.
	TTL time.Duration
	// Reach is how far ahead of its clock the taker's fences run
	// (max_outage, + max_drift when borrowing; 0 without a time): a
	// PoolReacher records it before the taker's first record.
	Reach time.Duration
}

// Count is how many pairs the request may take.
func (r Request) Count() int64 {
	n := r.Pool.Size()
	if r.DC >= 0 {
		n = r.Pool.Workers
	}
	if r.Limit > 0 {
		n = min(n, r.Limit)
	}
	return n
}

// Candidates yields the pairs a request may take, First first, then the
// others lowest first, lazily: a pool of 2^40 pairs costs no memory.
func (r Request) Candidates() iter.Seq2[int64, Pair] {
	return func(yield func(int64, Pair) bool) {
		lo, hi := int64(0), r.Pool.DCs-1
		if r.DC >= 0 {
			lo, hi = r.DC, r.DC
		}
		n, limit := int64(0), r.Count()
		if f := r.First; f != nil && f.DC >= lo && f.DC <= hi && f.Worker >= 0 && f.Worker < r.Pool.Workers {
			if !yield(n, *f) {
				return
			}
			n++
		}
		for dc := lo; dc <= hi; dc++ {
			for w := int64(0); w < r.Pool.Workers; w++ {
				p := Pair{dc, w}
				if r.First != nil && p == *r.First {
					continue
				}
				if n >= limit || !yield(n, p) {
					return
				}
				n++
			}
		}
	}
}

// Skips reports whether the request rejects a pair the store could grant.
func (r Request) Skips(p Pair, rec Record, st State) bool {
	return r.Skip != nil && r.Skip(p, rec, st)
}

// Store is a place leases are kept.
type Store interface {
	// Acquire claims a free pair for req, lowest first. It fails with
	// errs.ErrWorker when every pair is held (naming the pool's size) or the
	// store cannot be reached (naming it, never a password).
	Acquire(ctx context.Context, req Request) (Claim, error)
	// Close drops the store's connection; claims are released first.
	Close() error
}

// Clocked is a Store with a clock of its own (PostgreSQL now(), MySQL
// NOW(6), Redis TIME, ZooKeeper's node times, etcd has none): StoreNow reads
// it, and the holder's clock minus it is the skew the stats report and
// max_skew checks. Skew never affects uniqueness.
type Clocked interface {
	StoreNow(ctx context.Context) (time.Time, error)
}

// Claim is one held pair.
type Claim interface {
	Pair() Pair
	// Predecessor is the record found when the pair was taken.
	Predecessor() (Record, State)
	// Renew writes rec as the pair's record and confirms the claim is still
	// held. An error wrapping ErrGone means the claim is lost for good;
	// other errors may pass (the caller retries until its deadline).
	Renew(ctx context.Context, rec Record) error
	// Release writes rec and gives the pair up at once.
	Release(ctx context.Context, rec Record) error
	// Abandon gives the pair up without writing: the taker issued nothing
	// (it failed to open), so the predecessor's record stands.
	Abandon(ctx context.Context) error
	// Where names the claim for messages ("lease file /var/tmp/idgen/…",
	// "znode /idgen/…").
	Where() string
}

// ErrGone marks a claim the store no longer grants: the file was replaced,
// the session expired, the row went to another holder.
var ErrGone = errors.New("the lease is gone")

// ErrRemoved marks a claim whose record itself was removed or replaced (a
// lease file deleted, a lease directory moved away): its holder stops at
// once. Other losses (a session or a row that expired) leave the record
// the holder's last fence, which no taker issues at or below, so the
// holder rides on to that fence while it leases again.
var ErrRemoved = fmt.Errorf("%w: its record was removed", ErrGone)

// Removed is an error wrapping ErrRemoved (and so ErrGone) with a reason.
func Removed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRemoved, fmt.Sprintf(format, args...))
}

// Gone is an error wrapping ErrGone with a reason.
func Gone(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrGone, fmt.Sprintf(format, args...))
}

// PoolName builds a pool name from its parts, keeping only characters every
// store accepts.
func PoolName(parts ...string) string {
	s := strings.Join(parts, "_")
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
}
