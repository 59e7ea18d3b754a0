//go:build idgenbench

// Bare calls into Go, the baselines the benchmarks compare the real
// functions with. Only in the bench build of the library.
#include <stdint.h>

#include "_cgo_export.h"

int idgen_bench_noop(void) { return idgenGoNoop(); }

int64_t idgen_bench_noop1(void *p) { return idgenGoNoop1((uintptr_t)p); }
