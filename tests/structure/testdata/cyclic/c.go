package cyclic

type counter struct{ count int }

func newThing() *Thing { return &Thing{} }
