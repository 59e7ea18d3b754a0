package org.idgen;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * idgen_next_batch and idgen_next_ids for the java.lang.foreign backend:
 * into a per-thread native buffer (a confined arena above {@link
 * #CACHED_IDS} ids), then, on success, one copy into the caller's array.
 */
final class FfmBatches {
    private FfmBatches() {}

    /** Batches up to this many ids use the calling thread's cached buffer. */
    static final int CACHED_IDS = 1 << 16;

    private static final MethodHandle NEXT_BATCH =
            FfmLib.handle("idgen_next_batch", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle NEXT_IDS =
            FfmLib.handle("idgen_next_ids", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    /** Each thread's batch buffer, freed by the GC with the thread. */
    private static final ThreadLocal<MemorySegment> BATCH =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(JAVA_LONG, CACHED_IDS));

    /**
     * idgen_next_batch (withHandle) or idgen_next_ids into native memory,
     * then, on success, one copy into out[0..n). On failure out is left
     * as it was (the caller throws).
     */
    static int batch(boolean withHandle, long g, long[] out, long n) {
        if (n < 0 || n > out.length) {
            throw new IndexOutOfBoundsException("n=" + n + " for an array of " + out.length);
        }
        try {
            if (n <= CACHED_IDS) {
                MemorySegment buf = BATCH.get();
                return batchInto(withHandle, g, buf, out, (int) n);
            }
            try (Arena a = Arena.ofConfined()) {
                return batchInto(withHandle, g, a.allocate(JAVA_LONG, n), out, (int) n);
            }
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    private static int batchInto(boolean withHandle, long g, MemorySegment buf, long[] out, int n) throws Throwable {
        if (n == 0) {
            return withHandle ? (int) NEXT_BATCH.invokeExact(g, MemorySegment.NULL, 0L)
                    : (int) NEXT_IDS.invokeExact(MemorySegment.NULL, 0L);
        }
        int rc = withHandle ? (int) NEXT_BATCH.invokeExact(g, buf, (long) n) : (int) NEXT_IDS.invokeExact(buf, (long) n);
        if (rc == 0) {
            MemorySegment.copy(buf, JAVA_LONG, 0, out, 0, n);
        }
        return rc;
    }
}
