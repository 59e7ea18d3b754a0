package org.idgen;

/**
 * The functions of include/idgen.h the public classes call, one method
 * each, named as in C. {@link #LIB} is the one implementation in use,
 * {@link Backends#create} picks it: {@link JnaNative} (JDK 17+, JNA direct
 * mapping) or, in the multi-release jar's META-INF/versions/22, FfmNative
 * (java.lang.foreign downcalls). Package-private: users never see JNA or
 * java.lang.foreign.
 *
 * <p>Conventions: handles (idgen_t *) travel as long; idgen_parts, seven
 * int64, as a long[7]; idgen_stats as a long[] whose length is the size
 * argument over 8; strings into the library as NUL-terminated UTF-8 byte
 * arrays ({@link CString#of}; null for NULL); library-owned strings out of
 * it as a String. Results are the C functions' own: an id or a negative
 * status, or a status; an output array is written only on success.
 *
 * <p>The library is the file named by the system property idgen.library (or
 * $IDGEN_LIBRARY): {@link #configuredPath}; else the jar's
 * {@code linux-x86-64/libidgen.so} or {@code linux-aarch64/libidgen.so},
 * by os.arch: {@link NativeResource}.
 */
interface Native {
    /** The implementation in use; static final, so the JIT binds every call to it. */
    Native LIB = Backends.create();

    /** IDGEN_TEXT_MAX: bytes that hold every text id and its NUL. */
    int TEXT_MAX = 57;

    /** sizeof(idgen_text_parts) on x86-64: five int64, an int32, 16 bytes, padded to 8. */
    int TEXT_PARTS_SIZE = 64;

    /** "jna" or "ffm". */
    String name();

    /** The library file in use. */
    String libraryPath();

    String idgen_version();

    String idgen_strerror(int status);

    String idgen_last_error();

    int idgen_open(byte[] config, long[] out);

    void idgen_close(long g);

    long idgen_next(long g);

    /** The id in hand, served in C without entering Go; -1 when none (then idgen_next). */
    long idgen_next_in_hand(long g);

    /** idgen_run_memory's six int64 into out (written only on success). */
    int idgen_get_run_memory(long g, long[] out, long size);

    /**
     * Atomics on the library's memory for {@link SharedRuns}, or null when
     * this backend has none to offer (then idgen_next serves the runs).
     */
    SharedRuns.Memory runMemory();

    /** n ids into out[0, n); on failure out may hold some of them (the caller throws). */
    int idgen_next_batch(long g, long[] out, long n);

    /**
     * With runs=N: the next run whole, at most cap ids into out; returns how
     * many (or a negative status), and in fresh[0] for how many ns they may
     * still be handed out.
     */
    int idgen_next_run(long g, long[] out, long cap, long[] fresh);

    /** The next n UUIDs of a uuidv7 generator, 16 bytes each (big-endian) into out: a status. */
    int idgen_next_uuids(long g, byte[] out, long n);

    int idgen_decode_with(long g, long id, long[] out);

    int idgen_compose(long g, long[] in, long[] out);

    int idgen_config_string(long g, byte[] buf, long cap);

    int idgen_get_stats(long g, long[] out, long size);

    /** idgen_info as a long[] whose length is the size argument over 8, as idgen_stats. */
    int idgen_get_info(long g, long[] out, long size);

    /**
     * The length of the whole text; writes it and its NUL into buf only when
     * it fits (result &lt; cap). buf may be null with cap 0.
     */
    long idgen_metrics_text(byte[] buf, long cap);

    int idgen_configure(byte[] config);

    long idgen_next_id();

    /** As {@link #idgen_next_batch}, from the default generator. */
    int idgen_next_ids(long[] out, long n);

    int idgen_decode(long id, long[] out);

    int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap);

    int idgen_parse(byte[] text, int base, long[] out);

    /** The calling thread's buffers for the two text-id calls (made on its first call). */
    TextBuffers textBuffers();

    /**
     * idgen_next_text into b.text, with a cap of {@link #TEXT_MAX}: the
     * length (the text in b.text[0, length)), or a negative status. b is
     * this thread's {@link #textBuffers}.
     */
    int idgen_next_text(long g, TextBuffers b);

    /**
     * idgen_decode_text of text (NUL-terminated: b.text, or a longer array);
     * on success the struct's {@link #TEXT_PARTS_SIZE} bytes, native order,
     * in b.parts. b is this thread's {@link #textBuffers}.
     */
    int idgen_decode_text(long g, byte[] text, TextBuffers b);

    /** The library file the user asked for (idgen.library, then $IDGEN_LIBRARY), or null. */
    static String configuredPath() {
        String path = System.getProperty("idgen.library");
        if (path == null || path.isEmpty()) {
            path = System.getenv("IDGEN_LIBRARY");
        }
        return path == null || path.isEmpty() ? null : path;
    }
}
