"""Which generators' next_id hands out runs of ids reserved ahead, and how
long a run may be and stay (see Generator.next_id): read once, at open,
from the generator's resolved configuration string."""

from __future__ import annotations

import re

_UNIT = re.compile(r"(?:^| )unit=(\d+)(ms|s)(?: |$)")
_SEQ = re.compile(r"(?:^| )layout=\S*?\bseq:(\d+)")

# An id of a run is handed out at most FRESH_NS after the run was reserved;
# a run holds at most MAX_RUN ids and at most a quarter of one tick's
# sequence.
FRESH_NS = 1_000_000
MAX_RUN = 1024


def tick_ms(config: str) -> int:
    """The tick of a resolved config in ms; 0 if it has none (zxid)."""
    m = _UNIT.search(config)
    if m is None:
        return 0
    return int(m.group(1)) * (1000 if m.group(2) == "s" else 1)


def run_limit(config: str, tick: int) -> int:
    """The longest run next_id may reserve for a generator of this
    (resolved) config and tick (ms): 1, no runs, unless it is a
    Snowflake-family scheme on a 1 ms tick. ZooKeeper session ids and
    zxids are dense counters a dropped run would leave holes in, and on a
    longer tick a run could wait for the next tick while its first ids grow
    old."""
    seq = _SEQ.search(config)
    if " on_exhausted=" not in config or tick != 1 or seq is None:
        return 1
    return max(1, min(MAX_RUN, (1 << int(seq.group(1))) >> 2))
