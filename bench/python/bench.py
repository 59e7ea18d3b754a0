"""Python benchmarks of the idgen package (run by make bench against the
bench build of libidgen.so, which adds idgen_bench_noop: a bare call into
Go). Every figure is the median of ROUNDS runs; ratios compare figures
taken in this same run."""

from __future__ import annotations

import ctypes
import functools
import statistics
import threading
import time
import uuid
from array import array
from typing import Callable, Sequence

import uuid6

import idgen
from idgen import _ffi

ROUNDS = 7


def per_call(fns: list[Callable[[], object]], n: int) -> list[float]:
    """ns per call of each fn, median of ROUNDS rounds of n calls; the
    functions take turns within each round, so noise hits them alike."""
    runs: list[list[float]] = [[] for _ in fns]
    for _ in range(ROUNDS):
        for k, fn in enumerate(fns):
            t = time.perf_counter_ns()
            for _ in range(n):
                fn()
            runs[k].append((time.perf_counter_ns() - t) / n)
    return [statistics.median(r) for r in runs]


class PySnowflake:
    """A pure-Python Snowflake (41/5/5/12) with a lock, as many projects write it."""

    def __init__(self, worker: int) -> None:
        self.lock = threading.Lock()
        self.last = -1
        self.seq = 0
        self.worker = worker

    def next_id(self) -> int:
        with self.lock:
            now = time.time_ns() // 1_000_000
            if now == self.last:
                self.seq = (self.seq + 1) & 4095
                if self.seq == 0:
                    while now <= self.last:
                        now = time.time_ns() // 1_000_000
            else:
                self.seq = 0
            self.last = now
            return (now - 1288834974657) << 22 | self.worker << 12 | self.seq


def utilisation(g: idgen.Generator, secs: float, burst: Callable[[], Sequence[int]]) -> float:
    """Share of the 4096-per-ms ceiling used over secs by repeated burst()
    calls, each returning the ids it made."""
    ids = burst()
    first, last, n = ids[0], ids[-1], len(ids)
    t = time.perf_counter()
    while time.perf_counter() - t < secs:
        ids = burst()
        last = ids[-1]
        n += len(ids)
    ticks = g.decode(last).time - g.decode(first).time + 1
    return n / (ticks * 4096)


def _v(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    lib = _ffi.lib()
    noop = lib.quick.idgen_bench_noop
    noop.restype = ctypes.c_int
    noop.argtypes = []
    noop1 = lib.quick.idgen_bench_noop1
    noop1.restype = ctypes.c_int64
    noop1.argtypes = None  # exactly as idgen_next is declared
    unc = idgen.Generator("layout=time:41,seq:22 worker=0 runs=1024")
    plain = idgen.Generator("layout=time:41,seq:22 worker=0")  # no runs: one call per id
    sf = idgen.Generator("preset=snowflake worker=0")
    sfr = idgen.Generator("preset=snowflake worker=0 runs=1024")
    py = PySnowflake(1)
    idgen.configure("layout=time:41,seq:22 worker=0")
    arg = unc._h  # the handle exactly as next_id passes it

    bare_call = functools.partial(noop1, arg)  # C-level: no Python frame

    def wrapped_call() -> object:  # the same call inside a def, like next_id
        return noop1(arg)

    n = 300_000
    bare, bare1, wrapped, nxt, one_call, mod, pure = per_call(
        [noop, bare_call, wrapped_call, unc.next_id, plain.next_id, idgen.next_id, py.next_id], n)
    (uu,) = per_call([uuid.uuid4], 50_000)

    # Text ids beside numbers: rocketmq's next_text against snowflake
    # worker=1's next_id, and against its own bare ctypes call (a reused
    # buffer, no str made).
    rq = idgen.Generator("preset=rocketmq")
    sf1 = idgen.Generator("preset=snowflake worker=1")
    text_buf = ctypes.create_string_buffer(64)
    bare_text = functools.partial(lib.quick.idgen_next_text, rq._h, text_buf, 64)
    sf1_next, text, text_bare = per_call([sf1.next_id, rq.next_text, bare_text], n)

    # UUIDv7 and ULID beside the stdlib's uuid4 and uuid6's uuid7, in turns.
    uv, ul = idgen.Generator("preset=uuidv7"), idgen.Generator("preset=ulid")
    v7_uuid, v7_text, ulid_text, std4, peer7 = per_call(
        [uv.next_uuid, uv.next_text, ul.next_text, uuid.uuid4, uuid6.uuid7], 50_000)

    big = array("q", bytes(8 * 65536))
    into = statistics.median(
        [(lambda t: (unc.next_ids_into(big), (time.perf_counter_ns() - t) / len(big))[1])(time.perf_counter_ns()) for _ in range(ROUNDS * 5)]
    )
    lst = statistics.median(
        [(lambda t: (unc.next_ids(65536), (time.perf_counter_ns() - t) / 65536)[1])(time.perf_counter_ns()) for _ in range(ROUNDS * 5)]
    )
    buf = array("q", bytes(8 * 4096))

    def into_buf() -> Sequence[int]:
        sf.next_ids_into(buf)
        return buf

    one, one_plain = sfr.next_id, sf.next_id
    util = statistics.median([utilisation(sf, 0.5, into_buf) for _ in range(5)])
    util1 = statistics.median([utilisation(sfr, 0.5, lambda: [one() for _ in range(1000)]) for _ in range(5)])
    util1p = statistics.median([utilisation(sf, 0.5, lambda: [one_plain() for _ in range(1000)]) for _ in range(5)])

    print(f"Python {'.'.join(map(str, __import__('sys').version_info[:3]))} (medians of {ROUNDS} rounds)")
    print(f"  {'bare ctypes call into Go, no argument (noop)':<56} {bare:9.1f} ns")
    print(f"  {'bare ctypes call into Go, next_id argument (noop1)':<56} {bare1:9.1f} ns")
    print(f"  {'the same call inside a def':<56} {wrapped:9.1f} ns")
    print(f"  {'Generator.next_id(), layout=time:41,seq:22 runs=1024':<56} {nxt:9.1f} ns   {nxt / bare1:.2f}x bare call with its argument, {nxt / bare:.2f}x without (target <= 1.3x) {_v(nxt / bare1 <= 1.3)}")
    print(f"  {'Generator.next_id(), the same without runs':<56} {one_call:9.1f} ns   {one_call / bare:.2f}x bare call without argument; {one_call / nxt:.2f}x next_id with runs")
    print(f"  {'idgen.next_id() (default generator, no argument)':<56} {mod:9.1f} ns   {mod / bare:.2f}x bare call without argument")
    print(f"  {'pure-Python locked Snowflake':<56} {pure:9.1f} ns   next_id is {pure / nxt:.1f}x faster (target >= 3x) {_v(pure / nxt >= 3)}; without runs {pure / one_call:.1f}x")
    print(f"  {'uuid.uuid4()':<56} {uu:9.1f} ns")
    print(f"  {'Generator.next_id(), preset=snowflake worker=1':<56} {sf1_next:9.1f} ns   (its ceiling, 4096 ids/ms, is {1e6 / 4096:.1f} ns/id)")
    print(f"  {'bare ctypes call idgen_next_text, preset=rocketmq':<56} {text_bare:9.1f} ns")
    print(f"  {'Generator.next_text(), preset=rocketmq':<56} {text:9.1f} ns   {text / nxt:.2f}x next_id (uncapped), {text / text_bare:.2f}x its bare call")
    print(f"  {'Generator.next_uuid(), preset=uuidv7 (a uuid.UUID)':<56} {v7_uuid:9.1f} ns   {v7_uuid / std4:.2f}x uuid.uuid4(), {v7_uuid / peer7:.2f}x uuid6.uuid7()")
    print(f"  {'Generator.next_text(), preset=uuidv7':<56} {v7_text:9.1f} ns")
    print(f"  {'Generator.next_text(), preset=ulid':<56} {ulid_text:9.1f} ns")
    print(f"  {'uuid.uuid4() / uuid6.uuid7() (the same rounds)':<56} {std4:9.1f} ns / {peer7:.1f} ns")
    print(f"  {'next_ids_into(array q x65536), uncapped':<56} {into:9.2f} ns/id (target <= 3) {_v(into <= 3)}")
    print(f"  {'next_ids(65536) -> list, uncapped':<56} {lst:9.2f} ns/id (target <= 40) {_v(lst <= 40)}")
    print(f"  {'next_ids_into x4096, preset=snowflake, sustained':<56} {util * 100:9.2f} % of 4096 ids/ms (target >= 99%) {_v(util >= 0.99)}")
    print(f"  {'next_id(), preset=snowflake runs=1024, sustained':<56} {util1 * 100:9.2f} % of 4096 ids/ms")
    print(f"  {'next_id(), preset=snowflake (no runs), sustained':<56} {util1p * 100:9.2f} % of 4096 ids/ms")
    cached, direct = baidu_cached(lib)
    print(f"  {'baidu-cached next_ids_into(array q x16384), filled ring':<56} {cached:9.2f} ns/id   {cached / direct:.2f}x the C call alone ({direct:.2f} ns/id) (target <= 2x) {_v(cached / direct <= 2)}")
    unc.close()
    plain.close()
    sf.close()
    sfr.close()
    rq.close()
    sf1.close()


def baidu_cached(lib: _ffi.Library) -> tuple[float, float]:
    """ns per id of 16384 ids taken from a filled baidu-cached ring in one
    call (after a warm-up batch; too few to wake its filler, so the take
    path alone): through next_ids_into, and through one bare ctypes call of
    idgen_next_batch (C's own figure plus one call). Each round opens new
    generators (workers of their own), lets the rings fill, and measures
    the two in turn, the order alternating by round."""
    cfg = "preset=baidu-cached layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00 worker="
    warm = array("q", bytes(8 * 4096))
    buf = array("q", bytes(8 * 16384))
    addr, _ = buf.buffer_info()
    ptr = ctypes.cast(addr, ctypes.POINTER(ctypes.c_int64))
    api: list[float] = []
    bare: list[float] = []
    for r in range(2 * ROUNDS + 1):
        a, b = idgen.Generator(cfg + str(1000 + r)), idgen.Generator(cfg + str(2000 + r))
        time.sleep(0.1)  # the rings fill
        a.next_ids_into(warm)
        b.next_ids_into(warm)

        def via_api() -> None:
            t = time.perf_counter_ns()
            a.next_ids_into(buf)
            api.append((time.perf_counter_ns() - t) / len(buf))

        def via_c() -> None:
            t = time.perf_counter_ns()
            if lib.quick.idgen_next_batch(b._h, ptr, len(buf)) != 0:
                raise RuntimeError("idgen_next_batch failed on baidu-cached")
            bare.append((time.perf_counter_ns() - t) / len(buf))

        for f in (via_api, via_c) if r % 2 else (via_c, via_api):
            f()
        a.close()
        b.close()
    return statistics.median(api), statistics.median(bare)


if __name__ == "__main__":
    main()
