package org.idgen;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * JNA direct mapping of include/idgen.h: static native methods registered
 * with Native.register, so a call costs one JNI transition and no
 * reflection. The instance methods only forward to them.
 *
 * <p>The library is the file named by the system property idgen.library or
 * $IDGEN_LIBRARY, else JNA's search for "idgen", which ends with
 * {@code linux-x86-64/libidgen.so} inside the jar (extracted to a
 * temporary file).
 *
 * <p>The text-id calls pass Pointers into the calling thread's {@link
 * Scratch} (native memory made once per thread, freed with it), not arrays,
 * which JNA would copy into and out of native memory on every call. (A
 * direct ByteBuffer argument, which would spare the read back, measured
 * some 100 ns slower per call: JNA's direct mapping converts Buffers on a
 * slower path than Pointers.)
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

        static native int idgen_next_batch(long g, Pointer out, long n);

        static native int idgen_decode_with(long g, long id, long[] out);

        static native int idgen_compose(long g, long[] in, long[] out);

        static native int idgen_config_string(long g, byte[] buf, long cap);

        static native int idgen_get_stats(long g, long[] out, long size);

        static native long idgen_metrics_text(byte[] buf, long cap);

        static native int idgen_configure(byte[] config);

        static native long idgen_next_id();

        static native int idgen_next_ids(long[] out, long n);

        static native int idgen_decode(long id, long[] out);

        static native int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap);

        static native int idgen_parse(byte[] text, int base, long[] out);

        static native int idgen_next_text(long g, Pointer buf, long cap);

        static native int idgen_decode_text(long g, Pointer text, Pointer out);
    }

    /** Ids per idgen_next_batch call into a thread's native batch buffer. */
    private static final int BATCH_CHUNK = 8192;

    /** A thread's buffers for the text-id calls, and for batches. */
    private static final class Scratch {
        /**
         * Batches land here and are read into the caller's long[] in one copy
         * (a long[] passed to a direct-mapped call is copied in and out).
         */
        Memory batch;
        /** One idgen_text_parts, then TEXT_CAP bytes of text. */
        final Memory mem = new Memory(Lib.TEXT_PARTS_SIZE + Lib.TEXT_CAP);
        final Pointer parts = mem.share(0, Lib.TEXT_PARTS_SIZE);
        final Pointer text = mem.share(Lib.TEXT_PARTS_SIZE, Lib.TEXT_CAP);
        /** Text on its way in or out, then the parts read back in one copy. */
        final byte[] bytes = new byte[Lib.TEXT_CAP];
        final ByteBuffer view = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

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
        // Chunks from one generator: each chunk's ids are above the last's,
        // so out is strictly increasing as a whole.
        Scratch s = SCRATCH.get();
        if (s.batch == null) {
            s.batch = new Memory(8L * BATCH_CHUNK);
        }
        for (int off = 0; off < n; ) {
            int k = (int) Math.min(BATCH_CHUNK, n - off);
            int rc = C.idgen_next_batch(g, s.batch, k);
            if (rc != 0) {
                return rc;
            }
            s.batch.read(0, out, off, k);
            off += k;
        }
        return 0;
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
    public int idgen_get_stats(long g, long[] out) {
        // JNA copies out into native memory and back; the library writes
        // only on success, so a failure leaves out as it was.
        return C.idgen_get_stats(g, out, 8L * out.length);
    }

    @Override
    public long idgen_metrics_text(byte[] buf, long cap) {
        return C.idgen_metrics_text(buf, cap);
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

    @Override
    public String idgen_next_text(long g) {
        Scratch s = SCRATCH.get();
        int n = C.idgen_next_text(g, s.text, Lib.TEXT_CAP);
        if (n < 0) {
            throw Lib.error(n);
        }
        s.text.read(0, s.bytes, 0, n);
        return new String(s.bytes, 0, n, StandardCharsets.ISO_8859_1);
    }

    @Override
    public TextParts idgen_decode_text(long g, String text) {
        Scratch s = SCRATCH.get();
        int n = Lib.ascii(text, s.bytes);
        int rc;
        if (n >= 0) {
            s.text.write(0, s.bytes, 0, n + 1);
            rc = C.idgen_decode_text(g, s.text, s.parts);
        } else {
            // Too long or not ASCII, so not an id: the library says why.
            byte[] c = Lib.cstring(text, "text");
            try (Memory m = new Memory(c.length)) {
                m.write(0, c, 0, c.length);
                rc = C.idgen_decode_text(g, m, s.parts);
            }
        }
        if (rc != 0) {
            throw Lib.error(rc);
        }
        s.parts.read(0, s.bytes, 0, Lib.TEXT_PARTS_SIZE);
        ByteBuffer v = s.view;
        return TextParts.of(v.getLong(Lib.TP_ID), v.getLong(Lib.TP_UNIX_MS), v.getLong(Lib.TP_SEQUENCE),
                v.getLong(Lib.TP_PID), v.getLong(Lib.TP_LOADER_HASH), v.getInt(Lib.TP_ADDR_LEN), s.bytes, Lib.TP_ADDR);
    }
}
