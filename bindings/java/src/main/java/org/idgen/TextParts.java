package org.idgen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.Arrays;

/**
 * The fields of a text id (idgen_text_parts), as {@link IdGenerator#decodeText}
 * reads them. A number the form lacks is -1; an address it lacks is null.
 *
 * @param id a numeric preset's id; -1 for the text-only forms (rocketmq, rocketmq-v1)
 * @param unixMs when it was made, ms since 1970 UTC; -1 if unknown
 * @param sequence the counter; -1 if none
 * @param pid the process id bits the form keeps (rocketmq and rocketmq-v1:
 *     the low 16, unsigned); -1 if none
 * @param loaderHash rocketmq: the class-loader hash field, unsigned 32 bits; -1 if none
 * @param ip rocketmq: the host's address (an {@link Inet4Address} for a
 *     32-char id, an {@link Inet6Address} for a 56-char one); null if none
 * @param mac rocketmq-v1: the MAC address, lower case, colon separated
 *     ("02:fc:00:00:00:01"); null if none
 */
public record TextParts(long id, long unixMs, long sequence, long pid, long loaderHash, InetAddress ip, String mac) {

    /** When it was made, or null if the form does not say. */
    public Instant instant() {
        return unixMs < 0 ? null : Instant.ofEpochMilli(unixMs);
    }

    /** Offsets in idgen_text_parts (x86-64): five int64, then addr_len, then addr[16]. */
    private static final int ID = 0, UNIX_MS = 8, SEQUENCE = 16, PID = 24, LOADER_HASH = 32, ADDR_LEN = 40, ADDR = 44;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

    /**
     * The record for an idgen_text_parts: its {@link Native#TEXT_PARTS_SIZE}
     * bytes as the library wrote them (native byte order). Both backends'
     * text-id calls come here.
     */
    static TextParts read(byte[] s) {
        int addrLen = (int) INT.get(s, ADDR_LEN);
        InetAddress ip = null;
        String mac = null;
        try {
            switch (addrLen) {
                case 0:
                    break;
                case 4:
                    ip = InetAddress.getByAddress(Arrays.copyOfRange(s, ADDR, ADDR + 4));
                    break;
                case 16:
                    // Never an Inet4Address, even for ::ffff:a.b.c.d: the id holds 16 bytes.
                    ip = Inet6Address.getByAddress(null, Arrays.copyOfRange(s, ADDR, ADDR + 16), -1);
                    break;
                case 6:
                    mac = macText(s, ADDR);
                    break;
                default:
                    throw new IdGenException(ErrorCode.INTERNAL, "idgen_text_parts.addr_len is " + addrLen + "; want 0, 4, 6 or 16");
            }
        } catch (UnknownHostException e) {
            throw new IdGenException(ErrorCode.INTERNAL, "idgen_text_parts.addr: " + e.getMessage());
        }
        return new TextParts((long) LONG.get(s, ID), (long) LONG.get(s, UNIX_MS), (long) LONG.get(s, SEQUENCE),
                (long) LONG.get(s, PID), (long) LONG.get(s, LOADER_HASH), ip, mac);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Six bytes as "02:fc:00:00:00:01". */
    private static String macText(byte[] buf, int off) {
        char[] c = new char[17];
        for (int i = 0; i < 6; i++) {
            if (i > 0) {
                c[3 * i - 1] = ':';
            }
            int b = buf[off + i];
            c[3 * i] = HEX[(b >> 4) & 0xf];
            c[3 * i + 1] = HEX[b & 0xf];
        }
        return new String(c);
    }
}
