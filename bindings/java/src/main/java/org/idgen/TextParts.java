package org.idgen;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
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

    /**
     * The record for idgen_text_parts' fields; the struct's address bytes
     * are buf[off, off + addrLen) (only those are read).
     */
    static TextParts of(long id, long unixMs, long sequence, long pid, long loaderHash, int addrLen, byte[] buf, int off) {
        InetAddress ip = null;
        String mac = null;
        try {
            switch (addrLen) {
                case 0:
                    break;
                case 4:
                    ip = InetAddress.getByAddress(Arrays.copyOfRange(buf, off, off + 4));
                    break;
                case 16:
                    // Never an Inet4Address, even for ::ffff:a.b.c.d: the id holds 16 bytes.
                    ip = Inet6Address.getByAddress(null, Arrays.copyOfRange(buf, off, off + 16), -1);
                    break;
                case 6:
                    mac = macText(buf, off);
                    break;
                default:
                    throw new IdGenException(ErrorCode.INTERNAL, "idgen_text_parts.addr_len is " + addrLen + "; want 0, 4, 6 or 16");
            }
        } catch (UnknownHostException e) {
            throw new IdGenException(ErrorCode.INTERNAL, "idgen_text_parts.addr: " + e.getMessage());
        }
        return new TextParts(id, unixMs, sequence, pid, loaderHash, ip, mac);
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
