//go:build idgenbench

package main

// #include <stdint.h>
import "C"

// idgenGoNoop and idgenGoNoop1 are the baselines of the benchmarks: bare
// C-to-Go calls that do nothing, without and with one pointer argument
// (idgen_next's signature). They exist only in the bench build.
//
//export idgenGoNoop
func idgenGoNoop() C.int { return 0 }

//export idgenGoNoop1
func idgenGoNoop1(p C.uintptr_t) C.int64_t { return C.int64_t(p & 1) }
