package lease

// SetStepFault sets the hook each Keeper step runs (nil: none); tests of
// package lease_test use it to make the Keeper's goroutine panic.
func SetStepFault(f func()) { stepFault = f }
