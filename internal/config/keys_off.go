package config

// lease=off: a configuration opened for decoding only (a host that reads
// ids it did not make): no lease taken, no segment fetched, no store
// contacted; issuing is refused, naming the key.

import "github.com/idgen/idgen/internal/errs"

func readLease(d *draft, v string) error {
	switch v {
	case "on":
		d.LeaseOff = false
	case "off":
		d.LeaseOff = true
	default:
		return errs.Key("lease", "want on (the default: lease and issue as the configuration says) or off (decode, compose and explain only: no lease, no segment, no store), got %q", v)
	}
	return nil
}

func printLease(c *Spec) (string, bool) { return "off", c.LeaseOff }
