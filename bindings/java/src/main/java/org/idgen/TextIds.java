package org.idgen;

import java.nio.charset.StandardCharsets;

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
        int n = Native.LIB.idgen_next_text(g, b);
        if (n < 0) {
            throw Status.error(n);
        }
        return new String(b.text, 0, n, StandardCharsets.ISO_8859_1);
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
