"""The lines python -m idgen prints for decoded ids, numbers and text, worded
as the Go command (build/idgen) words them; and decode's reading of its
inputs."""

from __future__ import annotations

import datetime as _dt
import json

import idgen

_MAX_MS = 253402300799999  # 9999-12-31T23:59:59.999Z


def rfc3339(ms: int) -> str:
    if ms < 0 or ms > _MAX_MS:
        return f"{ms} ms since 1970 (beyond year 9999)"
    secs, rest = divmod(ms, 1000)
    t = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(seconds=secs)
    frac = ("." + f"{rest:03d}".rstrip("0")) if rest else ""
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}{frac}Z"


def parse_id(s: str) -> int:
    t = s.strip()
    try:
        v = int(t[2:], 16) if t.lower().startswith("0x") and t[2:] and all(c in "0123456789abcdefABCDEF" for c in t[2:]) \
            else int(t, 10) if t and (t.isdigit() or (t[0] in "+-" and t[1:].isdigit())) else None
    except ValueError:
        v = None
    if v is None or not -(1 << 63) <= v < (1 << 63):
        raise idgen.ConfigError(f'"{s}" is not an id (decimal or 0x hex)', -1)
    return v


def decode_line(p: idgen.Parts, as_json: bool) -> str:
    fields: list[tuple[str, object]] = [("id", p.id)]
    if p.unix_ms >= 0:
        fields += [("unix_ms", p.unix_ms), ("time", rfc3339(p.unix_ms))]
    for k, v in (("datacenter", p.datacenter), ("worker", p.worker), ("sequence", p.sequence), ("epoch", p.epoch)):
        if v >= 0:
            fields.append((k, v))
    if as_json:
        return json.dumps(dict(fields))
    return " ".join(f"{k}={v}" for k, v in fields)


_TEXT_PRESETS = ("rocketmq", "rocketmq-v1", "uuidv7", "ulid")
_TEXT_FORMS = {"base36": (36, 13), "base62": (62, 11)}


def text_line(p: idgen.TextParts, as_json: bool) -> str:
    """A decoded text id, as idgen decode prints it."""
    fields: list[tuple[str, object]] = []
    if p.unix_ms is not None:
        fields += [("unix_ms", p.unix_ms), ("time", rfc3339(p.unix_ms))]
    for k, v in (("sequence", p.sequence), ("pid", p.pid), ("loader_hash", p.loader_hash)):
        if v is not None:
            fields.append((k, v))
    if p.ip is not None:
        fields.append(("ip", str(p.ip)))
    if p.mac is not None:
        fields.append(("mac", p.mac))
    if as_json:
        return json.dumps(dict(fields))
    return " ".join(f"{k}={v}" for k, v in fields)


_TEXT_EXPLAIN = {
    "uuidv7": "preset=uuidv7: RFC 9562 version-7 UUIDs, 36 characters, canonical lower case\n\n"
    "  bits 127..80  unix_ms      ms since 1970 (48 bits)\n"
    "  bits  79..76  version      7\n"
    "  bits  75..64  counter      high 12 bits of an 18-bit counter, random at each new ms, +1 per id\n"
    "  bits  63..62  variant      10 (RFC 9562)\n"
    "  bits  61..56  counter      low 6 bits\n"
    "  bits  55..0   random       56 random bits in every id\n"
    "  at least 131072 ids per ms (then it waits for the next ms); runs until the year 4199\n",
    "ulid": "preset=ulid: ULIDs, 26 Crockford base32 characters, upper case\n\n"
    "  bits 127..80  unix_ms      ms since 1970 (48 bits)\n"
    "  bits  79..0   random       random at the first id of a ms, +1 per further id in it\n"
    "  waits for the next ms only if the 80 bits would overflow; runs until the year 4199\n",
    "rocketmq-v1": "preset=rocketmq-v1: text of 34 hex characters (rocketmq-clients' V1 message id)\n\n"
    "  byte   0      version      01\n"
    "  bytes  1..6   mac          hardware address of the host\n"
    "  bytes  7..8   pid          low 16 bits of the process id\n"
    "  bytes  9..12  time         seconds since 2021-01-01T00:00:00Z (low 32 bits: runs out in 2157)\n"
    "  bytes 13..16  sequence     +1 per id; at most 4294967296 ids per second\n",
    "rocketmq": "preset=rocketmq: text of 32 hex characters (an IPv4 host) or 56 (IPv6), RocketMQ's UNIQ_KEY\n\n"
    "  bytes  0..3   ip           the host's IPv4 address (bytes 0..15 for IPv6; the rest move up)\n"
    "  bytes  4..5   pid          low 16 bits of the process id\n"
    "  bytes  6..9   loader_hash  class-loader hash (random per generator)\n"
    "  bytes 10..13  time         ms since the 1st of the month 00:00 in tz (starts again each month)\n"
    "  bytes 14..15  counter      +1 per id; at most 65536 ids per ms\n",
}


def decode_one(g: idgen.Generator, keys: dict[str, str], s: str, as_json: bool) -> str:
    """One input of decode: a text preset's id, a numeric id in its
    fixed-width text= form, or a number in decimal or 0x hex."""
    t = s.strip()
    if keys.get("preset") in _TEXT_PRESETS:
        return text_line(g.decode_text(t), as_json)
    form = _TEXT_FORMS.get(keys.get("text", "dec"))
    if form is not None and len(t) == form[1]:
        tp = g.decode_text(t)
        assert tp.id is not None
        return decode_line(g.decode(tp.id), as_json)
    return decode_line(g.decode(parse_id(s)), as_json)
