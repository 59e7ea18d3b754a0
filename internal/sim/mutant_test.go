//go:build simmutants

package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The regression seed still plays the schedule that found its bug: with
// the bug seeded back (Extend past the fence cap), it fails again.
func TestIssue32SeedCatchesItsBug(t *testing.T) {
	setMutant("session-past-cap")
	defer setMutant("")
	r := Run(issue32Seed, false)
	require.Contains(t, r.Failure, "issued twice", "seed %#x (%s)", uint64(issue32Seed), r.Setup)
}

// The lossy-store seeds that found the skew gap fail again with the skew
// allowance taken out.
func TestLostSkewSeedsCatchTheirBug(t *testing.T) {
	setMutant("lost-skew")
	defer setMutant("")
	for _, s := range regressions[3:] {
		r := Run(s, false)
		require.Contains(t, r.Failure, "issued twice", "seed %#x (%s)", s, r.Setup)
	}
}
