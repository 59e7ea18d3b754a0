package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * runs=N handed out in Java (Runs, through JNA) or from the run in hand in
 * C (idgen_next_in_hand, through java.lang.foreign), and a segment
 * counter's runs: ids strictly increase across threads
 * and methods (a call that ended before another began has the smaller
 * ids), none repeats, none is handed out more than 1 ms after its run was
 * reserved, and nothing after close.
 */
class RunsTest {
    /** One call: tickets taken before it began and after it ended, its smallest and largest id. */
    record Op(long begin, long end, long lo, long hi) {}

    static final AtomicLong CLOCK = new AtomicLong();

    /** Calls that got an id not above one of a call that had ended before they began. */
    static int violations(List<Op> ops) {
        List<Op> byBegin = new ArrayList<>(ops);
        byBegin.sort(Comparator.comparingLong(Op::begin));
        List<Op> byEnd = new ArrayList<>(ops);
        byEnd.sort(Comparator.comparingLong(Op::end));
        int bad = 0;
        int j = 0;
        long endedMax = Long.MIN_VALUE;
        for (Op b : byBegin) {
            while (j < byEnd.size() && byEnd.get(j).end() < b.begin()) {
                endedMax = Math.max(endedMax, byEnd.get(j).hi());
                j++;
            }
            if (b.lo() <= endedMax) {
                bad++;
            }
        }
        return bad;
    }

    @Test
    void theCheckerCanFail() {
        assertEquals(1, violations(List.of(new Op(0, 1, 10, 10), new Op(2, 3, 5, 5))));
        assertEquals(0, violations(List.of(new Op(0, 3, 10, 10), new Op(1, 2, 5, 5))));
    }

    @TempDir
    Path dir;

    /** Time runs, and a segment counter's (through java.lang.foreign both come from idgen_next_in_hand first). */
    @ParameterizedTest
    @ValueSource(strings = {"layout=time:41,seq:22 worker=0 runs=1024", "preset=segment name=lin step=auto"})
    void increasingAcrossThreadsAndMethods(String config) throws Exception {
        boolean segment = config.startsWith("preset=segment");
        try (IdGenerator g = IdGenerator.open(segment ? config + " lease_dir=" + dir : config)) {
            if (!segment) {
                assertEquals(1024, g.info()[4], "longest_run");
            }
            int threads = 4, calls = 100_000;
            List<List<Op>> per = new ArrayList<>();
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<Op> mine = new ArrayList<>(calls);
                per.add(mine);
                ts.add(new Thread(() -> {
                    long[] batch = new long[5];
                    for (int i = 0; i < calls; i++) {
                        long b = CLOCK.getAndIncrement();
                        if (i % 97 == 96) {
                            g.nextIds(batch);
                            mine.add(new Op(b, CLOCK.getAndIncrement(), batch[0], batch[4]));
                        } else {
                            long id = g.nextId();
                            mine.add(new Op(b, CLOCK.getAndIncrement(), id, id));
                        }
                    }
                }));
            }
            ts.forEach(Thread::start);
            for (Thread t : ts) {
                t.join();
            }
            List<Op> all = new ArrayList<>();
            per.forEach(all::addAll);
            long[] ids = all.stream().flatMapToLong(o -> o.lo() == o.hi()
                    ? java.util.stream.LongStream.of(o.lo()) : java.util.stream.LongStream.of(o.lo(), o.hi())).toArray();
            Arrays.sort(ids);
            for (int i = 1; i < ids.length; i++) {
                assertTrue(ids[i] > ids[i - 1], "repeated id " + ids[i]);
            }
            assertEquals(0, violations(all), "calls out of order");
        }
    }

    /** clock=wall: the generator reads the wall clock at each reservation (see ctest/runs.c). */
    @Test
    void idsAreFresh() throws Exception {
        try (IdGenerator g = IdGenerator.open("layout=time:41,seq:22 worker=0 runs=1024 clock=wall")) {
            int stale = 0;
            for (int round = 0; round < 30; round++) {
                for (int i = 0; i < 2000; i++) {
                    long before = System.currentTimeMillis();
                    if (g.decode(g.nextId()).unixMillis() < before - 2) {
                        stale++;
                    }
                }
                Thread.sleep(3);
            }
            assertEquals(0, stale, "ids with a time more than 1 ms before their call");
        }
    }

    /** A clean close gives back what was not handed out: the counter goes on without a gap. */
    @Test
    void aSegmentCounterGoesOnWithoutAGapAfterAClose() {
        String config = "preset=segment name=tail step=1000 lease_dir=" + dir;
        long last;
        try (IdGenerator g = IdGenerator.open(config)) {
            long first = g.nextId();
            last = first;
            for (int i = 0; i < 10; i++) {
                long id = g.nextId();
                assertEquals(last + 1, id, "consecutive values");
                last = id;
            }
        }
        try (IdGenerator g = IdGenerator.open(config)) {
            assertEquals(last + 1, g.nextId(), "reopened where the closed one stopped");
        }
    }

    /**
     * A segment run's rest is held in Java; the stats, a text id and a
     * batch count and take only from what it did not hand out (it is given
     * back first), and the hand-out goes on after them without a gap.
     */
    @Test
    void whatJavaHoldsIsGivenBackBeforeTheLibraryCountsOrIssues() {
        try (IdGenerator g = IdGenerator.open("preset=segment name=held step=1000 lease_dir=" + dir)) {
            long first = g.nextId();
            for (int i = 1; i < 10; i++) {
                assertEquals(first + i, g.nextId());
            }
            assertEquals(10, g.stats().issued(), "ids issued: the ten handed out, not the run");
            assertEquals(first + 10, g.nextId(), "on after the stats");
            assertEquals(Long.toString(first + 11), g.nextText(), "a text id takes the next value");
            assertEquals(first + 12, g.nextId());
            assertEquals(first + 13, g.nextIds(2)[0], "a batch too");
            assertEquals(first + 15, g.nextId());
            assertEquals(16, g.stats().issued());
        }
    }

    /**
     * Each backend's way: a segment counter from the library's memory
     * (Unsafe on JDK 17, java.lang.foreign on 22+), time runs handed out in
     * Java through JNA and from C's run in hand through java.lang.foreign,
     * a generator without runs by a call each.
     */
    @Test
    void eachBackendHandsOutItsWay() {
        boolean ffm = Native.LIB.name().equals("ffm");
        try (IdGenerator seg = IdGenerator.open("preset=segment name=way lease_dir=" + dir);
             IdGenerator time = IdGenerator.open("layout=time:41,seq:22 worker=0 runs=1024");
             IdGenerator plain = IdGenerator.open("layout=time:41,seq:22 worker=0")) {
            assertEquals("memory", seg.nextIdPath());
            assertEquals(ffm ? "in-hand" : "runs", time.nextIdPath());
            assertEquals("call", plain.nextIdPath());
            long a = seg.nextId();
            assertEquals(a + 1, seg.nextId(), "from the run idgen_next reserved");
            long[] batch = seg.nextIds(3);
            assertEquals(a + 2, batch[0], "a batch takes the run's tail");
            assertEquals(a + 5, seg.nextId(), "and the memory's hand-out goes on after it");
            seg.close();
            IdGenException e = assertThrows(IdGenException.class, seg::nextId);
            assertEquals(ErrorCode.CLOSED, e.code());
        }
    }

    @Test
    void nothingAfterClose() {
        IdGenerator g = IdGenerator.open("layout=time:41,seq:22 worker=0 runs=1024");
        long a = g.nextId();
        long b = g.nextId();
        assertTrue(b > a);
        g.close();
        IdGenException e = assertThrows(IdGenException.class, g::nextId);
        assertEquals(ErrorCode.CLOSED, e.code());
    }
}
