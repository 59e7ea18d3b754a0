package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IdGenerator.stats(): idgen_stats as a Stats record, on whichever backend runs (JNA on 17, FFM on 25). */
class StatsTest {
    @Test
    void leaseStatesAreTheCValues() {
        assertEquals(0, LeaseState.NONE.code());
        assertEquals(1, LeaseState.HELD.code());
        assertEquals(2, LeaseState.RIDING.code());
        assertEquals(3, LeaseState.LOST.code());
        assertEquals(LeaseState.LOST, LeaseState.of(3));
        assertEquals(14, Stats.class.getRecordComponents().length, "one component per idgen_stats field");
        assertThrows(IdGenException.class, () -> LeaseState.of(4));
    }

    @Test
    void fixedWorkerReportsNoLeaseAndCountsIds() {
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=3 datacenter=1")) {
            Stats st = g.stats();
            assertEquals(LeaseState.NONE, st.leaseState());
            assertEquals(1, st.datacenter());
            assertEquals(3, st.worker());
            assertEquals(-1, st.fenceUnixMs());
            assertNull(st.fence());
            assertEquals(-1, st.renewedUnixMs());
            assertEquals(0, st.leasesTaken());
            assertEquals(0, st.issued());
            assertEquals(Stats.SKEW_UNKNOWN, st.skewMs());
            assertEquals(-1, st.segmentLeft());
            long[] ids = g.nextIds(100);
            assertEquals(100, g.stats().issued());
            assertTrue(g.nextId() > ids[99]);
            assertEquals(101, g.stats().issued());
        }
    }

    @Test
    void textPresetHasNoPair() {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            g.nextText();
            Stats st = g.stats();
            assertEquals(LeaseState.NONE, st.leaseState());
            assertEquals(-1, st.datacenter());
            assertEquals(-1, st.worker());
        }
    }

    @Test
    void leasedGeneratorReportsHeldItsPairAndFence(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("leases"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
        assertEquals(PosixFilePermissions.fromString("rwx------"), perms, "a lease directory of the caller's own, 0700");
        long before = System.currentTimeMillis();
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=lease lease_dir=" + dir)) {
            IdParts p = g.decode(g.nextId());
            Stats st = g.stats();
            assertEquals(LeaseState.HELD, st.leaseState());
            assertEquals(p.datacenter(), st.datacenter());
            assertEquals(p.worker(), st.worker());
            assertTrue(g.config().contains("leased=" + st.datacenter() + "/" + st.worker()), g.config());
            assertTrue(st.fenceUnixMs() > before && st.fenceUnixMs() < before + 5000,
                    "fence " + st.fenceUnixMs() + " ~ now + max_outage (1s on the host), now " + before);
            assertNotNull(st.fence());
            assertEquals(1, st.leasesTaken());
            assertTrue(st.issued() >= 1);
        }
    }

    @Test
    void closedGeneratorThrowsClosed() {
        IdGenerator g = IdGenerator.open("preset=snowflake worker=3");
        g.close();
        IdGenException e = assertThrows(IdGenException.class, g::stats);
        assertEquals(ErrorCode.CLOSED, e.code());
    }
}
