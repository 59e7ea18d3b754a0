package org.idgen;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The library for the java.lang.foreign backend: found, loaded and linked
 * ({@link #handle}), and what every downcall shares (turning a Throwable
 * into an unchecked exception, reading a C string).
 *
 * <p>The library is the file named by idgen.library or $IDGEN_LIBRARY, else
 * {@code linux-x86-64/libidgen.so} inside the jar, copied to a temporary
 * file, loaded, and deleted (a loaded Go library is never unloaded).
 *
 * <p>No handle is linked with {@code Linker.Option.critical}: a critical
 * downcall does not leave the Java thread state, so no safepoint (GC,
 * deoptimisation, thread dumps) can complete until it returns, and the JDK
 * allows it only for functions that are "extremely short in all cases" and
 * never call back. idgen_next is a call into Go that may sleep until the
 * next tick when a tick's sequence is used up (a millisecond, longer while a
 * clock step back is waited out), and a first call from a thread, or one
 * that meets Go's scheduler or collector, takes microseconds or more; a
 * batch may span many ticks. critical(true) (the heap array passed
 * directly) would also pin the heap for that long. So all calls are plain
 * downcalls, which cost one thread-state transition each.
 */
final class FfmLib {
    private FfmLib() {}

    /** The library file in use. */
    static final String PATH;

    private static final SymbolLookup LOOKUP;

    static {
        String configured = Lib.configuredPath();
        if (configured != null) {
            PATH = configured;
            LOOKUP = SymbolLookup.libraryLookup(Path.of(configured), Arena.global());
        } else {
            Path tmp = extract();
            try {
                LOOKUP = SymbolLookup.libraryLookup(tmp, Arena.global());
            } finally {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    tmp.toFile().deleteOnExit();
                }
            }
            PATH = tmp.toString();
        }
    }

    /** The jar's library, copied where dlopen can read it. */
    private static Path extract() {
        try (InputStream in = FfmLib.class.getResourceAsStream("/linux-x86-64/libidgen.so")) {
            if (in == null) {
                throw new UnsatisfiedLinkError("linux-x86-64/libidgen.so is not in the jar; set -Didgen.library=PATH");
            }
            Path tmp = Files.createTempFile("idgen", ".so");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("cannot extract linux-x86-64/libidgen.so: " + e);
        }
    }

    /** A plain downcall handle to the library's function name. */
    static MethodHandle handle(String name, FunctionDescriptor fd) {
        MemorySegment sym = LOOKUP.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " not found in " + PATH));
        return Linker.nativeLinker().downcallHandle(sym, fd);
    }

    /** What a downcall threw, as an unchecked exception (Errors are thrown as they are). */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IdGenException(ErrorCode.INTERNAL, "native call failed: " + t);
    }

    /** A library-owned C string: NUL-terminated, of unknown length. */
    static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** b (a NUL-terminated string from {@link Lib#cstring}) in a, or NULL for null. */
    static MemorySegment bytes(Arena a, byte[] b) {
        return b == null ? MemorySegment.NULL : a.allocateFrom(JAVA_BYTE, b);
    }
}
