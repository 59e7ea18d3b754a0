package zkstore

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/idgen/idgen/internal/lease"
)

// List reads a pool's record and lock nodes (idgen leases), creating
// nothing: a pool without a node has no entries.
func (s *Store) List(ctx context.Context, pool lease.Pool) ([]lease.Entry, error) {
	poolPath := s.url.Root + "/" + pool.Name
	var names []string
	err := s.call(ctx, func() error {
		var err error
		names, _, err = s.conn.Children(poolPath)
		return err
	})
	if errors.Is(err, zk.ErrNoNode) {
		return nil, nil
	}
	if err != nil {
		return nil, s.explain("list "+poolPath, err)
	}
	byPair := map[lease.Pair]*lease.Entry{}
	for _, n := range names {
		base, lock := strings.CutSuffix(n, ".lock")
		p, ok := lease.ParsePair(base)
		if !ok {
			continue
		}
		e := byPair[p]
		if e == nil {
			e = &lease.Entry{Pair: p}
			byPair[p] = e
		}
		data, _, err := s.get(ctx, poolPath+"/"+n)
		if errors.Is(err, zk.ErrNoNode) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, s.explain("read "+poolPath+"/"+n, err)
		}
		if lock {
			e.Held = true
			if _, h, ok := strings.Cut(string(data), " holder "); ok {
				e.Holder = h
			}
		} else if rec, ok := parse(data); ok {
			e.Record = rec
		}
	}
	out := make([]lease.Entry, 0, len(byPair))
	for _, e := range byPair {
		out = append(out, *e)
	}
	lease.SortEntries(out)
	return out, nil
}

// StoreNow is the ensemble's clock: the modification time the leader
// gives a write to <root>/.clock (made on first use).
func (s *Store) StoreNow(ctx context.Context) (time.Time, error) {
	path := s.url.Root + "/.clock"
	st, err := s.set(ctx, path, nil, -1)
	if errors.Is(err, zk.ErrNoNode) {
		if err := s.ensure(ctx, path); err != nil {
			return time.Time{}, err
		}
		st, err = s.set(ctx, path, nil, -1)
	}
	if err != nil {
		return time.Time{}, s.explain("write "+path, err)
	}
	return time.UnixMilli(st.Mtime), nil
}
