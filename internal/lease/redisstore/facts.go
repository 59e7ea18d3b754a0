package redisstore

// What a server says about itself (INFO), read once per connection: its
// replication id, how long it has run, whether it was promoted or flushed
// since it started, whether it keeps an append-only file, and its eviction
// policy. The lease store decides with them whether a pool without a
// marker may have lost its data, and refuses a server that could drop a
// record by itself.

import (
	"strconv"
	"strings"
	"time"
)

// facts is a server's INFO, as far as the lease store reads it.
type facts struct {
	denied  string // the error INFO was answered with ("": read)
	replid  string // the replication id as a primary ("" if unknown)
	uptime  time.Duration
	promote bool   // a replica promoted since it started (second_repl_offset set)
	flushes int64  // FLUSHALL and FLUSHDB calls since it started (or CONFIG RESETSTAT)
	aof     bool   // appendonly yes: a restart keeps what was written
	policy  string // maxmemory-policy
}

// parseFacts reads INFO's "key:value" lines.
func parseFacts(text string) facts {
	f := facts{}
	master := false
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		switch k {
		case "role":
			master = v == "master"
		case "master_replid":
			f.replid = v
		case "uptime_in_seconds":
			n, _ := strconv.ParseInt(v, 10, 64)
			f.uptime = time.Duration(n) * time.Second
		case "second_repl_offset":
			f.promote = v != "-1"
		case "aof_enabled":
			f.aof = v == "1"
		case "maxmemory_policy":
			f.policy = v
		case "cmdstat_flushall", "cmdstat_flushdb":
			calls, _, _ := strings.Cut(strings.TrimPrefix(v, "calls="), ",")
			n, _ := strconv.ParseInt(calls, 10, 64)
			f.flushes += n
		}
	}
	if !master {
		f.replid = ""
	}
	return f
}

// Forever is the horizon of a counter layout (zxid): a lost record of it
// matters for good, as no clock passes it.
const Forever = time.Duration(1<<63 - 1)

// mayHaveLost reports whether a pool without a marker on this server may
// be one whose data was lost while a holder with a fence up to horizon
// ahead could still issue under it. A server that was promoted since it
// started may have lost it; one that keeps its data across restarts
// (appendonly) or has run longer than horizon did not lose it by a
// restart. A counter layout (horizon Forever) also counts FLUSHALL and
// FLUSHDB since the server started (INFO commandstats): a time layout
// does not, or every new pool on a server anyone ever flushed would wait
// max_outage (a flush while a holder is cut off is seen by the holders
// only: package doc). Unknown facts (INFO denied) say it may.
func (f facts) mayHaveLost(horizon time.Duration) bool {
	switch {
	case f.denied != "" || f.promote:
		return true
	case horizon == Forever:
		return !f.aof || f.flushes > 0
	}
	return !f.aof && f.uptime < horizon
}

// unfit is why the lease store refuses the server, "" when it does not:
// without INFO it cannot see a loss, and an allkeys-* policy evicts
// records (a dead holder's fence) by itself.
func (f facts) unfit(user string) string {
	if user == "" {
		user = "default"
	}
	switch {
	case f.denied != "":
		return "user " + strconv.Quote(user) + " may not run INFO (" + f.denied + "), without which idgen cannot see that Redis lost its data (a restart, a failover) and refuses rather than risk a duplicate: allow it (ACL SETUSER " + user + " +info)"
	case strings.HasPrefix(f.policy, "allkeys-"):
		return "maxmemory-policy is " + f.policy + ", which may evict a pair's record (the fence of a holder that died) and make the pair look new: set it to noeviction or a volatile-* policy (idgen's records never expire), or give this pool a Redis of its own"
	}
	return ""
}
