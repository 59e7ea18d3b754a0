package idgen_test

import (
	"errors"
	"fmt"

	"github.com/idgen/idgen"
)

func ExampleOpen() {
	// A fixed pair; leave worker out and the generator takes a host lease.
	g, err := idgen.Open("preset=snowflake datacenter=1 worker=7")
	if err != nil {
		panic(err)
	}
	defer g.Close()
	fmt.Println(g.Config())
	// Output:
	// preset=snowflake layout=time:41,datacenter:5,worker:5,seq:12 unit=1ms epoch=1288834974657 datacenter=1 worker=7 clock=mono on_exhausted=wait seq_start=0
}

func ExampleGenerator_Compose() {
	g, err := idgen.Open("preset=snowflake datacenter=1 worker=7")
	if err != nil {
		panic(err)
	}
	defer g.Close()
	id, _ := g.Compose(idgen.Parts{UnixMs: 1767225600000, Datacenter: 1, Worker: 7, Sequence: 42})
	p, _ := g.Decode(id)
	fmt.Println(id)
	fmt.Printf("%+v\n", p)
	// Output:
	// 2006515713438806058
	// {ID:2006515713438806058 UnixMs:1767225600000 Time:478390625343 Epoch:-1 Datacenter:1 Worker:7 Sequence:42}
}

func ExampleFormat() {
	s, _ := idgen.Format(2006515713438806058, 62, true)
	id, _ := idgen.Parse(s, 62)
	fmt.Println(s, id)
	// Output:
	// 2ODrWLs3Qde 2006515713438806058
}

func ExampleGenerator_DecodeText() {
	g, err := idgen.Open("preset=ulid")
	if err != nil {
		panic(err)
	}
	defer g.Close()
	p, _ := g.DecodeText("01ARZ3NDEKTSV4RRFFQ69G5FAV")
	fmt.Println(p.UnixMs)
	// Output:
	// 1469922850259
}

func ExampleCode() {
	_, err := idgen.Open("preset=snowflake worker=99")
	fmt.Println(errors.Is(err, idgen.ErrInvalid), idgen.Code(err))
	fmt.Println(err)
	// Output:
	// true -1
	// worker: want a whole number from 0 to 31, got "99"
}
