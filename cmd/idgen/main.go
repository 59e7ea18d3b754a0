// Command idgen makes, decodes and explains idgen ids from the shell: the
// same words as `python -m idgen`.
//
//	idgen next    [-n N] [-c CONFIG]              new ids, one per line
//	idgen decode  [-c CONFIG] [--json] [ID ...]   the fields of ids (stdin lines when none)
//	idgen explain [-c CONFIG] [--svg FILE]        the bit layout and its limits
//	idgen explain --keys                          the key table: name, presets, default
//	idgen format  [-b BASE] [--fixed] ID ...      ids as text in base 2..62
//	idgen parse   [-b BASE] TEXT ...              text back to ids
//	idgen leases  [-c CONFIG] [--json]            the pool of a lease source, read-only
//	idgen serve   [--listen ADDR] --gen NAME=CONFIG ... [--token-file F]  an id service over HTTP
//
// Flags may come before or after the word; a flag the word does not take
// is a usage error. CONFIG defaults to
// $IDGEN_CONFIG, then to the defaults. Exit status: 0, 1 on an idgen error
// (the message on stderr), 2 on a usage error. Only next takes a lease.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "idgen: internal error: %v\n", r)
			code = 1
		}
	}()
	o, err := parseArgs(argv)
	if err != nil {
		fmt.Fprintf(stderr, "idgen: %v\n%s", err, usage())
		return 2
	}
	if err := o.checkFlags(); err != nil {
		fmt.Fprintf(stderr, "idgen: %v\nusage: %s\n", err, words[o.word])
		return 2
	}
	if o.help || o.word == "" {
		return help(o, stdout, stderr)
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	if err := dispatch(o, stdin, w, stderr); err != nil {
		w.Flush()
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "idgen: %v\nusage: %s\n", err, words[o.word])
			return 2
		}
		fmt.Fprintf(stderr, "idgen: %v\n", err)
		return 1
	}
	return 0
}

// help prints the usage of a word, or of them all, or asks which word.
func help(o *opts, stdout, stderr io.Writer) int {
	switch {
	case o.word != "":
		fmt.Fprintln(stdout, "usage: "+words[o.word])
	case o.help:
		fmt.Fprint(stdout, usage())
	default:
		fmt.Fprintf(stderr, "idgen: which word?\n%s", usage())
		return 2
	}
	return 0
}

// dispatch runs the word.
func dispatch(o *opts, stdin io.Reader, w *bufio.Writer, stderr io.Writer) error {
	switch o.word {
	case "next":
		return cmdNext(o, w)
	case "decode":
		return cmdDecode(o, stdin, w, stderr)
	case "explain":
		return cmdExplain(o, w)
	case "format":
		return cmdFormat(o, w)
	case "parse":
		return cmdParse(o, w)
	case "serve":
		return cmdServe(o, stderr)
	}
	return cmdLeases(o, w)
}
