package segment

import "testing"

func BenchmarkNext(b *testing.B) {
	c, err := NewCounter(NewMemStore(), Config{Name: "b", Start: 1, Step: 10_000_000, Auto: false, Padding: 50, MaxWait: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReserve4096(b *testing.B) {
	c, err := NewCounter(NewMemStore(), Config{Name: "b", Start: 1, Step: 10_000_000, Auto: false, Padding: 50, MaxWait: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		for left := int64(4096); left > 0; {
			_, got, err := c.Reserve(left)
			if err != nil {
				b.Fatal(err)
			}
			left -= got
		}
	}
}
