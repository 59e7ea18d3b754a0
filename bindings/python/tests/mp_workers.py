"""Functions run in multiprocessing children (importable by spawn)."""

from __future__ import annotations

from array import array
from typing import Any

import idgen


def make_ids(config: str, n: int) -> bytes:
    out = array("q", bytes(8 * n))
    with idgen.Generator(config) as g:
        half = n // 2
        for i in range(half):
            out[i] = g.next_id()
        g.next_ids_into(memoryview(out)[half:])
    return out.tobytes()


def try_next(_: int) -> str:
    try:
        idgen.next_id()
        return "ok"
    except idgen.ForkedError as e:
        return "forked: " + str(e)


def lease_worker(config: str, n: int, barrier: Any, queue: Any) -> None:
    """Holds a lease while the others hold theirs, then makes n ids."""
    with idgen.Generator(config) as g:
        barrier.wait(timeout=60)
        out = array("q", bytes(8 * n))
        g.next_ids_into(out)
        queue.put(out.tobytes())
        barrier.wait(timeout=60)
