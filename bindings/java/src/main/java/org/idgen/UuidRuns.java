package org.idgen;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A uuidv7 generator's UUIDs handed out in Java: the library makes a run of
 * them at once (idgen_next_uuids: the next ones in its order, strictly
 * increasing) and {@link #next} hands them out with one atomic increment
 * each, until the run is used up or {@link #FRESH_NS} has passed since it
 * was asked for. A JVM thread's call into the library costs more than the
 * UUID itself; this pays it once a run.
 *
 * <p>Why UUIDs stay increasing across threads (the argument of {@link
 * Runs}): a UUID is handed out by an increment of its run's counter, made
 * only while the run is the current one or was when the caller read it,
 * and only before the run's deadline; runs are made in the library's
 * order, each above every UUID before it. A run is replaced only once it
 * is used up, past its deadline or stopped (a text id, a close: its counter
 * moved past its length), so a caller that read it and stalled gets
 * nothing from it. Every run made, and every other call that issues, holds
 * this object's lock. A UUID's time is at most {@link #FRESH_NS} older than
 * the call that gets it.
 */
final class UuidRuns implements HandOut {
    /** UUIDs per run. */
    static final int SIZE = 64;
    /** How long after it was asked for a run's UUIDs may be handed out (1 ms, as idgen's time runs). */
    static final long FRESH_NS = 1_000_000L;
    private static final int STOPPED = Integer.MAX_VALUE / 2;

    private static final class Run {
        final long[] bits; // most and least significant halves, in turn
        final long deadline;
        final AtomicInteger next = new AtomicInteger();

        Run(long[] bits, long deadline) {
            this.bits = bits;
            this.deadline = deadline;
        }

        /** The next UUID, or null when used up, stopped or stale. */
        UUID take() {
            int i = next.getAndIncrement();
            if (i < SIZE && System.nanoTime() - deadline < 0) {
                return new UUID(bits[2 * i], bits[2 * i + 1]);
            }
            return null;
        }
    }

    private volatile Run cur;
    private final byte[] buf = new byte[SIZE * 16];

    /** The next UUID; h gives the handle (it throws once closed). */
    UUID next(LongSupplier h) {
        Run r = cur;
        if (r != null) {
            UUID u = r.take();
            if (u != null) {
                return u;
            }
        }
        return refill(h);
    }

    private synchronized UUID refill(LongSupplier h) {
        Run r = cur;
        if (r != null) {
            UUID u = r.take();
            if (u != null) {
                return u; // another thread made a run meanwhile
            }
        }
        long t0 = System.nanoTime(); // read before: the deadline is never late
        Status.check(Native.LIB.idgen_next_uuids(h.getAsLong(), buf, SIZE));
        long[] bits = new long[2 * SIZE];
        ByteBuffer.wrap(buf).asLongBuffer().get(bits); // big-endian, as RFC 9562 orders the bytes
        Run nr = new Run(bits, t0 + FRESH_NS);
        nr.next.set(1);
        cur = nr;
        return new UUID(bits[0], bits[1]);
    }

    /** Stops the current run (holding the lock): its UUIDs are dropped. */
    @Override
    public void stopLocked() {
        Run r = cur;
        if (r != null) {
            r.next.set(STOPPED);
            cur = null;
        }
    }
}
