package main

// idgen next: new ids, numeric or text.

import (
	"bufio"
	"errors"

	"github.com/idgen/idgen"
)

func cmdNext(o *opts, w *bufio.Writer) error {
	conf, err := o.conf()
	if err != nil {
		return err
	}
	g, err := idgen.Open(conf)
	if err != nil {
		return err
	}
	defer g.Close()
	if isText(g) {
		return nextTexts(g, o.n, w)
	}
	buf := make([]int64, 4096)
	for left := o.n; left > 0; {
		chunk := buf[:min(left, int64(len(buf)))]
		if err := g.NextBatch(chunk); err != nil {
			if !errors.Is(err, idgen.ErrOverflow) {
				return err
			}
			// Fewer values are left than the batch asks for (a counter
			// near INT64_MAX; a batch is all or nothing): print those
			// left one by one, then the end.
			if chunk, err = nextEach(g, chunk); err != nil {
				writeIDs(w, g, chunk)
				return err
			}
		}
		writeIDs(w, g, chunk)
		left -= int64(len(chunk))
	}
	return nil
}

// isText says g's ids are text (a text preset, business numbers), not numbers.
func isText(g *idgen.Generator) bool {
	switch g.Info().Kind {
	case idgen.KindUUIDv7, idgen.KindULID, idgen.KindRocketMQ, idgen.KindNumber:
		return true
	}
	return false
}

// nextEach fills out with single calls, and returns what it filled when
// one fails, with the failure.
func nextEach(g *idgen.Generator, out []int64) ([]int64, error) {
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
func writeIDs(w *bufio.Writer, g *idgen.Generator, ids []int64) {
	var line []byte
	for _, id := range ids {
		line, _ = g.AppendID(line[:0], id)
		line = append(line, '\n')
		_, _ = w.Write(line)
	}
}

// nextTexts prints n ids of a text preset.
func nextTexts(g *idgen.Generator, n int64, w *bufio.Writer) error {
	buf := make([]byte, 0, g.TextLen()+1)
	for range n {
		line, err := g.AppendText(buf[:0])
		if err != nil {
			return err
		}
		_, _ = w.Write(append(line, '\n'))
	}
	return nil
}
