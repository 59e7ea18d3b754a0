package main

// idgen next: new ids, numeric or text.

import (
	"bufio"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/layout"
)

func cmdNext(o *opts, w *bufio.Writer) error {
	c, err := o.spec()
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

// nextTexts prints n ids of a text preset.
func nextTexts(g gen.Generator, n int64, w *bufio.Writer) error {
	buf := make([]byte, g.TextLen()+1)
	for range n {
		k, err := gen.NextText(g, buf)
		if err != nil {
			return err
		}
		buf[k] = '\n'
		_, _ = w.Write(buf[:k+1])
	}
	return nil
}

// appendForm writes a numeric id in the configuration's text= form.
func appendForm(dst []byte, id int64, form config.TextForm) []byte {
	b, _ := layout.AppendID(dst, id, form.Base(), form != config.TextDec)
	return b
}
