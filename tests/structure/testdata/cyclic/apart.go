package cyclic

func useThing() int {
	var t Thing
	return t.Do()
}
