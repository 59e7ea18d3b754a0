package org.idgen;

/** Where a generator's lease stands ({@code IDGEN_LEASE_*}): {@link Stats#leaseState()}. */
public enum LeaseState {
    /** No lease: a fixed worker, a text preset, ... */
    NONE,
    /** Held, the last renewal acknowledged. */
    HELD,
    /** The store does not answer: the generator issues up to its fence. */
    RIDING,
    /** Past the fence or taken away: WORKER until leased again. */
    LOST;

    private static final LeaseState[] BY_CODE = values();

    /** The C value ({@code IDGEN_LEASE_NONE} is 0, ...). */
    public int code() {
        return ordinal();
    }

    /** The constant for a C value. */
    static LeaseState of(long code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IdGenException(ErrorCode.INTERNAL, "unknown lease state " + code + " from the library");
        }
        return BY_CODE[(int) code];
    }
}
