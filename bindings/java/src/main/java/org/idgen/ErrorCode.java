package org.idgen;

/** The C library's status codes, one to one. */
public enum ErrorCode {
    /** IDGEN_EINVAL: a bad argument or configuration. */
    INVALID(-1),
    /** IDGEN_ECLOCK: the clock went back beyond the configured tolerance. */
    CLOCK(-2),
    /** IDGEN_EOVERFLOW: the layout's time or epoch range is used up. */
    OVERFLOW(-3),
    /** IDGEN_ECLOSED: the generator is closed. */
    CLOSED(-4),
    /** IDGEN_EWORKER: no worker id could be had, or its lease was lost. */
    WORKER(-5),
    /** IDGEN_ERANGE: a value or buffer does not fit. */
    RANGE(-6),
    /** IDGEN_EFORKED: called in a forked child (not seen from a JVM). */
    FORKED(-7),
    /** IDGEN_EINTERNAL, or a code this binding does not know. */
    INTERNAL(-99);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** The C status code. */
    public int code() {
        return code;
    }

    /** The constant for a C status code; INTERNAL for unknown ones. */
    public static ErrorCode of(int code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return INTERNAL;
    }
}
