package main

// The command line: each word's flags, parsed in any order, and the usage.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// opts are the parsed command line.
type opts struct {
	word    string
	config  string
	hasCfg  bool
	n       int64
	json    bool
	svg     string
	base    int
	fixed   bool
	keys    bool     // explain --keys: the key table
	fields  bool     // explain --fields: the layout field names
	listen  string   // serve --listen
	gens    []string // serve --gen, NAME=CONFIG each
	tokens  string   // serve --token-file
	genFile string   // serve --gen-file
	args    []string
	help    bool
	flags   []string // the flags given, by their canonical name, in order
}

// wordFlags are the flags each word takes (-h and --help: every word); a
// flag of another word is a usage error, never silently ignored.
var wordFlags = map[string][]string{
	"next":    {"-n", "-c"},
	"decode":  {"-c", "--json"},
	"explain": {"-c", "--svg", "--keys", "--fields"},
	"format":  {"-b", "--fixed"},
	"parse":   {"-b"},
	"leases":  {"-c", "--json"},
	"serve":   {"--listen", "--gen", "--gen-file", "--token-file"},
}

// checkFlags refuses a flag that does not belong to the word.
func (o *opts) checkFlags() error {
	if o.word == "" {
		return nil // run asks which word
	}
	for _, f := range o.flags {
		ok := false
		for _, w := range wordFlags[o.word] {
			ok = ok || w == f
		}
		if !ok {
			return usageError{fmt.Sprintf("%s does not take %s (its flags: %s)", o.word, f, strings.Join(wordFlags[o.word], ", "))}
		}
	}
	return nil
}

// conf is the configuration of a word that takes no arguments.
func (o *opts) conf() (string, error) {
	if len(o.args) > 0 {
		return "", usageError{o.word + " takes no arguments"}
	}
	return o.config, nil
}

var words = map[string]string{
	"next":    "idgen next [-n N] [-c CONFIG]: print N new ids, one per line",
	"decode":  "idgen decode [-c CONFIG] [--json] [ID ...]: print the fields of ids (decimal or 0x hex; stdin lines when none)",
	"explain": "idgen explain [-c CONFIG] [--svg FILE] | --keys | --fields: draw the bit layout and print its limits; --keys: the key table, a key a line (name, presets, default; tab-separated); --fields: the names layout= fields may have, one a line",
	"format":  "idgen format [-b BASE] [--fixed] ID ...: print ids as text in base 2..62 (default 62)",
	"parse":   "idgen parse [-b BASE] TEXT ...: print the ids that text in base 2..62 stands for",
	"leases":  "idgen leases [-c CONFIG] [--json]: list the pool of a lease source as the store holds it, taking nothing",
	"serve":   "idgen serve [--listen ADDR] --gen NAME=CONFIG ... [--gen-file FILE] [--token-file FILE]: serve the generators over HTTP (default 127.0.0.1:8080; another address needs --token-file) until SIGTERM; --gen-file: NAME=CONFIG lines, mode 0600 (passwords stay out of ps)",
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, w := range []string{"next", "decode", "explain", "format", "parse", "leases", "serve"} {
		b.WriteString("  " + words[w] + "\n")
	}
	b.WriteString("flags may come before or after the word; CONFIG defaults to $IDGEN_CONFIG, then the defaults\n")
	return b.String()
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func parseArgs(argv []string) (*opts, error) {
	o := &opts{n: 1, base: 62}
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") || a == "-" || len(a) > 1 && a[1] >= '0' && a[1] <= '9' {
			if err := o.operand(a); err != nil {
				return nil, err
			}
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if !hasVal {
			name = a
		}
		get := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(argv) {
				return "", usageError{name + " needs a value"}
			}
			i++
			return argv[i], nil
		}
		if err := o.flag(name, get); err != nil {
			return nil, err
		}
	}
	if !o.hasCfg {
		o.config = os.Getenv("IDGEN_CONFIG")
	}
	return o, nil
}

// operand takes the word, then the word's arguments.
func (o *opts) operand(a string) error {
	if o.word != "" {
		o.args = append(o.args, a)
		return nil
	}
	if _, ok := words[a]; !ok {
		return usageError{fmt.Sprintf("unknown word %q", a)}
	}
	o.word = a
	return nil
}

// flag reads one flag (its value from get) and records it by its
// canonical name.
func (o *opts) flag(name string, get func() (string, error)) (err error) {
	var s string
	switch name {
	case "-h", "--help":
		o.help = true
		return nil
	case "-c", "--config":
		o.config, err = get()
		o.hasCfg = true
	case "-n":
		if s, err = get(); err == nil {
			o.n, err = strconv.ParseInt(s, 10, 64)
			if err != nil || o.n < 0 {
				err = usageError{fmt.Sprintf("-n wants a whole number >= 0, got %q", s)}
			}
		}
	case "--json":
		o.json = true
	case "--svg":
		o.svg, err = get()
	case "-b", "--base":
		if s, err = get(); err == nil {
			var e error
			if o.base, e = strconv.Atoi(s); e != nil {
				err = usageError{fmt.Sprintf("-b wants a number from 2 to 62, got %q", s)}
			}
		}
	case "--fixed":
		o.fixed = true
	case "--keys":
		o.keys = true
	case "--fields":
		o.fields = true
	case "--listen":
		o.listen, err = get()
	case "--gen":
		if s, err = get(); err == nil {
			o.gens = append(o.gens, s)
		}
	case "--token-file":
		o.tokens, err = get()
	case "--gen-file":
		o.genFile, err = get()
	default:
		return usageError{fmt.Sprintf("unknown flag %s", name)}
	}
	if err == nil {
		o.flags = append(o.flags, canonical(name))
	}
	return err
}

// canonical is a flag's short name: --config is -c, --base is -b.
func canonical(name string) string {
	if short, ok := map[string]string{"--config": "-c", "--base": "-b"}[name]; ok {
		return short
	}
	return name
}
