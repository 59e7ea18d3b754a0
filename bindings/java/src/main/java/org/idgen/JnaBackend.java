package org.idgen;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * JNA direct mapping of include/idgen.h: static native methods registered
 * with Native.register, so a call costs one JNI transition and no
 * reflection. The instance methods only forward to them.
 *
 * <p>The library is the file named by the system property idgen.library or
 * $IDGEN_LIBRARY, else JNA's search for "idgen", which ends with
 * {@code linux-x86-64/libidgen.so} inside the jar (extracted to a
 * temporary file).
 */
final class JnaBackend implements Backend {
    static final NativeLibrary LIBRARY;

    static {
        String path = Lib.configuredPath();
        LIBRARY = path == null ? NativeLibrary.getInstance("idgen") : NativeLibrary.getInstance(path);
        Native.register(C.class, LIBRARY);
    }

    /** The direct-mapped functions, named as in idgen.h. */
    static final class C {
        private C() {}

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
    }

    @Override
    public String name() {
        return "jna";
    }

    @Override
    public String libraryPath() {
        return LIBRARY.getFile().getPath();
    }

    @Override
    public String idgen_version() {
        return C.idgen_version();
    }

    @Override
    public String idgen_strerror(int status) {
        return C.idgen_strerror(status);
    }

    @Override
    public String idgen_last_error() {
        return C.idgen_last_error();
    }

    @Override
    public int idgen_open(byte[] config, long[] out) {
        return C.idgen_open(config, out);
    }

    @Override
    public void idgen_close(long g) {
        C.idgen_close(g);
    }

    @Override
    public long idgen_next(long g) {
        return C.idgen_next(g);
    }

    @Override
    public int idgen_next_batch(long g, long[] out, long n) {
        return C.idgen_next_batch(g, out, n);
    }

    @Override
    public int idgen_decode_with(long g, long id, long[] out) {
        return C.idgen_decode_with(g, id, out);
    }

    @Override
    public int idgen_compose(long g, long[] in, long[] out) {
        return C.idgen_compose(g, in, out);
    }

    @Override
    public int idgen_config_string(long g, byte[] buf, long cap) {
        return C.idgen_config_string(g, buf, cap);
    }

    @Override
    public int idgen_configure(byte[] config) {
        return C.idgen_configure(config);
    }

    @Override
    public long idgen_next_id() {
        return C.idgen_next_id();
    }

    @Override
    public int idgen_next_ids(long[] out, long n) {
        return C.idgen_next_ids(out, n);
    }

    @Override
    public int idgen_decode(long id, long[] out) {
        return C.idgen_decode(id, out);
    }

    @Override
    public int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap) {
        return C.idgen_format(id, base, fixedWidth, buf, cap);
    }

    @Override
    public int idgen_parse(byte[] text, int base, long[] out) {
        return C.idgen_parse(text, base, out);
    }
}
