package org.idgen;

import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * {@link Native} through JNA direct mapping: the interface's methods are
 * native methods registered with JNA's Native.register (direct mapping takes
 * member methods too and ignores the object), so a call costs one JNI
 * transition and no reflection.
 *
 * <p>The library is {@link Native#configuredPath}, else the jar's library
 * for os.name and os.arch ({@link NativeResource}: linux-x86-64/ or
 * linux-aarch64/, extracted to a temporary file).
 *
 * <p>Three calls are Java methods over native overloads that take Pointers
 * into the calling thread's {@link Scratch} (native memory made once per
 * thread, freed with it), not arrays, which JNA would copy into and out of
 * native memory of its own on every call: batches (read back in one copy)
 * and the text-id calls. (A direct ByteBuffer argument, which would spare
 * the read back, measured some 100 ns slower per call: JNA's direct mapping
 * converts Buffers on a slower path than Pointers.)
 */
final class JnaNative implements Native {
    static final NativeLibrary LIBRARY;

    static {
        String path = Native.configuredPath();
        LIBRARY = path == null
                ? NativeResource.load(tmp -> NativeLibrary.getInstance(tmp.toString()))
                : NativeLibrary.getInstance(path);
        com.sun.jna.Native.register(JnaNative.class, LIBRARY);
    }

    /** Ids per idgen_next_batch call into a thread's native batch buffer. */
    private static final int BATCH_CHUNK = 8192;

    /** A thread's buffers, and the native memory for batches and for the text-id calls. */
    private static final class Scratch extends TextBuffers {
        /** Made on a thread's first batch. */
        Memory batch;
        /** One idgen_text_parts, then TEXT_MAX bytes of text. */
        final Memory mem = new Memory(TEXT_PARTS_SIZE + TEXT_MAX);
        final Pointer cParts = mem.share(0, TEXT_PARTS_SIZE);
        final Pointer cText = mem.share(TEXT_PARTS_SIZE, TEXT_MAX);

        Memory batch() {
            if (batch == null) {
                batch = new Memory(8L * BATCH_CHUNK);
            }
            return batch;
        }
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
    public TextBuffers textBuffers() {
        return SCRATCH.get();
    }

    @Override
    public native String idgen_version();

    @Override
    public native String idgen_strerror(int status);

    @Override
    public native String idgen_last_error();

    @Override
    public native int idgen_open(byte[] config, long[] out);

    @Override
    public native void idgen_close(long g);

    @Override
    public native long idgen_next(long g);

    @Override
    public native long idgen_next_in_hand(long g);

    @Override
    public native int idgen_get_run_memory(long g, long[] out, long size);

    @Override
    public SharedRuns.Memory runMemory() {
        return UnsafeMemory.get();
    }

    /** At most 1024 ids: JNA copies the arrays to native memory and back. */
    @Override
    public native int idgen_next_run(long g, long[] out, long cap, long[] fresh);

    @Override
    public native int idgen_next_uuids(long g, byte[] out, long n);

    @Override
    public native int idgen_decode_with(long g, long id, long[] out);

    @Override
    public native int idgen_compose(long g, long[] in, long[] out);

    @Override
    public native int idgen_config_string(long g, byte[] buf, long cap);

    /** JNA copies out into native memory and back; the library writes it only on success. */
    @Override
    public native int idgen_get_stats(long g, long[] out, long size);

    @Override
    public native int idgen_get_info(long g, long[] out, long size);

    @Override
    public native long idgen_metrics_text(byte[] buf, long cap);

    @Override
    public native int idgen_configure(byte[] config);

    @Override
    public native long idgen_next_id();

    @Override
    public native int idgen_next_ids(long[] out, long n);

    @Override
    public native int idgen_decode(long id, long[] out);

    @Override
    public native int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap);

    @Override
    public native int idgen_parse(byte[] text, int base, long[] out);

    private static native int idgen_next_batch(long g, Pointer out, long n);

    private static native int idgen_next_text(long g, Pointer buf, long cap);

    private static native int idgen_decode_text(long g, Pointer text, Pointer out);

    @Override
    public int idgen_next_batch(long g, long[] out, long n) {
        // Chunks from one generator: each chunk's ids are above the last's,
        // so out is strictly increasing as a whole.
        Memory buf = SCRATCH.get().batch();
        for (int off = 0; off < n; ) {
            int k = (int) Math.min(BATCH_CHUNK, n - off);
            int rc = idgen_next_batch(g, buf, k);
            if (rc != 0) {
                return rc;
            }
            buf.read(0, out, off, k);
            off += k;
        }
        return 0;
    }

    @Override
    public int idgen_next_text(long g, TextBuffers b) {
        Scratch s = (Scratch) b;
        int n = idgen_next_text(g, s.cText, TEXT_MAX);
        if (n > 0) {
            s.cText.read(0, b.text, 0, n);
        }
        return n;
    }

    @Override
    public int idgen_decode_text(long g, byte[] text, TextBuffers b) {
        Scratch s = (Scratch) b;
        int rc;
        if (text.length <= TEXT_MAX) {
            s.cText.write(0, text, 0, text.length);
            rc = idgen_decode_text(g, s.cText, s.cParts);
        } else {
            try (Memory m = new Memory(text.length)) {
                m.write(0, text, 0, text.length);
                rc = idgen_decode_text(g, m, s.cParts);
            }
        }
        if (rc == 0) {
            s.cParts.read(0, b.parts, 0, TEXT_PARTS_SIZE);
        }
        return rc;
    }
}
