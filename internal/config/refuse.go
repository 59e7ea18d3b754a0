package config

// Why a key does not apply to a preset, in the preset's terms.

import (
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// toldApart says how the ids of a text preset tell generators apart.
var toldApart = map[Scheme]string{SchemeRocketMQ: "IP, pid and class-loader hash", SchemeRocketV1: "MAC and pid", SchemeUUIDv7: "their random bits", SchemeULID: "their random bits"}

// refusal is the error for a given key no row for this preset takes.
func (d *draft) refusal(name string) error {
	switch s := d.Scheme; {
	case s == SchemeSegment:
		return errs.Key(name, "does not apply to preset segment (its keys: %s); a segment generator takes no worker id, lease or clock: its values come from the counter in its store", strings.Join(keysOf(s, "preset"), ", "))
	case s.IsText():
		own := "its keys: " + strings.Join(keysOf(s, "preset", "name"), ", ")
		if len(keysOf(s, "preset", "name")) == 0 {
			own = "it takes no key but preset and name"
		}
		return errs.Key(name, "does not apply to text preset %s (%s); it takes no worker id or lease: its ids are told apart by %s", d.Preset, own, toldApart[s])
	}
	var set schemes
	for _, k := range keys {
		if k.name == name && k.only != "" {
			return errs.Key(name, "%s", k.only)
		}
		if k.name == name {
			set |= k.on
		}
	}
	switch {
	case set&numeric == 0:
		return errs.Key(name, "applies only to the text presets (%s), not preset %s", textPresetKeys(), d.Preset)
	case d.Scheme == SchemeZxid:
		return errs.Key(name, "preset zxid has no time, sequence or datacenter field")
	}
	return errs.Key(name, "not used by preset %s (its ids count up from the time of opening)", d.Preset)
}

// keysOf lists the keys scheme s takes, in the table's order, but those
// left out.
func keysOf(s Scheme, leftOut ...string) []string {
	var names []string
	for _, k := range keys {
		if k.on.has(s) && !contains(leftOut, k.name) && !contains(names, k.name) {
			names = append(names, k.name)
		}
	}
	return names
}

// textPresetKeys is "rocketmq: ip, …; rocketmq-v1: …": the text presets'
// own keys.
func textPresetKeys() string {
	var parts []string
	for s := SchemeRocketMQ; s.IsText(); s++ {
		if own := keysOf(s, "preset", "name"); len(own) > 0 {
			parts = append(parts, s.String()+": "+strings.Join(own, ", "))
		}
	}
	return strings.Join(parts, "; ")
}
