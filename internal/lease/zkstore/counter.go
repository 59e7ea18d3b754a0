package zkstore

// Segment counters (preset=segment store=zk://…): one persistent node per
// counter, <root>/segment/<name>, holding "idgen-segment 1 <last>". A
// take reads the node and writes the new value with a compare-and-set on
// the version it read; a racing taker's write makes it read again. A
// write whose answer never came may have landed: its values are then
// lost, never handed out twice (nothing is handed out without an answer).
// A take with a mark (segment.Store) refuses a node that is missing or
// below it, and creates nothing; the compare-and-set on the version read
// makes the check and the write one atomic step.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// Counters is a ZooKeeper ensemble as a segment.Store.
type Counters struct{ s *Store }

// OpenCounters connects (a session within timeout + 3 s).
func OpenCounters(u *storeurl.StoreURL, timeout time.Duration) (*Counters, error) {
	s, err := Open(u, timeout)
	if err != nil {
		return nil, err
	}
	return &Counters{s: s}, nil
}

// Where names the ensemble and the root.
func (c *Counters) Where() string { return c.s.url.Where }

// Close ends the session.
func (c *Counters) Close() error { return c.s.Close() }

func (c *Counters) path(name string) string { return c.s.url.Root + "/segment/" + name }

// read returns the counter and its node's version; found is false when
// the node is missing.
func (c *Counters) read(ctx context.Context, name string) (v int64, version int32, found bool, err error) {
	data, st, err := c.s.get(ctx, c.path(name))
	if errors.Is(err, zk.ErrNoNode) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, c.s.explain("read counter "+c.path(name), err)
	}
	f := strings.Fields(string(data))
	if len(f) != 3 || f[0] != "idgen-segment" || f[1] != "1" {
		return 0, 0, false, errs.New(errs.ErrWorker, "%s: node %s does not hold an idgen counter (%q); idgen never guesses one", c.Where(), c.path(name), clipData(data))
	}
	v, perr := strconv.ParseInt(f[2], 10, 64)
	if perr != nil || v < 0 {
		return 0, 0, false, errs.New(errs.ErrWorker, "%s: node %s holds a bad counter %q", c.Where(), c.path(name), clipData(data))
	}
	return v, st.Version, true, nil
}

func clipData(b []byte) string {
	if len(b) > 64 {
		return string(b[:64]) + "..."
	}
	return string(b)
}

func formatCounter(v int64) []byte { return []byte(fmt.Sprintf("idgen-segment 1 %d", v)) }

// update changes the counter with a compare-and-set, reading again after
// a racing write, until f says what to write or fails.
func (c *Counters) update(ctx context.Context, name string, start, mark int64, f func(v int64) (int64, error)) (int64, error) {
	p := c.path(name)
	for {
		v, version, found, err := c.read(ctx, name)
		if err != nil {
			return 0, err
		}
		if !found && mark > 0 || found && v < mark {
			fix := fmt.Sprintf("zkCli.sh set %s 'idgen-segment 1 %d' (create it when missing)", p, mark)
			return 0, segment.WentBack(c.Where(), name, mark, v, found, fix)
		}
		if !found {
			if err := c.s.ensure(ctx, c.s.url.Root+"/segment"); err != nil {
				return 0, err
			}
			err := c.s.call(ctx, func() error {
				_, err := c.s.conn.Create(p, formatCounter(start-1), zk.FlagPersistent, c.s.acl)
				return err
			})
			if err != nil && !errors.Is(err, zk.ErrNodeExists) {
				return 0, c.s.explain("create counter "+p, err)
			}
			continue
		}
		nv, err := f(v)
		if err != nil {
			return v, err
		}
		_, err = c.s.set(ctx, p, formatCounter(nv), version)
		if errors.Is(err, zk.ErrBadVersion) {
			continue // a racing writer: read again
		}
		if err != nil {
			return 0, c.s.explain("write counter "+p, err)
		}
		return v, nil
	}
}

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	var last int64
	prev, err := c.update(ctx, name, start, mark, func(v int64) (int64, error) {
		var err error
		last, err = segment.Advance(v, n)
		return last, err
	})
	if err != nil {
		return 0, 0, err
	}
	return prev, last, nil
}

// GiveBack implements segment.Store.
func (c *Counters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	v, version, found, err := c.read(ctx, name)
	if err != nil || !found || v != last {
		return false, err
	}
	_, err = c.s.set(ctx, c.path(name), formatCounter(to), version)
	if errors.Is(err, zk.ErrBadVersion) {
		return false, nil // somebody took a segment since
	}
	if err != nil {
		return false, c.s.explain("write counter "+c.path(name), err)
	}
	return true, nil
}

// Read implements segment.Store.
func (c *Counters) Read(ctx context.Context, name string) (int64, bool, error) {
	v, _, found, err := c.read(ctx, name)
	return v, found, err
}
