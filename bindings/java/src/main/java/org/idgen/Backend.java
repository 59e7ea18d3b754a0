package org.idgen;

/**
 * The calls of include/idgen.h, one method each, as the public classes use
 * them. Two implementations: {@link JnaBackend} (JDK 17+, JNA direct
 * mapping) and, in the multi-release jar's META-INF/versions/22,
 * FfmBackend (java.lang.foreign downcall handles). {@link Backends#create}
 * picks one; {@link Lib} holds it.
 *
 * <p>Conventions: handles (idgen_t *) travel as long; idgen_parts, seven
 * int64, as a long[7], and idgen_stats as a long[{@link Stats#FIELDS}]; strings into the library as NUL-terminated UTF-8
 * byte arrays (null for NULL); text out of it as a String. Results are the
 * C functions' own: an id or a negative status, or a status.
 *
 * <p>The text-id calls differ: they go through the calling thread's own
 * native buffer ({@link Lib#TEXT_CAP} bytes of text, one idgen_text_parts),
 * so a call allocates nothing but its result, which they return; a failure
 * they throw as {@link Lib#error}, read on the same thread.
 */
interface Backend {
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

    int idgen_next_batch(long g, long[] out, long n);

    int idgen_decode_with(long g, long id, long[] out);

    int idgen_compose(long g, long[] in, long[] out);

    int idgen_config_string(long g, byte[] buf, long cap);

    /**
     * idgen_get_stats into out (out.length int64 fields, passed as the size:
     * the first fields of idgen_stats), written only on success.
     */
    int idgen_get_stats(long g, long[] out);

    /**
     * idgen_metrics_text: the length of the whole text; writes it and its NUL
     * into buf only when it fits (result &lt; cap). buf may be null with cap 0.
     */
    long idgen_metrics_text(byte[] buf, long cap);

    int idgen_configure(byte[] config);

    long idgen_next_id();

    int idgen_next_ids(long[] out, long n);

    int idgen_decode(long id, long[] out);

    int idgen_format(long id, int base, int fixedWidth, byte[] buf, long cap);

    int idgen_parse(byte[] text, int base, long[] out);

    /** idgen_next_text: the next id as text. */
    String idgen_next_text(long g);

    /** idgen_decode_text: text (not null) of g's form, decoded. */
    TextParts idgen_decode_text(long g, String text);
}
