//go:build simmutants

package lease

// mutant names the seeded bug the simulator runs (see internal/sim); set
// it with SetMutant. This file is built only with the tag simmutants.
var mutant string

// Mutant is the seeded bug in force.
func Mutant() string { return mutant }

// SetMutant turns a seeded bug on ("" turns it off).
func SetMutant(name string) { mutant = name }
