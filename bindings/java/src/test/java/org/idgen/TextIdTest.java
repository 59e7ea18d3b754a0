package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * nextText and decodeText through this JDK's backend (JNA on 17, the
 * java.lang.foreign classes on 25): numeric presets as text, the fixed-key
 * rocketmq and rocketmq-v1 forms, and every way text can be wrong.
 */
class TextIdTest {
    static final String FIXED = "preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC";

    static void assertInvalid(IdGenerator g, String text) {
        IdGenException e = assertThrows(IdGenException.class, () -> g.decodeText(text), String.valueOf(text));
        assertEquals(ErrorCode.INVALID, e.code(), e.getMessage());
        assertTrue(!e.getMessage().isEmpty());
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02X", x));
        }
        return sb.toString();
    }

    @Test
    void textBuffersAreIdgenTextMax() throws IOException {
        // The binding sizes every text buffer with Native.TEXT_MAX: it must be the header's.
        String h = Files.readString(Path.of("../../include/idgen.h"));
        Matcher m = Pattern.compile("#define IDGEN_TEXT_MAX (\\d+)").matcher(h);
        assertTrue(m.find(), "IDGEN_TEXT_MAX in include/idgen.h");
        assertEquals(Integer.parseInt(m.group(1)), Native.TEXT_MAX);
        try (IdGenerator g = IdGenerator.open("preset=rocketmq ip=2001:db8::1")) {
            assertEquals(Native.TEXT_MAX - 1, g.nextText().length(), "the longest text id fills it");
        }
    }

    @Test
    void base62IsElevenCharsAndDecodesToTheId() {
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=1 text=base62")) {
            String last = "";
            for (int i = 0; i < 1000; i++) {
                long before = System.currentTimeMillis();
                String t = g.nextText();
                assertEquals(11, t.length(), t);
                assertTrue(t.matches("[0-9A-Za-z]{11}"), t);
                assertTrue(t.compareTo(last) > 0, "fixed width sorts like the numbers: " + last + " < " + t);
                last = t;
                TextParts p = g.decodeText(t);
                assertEquals(IdGen.parse(t, 62), p.id());
                IdParts q = g.decode(p.id());
                assertEquals(1, q.worker());
                assertEquals(q.unixMillis(), p.unixMs());
                assertEquals(q.sequence(), p.sequence());
                assertTrue(p.unixMs() >= before - 50 && p.unixMs() <= System.currentTimeMillis() + 50, p.toString());
                assertEquals(-1, p.pid());
                assertEquals(-1, p.loaderHash());
                assertNull(p.ip());
                assertNull(p.mac());
            }
        }
    }

    @Test
    void decAndBase36() {
        try (IdGenerator dec = IdGenerator.open("preset=snowflake worker=1 text=dec");
                IdGenerator b36 = IdGenerator.open("preset=snowflake worker=2 text=base36")) {
            String t = dec.nextText();
            long id = Long.parseLong(t);
            assertEquals(Long.toString(id), t, "no leading zeros");
            assertEquals(id, dec.decodeText(t).id());
            assertEquals(dec.decode(id).unixMillis(), dec.decodeText(t).unixMs());
            assertTrue(dec.nextId() > id, "text and numbers come from one sequence");

            String u = b36.nextText();
            assertEquals(13, u.length(), u);
            assertEquals(Long.parseLong(u, 36), b36.decodeText(u).id());
            assertEquals(2, b36.decode(b36.decodeText(u).id()).worker());
        }
        try (IdGenerator deflt = IdGenerator.open("preset=snowflake worker=3")) {
            long id = Long.parseLong(deflt.nextText());
            assertEquals(3, deflt.decode(id).worker(), "text=dec is the default");
        }
    }

    @Test
    void fixedKeysGiveTheFixedPrefix() {
        try (IdGenerator g = IdGenerator.open(FIXED)) {
            String a = g.nextText();
            String b = g.nextText();
            for (String t : new String[] {a, b}) {
                assertEquals(32, t.length(), t);
                assertTrue(t.matches("[0-9A-F]{32}"), t);
                assertEquals("0A010203" + "1234" + "12345678", t.substring(0, 20));
            }
            TextParts p = g.decodeText(a);
            assertEquals(-1, p.id());
            assertEquals(InetAddress.getByAddress(new byte[] {10, 1, 2, 3}), p.ip());
            assertEquals(4, p.ip().getAddress().length);
            assertEquals(4660, p.pid());
            assertEquals(305419896, p.loaderHash());
            assertNull(p.mac());
            // ms since the 1st of the month, UTC (tz=UTC), in chars 20..28.
            long monthStart = p.instant().atZone(java.time.ZoneOffset.UTC).withDayOfMonth(1).toLocalDate()
                    .atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
            assertEquals(Long.parseLong(a.substring(20, 28), 16), p.unixMs() - monthStart);
            assertEquals(Long.parseLong(a.substring(28), 16), p.sequence());
            assertEquals((p.sequence() + 1) & 0xffff, g.decodeText(b).sequence());
            assertTrue(Math.abs(p.unixMs() - System.currentTimeMillis()) < 1000, p.toString());
            assertEquals(p, g.decodeText(a.toLowerCase(Locale.ROOT)), "hex in either case");
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void pidKeepsItsLow16BitsUnsignedAndLoaderHashIsUnsigned() {
        try (IdGenerator g = IdGenerator.open("preset=rocketmq ip=10.1.2.3 pid=70000 loader_hash=4294967295 tz=UTC")) {
            String t = g.nextText();
            assertEquals("0A010203" + "1170" + "FFFFFFFF", t.substring(0, 20));
            TextParts p = g.decodeText(t);
            assertEquals(70000 & 0xffff, p.pid());
            assertEquals(0xffffffffL, p.loaderHash());
        }
    }

    @Test
    void ipv6IdsAre56Chars() throws Exception {
        try (IdGenerator g = IdGenerator.open("preset=rocketmq ip=fd00::2 pid=1 loader_hash=2 tz=UTC")) {
            String t = g.nextText();
            assertEquals(56, t.length(), t);
            assertTrue(t.startsWith("FD000000000000000000000000000002" + "0001" + "00000002"), t);
            TextParts p = g.decodeText(t);
            assertEquals(InetAddress.getByName("fd00::2"), p.ip());
            assertEquals(16, p.ip().getAddress().length);
            // An IPv4-mapped address in a 56-char id stays 16 bytes (InetAddress.getByAddress would make it IPv4).
            String mapped = "00000000000000000000FFFF0A010203" + t.substring(32);
            TextParts q = g.decodeText(mapped);
            assertEquals(16, q.ip().getAddress().length, q.ip().toString());
            assertEquals("00000000000000000000FFFF0A010203", hex(q.ip().getAddress()));
        }
    }

    @Test
    void rocketmqV1FixedKeys() {
        try (IdGenerator g = IdGenerator.open("preset=rocketmq-v1 mac=02:FC:00:00:00:01 pid=74565")) {
            String t = g.nextText();
            assertEquals(34, t.length(), t);
            assertTrue(t.matches("[0-9A-F]{34}"), t);
            assertEquals("01" + "02FC00000001" + "2345", t.substring(0, 18));
            TextParts p = g.decodeText(t);
            assertEquals("02:fc:00:00:00:01", p.mac());
            assertNull(p.ip());
            assertEquals(74565 & 0xffff, p.pid());
            assertEquals(-1, p.loaderHash());
            assertEquals(-1, p.id());
            long seconds = Long.parseLong(t.substring(18, 26), 16);
            assertEquals(1609459200_000L + seconds * 1000, p.unixMs(), "seconds since 2021-01-01 UTC");
            assertEquals(Long.parseLong(t.substring(26), 16), p.sequence());
            assertEquals(p.sequence() + 1, g.decodeText(g.nextText()).sequence());
            assertInvalid(g, "02" + t.substring(2));
        }
    }

    @Test
    void textPresetsMakeNoNumbers() {
        for (String cfg : new String[] {FIXED, "preset=rocketmq-v1"}) {
            try (IdGenerator g = IdGenerator.open(cfg)) {
                assertEquals(ErrorCode.INVALID, assertThrows(IdGenException.class, g::nextId).code());
                IdGenException e = assertThrows(IdGenException.class, () -> g.nextIds(3));
                assertEquals(ErrorCode.INVALID, e.code());
                assertTrue(e.getMessage().contains("nextText()"), e.getMessage()); // this binding's method, not the C name
                g.nextText(); // still fine after the failures
            }
        }
        IdGenException e = assertThrows(IdGenException.class, () -> IdGenerator.open("preset=snowflake worker=1 ip=auto"));
        assertEquals(ErrorCode.INVALID, e.code());
        assertTrue(e.getMessage().contains("ip"), e.getMessage());
    }

    @Test
    void textThatIsNotTheFormIsInvalid() {
        try (IdGenerator g = IdGenerator.open(FIXED)) {
            String t = g.nextText();
            for (String bad : new String[] {
                "", "xyz", t.substring(1), t + "0", " " + t.substring(1), t.substring(1) + "\n", "0x" + t.substring(2),
                "+" + t.substring(1), "-" + t.substring(1), "G" + t.substring(1), t.substring(0, 31) + "\u00e9",
                "\u00e9".repeat(32), t.repeat(10), "0".repeat(200),
            }) {
                assertInvalid(g, bad);
            }
            assertInvalid(g, null);
            // A NUL inside would end the C string early and leave a valid id.
            assertInvalid(g, t + "\0" + "junk");
            assertEquals(g.decodeText(t), g.decodeText(t.toLowerCase(Locale.ROOT)));
        }
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=1 text=base62")) {
            String t = g.nextText();
            assertInvalid(g, t.substring(1));
            assertInvalid(g, "zzzzzzzzzzz"); // above Long.MAX_VALUE
            assertInvalid(g, "!" + t.substring(1));
            assertInvalid(g, "");
        }
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=1")) {
            assertInvalid(g, "-12");
            assertInvalid(g, "+12");
            assertInvalid(g, "0012");
            assertInvalid(g, " 12");
            assertEquals(12, g.decodeText("12").id());
        }
    }

    @Test
    void closedGeneratorsSayClosed() {
        IdGenerator g = IdGenerator.open(FIXED);
        String t = g.nextText();
        g.close();
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, g::nextText).code());
        assertEquals(ErrorCode.CLOSED, assertThrows(IdGenException.class, () -> g.decodeText(t)).code());
    }

    @Test
    void threadsKeepTheirOwnBuffers() throws Exception {
        // Each thread decodes its own texts while others write theirs: a
        // shared buffer would mix them up.
        String[] cfgs = {FIXED, "preset=rocketmq-v1 mac=02:00:00:00:00:07 pid=7", "preset=snowflake worker=5 text=base62",
            "preset=rocketmq ip=fd00::9 pid=9 loader_hash=9 tz=UTC"};
        IdGenerator[] gs = new IdGenerator[cfgs.length];
        for (int i = 0; i < cfgs.length; i++) {
            gs[i] = IdGenerator.open(cfgs[i]);
        }
        try {
            Thread[] ts = new Thread[cfgs.length];
            Throwable[] failed = new Throwable[cfgs.length];
            for (int i = 0; i < ts.length; i++) {
                IdGenerator g = gs[i];
                int k = i;
                ts[i] = new Thread(() -> {
                    try {
                        TextParts first = g.decodeText(g.nextText());
                        for (int n = 0; n < 20_000; n++) {
                            String t = g.nextText();
                            TextParts p = g.decodeText(t);
                            assertEquals(first.pid(), p.pid(), t);
                            assertEquals(first.ip(), p.ip(), t);
                            assertEquals(first.mac(), p.mac(), t);
                            assertEquals(first.loaderHash(), p.loaderHash(), t);
                        }
                    } catch (Throwable e) {
                        failed[k] = e;
                    }
                });
                ts[i].start();
            }
            for (int i = 0; i < ts.length; i++) {
                ts[i].join();
                if (failed[i] != null) {
                    throw new AssertionError(cfgs[i], failed[i]);
                }
            }
        } finally {
            for (IdGenerator g : gs) {
                g.close();
            }
        }
    }
}
