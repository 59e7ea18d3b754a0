package gen

import (
	"errors"
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

// Built is the default generator if one was built; it builds none.
func Built() (Generator, bool) {
	if p := defaultGen.g.Load(); p != nil {
		return *p, true
	}
	return nil, false
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

// Continue moves g above everything prev (closed) issued when both issue
// in the same id space on the same pair (a fixed worker configured twice),
// and above the clock as prev opened (ids of the process before, which the
// clock had passed then): a replacement never starts over, nor follows a
// clock that stepped back since.
func Continue(g, prev Generator) {
	if lease.Mutant() == "configure-restart" {
		return
	}
	a, ok1 := g.(interface{ base() *core })
	b, ok2 := prev.(interface{ base() *core })
	if !ok1 || !ok2 || a.base().space() == "" || a.base().space() != b.base().space() {
		return
	}
	last := b.base().state.Load() &^ closedBit
	if c, ok := prev.(interface{ carried() uint64 }); ok {
		last = c.carried()
	}
	_ = a.base().jump(func(cur uint64) (uint64, error) { return max(cur, last), nil }) // it issues nothing by moving
}
