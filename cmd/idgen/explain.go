package main

// idgen explain: the bit layout drawn, its limits, and an SVG of it (the
// wording is the library's: idgen.Explain, ExplainSVG, KeyTable).

import (
	"bufio"
	"fmt"
	"os"

	"github.com/idgen/idgen"
)

func cmdExplain(o *opts, w *bufio.Writer) error {
	if o.keys || o.fields {
		return explainKeys(o, w)
	}
	conf, err := o.conf()
	if err != nil {
		return err
	}
	text, err := idgen.Explain(conf)
	if err != nil {
		return err
	}
	if o.svg == "" {
		w.WriteString(text)
		return nil
	}
	svg, err := idgen.ExplainSVG(conf)
	if err != nil {
		return err
	}
	w.WriteString(text)
	if err := os.WriteFile(o.svg, []byte(svg), 0o644); err != nil {
		return fmt.Errorf("--svg: %w", err)
	}
	return nil
}

// explainKeys prints every row of the key table (--keys): its name, the
// presets it applies to (comma-separated) and its default in words,
// separated by tabs; a key with a row of its own for preset=segment has
// two lines. With --fields, the layout field names, one a line.
func explainKeys(o *opts, w *bufio.Writer) error {
	if o.hasCfg || o.svg != "" || len(o.args) > 0 || o.keys && o.fields {
		return usageError{"explain --keys and --fields print a whole table: they take no -c, --svg, arguments or each other"}
	}
	rows := idgen.KeyTable()
	if o.fields {
		rows = idgen.LayoutFields()
	}
	for _, l := range rows {
		w.WriteString(l + "\n")
	}
	return nil
}
