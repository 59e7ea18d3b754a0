package segment

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// MemStore keeps counters in memory, for tests: the same semantics as the
// real stores, with a switch that makes it fail like a store that does not
// answer, and a hook that runs inside each take.
type MemStore struct {
	mu       sync.Mutex
	counters map[string]int64
	down     bool
	takes    int
	// OnTake, when set, runs (without the lock) before each take.
	OnTake func()
	// NoMarkCheck makes Take ignore the taker's mark, like a store that
	// does not check it (the Counter's backstop then refuses).
	NoMarkCheck bool
	// ClockMs, when set, is the store's clock (unix ms) StoreClock reads;
	// else the host's.
	ClockMs func() int64
}

// StoreClock implements Clock.
func (m *MemStore) StoreClock(context.Context) (int64, int64, error) {
	m.mu.Lock()
	down, now := m.down, m.ClockMs
	m.mu.Unlock()
	if down {
		return 0, 0, errs.New(errs.ErrWorker, "%s: down", m.Where())
	}
	if now == nil {
		now = func() int64 { return time.Now().UnixMilli() }
	}
	ms := now()
	return ms, ms + 1, nil
}

// NewMemStore is an empty store.
func NewMemStore() *MemStore { return &MemStore{counters: map[string]int64{}} }

// Take implements Store.
func (m *MemStore) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	if m.OnTake != nil {
		m.OnTake()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return 0, 0, errs.New(errs.ErrWorker, "%s: down", m.Where())
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	prev, ok := m.counters[name]
	switch {
	case (!ok && mark > 0 || ok && prev < mark) && !m.NoMarkCheck:
		return 0, 0, WentBack(m.Where(), name, mark, prev, ok, "MemStore.Set")
	case !ok:
		prev = start - 1
	}
	last, err := Advance(prev, n)
	if err != nil {
		return 0, 0, err
	}
	m.counters[name] = last
	m.takes++
	return prev, last, nil
}

// GiveBack implements Store.
func (m *MemStore) GiveBack(_ context.Context, name string, last, to int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return false, errs.New(errs.ErrWorker, "%s: down", m.Where())
	}
	if m.counters[name] != last {
		return false, nil
	}
	m.counters[name] = to
	return true, nil
}

// Where implements Store.
func (m *MemStore) Where() string { return "memory store" }

// Close implements Store.
func (m *MemStore) Close() error { return nil }

// Set sets a counter's last value.
func (m *MemStore) Set(name string, last int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counters[name] = last
}

// Delete removes a counter, as an operator or a store losing data would.
func (m *MemStore) Delete(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.counters, name)
}

// Get is a counter's last value.
func (m *MemStore) Get(name string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counters[name]
}

// Read implements Store.
func (m *MemStore) Read(_ context.Context, name string) (int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.counters[name]
	return v, ok, nil
}

// SetDown makes the store fail (true) or answer again (false).
func (m *MemStore) SetDown(down bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.down = down
}

// Takes is the number of successful takes.
func (m *MemStore) Takes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.takes
}

// Advance is the counter arithmetic every store shares: the new last value
// after taking n from prev, cut at INT64_MAX; errs.ErrTimeOverflow when
// prev already stands there.
func Advance(prev, n int64) (int64, error) {
	if prev == math.MaxInt64 {
		return 0, errs.New(errs.ErrTimeOverflow, "the counter is used up: it stands at INT64_MAX (%d) and never wraps", int64(math.MaxInt64))
	}
	if n > math.MaxInt64-prev {
		return math.MaxInt64, nil
	}
	return prev + n, nil
}
