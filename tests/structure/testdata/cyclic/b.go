package cyclic

func helper(n int) int {
	var c counter
	return n + c.count
}
