package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.mybatisplus.core.toolkit.Sequence;
import org.junit.jupiter.api.Test;

/** idgen's mybatis-plus preset against mybatis-plus-core's Sequence, in the same JVM. */
class MybatisPlusInteropTest {
    /** Sequence's own pair, read from one of its ids (41/5/5/12, as snowflake). */
    static long worker(long id) {
        return (id >> 12) & 31;
    }

    static long datacenter(long id) {
        return (id >> 17) & 31;
    }

    @Test
    void pidAndMacDeriveSequencesPair() {
        long theirs = new Sequence(null).nextId();
        try (IdGenerator g = IdGenerator.open("preset=mybatis-plus worker=pid datacenter=mac")) {
            IdParts p = g.decode(g.nextId());
            assertEquals(datacenter(theirs), p.datacenter(), "datacenter=mac is new Sequence(null)'s");
            assertEquals(worker(theirs), p.worker(), "worker=pid is new Sequence(null)'s");
            assertTrue(g.config().contains("datacenter=" + p.datacenter() + " worker=" + p.worker()), g.config());
        }
    }

    @Test
    void sequencesIdsDecodeAndOursParse() {
        Sequence seq = new Sequence(null);
        try (IdGenerator g = IdGenerator.open("preset=mybatis-plus worker=pid datacenter=mac")) {
            for (int i = 0; i < 1000; i++) {
                long before = System.currentTimeMillis();
                long theirs = seq.nextId();
                long after = System.currentTimeMillis();
                IdParts q = g.decode(theirs);
                assertEquals(Sequence.parseIdTimestamp(theirs), q.unixMillis());
                // Sequence reads a clock that a thread of its own updates every
                // millisecond, which a loaded machine may run late.
                assertTrue(q.unixMillis() >= before - 1000 && q.unixMillis() <= after + 1000,
                        theirs + " decoded to " + q.unixMillis() + ", made in [" + before + ", " + after + "]");
                assertEquals(worker(theirs), q.worker());
                assertEquals(datacenter(theirs), q.datacenter());
                assertEquals(theirs, g.compose(q), "compose rebuilds Sequence's id");
                TextParts t = g.decodeText(Long.toString(theirs));
                assertEquals(theirs, t.id());
                assertEquals(q.unixMillis(), t.unixMs());

                long ours = g.nextId();
                IdParts p = g.decode(ours);
                assertEquals(p.unixMillis(), Sequence.parseIdTimestamp(ours));
                assertEquals(worker(theirs), p.worker());
                assertEquals(datacenter(theirs), p.datacenter());
                String text = g.nextText();
                assertEquals(g.decodeText(text).unixMs(), Sequence.parseIdTimestamp(Long.parseLong(text)));
            }
        }
    }
}
