package config

// on_exhausted=, boost=, padding=, max_drift= and seq_start=: what the
// sequence does within a tick and when it runs out.

import (
	"fmt"
	"strconv"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

func readOnExhausted(d *draft, v string) error {
	switch v {
	case "wait":
	case "borrow":
		d.Borrow = true
	default:
		return errs.Key("on_exhausted", "want wait or borrow, got %q", v)
	}
	if d.Cached && v != "borrow" {
		return errs.Key("on_exhausted", "preset baidu-cached always borrows future seconds (up to max_drift); got %q", v)
	}
	return nil
}

// defOnExhausted: baidu-cached always borrows.
func defOnExhausted(d *draft) error {
	d.Borrow = d.Cached
	return nil
}

func printOnExhausted(c *Spec) (string, bool) {
	if c.Borrow {
		return "borrow", true
	}
	return "wait", true
}

func readBoost(d *draft, v string) error {
	n, err := parseInt("boost", v, 10)
	if err != nil {
		return err
	}
	d.Boost = int(n)
	return d.checkRing()
}

func defBoost(d *draft) error {
	d.Boost = DefaultBoost
	return d.checkRing()
}

// checkRing: the ring holds 2^(seq width + boost) ids of 8 bytes each;
// compared as widths, since the product overflows int64 once they reach 63.
func (d *draft) checkRing() error {
	f, ok := d.Layout.Field(layout.FieldSeq)
	if !ok || int(f.Width)+d.Boost <= MaxRingBits {
		return nil
	}
	key, fix := "layout", fmt.Sprintf("a seq field of at most %d bits", MaxRingBits-d.Boost)
	if d.has("boost") && int(f.Width) <= MaxRingBits {
		key, fix = "boost", fmt.Sprintf("boost at most %d", MaxRingBits-int(f.Width))
	}
	return errs.Key(key, "the ring of (max seq + 1) << boost ids, 2^%d << %d with seq:%d and boost=%d, is too large: at most 2^%d ids (%d MiB); want %s",
		f.Width, d.Boost, f.Width, d.Boost, MaxRingBits, 8<<MaxRingBits>>20, fix)
}

func printBoost(c *Spec) (string, bool) { return strconv.Itoa(c.Boost), true }

func readPadding(d *draft, v string) error {
	n, err := parseInt("padding", v, 99)
	if err != nil {
		return err
	}
	if n < 1 {
		return errs.Key("padding", "want a percentage from 1 to 99, got %q", v)
	}
	d.Padding = int(n)
	return nil
}

// defPadding is a default padding of n percent.
func defPadding(n int) func(d *draft) error {
	return func(d *draft) error {
		d.Padding = n
		return nil
	}
}

func printPadding(c *Spec) (string, bool) { return strconv.Itoa(c.Padding), true }

func borrowing(d *draft) string {
	if !d.Borrow {
		return "applies only with on_exhausted=borrow"
	}
	return ""
}

func readMaxDrift(d *draft, v string) (err error) {
	if d.MaxDrift, err = parseDuration("max_drift", v); err != nil {
		return err
	}
	if d.MaxDrift < d.Unit {
		return errs.Key("max_drift", "%s is less than one %s tick, so nothing could be borrowed", v, FormatUnit(d.Unit))
	}
	if d.MaxDrift > MaxDuration {
		return errs.Key("max_drift", "want at most %s, got %q", MaxDuration, v)
	}
	return nil
}

// defMaxDrift: baidu-cached has room to fill its ring once ahead of the
// clock, at most what an explicit max_drift may say, so the configuration
// string reads back (unit=24h boost=7 would be 3072h).
func defMaxDrift(d *draft) error {
	if d.Cached {
		d.MaxDrift = min(d.Unit<<d.Boost, MaxDuration)
	} else if d.Borrow {
		d.MaxDrift = max(DefaultMaxDrift, d.Unit)
	}
	return nil
}

func printMaxDrift(c *Spec) (string, bool) { return c.MaxDrift.String(), c.Borrow }

func readSeqStart(d *draft, v string) (err error) {
	if d.SeqRandom, err = parseSeqStart(v); err != nil {
		return err
	}
	return d.checkSeqStart()
}

// checkSeqStart: the random start must fit the sequence field. The
// preset's own start (leaf's random:100) with a layout restated with a
// narrower seq names the layout: that is what was given.
func (d *draft) checkSeqStart() error {
	f, ok := d.Layout.Field(layout.FieldSeq)
	if d.SeqRandom <= 0 || !ok || d.SeqRandom <= f.Max()+1 {
		return nil
	}
	if !d.has("seq_start") {
		return errs.Key("layout", "preset %s starts each tick's sequence at random below %d (seq_start=random:%d), which the %d-bit seq of %s cannot hold: give seq_start=0 or seq_start=random:N with N at most %d, or a wider seq field",
			d.Preset, d.SeqRandom, d.SeqRandom, f.Width, &d.Layout, f.Max()+1)
	}
	return errs.Key("seq_start", "random:%d is larger than the %d-bit sequence (at most random:%d)", d.SeqRandom, f.Width, f.Max()+1)
}

func printSeqStart(c *Spec) (string, bool) {
	if c.SeqRandom > 0 {
		return "random:" + strconv.FormatInt(c.SeqRandom, 10), true
	}
	return "0", true
}
