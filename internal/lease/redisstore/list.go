package redisstore

// Listing a pool for operators (idgen leases): SCAN over the pool's keys
// and a read of each, writing and creating nothing (no marker is made, no
// script is run).

import (
	"context"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

var _ lease.Lister = (*Store)(nil)

// List reads every record and lock of the pool, lowest pair first.
func (s *Store) List(ctx context.Context, pool lease.Pool) ([]lease.Entry, error) {
	prefix := "idgen:{" + pool.Name + "}:"
	byPair := map[lease.Pair]*lease.Entry{}
	cursor := "0"
	for {
		v, err := s.call(ctx, "SCAN", cursor, "MATCH", prefix+"*", "COUNT", "1000")
		if err != nil {
			return nil, err
		}
		a, _ := v.([]any)
		if len(a) != 2 {
			return nil, errs.New(errs.ErrWorker, "%s: unexpected SCAN reply", s.url.Where)
		}
		keys, _ := a[1].([]any)
		for _, k := range keys {
			if err := s.listKey(ctx, pool.Name, byPair, strings.TrimPrefix(str(k), prefix)); err != nil {
				return nil, err
			}
		}
		if cursor = str(a[0]); cursor == "0" || cursor == "" {
			break
		}
	}
	out := make([]lease.Entry, 0, len(byPair))
	for _, e := range byPair {
		out = append(out, *e)
	}
	lease.SortEntries(out)
	return out, nil
}

// listKey reads one key of the pool: "lock:D:W" (the pair is held) or
// "rec:D:W" (its record, which names its last writer); the marker and
// anything else are skipped.
func (s *Store) listKey(ctx context.Context, pool string, byPair map[lease.Pair]*lease.Entry, name string) error {
	kind, pair, _ := strings.Cut(name, ":")
	p, ok := lease.ParsePair(strings.Replace(pair, ":", ".", 1))
	if !ok || kind != "lock" && kind != "rec" {
		return nil
	}
	e := byPair[p]
	if e == nil {
		e = &lease.Entry{Pair: p}
		byPair[p] = e
	}
	if kind == "lock" {
		v, err := s.call(ctx, "EXISTS", lockKey(pool, p))
		n, _ := v.(int64)
		e.Held = n == 1 // it may have expired since SCAN saw it
		return err
	}
	v, err := s.call(ctx, "HMGET", recKey(pool, p), "fence", "backwards", "next_seq", "holder", "host", "pid")
	if err != nil {
		return err
	}
	a, _ := v.([]any)
	if len(a) != 6 || str(a[0]) == "" {
		return nil // gone since SCAN saw it
	}
	var bad error
	num := func(x any) int64 {
		n, err := strconv.ParseInt(str(x), 10, 64)
		if err != nil && str(x) != "" {
			bad = errs.New(errs.ErrWorker, "%s: key %s holds a bad record (%q)", s.url.Where, recKey(pool, p), str(x))
		}
		return n
	}
	e.Record = lease.Record{IssuedUpTo: num(a[0]), Backwards: num(a[1]), Seq: num(a[2]), Holder: num(a[3])}
	if h, pid := str(a[4]), str(a[5]); h != "" && pid != "" {
		e.Holder = h + ":" + pid
	}
	return bad
}
