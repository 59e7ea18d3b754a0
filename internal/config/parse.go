package config

// Parse: the pairs of a string read through the key table.

import (
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// Parse parses a configuration string; "" means the defaults
// (preset=snowflake, worker=lease). Every error wraps errs.ErrInvalid and
// names the key. Worker and datacenter sources (pid, mac, leases) are
// resolved when a generator opens, not here.
func Parse(s string) (*Spec, error) {
	given, err := pairs(s)
	if err != nil {
		return nil, err
	}
	d, err := start(given)
	if err != nil {
		return nil, err
	}
	if err := d.refuseForeign(); err != nil {
		return nil, err
	}
	for i := range keys {
		if k := &keys[i]; k.takes(d.Spec) {
			if err := d.read(k); err != nil {
				return nil, err
			}
		}
	}
	return d.Spec, nil
}

// pairs splits s and refuses unknown and repeated keys.
func pairs(s string) (map[string]string, error) {
	split, err := split(s)
	if err != nil {
		return nil, err
	}
	given := map[string]string{}
	for _, p := range split {
		if !contains(keyNames, p[0]) {
			return nil, errs.Key(p[0], "unknown key (known: %s)", strings.Join(keyNames, ", "))
		}
		if _, dup := given[p[0]]; dup {
			return nil, errs.Key(p[0], "given more than once")
		}
		given[p[0]] = p[1]
	}
	return given, nil
}

// start reads preset=: the scheme, and the defaults the preset gives its
// keys.
func start(given map[string]string) (*draft, error) {
	name, ok := given["preset"]
	if !ok {
		name = "snowflake"
	}
	p, ok := presets[name]
	if !ok {
		return nil, errs.Key("preset", "unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
	}
	c := &Spec{Preset: name, Scheme: p.scheme, Unit: p.unit, EpochMs: p.epochMs, OnClockBack: p.back, SeqRandom: p.random, Cached: p.cached}
	if p.scheme.IsText() {
		c.TextKeys = TextKeys{PID: -1, LoaderHash: -1} // auto, random
	}
	return &draft{Spec: c, given: given}, nil
}

// read reads key k: its value if given (when it applies here), else its
// default.
func (d *draft) read(k *key) error {
	v, ok := d.given[k.name]
	switch {
	case !ok && k.def != nil:
		return k.def(d)
	case !ok:
		return nil
	case k.when != nil:
		if why := k.when(d); why != "" {
			return errs.Key(k.name, "%s", why)
		}
	}
	if k.parse == nil {
		return nil
	}
	return k.parse(d, v)
}

// refuseForeign refuses, in the table's order, a given key that no row
// for this preset takes.
func (d *draft) refuseForeign() error {
	for _, name := range keyNames {
		if _, ok := d.given[name]; ok && !d.takes(name) {
			return d.refusal(name)
		}
	}
	return nil
}

// takes reports whether a row of name applies to this preset.
func (d *draft) takes(name string) bool {
	for i := range keys {
		if keys[i].name == name && keys[i].takes(d.Spec) {
			return true
		}
	}
	return false
}
