package org.idgen;

/**
 * A segment counter's runs handed out in Java from the library's own memory
 * (idgen_get_run_memory), with the same compare-and-swap on the same cursor
 * as idgen_next's C side: no call into the library per id. What the
 * library reserved and Java did not hand out stays the library's, so a
 * clean close gives it back and the counter goes on without a gap.
 *
 * <p>Why it keeps idgen_next's guarantees: it is the C side's hand-out
 * (docs/ARCHITECTURE.md, "Runs in C") run by another thread. The cursor
 * (serial 8 bits | generation 32 | index 24) only grows, and so do the ids
 * it stands for; an id is handed out by the compare-and-swap from (s, g, i)
 * to (s, g, i + 1), which succeeds only if no other hand-out, new run or
 * stop moved the cursor since it was read, so the run read for generation g
 * was g's. A batch, a text id, a close or a dropped fence stop the run in
 * C (index past every run), and a forked child's runs are stopped too.
 * Time runs are not handed out here: their age limit is kept in C
 * (idgen_next_in_hand serves them).
 *
 * <p>The memory is never freed by the library (a closed handle's serves
 * the next handle of its slot, under another serial), so the addresses stay
 * valid for the life of the process.
 */
final class SharedRuns {
    /** Atomic access to the library's memory by address. */
    interface Memory {
        long getAcquire(long address);

        long get(long address);

        int getInt(long address);

        /** The value at address before the call; update was written if it equals expect. */
        long compareAndExchange(long address, long expect, long update);
    }

    private static final long INDEX = (1L << 24) - 1;

    private final Memory mem;
    private final long cursor;
    private final long runs;
    private final long runSize;
    private final long serial;

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

    /** The next id of the run in hand, or -1 when there is none (then idgen_next). */
    long take() {
        long c = mem.getAcquire(cursor);
        for (;;) {
            long i = c & INDEX;
            long run = runs + ((c >>> 24) & 3) * runSize;
            if ((c >>> 56) != serial || i >= mem.get(run + 16) || mem.getInt(run + 32) != 0) {
                return -1;
            }
            long first = mem.get(run);
            long step = mem.get(run + 8);
            long seen = mem.compareAndExchange(cursor, c, c + 1);
            if (seen == c) {
                return first + i * step;
            }
            c = seen;
        }
    }
}
