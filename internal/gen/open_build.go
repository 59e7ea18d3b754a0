package gen

// Building the generator of a numeric scheme from its shape and lease.

import (
	"fmt"

	"github.com/idgen/idgen/internal/config"
)

// openFault, when set (tests), fails an open (an error or a panic) after
// the generator was built and its lease taken.
var openFault func(Generator) error

// build makes the generator of sh's scheme. A panic (a bug) becomes an
// error, so the open fails and gives back what it took rather than leak
// its lease; g is returned too when it was built, for the caller to close.
func build(sh *shape, lm *leaser) (g Generator, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error opening preset %s: %v", sh.cfg.Preset, r) // IDGEN_EINTERNAL
		}
	}()
	if g, err = construct(sh, lm); err == nil && openFault != nil {
		err = openFault(g)
	}
	return g, err
}

func construct(sh *shape, lm *leaser) (Generator, error) {
	// Each case returns a nil Generator on error, never a typed nil.
	switch sh.cfg.Scheme {
	case config.SchemeSession:
		g, err := newSession(sh, lm)
		if err != nil {
			return nil, err
		}
		return g, nil
	case config.SchemeZxid:
		g, err := newZxid(sh, lm)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
	tg, err := newTimeGen(sh, lm)
	if err != nil {
		return nil, err
	}
	if sh.cfg.Cached {
		return newCached(tg), nil
	}
	return tg, nil
}
