package org.idgen;

/** The C functions' results turned into exceptions. */
final class Status {
    private Status() {}

    /** The exception for a failed call, with this thread's last-error text. */
    static IdGenException error(long status) {
        ErrorCode code = ErrorCode.of((int) status);
        String msg = Native.LIB.idgen_last_error();
        if (msg == null || msg.isEmpty()) {
            msg = Native.LIB.idgen_strerror((int) status);
        }
        if (code == ErrorCode.INVALID && msg.startsWith("text preset ")) {
            // A text preset's refusal of a numeric call names the C
            // functions; this binding names its own methods.
            msg = msg.replace("idgen_next_text", "nextText()").replace("idgen_decode_text", "decodeText()");
        }
        return new IdGenException(code, msg);
    }

    /** Throws unless status is 0. */
    static void check(int status) {
        if (status != 0) {
            throw error(status);
        }
    }

    /** v, an id, or the exception for it when it is a negative status. */
    static long id(long v) {
        if (v < 0) {
            throw error(v);
        }
        return v;
    }
}
