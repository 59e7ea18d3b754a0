package org.idgen;

import java.time.Instant;

/**
 * The fields of an id (idgen_parts). A field the layout lacks is -1.
 *
 * @param id the id
 * @param unixMillis generation time in ms since 1970 UTC, -1 if the layout has no time
 * @param time the raw time field (units since the layout's epoch), -1 if none
 * @param epoch the zxid epoch, -1 if none
 * @param datacenter -1 if none
 * @param worker -1 if none
 * @param sequence the sequence or zxid counter
 */
public record IdParts(long id, long unixMillis, long time, long epoch, long datacenter, long worker, long sequence) {

    /** The generation time, or null if the layout has no time field. */
    public Instant instant() {
        return unixMillis < 0 ? null : Instant.ofEpochMilli(unixMillis);
    }

    long[] toArray() {
        return new long[] {id, unixMillis, time, epoch, datacenter, worker, sequence};
    }

    static IdParts fromArray(long[] p) {
        return new IdParts(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    }
}
