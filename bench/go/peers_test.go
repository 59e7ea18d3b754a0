// Package peers benchmarks idgen's Go core beside bwmarrin/snowflake and
// sony/sonyflake. It is a separate module so that peers never enter the
// library's go.mod. Run from make bench.
package peers

import (
	"testing"
	"time"

	bw "github.com/bwmarrin/snowflake"
	"github.com/idgen/idgen"
	"github.com/sony/sonyflake/v2"
)

func benchIdgen(b *testing.B, config string) {
	g, err := idgen.Open(config)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// The 41/10/12 layout (bwmarrin's default) and 41/5/5/12 (Twitter's): both
// capped at 4096 ids per ms, so 244 ns/id is the ceiling.
func BenchmarkIdgenSnowflake(b *testing.B) { benchIdgen(b, "preset=snowflake worker=1") }

func BenchmarkBwmarrinSnowflake(b *testing.B) {
	n, err := bw.NewNode(1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = n.Generate()
	}
}

// Sonyflake's own layout: 256 ids per 10 ms, a ceiling of 39 µs/id.
func BenchmarkIdgenSonyflake(b *testing.B) { benchIdgen(b, "preset=sonyflake worker=1") }

func BenchmarkSonySonyflake(b *testing.B) { benchSony(b, 0) }

func benchSony(b *testing.B, unit time.Duration) {
	sf, err := sonyflake.New(sonyflake.Settings{TimeUnit: unit, MachineID: func() (int, error) { return 1, nil },
		StartTime: time.Date(2014, 9, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := sf.NextID(); err != nil {
			b.Fatal(err)
		}
	}
}

// Uncapped: what the generator itself costs.
func BenchmarkIdgenUncapped(b *testing.B) { benchIdgen(b, "layout=time:41,seq:22") }

func BenchmarkIdgenUncappedBatch4096(b *testing.B) {
	g, _ := idgen.Open("layout=time:41,seq:22")
	defer g.Close()
	buf := make([]int64, 4096)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.NextBatch(buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/id")
}

// Sonyflake v2 with a 1 ms unit: 256 ids per ms, a ceiling of 3.9 µs/id.
// Sonyflake sleeps for the next tick; idgen spins for the last 2 ms.
func BenchmarkIdgenSonyflake1ms(b *testing.B) {
	benchIdgen(b, "preset=sonyflake unit=1ms worker=1")
}

func BenchmarkSonySonyflake1ms(b *testing.B) { benchSony(b, time.Millisecond) }
