package gen

import "testing"

// uuidv7 and ulid ids as text, one goroutine and all of them (the CAS on
// one word against the mutex); compare BenchmarkNext in bench_test.go.
func benchText(b *testing.B, cfg string, parallel bool) {
	g, err := OpenString(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	if !parallel {
		buf := make([]byte, 64)
		for b.Loop() {
			if _, err := g.NextText(buf); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	b.RunParallel(func(pb *testing.PB) {
		buf := make([]byte, 64)
		for pb.Next() {
			if _, err := g.NextText(buf); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkUUIDv7Text(b *testing.B)         { benchText(b, "preset=uuidv7", false) }
func BenchmarkUUIDv7TextParallel(b *testing.B) { benchText(b, "preset=uuidv7", true) }
func BenchmarkULIDText(b *testing.B)           { benchText(b, "preset=ulid", false) }
func BenchmarkULIDTextParallel(b *testing.B)   { benchText(b, "preset=ulid", true) }
