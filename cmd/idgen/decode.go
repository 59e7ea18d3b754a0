package main

// idgen decode: the fields of ids, numeric or text.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/idgen/idgen"
)

func cmdDecode(o *opts, stdin io.Reader, w *bufio.Writer, stderr io.Writer) error {
	g, err := idgen.OpenDecoder(o.config) // lease=off: takes no lease, contacts no store
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
		line, err := decodeOne(g, s, o.json)
		if err != nil {
			w.Flush()
			fmt.Fprintf(stderr, "idgen: %v\n", err)
			if first == nil {
				first = errors.New("some ids did not decode")
			}
			continue
		}
		w.WriteString(line + "\n")
	}
	return first
}

// decodeOne decodes one input: a text preset's id, a numeric preset's id in
// its fixed-width text= form, or a number in decimal or 0x hex.
func decodeOne(g *idgen.Generator, s string, asJSON bool) (string, error) {
	t := strings.TrimSpace(s)
	if isText(g) {
		p, err := g.DecodeText(t)
		if err != nil {
			return "", err
		}
		return textLine(p, asJSON), nil
	}
	var id int64
	var err error
	if n := g.Info().TextLen; n > 0 && len(t) == int(n) { // a fixed-width text= form
		var p idgen.TextParts
		if p, err = g.DecodeText(t); err == nil {
			id = p.ID
		}
	} else {
		id, err = parseID(s)
	}
	if err != nil {
		return "", err
	}
	p, err := g.Decode(id)
	if err != nil {
		return "", err
	}
	return decodeLine(p, asJSON), nil
}

// decodeLine is one decoded id; fields the layout lacks are left out.
func decodeLine(p idgen.Parts, asJSON bool) string {
	var f fields
	f.num("id", p.ID)
	f.when(p.UnixMs)
	f.num("datacenter", p.Datacenter)
	f.num("worker", p.Worker)
	f.num("sequence", p.Sequence)
	f.num("epoch", p.Epoch)
	return f.line(asJSON)
}

// textLine is a decoded text id; absent fields are left out.
func textLine(p idgen.TextParts, asJSON bool) string {
	var f fields
	f.when(p.UnixMs)
	f.num("sequence", p.Sequence)
	f.num("pid", p.PID)
	f.num("loader_hash", p.LoaderHash)
	switch len(p.Addr) {
	case 4, 16:
		f.add("ip", net.IP(p.Addr).String(), true)
	case 6:
		f.add("mac", net.HardwareAddr(p.Addr).String(), true)
	}
	return f.line(asJSON)
}
