package sim

// A process's second issuing thread. In production the application's
// other threads go on calling Next while the Keeper's goroutine waits (in
// floorOf for a new pair's record to pass, or for a store call): they
// issue under the fence that stands. A simulated process was one thread,
// blocked during that wait, so a Keeper that left a fence standing where
// it must drop it went unseen (issue 32: "fence stands after ErrRemoved"
// survived 150,000 schedules).
//
// Everything still runs on one goroutine: at each slice of its Keeper's
// sleep inside Step, the second thread issues one id, but only when its
// generator's hot path can hand it out under the standing fence (its one
// compare). A call past the fence would take the Keeper's lock, which the
// sleeping Step holds: in production that thread waits for the Step to
// end and issues nothing meanwhile; here it is not made.

import "time"

// thread is p's second thread, run at each slice of its Keeper's sleep.
func (s *sched) thread(p *Proc) {
	if p.inThread || p.g == nil || p.k == nil || s.w.rnd.intn(4) == 0 || !s.underFence(p) {
		return
	}
	p.inThread = true
	blocked := p.blocked
	s.w.tracef("p%d's second thread calls while its Keeper waits", p.id)
	s.issue(p, 1)
	p.blocked, p.inThread = blocked, false
}

// underFence says that one Next of p's generator stays at or below its
// lease's fence: the tick it issues in is the clock's or the last one's,
// or the one after when the sequence ran out; a baidu-cached ring that
// refills reserves up to the ticks it may borrow past the clock, and past
// the ring's own last tick (LastValue is the first id in the ring). A
// session counter and a zxid epoch move by one.
func (s *sched) underFence(p *Proc) bool {
	f, last := p.k.Current().Fence(), p.g.LastValue()
	if s.su.Name == "zk-session" || s.su.Name == "zxid" {
		return f > 2 && last < f-2
	}
	spec := s.specOf(p)
	unit := int64(spec.Unit)
	tick := (p.clk.peek() - spec.EpochMs*int64(time.Millisecond)) / unit
	margin := int64(1)
	if s.su.Name == "baidu-cached" {
		margin = 2 + 2*((int64(spec.MaxDrift)+unit-1)/unit)
	}
	return max(last, tick)+margin <= f
}
