package dirstore

import (
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/lease"
)

// The record: fixed length, rewritten in place, with a CRC-32 of the text
// before it. Version 2 adds the sequence a clean release leaves and the
// writer's random holder number:
//
//	idgen-lease 2 <issued_up_to: 20 digits> <backwards: 3 digits> <seq: 20 digits> <holder: 20 digits> <crc32: 8 hex>\n
//
// Version 1 (without them, recordLen1 bytes) is still read, as 0 and 0.
const (
	recordLen  = len("idgen-lease 2 ") + 20 + 1 + 3 + 1 + 20 + 1 + 20 + 1 + 8 + 1
	recordLen1 = len("idgen-lease 1 ") + 20 + 1 + 3 + 1 + 8 + 1
)

func formatRecord(r lease.Record) []byte {
	body := fmt.Sprintf("idgen-lease 2 %020d %03d %020d %020d ", r.IssuedUpTo, r.Backwards, r.Seq, r.Holder)
	return []byte(fmt.Sprintf("%s%08x\n", body, crc32.ChecksumIEEE([]byte(body))))
}

// parseRecord accepts exactly what formatRecord writes, or a version 1
// record: anything else (torn, truncated, garbage) is not a record.
func parseRecord(b []byte) (lease.Record, bool) {
	n := len(b)
	if n != recordLen && n != recordLen1 || b[n-1] != '\n' {
		return lease.Record{}, false
	}
	body, sum := string(b[:n-9]), string(b[n-9:n-1])
	if fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(body))) != sum {
		return lease.Record{}, false
	}
	f := strings.Fields(body)
	want := map[int]string{recordLen: "2", recordLen1: "1"}[n]
	if len(f) < 4 || f[0] != "idgen-lease" || f[1] != want || len(f) != map[string]int{"1": 4, "2": 6}[want] {
		return lease.Record{}, false
	}
	var v [4]int64
	for i, x := range f[2:] {
		var err error
		if v[i], err = strconv.ParseInt(x, 10, 64); err != nil || v[i] < 0 {
			return lease.Record{}, false
		}
	}
	return lease.Record{IssuedUpTo: v[0], Backwards: v[1], Seq: v[2], Holder: v[3]}, true
}
