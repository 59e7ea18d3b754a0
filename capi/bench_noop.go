//go:build idgenbench

package main

import "C"

// idgenGoNoop is the baseline of the benchmarks: a bare C-to-Go call that
// does nothing. It exists only in the bench build of the library.
//
//export idgenGoNoop
func idgenGoNoop() C.int { return 0 }
