"""Generator.next_id's runs (runs=N): fast, but never out of order, never
stale, never handed out after close or in a forked child; and without
runs= none at all, as in every other language.

Some tests look at the private run (g._ids) only to make sure the
situation they test really arose; what they assert is public behaviour."""

from __future__ import annotations

import os
import threading
import time
from array import array

import pytest

import idgen

UNCAPPED = "layout=time:41,seq:22 runs=1024"


def _prime(g: idgen.Generator) -> list[int]:
    """Calls next_id until the generator holds a reserved run."""
    out = []
    for _ in range(100_000):
        out.append(g.next_id())
        if len(g._ids) > 10:
            return out
    pytest.fail("next_id never reserved a run")


def test_runs_are_reserved_when_called_often_and_stay_in_order() -> None:
    with idgen.Generator(UNCAPPED) as g:
        ids = [g.next_id() for _ in range(50_000)]
        assert type(g).__name__ == "_RunGenerator" and g._run is not None, "served from runs"
    assert all(a < b for a, b in zip(ids, ids[1:]))
    # Runs are reserved in one step each: most ids follow the one before
    # by exactly 1 (a stale run, or a new tick, leaves a gap).
    assert sum(b == a + 1 for a, b in zip(ids, ids[1:])) > 0.9 * len(ids)


def test_without_runs_every_next_id_is_one_call_and_leaves_no_gap() -> None:
    # The same string means the same generator in every language: without
    # runs=, Python's next_id makes one idgen_next per id, as C's does, and
    # skips no sequence number within a tick.
    with idgen.Generator("layout=time:41,seq:22") as g:
        ids = [g.next_id() for _ in range(20_000)]
        assert type(g) is idgen.Generator and not g._ids
        issued = g.stats().issued
    assert issued == len(ids)
    assert all(a < b for a, b in zip(ids, ids[1:]))
    seq = (1 << 22) - 1
    for a, b in zip(ids, ids[1:]):
        if b >> 22 == a >> 22:  # same tick
            assert b == a + 1
        else:
            assert b & seq == 0


def test_an_id_is_not_handed_out_long_after_it_was_reserved() -> None:
    with idgen.Generator(UNCAPPED) as g:
        before = _prime(g)
        time.sleep(0.05)  # the run is now 50 ms old
        now_ms = time.time_ns() // 1_000_000
        v = g.next_id()
        assert v > before[-1]
        # The core's cached clock may lag 1-2 ms; a run id would be ~50 ms old.
        assert g.decode(v).unix_ms >= now_ms - 10


def test_batches_come_after_every_reserved_id_in_one_thread() -> None:
    with idgen.Generator(UNCAPPED) as g:
        seen = _prime(g)
        buf = array("q", bytes(8 * 5))
        for i in range(3000):
            if i % 7 == 0:
                seen.extend(g.next_ids(3))
            elif i % 11 == 0:
                g.next_ids_into(buf)
                seen.extend(buf)
            else:
                seen.append(g.next_id())
    assert all(a < b for a, b in zip(seen, seen[1:]))


def test_a_batch_in_another_thread_orders_later_next_ids() -> None:
    with idgen.Generator(UNCAPPED) as g:
        _prime(g)
        assert g._ids, "a run is reserved"
        got: list[int] = []
        t = threading.Thread(target=lambda: got.extend(g.next_ids(5)))
        t.start()
        t.join()
        assert g.next_id() > max(got)


def test_close_drops_the_reserved_run() -> None:
    g = idgen.Generator(UNCAPPED)
    _prime(g)
    assert g._ids
    g.close()
    with pytest.raises(idgen.ClosedError):
        g.next_id()


def test_forked_child_does_not_use_the_parents_run_even_if_the_lock_was_held() -> None:
    g = idgen.Generator(UNCAPPED)
    _prime(g)
    assert g._ids
    r, w = os.pipe()
    with g._lock:  # another thread inside next_id at the moment of the fork
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                g.next_id()
                os.write(w, b"id")
            except idgen.ForkedError:
                os.write(w, b"forked")
            except BaseException as e:  # noqa: BLE001 - report anything
                os.write(w, repr(e).encode()[:200])
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.005)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung on the parent's lock")
    assert os.read(r, 256) == b"forked"
    os.close(r)
    assert g.next_id() > 0
    g.close()


@pytest.mark.parametrize("config", ["preset=zxid", "preset=zk-session worker=1", "preset=sonyflake worker=1"])
def test_no_runs_for_counters_and_long_ticks(config: str) -> None:
    with idgen.Generator(config) as g:
        ids = [g.next_id() for _ in range(3000)]
        time.sleep(0.01)
        ids.append(g.next_id())
        assert not g._ids and type(g) is idgen.Generator
    if "sonyflake" not in config:  # dense counters: no id skipped
        assert all(b == a + 1 for a, b in zip(ids, ids[1:]))
    else:
        assert all(a < b for a, b in zip(ids, ids[1:]))


def test_a_run_takes_at_most_a_quarter_of_a_tick() -> None:
    with idgen.Generator("layout=time:55,seq:8 runs=64") as g:  # 256 ids per ms
        longest = 0
        ids = []
        for _ in range(20_000):
            ids.append(g.next_id())
            longest = max(longest, len(g._ids) + 1)
        assert 1 < longest <= 64
    assert all(a < b for a, b in zip(ids, ids[1:]))
    with pytest.raises(idgen.ConfigError, match="runs: a run may hold at most a quarter"):
        idgen.Generator("layout=time:55,seq:8 runs=65")



# What the binding asks the library at open (idgen_get_info, never its
# config string): the tick in ms, which decides whether next releases the
# GIL, and the longest run, which decides whether it hands out runs.
PROBES = [
    ("layout=time:41,seq:22 worker=0 runs=1024", 1, True),
    ("layout=time:41,seq:22 worker=0", 1, False),
    ("preset=snowflake worker=0 runs=1024", 1, True),
    ("preset=snowflake worker=0", 1, False),
    ("preset=js53 worker=1 runs=32", 1, True),
    ("preset=leaf worker=1 on_exhausted=borrow runs=512", 1, True),
    ("layout=time:41,backwards:2,worker:8,seq:12 worker=0 runs=8", 1, True),
    ("preset=sonyflake worker=1", 10, False),
    ("preset=baidu worker=1", 1000, False),
    ("layout=time:50,seq:13 unit=24h epoch=0 worker=0", 86_400_000, False),
    ("preset=zk-session worker=1", 1, False),
    ("preset=zxid", 0, False),
    ("preset=snowflake worker=1 text=base62 runs=2", 1, True),
]


@pytest.mark.parametrize("config,tick,runs", PROBES, ids=[p[0] for p in PROBES])
def test_the_library_tells_the_tick_and_whether_there_are_runs(config: str, tick: int, runs: bool) -> None:
    from idgen import _ffi, _generator

    with idgen.Generator(config) as g:
        assert _generator._info(g._h).tick_ns == tick * 1_000_000
        lib = _ffi.lib()
        assert g._next is (lib.waiting.idgen_next if tick > 1 else lib.quick.idgen_next)
        if tick == 1:  # (baidu's default 28-bit seconds ran out in 2024)
            g.next_id()
        assert (type(g).__name__ == "_RunGenerator") == runs


@pytest.mark.parametrize("config", ["preset=sonyflake worker=1 runs=8", "preset=zk-session worker=1 runs=8", "preset=baidu-cached worker=1 runs=8"])
def test_runs_are_refused_where_they_cannot_keep_their_promise(config: str) -> None:
    with pytest.raises(idgen.ConfigError, match="runs"):
        idgen.Generator(config)


def test_stats_count_the_ids_handed_out_not_the_runs_taken() -> None:
    with idgen.Generator(UNCAPPED) as g:
        handed = _prime(g)
        assert g._ids, "a run is held"
        assert g.stats().issued == len(handed)
        time.sleep(0.01)  # the held run goes stale
        handed.append(g.next_id())
        assert g.stats().issued == len(handed)
        handed.extend(g.next_ids(7))
        assert g.stats().issued == len(handed)
