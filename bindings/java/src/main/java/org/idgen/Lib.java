package org.idgen;

import java.nio.charset.StandardCharsets;

/**
 * What the public classes call: the functions of include/idgen.h through
 * the backend {@link Backends#create} picked (JNA on JDK 17-21,
 * java.lang.foreign on 22+), plus the string and error helpers both share.
 * Package-private: users never see JNA or java.lang.foreign.
 *
 * <p>The library is {@code linux-x86-64/libidgen.so} inside the jar, or the
 * file named by the system property idgen.library (or $IDGEN_LIBRARY).
 */
final class Lib {
    /** static final, so the JIT binds every call to the one implementation. */
    private static final Backend B = Backends.create();

    private Lib() {}

    /**
     * Bytes of text a backend's per-thread buffer holds, NUL included: room
     * for every form's longest text (56 chars, rocketmq on an IPv6 host), so
     * idgen_next_text never meets IDGEN_ERANGE, and for the text given to
     * idgen_decode_text; longer text (never valid) takes a buffer of its own.
     */
    static final int TEXT_CAP = 128;

    /** sizeof(idgen_text_parts): five int64, an int32, 16 bytes, padded to 8. */
    static final int TEXT_PARTS_SIZE = 64;

    /** Offsets in idgen_text_parts (x86-64, native byte order). */
    static final int TP_ID = 0, TP_UNIX_MS = 8, TP_SEQUENCE = 16, TP_PID = 24, TP_LOADER_HASH = 32, TP_ADDR_LEN = 40,
            TP_ADDR = 44;

    /** The library file the user asked for (idgen.library, then $IDGEN_LIBRARY), or null. */
    static String configuredPath() {
        String path = System.getProperty("idgen.library");
        if (path == null || path.isEmpty()) {
            path = System.getenv("IDGEN_LIBRARY");
        }
        return path == null || path.isEmpty() ? null : path;
    }

    /** Which backend is active: "jna" or "ffm". */
    static String backend() {
        return B.name();
    }

    /** The library file in use. */
    static String libraryPath() {
        return B.libraryPath();
    }

    static String idgen_version() {
        return B.idgen_version();
    }

    static String idgen_strerror(int status) {
        return B.idgen_strerror(status);
    }

    static String idgen_last_error() {
        return B.idgen_last_error();
    }

    static int idgen_open(byte[] config, long[] out) {
        return B.idgen_open(config, out);
    }

    static void idgen_close(long g) {
        B.idgen_close(g);
    }

    static long idgen_next(long g) {
        return B.idgen_next(g);
    }

    static int idgen_next_batch(long g, long[] out, long n) {
        return B.idgen_next_batch(g, out, n);
    }

    static int idgen_decode_with(long g, long id, long[] out) {
        return B.idgen_decode_with(g, id, out);
    }

    static int idgen_compose(long g, long[] in, long[] out) {
        return B.idgen_compose(g, in, out);
    }

    static int idgen_config_string(long g, byte[] buf, long cap) {
        return B.idgen_config_string(g, buf, cap);
    }

    static int idgen_get_stats(long g, long[] out) {
        return B.idgen_get_stats(g, out);
    }

    static long idgen_metrics_text(byte[] buf, long cap) {
        return B.idgen_metrics_text(buf, cap);
    }

    static int idgen_configure(byte[] config) {
        return B.idgen_configure(config);
    }

    static long idgen_next_id() {
        return B.idgen_next_id();
    }

    static int idgen_next_ids(long[] out, long n) {
        return B.idgen_next_ids(out, n);
    }

    static int idgen_decode(long id, long[] out) {
        return B.idgen_decode(id, out);
    }

    static int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap) {
        return B.idgen_format(id, base, fixedWidth, buf, cap);
    }

    static int idgen_parse(byte[] text, int base, long[] out) {
        return B.idgen_parse(text, base, out);
    }

    static String idgen_next_text(long g) {
        return B.idgen_next_text(g);
    }

    static TextParts idgen_decode_text(long g, String text) {
        return B.idgen_decode_text(g, text);
    }

    /**
     * Writes s and a NUL into dst when s is ASCII without NUL and fits;
     * returns its length, else -1 (then the caller takes {@link #cstring}).
     * No allocation: the text-id calls' fast path.
     */
    static int ascii(String s, byte[] dst) {
        int n = s.length();
        if (n >= dst.length) {
            return -1;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == 0 || c >= 0x80) {
                return -1;
            }
            dst[i] = (byte) c;
        }
        dst[n] = 0;
        return n;
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
        if (code == ErrorCode.INVALID && msg.startsWith("text preset ")) {
            // A text preset's refusal of a numeric call names the C
            // functions; this binding names its own methods.
            msg = msg.replace("idgen_next_text", "nextText()").replace("idgen_decode_text", "decodeText()");
        }
        return new IdGenException(code, msg);
    }

    static void check(int status) {
        if (status != 0) {
            throw error(status);
        }
    }
}
