package gen

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen/internal/errs"
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
	return g, nil
}

// Configure replaces the default generator. The new one is opened before
// the old one is closed, so leased worker ids never overlap; on error the
// old one stays. "" means the defaults.
func Configure(s string) error {
	g, err := OpenString(s)
	if err != nil {
		return err
	}
	defaultGen.mu.Lock()
	old := defaultGen.g.Swap(&g)
	defaultGen.mu.Unlock()
	if old != nil {
		return (*old).Close()
	}
	return nil
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
			if p := defaultGen.g.Load(); p != nil && *p != g {
				continue
			}
		}
		return err
	}
}
