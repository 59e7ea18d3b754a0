// Package config parses idgen's configuration string into a typed Spec:
// the preset, the bit layout, the time unit and epoch, where the worker and
// datacenter ids come from, and the clock and lease policies. One table of
// keys (keys.go) says, for each key, where it applies, how it is read, its
// default and how it is printed. It knows no generator; every error wraps
// errs.ErrInvalid and names the key.
package config

import "strings"

// String prints the configuration in canonical form; Parse of the result
// gives the same configuration. Sources print as their names
// (worker=lease, worker=zk://…, the password left out).
func (c *Spec) String() string { return c.StringHeld(Held{}) }

// StringHeld is String of a running generator: the pairs it holds are
// shown (leased=D/W, switched=D/W) where the table puts them; Parse
// accepts them and opening ignores them.
func (c *Spec) StringHeld(h Held) string {
	var parts []string
	for i := range keys {
		k := &keys[i]
		if !k.takes(c) {
			continue
		}
		var v string
		shown := false
		if k.print != nil {
			v, shown = k.print(c)
		} else if k.held != nil && c.WorkerSrc.Leasing() {
			v = k.held(h)
			shown = v != ""
		}
		if shown {
			parts = append(parts, k.name+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// Unleased is the configuration with a fixed worker 0 in place of a lease
// or a derived worker (pid), and datacenter 0 in place of mac: the same
// layout, unit and epoch, for decoding and explaining without taking a
// lease.
func (c *Spec) Unleased() *Spec {
	u := *c
	if u.WorkerSrc.Leasing() || u.WorkerSrc == SourcePID || u.DCSrc == SourceMAC {
		u.WorkerSrc, u.Worker, u.Store = SourceValue, 0, nil
		if u.DCSrc == SourceMAC {
			u.DCSrc, u.DC = SourceValue, 0
		}
	}
	return &u
}
