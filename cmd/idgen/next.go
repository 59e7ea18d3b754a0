package main

// idgen next: new ids, numeric or text.

import (
	"bufio"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
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
	for left := o.n; left > 0; {
		chunk := buf[:min(left, int64(len(buf)))]
		if err := g.NextBatch(chunk); err != nil {
			if errs.KindOf(err) != errs.ErrTimeOverflow {
				return err
			}
			// Fewer values are left than the batch asks for (a counter
			// near INT64_MAX; a batch is all or nothing): print those
			// left one by one, then the end.
			if chunk, err = nextEach(g, chunk); err != nil {
				writeIDs(w, chunk, c.Text)
				return err
			}
		}
		writeIDs(w, chunk, c.Text)
		left -= int64(len(chunk))
	}
	return nil
}

// nextEach fills out with single calls, and returns what it filled when
// one fails, with the failure.
func nextEach(g gen.Generator, out []int64) ([]int64, error) {
	for i := range out {
		id, err := g.Next()
		if err != nil {
			return out[:i], err
		}
		out[i] = id
	}
	return out, nil
}

// writeIDs prints ids, one a line, in the configuration's text= form.
func writeIDs(w *bufio.Writer, ids []int64, form config.TextForm) {
	var line []byte
	for _, id := range ids {
		line = appendForm(line[:0], id, form)
		line = append(line, '\n')
		_, _ = w.Write(line)
	}
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
