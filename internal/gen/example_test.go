package gen_test

import (
	"fmt"

	"github.com/idgen/idgen/internal/gen"
)

// Decoding the worked example of Twitter's layout.
func ExampleGenerator_Decode() {
	g, _ := gen.OpenString("preset=snowflake")
	defer g.Close()
	p, _ := g.Decode(910499571847892992)
	fmt.Println(p.UnixMs, p.Datacenter, p.Worker, p.Sequence)
	// Output: 1505914988849 17 25 0
}

// Composing a zxid: epoch 5, counter 7.
func ExampleGenerator_Compose() {
	g, _ := gen.OpenString("preset=zxid")
	defer g.Close()
	id, _ := g.Compose(gen.Parts{Epoch: 5, Sequence: 7, UnixMs: -1, Time: -1, Datacenter: -1, Worker: -1})
	fmt.Printf("%#x\n", id)
	// Output: 0x500000007
}

func ExampleFormat() {
	s, _ := gen.Format(910499571847892992, 62, true)
	fmt.Println(s)
	// Output: 15G63YLn9Ae
}

func ExampleParseConfig() {
	c, _ := gen.ParseConfig("preset=baidu layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00 worker=5")
	fmt.Println(c)
	// Output: preset=baidu layout=time:29,worker:21,seq:13 unit=1s epoch=1474300800000 worker=5 clock=mono on_clock_back=error on_exhausted=wait seq_start=0
}
