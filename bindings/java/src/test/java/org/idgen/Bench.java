package org.idgen;

import cn.hutool.core.lang.Snowflake;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.rocketmq.common.message.MessageClientIDSetter;

/**
 * The Java figures of make bench (not a test). Run against the bench build
 * of the library (-Didgen.library=build/bench/libidgen.so), which adds
 * idgen_bench_noop1: a bare call into Go with idgen_next's signature.
 * Each figure is the median of ROUNDS rounds; within a round the
 * candidates take turns, so noise hits them alike.
 */
public final class Bench {
    static final int ROUNDS = 7;

    /** The bare call, direct-mapped as JnaNative maps idgen_next. */
    static final class Noop {
        static {
            Native.register(Noop.class, JnaNative.LIBRARY);
        }

        static native long idgen_bench_noop1(long p);
    }

    /** idgen_next_batch called straight through JNA into native memory: C's own batch cost plus one call. */
    static final class CBatch {
        static {
            Native.register(CBatch.class, JnaNative.LIBRARY);
        }

        static native int idgen_open(byte[] config, long[] out);

        static native int idgen_next_batch(long g, Pointer out, long n);

        static native void idgen_close(long g);
    }

    /**
     * ns per id of 16384 ids taken from a filled baidu-cached ring in one call
     * (after a warm-up batch; too few to wake its filler, so the take path
     * alone): through nextIds(long[]), and through CBatch into native memory.
     * Each round opens new generators (workers of their own), lets the rings
     * fill, and takes the two in turn, the order alternating by round.
     */
    static double[] baiduCached() throws InterruptedException {
        String cfg = "preset=baidu-cached layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00 worker=";
        long[] warm = new long[4096], buf = new long[16384];
        Memory mem = new Memory(8L * buf.length);
        int rounds = 2 * ROUNDS + 1;
        double[] api = new double[rounds], c = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long[] h = new long[1];
            if (CBatch.idgen_open((cfg + (4000 + r) + "\0").getBytes(StandardCharsets.US_ASCII), h) != 0) {
                throw new IllegalStateException("idgen_open failed for baidu-cached");
            }
            try (IdGenerator a = IdGenerator.open(cfg + (3000 + r))) {
                Thread.sleep(100); // the rings fill
                a.nextIds(warm);
                if (CBatch.idgen_next_batch(h[0], mem, warm.length) != 0) {
                    throw new IllegalStateException("idgen_next_batch failed for baidu-cached");
                }
                for (int k = 0; k < 2; k++) {
                    long t = System.nanoTime();
                    if ((k + r) % 2 == 0) {
                        a.nextIds(buf);
                        api[r] = (System.nanoTime() - t) / (double) buf.length;
                    } else {
                        if (CBatch.idgen_next_batch(h[0], mem, buf.length) != 0) {
                            throw new IllegalStateException("idgen_next_batch failed for baidu-cached");
                        }
                        c[r] = (System.nanoTime() - t) / (double) buf.length;
                    }
                }
            } finally {
                CBatch.idgen_close(h[0]);
            }
        }
        return new double[] {median(api), median(c)};
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    /** What meter counts per call of f, over n calls. */
    static double perCall(LongSupplier f, int n, LongSupplier meter) {
        long sink = 0;
        long before = meter.getAsLong();
        for (int i = 0; i < n; i++) {
            sink += f.getAsLong();
        }
        double v = (meter.getAsLong() - before) / (double) n;
        if (sink == 42) {
            System.out.print("");
        }
        return v;
    }

    static double nsPerCall(LongSupplier f, int n) {
        return perCall(f, n, System::nanoTime);
    }

    /** Heap bytes this thread allocates per call of f (after the JIT has warmed up). */
    static double bytesPerCall(LongSupplier f, int n) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return perCall(f, n, mx::getCurrentThreadAllocatedBytes);
    }

    static double utilisation(IdGenerator g, double secs) {
        long[] buf = new long[4096];
        g.nextIds(buf);
        long first = buf[0];
        long n = 0;
        long end = System.nanoTime() + (long) (secs * 1e9);
        while (System.nanoTime() < end) {
            g.nextIds(buf);
            n += buf.length;
        }
        long ticks = g.decode(buf[buf.length - 1]).time() - g.decode(first).time() + 1;
        return (n + 4096) / (ticks * 4096.0);
    }

    /** On JDK 22+: FfmNative's downcall to idgen_bench_noop1 (bench build only), linked as idgen_next is. */
    static final MethodHandle FFM_NOOP = ffmNoop();

    static MethodHandle ffmNoop() {
        if (!org.idgen.Native.LIB.name().equals("ffm")) {
            return null;
        }
        try {
            return MethodHandles.lookup().findStatic(Class.forName("org.idgen.FfmNative"), "benchNoop1", MethodType.methodType(long.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static long ffmNoop1(long p) {
        try {
            return (long) FFM_NOOP.invokeExact(p);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A use of a text id that needs its last char written, the same for every candidate. */
    static long use(String s) {
        return s.charAt(s.length() - 1);
    }

    /**
     * ROUNDS rounds (after a warm-up): ns per call of each of fs (n calls;
     * n/4 for the two capped at 4096 ids/ms), then a row of ns per id of
     * unc.nextIds(long[65536]) and a row of sf's sustained utilisation.
     */
    static double[][] rounds(LongSupplier[] fs, int n, IdGenerator unc, IdGenerator sf) {
        for (LongSupplier f : fs) {
            nsPerCall(f, n); // warm up the JIT
        }
        double[][] r = new double[fs.length + 2][ROUNDS];
        long[] big = new long[1 << 16];
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < fs.length; k++) {
                r[k][round] = nsPerCall(fs[k], k == 2 || k == 3 ? n / 4 : n);
            }
            long t = System.nanoTime();
            for (int i = 0; i < 64; i++) {
                unc.nextIds(big);
            }
            r[fs.length][round] = (System.nanoTime() - t) / (64.0 * big.length);
            r[fs.length + 1][round] = utilisation(sf, 0.5);
        }
        return r;
    }

    public static void main(String[] args) throws InterruptedException {
        boolean ffm = FFM_NOOP != null;
        IdGenerator unc = IdGenerator.open("layout=time:41,seq:22 worker=0");
        IdGenerator sf = IdGenerator.open("preset=snowflake worker=1");
        IdGenerator unc62 = IdGenerator.open("layout=time:41,seq:22 worker=0 text=base62");
        IdGenerator rq = IdGenerator.open("preset=rocketmq");
        IdGenerator uv = IdGenerator.open("preset=uuidv7"), ul = IdGenerator.open("preset=ulid");
        Snowflake hutool = new Snowflake(null, 1, 0, false);
        long arg = 12345;
        LongSupplier[] fs = {
            ffm ? () -> ffmNoop1(arg) : () -> Noop.idgen_bench_noop1(arg), unc::nextId, sf::nextId, hutool::nextId,
            () -> UUID.randomUUID().getLeastSignificantBits(), () -> use(unc62.nextText()), () -> use(rq.nextText()),
            () -> use(MessageClientIDSetter.createUniqID()),
            () -> uv.nextUuid().getLeastSignificantBits(), () -> use(ul.nextText()),
        };
        int rqLen = rq.nextText().length();
        int n = 1_000_000;
        int batchRow = fs.length, utilRow = fs.length + 1;
        double[][] r = rounds(fs, n, unc, sf);
        double bare = median(r[0]), next = median(r[1]), sfNext = median(r[2]), hu = median(r[3]), uuid = median(r[4]);
        double text62 = median(r[5]), rqText = median(r[6]), rqUpstream = median(r[7]);
        double v7 = median(r[8]), ulid = median(r[9]);
        double batch = median(r[batchRow]), util = median(r[utilRow]);
        System.out.printf("Java %s, %s (medians of %d rounds)%n", System.getProperty("java.version"),
                ffm ? "java.lang.foreign" : "JNA " + Native.VERSION, ROUNDS);
        System.out.printf("  %-56s %9.1f ns%n", ffm ? "bare FFM downcall into Go (noop1)" : "bare JNA direct call into Go (noop1)", bare);
        System.out.printf("  %-56s %9.1f ns   %.2fx bare call (target <= 1.3x) %s%n", "IdGenerator.nextId(), layout=time:41,seq:22", next, next / bare, next / bare <= 1.3 ? "PASS" : "FAIL");
        System.out.printf("  %-56s %9.1f ns%n", "IdGenerator.nextId(), preset=snowflake (ceiling 244)", sfNext);
        System.out.printf("  %-56s %9.1f ns   (same 41/5/5/12 layout)%n", "hutool Snowflake.nextId()", hu);
        System.out.printf("  %-56s %9.1f ns%n", "UUID.randomUUID()", uuid);
        System.out.printf("  %-56s %9.1f ns   %.2fx UUID.randomUUID()%n", "IdGenerator.nextUuid(), preset=uuidv7", v7, v7 / uuid);
        System.out.printf("  %-56s %9.1f ns%n", "IdGenerator.nextText(), preset=ulid", ulid);
        System.out.printf("  %-56s %9.1f ns   %.2fx nextId() of the same layout%n", "IdGenerator.nextText(), time:41,seq:22 text=base62", text62, text62 / next);
        System.out.printf("  %-56s %9.1f ns   %.2fx nextId() (uncapped), %.2fx createUniqID()%n", "IdGenerator.nextText(), preset=rocketmq (" + rqLen + " chars)", rqText, rqText / next, rqText / rqUpstream);
        System.out.printf("  %-56s %9.1f ns   (the same form, in this JVM)%n", "RocketMQ MessageClientIDSetter.createUniqID()", rqUpstream);
        System.out.printf("  %-56s %9.1f B    (the String: %d B), createUniqID() %.1f B%n", "heap allocated per nextText(), preset=rocketmq",
                bytesPerCall(fs[6], n), 24 + (16 + rqLen + 7) / 8 * 8, bytesPerCall(fs[7], n));
        double batchTarget = ffm ? 1 : 3;
        System.out.printf("  %-56s %9.2f ns/id (target <= %.0f) %s%n", "nextIds(long[65536]), layout=time:41,seq:22", batch, batchTarget, batch <= batchTarget ? "PASS" : "FAIL");
        System.out.printf("  %-56s %9.2f %% of 4096 ids/ms (target >= 99%%) %s%n", "nextIds(long[4096]), preset=snowflake, sustained", util * 100, util >= 0.99 ? "PASS" : "FAIL");
        double[] bc = baiduCached();
        System.out.printf("  %-56s %9.2f ns/id   %.2fx the C call alone (%.2f ns/id) (target <= 2x) %s%n", "baidu-cached nextIds(long[16384]), filled ring",
                bc[0], bc[0] / bc[1], bc[1], bc[0] / bc[1] <= 2 ? "PASS" : "FAIL");
        unc.close();
        sf.close();
        unc62.close();
        rq.close();
        uv.close();
        ul.close();
    }
}
