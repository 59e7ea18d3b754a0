package org.idgen;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * {@link SharedRuns.Memory} through java.lang.foreign: the whole address
 * space as one segment (MemorySegment.NULL reinterpreted, a restricted
 * method like the downcalls), read and compare-and-swapped with the value
 * layouts' VarHandles (the library's fields are aligned as they require).
 */
final class FfmMemory implements SharedRuns.Memory {
    static final FfmMemory INSTANCE = new FfmMemory();

    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final VarHandle INT = JAVA_INT.varHandle();

    private FfmMemory() {}

    @Override
    public long getAcquire(long address) {
        return (long) LONG.getAcquire(ALL, address);
    }

    @Override
    public long get(long address) {
        return (long) LONG.get(ALL, address);
    }

    @Override
    public int getInt(long address) {
        return (int) INT.get(ALL, address);
    }

    @Override
    public long compareAndExchange(long address, long expect, long update) {
        return (long) LONG.compareAndExchange(ALL, address, expect, update);
    }
}
