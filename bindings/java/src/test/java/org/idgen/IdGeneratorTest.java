package org.idgen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdGeneratorTest {
    static final long SEED_004 = 910499571847892992L;

    @Test
    void loadsTheLibraryFromTheJar() {
        assertEquals("0.1.0", IdGen.version());
        String where = Native.LIB.libraryPath();
        assertTrue(where.contains("jna") || where.contains("idgen"), where);
        // JDK 22+ runs the java.lang.foreign classes of the multi-release jar; 17-21 JNA.
        String want = Runtime.version().feature() >= 22 ? "ffm" : "jna";
        assertEquals(want, Native.LIB.name(), "backend on JDK " + Runtime.version());
        assertTrue(Native.class.getResource("/linux-x86-64/libidgen.so").toString().startsWith("jar:"),
                "the library comes from inside the jar");
        // The backend is picked by the multi-release jar's Backends class.
        String picker = Native.class.getResource("Backends.class").toString();
        assertEquals(Runtime.version().feature() >= 22, picker.contains("META-INF/versions/22/"), picker);
    }

    @Test
    void batchesOfEverySizeIncrease() {
        // The FFM backend fills batches up to 65536 ids through a per-thread
        // buffer and larger ones through an arena of their own.
        try (IdGenerator g = IdGenerator.open("layout=time:41,seq:22 worker=0")) {
            long last = g.nextId();
            for (int n : new int[] {1, 2, 4096, 65536, 65537, 300_000, 7}) {
                long[] ids = g.nextIds(n);
                assertEquals(n, ids.length);
                for (long id : ids) {
                    assertTrue(id > last, "n=" + n);
                    last = id;
                }
            }
        }
    }

    @Test
    void runsAreTheLibrarysSoJavaGetsThemToo() {
        // runs=N means the same generator in every language: nextId hands out
        // ids of runs the library reserves, increasing across nextId and
        // batches; without runs every id of a tick follows the one before.
        try (IdGenerator g = IdGenerator.open("layout=time:41,seq:22 worker=0 runs=64")) {
            assertTrue(g.config().contains(" runs=64"), g.config());
            long last = -1;
            for (int i = 0; i < 20_000; i++) {
                long[] ids = i % 1000 == 0 ? g.nextIds(3) : new long[] {g.nextId()};
                for (long id : ids) {
                    assertTrue(id > last, "i=" + i);
                    last = id;
                }
            }
        }
        try (IdGenerator g = IdGenerator.open("layout=time:41,seq:22 worker=0")) {
            assertTrue(!g.config().contains("runs="), g.config());
            long prev = g.nextId();
            for (int i = 0; i < 20_000; i++) {
                long id = g.nextId();
                assertTrue(id == prev + 1 || (id & ((1L << 22) - 1)) == 0, "no gap within a tick");
                prev = id;
            }
        }
        IdGenException e = assertThrows(IdGenException.class, () -> IdGenerator.open("preset=sonyflake worker=0 runs=8"));
        assertTrue(e.getMessage().contains("runs"), e.getMessage());
    }

    @Test
    void seed004DecodesAndComposes() {
        try (IdGenerator g = IdGenerator.open("preset=snowflake")) {
            IdParts p = g.decode(SEED_004);
            assertEquals(new IdParts(SEED_004, 1505914988849L, 1505914988849L - 1288834974657L, -1, 17, 25, 0), p);
            assertEquals(Instant.parse("2017-09-20T13:43:08.849Z"), p.instant());
            assertEquals(SEED_004, g.compose(new IdParts(0, 1505914988849L, -1, -1, 17, 25, 0)));
        }
    }

    @Test
    void idsIncreaseAndCarryTheConfig() {
        try (IdGenerator g = IdGenerator.open("preset=leaf worker=5")) {
            assertTrue(g.config().contains("worker=5"), g.config());
            long a = g.nextId();
            long[] ids = g.nextIds(10_000);
            assertTrue(ids[0] > a);
            for (int i = 1; i < ids.length; i++) {
                assertTrue(ids[i] > ids[i - 1]);
            }
            long[] buf = new long[3];
            g.nextIds(buf);
            assertTrue(buf[0] > ids[ids.length - 1] && buf[2] > buf[1]);
            assertEquals(5, g.decode(buf[0]).worker());
            assertEquals(0, g.nextIds(0).length);
        }
    }

    @Test
    void eightThreadsShareOneGenerator() throws Exception {
        int threads = 8, per = 200_000;
        try (IdGenerator g = IdGenerator.open("layout=time:41,worker:10,seq:12 worker=3")) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    long[] ids = new long[per];
                    for (int i = 0; i < per; i++) {
                        if (i % 10_000 == 0 && i + 100 <= per) {
                            long[] b = g.nextIds(100);
                            System.arraycopy(b, 0, ids, i, 100);
                            i += 99;
                            continue;
                        }
                        ids[i] = g.nextId();
                    }
                    return ids;
                }));
            }
            long[] all = new long[threads * per];
            int k = 0;
            for (Future<long[]> f : futures) {
                long[] ids = f.get();
                for (int i = 1; i < ids.length; i++) {
                    assertTrue(ids[i] > ids[i - 1], "each thread's ids increase");
                }
                System.arraycopy(ids, 0, all, k, ids.length);
                k += ids.length;
            }
            pool.shutdown();
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertTrue(all[i] != all[i - 1], "duplicate id " + all[i]);
            }
        }
    }

    @Test
    void everyErrorCodeSurfaces(@TempDir Path dir) throws IOException {
        IdGenException e = assertThrows(IdGenException.class, () -> IdGenerator.open("bogus=1"));
        assertEquals(ErrorCode.INVALID, e.code());
        assertTrue(e.getMessage().contains("bogus"), e.getMessage());
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGenerator.open("worker=99")).code());
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGenerator.open("a\0b")).code());

        try (IdGenerator g = IdGenerator.open("preset=baidu worker=0")) {
            IdGenException o = assertThrows(IdGenException.class, g::nextId);
            assertEquals(ErrorCode.OVERFLOW, o.code());
            assertTrue(o.getMessage().contains("2024-11-20"), o.getMessage());
            assertEquals(ErrorCode.OVERFLOW, assertThrows(IdGenException.class, () -> g.nextIds(5)).code());
        }
        try (IdGenerator g = IdGenerator.open("worker=0")) {
            assertEquals(ErrorCode.RANGE, assertThrows(IdGenException.class,
                    () -> g.compose(new IdParts(0, 1505914988849L, -1, -1, 17, 32, 0))).code());
            assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> g.decode(-1)).code());
            assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> g.nextIds(-1)).code());
            assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> g.compose(null)).code());
        }
        IdGenException w = assertThrows(IdGenException.class, () -> IdGenerator.open("worker=lease lease_dir=/nonexistent/jx"));
        assertEquals(ErrorCode.INVALID, w.code(), "an explicit lease_dir that does not exist is a bad config");
        assertTrue(w.getMessage().startsWith("lease_dir:") && w.getMessage().contains("/nonexistent/jx"), w.getMessage());
        String full = "layout=time:41,seq:22 worker=lease lease_dir=" + dir;
        try (IdGenerator only = IdGenerator.open(full)) {
            assertTrue(only.nextId() >= 0);
            assertEquals(ErrorCode.WORKER, assertThrows(IdGenException.class, () -> IdGenerator.open(full)).code(),
                    "a one-pair pool is full");
        }

        // CLOCK: a lease whose recorded time is far ahead of the clock, in a
        // pool of one pair (a pool with a never-used pair takes that one).
        String cfg = "layout=time:41,seq:22 worker=lease lease_dir=" + dir;
        try (IdGenerator g = IdGenerator.open(cfg)) {
            g.nextId();
        }
        Path lease;
        try (Stream<Path> s = Files.walk(dir)) {
            // The pair's .lease file, not the pool's .pool record beside it.
            lease = s.filter(p -> p.getFileName().toString().startsWith("time_time41-seq22")
                    && p.getFileName().toString().endsWith(".lease")).findFirst().orElseThrow();
        }
        String body = String.format("idgen-lease 1 %020d %03d ", 1L << 41, 0);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Files.writeString(lease, String.format("%s%08x\n", body, crc.getValue()));
        IdGenException c = assertThrows(IdGenException.class, () -> IdGenerator.open(cfg + " max_wait=20ms"));
        assertEquals(ErrorCode.CLOCK, c.code());
        assertTrue(c.getMessage().contains("max_wait"), c.getMessage());

        // CLOSED: see useAfterClose. FORKED and INTERNAL cannot be provoked in
        // a JVM (no fork, no bug on purpose): their mapping is checked.
        assertEquals(ErrorCode.FORKED, ErrorCode.of(-7));
        assertEquals(ErrorCode.INTERNAL, ErrorCode.of(-99));
        assertEquals(ErrorCode.INTERNAL, ErrorCode.of(-12345));
        for (ErrorCode code : ErrorCode.values()) {
            assertEquals(code, ErrorCode.of(code.code()));
            assertTrue(!Native.LIB.idgen_strerror(code.code()).equals("unknown status"));
        }
    }

    @Test
    void useAfterCloseAndCloseTwice() {
        IdGenerator g = IdGenerator.open("worker=1");
        g.nextId();
        g.close();
        g.close();
        IdGenException e = assertThrows(IdGenException.class, g::nextId);
        assertEquals(ErrorCode.CLOSED, e.code());
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, () -> g.nextIds(3)).code());
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, () -> g.decode(1)).code());
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, g::config).code());
        assertEquals("IdGenerator[closed]", g.toString());
    }

    @Test
    void cleanerClosesALeakedGenerator(@TempDir Path dir) throws Exception {
        String cfg = "layout=time:41,worker:1,seq:21 worker=lease lease_dir=" + dir;
        IdGenerator kept = IdGenerator.open(cfg);
        leak(cfg);
        assertEquals(ErrorCode.WORKER, assertThrows(IdGenException.class, () -> IdGenerator.open(cfg)).code(),
                "both ids are held");
        IdGenerator again = null;
        for (int i = 0; i < 100 && again == null; i++) {
            System.gc();
            Thread.sleep(20);
            try {
                again = IdGenerator.open(cfg);
            } catch (IdGenException e) {
                assertEquals(ErrorCode.WORKER, e.code());
            }
        }
        assertTrue(again != null, "the Cleaner released the leaked generator's lease");
        assertTrue(again.decode(again.nextId()).worker() != kept.decode(kept.nextId()).worker());
        again.close();
        kept.close();
    }

    private static void leak(String cfg) {
        IdGenerator.open(cfg).nextId();
    }

    @Test
    void defaultGeneratorAndTextForms() {
        IdGen.configure("preset=snowflake datacenter=2 worker=3");
        long a = IdGen.nextId();
        IdParts p = IdGen.decode(a);
        assertEquals(2, p.datacenter());
        assertEquals(3, p.worker());
        long[] ids = IdGen.nextIds(100);
        assertTrue(ids[0] > a && ids[99] > ids[0]);
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGen.configure("preset=x")).code());
        assertEquals(3, IdGen.decode(IdGen.nextId()).worker(), "a failed configure keeps the old generator");

        assertEquals("15G63YLn9Ae", IdGen.format(SEED_004, 62, true));
        assertEquals("000000000000z", IdGen.format(35, 36, true));
        assertEquals(SEED_004, IdGen.parse("15G63YLn9Ae", 62));
        assertEquals(Long.MAX_VALUE, IdGen.parse(IdGen.format(Long.MAX_VALUE, 36, false), 36));
        // Base 2 is the longest text: 63 digits, more than IDGEN_TEXT_MAX holds.
        assertEquals(Long.toBinaryString(Long.MAX_VALUE), IdGen.format(Long.MAX_VALUE, 2, false));
        assertEquals(63, IdGen.format(1, 2, true).length());
        assertEquals(ErrorCode.RANGE, assertThrows(IdGenException.class, () -> IdGen.parse("zzzzzzzzzzzz", 62)).code());
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGen.parse("", 62)).code());
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGen.parse(null, 62)).code());
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGen.format(-1, 62, false)).code());
        assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, () -> IdGen.format(1, 99, false)).code());
        assertNull(new IdParts(5, -1, -1, 5, -1, -1, 7).instant());
    }

    @Test
    void survivesGcPressureUnderCheckJni() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread churn = new Thread(() -> {
            List<byte[]> keep = new ArrayList<>();
            while (!stop.get()) {
                keep.add(new byte[64 * 1024]);
                if (keep.size() > 200) {
                    keep.clear();
                    System.gc();
                }
            }
        });
        churn.start();
        try (IdGenerator g = IdGenerator.open("layout=time:41,seq:22")) {
            long last = -1;
            for (int i = 0; i < 2000; i++) {
                long[] b = g.nextIds(1000);
                assertTrue(b[0] > last);
                last = b[999];
                assertEquals(b[0], g.decode(b[0]).id());
                assertTrue(g.nextId() > last);
                last = g.nextId();
            }
        } finally {
            stop.set(true);
            churn.join();
        }
        assertArrayEquals(new long[0], IdGen.nextIds(0));
    }

    /** Go installs signal handlers when the library loads; the JVM's own
     * uses of signals (implicit null checks in compiled code) must still work. */
    @Test
    void jvmSignalsStillWorkAfterLoading() {
        assertTrue(IdGen.nextId() > 0);
        int npes = 0;
        for (int i = 0; i < 200_000; i++) {
            try {
                npes += lengthOf((i & 1023) == 0 ? null : "x") - 1;
            } catch (NullPointerException e) {
                npes++;
            }
        }
        assertEquals(196, npes);
    }

    private static int lengthOf(String s) {
        return s.length();
    }

    @Test
    void jarWorksFromAPlainJavaProgram(@TempDir Path dir) throws Exception {
        Path jar = Path.of("target", "idgen-0.1.0.jar").toAbsolutePath();
        assertTrue(Files.exists(jar), jar.toString());
        String jna = Path.of(com.sun.jna.Native.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Path src = dir.resolve("Plain.java");
        Files.writeString(src, String.join("\n",
                "import org.idgen.*;",
                "public class Plain { public static void main(String[] a) {",
                "  try (IdGenerator g = IdGenerator.open(\"preset=snowflake worker=9\")) {",
                "    long id = g.nextId(); System.out.println(id + \" \" + g.decode(id).worker()); } } }"));
        SourceLauncher.Result r = SourceLauncher.run(List.of(), jar + ":" + jna, src);
        String out = r.out();
        assertEquals(0, r.status(), out);
        String[] parts = out.split(" ");
        assertTrue(Long.parseLong(parts[0]) > 0, out);
        assertEquals("9", parts[1]);
    }
}
