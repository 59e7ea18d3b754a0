"""Which generators' next_id hands out runs of ids reserved ahead, and how
long a run may be and stay (see Generator.next_id); and the tick that
decides whether next releases the GIL.

All of it is asked of the library once, at open, by composing and decoding
ids of the generator's own layout (idgen_compose, idgen_decode_with): the
binding never reads the configuration string.
"""

from __future__ import annotations

import ctypes

from . import _ffi

# An id of a run is handed out at most FRESH_NS after the run was reserved;
# a run holds at most MAX_RUN ids and at most a quarter of one tick's
# sequence.
FRESH_NS = 1_000_000
MAX_RUN = 1024


def _compose(h: _ffi.Handle, time: int = 0, datacenter: int = 0, worker: int = 0, sequence: int = 0) -> int:
    """The id of these raw fields in h's layout; -1 if they do not make one
    (a field the layout lacks, a value too wide, a text preset)."""
    p = _ffi.Parts(0, -1, time, 0, datacenter, worker, sequence)
    out = ctypes.c_int64()
    rc = _ffi.lib().quick.idgen_compose(h, ctypes.byref(p), ctypes.byref(out))
    return out.value if rc == _ffi.OK else -1


def _unix_ms(h: _ffi.Handle, id: int) -> int:
    p = _ffi.Parts()
    _ffi.lib().quick.idgen_decode_with(h, id, ctypes.byref(p))
    return int(p.unix_ms)


def tick_ms(h: _ffi.Handle) -> int:
    """The tick of h's layout in ms (how far apart in time the ids of two
    adjacent time values are); 0 if it has no time field (zxid, segments,
    the text presets)."""
    one = _compose(h, time=1)
    if one < 0:
        return 0
    return _unix_ms(h, one) - _unix_ms(h, _compose(h))


def _time_on_top(h: _ffi.Handle) -> bool:
    """Whether time is the highest field of h's layout, as in the Snowflake
    family (zk-session keeps its worker above the time)."""
    one = _compose(h, time=1)
    return one > _compose(h, datacenter=1) and one > _compose(h, worker=1)


def _seq_bits(h: _ffi.Handle) -> int:
    """The width of h's sequence field: the widest all-ones value that
    composes (0 if none), found by bisection."""
    lo, hi = 0, 63  # a width of lo composes, one of hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _compose(h, sequence=(1 << mid) - 1) >= 0:
            lo = mid
        else:
            hi = mid
    return lo


def run_limit(h: _ffi.Handle, tick: int) -> int:
    """The longest run next_id may reserve for generator h of this tick
    (ms): 1, no runs, unless it is a Snowflake-family layout on a 1 ms tick.
    ZooKeeper session ids and zxids are dense counters a dropped run would
    leave holes in, and on a longer tick a run could wait for the next tick
    while its first ids grow old."""
    if tick != 1 or not _time_on_top(h):
        return 1
    return max(1, min(MAX_RUN, (1 << _seq_bits(h)) >> 2))
