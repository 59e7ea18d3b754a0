//go:build idgenbench

// idgen_bench_noop: a bare call into Go, the baseline the benchmarks
// compare idgen_next with. Only in the bench build of the library.
#include "_cgo_export.h"

int idgen_bench_noop(void) { return idgenGoNoop(); }
