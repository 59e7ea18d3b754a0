package org.idgen;

import java.time.Instant;

/**
 * What a generator has done and where its lease stands, read at once
 * ({@code idgen_stats}): {@link IdGenerator#stats()}. The values are the C
 * struct's: -1 where it says -1, {@link #SKEW_UNKNOWN} for a store clock
 * not known yet.
 *
 * @param issued ids (numbers or text) handed out
 * @param tickWaits calls that waited for the next tick: a tick's sequence was used up
 * @param clockBacks steps back of the clock handled (waited out, tolerated, counted, switched)
 * @param driftMs how far the newest id's time runs ahead of the clock (borrowing), else 0
 * @param leaseState where the lease stands; {@link LeaseState#NONE} without one
 * @param datacenter the pair held now (or the fixed one); -1 if the layout has none
 * @param worker -1 if the layout has none
 * @param fenceUnixMs the highest time it may issue, ms since 1970; -1 without a lease
 * @param renewedUnixMs the last acknowledged renewal, ms since 1970; -1 if none
 * @param renewals acknowledged renewals
 * @param renewalFailures renewals that failed
 * @param leasesTaken 1 at open with a lease, +1 for each re-lease or switch; 0 without one
 * @param skewMs this host's clock minus the store's (an estimate); {@link #SKEW_UNKNOWN} if unknown
 * @param segmentLeft segment generators: values left in hand (current + prefetched); -1 otherwise
 */
public record Stats(long issued, long tickWaits, long clockBacks, long driftMs, LeaseState leaseState, long datacenter,
        long worker, long fenceUnixMs, long renewedUnixMs, long renewals, long renewalFailures, long leasesTaken,
        long skewMs, long segmentLeft) {

    /** {@link #skewMs()} while the store's clock is not known (C's INT64_MIN). */
    public static final long SKEW_UNKNOWN = Long.MIN_VALUE;

    /** The int64 fields of idgen_stats this binding reads, in order. */
    static final int FIELDS = 14;

    /** The fence as an instant, or null without a lease. */
    public Instant fence() {
        return fenceUnixMs < 0 ? null : Instant.ofEpochMilli(fenceUnixMs);
    }

    static Stats fromArray(long[] s) {
        return new Stats(s[0], s[1], s[2], s[3], LeaseState.of(s[4]), s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12],
                s[13]);
    }
}
