package org.idgen;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The library for {@link FfmNative}: found, loaded and linked ({@link
 * #handle}), and what every downcall shares: {@link #call}, the one shape of
 * a downcall here (a confined arena when it needs memory, the invocation, a
 * Throwable turned unchecked), and the C strings going in and out.
 *
 * <p>The library is the file named by idgen.library or $IDGEN_LIBRARY, else
 * the jar's library for os.name and os.arch ({@link NativeResource}:
 * linux-x86-64/ or linux-aarch64/), copied to a temporary file, loaded, and
 * deleted (a loaded Go library is never unloaded).
 *
 * <p>Only idgen_next_in_hand is linked with {@code Linker.Option.critical}
 * ({@link #criticalHandle}): a critical downcall does not leave the Java
 * thread state, so no safepoint (GC, deoptimisation, thread dumps) can
 * complete until it returns, and the JDK allows it only for functions that
 * are "extremely short in all cases" and never call back. That one is: it
 * hands out the id of the run in hand with one compare-and-swap and a clock
 * reading, in C, and never enters Go, waits or takes a lock (-1 when there
 * is none in hand). Every other call is a plain downcall, one thread-state
 * transition each: idgen_next is a call into Go that may sleep until the
 * next tick when a tick's sequence is used up (a millisecond, longer while
 * a clock step back is waited out), and a first call from a thread, or one
 * that meets Go's scheduler or collector, takes microseconds or more; a
 * batch may span many ticks. critical(true) (the heap array passed
 * directly) would also pin the heap for that long.
 */
final class FfmLib {
    private FfmLib() {}

    /** The library file in use. */
    static final String PATH;

    private static final SymbolLookup LOOKUP;

    static {
        String configured = Native.configuredPath();
        if (configured != null) {
            PATH = configured;
            LOOKUP = SymbolLookup.libraryLookup(Path.of(configured), Arena.global());
        } else {
            Path[] tmp = new Path[1];
            LOOKUP = NativeResource.load(p -> SymbolLookup.libraryLookup(tmp[0] = p, Arena.global()));
            PATH = tmp[0].toString();
        }
    }

    /** A downcall handle to the library's function name (plain without options). */
    static MethodHandle handle(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment sym = LOOKUP.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " not found in " + PATH));
        return Linker.nativeLinker().downcallHandle(sym, fd, options);
    }

    /** A critical downcall handle (no thread-state transition): only for C that never waits nor enters Go. */
    static MethodHandle criticalHandle(String name, FunctionDescriptor fd) {
        return handle(name, fd, Linker.Option.critical(false));
    }

    /**
     * A downcall's body: arena is a confined arena if {@link #call} was asked
     * for memory, else null; x is call's argument of that name, there so
     * that a hot call's lambda captures nothing (and so allocates nothing).
     */
    @FunctionalInterface
    interface Body {
        long run(Arena arena, long x) throws Throwable;
    }

    /**
     * Runs body (a downcall, with what goes in and out of it) with a confined
     * arena when memory is true, closed when body returns; what it throws
     * comes out unchecked (Errors and RuntimeExceptions as they are,
     * anything else as INTERNAL). Every call of {@link FfmNative} comes
     * through here. Small enough that the JIT inlines it into every caller,
     * and with it body and the downcall.
     */
    static long call(boolean memory, long x, Body body) {
        try {
            return memory ? inArena(x, body) : body.run(null, x);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IdGenException(ErrorCode.INTERNAL, "native call failed: " + t);
    }

    private static long inArena(long x, Body body) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            return body.run(arena, x);
        }
    }

    /** A library-owned C string at address: NUL-terminated, of unknown length; null for NULL. */
    static String string(long address) {
        return address == 0 ? null : MemorySegment.ofAddress(address).reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** b (NUL-terminated, from {@link CString#of}) in a, or NULL for null. */
    static MemorySegment bytes(Arena a, byte[] b) {
        return b == null ? MemorySegment.NULL : a.allocateFrom(JAVA_BYTE, b);
    }

    /** rc; when it is 0, n int64 of from first copied into to. */
    static int copy(int rc, MemorySegment from, long[] to, long n) {
        if (rc == 0) {
            MemorySegment.copy(from, JAVA_LONG, 0, to, 0, (int) n);
        }
        return rc;
    }

    /** rc; when it is 0, n bytes of from first copied into to. */
    static int copy(int rc, MemorySegment from, byte[] to, long n) {
        if (rc == 0) {
            MemorySegment.copy(from, JAVA_BYTE, 0, to, 0, (int) n);
        }
        return rc;
    }
}
