package org.idgen;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The JDK 22+ backend: include/idgen.h through java.lang.foreign downcall
 * handles (compiled with --release 22 into META-INF/versions/22).
 *
 * <p>Handles (idgen_t *) travel as long, which the x86-64 SysV convention
 * passes exactly as a pointer. This class makes the plain calls: small
 * in/out values go through a confined arena per call. Batches are {@link
 * FfmBatches}' (a per-thread native buffer), the text-id calls {@link
 * FfmText}'s (another one, so that they allocate nothing but their
 * result); {@link FfmLib} loads the library and links every handle (why
 * none is {@code critical}: there).
 */
final class FfmBackend implements Backend {
    private static final MethodHandle VERSION = FfmLib.handle("idgen_version", FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle STRERROR = FfmLib.handle("idgen_strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle LAST_ERROR = FfmLib.handle("idgen_last_error", FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle OPEN = FfmLib.handle("idgen_open", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle CLOSE = FfmLib.handle("idgen_close", FunctionDescriptor.ofVoid(JAVA_LONG));
    private static final MethodHandle NEXT = FfmLib.handle("idgen_next", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    private static final MethodHandle DECODE_WITH =
            FfmLib.handle("idgen_decode_with", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle COMPOSE =
            FfmLib.handle("idgen_compose", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle CONFIG_STRING =
            FfmLib.handle("idgen_config_string", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle GET_STATS =
            FfmLib.handle("idgen_get_stats", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle METRICS_TEXT =
            FfmLib.handle("idgen_metrics_text", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle CONFIGURE = FfmLib.handle("idgen_configure", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle NEXT_ID = FfmLib.handle("idgen_next_id", FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle DECODE = FfmLib.handle("idgen_decode", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle FORMAT =
            FfmLib.handle("idgen_format", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle PARSE = FfmLib.handle("idgen_parse", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));

    /**
     * A bare downcall with idgen_next's signature into the bench build's
     * idgen_bench_noop1 (the shipped library has no such export): the
     * baseline of Bench, linked exactly as idgen_next is.
     */
    static long benchNoop1(long p) {
        try {
            return (long) BenchNoop.H.invokeExact(p);
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    private static final class BenchNoop {
        static final MethodHandle H = FfmLib.handle("idgen_bench_noop1", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    }

    @Override
    public String name() {
        return "ffm";
    }

    @Override
    public String libraryPath() {
        return FfmLib.PATH;
    }

    @Override
    public String idgen_version() {
        try {
            return FfmLib.string((MemorySegment) VERSION.invokeExact());
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public String idgen_strerror(int status) {
        try {
            return FfmLib.string((MemorySegment) STRERROR.invokeExact(status));
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public String idgen_last_error() {
        try {
            return FfmLib.string((MemorySegment) LAST_ERROR.invokeExact());
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_open(byte[] config, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment o = a.allocate(JAVA_LONG);
            int rc = (int) OPEN.invokeExact(FfmLib.bytes(a, config), o);
            if (rc == 0) {
                out[0] = o.get(JAVA_LONG, 0);
            }
            return rc;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public void idgen_close(long g) {
        try {
            CLOSE.invokeExact(g);
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public long idgen_next(long g) {
        try {
            return (long) NEXT.invokeExact(g);
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public long idgen_next_id() {
        try {
            return (long) NEXT_ID.invokeExact();
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_next_batch(long g, long[] out, long n) {
        return FfmBatches.batch(true, g, out, n);
    }

    @Override
    public int idgen_next_ids(long[] out, long n) {
        return FfmBatches.batch(false, 0, out, n);
    }

    /** A call that fills n int64 at its argument. */
    @FunctionalInterface
    private interface FillCall {
        int invoke(MemorySegment p) throws Throwable;
    }

    /** Runs call on n int64 of native memory, copied into out[0..n) on success. */
    private static int fill(long[] out, int n, FillCall call) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG, n);
            int rc = call.invoke(p);
            if (rc == 0) {
                MemorySegment.copy(p, JAVA_LONG, 0, out, 0, n);
            }
            return rc;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_decode_with(long g, long id, long[] out) {
        return fill(out, 7, p -> (int) DECODE_WITH.invokeExact(g, id, p));
    }

    @Override
    public int idgen_decode(long id, long[] out) {
        return fill(out, 7, p -> (int) DECODE.invokeExact(id, p));
    }

    @Override
    public int idgen_get_stats(long g, long[] out) {
        long size = 8L * out.length;
        return fill(out, out.length, p -> (int) GET_STATS.invokeExact(g, p, size));
    }

    @Override
    public int idgen_compose(long g, long[] in, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocateFrom(JAVA_LONG, in);
            MemorySegment o = a.allocate(JAVA_LONG);
            int rc = (int) COMPOSE.invokeExact(g, p, o);
            if (rc == 0) {
                out[0] = o.get(JAVA_LONG, 0);
            }
            return rc;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public long idgen_metrics_text(byte[] buf, long cap) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment b = cap == 0 ? MemorySegment.NULL : a.allocate(cap);
            long n = (long) METRICS_TEXT.invokeExact(b, cap);
            if (n >= 0 && n < cap) {
                MemorySegment.copy(b, JAVA_BYTE, 0, buf, 0, (int) n + 1);
            }
            return n;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_config_string(long g, byte[] buf, long cap) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment b = a.allocate(Math.max(1, cap));
            int rc = (int) CONFIG_STRING.invokeExact(g, b, cap);
            if (rc == 0) {
                MemorySegment.copy(b, JAVA_BYTE, 0, buf, 0, (int) cap);
            }
            return rc;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_configure(byte[] config) {
        try (Arena a = Arena.ofConfined()) {
            return (int) CONFIGURE.invokeExact(FfmLib.bytes(a, config));
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment b = a.allocate(Math.max(1, cap));
            int rc = (int) FORMAT.invokeExact(id, base, fixedWidth, b, cap);
            if (rc == 0) {
                MemorySegment.copy(b, JAVA_BYTE, 0, buf, 0, (int) cap);
            }
            return rc;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public int idgen_parse(byte[] text, int base, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment o = a.allocate(JAVA_LONG);
            int rc = (int) PARSE.invokeExact(FfmLib.bytes(a, text), base, o);
            if (rc == 0) {
                out[0] = o.get(JAVA_LONG, 0);
            }
            return rc;
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
    }

    @Override
    public String idgen_next_text(long g) {
        return FfmText.nextText(g);
    }

    @Override
    public TextParts idgen_decode_text(long g, String text) {
        return FfmText.decodeText(g, text);
    }
}
