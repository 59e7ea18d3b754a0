package cyclic

// Thing is used by c.go and uses b.go.
type Thing struct{ n int }

// Do uses b.go's helper.
func (t *Thing) Do() int { return helper(t.n) }
