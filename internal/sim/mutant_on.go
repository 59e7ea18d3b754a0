//go:build simmutants

package sim

import "github.com/idgen/idgen/internal/lease"

// MutantsBuilt says the seeded bugs are compiled in (tag simmutants).
const MutantsBuilt = true

func setMutant(name string) { lease.SetMutant(name) }
