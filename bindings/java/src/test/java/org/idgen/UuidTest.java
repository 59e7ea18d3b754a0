package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * preset=uuidv7 and preset=ulid through this JDK's backend: nextUuid read by
 * java.util.UUID, decodeText of the RFC's and the ULID spec's examples, the
 * refusals, and 8 threads.
 */
class UuidTest {
    static final String RFC_EXAMPLE = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"; // RFC 9562 A.6: 2022-02-22T19:22:22Z

    @Test
    void nextUuidIsAVersion7UuidOfNow() {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            long before = System.currentTimeMillis();
            UUID u = g.nextUuid();
            long after = System.currentTimeMillis();
            assertEquals(7, u.version());
            assertEquals(2, u.variant());
            long ms = u.getMostSignificantBits() >>> 16;
            assertTrue(before - 1 <= ms && ms <= after + 1, ms + " not in " + before + ".." + after);
            assertEquals(ms, g.decodeText(u.toString()).unixMs());
            String t = g.nextText();
            UUID v = UUID.fromString(t);
            assertEquals(7, v.version());
            assertEquals(t, v.toString(), "canonical lower case, as java.util.UUID writes it");
            assertTrue(v.compareTo(u) > 0 && t.compareTo(u.toString()) > 0);
            // nextUuid reads the library's text itself: interleaved with
            // nextText, every one lies strictly between its neighbours.
            String prev = t;
            for (int i = 0; i < 2000; i++) {
                String w = i % 2 == 0 ? g.nextUuid().toString() : g.nextText();
                assertTrue(w.compareTo(prev) > 0, w + " after " + prev);
                prev = w;
            }
        }
    }

    @Test
    void javasOwnUuidsOfOtherVersionsAreRefused() {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            TextParts p = g.decodeText(RFC_EXAMPLE);
            assertEquals(1645557742000L, p.unixMs());
            assertEquals(-1, p.sequence());
            assertEquals(-1, p.id());
            assertEquals(p, g.decodeText(RFC_EXAMPLE.toLowerCase(Locale.ROOT)));
            for (String bad : new String[] {UUID.randomUUID().toString(), UUID.nameUUIDFromBytes(new byte[] {1}).toString(),
                    "017f22e279b07cc398c4dc0c0c07398f", "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}", "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f"}) {
                IdGenException e = assertThrows(IdGenException.class, () -> g.decodeText(bad), bad);
                assertEquals(ErrorCode.INVALID, e.code());
            }
        }
    }

    @Test
    void ulidTextAndTheSpecsExample() {
        try (IdGenerator g = IdGenerator.open("preset=ulid")) {
            String a = g.nextText(), b = g.nextText();
            assertTrue(a.matches("[0-7][0-9A-HJKMNP-TV-Z]{25}") && b.compareTo(a) > 0, a + " " + b);
            assertEquals(1469922850259L, g.decodeText("01ARZ3NDEKTSV4RRFFQ69G5FAV").unixMs());
            assertEquals(1469922850259L, g.decodeText("01arz3ndektsv4rrffq69g5fav").unixMs());
            for (String bad : new String[] {"01ARZ3NDEKTSV4RRFFQ69G5FAI", "01ARZ3NDEKTSV4RRFFQ69G5FAL", "01ARZ3NDEKTSV4RRFFQ69G5FAO",
                    "01ARZ3NDEKTSV4RRFFQ69G5FAU", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ"}) {
                assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> g.decodeText(bad)).code(), bad);
            }
        }
    }

    @Test
    void nextUuidWorksOnANamedUuidv7() { // name= applies to every generator
        try (IdGenerator g = IdGenerator.open("preset=uuidv7 name=orders")) {
            assertEquals(7, g.nextUuid().version());
        }
        try (IdGenerator g = IdGenerator.open("preset=ulid name=orders")) {
            assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, g::nextUuid).code());
        }
    }

    @Test
    void nextUuidOnAnotherPresetRefusesAndConsumesNothing() {
        try (IdGenerator g = IdGenerator.open(TextIdTest.FIXED)) {
            long seq = g.decodeText(g.nextText()).sequence();
            IdGenException e = assertThrows(IdGenException.class, g::nextUuid);
            assertEquals(ErrorCode.INVALID, e.code());
            assertTrue(e.getMessage().contains("only preset=uuidv7"), e.getMessage());
            assertEquals(seq + 1, g.decodeText(g.nextText()).sequence(), "nextUuid consumed nothing");
        }
    }

    @Test
    void numericCallsNameThisBindingsMethods() {
        for (String cfg : new String[] {"preset=uuidv7", "preset=ulid", TextIdTest.FIXED}) {
            try (IdGenerator g = IdGenerator.open(cfg)) {
                for (Runnable call : new Runnable[] {g::nextId, () -> g.nextIds(2), () -> g.decode(1)}) {
                    IdGenException e = assertThrows(IdGenException.class, call::run);
                    assertEquals(ErrorCode.INVALID, e.code());
                    assertTrue(e.getMessage().contains("nextText()") && e.getMessage().contains("decodeText()"), e.getMessage());
                    assertFalse(e.getMessage().contains("idgen_next_text"), e.getMessage());
                }
            }
        }
    }

    @Test
    void eightThreadsGetDistinctIncreasingUuids() throws InterruptedException {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            List<List<UUID>> out = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                List<UUID> mine = new ArrayList<>();
                out.add(mine);
                threads.add(new Thread(() -> {
                    for (int i = 0; i < 50_000; i++) {
                        mine.add(g.nextUuid());
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            HashSet<UUID> all = new HashSet<>();
            List<String> texts = new ArrayList<>();
            for (List<UUID> ids : out) {
                assertEquals(50_000, ids.size());
                for (int i = 1; i < ids.size(); i++) {
                    assertTrue(ids.get(i).compareTo(ids.get(i - 1)) > 0, ids.get(i - 1) + " then " + ids.get(i));
                }
                all.addAll(ids);
                ids.forEach(u -> texts.add(u.toString()));
            }
            assertEquals(400_000, all.size(), "no repeats");
            List<UUID> byValue = new ArrayList<>(all);
            byValue.sort(Comparator.naturalOrder());
            texts.sort(Comparator.naturalOrder());
            for (int i = 0; i < texts.size(); i++) {
                assertEquals(texts.get(i), byValue.get(i).toString(), "text order is UUID order");
            }
        }
    }

    /**
     * nextUuid hands out runs the library made (idgen_next_uuids); with
     * nextText between them, from 4 threads, a call that ended before
     * another began has the smaller UUID, and none repeats.
     */
    @Test
    void uuidRunsStayInOrderAcrossThreadsAndTextIds() throws InterruptedException {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            int threads = 4, calls = 20_000;
            List<List<Object[]>> per = new ArrayList<>();
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<Object[]> mine = new ArrayList<>(calls);
                per.add(mine);
                ts.add(new Thread(() -> {
                    for (int i = 0; i < calls; i++) {
                        long b = RunsTest.CLOCK.getAndIncrement();
                        UUID u = i % 7 == 6 ? UUID.fromString(g.nextText()) : g.nextUuid();
                        mine.add(new Object[] {b, RunsTest.CLOCK.getAndIncrement(), u});
                    }
                }));
            }
            ts.forEach(Thread::start);
            for (Thread t : ts) {
                t.join();
            }
            List<Object[]> all = new ArrayList<>();
            per.forEach(all::addAll);
            List<UUID> sorted = new ArrayList<>();
            all.forEach(o -> sorted.add((UUID) o[2]));
            sorted.sort(Comparator.naturalOrder());
            for (int i = 1; i < sorted.size(); i++) {
                assertTrue(sorted.get(i).compareTo(sorted.get(i - 1)) > 0, "repeated " + sorted.get(i));
            }
            List<RunsTest.Op> ops = new ArrayList<>();
            for (Object[] o : all) { // each UUID by its rank: order kept, as a long
                long rank = java.util.Collections.binarySearch(sorted, (UUID) o[2]);
                ops.add(new RunsTest.Op((Long) o[0], (Long) o[1], rank, rank));
            }
            assertEquals(0, RunsTest.violations(ops), "calls out of order");
        }
    }

    /**
     * A run's UUIDs are handed out within 1 ms of when it was asked for: after a sleep longer than that, the
     * next call makes a new run, so 30 rounds of fewer calls than a run holds make at least 30 runs. Counted by
     * what the library reserved, not by comparing the UUIDs' times with the wall clock: idgen's clock is its own
     * (monotonic, read from a cache refreshed about every millisecond), and on a loaded host it can read a few ms
     * behind System.currentTimeMillis without any UUID being kept too long. With no freshness bound the 300 calls
     * would take 5 runs.
     */
    @Test
    void uuidRunsAreFresh() throws InterruptedException {
        try (IdGenerator g = IdGenerator.open("preset=uuidv7")) {
            int rounds = 30;
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < 10; i++) { // fewer than a run: its rest is stale after the sleep
                    g.nextUuid();
                }
                Thread.sleep(3); // at least 3 ms on System.nanoTime, the clock the run's deadline is on
            }
            long reserved = g.stats().issued();
            assertTrue(reserved >= (long) rounds * UuidRuns.SIZE,
                    "UUIDs reserved: " + reserved + ", fewer than a run per round (a stale run was handed out)");
        }
    }
}
