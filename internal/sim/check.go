package sim

import "fmt"

// checker sees every id a schedule issued: no id twice across all
// processes of the pool, each generator strictly increasing.
type checker struct {
	seen    map[int64]int // id -> the generator that issued it
	last    map[int]int64 // generator -> its last id
	failure string        // the first check that failed
}

func newChecker() *checker { return &checker{seen: map[int64]int{}, last: map[int]int64{}} }

func (c *checker) fail(format string, args ...any) {
	if c.failure == "" {
		c.failure = fmt.Sprintf(format, args...)
	}
}

func (c *checker) id(gid int, id int64) {
	if id < 0 {
		c.fail("g%d issued a negative id %d", gid, id)
	}
	if other, dup := c.seen[id]; dup {
		c.fail("id %d issued twice: by g%d and g%d", id, other, gid)
	}
	c.seen[id] = gid
	if last, ok := c.last[gid]; ok && id <= last {
		c.fail("g%d went back: %d after %d", gid, id, last)
	}
	c.last[gid] = id
}
