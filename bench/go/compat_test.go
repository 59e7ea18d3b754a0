package peers

// The peers' own code reads idgen's ids, and idgen reads theirs: the
// sonyflake v1 and v2 presets against sony/sonyflake v2, the snowflake
// preset against bwmarrin/snowflake. Run by make test (test-peers).

import (
	"testing"
	"time"

	bw "github.com/bwmarrin/snowflake"
	"github.com/idgen/idgen"
	"github.com/sony/sonyflake/v2"
)

func mustOpen(t *testing.T, config string) *idgen.Generator {
	t.Helper()
	g, err := idgen.Open(config)
	if err != nil {
		t.Fatalf("%s: %v", config, err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func TestSonyflakeBothWays(t *testing.T) {
	for _, c := range []struct {
		preset string
		start  time.Time // zero: sonyflake v2's default, 2025-01-01 UTC
	}{
		{"sonyflake-v2", time.Time{}},
		{"sonyflake", time.Date(2014, 9, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(c.preset, func(t *testing.T) {
			sf, err := sonyflake.New(sonyflake.Settings{StartTime: c.start, MachineID: func() (int, error) { return 4242, nil }})
			if err != nil {
				t.Fatal(err)
			}
			g := mustOpen(t, "preset="+c.preset+" worker=4242")
			for i := 0; i < 1000; i++ {
				// idgen's id through sonyflake's Decompose and ToTime.
				id, err := g.Next()
				if err != nil {
					t.Fatal(err)
				}
				p, err := g.Decode(id)
				if err != nil {
					t.Fatal(err)
				}
				d := sonyflake.Decompose(id)
				if d["time"] != p.Time || d["sequence"] != p.Sequence || d["machine"] != p.Worker || p.Worker != 4242 {
					t.Fatalf("idgen id %d: sonyflake reads %v, idgen %+v", id, d, p)
				}
				if ms := sf.ToTime(id).UnixMilli(); ms != p.UnixMs {
					t.Fatalf("idgen id %d: sonyflake's time %d ms, idgen's %d ms", id, ms, p.UnixMs)
				}
				// sonyflake's id through idgen's Decode and Compose.
				sid, err := sf.NextID()
				if err != nil {
					t.Fatal(err)
				}
				q, err := g.Decode(sid)
				if err != nil {
					t.Fatal(err)
				}
				e := sonyflake.Decompose(sid)
				if e["time"] != q.Time || e["sequence"] != q.Sequence || e["machine"] != q.Worker || sf.ToTime(sid).UnixMilli() != q.UnixMs {
					t.Fatalf("sonyflake id %d: its parts %v, idgen reads %+v", sid, e, q)
				}
				back, err := g.Compose(idgen.Parts{UnixMs: -1, Time: e["time"], Epoch: -1, Datacenter: -1, Worker: e["machine"], Sequence: e["sequence"]})
				if err != nil || back != sid {
					t.Fatalf("compose of sonyflake's parts: %d, %v; want %d", back, err, sid)
				}
			}
			if now := time.Now().UnixMilli(); c.preset == "sonyflake-v2" {
				id, _ := g.Next()
				p, _ := g.Decode(id)
				if p.UnixMs < now-50 || p.UnixMs > now+50 {
					t.Fatalf("sonyflake-v2 id dated %d, now %d: wrong start time", p.UnixMs, now)
				}
			}
		})
	}
}

func TestBwmarrinSnowflakeBothWays(t *testing.T) {
	node, err := bw.NewNode(5<<5 | 9) // bwmarrin's 10-bit node is Twitter's datacenter:5, worker:5
	if err != nil {
		t.Fatal(err)
	}
	g := mustOpen(t, "preset=snowflake datacenter=5 worker=9")
	for i := 0; i < 1000; i++ {
		id, err := g.Next()
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Decode(id)
		if err != nil {
			t.Fatal(err)
		}
		b := bw.ParseInt64(id)
		if b.Time() != p.UnixMs || b.Node() != p.Datacenter<<5|p.Worker || b.Step() != p.Sequence {
			t.Fatalf("idgen id %d: bwmarrin reads time %d node %d step %d; idgen %+v", id, b.Time(), b.Node(), b.Step(), p)
		}
		bid := node.Generate()
		q, err := g.Decode(bid.Int64())
		if err != nil {
			t.Fatal(err)
		}
		if bid.Time() != q.UnixMs || q.Datacenter != 5 || q.Worker != 9 || bid.Step() != q.Sequence {
			t.Fatalf("bwmarrin id %d: time %d step %d; idgen reads %+v", bid, bid.Time(), bid.Step(), q)
		}
	}
}
