package lease

import (
	"fmt"
	"strconv"
	"strings"
)

// FormatText is a record as the stores that keep text (ZooKeeper, etcd)
// write it: "idgen-lease 2 <issued_up_to> <backwards> <seq> <holder>", or
// version 1 without the last two when both are 0 (an older idgen skips a
// version 2 pair rather than misread it).
func FormatText(r Record) []byte {
	if r.Seq > 0 || r.Holder != 0 {
		return []byte(fmt.Sprintf("idgen-lease 2 %d %d %d %d", r.IssuedUpTo, r.Backwards, r.Seq, r.Holder))
	}
	return []byte(fmt.Sprintf("idgen-lease 1 %d %d", r.IssuedUpTo, r.Backwards))
}

// ParseText accepts exactly what FormatText writes.
func ParseText(b []byte) (Record, bool) {
	f := strings.Fields(string(b))
	if len(f) < 4 || f[0] != "idgen-lease" || !(f[1] == "1" && len(f) == 4 || f[1] == "2" && len(f) == 6) {
		return Record{}, false
	}
	var v [4]int64
	for i, x := range f[2:] {
		var err error
		if v[i], err = strconv.ParseInt(x, 10, 64); err != nil || v[i] < 0 {
			return Record{}, false
		}
	}
	r := Record{IssuedUpTo: v[0], Backwards: v[1], Seq: v[2], Holder: v[3]}
	if string(b) != string(FormatText(r)) {
		return Record{}, false
	}
	return r, true
}
