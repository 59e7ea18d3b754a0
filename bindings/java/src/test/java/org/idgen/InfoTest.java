package org.idgen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the binding asks the library (idgen_get_info) instead of probing it,
 * and lease=off, a configuration opened for decoding only; on whichever
 * backend runs (JNA on 17, FFM on 25).
 */
class InfoTest {
    private static final long MS = 1_000_000L;

    private static void assertInfo(String config, long... want) {
        try (IdGenerator g = IdGenerator.open(config)) {
            assertArrayEquals(want, g.info(), config + ": kind, leased, tick_ns, text_len, longest_run");
        }
    }

    @Test
    void everyKindSaysWhatItIs() {
        assertInfo("preset=snowflake worker=3", 1, 0, MS, 0, 1);
        assertInfo("preset=snowflake worker=3 text=base62 runs=8", 1, 0, MS, 11, 8);
        assertInfo("preset=sonyflake worker=1", 1, 0, 10 * MS, 0, 1);
        assertInfo("preset=zxid worker=0", 1, 0, 0, 0, 1);
        assertInfo("preset=uuidv7", 2, 0, MS, 36, 1);
        assertInfo("preset=ulid", 3, 0, MS, 26, 1);
        assertInfo("preset=rocketmq ip=10.0.0.1", 4, 0, MS, 32, 1);
        assertInfo("preset=rocketmq-v1", 4, 0, 1000 * MS, 34, 1);
    }

    @Test
    void leasedWithALeaseOrASegmentStore(@TempDir Path dir) {
        assertInfo("preset=snowflake worker=lease lease_dir=" + dir, 1, 1, MS, 0, 1);
        assertInfo("preset=segment name=orders lease_dir=" + dir, 5, 1, 0, 0, 1);
    }

    @Test
    void nextUuidAsksTheKind() {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            assertEquals(7, g.nextUuid().version());
        }
        for (String config : new String[] {"preset=ulid", "preset=snowflake worker=1 name=uuidv7"}) {
            try (IdGenerator g = IdGenerator.open(config)) {
                IdGenException e = assertThrows(IdGenException.class, g::nextUuid, config);
                assertEquals(ErrorCode.INVALID, e.code());
            }
        }
    }

    @Test
    void closedGeneratorThrowsClosed() {
        IdGenerator g = IdGenerator.open("preset=snowflake worker=3");
        g.close();
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, g::info).code());
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, g::nextUuid).code());
    }

    @Test
    void leaseOffDecodesButNeverIssues(@TempDir Path tmp) throws IOException {
        Path leases = Files.createDirectory(tmp.resolve("leases"));
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        long id;
        IdParts want;
        try (IdGenerator real = IdGenerator.open("preset=leaf worker=lease lease_dir=" + leases)) {
            id = real.nextId();
            want = real.decode(id);
        }
        try (IdGenerator g = IdGenerator.open("preset=leaf worker=lease lease=off lease_dir=" + empty)) {
            for (Runnable call : new Runnable[] {g::nextId, () -> g.nextIds(3), g::nextText}) {
                IdGenException e = assertThrows(IdGenException.class, call::run);
                assertEquals(ErrorCode.INVALID, e.code());
                assertTrue(e.getMessage().contains("lease=off"), e.getMessage());
            }
            assertEquals(want, g.decode(id));
            assertEquals(id, g.compose(want));
            assertEquals(0, g.info()[1], "leased");
        }
        try (var files = Files.list(empty)) {
            assertEquals(0, files.count(), "lease=off took no lease");
        }
    }

    @Test
    void uuidIsStillAUuid() {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            UUID u = g.nextUuid();
            assertEquals(2, u.variant());
        }
    }
}
