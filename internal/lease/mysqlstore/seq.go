package mysqlstore

import (
	"context"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
)

// Two columns came after the first tables: next_seq keeps the sequence a
// clean release leaves (the record's Seq), so a clean restart on the pair
// goes on in the same tick, and writer the random number of the Keeper
// that wrote the record (its Holder), so a holder knows its own record
// when it takes its pair again. A table made by an older idgen, or by a
// DBA from an older DDL, may lack them: idgen then writes neither (a clean
// restart starts in the next tick; a holder whose claim lapsed waits for
// its own fence like anyone's). Opening never alters the table: an ALTER
// waits for every open transaction on it (a reader's, a report's) and
// every statement of the live holders queues behind it, so their renewals
// stop with the store up. A DBA adds the columns while no holder uses
// the table: ALTER TABLE t ADD COLUMN next_seq BIGINT NOT NULL DEFAULT 0,
// ADD COLUMN writer BIGINT NOT NULL DEFAULT 0.

// checkSeq finds out whether the table has both columns, changing nothing.
func (s *Store) checkSeq(ctx context.Context) {
	_, err := s.db.ExecContext(ctx, "SELECT next_seq, writer FROM "+s.table+" LIMIT 0")
	s.seq = err == nil
}

// seqColumn is next_seq and writer in a select list, or 0s without them.
func (s *Store) seqColumn() string {
	if s.seq {
		return "next_seq, writer"
	}
	return "0, 0"
}

// recordSet sets the record's columns (recordArgs are its values).
func (s *Store) recordSet() string {
	return sqlclaim.RecordSet(s.seq, func(int) string { return "?" })
}

func (s *Store) recordArgs(r lease.Record) []any {
	var out []any
	for _, v := range sqlclaim.RecordArgs(s.seq, r) {
		out = append(out, v)
	}
	return out
}
