package gen

// Opening the generator of a text preset.

import "github.com/idgen/idgen/internal/config"

// newText opens the generator of a text preset, of sh's configuration
// and clock.
func newText(sh *shape) (Generator, error) {
	switch sh.cfg.Scheme {
	case config.SchemeUUIDv7:
		return newUUIDv7(sh), nil
	case config.SchemeULID:
		return newULID(sh), nil
	}
	g, err := newRocket(sh)
	if err != nil {
		return nil, err
	}
	return g, nil
}
