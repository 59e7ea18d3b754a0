"""Text ids: Generator.next_text and decode_text on the text presets
(rocketmq, rocketmq-v1) and on numeric presets with text=."""

from __future__ import annotations

import ctypes
import datetime as dt
import ipaddress
import os
import re
import signal
import sys
import threading
import time
from typing import Any

import pytest

import idgen
from idgen import _ffi

ROCKETMQ = "preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC"
ROCKETMQ_V1 = "preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=70000"


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _month_start_ms(unix_ms: int) -> int:
    """00:00 UTC on the 1st of the month unix_ms falls in."""
    t = dt.datetime.fromtimestamp(unix_ms / 1000, dt.timezone.utc)
    return int(t.replace(day=1, hour=0, minute=0, second=0, microsecond=0).timestamp()) * 1000


def test_rocketmq_ids_carry_their_keys_and_decode_back() -> None:
    with idgen.Generator(ROCKETMQ) as g:
        before = _now_ms()
        texts = [g.next_text() for _ in range(3000)]
        after = _now_ms()
        parts = [g.decode_text(t) for t in texts]
    for t in texts:
        assert re.fullmatch(r"[0-9A-F]{32}", t), t
        assert t.startswith("0A010203" "1234" "12345678"), t  # ip, pid, loader hash
    for t, p in zip(texts, parts):
        assert p.ip == ipaddress.IPv4Address("10.1.2.3") and isinstance(p.ip, ipaddress.IPv4Address)
        assert (p.pid, p.loader_hash) == (4660, 305419896)
        assert p.id is None and p.mac is None
        assert p.unix_ms is not None and before - 1000 <= p.unix_ms <= after + 1000
        # tz=UTC: the time field is the ms since the 1st of this month, UTC.
        assert int(t[20:28], 16) == p.unix_ms - _month_start_ms(p.unix_ms)
        assert p.sequence == int(t[28:32], 16)
        assert p.datetime == dt.datetime.fromtimestamp(p.unix_ms / 1000, dt.timezone.utc)
        assert p.datetime is not None and p.datetime.utcoffset() == dt.timedelta(0)
    seqs = [p.sequence for p in parts]
    assert all(b == ((a or 0) + 1) % 65536 for a, b in zip(seqs, seqs[1:])), "the counter is +1 per id"
    assert len(set(texts)) == len(texts)


def test_rocketmq_ipv6_ids_are_56_characters() -> None:
    with idgen.Generator("preset=rocketmq ip=fd00::2 pid=7 loader_hash=1") as g:
        t = g.next_text()
        p = g.decode_text(t)
    assert len(t) == 56 and re.fullmatch(r"[0-9A-F]{56}", t), t
    assert t.startswith("FD000000000000000000000000000002" "0007" "00000001"), t
    assert p.ip == ipaddress.IPv6Address("fd00::2") and isinstance(p.ip, ipaddress.IPv6Address)
    assert (p.pid, p.loader_hash, p.mac, p.id) == (7, 1, None, None)


def test_rocketmq_v1_ids_carry_mac_and_the_low_pid_bits() -> None:
    with idgen.Generator(ROCKETMQ_V1) as g:
        before = _now_ms()
        texts = [g.next_text() for _ in range(100)]
        after = _now_ms()
        parts = [g.decode_text(t) for t in texts]
    for t, p in zip(texts, parts):
        assert len(t) == 34 and re.fullmatch(r"[0-9A-F]{34}", t), t
        assert t.startswith("01" "02FC00000001" "1170"), t  # version, mac, 70000 & 0xffff
        assert p.mac == "02:fc:00:00:00:01" and p.pid == 70000 & 0xFFFF == 4464
        assert p.ip is None and p.loader_hash is None and p.id is None
        assert p.unix_ms is not None and p.unix_ms % 1000 == 0, "the form keeps seconds"
        assert before - 1000 <= p.unix_ms <= after + 1000
        assert p.sequence == int(t[26:34], 16)
    seqs = [p.sequence for p in parts]
    assert all(b == ((a or 0) + 1) % (1 << 32) for a, b in zip(seqs, seqs[1:]))


def test_lower_case_hex_decodes_like_upper_case() -> None:
    for config in (ROCKETMQ, ROCKETMQ_V1, "preset=rocketmq ip=fd00::2"):
        with idgen.Generator(config) as g:
            t = g.next_text()
            assert g.decode_text(t.lower()) == g.decode_text(t)
            mixed = "".join(c.lower() if k % 2 else c for k, c in enumerate(t))
            assert g.decode_text(mixed) == g.decode_text(t)


def test_four_threads_make_200000_distinct_rocketmq_ids() -> None:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads inside next_text as often as possible
    try:
        with idgen.Generator(ROCKETMQ) as g:
            results: list[list[str]] = [[] for _ in range(4)]

            def work(k: int) -> None:
                out = results[k]
                for _ in range(50_000):
                    out.append(g.next_text())

            threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert len(g._texts) <= 4, "the buffer pool holds at most one buffer per concurrent caller"
    finally:
        sys.setswitchinterval(old)
    everything = [t for r in results for t in r]
    assert len(everything) == 200_000
    assert len(set(everything)) == 200_000
    assert all(len(t) == 32 and t.startswith("0A010203") for t in everything)


@pytest.mark.parametrize("form,base,width", [("base62", 62, 11), ("base36", 36, 13)])
def test_numeric_presets_write_their_text_form(form: str, base: int, width: int) -> None:
    with idgen.Generator(f"preset=snowflake worker=1 text={form}") as g:
        texts = [g.next_text() for _ in range(1000)]
        for t in texts[:50]:
            assert len(t) == width, t
            p = g.decode_text(t)
            assert p.id == idgen.parse(t, base)
            assert g.decode(p.id).worker == 1
            assert p.unix_ms == g.decode(p.id).unix_ms
            assert (p.pid, p.loader_hash, p.ip, p.mac) == (None, None, None, None)
    ids = [idgen.parse(t, base) for t in texts]
    assert all(a < b for a, b in zip(ids, ids[1:]))
    assert texts == sorted(texts), "fixed-width text sorts like the numbers"


@pytest.mark.parametrize("config", ["preset=snowflake worker=1 text=dec", "preset=snowflake worker=1"])
def test_dec_text_is_the_decimal_id(config: str) -> None:
    with idgen.Generator(config) as g:
        t = g.next_text()
        assert t == str(int(t)) and int(t) > 0
        assert g.decode_text(t).id == int(t)
        assert g.decode(int(t)).worker == 1


def test_next_text_and_next_id_share_one_increasing_sequence() -> None:
    with idgen.Generator("preset=snowflake worker=1 text=dec runs=1024") as g:
        handed: list[int] = []
        for _ in range(100_000):  # until next_id serves from a reserved run
            handed.append(g.next_id())
            if len(g._ids) > 10:
                break
        assert len(g._ids) > 10, "next_id never reserved a run"
        for _ in range(200):
            handed.append(int(g.next_text()))
            handed.append(g.next_id())
    assert all(a < b for a, b in zip(handed, handed[1:]))


def test_text_presets_refuse_numeric_calls() -> None:
    with idgen.Generator(ROCKETMQ) as g:
        with pytest.raises(idgen.ConfigError, match="next_text") as e:
            g.next_id()
        assert e.value.code == -1 and isinstance(e.value, ValueError)
        with pytest.raises(idgen.ConfigError):
            g.next_ids(3)
        assert len(g.next_text()) == 32, "the refusals consumed nothing and broke nothing"


@pytest.mark.parametrize("bad", [
    "",
    "xyz",
    "0A01020312341234567800000000000",  # 31 characters
    "0x010203123412345678000000000000",  # 32 with a 0x
    "0A010203 12341234567800000000000",
    "0A010203123412345678000000000000 ",
    "-A010203123412345678000000000000",
    "0A010203123412345678\x0000000000000",
    "\x00",
    "0A0102031234123456780000000000é0",
    "\ud800",
])
def test_decode_text_rejects_what_is_not_the_form(bad: str) -> None:
    with idgen.Generator(ROCKETMQ) as g:
        with pytest.raises(idgen.InvalidIdError) as e:
            g.decode_text(bad)
        assert e.value.code == -1 and isinstance(e.value, ValueError)
        assert g.decode_text(g.next_text()).pid == 4660, "the generator still works"


def test_decode_text_rejects_a_v1_version_other_than_01() -> None:
    with idgen.Generator(ROCKETMQ_V1) as g:
        t = g.next_text()
        with pytest.raises(idgen.InvalidIdError):
            g.decode_text("02" + t[2:])


@pytest.mark.parametrize("bad", [b"0A010203123412345678000000000000", 12, None])
def test_decode_text_takes_only_str(bad: Any) -> None:
    with idgen.Generator(ROCKETMQ) as g:
        with pytest.raises(TypeError, match="str"):
            g.decode_text(bad)


def test_closed_generator_raises_closed_error() -> None:
    g = idgen.Generator(ROCKETMQ)
    t = g.next_text()
    g.close()
    with pytest.raises(idgen.ClosedError) as e:
        g.next_text()
    assert e.value.code == -4
    with pytest.raises(idgen.ClosedError):
        g.decode_text(t)
    n = idgen.Generator("preset=snowflake worker=1 text=base62")
    n.next_text()
    n.close()
    with pytest.raises(idgen.ClosedError):
        n.next_text()


@pytest.mark.parametrize("config,key", [
    ("preset=snowflake worker=1 ip=10.1.2.3", "ip"),
    ("preset=leaf worker=1 pid=3", "pid"),
    ("preset=rocketmq text=base62", "text"),
    ("preset=rocketmq mac=02:fc:00:00:00:01", "mac"),
    ("preset=rocketmq-v1 loader_hash=1", "loader_hash"),
    ("preset=rocketmq-v1 tz=UTC", "tz"),
    ("preset=rocketmq ip=nope", "ip"),
    ("preset=snowflake worker=1 text=hex", "text"),
])
def test_keys_out_of_place_are_config_errors_naming_the_key(config: str, key: str) -> None:
    with pytest.raises(idgen.ConfigError, match=rf"\b{key}\b") as e:
        idgen.Generator(config)
    assert e.value.code == -1


def test_text_parts_struct_matches_header() -> None:
    # idgen_text_parts: five int64, an int32, 16 bytes, padded to 8.
    assert [f[0] for f in _ffi.TextParts._fields_] == [
        "id", "unix_ms", "sequence", "pid", "loader_hash", "addr_len", "addr"]
    assert _ffi.TextParts.addr_len.offset == 40 and _ffi.TextParts.addr.offset == 44
    assert ctypes.sizeof(_ffi.TextParts) == 64
    assert idgen.TextParts._fields == ("id", "unix_ms", "sequence", "pid", "loader_hash", "ip", "mac")


def test_forked_child_gets_forked_error_from_text_calls() -> None:
    g = idgen.Generator(ROCKETMQ)
    t = g.next_text()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        code = 0
        for call in (g.next_text, lambda: g.decode_text(t)):
            try:
                call()
                code = 10
            except idgen.ForkedError:
                pass
        os.write(w, b"done")
        os._exit(code)
    os.close(w)
    deadline = time.monotonic() + 5
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        time.sleep(0.005)
    assert os.read(r, 10) == b"done"
    os.close(r)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert g.decode_text(g.next_text()).pid == 4660, "the parent still works"
    g.close()


def test_text_max_is_the_capacity_the_longest_form_needs() -> None:
    # _ffi.TEXT_MAX mirrors IDGEN_TEXT_MAX: a rocketmq id of an IPv6 host
    # (56 characters) fits it and not one byte less.
    lib = _ffi.lib().quick
    with idgen.Generator("preset=rocketmq ip=fd00::2") as g:
        buf = ctypes.create_string_buffer(_ffi.TEXT_MAX)
        assert lib.idgen_next_text(g._h, buf, _ffi.TEXT_MAX) == 56 == len(buf.value)
        assert lib.idgen_next_text(g._h, buf, _ffi.TEXT_MAX - 1) == _ffi.ERANGE
        assert len(g.next_text()) == 56
