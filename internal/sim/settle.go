package sim

// The end of a schedule: every fault healed, every live process must
// issue again.

import "time"

// idle lets d pass with only the Keepers running.
func (s *sched) idle(d time.Duration) {
	w := s.w
	end := w.now + int64(d)
	for w.now < end && w.check.failure == "" {
		w.advance(w.ttl / 10)
		s.runKeepers()
	}
}

// settle heals every fault, lets the Keepers run for long enough to
// recover from anything (two max_wait, two max_outage and a few ttl), and
// then every process that has a generator must issue; at least one
// process must issue in all.
func (s *sched) settle() {
	w := s.w
	s.heal(true)
	w.healed = true
	w.tracef("all faults healed")
	s.idle(2*s.spec.MaxWait + 2*s.spec.MaxOutage + 5*w.ttl)
	for _, p := range w.procs {
		if p.g == nil {
			s.open(p)
		}
	}
	s.idle(3 * w.ttl)
	issued, open := 0, 0
	for _, p := range w.procs {
		if p.g == nil {
			continue
		}
		open++
		before := len(w.check.seen)
		s.issue(p, 1)
		if len(w.check.seen) > before {
			issued++
		}
	}
	// Every generator issues, but for those a full pool leaves without a
	// pair. A zk-session generator that lost its pair takes only a pair
	// no lower than it had (its ids carry the worker in their top bits and
	// never go back), so there one is enough.
	want := min(open, s.su.Pairs)
	if s.su.Name == "zk-session" {
		want = min(open, 1)
	}
	if issued < want && !s.lost {
		w.check.fail("after every fault healed only %d of %d generators issue, in a pool of %d pairs (liveness)", issued, open, s.su.Pairs)
	}
}
