package leasetest

import (
	"testing"
)

// Suite is the contract every lease store meets (STYLE.md: "a store …
// passes the shared store suite"), one subtest per case (CaseFresh …),
// each on a pool of its own, opening stores with open. What a store does
// differently by design, or is known to fail, o says; nothing is skipped
// silently. Run it from the store's tests:
//
//	leasetest.Suite(t, func(t *testing.T, ttl time.Duration) lease.Store { … }, leasetest.Options{})
func Suite(t *testing.T, open Opener, o Options) {
	knownCases(t, o.Broken, CaseFresh, CaseFull, CaseKeeps, CaseRelease, CaseStale, CaseList)
	cases := []struct {
		name string
		run  func(*check, Opener, Options)
	}{
		{CaseFresh, caseFresh},
		{CaseFull, caseFull},
		{CaseKeeps, caseKeeps},
		{CaseRelease, caseRelease},
		{CaseStale, caseStale},
		{CaseList, caseList},
	}
	for _, k := range cases {
		runCase(t, k.name, o.Broken, func(c *check) { k.run(c, open, o) })
	}
}
