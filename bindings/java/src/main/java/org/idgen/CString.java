package org.idgen;

import java.nio.charset.StandardCharsets;

/** Strings on their way into and out of the library: NUL-terminated UTF-8. */
final class CString {
    private CString() {}

    /** s as NUL-terminated UTF-8, or null for null; a NUL inside is INVALID, naming what. */
    static byte[] of(String s, String what) {
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

    /**
     * Writes s and a NUL into dst when s is ASCII without NUL and fits, and
     * returns true; else false (then the caller takes {@link #of}). No
     * allocation: the text-id calls' fast path.
     */
    static boolean ascii(String s, byte[] dst) {
        int n = s.length();
        if (n >= dst.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == 0 || c >= 0x80) {
                return false;
            }
            dst[i] = (byte) c;
        }
        dst[n] = 0;
        return true;
    }

    /** The UTF-8 text in buf up to its first NUL. */
    static String read(byte[] buf) {
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }
}
