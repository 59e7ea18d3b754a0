package gen

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
)

// The process-wide default generator: built on first use from
// $IDGEN_CONFIG, or DefaultConfig when that is unset.
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
	cfg, ok := os.LookupEnv("IDGEN_CONFIG")
	if !ok {
		cfg = DefaultConfig
	}
	g, err := OpenString(cfg)
	if err != nil {
		if ok {
			return nil, errorf(errKind(err), "$IDGEN_CONFIG: %v", err)
		}
		return nil, err
	}
	defaultGen.g.Store(&g)
	return g, nil
}

// Configure replaces the default generator. The new one is opened before
// the old one is closed, so leased worker ids never overlap; on error the
// old one stays.
func Configure(s string) error {
	if s == "" {
		s = DefaultConfig
	}
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

// WithDefault runs f on the default generator, retrying once if a
// concurrent Configure closed the one it got.
func WithDefault(f func(Generator) error) error {
	for try := 0; ; try++ {
		g, err := Default()
		if err != nil {
			return err
		}
		err = f(g)
		if try == 0 && errors.Is(err, ErrClosed) {
			continue
		}
		return err
	}
}

func errKind(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ErrInvalid
}
