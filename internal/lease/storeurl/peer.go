package storeurl

// A segment store's counters kept in a peer's table: the SQL stores'
// ?format=leaf|tinyid[&table=NAME].

import "github.com/idgen/idgen/internal/errs"

// The peers' tables a segment store may continue (format=).
const (
	FormatLeaf   = "leaf"   // Meituan Leaf's leaf_alloc
	FormatTinyid = "tinyid" // Didi tinyid's tiny_id_info
)

// PeerTable reads format= and table=: a peer's table, by default its
// usual name; table= alone is refused (idgen's own table is named by
// lease_table=).
func PeerTable(u *StoreURL, scheme, format, table string) error {
	switch format {
	case "":
		if table != "" {
			return errs.Key("worker", "%s://…?table= applies with format=leaf or format=tinyid (idgen's own counter table is named by lease_table=)", scheme)
		}
		return nil
	case FormatLeaf:
		u.Table = "leaf_alloc"
	case FormatTinyid:
		u.Table = "tiny_id_info"
	default:
		return errs.Key("worker", "%s://…?format=%q: want leaf (Leaf's leaf_alloc) or tinyid (tinyid's tiny_id_info)", scheme, format)
	}
	u.Format = format
	if table != "" {
		if !plainIdent(table) {
			return errs.Key("worker", "%s://…?table=%q: want a plain table name (letters, digits, _)", scheme, table)
		}
		u.Table = table
	}
	return nil
}

// plainIdent: letters, digits and _, not starting with a digit, at most 64.
func plainIdent(s string) bool {
	if s == "" || len(s) > 64 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
