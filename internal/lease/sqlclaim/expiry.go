package sqlclaim

// The SQL stores' expiry arithmetic: a row's expiry is bucketed, so a
// renewal within one bucket writes nothing new.

import "time"

// Interval is the bucket width for a lease_ttl: a quarter of it, in whole
// milliseconds, at least 1 ms.
func Interval(ttl time.Duration) time.Duration {
	return max(time.Millisecond, (ttl / 4).Truncate(time.Millisecond))
}

// Expiry is the bucketed expiry of a lease renewed at now (unix ms):
// (⌊(now + ttl) / interval⌋ + 1) · interval. The database computes the
// same in SQL (expirySQL); this is its specification and its unit test.
func Expiry(nowMs int64, ttl time.Duration) int64 {
	iv := Interval(ttl).Milliseconds()
	return ((nowMs+ttl.Milliseconds())/iv + 1) * iv
}
