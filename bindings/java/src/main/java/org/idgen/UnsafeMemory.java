package org.idgen;

import java.lang.reflect.Field;

/**
 * {@link SharedRuns.Memory} for the JNA backend (JDK 17 to 21), through
 * sun.misc.Unsafe (module jdk.unsupported, open to every class path): the
 * only atomics on memory by address those JDKs have outside their
 * incubating java.lang.foreign. None on JDK 23 and later, which warn when
 * its memory methods are called (the java.lang.foreign backend is used
 * there anyway), nor where Unsafe cannot be had: idgen_next serves the runs
 * then.
 */
final class UnsafeMemory implements SharedRuns.Memory {
    private static final UnsafeMemory INSTANCE = make();

    private final sun.misc.Unsafe u;

    private UnsafeMemory(sun.misc.Unsafe u) {
        this.u = u;
    }

    static UnsafeMemory get() {
        return INSTANCE;
    }

    private static UnsafeMemory make() {
        if (Runtime.version().feature() >= 23) {
            return null;
        }
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return new UnsafeMemory((sun.misc.Unsafe) f.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public long getAcquire(long address) {
        return u.getLongVolatile(null, address);
    }

    @Override
    public long get(long address) {
        return u.getLong(address);
    }

    @Override
    public int getInt(long address) {
        return u.getInt(address);
    }

    @Override
    public long compareAndExchange(long address, long expect, long update) {
        if (u.compareAndSwapLong(null, address, expect, update)) {
            return expect;
        }
        return u.getLongVolatile(null, address);
    }
}
