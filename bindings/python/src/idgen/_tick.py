"""The tick of a generator's layout, which decides whether next_id
releases the GIL: asked of the library once, at open, by composing and
decoding ids of the generator's own layout (idgen_compose,
idgen_decode_with); the binding never reads the configuration string.

Whether next_id hands out runs, how long they are and how long they stay
fresh is the library's too (runs= in the configuration; idgen_next_run).
"""

from __future__ import annotations

import ctypes

from . import _ffi


def _compose(h: _ffi.Handle, time: int) -> int:
    """The id of raw time `time` (other fields 0) in h's layout; -1 if it
    has no time field (a counter, a text preset)."""
    p = _ffi.Parts(0, -1, time, 0, 0, 0, 0)
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
    one = _compose(h, 1)
    if one < 0:
        return 0
    return _unix_ms(h, one) - _unix_ms(h, _compose(h, 0))
