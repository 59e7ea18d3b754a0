"""runs=N across threads: many threads on one generator mixing next_id,
next_ids, next_ids_into and next_text, each call recorded as (start, end,
smallest id, largest id) on the monotonic clock. The promise: if call A
ended before call B began, every id of A is smaller than every id of B
(and ids are unique). Also run with a 1 µs switch interval, so that the
GIL changes hands inside next_id's few bytecodes (between the freshness
check and the pop, between a drop's steps).

IDGEN_ORDER_CALLS sets the number of calls per run (default 500,000)."""

from __future__ import annotations

import os
import sys
import threading
from array import array
from collections.abc import Iterator
from time import monotonic_ns

import pytest

import idgen

CONFIG = "layout=time:41,seq:22 worker=0 runs=1024"
THREADS = 8
CALLS = int(os.environ.get("IDGEN_ORDER_CALLS", "500000"))

# One call: (start ns, end ns, smallest id, largest id).
Call = tuple[int, int, int, int]


class Record:
    """One thread's calls, column by column (arrays: cheap to append)."""

    def __init__(self) -> None:
        self.start, self.end, self.lo, self.hi = array("q"), array("q"), array("q"), array("q")
        self.count = 0  # ids handed out

    def calls(self) -> Iterator[Call]:
        return zip(self.start, self.end, self.lo, self.hi)


def _issue(g: idgen.Generator, n: int, seed: int, rec: Record) -> None:
    """n calls of a seeded mix: 96% next_id, 2% next_ids, 1% next_ids_into,
    1% next_text (the batches and text drop the run the binding holds)."""
    buf = array("q", bytes(8 * 3))
    r = seed
    for _ in range(n):
        r = (r * 1103515245 + 12345) & 0x7FFFFFFF
        k = r % 100
        if k < 96:
            s = monotonic_ns()
            lo = hi = g.next_id()
            e = monotonic_ns()
        elif k < 98:
            s = monotonic_ns()
            ids = g.next_ids(1 + r % 4)
            e = monotonic_ns()
            lo, hi = ids[0], ids[-1]
        elif k < 99:
            s = monotonic_ns()
            g.next_ids_into(buf)
            e = monotonic_ns()
            lo, hi = buf[0], buf[-1]
        else:
            s = monotonic_ns()
            lo = hi = int(g.next_text())
            e = monotonic_ns()
        rec.start.append(s)
        rec.end.append(e)
        rec.lo.append(lo)
        rec.hi.append(hi)
        rec.count += 1 if k < 96 or k >= 99 else 1 + r % 4 if k < 98 else len(buf)


def violations(calls: list[Call]) -> list[tuple[Call, Call]]:
    """Pairs (A, B) where A ended before B began but B has an id at or
    below one of A's: calls sorted by end, a running maximum of the ids of
    the calls that ended before each start. O(n log n)."""
    by_end = sorted(calls, key=lambda c: c[1])
    found: list[tuple[Call, Call]] = []
    j, top, top_call = 0, -1, None
    for c in sorted(calls, key=lambda c: c[0]):
        while j < len(by_end) and by_end[j][1] < c[0]:
            if by_end[j][3] > top:
                top, top_call = by_end[j][3], by_end[j]
            j += 1
        if c[2] <= top and top_call is not None:
            found.append((top_call, c))
    return found


def test_the_check_finds_a_call_out_of_order() -> None:
    ok: list[Call] = [(0, 10, 5, 5), (5, 20, 3, 3), (21, 30, 6, 9)]  # overlapping calls may go either way
    assert violations(ok) == []
    late: Call = (31, 40, 9, 9)  # began after (21, 30) ended, yet not above its 9
    assert violations(ok + [late]) == [((21, 30, 6, 9), late)]


def _run(switch_interval: float) -> list[Call]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(switch_interval)
    try:
        with idgen.Generator(CONFIG) as g:
            assert type(g).__name__ == "_RunGenerator", "served from runs"
            records = [Record() for _ in range(THREADS)]
            threads = [
                threading.Thread(target=_issue, args=(g, CALLS // THREADS, i + 1, rec))
                for i, rec in enumerate(records)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    finally:
        sys.setswitchinterval(old)
    return [c for rec in records for c in rec.calls()]


@pytest.mark.parametrize("switch_interval", [0.005, 1e-6], ids=["default-switch", "switch-every-1us"])
def test_a_call_that_began_after_another_ended_gets_larger_ids(switch_interval: float) -> None:
    calls = _run(switch_interval)
    assert len(calls) == CALLS // THREADS * THREADS
    bad = violations(calls)
    assert not bad, f"{len(bad)} calls out of order, e.g. {bad[:3]}"
    singles = [lo for _, _, lo, hi in calls if lo == hi]
    assert len(set(singles)) == len(singles), "unique"


def test_stats_issued_never_goes_down_while_threads_issue() -> None:
    with idgen.Generator(CONFIG) as g:
        stop = threading.Event()
        dropped: list[tuple[int, int]] = []

        def read() -> None:
            last = 0
            while not stop.is_set():
                n = g.stats().issued
                if n < last:
                    dropped.append((last, n))
                last = n

        reader = threading.Thread(target=read)
        reader.start()
        records = [Record() for _ in range(4)]
        threads = [threading.Thread(target=_issue, args=(g, 50_000, i + 1, rec)) for i, rec in enumerate(records)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stop.set()
        reader.join()
        handed = sum(rec.count for rec in records)
        issued = g.stats().issued
    assert not dropped, f"issued went down {len(dropped)} times, e.g. {dropped[:3]}"
    assert issued <= handed, "never more than handed out"
