package gen

// Opening the generator of a text preset.

import "github.com/idgen/idgen/internal/config"

// newText opens the generator of a text preset, of sh's configuration
// and clock.
func newText(sh *shape) (Generator, error) {
	c, clk, ownClock := sh.cfg, sh.clock, sh.ownClock
	switch c.Scheme {
	case config.SchemeUUIDv7:
		return newUUIDv7(c, clk, ownClock), nil
	case config.SchemeULID:
		return newULID(c, clk, ownClock), nil
	}
	g, err := newRocket(c, clk, ownClock)
	if err != nil {
		return nil, err
	}
	return g, nil
}
