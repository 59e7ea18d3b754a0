package main

// idgen format and idgen parse: ids as text in base 2..62, and back.

import (
	"bufio"
	"strconv"

	"github.com/idgen/idgen"
)

func cmdFormat(o *opts, w *bufio.Writer) error {
	return eachArg(o, w, "format needs ids", func(s string) (string, error) {
		id, err := parseID(s)
		if err != nil {
			return "", err
		}
		return idgen.Format(id, o.base, o.fixed)
	})
}

func cmdParse(o *opts, w *bufio.Writer) error {
	return eachArg(o, w, "parse needs text", func(s string) (string, error) {
		v, err := idgen.Parse(s, o.base)
		return strconv.FormatInt(v, 10), err
	})
}

// eachArg prints f of each argument, one a line, up to the first error;
// none is a usage error saying what is needed.
func eachArg(o *opts, w *bufio.Writer, need string, f func(string) (string, error)) error {
	if len(o.args) == 0 {
		return usageError{need}
	}
	for _, s := range o.args {
		line, err := f(s)
		if err != nil {
			return err
		}
		w.WriteString(line + "\n")
	}
	return nil
}
