package lease

import (
	"context"
	"os"
	"strconv"
)

// Entry is one pair of a pool as its store holds it, for operators (idgen
// leases): the record, whether a live holder claims the pair, and who
// held it last when the store knows ("host:pid").
type Entry struct {
	Pair   Pair
	Record Record
	Held   bool
	Holder string
}

// Lister is a Store that lists a pool's pairs without taking, writing or
// creating anything: one Entry per pair it has a record (or a lock) of,
// lowest pair first.
type Lister interface {
	List(ctx context.Context, pool Pool) ([]Entry, error)
}

// HolderID names this process for operators: "host:pid". Stores keep it
// beside a claim where they can (never used in a decision).
func HolderID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	return host + ":" + strconv.Itoa(os.Getpid())
}
