package org.idgen;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The text-id calls of {@link IdGenerator}, the same on both backends:
 * through the calling thread's own {@link TextBuffers} ({@link
 * Native#TEXT_MAX} bytes of text, one idgen_text_parts), so that a call
 * allocates nothing but its result; a failure comes out as {@link
 * Status#error}.
 */
final class TextIds {
    private TextIds() {}

    /** idgen_next_text: the next id of g as text. */
    static String next(long g) {
        TextBuffers b = Native.LIB.textBuffers();
        return new String(b.text, 0, nextInto(g, b), StandardCharsets.ISO_8859_1);
    }

    /** idgen_next_text into b.text: its length. */
    private static int nextInto(long g, TextBuffers b) {
        int n = Native.LIB.idgen_next_text(g, b);
        if (n < 0) {
            throw Status.error(n);
        }
        return n;
    }

    /**
     * idgen_next_text of a uuidv7 generator as a UUID, read from the bytes
     * (8-4-4-4-12 lower-case hex, as the library writes it) without a String
     * in between; anything else goes through UUID.fromString, which says
     * what is wrong.
     */
    static UUID nextUuid(long g) {
        TextBuffers b = Native.LIB.textBuffers();
        int n = nextInto(g, b);
        byte[] t = b.text;
        if (n == 36 && t[8] == '-' && t[13] == '-' && t[18] == '-' && t[23] == '-') {
            long a = hex(t, 0, 8), b1 = hex(t, 9, 4), c = hex(t, 14, 4), d = hex(t, 19, 4), e = hex(t, 24, 12);
            if ((a | b1 | c | d | e) >= 0) {
                return new UUID(a << 32 | b1 << 16 | c, d << 48 | e);
            }
        }
        return UUID.fromString(new String(t, 0, n, StandardCharsets.ISO_8859_1));
    }

    /** The value of len (at most 15) lower-case hex digits at t[from], or -1 if one is not. */
    private static long hex(byte[] t, int from, int len) {
        long v = 0;
        for (int i = from; i < from + len; i++) {
            int c = t[i];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }

    /** idgen_decode_text: text (not null) of g's form, decoded. */
    static TextParts decode(long g, String text) {
        TextBuffers b = Native.LIB.textBuffers();
        // Text too long or not ASCII is not an id: the library says why.
        byte[] c = CString.ascii(text, b.text) ? b.text : CString.of(text, "text");
        Status.check(Native.LIB.idgen_decode_text(g, c, b));
        return TextParts.read(b.parts);
    }
}
