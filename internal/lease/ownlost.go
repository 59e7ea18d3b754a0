package lease

// A counter layout's own pair whose record was removed under it: taken
// again above what it issued (DESIGN: a counter layout refuses a missing
// record unless it knows a floor above every earlier value).

import "errors"

// ownLost reports whether a Keeper whose own pair's record was removed
// (Missing) takes the pair again above what it issued, without waiting:
// a counter layout, which no wait can pass (it has no LostFloor), knows
// a floor above every earlier value of the pair — its own — when it held
// the pair until its record was removed (its claim said ErrRemoved and
// is a LockedToTheEnd: nobody took the pair from it before), since it
// went above its predecessor's record when it took the pair, and nobody
// else takes a pair whose record is missing. A time generator waits as
// any taker: someone may have taken the pair while the file was gone.
func (k *Keeper) ownLost(old *Lease) bool {
	_, canLose := k.iss.LostFloor()
	lk, ok := old.claim.(LockedToTheEnd)
	return !canLose && errors.Is(k.gone, ErrRemoved) && ok && lk.LockedToTheEnd()
}

// LockedToTheEnd is a Claim that can say nobody could take its pair while
// it was held, until its record was removed (the host directory: a flock
// lasts as long as the process).
type LockedToTheEnd interface{ LockedToTheEnd() bool }
