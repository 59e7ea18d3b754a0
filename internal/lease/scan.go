package lease

// The candidate scan of a store that takes a pair at a time (the host
// directory, ZooKeeper, etcd, the in-memory store): the store answers
// "try this pair", the scan walks the request's candidates lowest first,
// gives back a pair whose record the request skips, and counts what it
// passed for the pool-full message. Stores that claim in one round trip
// (the SQL stores' one statement, Redis's script) keep that fast path and
// report their own tally through PoolFull.

// Missed says why a scan could not take one pair: Kind counts it in the
// tally (Held, Skipped, or a kind of the store's own), Note is what the
// message shows of the first pair of its kind ("" for none).
type Missed struct {
	Kind string
	Note string
}

// Kinds of Missed every store has.
const (
	Held    = "held"    // another holder has the pair
	Skipped = "skipped" // free, but the request skips its record
)

// Tally counts a scan's missed pairs by kind, with the first note of each.
type Tally struct {
	n     map[string]int
	first map[string]string
}

func (t *Tally) add(m Missed) {
	if t.n == nil {
		t.n, t.first = map[string]int{}, map[string]string{}
	}
	t.n[m.Kind]++
	if _, ok := t.first[m.Kind]; !ok {
		t.first[m.Kind] = m.Note
	}
}

// Count is how many pairs of kind the scan passed.
func (t Tally) Count(kind string) int { return t.n[kind] }

// First is the note of the first pair of kind ("" for none).
func (t Tally) First(kind string) string { return t.first[kind] }

// Scan offers req's candidates to try, lowest first, and returns the
// first claim try makes whose predecessor's record req does not skip. A
// claim it skips goes to giveBack (which returns the pair unwritten and
// names it for the tally), and counts as Skipped. An error of try or
// giveBack ends the scan; with no pair taken, the error is full's, given
// the tally (lease.PoolFull, in the store's words).
func Scan(req Request, try func(Pair) (Claim, Missed, error), giveBack func(Claim) (string, error), full func(Tally) error) (Claim, error) {
	var t Tally
	for _, p := range req.Candidates() {
		c, m, err := try(p)
		if err != nil {
			return nil, err
		}
		if c != nil {
			rec, st := c.Predecessor()
			if !req.Skips(p, rec, st) {
				return c, nil
			}
			note, err := giveBack(c)
			if err != nil {
				return nil, err
			}
			m = Missed{Kind: Skipped, Note: note}
		}
		t.add(m)
	}
	return nil, full(t)
}
