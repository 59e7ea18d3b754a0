package org.idgen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.rocketmq.client.java.message.MessageIdCodec;
import org.apache.rocketmq.client.java.misc.Utilities;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.junit.jupiter.api.Test;

/**
 * idgen's rocketmq and rocketmq-v1 presets against the real classes, in the
 * same JVM: RocketMQ's MessageClientIDSetter (rocketmq-common) and the 5.x
 * gRPC client's MessageIdCodec (rocketmq-client-java).
 */
class RocketMqInteropTest {

    static String hex(byte[] b, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(String.format("%02X", b[i]));
        }
        return sb.toString();
    }

    /** What idgen's TextParts.mac() should say for the MAC in hex chars [from, from + 12). */
    static String macOf(String hex, int from) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(hex, from + 2 * i, from + 2 * i + 2);
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }

    @Test
    void rocketMqReadsOurIds() throws InterruptedException {
        byte[] ip = UtilAll.getIP();
        int len = ip.length == 16 ? 56 : 32;
        // 54321 > Short.MAX_VALUE: RocketMQ reads the pid as unsigned.
        try (IdGenerator g = IdGenerator.open("preset=rocketmq ip=auto pid=54321")) {
            for (int i = 0; i < 20; i++) {
                long before = System.currentTimeMillis();
                String ours = g.nextText();
                long after = System.currentTimeMillis();
                // An id of the current millisecond is read a month early by
                // getNearlyTimeFromID (its `>= now`); a few ms later it reads right.
                Thread.sleep(5);
                assertEquals(len, ours.length(), ours);
                assertTrue(ours.matches("[0-9A-F]+"), ours);
                assertArrayEquals(ip, MessageClientIDSetter.getIPFromID(ours), "ip=auto is UtilAll.getIP()");
                String ipStr = ip.length == 16 ? UtilAll.ipToIPv6Str(ip) : UtilAll.ipToIPv4Str(ip);
                assertEquals(ipStr, MessageClientIDSetter.getIPStrFromID(ours));
                assertEquals(54321, MessageClientIDSetter.getPidFromID(ours));
                long when = MessageClientIDSetter.getNearlyTimeFromID(ours).getTime();
                assertTrue(when >= before - 20 && when <= after + 20,
                        ours + " read as " + when + ", made in [" + before + ", " + after + "]");
                TextParts p = g.decodeText(ours);
                assertEquals(when, p.unixMs(), "the same time as RocketMQ reads");
                assertArrayEquals(ip, p.ip().getAddress());
            }
        }
        try (IdGenerator g = IdGenerator.open("preset=rocketmq")) {
            String ours = g.nextText();
            assertEquals(UtilAll.getPid() & 0xffff, MessageClientIDSetter.getPidFromID(ours), "pid=auto is this JVM's");
            assertEquals(ProcessHandle.current().pid() & 0xffff, g.decodeText(ours).pid());
        }
    }

    @Test
    void weReadRocketMqsIds() {
        byte[] ip = UtilAll.getIP();
        long loaderHash = Integer.toUnsignedLong(MessageClientIDSetter.class.getClassLoader().hashCode());
        try (IdGenerator g = IdGenerator.open("preset=rocketmq")) {
            long lastSeq = -1;
            for (int i = 0; i < 1000; i++) {
                long before = System.currentTimeMillis();
                String theirs = MessageClientIDSetter.createUniqID();
                long after = System.currentTimeMillis();
                TextParts p = g.decodeText(theirs);
                assertArrayEquals(ip, p.ip().getAddress(), theirs);
                assertEquals(MessageClientIDSetter.getPidFromID(theirs), p.pid());
                assertEquals(UtilAll.getPid() & 0xffff, p.pid());
                assertEquals(loaderHash, p.loaderHash(), "the class loader's hash, unsigned");
                assertTrue(p.unixMs() >= before && p.unixMs() <= after,
                        theirs + " decoded to " + p.unixMs() + ", made in [" + before + ", " + after + "]");
                if (lastSeq >= 0) {
                    assertEquals((lastSeq + 1) & 0xffff, p.sequence(), "the counter goes up by one");
                }
                lastSeq = p.sequence();
                assertEquals(-1, p.id());
                assertNull(p.mac());
                assertEquals(p, g.decodeText(theirs.toLowerCase(Locale.ROOT)));
            }
        }
    }

    @Test
    void ourPrefixIsRocketMqsPrefixButTheLoaderHash() {
        // Same IP and pid as createUniqID(); the loader hash is random per generator unless given.
        String theirs = MessageClientIDSetter.createUniqID();
        int ipHex = theirs.length() - 24;
        long hash = Integer.toUnsignedLong(MessageClientIDSetter.class.getClassLoader().hashCode());
        try (IdGenerator g = IdGenerator.open("preset=rocketmq loader_hash=" + hash)) {
            String ours = g.nextText();
            assertEquals(theirs.length(), ours.length());
            assertEquals(theirs.substring(0, ipHex + 12), ours.substring(0, ipHex + 12), ours + " vs " + theirs);
        }
    }

    @Test
    void weReadMessageIdCodecV1Ids() {
        try (IdGenerator g = IdGenerator.open("preset=rocketmq-v1")) {
            long seq = -1;
            for (int i = 0; i < 100; i++) {
                long before = System.currentTimeMillis();
                String theirs = MessageIdCodec.getInstance().nextMessageId().toString();
                long after = System.currentTimeMillis();
                assertEquals(34, theirs.length(), theirs);
                TextParts p = g.decodeText(theirs);
                assertEquals(macOf(theirs, 2), p.mac(), theirs);
                assertEquals(macOf(hex(Utilities.macAddress(), 0, 6), 0), p.mac());
                assertEquals(ProcessHandle.current().pid() & 0xffff, p.pid());
                // Whole seconds, counted from System.nanoTime() since the codec was made.
                assertTrue(p.unixMs() >= before - 2000 && p.unixMs() <= after + 1000,
                        theirs + " decoded to " + p.unixMs() + ", made in [" + before + ", " + after + "]");
                assertEquals(0, p.unixMs() % 1000);
                if (seq >= 0) {
                    assertEquals(seq + 1, p.sequence());
                }
                seq = p.sequence();
                assertEquals(-1, p.id());
                assertEquals(-1, p.loaderHash());
                assertNull(p.ip());
            }
        }
    }

    @Test
    void ourV1IdsHaveTheCodecsPrefix() {
        String theirs = MessageIdCodec.getInstance().nextMessageId().toString();
        try (IdGenerator g = IdGenerator.open("preset=rocketmq-v1")) {
            String ours = g.nextText();
            assertEquals(34, ours.length(), ours);
            assertTrue(ours.matches("[0-9A-F]{34}"), ours);
            assertEquals(theirs.substring(0, 18), ours.substring(0, 18), "01 + MAC (mac=auto) + pid (pid=auto)");
            long theirSeconds = Long.parseLong(theirs.substring(18, 26), 16);
            long ourSeconds = Long.parseLong(ours.substring(18, 26), 16);
            assertTrue(Math.abs(ourSeconds - theirSeconds) <= 2, ours + " vs " + theirs);
            assertEquals("01", MessageIdCodec.getInstance().decode(ours).getVersion());
        }
    }

    @Test
    void aMillionIdsFromFourThreadsAreDistinct() throws Exception {
        int threads = 4;
        int each = 250_000;
        try (IdGenerator g = IdGenerator.open("preset=rocketmq")) {
            int len = g.nextText().length();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<String[]>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    fs.add(pool.submit(() -> {
                        String[] out = new String[each];
                        for (int i = 0; i < each; i++) {
                            out[i] = g.nextText();
                        }
                        return out;
                    }));
                }
                Set<String> all = new HashSet<>(threads * each * 2);
                for (Future<String[]> f : fs) {
                    for (String s : f.get()) {
                        assertEquals(len, s.length(), s);
                        all.add(s);
                    }
                }
                assertEquals(threads * each, all.size(), "duplicates among " + threads * each + " ids");
            } finally {
                pool.shutdown();
            }
        }
    }
}
