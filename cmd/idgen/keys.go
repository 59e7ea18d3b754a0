package main

// idgen explain --keys: the key table for tools, a row a line.

import (
	"bufio"

	"github.com/idgen/idgen/internal/config"
)

// explainKeys prints every row of the key table: its name, the presets it
// applies to (comma-separated) and its default in words, separated by
// tabs. A key with a row of its own for preset=segment has two lines.
func explainKeys(o *opts, w *bufio.Writer) error {
	if o.hasCfg || o.svg != "" || len(o.args) > 0 {
		return usageError{"explain --keys prints the whole table: it takes no -c, --svg or arguments"}
	}
	for _, r := range config.KeyTable() {
		w.WriteString(r.String() + "\n")
	}
	return nil
}
