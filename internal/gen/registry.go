package gen

import (
	"cmp"
	"slices"
	"sync"

	"github.com/idgen/idgen/internal/config"
)

// The list of the process's open generators that the metrics text reads:
// the API layers (capi's handles, the default generator) add a generator
// when they open it and drop it when they close it. The list is off the
// hot path: issuing an id never touches it.
var tracked struct {
	mu   sync.Mutex
	next int64 // the last number given: numbers are never reused
	all  map[int64]Tracked
	dflt int64 // the default generator's number; 0 if none
}

// Tracked is one open generator as the metrics text labels it.
type Tracked struct {
	N    int64 // unique among the process's open generators, never reused
	G    Generator
	Spec *config.Spec // its configuration as opened (sources as written); nil if unreadable
	Name string       // its name label: the name= key, else the preset's or "custom"
}

// Track lists g among the open generators and returns its number.
func Track(g Generator) int64 {
	spec, err := config.Parse(g.Config())
	name := "custom"
	if err != nil {
		spec = nil
	} else {
		name = spec.MetricName()
	}
	tracked.mu.Lock()
	defer tracked.mu.Unlock()
	if tracked.all == nil {
		tracked.all = map[int64]Tracked{}
	}
	tracked.next++
	tracked.all[tracked.next] = Tracked{N: tracked.next, G: g, Spec: spec, Name: name}
	return tracked.next
}

// Untrack drops generator n from the list (a closed generator's series go
// away); an unknown n is ignored.
func Untrack(n int64) {
	tracked.mu.Lock()
	delete(tracked.all, n)
	tracked.mu.Unlock()
}

// trackDefault lists g as the default generator in place of the previous
// one.
func trackDefault(g Generator) {
	n := Track(g)
	tracked.mu.Lock()
	old := tracked.dflt
	tracked.dflt = n
	tracked.mu.Unlock()
	Untrack(old)
}

// TrackedNow is the open generators, lowest number first.
func TrackedNow() []Tracked {
	tracked.mu.Lock()
	out := make([]Tracked, 0, len(tracked.all))
	for _, t := range tracked.all {
		out = append(out, t)
	}
	tracked.mu.Unlock()
	slices.SortFunc(out, func(a, b Tracked) int { return cmp.Compare(a.N, b.N) })
	return out
}
