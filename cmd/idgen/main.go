// Command idgen makes, decodes and explains idgen ids from the shell: the
// same words as `python -m idgen`.
//
//	idgen next    [-n N] [-c CONFIG]              new ids, one per line
//	idgen decode  [-c CONFIG] [--json] [ID ...]   the fields of ids (stdin lines when none)
//	idgen explain [-c CONFIG] [--svg FILE]        the bit layout and its limits
//	idgen format  [-b BASE] [--fixed] ID ...      ids as text in base 2..62
//	idgen parse   [-b BASE] TEXT ...              text back to ids
//	idgen leases  [-c CONFIG] [--json]            the pool of a lease source, read-only
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
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/layout"
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
		if o.word != "" {
			fmt.Fprintln(stdout, "usage: "+words[o.word])
			return 0
		}
		if o.help {
			fmt.Fprint(stdout, usage())
			return 0
		}
		fmt.Fprintf(stderr, "idgen: which word?\n%s", usage())
		return 2
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	switch o.word {
	case "next":
		err = cmdNext(o, w)
	case "decode":
		err = cmdDecode(o, stdin, w, stderr)
	case "explain":
		err = cmdExplain(o, w)
	case "format":
		err = cmdFormat(o, w)
	case "parse":
		err = cmdParse(o, w)
	case "leases":
		err = cmdLeases(o, w)
	}
	if err != nil {
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

func cmdNext(o *opts, w *bufio.Writer) error {
	if len(o.args) > 0 {
		return usageError{"next takes no arguments"}
	}
	c, err := config.Parse(o.config)
	if err != nil {
		return err
	}
	g, err := gen.Open(c, gen.Options{})
	if err != nil {
		return err
	}
	defer g.Close()
	if c.Scheme.IsText() {
		return nextTexts(g, o.n, w)
	}
	buf := make([]int64, 4096)
	var line []byte
	for left := o.n; left > 0; {
		chunk := buf[:min(left, int64(len(buf)))]
		if err := g.NextBatch(chunk); err != nil {
			return err
		}
		for _, id := range chunk {
			line = appendForm(line[:0], id, c.Text)
			line = append(line, '\n')
			_, _ = w.Write(line)
		}
		left -= int64(len(chunk))
	}
	return nil
}

// openNoLease opens the configuration for decoding: the same layout, unit
// and epoch, but a fixed worker, so it takes no lease.
func openNoLease(cfg string) (gen.Generator, *config.Spec, error) {
	c, err := config.Parse(cfg)
	if err != nil {
		return nil, nil, err
	}
	if c.Scheme == config.SchemeSegment {
		return gen.SegmentDecoder(c), c, nil // takes no segment
	}
	if c.WorkerSrc.Leasing() || c.WorkerSrc == config.SourcePID || c.DCSrc == config.SourceMAC {
		c.WorkerSrc, c.Worker, c.Store = config.SourceValue, 0, nil
		if c.DCSrc == config.SourceMAC {
			c.DCSrc, c.DC = config.SourceValue, 0
		}
	}
	g, err := gen.Open(c, gen.Options{})
	return g, c, err
}

func parseID(s string) (int64, error) {
	t := strings.TrimSpace(s)
	var v int64
	var err error
	if h, ok := strings.CutPrefix(strings.ToLower(t), "0x"); ok {
		var u uint64
		u, err = strconv.ParseUint(h, 16, 64)
		v = int64(u)
		if err == nil && u > 1<<63-1 {
			err = errors.New("too large")
		}
	} else {
		v, err = strconv.ParseInt(t, 10, 64)
	}
	if err != nil || t == "" {
		return 0, errs.New(errs.ErrInvalid, "%q is not an id (decimal or 0x hex)", s)
	}
	return v, nil
}

// decodeLine is one decoded id as key=value pairs or JSON; fields the
// layout lacks are left out.
func decodeLine(p gen.Parts, asJSON bool) string {
	type kv struct {
		k   string
		v   string
		str bool
	}
	var f []kv
	add := func(k string, v int64) {
		if v >= 0 {
			f = append(f, kv{k, strconv.FormatInt(v, 10), false})
		}
	}
	add("id", p.ID)
	add("unix_ms", p.UnixMs)
	if p.UnixMs >= 0 {
		f = append(f, kv{"time", rfc3339(p.UnixMs), true})
	}
	add("datacenter", p.Datacenter)
	add("worker", p.Worker)
	add("sequence", p.Sequence)
	add("epoch", p.Epoch)
	var b strings.Builder
	if asJSON {
		b.WriteByte('{')
	}
	for i, x := range f {
		if asJSON {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(x.k) + ": ")
			if x.str {
				b.WriteString(strconv.Quote(x.v))
			} else {
				b.WriteString(x.v)
			}
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.k + "=" + x.v)
	}
	if asJSON {
		b.WriteByte('}')
	}
	return b.String()
}

func cmdDecode(o *opts, stdin io.Reader, w *bufio.Writer, stderr io.Writer) error {
	g, c, err := openNoLease(o.config)
	if err != nil {
		return err
	}
	defer g.Close()
	inputs := o.args
	if len(inputs) == 0 {
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) != "" {
				inputs = append(inputs, sc.Text())
			}
		}
	}
	var first error
	for _, s := range inputs {
		line, err := decodeOne(g, c, s, o.json)
		if err != nil {
			w.Flush()
			fmt.Fprintf(stderr, "idgen: %v\n", err)
			if first == nil {
				first = errs.New(errs.KindOf(err), "some ids did not decode")
			}
			continue
		}
		w.WriteString(line + "\n")
	}
	return first
}

func cmdFormat(o *opts, w *bufio.Writer) error {
	if len(o.args) == 0 {
		return usageError{"format needs ids"}
	}
	for _, s := range o.args {
		id, err := parseID(s)
		if err != nil {
			return err
		}
		text, err := layout.FormatID(id, o.base, o.fixed)
		if err != nil {
			return err
		}
		w.WriteString(text + "\n")
	}
	return nil
}

func cmdParse(o *opts, w *bufio.Writer) error {
	if len(o.args) == 0 {
		return usageError{"parse needs text"}
	}
	for _, s := range o.args {
		v, err := layout.ParseID(s, o.base)
		if err != nil {
			return err
		}
		w.WriteString(strconv.FormatInt(v, 10) + "\n")
	}
	return nil
}
