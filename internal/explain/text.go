package explain

// The text presets' fields, byte by byte.

import "github.com/idgen/idgen/internal/config"

// textExplain describes a text preset's fields.
func textExplain(c *config.Spec) string {
	switch c.Scheme {
	case config.SchemeUUIDv7:
		return "preset=uuidv7: RFC 9562 version-7 UUIDs, 36 characters, canonical lower case\n\n" +
			"  bits 127..80  unix_ms      ms since 1970 (48 bits)\n" +
			"  bits  79..76  version      7\n" +
			"  bits  75..64  counter      high 12 bits of an 18-bit counter, random at each new ms, +1 per id\n" +
			"  bits  63..62  variant      10 (RFC 9562)\n" +
			"  bits  61..56  counter      low 6 bits\n" +
			"  bits  55..0   random       56 random bits in every id\n" +
			"  at least 131072 ids per ms (then it waits for the next ms); runs until the year 4199\n"
	case config.SchemeULID:
		return "preset=ulid: ULIDs, 26 Crockford base32 characters, upper case\n\n" +
			"  bits 127..80  unix_ms      ms since 1970 (48 bits)\n" +
			"  bits  79..0   random       random at the first id of a ms, +1 per further id in it\n" +
			"  waits for the next ms only if the 80 bits would overflow; runs until the year 4199\n"
	case config.SchemeRocketV1:
		return "preset=rocketmq-v1: text of 34 hex characters (rocketmq-clients' V1 message id)\n\n" +
			"  byte   0      version      01\n" +
			"  bytes  1..6   mac          hardware address of the host\n" +
			"  bytes  7..8   pid          low 16 bits of the process id\n" +
			"  bytes  9..12  time         seconds since 2021-01-01T00:00:00Z (low 32 bits: runs out in 2157)\n" +
			"  bytes 13..16  sequence     +1 per id; at most 4294967296 ids per second\n"
	}
	return "preset=rocketmq: text of 32 hex characters (an IPv4 host) or 56 (IPv6), RocketMQ's UNIQ_KEY\n\n" +
		"  bytes  0..3   ip           the host's IPv4 address (bytes 0..15 for IPv6; the rest move up)\n" +
		"  bytes  4..5   pid          low 16 bits of the process id\n" +
		"  bytes  6..9   loader_hash  class-loader hash (random per generator)\n" +
		"  bytes 10..13  time         ms since the 1st of the month 00:00 in tz (starts again each month)\n" +
		"  bytes 14..15  counter      +1 per id; at most 65536 ids per ms\n"
}
