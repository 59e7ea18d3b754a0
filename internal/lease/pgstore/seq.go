package pgstore

import (
	"context"
	"strconv"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
)

// Two columns came after the first tables: next_seq keeps the sequence a
// clean release leaves (the record's Seq), so a clean restart on the pair
// goes on in the same tick, and writer the random number of the Keeper
// that wrote the record (its Holder), so a holder knows its own record
// when it takes its pair again. A table made by an older idgen, or by a
// DBA from its DDL, may lack them: idgen then writes neither — a clean
// restart starts in the next tick, and a holder whose claim lapsed waits
// for its own fence like anyone's. Opening never alters the table: an
// ALTER waits for every open transaction on it and every statement of the
// live holders queues behind its lock, so their renewals stop with the
// store up. A DBA adds the columns while no holder uses the table: ALTER
// TABLE t ADD COLUMN next_seq bigint NOT NULL DEFAULT 0, ADD COLUMN
// writer bigint NOT NULL DEFAULT 0.

// checkSeq finds out whether the existing table has both columns,
// changing nothing.
func (s *Store) checkSeq(ctx context.Context) error {
	_, err := s.query(ctx, "SELECT next_seq, writer FROM "+s.table+" LIMIT 0")
	s.seq = err == nil
	return nil
}

// seqColumn is next_seq and writer (prefixed) in a RETURNING list, or 0s
// without them.
func (s *Store) seqColumn(prefix string) string {
	if s.seq {
		return prefix + "next_seq, " + prefix + "writer"
	}
	return "0, 0"
}

// recordSet sets the record's columns from $5 on.
func (s *Store) recordSet() string {
	return sqlclaim.RecordSet(s.seq, func(i int) string { return "$" + strconv.Itoa(5+i) + "::bigint" })
}

// recordArgs are recordSet's values.
func (s *Store) recordArgs(r lease.Record) []string {
	var out []string
	for _, v := range sqlclaim.RecordArgs(s.seq, r) {
		out = append(out, itoa(v))
	}
	return out
}
