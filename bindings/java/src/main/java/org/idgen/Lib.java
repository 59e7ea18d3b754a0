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
