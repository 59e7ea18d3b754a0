// Package redisstore is the Redis lease store (worker=redis://… or
// rediss://…, Redis ≥ 6). Per pool, all under one hash tag so that every
// script touches one cluster slot:
//
//	idgen:{pool}:lock:D:W   the lock: the holder's random token, set only
//	                        if absent, expiring lease_ttl after its last
//	                        renewal by the server's clock (PX)
//	idgen:{pool}:rec:D:W    the record, a hash: fence, backwards, and the
//	                        writer's token, write number, epoch, host,
//	                        pid, time
//	idgen:{pool}:pool       the pool's marker: its incarnation (a random
//	                        id), when it was made, when the latest loss was
//	                        seen (the epoch), the server's replication id
//
// Renewals, fence writes and releases are scripts (EVALSHA) that check the
// holder's token and write in one atomic step; expiry and the skew
// estimate use Redis's clock (TIME). With ?wait=N every record write then
// waits for N replicas (WAIT) before it counts as acknowledged. The client
// speaks to one address (a server, a primary behind a virtual IP or a
// proxy); it follows no Cluster or Sentinel redirects.
//
// # Losing data
//
// Redis can lose what it held: a restart without persistence, FLUSHALL, a
// failover to a replica that lagged. A record lost that way was a fence,
// up to max_outage ahead of the time it was written, and nothing else
// remembers it; a stale one (a lagging replica's) is below the fence its
// holder has. The marker tells a taker what a record, or its absence,
// means:
//
//   - No marker: the pool is new here, or the whole database was lost,
//     perhaps while a holder was cut off (frozen, partitioned) and so
//     cannot publish its fence again. The taker makes one (a new
//     incarnation) and, like every taker that finds the marker younger
//     than lease_ttl, waits until it is lease_ttl old before it reads what
//     a missing record means. Every live holder renews within lease_ttl/3,
//     and marks a loss when it finds the marker gone or of another
//     incarnation, its record gone, or its record older than its last
//     acknowledged write. A cut-off holder marks nothing, so the taker
//     asks the server (INFO, read at connection, facts.mayHaveLost): the
//     marker is made as a loss (lost = now, below) unless the server shows
//     it lost nothing a holder may still issue under: it keeps its data
//     across restarts (appendonly yes), or has run longer than the
//     horizon, and was not promoted since it started. The horizon is how
//     long a lost fence may matter: 2·max_outage + max_drift for a
//     generator with a clock (a fence is at most max_outage + max_drift
//     past the holder's last renewal, on a clock less than max_outage
//     apart), forever for zxid, which no wait passes (its FLUSHALL and
//     FLUSHDB count too, INFO commandstats).
//   - The marker keeps the server's replication id: a marker written under
//     another one outlived its server (a replica was promoted, or a server
//     restarted), and whoever sees that first, taker or holder, marks a
//     loss.
//   - A loss starts a new incarnation and epoch (the marker's lost time);
//     every record carries the epoch it was written in. A taker waits
//     until lease_ttl has passed since the latest loss, so that every live
//     holder has set its lock and published its fence again; then, while
//     the loss is less than the horizon old, a pair without a record, or
//     whose record is older than the epoch, is lease.Missing, its fence up
//     to max_outage ahead: a time generator takes it only once its clock
//     is past that (the Keeper prefers pairs with a record behind its
//     clock, and waits when there are none, one max_outage + max_drift:
//     on a Redis started or restarted less than the horizon ago without
//     appendonly, the first use of each pair waits that long, not only
//     lease_ttl); zxid, which cannot wait, refuses it, saying what to do:
//     restore the records, or declare the pool new (HDEL the marker's
//     lost field) when no id of it was ever issued here, or keep it on a
//     durable store. On a Redis without appendonly, zxid's first use of a
//     pool is refused that way too: nothing tells a new pool from a lost
//     one, and a lost epoch would be issued again. Each pair pays the
//     wait once: its first taker writes a record of the new epoch. Past
//     the horizon the loss is old: no fence a lost record held is ahead
//     any more, and a pair without a record is lease.Fresh again.
//   - No loss seen, or an old one: a pair without a record never had one
//     or its fence passed, lease.Fresh. The first use of a Redis that has
//     run longer than the horizon (or keeps an append-only file) waits for
//     no fence, only for lease_ttl.
//
// A server idgen cannot rely on is refused when a lease is taken (the
// error says what to change): a user not allowed INFO (it would leave
// idgen blind to a restart and a failover), and a maxmemory-policy of
// allkeys-*, which may evict a dead holder's record and make its pair look
// new (noeviction and volatile-* are fine: idgen's records never expire).
// Listing a pool (idgen leases) needs neither and writes nothing.
//
// Live holders meanwhile keep their pairs: while a holder's lock is its own
// or free, and its record is its own or gone, its renewal sets the lock
// again and publishes its fence; a pair that another holder holds or wrote
// is lease.ErrGone (the holder rides to its fence, which takers after the
// loss wait past, then leases again), never ErrRemoved.
//
// What is not covered: a flush, or a key deleted by hand, on a server
// that keeps running while the pool's holders are all cut off (for a
// clock generator FLUSHALL is seen only through the live holders:
// counting every flush since the server started would make every new pool
// on a server anyone ever flushed wait max_outage), CONFIG RESETSTAT
// hiding a flush from zxid, and a restart from a snapshot older than the
// pool's latest records on a server whose replication id survives it.
// ?wait=N makes a lock and a fence count only once N replicas have them,
// so a failover to one of those replicas loses nothing a holder relies
// on.
package redisstore
