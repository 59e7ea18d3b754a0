package etcdstore

// Listing a pool for operators (idgen leases): one range over the pool's
// prefix, a linearizable read that writes, grants and creates nothing.

import (
	"context"
	"fmt"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

var _ lease.Lister = (*Store)(nil)

// List reads every record and lock under the pool's prefix, paging by
// key (a pool of many pairs is read in bounded pages), lowest pair first.
func (s *Store) List(ctx context.Context, pool lease.Pool) ([]lease.Entry, error) {
	prefix := s.url.Root + "/" + pool.Name + "/"
	end := prefixEnd(prefix)
	byPair := map[lease.Pair]*lease.Entry{}
	from := []byte(prefix)
	for {
		var r rangeResp
		err := s.c.call(ctx, "/v3/kv/range", obj{"key": from, "range_end": end, "limit": i64(listPage)}, &r)
		if err != nil {
			return nil, s.fail("list the keys under "+prefix, err)
		}
		for _, k := range r.Kvs {
			if err := addKey(byPair, strings.TrimPrefix(string(k.Key), prefix), k); err != nil {
				return nil, errs.New(errs.ErrWorker, "%s: %v", s.url.Where, err)
			}
		}
		if len(r.Kvs) < listPage {
			break
		}
		from = append(append([]byte{}, r.Kvs[len(r.Kvs)-1].Key...), 0) // the next key after the last
	}
	out := make([]lease.Entry, 0, len(byPair))
	for _, e := range byPair {
		out = append(out, *e)
	}
	lease.SortEntries(out)
	return out, nil
}

// listPage is how many keys one range reads.
const listPage = 1000

// addKey notes one key of the pool: "<dc>.<worker>" (a record) or
// "<dc>.<worker>.lock" (a held pair; its value names the holder).
func addKey(byPair map[lease.Pair]*lease.Entry, name string, k kv) error {
	rest, isLock := strings.CutSuffix(name, ".lock")
	p, ok := lease.ParsePair(rest)
	if !ok {
		return nil // not a pair's key: someone else's, left alone
	}
	e := byPair[p]
	if e == nil {
		e = &lease.Entry{Pair: p}
		byPair[p] = e
	}
	if isLock {
		e.Held, e.Holder = true, lockHolder(string(k.Value))
		return nil
	}
	rec, ok := parse(k.Value)
	if !ok {
		return fmt.Errorf("the record %s is not an idgen record (%q)", string(k.Key), clip(k.Value))
	}
	e.Record = rec
	return nil
}

// lockHolder reads "host:pid" from a lock's value (lockValue); "" when it
// does not say.
func lockHolder(v string) string {
	var host, pid string
	for _, f := range strings.Fields(v) {
		if h, ok := strings.CutPrefix(f, "host="); ok {
			host = h
		}
		if p, ok := strings.CutPrefix(f, "pid="); ok {
			pid = p
		}
	}
	if host == "" || pid == "" {
		return ""
	}
	return host + ":" + pid
}

// prefixEnd is the range_end that covers every key beginning with prefix.
func prefixEnd(prefix string) []byte {
	end := []byte(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return []byte{0}
}
