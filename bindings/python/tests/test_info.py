"""What the binding asks the library (idgen_get_info) instead of probing:
the kind, the tick, the text length, the longest run; and lease=off,
a configuration opened for decoding only."""

from __future__ import annotations

import importlib
import os
import tempfile

import pytest

import idgen
from idgen import _ffi, _generator

MS = 1_000_000

# config, kind, leased, tick_ns, text_len, longest_run
INFOS = [
    ("preset=snowflake worker=3", _ffi.KIND_NUMERIC, 0, MS, 0, 1),
    ("preset=snowflake worker=3 text=base36 runs=16", _ffi.KIND_NUMERIC, 0, MS, 13, 16),
    ("preset=sonyflake worker=1", _ffi.KIND_NUMERIC, 0, 10 * MS, 0, 1),
    ("preset=zxid worker=0", _ffi.KIND_NUMERIC, 0, 0, 0, 1),
    ("preset=uuidv7", _ffi.KIND_UUIDV7, 0, MS, 36, 1),
    ("preset=ulid", _ffi.KIND_ULID, 0, MS, 26, 1),
    ("preset=rocketmq ip=10.0.0.1", _ffi.KIND_ROCKETMQ, 0, MS, 32, 1),
    ("preset=rocketmq-v1", _ffi.KIND_ROCKETMQ, 0, 1000 * MS, 34, 1),
]


@pytest.mark.parametrize("config,kind,leased,tick_ns,text_len,longest", INFOS, ids=[i[0] for i in INFOS])
def test_info_says_what_the_generator_is(config: str, kind: int, leased: int, tick_ns: int, text_len: int, longest: int) -> None:
    with idgen.Generator(config) as g:
        info = _generator._info(g._h)
        got = (info.kind, info.leased, info.tick_ns, info.text_len, info.longest_run)
        assert got == (kind, leased, tick_ns, text_len, longest)
        lib = _ffi.lib()
        # Only a numeric layout's tick over 1 ms releases the GIL in next
        # and next_text (rocketmq-v1's 1 s tick does not: as before).
        slow = kind == _ffi.KIND_NUMERIC and tick_ns > MS
        assert g._next is (lib.waiting.idgen_next if slow else lib.quick.idgen_next)
        assert g._text_fn is (lib.waiting.idgen_next_text if slow else lib.quick.idgen_next_text)
        assert (type(g).__name__ == "_RunGenerator") == (longest > 1)
        if longest > 1:
            assert g._run is not None and len(g._run.ids) == longest
        assert g._uuid == (kind == _ffi.KIND_UUIDV7)


def test_leased_with_a_lease_not_with_a_fixed_worker() -> None:
    with tempfile.TemporaryDirectory() as d:
        with idgen.Generator(f"worker=lease lease_dir={d}") as g:
            assert _generator._info(g._h).leased == 1
        with idgen.Generator(f"preset=segment name=orders lease_dir={d}") as g:
            info = _generator._info(g._h)
            assert (info.kind, info.leased) == (_ffi.KIND_COUNTER, 1)
    with idgen.Generator("worker=5") as g:
        assert _generator._info(g._h).leased == 0


def test_the_probes_are_gone() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("idgen._tick")
    from idgen import _text

    assert not hasattr(_text, "makes_uuids")


def test_info_of_a_closed_generator_is_closed_error() -> None:
    g = idgen.Generator("worker=1")
    h = g._h
    g.close()
    with pytest.raises(idgen.ClosedError):
        _generator._info(h)


def test_lease_off_decodes_but_never_issues() -> None:
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as empty:
        with idgen.Generator(f"preset=leaf worker=lease lease_dir={d}") as real:
            id = real.next_id()
            want = real.decode(id)
        with idgen.Generator(f"preset=leaf worker=lease lease=off lease_dir={empty}") as g:
            for call in (g.next_id, lambda: g.next_ids(3), g.next_text):
                with pytest.raises(idgen.ConfigError, match="lease=off"):
                    call()
            assert g.decode(id) == want
            assert g.compose(unix_ms=want.unix_ms, worker=want.worker, sequence=want.sequence) == id
            assert _generator._info(g._h).leased == 0
            assert "lease=off" in g.config
        assert os.listdir(empty) == [], "lease=off took no lease"
