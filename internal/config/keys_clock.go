package config

// unit=, epoch=, clock= and on_clock_back=: the time field and the clock
// it is read from.

import (
	"strconv"

	"github.com/idgen/idgen/internal/errs"
)

func readUnit(d *draft, v string) (err error) {
	d.Unit, err = parseUnit(v)
	return err
}

func printUnit(c *Spec) (string, bool) { return FormatUnit(c.Unit), true }

func readEpoch(d *draft, v string) (err error) {
	d.EpochMs, err = parseEpoch(v)
	return err
}

func printEpoch(c *Spec) (string, bool) { return strconv.FormatInt(c.EpochMs, 10), true }

func readClock(d *draft, v string) error {
	switch v {
	case "mono", "monotonic":
	case "wall":
		d.WallClock = true
	default:
		return errs.Key("clock", "want mono or wall, got %q", v)
	}
	return nil
}

func printClock(c *Spec) (string, bool) {
	if c.WallClock {
		return "wall", true
	}
	return "mono", true
}

// clockCanGoBack: on_clock_back answers a wall clock stepping back, or a
// predecessor's record ahead of the clock at a lease takeover.
func clockCanGoBack(d *draft) string {
	if !d.WallClock && !d.WorkerSrc.Leasing() {
		return "no clock can go back here: clock=mono never steps back and there is no lease whose record could be ahead (use clock=wall, or a lease source)"
	}
	return ""
}

func readOnClockBack(d *draft, v string) (err error) {
	if d.OnClockBack, err = ParsePolicy(v); err != nil {
		return err
	}
	if d.OnClockBack.Has(Tolerate) && !d.WallClock {
		return errs.Key("on_clock_back", "tolerate:<d> keeps issuing on the last tick when the wall clock steps back between two calls, so it needs clock=wall; with clock=mono nothing steps back between calls, and at a lease takeover nothing is tolerated (no id goes at or below the predecessor's record: it is waited out up to max_wait, or a wait:<d> step)")
	}
	if d.OnClockBack.Has(Switch) && !d.WorkerSrc.Leasing() {
		return errs.Key("on_clock_back", "switch needs a lease source to take another pair from")
	}
	return nil
}

// defOnClockBack is the preset's policy; its tolerate step (hutool's
// timeOffset) answers a wall clock stepping back between two calls, and
// clock=mono has none.
func defOnClockBack(d *draft) error {
	if !d.WallClock {
		d.OnClockBack = d.OnClockBack.Without(Tolerate)
	}
	return nil
}

func printOnClockBack(c *Spec) (string, bool) {
	return c.OnClockBack.String(), c.WallClock || c.WorkerSrc.Leasing()
}
