package config

// The key table as a tool reads it (idgen explain --keys): a line per
// row, from the same table Parse reads.

import "strings"

// KeyRow is one row of the key table: the key, the presets it applies to
// and its default in words. A key with a row for numeric presets and one
// for preset=segment (name, padding, max_wait, text, lease_dir,
// lease_table) has two, for disjoint presets.
type KeyRow struct {
	Name    string
	Applies []string // preset names, in Presets' order
	Default string
}

// KeyTable lists the table's rows in its order.
func KeyTable() []KeyRow {
	rows := make([]KeyRow, 0, len(keys))
	for i := range keys {
		k := &keys[i]
		rows = append(rows, KeyRow{Name: k.name, Applies: k.presets(), Default: k.dflt})
	}
	return rows
}

// presets are the presets a row applies to.
func (k *key) presets() []string {
	var names []string
	for _, p := range Presets() {
		if k.takes(&Spec{Preset: p, Scheme: presets[p].scheme}) {
			names = append(names, p)
		}
	}
	return names
}

// String is the row as idgen explain --keys prints it: name, the presets
// (comma-separated) and the default, separated by tabs.
func (r KeyRow) String() string {
	return r.Name + "\t" + strings.Join(r.Applies, ",") + "\t" + r.Default
}
