package org.idgen;

/**
 * Ids handed out in Java (Runs, SharedRuns, UuidRuns). A call that issues
 * ids in the library holds the object's lock and stops the hand-out first,
 * so that nothing handed out after it is below what the library issued.
 */
interface HandOut {
    /** Stops the hand-out, holding this object's lock: what it has left is dropped or given back. */
    void stopLocked();
}
