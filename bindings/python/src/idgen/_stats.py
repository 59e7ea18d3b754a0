"""Generator.stats(): the Stats of one generator and its LeaseState."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from . import _ffi
from ._errors import InternalError

_INT64_MIN = -(1 << 63)


class LeaseState(enum.IntEnum):
    """Where a generator's lease stands (the C ``IDGEN_LEASE_*``)."""

    NONE = 0
    """No lease: a fixed worker, a text preset, ..."""
    HELD = 1
    """Held, the last renewal acknowledged."""
    RIDING = 2
    """The store does not answer: issuing up to the fence."""
    LOST = 3
    """Past the fence or taken away: WorkerError until leased again."""


@dataclass(frozen=True)
class Stats:
    """What a generator has done and where its lease stands, read at once
    (the C ``idgen_stats``; the library only ever appends fields, so use
    them by name, not by position).

    Fields as in C, -1 where C says -1: ``datacenter`` and ``worker`` when
    the layout has none, ``fence_unix_ms`` and ``renewed_unix_ms`` without
    a lease or a renewal. Two differ: ``skew_ms`` is None while the store's
    clock is unknown (C's INT64_MIN; any integer is a possible skew) and
    ``segment_left`` is None but for segment generators (C's -1).

    ``issued`` counts the ids handed out: with ``runs=N``, ids of a run
    that went stale unused are not counted (in the library or here).
    """

    issued: int
    """Ids (numbers or text) handed out."""
    tick_waits: int
    """Calls that waited for the next tick: a tick's sequence was used up."""
    clock_backs: int
    """Steps back of the clock handled (waited out, tolerated, counted, switched)."""
    drift_ms: int
    """How far the newest id's time runs ahead of the clock (borrowing), else 0."""
    lease_state: LeaseState
    datacenter: int
    """The pair held now; -1 if none."""
    worker: int
    fence_unix_ms: int
    """The highest time it may issue, ms since 1970; -1 without a lease."""
    renewed_unix_ms: int
    """The last acknowledged renewal, ms since 1970; -1 if none."""
    renewals: int
    """Acknowledged renewals."""
    renewal_failures: int
    leases_taken: int
    """1 at open with a lease, +1 for each re-lease or switch; 0 without one."""
    skew_ms: Optional[int]
    """This host's clock minus the store's (an estimate); None if unknown."""
    segment_left: Optional[int]
    """Segment generators: values left in hand (current + prefetched); else None."""


def _stats(s: _ffi.Stats) -> Stats:
    try:
        state = LeaseState(s.lease_state)
    except ValueError:
        raise InternalError(f"unknown lease state {s.lease_state} from the library", _ffi.EINTERNAL) from None
    return Stats(
        issued=s.issued,
        tick_waits=s.tick_waits,
        clock_backs=s.clock_backs,
        drift_ms=s.drift_ms,
        lease_state=state,
        datacenter=s.datacenter,
        worker=s.worker,
        fence_unix_ms=s.fence_unix_ms,
        renewed_unix_ms=s.renewed_unix_ms,
        renewals=s.renewals,
        renewal_failures=s.renewal_failures,
        leases_taken=s.leases_taken,
        skew_ms=None if s.skew_ms == _INT64_MIN else s.skew_ms,
        segment_left=None if s.segment_left == -1 else s.segment_left,
    )
