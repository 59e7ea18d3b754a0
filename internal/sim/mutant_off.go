//go:build !simmutants

package sim

// MutantsBuilt says the seeded bugs are compiled in (tag simmutants).
const MutantsBuilt = false

func setMutant(string) {}
