package gen_test

import (
	"fmt"

	"github.com/idgen/idgen/internal/gen"
)

// Decoding the worked example of Twitter's layout.
func ExampleGenerator_Decode() {
	g, _ := gen.OpenString("preset=snowflake worker=0")
	defer g.Close()
	p, _ := g.Decode(910499571847892992)
	fmt.Println(p.UnixMs, p.Datacenter, p.Worker, p.Sequence)
	// Output: 1505914988849 17 25 0
}

// Composing a zxid: epoch 5, counter 7.
func ExampleGenerator_Compose() {
	g, _ := gen.OpenString("preset=zxid worker=0")
	defer g.Close()
	id, _ := g.Compose(gen.Parts{Epoch: 5, Sequence: 7, UnixMs: -1, Time: -1, Datacenter: -1, Worker: -1})
	fmt.Printf("%#x\n", id)
	// Output: 0x500000007
}
