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
// DBA from its DDL, may lack them: idgen adds them when the role may, and
// otherwise writes neither — a clean restart then starts in the next tick,
// and a holder whose claim lapsed waits for its own fence like anyone's.

// checkSeq finds out whether the existing table has both columns, adding
// them when they are missing and the role may alter the table.
func (s *Store) checkSeq(ctx context.Context) error {
	if _, err := s.query(ctx, "SELECT next_seq, writer FROM "+s.table+" LIMIT 0"); err == nil {
		s.seq = true
		return nil
	}
	_, err := s.query(ctx, "ALTER TABLE "+s.table+" ADD COLUMN IF NOT EXISTS next_seq bigint NOT NULL DEFAULT 0, ADD COLUMN IF NOT EXISTS writer bigint NOT NULL DEFAULT 0")
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
