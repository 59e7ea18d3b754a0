package sim

// The events of the extended world (extBit), which the classic world does
// not have: each one a way issue 32's duplicates came about.

// extended does one of the extended world's events (n in [90, 100)).
func (s *sched) extended(p *Proc, n int) {
	w := s.w
	switch {
	case n < 93 && s.su.Name == "zk-session":
		s.issue(p, 200+w.rnd.intn(1200)) // a batch runs the counter up to 7 s ahead
	case n < 93 && s.su.Name == "borrow" && p.id%2 == 1 && w.store.kind != Lossy:
		s.issue(p, 100+w.rnd.intn(1100)) // a batch borrows up to 6 s ahead (its max_drift: mixedSpec)
	case n < 95 && s.su.Seg && s.su.Name != numbersSetup.Name: // numbers.go: not for period counters
		s.loseCounter(n == 93)
	case n < 95 && w.store.kind == HostDir && s.su.Leased: // a fixed worker= has no record to age, and no guarantee across an instant restart
		s.ageRecords()
	case n < 97 && w.store.kind == Lossy && p.k != nil:
		d := w.rnd.dur(3 * s.outage)
		p.cut, s.cutUntil = true, s.cutMap()
		s.cutUntil[p.id] = w.now + int64(d)
		w.store.lose()
		s.lost = s.lost || s.su.Name == "zxid" // its records are gone for good: refused until restored
		w.tracef("p%d cut off from the store for %s, and the store restarted empty meanwhile", p.id, d)
	}
}

// ageRecords deletes every record file of the pool at once, as
// systemd-tmpfiles aging /var/tmp does (the pool marker stays): every
// holder finds its file gone at its next renewal, and every pair is
// Missing.
func (s *sched) ageRecords() {
	st := s.w.store
	for p := range st.recs {
		st.deleteRecord(p)
	}
	for p := range st.locks {
		st.deleteRecord(p)
	}
	s.lost = s.lost || s.su.Name == "zxid"
	s.w.tracef("every record file aged out of the lease directory")
	// A process restarting meanwhile (a crash, systemd starting it again)
	// takes a pair whose holder does not know yet that its file is gone.
	q := s.w.procs[len(s.w.procs)-1]
	if s.w.now < q.paused {
		return
	}
	if q.g != nil {
		s.w.tracef("p%d killed (-9) and started again", q.id)
		q.g, q.k = nil, nil
		q.restartClock(true)
	}
	s.open(q)
}

// loseCounter deletes the counter under its live generators (an
// operator's DELETE, a file aged out of /var/tmp) or has the store lose
// every counter (a Redis restarting empty). A live generator must then
// refuse it rather than hand its values out again, until an operator
// restores it: liveness is no longer asked. A generator opened afterwards
// cannot know what the counter was (nothing is left to say it), so none
// opens: that is the operator's to restore (noOpen).
func (s *sched) loseCounter(all bool) {
	w := s.w
	if all {
		w.store.counters = map[string]int64{}
		w.tracef("the counter store restarted empty")
	} else {
		delete(w.store.counters, "orders")
		w.tracef("counter orders deleted under its generators")
	}
	s.lost, s.noOpen = true, true
}
