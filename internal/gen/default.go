package gen

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// The process-wide default generator: built on first use from
// $IDGEN_CONFIG, or the defaults when that is unset or empty.
var defaultGen struct {
	mu sync.Mutex
	g  atomic.Pointer[Generator]
}

// Default returns the default generator, building it on first use. A
// failure is not remembered: the next call tries again.
func Default() (Generator, error) {
	if p := defaultGen.g.Load(); p != nil {
		return *p, nil
	}
	defaultGen.mu.Lock()
	defer defaultGen.mu.Unlock()
	if p := defaultGen.g.Load(); p != nil {
		return *p, nil
	}
	cfg := os.Getenv("IDGEN_CONFIG") // set but empty means unset: the defaults
	g, err := OpenString(cfg)
	if err != nil {
		if cfg != "" {
			return nil, errs.Wrap(err, "$IDGEN_CONFIG")
		}
		return nil, err
	}
	defaultGen.g.Store(&g)
	trackDefault(g)
	return g, nil
}

// Configure replaces the default generator. The new one is opened before
// the old one is closed, so leased worker ids never overlap; on error the
// old one stays. A replacement of the same id space and pair goes on above
// the old one's last id. "" means the defaults.
func Configure(s string) error {
	g, err := OpenString(s)
	if err != nil {
		return err
	}
	defaultGen.mu.Lock()
	defer defaultGen.mu.Unlock()
	old := defaultGen.g.Load()
	if old == nil {
		defaultGen.g.Store(&g)
		trackDefault(g)
		return nil
	}
	err = (*old).Close() // its state is final now
	Continue(g, *old)
	defaultGen.g.Store(&g)
	trackDefault(g)
	return err
}

// WithDefault runs f on the default generator. If a concurrent Configure
// closed the generator f got, f runs again on the new one: a swap never
// makes a call fail.
func WithDefault(f func(Generator) error) error {
	for {
		g, err := Default()
		if err != nil {
			return err
		}
		err = f(g)
		if errors.Is(err, errs.ErrClosed) {
			defaultGen.mu.Lock() // a Configure in progress swaps before it unlocks
			p := defaultGen.g.Load()
			defaultGen.mu.Unlock()
			if p != nil && *p != g {
				continue
			}
		}
		return err
	}
}

// stateful is a generator whose progress is one state word (the same
// encoding for every generator of one id space).
type stateful interface {
	stateWord() *atomic.Uint64
	space() string
	v(state uint64) int64
	tallied() *tally
}

// Continue moves g above everything prev (closed) issued when both issue
// in the same id space on the same pair (a fixed worker configured twice):
// a replacement never starts over.
func Continue(g, prev Generator) {
	if lease.Mutant() == "configure-restart" {
		return
	}
	a, ok1 := g.(stateful)
	b, ok2 := prev.(stateful)
	if !ok1 || !ok2 || a.space() == "" || a.space() != b.space() {
		return
	}
	last := b.stateWord().Load() &^ closedBit
	for w := a.stateWord(); ; {
		cur := w.Load()
		if cur&closedBit != 0 || cur >= last {
			return
		}
		if w.CompareAndSwap(cur, last) {
			a.tallied().moved(a.v(cur), a.v(last), 0) // it issued nothing by moving
			return
		}
	}
}

func (g *timeGen) stateWord() *atomic.Uint64 { return &g.state }
func (g *session) stateWord() *atomic.Uint64 { return &g.state }
func (g *zxidGen) stateWord() *atomic.Uint64 { return &g.state }

func (g *timeGen) tallied() *tally { return &g.issued }
func (g *session) tallied() *tally { return &g.issued }
func (g *zxidGen) tallied() *tally { return &g.issued }

// space names a generator's id space and fixed pair; "" for a leased one,
// whose pair no other live generator holds.
func (s *shape) space() string {
	if s.cfg.WorkerSrc.Leasing() {
		return ""
	}
	return fmt.Sprintf("%s %d/%d", poolOf(s.cfg).Name, s.cfg.DC, s.cfg.Worker)
}

// KeeperOf is the lease Keeper of g, or nil (the simulator steps it).
func KeeperOf(g Generator) *lease.Keeper {
	var m *leaser
	switch t := g.(type) {
	case *timeGen:
		m = t.lm
	case *cachedGen:
		m = t.lm
	case *session:
		m = t.lm
	case *zxidGen:
		m = t.lm
	}
	if m == nil {
		return nil
	}
	return m.k
}
