package org.idgen;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * The text-id calls for the java.lang.foreign backend: through a per-thread
 * native buffer ({@link Scratch}), so that they allocate nothing but their
 * result; a failure they throw as {@link Lib#error}.
 */
final class FfmText {
    private FfmText() {}

    private static final MethodHandle NEXT_TEXT =
            FfmLib.handle("idgen_next_text", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle DECODE_TEXT =
            FfmLib.handle("idgen_decode_text", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));

    /** A thread's buffers for the text-id calls, freed by the GC with the thread. */
    private static final class Scratch {
        final MemorySegment parts;
        final MemorySegment text;
        /** Text on its way in or out, and the address bytes on their way out. */
        final byte[] bytes = new byte[Lib.TEXT_CAP];

        Scratch() {
            MemorySegment m = Arena.ofAuto().allocate(Lib.TEXT_PARTS_SIZE + Lib.TEXT_CAP, JAVA_LONG.byteAlignment());
            parts = m.asSlice(0, Lib.TEXT_PARTS_SIZE);
            text = m.asSlice(Lib.TEXT_PARTS_SIZE, Lib.TEXT_CAP);
        }
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    static String nextText(long g) {
        Scratch s = SCRATCH.get();
        int n;
        try {
            n = (int) NEXT_TEXT.invokeExact(g, s.text, (long) Lib.TEXT_CAP);
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
        if (n < 0) {
            throw Lib.error(n);
        }
        MemorySegment.copy(s.text, JAVA_BYTE, 0, s.bytes, 0, n);
        return new String(s.bytes, 0, n, StandardCharsets.ISO_8859_1);
    }

    static TextParts decodeText(long g, String text) {
        Scratch s = SCRATCH.get();
        int n = Lib.ascii(text, s.bytes);
        int rc;
        try {
            if (n >= 0) {
                MemorySegment.copy(s.bytes, 0, s.text, JAVA_BYTE, 0, n + 1);
                rc = (int) DECODE_TEXT.invokeExact(g, s.text, s.parts);
            } else {
                // Too long or not ASCII, so not an id: the library says why.
                byte[] c = Lib.cstring(text, "text");
                try (Arena a = Arena.ofConfined()) {
                    rc = (int) DECODE_TEXT.invokeExact(g, a.allocateFrom(JAVA_BYTE, c), s.parts);
                }
            }
        } catch (Throwable t) {
            throw FfmLib.rethrow(t);
        }
        if (rc != 0) {
            throw Lib.error(rc);
        }
        MemorySegment p = s.parts;
        MemorySegment.copy(p, JAVA_BYTE, Lib.TP_ADDR, s.bytes, 0, 16);
        return TextParts.of(p.get(JAVA_LONG, Lib.TP_ID), p.get(JAVA_LONG, Lib.TP_UNIX_MS), p.get(JAVA_LONG, Lib.TP_SEQUENCE),
                p.get(JAVA_LONG, Lib.TP_PID), p.get(JAVA_LONG, Lib.TP_LOADER_HASH), p.get(JAVA_INT, Lib.TP_ADDR_LEN), s.bytes, 0);
    }
}
