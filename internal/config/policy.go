package config

import (
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Mode is one step of an on_clock_back policy.
type Mode int

const (
	Error    Mode = iota // refuse with errs.ErrClockBackwards
	Wait                 // wait for the clock to catch up, if it is behind by at most Limit
	Tolerate             // keep issuing on the last tick, if behind by at most Limit
	Switch               // take another leased pair whose record is behind the clock
)

// Step is one step of a policy.
type Step struct {
	Mode  Mode
	Limit time.Duration
}

func (s Step) String() string {
	switch s.Mode {
	case Wait:
		return "wait:" + s.Limit.String()
	case Tolerate:
		return "tolerate:" + s.Limit.String()
	case Switch:
		return "switch"
	}
	return "error"
}

// Policy is the on_clock_back policy: steps tried left to right; a step
// back that no step takes is errs.ErrClockBackwards. The empty policy is
// "error".
type Policy []Step

func (p Policy) String() string {
	if len(p) == 0 {
		return "error"
	}
	parts := make([]string, len(p))
	for i, s := range p {
		parts[i] = s.String()
	}
	return strings.Join(parts, ",")
}

// Has reports whether the policy has a step of mode m.
func (p Policy) Has(m Mode) bool {
	for _, s := range p {
		if s.Mode == m {
			return true
		}
	}
	return false
}

// Without is the policy without its steps of mode m.
func (p Policy) Without(m Mode) Policy {
	out := Policy{}
	for _, s := range p {
		if s.Mode != m {
			out = append(out, s)
		}
	}
	return out
}

// ParsePolicy reads "error", or steps "wait:<d>", "tolerate:<d>", "switch"
// separated by commas ("wait:15ms,switch").
func ParsePolicy(v string) (Policy, error) {
	if v == "error" {
		return Policy{}, nil
	}
	var p Policy
	for _, part := range strings.Split(v, ",") {
		mode, dur, hasDur := strings.Cut(part, ":")
		var s Step
		switch {
		case mode == "wait" && hasDur:
			s.Mode = Wait
		case mode == "tolerate" && hasDur:
			s.Mode = Tolerate
		case part == "switch":
			p = append(p, Step{Mode: Switch})
			continue
		default:
			return nil, errs.Key("on_clock_back", "want error, or steps wait:<duration>, tolerate:<duration>, switch separated by commas; got %q", v)
		}
		d, err := parseDuration("on_clock_back", dur)
		if err != nil {
			return nil, err
		}
		s.Limit = d
		p = append(p, s)
	}
	return p, nil
}

// Pick is the first step that takes a step back of d: a wait or tolerate
// step whose limit covers d, or a switch step; the zero Step (Error) when
// none does.
func (p Policy) Pick(d time.Duration) Step {
	for _, s := range p {
		if s.Mode == Switch || (s.Mode == Wait || s.Mode == Tolerate) && d <= s.Limit {
			return s
		}
	}
	return Step{}
}
