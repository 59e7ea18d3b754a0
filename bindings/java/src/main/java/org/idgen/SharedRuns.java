package org.idgen;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A segment counter's runs handed out in Java: what is left of the run the
 * library has in hand (idgen_get_run_memory) is taken whole, by one
 * compare-and-swap on the same cursor as idgen_next's C side, and its ids
 * are handed out with one atomic increment of a Java counter each, no call
 * into the library per id. A call that issues ids in the library or reads
 * its counts (a batch, a text id, the stats, a close) gives the unused tail
 * back to the cursor first, under this object's lock, so a clean close
 * gives back everything not handed out and the counter goes on without a
 * gap.
 *
 * <p>Why it keeps idgen_next's guarantees (docs/ARCHITECTURE.md, "Runs in
 * C"): the cursor (serial 8 bits | generation 32 | index 24) moves only
 * under this object's lock while Java holds a tail: taking it (from (s, g,
 * i) to (s, g, n), the run's end), giving it back (to (s, g, j), j the first
 * index not handed out, only if the cursor still stands at (s, g, n)) and
 * idgen_next when no run is in hand, which reserves the next run. So the
 * ids of a tail are above every id issued before it was taken, and every
 * other call that issues ids runs only after the tail was stopped: its
 * counter moved past the end, so that a caller that read the tail and
 * stalled gets nothing from it and comes here. Within a tail an id is
 * handed out by its increment, and increments are ordered. Time runs are
 * not handed out here: their age limit is kept in C (idgen_next_in_hand
 * serves them).
 *
 * <p>The memory is never freed by the library (a closed handle's serves
 * the next handle of its slot, under another serial), so the addresses stay
 * valid for the life of the process.
 */
final class SharedRuns implements HandOut {
    /** Atomic access to the library's memory by address. */
    interface Memory {
        long getAcquire(long address);

        long get(long address);

        int getInt(long address);

        /** The value at address before the call; update was written if it equals expect. */
        long compareAndExchange(long address, long expect, long update);
    }

    private static final long INDEX = (1L << 24) - 1;
    /** A stopped tail's counter: past any run's end, and far from overflowing however many callers add to it. */
    private static final long STOPPED = Long.MAX_VALUE / 2;

    /** The ids first + i * step, i in [next, end), of one run: taken from the cursor, which was left at taken. */
    private static final class Tail {
        final AtomicLong next;
        final long end;
        final long first;
        final long step;
        final long taken;

        Tail(long next, long end, long first, long step, long taken) {
            this.next = new AtomicLong(next);
            this.end = end;
            this.first = first;
            this.step = step;
            this.taken = taken;
        }
    }

    private final Memory mem;
    private final long cursor;
    private final long runs;
    private final long runSize;
    private final long serial;
    private volatile Tail cur;

    private SharedRuns(Memory mem, long[] f) {
        this.mem = mem;
        this.cursor = f[1];
        this.runs = f[2];
        this.runSize = f[3];
        this.serial = f[4];
    }

    /**
     * g's runs when they are a segment counter's, served in C, and this
     * backend can reach the memory (layout version 1); else null.
     */
    static SharedRuns of(long g) {
        Memory mem = Native.LIB.runMemory();
        long[] f = new long[6];
        if (mem == null || Native.LIB.idgen_get_run_memory(g, f, 8L * f.length) != 0 || f[0] != 1 || f[5] != 0) {
            return null;
        }
        return new SharedRuns(mem, f);
    }

    /** The next id; h gives the handle for idgen_next (it throws once closed). */
    long next(LongSupplier h) {
        Tail t = cur;
        if (t != null) {
            long i = t.next.getAndIncrement();
            if (i < t.end) {
                return t.first + i * t.step;
            }
        }
        return refill(h);
    }

    /** Takes the rest of the run in hand, or has idgen_next reserve the next run when there is none. */
    private synchronized long refill(LongSupplier h) {
        Tail t = cur;
        if (t != null) {
            long i = t.next.getAndIncrement();
            if (i < t.end) {
                return t.first + i * t.step; // another thread took a tail meanwhile
            }
        }
        long c = mem.getAcquire(cursor);
        for (;;) {
            long i = c & INDEX;
            long run = runs + ((c >>> 24) & 3) * runSize;
            long n = mem.get(run + 16);
            if ((c >>> 56) != serial || i >= n || mem.getInt(run + 32) != 0) {
                cur = null;
                return Status.id(Native.LIB.idgen_next(h.getAsLong())); // it reserves the next run, and hands out its first id
            }
            long first = mem.get(run);
            long step = mem.get(run + 8);
            long taken = c + (n - i);
            long seen = mem.compareAndExchange(cursor, c, taken);
            if (seen == c) {
                cur = new Tail(i + 1, n, first, step, taken);
                return first + i * step;
            }
            c = seen;
        }
    }

    /**
     * Stops the tail in hand and gives back to the cursor what it did not
     * hand out (holding the lock, before a call that issues ids in the
     * library or counts them). If the cursor moved meanwhile (nothing in
     * this binding moves it without the lock), the tail is not given back:
     * a gap, never an id twice.
     */
    @Override
    public void stopLocked() {
        Tail t = cur;
        if (t == null) {
            return;
        }
        cur = null;
        long j = Math.min(t.next.getAndSet(STOPPED), t.end);
        if (j < t.end) {
            mem.compareAndExchange(cursor, t.taken, t.taken - (t.end - j));
        }
    }
}
