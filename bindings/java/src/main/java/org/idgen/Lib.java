package org.idgen;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.nio.charset.StandardCharsets;

/**
 * JNA direct mapping of include/idgen.h. Handles (idgen_t *) travel as
 * long; idgen_parts, seven int64, travels as a long[7]; strings as
 * NUL-terminated UTF-8 byte arrays. Package-private: users never see JNA.
 *
 * <p>The library is {@code linux-x86-64/libidgen.so} inside the jar, or the
 * file named by $IDGEN_LIBRARY (or the system property idgen.library).
 */
final class Lib {
    static final NativeLibrary LIBRARY;

    static {
        String path = System.getProperty("idgen.library");
        if (path == null || path.isEmpty()) {
            path = System.getenv("IDGEN_LIBRARY");
        }
        LIBRARY = (path == null || path.isEmpty()) ? NativeLibrary.getInstance("idgen") : NativeLibrary.getInstance(path);
        Native.register(Lib.class, LIBRARY);
    }

    private Lib() {}

    /** Which backend this is: "jna" here, "ffm" in the JDK 22+ classes. */
    static String backend() {
        return "jna";
    }

    /** The library file in use. */
    static String libraryPath() {
        return LIBRARY.getFile().getPath();
    }

    static native String idgen_version();

    static native String idgen_strerror(int status);

    static native String idgen_last_error();

    static native int idgen_open(byte[] config, long[] out);

    static native void idgen_close(long g);

    static native long idgen_next(long g);

    static native int idgen_next_batch(long g, long[] out, long n);

    static native int idgen_decode_with(long g, long id, long[] out);

    static native int idgen_compose(long g, long[] in, long[] out);

    static native int idgen_config_string(long g, byte[] buf, long cap);

    static native int idgen_configure(byte[] config);

    static native long idgen_next_id();

    static native int idgen_next_ids(long[] out, long n);

    static native int idgen_decode(long id, long[] out);

    static native int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap);

    static native int idgen_parse(byte[] text, int base, long[] out);

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
