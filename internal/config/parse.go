package config

// Parse: the pairs of a string read through the key table.

import "github.com/idgen/idgen/internal/errs"

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
