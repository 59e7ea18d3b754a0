package gen

import (
	"testing"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/layout"
)

func benchNext(b *testing.B, config string) {
	g, err := OpenString(config)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := g.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNextUncapped(b *testing.B) { benchNext(b, "layout=time:41,seq:22 worker=0") }

func BenchmarkNextSnowflake(b *testing.B) { benchNext(b, "preset=snowflake worker=0") }

// With runs=1024: what a Go caller would pay if runs were the default.
func BenchmarkNextUncappedRuns(b *testing.B) {
	benchNext(b, "layout=time:41,seq:22 worker=0 runs=1024")
}

func BenchmarkBatchUncapped4096(b *testing.B) {
	g, _ := OpenString("layout=time:41,seq:22 worker=0")
	defer g.Close()
	buf := make([]int64, 4096)
	b.ReportAllocs()
	b.SetBytes(0)
	for i := 0; i < b.N; i++ {
		if err := g.NextBatch(buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/id")
}

func BenchmarkMonoClock(b *testing.B) {
	c := clock.NewMonoClock()
	for i := 0; i < b.N; i++ {
		_ = c.Now()
	}
}

func BenchmarkTimeSince(b *testing.B) {
	s := time.Now()
	for i := 0; i < b.N; i++ {
		_ = time.Since(s)
	}
}

func BenchmarkFormat62(b *testing.B) {
	buf := make([]byte, 0, 16)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, _ = layout.AppendID(buf[:0], 910499571847892992, 62, true)
	}
}
