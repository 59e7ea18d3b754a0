"""preset=uuidv7 and preset=ulid: Generator.next_uuid, next_text and
decode_text, against Python's uuid module and the uuid6 and uuid-utils
packages."""

from __future__ import annotations

import os
import re
import threading
import time
import uuid

import pytest
import uuid6
import uuid_utils

import idgen

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ULID_RE = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")
RFC_EXAMPLE = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"  # RFC 9562 A.6: 2022-02-22T19:22:22Z


def _ulid_int(s: str) -> int:
    v = 0
    for c in s.upper():
        v = v << 5 | CROCKFORD.index(c)
    return v


def test_next_uuid_is_a_version_7_uuid_of_now() -> None:
    with idgen.Generator("preset=uuidv7") as g:
        assert g.config == "preset=uuidv7"
        before = time.time_ns() // 1_000_000
        u = g.next_uuid()
        after = time.time_ns() // 1_000_000
        assert isinstance(u, uuid.UUID)
        assert u.version == 7 and u.variant == uuid.RFC_4122
        assert str(u) == str(uuid.UUID(str(u))) and str(u) == str(u).lower()
        ms = g.decode_text(str(u)).unix_ms
        assert ms is not None and before - 1 <= ms <= after + 1
        assert u.int >> 80 == ms
        t = g.next_text()
        assert t > str(u) and uuid.UUID(t).version == 7


def test_peers_read_idgen_uuids_and_idgen_reads_theirs() -> None:
    with idgen.Generator("preset=uuidv7") as g:
        for _ in range(2000):
            s = g.next_text()
            p = g.decode_text(s)
            assert uuid6.UUID(s).time == p.unix_ms, s  # uuid6's reading of a v7's time
            assert uuid_utils.UUID(s).timestamp == p.unix_ms, s
            assert uuid_utils.UUID(s).version == 7
        for _ in range(500):
            theirs = [(str(u), u.int) for u in (uuid6.uuid7(), uuid_utils.uuid7())]
            for text, value in theirs:
                for s in (text, text.upper()):
                    assert g.decode_text(s).unix_ms == value >> 80, s


def test_decode_text_reads_the_rfc_example() -> None:
    with idgen.Generator("preset=uuidv7") as g:
        p = g.decode_text(RFC_EXAMPLE)
        assert p.unix_ms == 1645557742000
        assert p.datetime is not None and p.datetime.isoformat() == "2022-02-22T19:22:22+00:00"
        assert (p.id, p.sequence, p.pid, p.loader_hash, p.ip, p.mac) == (None,) * 6


@pytest.mark.parametrize("bad", [
    str(uuid.uuid4()),  # version 4
    str(uuid.uuid1()),  # version 1
    "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f",  # Microsoft's variant
    "017f22e279b07cc398c4dc0c0c07398f",  # no hyphens
    "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}",
    "urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
    " 017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
    "017f22e2-79b0-7cc3-98c4-dc0c0c07398g",
    "",
])
def test_decode_text_refuses_what_is_not_a_uuidv7(bad: str) -> None:
    with idgen.Generator("preset=uuidv7") as g:
        with pytest.raises(idgen.InvalidIdError) as e:
            g.decode_text(bad)
        assert e.value.code == -1 and isinstance(e.value, ValueError)


def test_ulid_ids_and_the_spec_examples() -> None:
    with idgen.Generator("preset=ulid") as g:
        a, b = g.next_text(), g.next_text()
        assert ULID_RE.match(a) and ULID_RE.match(b) and b > a
        assert g.decode_text("01ARZ3NDEKTSV4RRFFQ69G5FAV").unix_ms == 1469922850259
        assert g.decode_text("01arz3ndektsv4rrffq69g5fav").unix_ms == 1469922850259
        assert _ulid_int(b) >> 80 == g.decode_text(b).unix_ms
        for bad in ("01ARZ3NDEKTSV4RRFFQ69G5FAI", "01ARZ3NDEKTSV4RRFFQ69G5FAL", "01ARZ3NDEKTSV4RRFFQ69G5FAO",
                    "01ARZ3NDEKTSV4RRFFQ69G5FAU", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FA"):
            with pytest.raises(idgen.InvalidIdError):
                g.decode_text(bad)


def test_next_uuid_on_another_preset_refuses_and_consumes_nothing() -> None:
    with idgen.Generator("preset=ulid") as g:
        for _ in range(100):  # until both ids fall in one millisecond
            a = g.next_text()
            with pytest.raises(idgen.ConfigError, match="only preset=uuidv7") as e:
                g.next_uuid()
            assert e.value.code == -1 and isinstance(e.value, ValueError)
            b = g.next_text()
            if _ulid_int(a) >> 80 == _ulid_int(b) >> 80:
                assert _ulid_int(b) == _ulid_int(a) + 1, "next_uuid consumed a ULID"
                break
        else:
            pytest.fail("no two ULIDs in one millisecond")
    with idgen.Generator("preset=snowflake worker=1") as s:
        with pytest.raises(idgen.ConfigError, match="next_text"):
            s.next_uuid()


@pytest.mark.parametrize("preset", ["uuidv7", "ulid", "rocketmq ip=10.1.2.3"])
def test_numeric_calls_name_this_bindings_methods(preset: str) -> None:
    with idgen.Generator("preset=" + preset) as g:
        for call in (g.next_id, lambda: g.next_ids(2), lambda: g.decode(1)):
            with pytest.raises(idgen.IdgenError) as e:
                call()
            assert e.value.code == -1
            assert "next_text()" in str(e.value) and "decode_text()" in str(e.value), str(e.value)
            assert "idgen_next_text" not in str(e.value)


def test_threads_get_distinct_increasing_uuids() -> None:
    with idgen.Generator("preset=uuidv7") as g:
        out: list[list[uuid.UUID]] = [[] for _ in range(8)]

        def work(k: int) -> None:
            out[k] = [g.next_uuid() for _ in range(25_000)]

        ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        every = [u for ids in out for u in ids]
        assert len(set(every)) == len(every) == 200_000
        for ids in out:
            assert all(a < b and str(a) < str(b) for a, b in zip(ids, ids[1:]))
        # Text order is byte order (PostgreSQL's uuid ORDER BY): sorting
        # either way gives the same list.
        assert sorted(every, key=lambda u: u.bytes) == sorted(every, key=str)


def test_forked_child_gets_forked_error() -> None:
    g = idgen.Generator("preset=uuidv7")
    before = g.next_uuid()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            g.next_uuid()
        except idgen.ForkedError:
            code = 0
        except BaseException:
            code = 2
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert g.next_uuid() > before, "the parent goes on"
    g.close()


def test_next_uuid_and_next_text_share_one_order() -> None:
    # next_uuid takes the UUID's bytes (idgen_next_uuids), next_text its
    # text (idgen_next_text): one generator's sequence either way.
    with idgen.Generator("preset=uuidv7") as g:
        got = [g.next_uuid() if i % 3 else uuid.UUID(g.next_text()) for i in range(3000)]
        assert all(a < b for a, b in zip(got, got[1:]))
        assert all(u.version == 7 and u.variant == uuid.RFC_4122 for u in got)


def test_next_uuid_after_close_raises_closed() -> None:
    g = idgen.Generator("preset=uuidv7")
    g.next_uuid()
    g.close()
    with pytest.raises(idgen.ClosedError):
        g.next_uuid()
