package org.idgen;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The JDK 22+ backend: the same package-private calls as the JNA one
 * (META-INF/versions/22 of the multi-release jar replaces it), made through
 * java.lang.foreign downcall handles. Handles (idgen_t *) travel as long,
 * which the x86-64 calling convention passes exactly like a pointer;
 * arrays and strings are copied through a confined arena per call.
 *
 * <p>The library is {@code linux-x86-64/libidgen.so} inside the jar
 * (extracted to a temporary file once), or the file named by the system
 * property idgen.library or $IDGEN_LIBRARY.
 */
final class Lib {
    private static final Path PATH;
    private static final MethodHandle VERSION, STRERROR, LAST_ERROR, OPEN, CLOSE, NEXT, NEXT_BATCH, DECODE_WITH,
            COMPOSE, CONFIG_STRING, CONFIGURE, NEXT_ID, NEXT_IDS, DECODE, FORMAT, PARSE;

    static {
        PATH = locate();
        Linker linker = Linker.nativeLinker();
        SymbolLookup lib = SymbolLookup.libraryLookup(PATH, Arena.global());
        VERSION = handle(linker, lib, "idgen_version", FunctionDescriptor.of(ADDRESS));
        STRERROR = handle(linker, lib, "idgen_strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        LAST_ERROR = handle(linker, lib, "idgen_last_error", FunctionDescriptor.of(ADDRESS));
        OPEN = handle(linker, lib, "idgen_open", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        CLOSE = handle(linker, lib, "idgen_close", FunctionDescriptor.ofVoid(JAVA_LONG));
        NEXT = handle(linker, lib, "idgen_next", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        NEXT_BATCH = handle(linker, lib, "idgen_next_batch", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
        DECODE_WITH = handle(linker, lib, "idgen_decode_with", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));
        COMPOSE = handle(linker, lib, "idgen_compose", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
        CONFIG_STRING = handle(linker, lib, "idgen_config_string", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
        CONFIGURE = handle(linker, lib, "idgen_configure", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        NEXT_ID = handle(linker, lib, "idgen_next_id", FunctionDescriptor.of(JAVA_LONG));
        NEXT_IDS = handle(linker, lib, "idgen_next_ids", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        DECODE = handle(linker, lib, "idgen_decode", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        FORMAT = handle(linker, lib, "idgen_format", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
        PARSE = handle(linker, lib, "idgen_parse", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    }

    private Lib() {}

    private static Path locate() {
        String path = System.getProperty("idgen.library");
        if (path == null || path.isEmpty()) {
            path = System.getenv("IDGEN_LIBRARY");
        }
        if (path != null && !path.isEmpty()) {
            return Path.of(path);
        }
        try (InputStream in = Lib.class.getResourceAsStream("/linux-x86-64/libidgen.so")) {
            if (in == null) {
                throw new UnsatisfiedLinkError("linux-x86-64/libidgen.so is not in the jar; set -Didgen.library");
            }
            Path tmp = Files.createTempFile("idgen-", ".so");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("cannot extract libidgen.so: " + e);
        }
    }

    private static MethodHandle handle(Linker linker, SymbolLookup lib, String name, FunctionDescriptor fd) {
        MemorySegment sym = lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " not found in " + PATH));
        return linker.downcallHandle(sym, fd);
    }

    /** A bare downcall into Go for the benchmarks (the bench build of the
     * library exports idgen_bench_noop1; the shipped one does not). */
    static long benchNoop1(long p) {
        try {
            return (long) BenchNoop.H.invokeExact(p);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static final class BenchNoop {
        static final MethodHandle H = handle(Linker.nativeLinker(), SymbolLookup.libraryLookup(PATH, Arena.global()),
                "idgen_bench_noop1", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    }

    /** Which backend this is: "ffm" here, "jna" in the JDK 17 classes. */
    static String backend() {
        return "ffm";
    }

    /** The library file in use. */
    static String libraryPath() {
        return PATH.toString();
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IdGenException(ErrorCode.INTERNAL, "native call failed: " + t);
    }

    private static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    private static MemorySegment bytes(Arena a, byte[] b) {
        return b == null ? MemorySegment.NULL : a.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, b);
    }

    static String idgen_version() {
        try {
            return string((MemorySegment) VERSION.invokeExact());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String idgen_strerror(int status) {
        try {
            return string((MemorySegment) STRERROR.invokeExact(status));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String idgen_last_error() {
        try {
            return string((MemorySegment) LAST_ERROR.invokeExact());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_open(byte[] config, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment o = a.allocate(JAVA_LONG);
            int rc = (int) OPEN.invokeExact(bytes(a, config), o);
            if (rc == 0) {
                out[0] = o.get(JAVA_LONG, 0);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void idgen_close(long g) {
        try {
            CLOSE.invokeExact(g);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long idgen_next(long g) {
        try {
            return (long) NEXT.invokeExact(g);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_next_batch(long g, long[] out, long n) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(JAVA_LONG, Math.max(1, n));
            int rc = (int) NEXT_BATCH.invokeExact(g, buf, n);
            if (rc == 0) {
                MemorySegment.copy(buf, JAVA_LONG, 0, out, 0, (int) n);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static int partsCall(long[] out, PartsCall call) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG, 7);
            int rc = call.invoke(p);
            if (rc == 0) {
                MemorySegment.copy(p, JAVA_LONG, 0, out, 0, 7);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @FunctionalInterface
    private interface PartsCall {
        int invoke(MemorySegment p) throws Throwable;
    }

    static int idgen_decode_with(long g, long id, long[] out) {
        return partsCall(out, p -> (int) DECODE_WITH.invokeExact(g, id, p));
    }

    static int idgen_decode(long id, long[] out) {
        return partsCall(out, p -> (int) DECODE.invokeExact(id, p));
    }

    static int idgen_compose(long g, long[] in, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocateFrom(JAVA_LONG, in);
            MemorySegment o = a.allocate(JAVA_LONG);
            int rc = (int) COMPOSE.invokeExact(g, p, o);
            if (rc == 0) {
                out[0] = o.get(JAVA_LONG, 0);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_config_string(long g, byte[] buf, long cap) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment b = a.allocate(Math.max(1, cap));
            int rc = (int) CONFIG_STRING.invokeExact(g, b, cap);
            if (rc == 0) {
                MemorySegment.copy(b, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, buf, 0, (int) cap);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_configure(byte[] config) {
        try (Arena a = Arena.ofConfined()) {
            return (int) CONFIGURE.invokeExact(bytes(a, config));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long idgen_next_id() {
        try {
            return (long) NEXT_ID.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_next_ids(long[] out, long n) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(JAVA_LONG, Math.max(1, n));
            int rc = (int) NEXT_IDS.invokeExact(buf, n);
            if (rc == 0) {
                MemorySegment.copy(buf, JAVA_LONG, 0, out, 0, (int) n);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment b = a.allocate(Math.max(1, cap));
            int rc = (int) FORMAT.invokeExact(id, base, fixedWidth, b, cap);
            if (rc == 0) {
                MemorySegment.copy(b, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, buf, 0, (int) cap);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int idgen_parse(byte[] text, int base, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment o = a.allocate(JAVA_LONG);
            int rc = (int) PARSE.invokeExact(bytes(a, text), base, o);
            if (rc == 0) {
                out[0] = o.get(JAVA_LONG, 0);
            }
            return rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** NUL-terminated UTF-8, or null for null; a NUL inside is INVALID. */
    static byte[] cstring(String s, String what) {
        if (s == null) {
            return null;
        }
        if (s.indexOf('\0') >= 0) {
            throw new IdGenException(ErrorCode.INVALID, what + " contains a NUL character");
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[b.length + 1];
        System.arraycopy(b, 0, out, 0, b.length);
        return out;
    }

    static String fromC(byte[] buf) {
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** The exception for a failed call, with this thread's last-error text. */
    static IdGenException error(long status) {
        ErrorCode code = ErrorCode.of((int) status);
        String msg = idgen_last_error();
        if (msg == null || msg.isEmpty()) {
            msg = idgen_strerror((int) status);
        }
        return new IdGenException(code, msg);
    }

    static void check(int status) {
        if (status != 0) {
            throw error(status);
        }
    }
}
