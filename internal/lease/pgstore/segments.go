package pgstore

// Which counters a segment store's URL opens: idgen's own table, or a
// peer's (format=leaf, format=tinyid).

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// OpenSegments opens the counters u names: a peer's table when u has a
// format, else idgen's own table (made on first use).
func OpenSegments(u *storeurl.StoreURL, table string, timeout time.Duration) (segment.Store, error) {
	if u.Format != "" {
		c, err := OpenPeerCounters(u, timeout)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	c, err := OpenCounters(u, table, timeout)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// SegmentReader reads counters (idgen leases), writing nothing.
type SegmentReader interface {
	Read(ctx context.Context, name string) (last int64, found bool, err error)
	Where() string
	Close() error
}

// OpenSegmentsReadOnly opens the counters u names for reading: no table
// made, no row written (a peer's table is only read when opened).
func OpenSegmentsReadOnly(u *storeurl.StoreURL, table string, timeout time.Duration) (SegmentReader, error) {
	if u.Format != "" {
		c, err := OpenPeerCounters(u, timeout)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	c, err := OpenCountersReadOnly(u, table, timeout)
	if err != nil {
		return nil, err
	}
	return c, nil
}
