package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cn.hutool.core.lang.Snowflake;
import cn.hutool.core.util.IdUtil;
import org.junit.jupiter.api.Test;

/** idgen's hutool preset against hutool itself, in the same JVM. */
class HutoolInteropTest {

    @Test
    void macAndPidDeriveTheSamePairAsHutool() {
        long dc = IdUtil.getDataCenterId(31);
        long worker = IdUtil.getWorkerId(dc, 31);
        try (IdGenerator g = IdGenerator.open("preset=hutool worker=pid datacenter=mac")) {
            IdParts p = g.decode(g.nextId());
            assertEquals(dc, p.datacenter(), "datacenter=mac is IdUtil.getDataCenterId(31)");
            assertEquals(worker, p.worker(), "worker=pid is IdUtil.getWorkerId(dc, 31)");
            assertTrue(g.config().contains("datacenter=" + dc + " worker=" + worker), g.config());
        }
    }

    @Test
    void hutoolReadsOurIdsAndWeReadHutools() {
        long dc = IdUtil.getDataCenterId(31);
        long worker = IdUtil.getWorkerId(dc, 31);
        Snowflake hutool = IdUtil.getSnowflake(worker, dc);
        try (IdGenerator g = IdGenerator.open("preset=hutool worker=pid datacenter=mac")) {
            for (int i = 0; i < 1000; i++) {
                long ours = g.nextId();
                IdParts p = g.decode(ours);
                assertEquals(worker, hutool.getWorkerId(ours));
                assertEquals(dc, hutool.getDataCenterId(ours));
                assertEquals(p.unixMillis(), hutool.getGenerateDateTime(ours));

                long theirs = hutool.nextId();
                IdParts q = g.decode(theirs);
                assertEquals(hutool.getWorkerId(theirs), q.worker());
                assertEquals(hutool.getDataCenterId(theirs), q.datacenter());
                assertEquals(hutool.getGenerateDateTime(theirs), q.unixMillis());
                assertEquals(theirs, g.compose(q), "compose rebuilds hutool's id");
            }
        }
    }

    @Test
    void explicitIdsMatchHutoolsLayout() {
        Snowflake hutool = new Snowflake(null, 7, 3, false);
        try (IdGenerator g = IdGenerator.open("preset=hutool datacenter=3 worker=7")) {
            long theirs = hutool.nextId();
            long ours = g.nextId();
            assertEquals(hutool.getWorkerId(ours), 7);
            assertEquals(hutool.getDataCenterId(ours), 3);
            assertEquals(g.decode(theirs).worker(), 7);
            assertTrue(Math.abs(g.decode(theirs).unixMillis() - g.decode(ours).unixMillis()) < 5000);
        }
    }
}
