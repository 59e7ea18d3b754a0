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
// DBA from an older DDL, may lack them: idgen adds them when the user may
// alter the table, and otherwise writes neither (a clean restart then
// starts in the next tick; a holder whose claim lapsed waits for its own
// fence like anyone's).

const (
	errBadField = 1054 // unknown column
	errDupField = 1060 // the column exists (a racer added it)
)

// checkSeq finds out whether the table has both columns, adding each that
// is missing when the user may.
func (s *Store) checkSeq(ctx context.Context) {
	s.seq = true
	for _, col := range []string{"next_seq", "writer"} {
		_, err := s.db.ExecContext(ctx, "SELECT "+col+" FROM "+s.table+" LIMIT 0")
		if errNumber(err) == errBadField {
			_, err = s.db.ExecContext(ctx, "ALTER TABLE "+s.table+" ADD COLUMN "+col+" BIGINT NOT NULL DEFAULT 0")
			if errNumber(err) == errDupField {
				err = nil // a racer added it
			}
		}
		s.seq = s.seq && err == nil
	}
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
