package config

// The keys of business numbers (preset=segment with reset= and format=):
// a counter that restarts each day, month or year in tz=, printed by a
// template (DESIGN "Business numbers").

import (
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/numbers"
)

// maxPeriodName is the longest name= of a counter that restarts: the
// store keeps <name>@<yyyyMMdd>, which must fit the 64 characters of a
// counter's name.
const maxPeriodName = 64 - 1 - numbers.LabelLen

func readReset(d *draft, v string) error {
	r, err := numbers.ParseReset(v)
	if err != nil {
		return err
	}
	if r != numbers.None && len(d.Name) > maxPeriodName {
		return errs.Key("name", "with reset= the store keeps a counter per period, <name>@<yyyyMMdd>: want at most %d characters, got %d", maxPeriodName, len(d.Name))
	}
	if r != numbers.None && d.Store != nil && d.Store.Format != "" {
		return errs.Key("reset", "keeps a counter per period (<name>@<period>) in idgen's own table, not in a peer's (format=%s)", d.Store.Format)
	}
	d.Numbers.Reset = r
	return nil
}

func printReset(c *Spec) (string, bool) {
	return c.Numbers.Reset.String(), c.Numbers.Reset != numbers.None
}

// resetting: tz= says what a day is, so it needs a reset.
func resetting(d *draft) string {
	if d.Numbers.Reset == numbers.None {
		return "applies only with reset=day, month or year (the zone whose days, months and years the counter restarts in)"
	}
	return ""
}

func readNumbersTZ(d *draft, v string) (err error) {
	if v == "local" {
		return errs.Key("tz", "want UTC, an IANA zone name like Europe/Berlin, or an offset like +08:00: a period must not change with the host a generator runs on, so local is not taken")
	}
	d.Numbers.TZ, err = ParseTZ(v)
	return err
}

func defNumbersTZ(d *draft) error {
	d.Numbers.TZ = time.UTC
	return nil
}

func printNumbersTZ(c *Spec) (string, bool) {
	return c.Numbers.TZ.String(), c.Numbers.Reset != numbers.None
}

func readFormat(d *draft, v string) (err error) {
	d.Numbers.Format, err = numbers.ParseTemplate(v, d.Numbers.Reset)
	return err
}

// needFormat: a counter that restarts has no text of its own.
func needFormat(d *draft) error {
	if r := d.Numbers.Reset; r != numbers.None {
		return errs.Key("reset", "reset=%s needs format=TEMPLATE to print its numbers (its values repeat each %s), like format=ORD-{yyyy}{MM}{dd}-{seq:6}", r, r)
	}
	return nil
}

func printFormat(c *Spec) (string, bool) {
	if c.Numbers.Format == nil {
		return "", false
	}
	return Quote(c.Numbers.Format.String()), true
}

// noFormat: text= and format= both say how the text is printed.
func noFormat(d *draft) string {
	if d.has("format") {
		return "does not apply with format= (the template prints the number)"
	}
	return ""
}

// Periods are the periods a configuration's counter restarts in (nil:
// it never restarts).
func (c *Spec) Periods() numbers.Periods {
	if c.Numbers.Reset == numbers.None {
		return nil
	}
	return numbers.Calendar{Reset: c.Numbers.Reset, TZ: c.Numbers.TZ}
}
