package org.idgen;

/**
 * The process-wide default generator and the text forms. The default
 * generator is built on first use from $IDGEN_CONFIG, or from
 * {@code preset=snowflake worker=lease}.
 */
public final class IdGen {
    private IdGen() {}

    /**
     * Bytes {@link #format} needs at the most: base 2 writes Long.MAX_VALUE
     * in 63 digits, and then the NUL. (More than IDGEN_TEXT_MAX, which is
     * for text ids: the longest is 56 chars.)
     */
    private static final int FORMAT_MAX = Long.SIZE;

    /** Replaces the default generator (null or "" means the defaults). */
    public static void configure(String config) {
        Status.check(Native.LIB.idgen_configure(CString.of(config, "config")));
    }

    /** The next id of the default generator. */
    public static long nextId() {
        return Status.id(Native.LIB.idgen_next_id());
    }

    /** {@code n} strictly increasing ids of the default generator. */
    public static long[] nextIds(int n) {
        if (n < 0) {
            throw new IdGenException(ErrorCode.INVALID, "n must be >= 0, got " + n);
        }
        long[] out = new long[n];
        if (n > 0) {
            Status.check(Native.LIB.idgen_next_ids(out, n));
        }
        return out;
    }

    /** The fields of an id of the default generator's layout. */
    public static IdParts decode(long id) {
        long[] p = new long[7];
        Status.check(Native.LIB.idgen_decode(id, p));
        return IdParts.fromArray(p);
    }

    /**
     * id (&gt;= 0) as text in base 2..62 (0-9a-z up to 36, 0-9A-Za-z above);
     * fixedWidth pads with '0' to the width of Long.MAX_VALUE in that base,
     * so equal-width strings sort like the numbers.
     */
    public static String format(long id, int base, boolean fixedWidth) {
        byte[] buf = new byte[FORMAT_MAX];
        Status.check(Native.LIB.idgen_format(id, base, fixedWidth ? 1 : 0, buf, buf.length));
        return CString.read(buf);
    }

    /** The id written as text in base 2..62. */
    public static long parse(String text, int base) {
        if (text == null) {
            throw new IdGenException(ErrorCode.INVALID, "text is null");
        }
        long[] out = new long[1];
        Status.check(Native.LIB.idgen_parse(CString.of(text, "text"), base, out));
        return out[0];
    }

    /**
     * Every open generator of the process (the default one included) in the
     * Prometheus text exposition format 0.0.4: the {@code idgen_*} families,
     * each series labelled {@code name} and {@code generator}. Serve it as
     * {@code text/plain; version=0.0.4}, or bind {@code
     * org.idgen.micrometer.IdGenMetrics} to a Micrometer registry.
     */
    public static String metricsText() {
        int cap = 4096;
        while (true) {
            byte[] buf = new byte[cap];
            long n = Native.LIB.idgen_metrics_text(buf, cap);
            if (n < 0) {
                throw Status.error(n);
            }
            if (n < cap) {
                return new String(buf, 0, (int) n, java.nio.charset.StandardCharsets.UTF_8);
            }
            if (n > Integer.MAX_VALUE - 65536) {
                throw new IdGenException(ErrorCode.RANGE, "the metrics text is too long: " + n + " bytes");
            }
            cap = (int) (n + n / 4 + 256); // the text grows between calls: leave room
        }
    }

    /** The library's version, "MAJOR.MINOR.PATCH". */
    public static String version() {
        return Native.LIB.idgen_version();
    }
}
