package org.idgen;

/** A failure reported by libidgen; the message is the library's last-error text. */
public class IdGenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public IdGenException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    /** What kind of failure this is. */
    public ErrorCode code() {
        return code;
    }
}
