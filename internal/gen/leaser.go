package gen

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/pgstore"
	"github.com/idgen/idgen/internal/lease/zkstore"
)

// holding is one held pair as a generator uses it: the holder (fence,
// renewal) and the id bits of the pair. A generator swaps its holding as a
// whole when it leases again after a loss.
type holding struct {
	h     *lease.Holder
	pair  lease.Pair
	fixed int64 // the pair's bits in an id
}

// current is the holding a generator issues under and the pair bits its
// ids carry: fixed without a lease (m is nil then).
func (m *leaser) current(fixed int64) (*holding, int64) {
	if m == nil {
		return nil, fixed
	}
	h := m.hold.Load()
	return h, h.fixed
}

// fence makes h's fence cover v before an id at v is issued (one compare
// while it does; a lost holder's fence is below every value). A failure
// of a generator that is closing is ErrClosed, never "lease lost".
func fence(h *holding, v int64, state *atomic.Uint64) error {
	if h == nil || v <= h.h.Fence() {
		return nil
	}
	if err := h.h.Extend(v); err != nil {
		if state.Load()&closedBit != 0 {
			return errClosed
		}
		return err
	}
	return nil
}

// leaser is the lease side of a generator: the store, the request, the
// current holding and the watcher that leases again after a loss.
type leaser struct {
	spec  *config.Spec
	store lease.Store
	req   lease.Request
	ttl   time.Duration
	first lease.Claim // the claim Open took, until the generator holds it

	hold   atomic.Pointer[holding]
	closed chan struct{}
	done   chan struct{}
	once   sync.Once
}

// poolOf names the pool of a layout, unit and epoch: every generator of it
// leases from the same pairs, whichever fixed its datacenter.
func poolOf(c *config.Spec) lease.Pool {
	lay := strings.NewReplacer(":", "", ",", "-").Replace(c.Layout.String())
	name := lease.PoolName(c.Scheme.String(), lay)
	if c.Scheme != config.SchemeZxid {
		name = lease.PoolName(c.Scheme.String(), lay, config.FormatUnit(c.Unit), strconv.FormatInt(c.EpochMs, 10))
	}
	p := lease.Pool{Name: name, DCs: 1, Workers: 1}
	if f, ok := c.Layout.Field(layout.FieldDatacenter); ok {
		p.DCs = f.Max() + 1
	}
	if f, ok := c.Layout.Field(layout.FieldWorker); ok {
		p.Workers = f.Max() + 1
	}
	return p
}

// openStore opens the store a lease source names.
func openStore(c *config.Spec) (lease.Store, error) {
	switch c.WorkerSrc {
	case config.SourceLease:
		if c.LeaseDir != "" {
			return dirstore.Open(c.LeaseDir, true)
		}
		return dirstore.Open(config.DefaultLeaseDir, false)
	case config.SourceZK:
		return zkstore.Open(c.Store, c.LeaseTTL)
	case config.SourcePG:
		return pgstore.Open(c.Store, c.LeaseTable, c.LeaseTTL)
	}
	return nil, errs.Key("worker", "%s is not available in this version", c.Store.Redacted())
}

// newLeaser opens the store and claims a pair, writing it into c (DC,
// Worker, Leased). The generator then takes the claim over with its own
// clock and units.
func newLeaser(c *config.Spec, store lease.Store) (*leaser, error) {
	if store == nil {
		var err error
		if store, err = openStore(c); err != nil {
			return nil, err
		}
	}
	m := &leaser{spec: c, store: store, ttl: c.LeaseTTL, closed: make(chan struct{}), done: make(chan struct{})}
	m.req = lease.Request{Pool: poolOf(c), DC: -1, TTL: c.LeaseTTL}
	if c.DCSrc == config.SourceValue {
		m.req.DC = c.DC
	}
	claim, err := m.acquire(m.req)
	if err != nil {
		store.Close()
		return nil, err
	}
	m.first = claim
	m.setPair(claim.Pair())
	return m, nil
}

func (m *leaser) acquire(req lease.Request) (lease.Claim, error) {
	ctx, cancel := context.WithTimeout(context.Background(), m.ttl+5*time.Second)
	defer cancel()
	return m.store.Acquire(ctx, req)
}

// setPair records the held pair in the resolved configuration.
func (m *leaser) setPair(p lease.Pair) {
	m.spec.DC, m.spec.Worker = p.DC, p.Worker
	m.spec.Leased = p.String()
}

// abort gives up the first claim of a generator that failed to open.
func (m *leaser) abort() {
	if m.first != nil {
		ctx, cancel := context.WithTimeout(context.Background(), m.ttl)
		_ = m.first.Abandon(ctx)
		cancel()
	}
	m.store.Close()
}

// start publishes the first holding and watches it: when it is lost (not
// released), the watcher leases again every ttl/3, takes the new claim over
// with take, and publishes the new holding.
func (m *leaser) start(h *holding, take func(lease.Claim) (*holding, error), skip func(lease.Pair, lease.Record) bool) {
	m.first = nil
	m.hold.Store(h)
	go func() {
		defer close(m.done)
		for {
			cur := m.hold.Load()
			select {
			case <-m.closed:
				return
			case <-cur.h.Gone():
			}
			for {
				select {
				case <-m.closed:
					return
				case <-time.After(m.ttl / 3):
				}
				req := m.req
				req.Skip = skip
				c, err := m.acquire(req)
				if err != nil {
					continue
				}
				nh, err := take(c)
				if err != nil {
					ctx, cancel := context.WithTimeout(context.Background(), m.ttl)
					_ = c.Abandon(ctx)
					cancel()
					continue
				}
				_ = cur.h.Release(cur.h.Acked()) // the lost claim: the store refuses it if taken
				m.setPairLocked(nh.pair)
				m.hold.Store(nh)
				break
			}
		}
	}()
}

// setPairLocked is setPair for a running generator: its configuration
// string is rebuilt by the generator from cfgMu.
func (m *leaser) setPairLocked(p lease.Pair) {
	cfgMu.Lock()
	m.setPair(p)
	cfgMu.Unlock()
}

// cfgMu guards the resolved configurations of running generators, which
// change when a generator leases again.
var cfgMu sync.Mutex

// close stops the watcher, then releases the current holding, writing the
// real last value.
func (m *leaser) close(last int64) error {
	var err error
	m.once.Do(func() {
		close(m.closed)
		<-m.done
		if h := m.hold.Load(); h != nil {
			err = h.h.Release(last)
		}
		m.store.Close()
	})
	return err
}

// config is the generator's configuration string now.
func (m *leaser) config() string {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	return m.spec.String()
}

// fmtTime prints a time given in ms since 1970 as RFC 3339, or says it is
// out of range; it never overflows.
func fmtTime(ms int64) string {
	const maxMs = 253402300799999 // 9999-12-31T23:59:59.999Z
	if ms < 0 || ms > maxMs {
		return fmt.Sprintf("%d ms since 1970 (beyond year 9999)", ms)
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}
