package pgstore

import (
	"context"

	"github.com/idgen/idgen/internal/lease"
)

// The next_seq column keeps the sequence a clean release leaves (the
// record's Seq), so a clean restart on the pair goes on in the same tick.
// A table made by an older idgen, or by a DBA from its DDL, may lack it:
// idgen adds it when the role may, and otherwise writes no Seq — a clean
// restart then starts in the next tick, as it did before.

// checkSeq finds out whether the existing table has next_seq, adding it
// when it is missing and the role may alter the table.
func (s *Store) checkSeq(ctx context.Context) error {
	if _, err := s.query(ctx, "SELECT next_seq FROM "+s.table+" LIMIT 0"); err == nil {
		s.seq = true
		return nil
	}
	_, err := s.query(ctx, "ALTER TABLE "+s.table+" ADD COLUMN IF NOT EXISTS next_seq bigint NOT NULL DEFAULT 0")
	s.seq = err == nil
	return nil
}

// seqColumn is next_seq (prefixed) in a RETURNING list, or 0 without it.
func (s *Store) seqColumn(prefix string) string {
	if s.seq {
		return prefix + "next_seq"
	}
	return "0"
}

// recordSet sets the record's columns from $5 on.
func (s *Store) recordSet() string {
	if s.seq {
		return "issued_up_to = $5::bigint, backwards = $6::bigint, next_seq = $7::bigint"
	}
	return "issued_up_to = $5::bigint, backwards = $6::bigint"
}

// recordArgs are recordSet's values.
func (s *Store) recordArgs(r lease.Record) []string {
	if s.seq {
		return []string{itoa(r.IssuedUpTo), itoa(r.Backwards), itoa(r.Seq)}
	}
	return []string{itoa(r.IssuedUpTo), itoa(r.Backwards)}
}
