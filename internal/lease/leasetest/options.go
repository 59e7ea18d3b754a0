package leasetest

import (
	"testing"
	"time"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/segment"
)

// The contract cases of Suite and CounterSuite, by the names their
// subtests run under (and Broken's keys).
const (
	CaseFresh     = "fresh"      // no record: NewPool, then Fresh; the lowest free pair; a record at 0 is Present
	CaseFull      = "pool-full"  // a second taker of a held pool fails with the pool-full error
	CaseKeeps     = "keeps"      // a taker keeps its claim while it waits and while it renews; records round-trip
	CaseRelease   = "release"    // Release writes the record and frees the pair at once; the next taker reads it
	CaseStale     = "stale"      // a claim that lapsed and was taken over is refused its renewal
	CaseList      = "list"       // a listing takes, writes and creates nothing, and shows what was written
	CaseRace      = "race"       // racing takes from 8 stores: disjoint, contiguous from start
	CaseWentBack  = "went-back"  // a take whose mark is above a missing or lower counter is refused
	CaseGiveBack  = "give-back"  // a give-back lands only while the counter stands where the giver left it
	CaseNoCounter = "no-counter" // a missing counter reads not found, and a refused take or give-back creates none
	CasePeriods   = "periods"    // counters of periods of the store's clock (reset=): none handed out past its period's end, each begins at start
)

// Opener opens a lease store for Suite. Every call within one test opens
// another handle (connection, session, client) on the same backing
// store, as a second process would; the opener closes it at the test's
// cleanup (the suite never does).
type Opener func(t *testing.T, ttl time.Duration) lease.Store

// CounterOpener opens a segment.Store on the same terms.
type CounterOpener func(t *testing.T) segment.Store

// Options says how a store differs from the others by design, and which
// contract cases it is known to fail. The zero value fits a durable store
// whose claims expire lease_ttl after their last renewal (PostgreSQL,
// MySQL, Redis, etcd).
type Options struct {
	// TTL is the lease_ttl the suite opens stores with (0: 1 s).
	TTL time.Duration
	// NewPool is the state a taker reads for a pair without a record in a
	// pool never used in the store: lease.Fresh (the zero value) where
	// the store is durable; lease.Unmarked for the host directory, which
	// cannot tell a new directory from one wiped whole. A pair without a
	// record in a pool in use is Fresh in every store.
	NewPool lease.State
	// Lose makes claim c of pool, taken through store s, lapse while its
	// holder still thinks it holds it (a session cut off, a record
	// removed); nil: the suite stops renewing it after one renewal and
	// lets it expire.
	Lose func(t *testing.T, s lease.Store, pool lease.Pool, c lease.Claim)
	// LoseRemoves says Lose removes the claim's record (the host
	// directory, whose flock lasts as long as its process: only a removed
	// file frees a live holder's pair). The next taker then finds the
	// record Missing, and the stale holder is refused with
	// lease.ErrRemoved; otherwise the taker finds the lost holder's last
	// record and the stale holder is refused with lease.ErrGone.
	LoseRemoves bool
	// TakeOverWithin bounds how long a second taker retries a pool full
	// with a lapsed claim (0: 4·TTL + 10 s).
	TakeOverWithin time.Duration
	// NotLister says why the store is no lease.Lister; "" : it must be one.
	NotLister string
	// Broken marks contract cases (by name: CaseFresh …) the store is
	// known to fail, each with the failure. A broken case still runs and
	// must still fail: the test fails once it passes, so that the mark is
	// removed with the bug.
	Broken map[string]string
}

func (o Options) ttl() time.Duration {
	if o.TTL > 0 {
		return o.TTL
	}
	return time.Second
}

func (o Options) takeOverWithin() time.Duration {
	if o.TakeOverWithin > 0 {
		return o.TakeOverWithin
	}
	return 4*o.ttl() + 10*time.Second
}

// periodLen is the length of the periods casePeriods runs (the test hook
// numbers.Fixed in place of days), unless CounterOptions.Period says.
const periodLen = 2 * time.Second

// CounterOptions is Options for CounterSuite.
type CounterOptions struct {
	// Broken is Options.Broken, for the counter cases.
	Broken map[string]string
	// Period is the length of CasePeriods' periods (0: 2 s).
	Period time.Duration
}

func (o CounterOptions) period() time.Duration {
	if o.Period > 0 {
		return o.Period
	}
	return periodLen
}
