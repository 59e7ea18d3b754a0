//go:build !simmutants

package lease

// mutant names a seeded bug the simulator must catch (build tag
// simmutants only); in the shipped library it is "" and every check of it
// compiles away.
const mutant = ""

// Mutant is the seeded bug in force: always "" outside the simulator.
func Mutant() string { return mutant }
