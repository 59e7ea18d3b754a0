package org.idgen;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A generator's runs (runs=N) handed out in Java: the library reserves a
 * run whole (idgen_next_run) and {@link #next} hands its ids out with one
 * atomic increment, no call into the library, until the run is used up or
 * its time is up (at most 1 ms after the reservation). The same runs as
 * C's idgen_next and Python's next_id.
 *
 * <p>Why ids stay increasing across threads: an id is handed out by an
 * increment of its run's counter, made only while the run is the current
 * one or was the current one when the caller read it; runs are reserved in
 * the library's order, each above every id before it. A stopped run (a
 * batch, a text id, a close) has its counter moved past its length, so a
 * caller that read it and stalled gets nothing from it. Every reservation,
 * and every other call that issues ids, holds this object's lock.
 */
final class Runs implements HandOut {
    private static final int STOPPED = Integer.MAX_VALUE / 2;

    private static final class Run {
        final long[] ids;
        final long deadline; // System.nanoTime() before which its ids may be handed out
        final AtomicInteger next = new AtomicInteger();

        Run(long[] ids, long deadline) {
            this.ids = ids;
            this.deadline = deadline;
        }

        /** The next id, or -1 when used up, stopped or stale. */
        long take() {
            int i = next.getAndIncrement();
            if (i < ids.length && System.nanoTime() - deadline < 0) {
                return ids[i];
            }
            return -1;
        }
    }

    private volatile Run cur;
    private final long[] buf;
    private final long[] fresh = new long[1];

    Runs(int longest) {
        buf = new long[longest];
    }

    /** The next id; h gives the handle (it throws once closed). */
    long next(java.util.function.LongSupplier h) {
        Run r = cur;
        if (r != null) {
            long id = r.take();
            if (id >= 0) {
                return id;
            }
        }
        return refill(h);
    }

    private synchronized long refill(java.util.function.LongSupplier h) {
        Run r = cur;
        if (r != null) {
            long id = r.take();
            if (id >= 0) {
                return id; // another thread reserved meanwhile
            }
        }
        long t0 = System.nanoTime(); // read before: the deadline is never late
        int n = Native.LIB.idgen_next_run(h.getAsLong(), buf, buf.length, fresh);
        if (n < 0) {
            throw Status.error(n);
        }
        Run nr = new Run(Arrays.copyOf(buf, n), t0 + fresh[0]);
        nr.next.set(1);
        cur = nr;
        return nr.ids[0];
    }

    /** Stops the current run (holding the lock): its ids are dropped. */
    @Override
    public void stopLocked() {
        Run r = cur;
        if (r != null) {
            r.next.set(STOPPED);
            cur = null;
        }
    }
}
