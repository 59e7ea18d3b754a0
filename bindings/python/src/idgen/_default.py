"""The process-wide default generator, the text forms and the library
version: the module-level functions of idgen."""

from __future__ import annotations

import ctypes
from typing import Callable, Optional

from . import _ffi
from ._errors import _check, _check_decode, _check_id, _cstr, _error
from ._buffers import id_list
from ._parts import Parts, _parts


def configure(config: str = "") -> None:
    """Replaces the default generator ("" means the defaults)."""
    _check(_ffi.lib().waiting.idgen_configure(_cstr(config, "config")))


def _load_next_id() -> int:
    """Stands in for idgen_next_id until the library is loaded."""
    global _next_id
    _next_id = _ffi.lib().quick.idgen_next_id
    v: int = _next_id()
    return v


_next_id: Callable[[], int] = _load_next_id


def next_id() -> int:
    """The next id of the default generator."""
    v = _next_id()
    if v < 0:
        raise _error(v)
    return v


def next_ids(n: int) -> list[int]:
    """n strictly increasing ids of the default generator."""
    return id_list(n, lambda addr: _ffi.lib().waiting.idgen_next_ids(addr, n))


def decode(id: int) -> Parts:
    """The fields of an id of the default generator's layout."""
    p = _ffi.Parts()
    _check_decode(_ffi.lib().quick.idgen_decode(_check_id(id), ctypes.byref(p)))
    return _parts(p)


# ---- text forms ------------------------------------------------------------------


def format(id: int, base: int = 62, fixed_width: bool = False) -> str:  # noqa: A001
    """id (>= 0) as text in base 2..62; fixed_width pads to the width of the
    largest id, so equal-width strings sort like the numbers."""
    buf = ctypes.create_string_buffer(72)
    _check(_ffi.lib().quick.idgen_format(_check_id(id), int(base), 1 if fixed_width else 0, buf, 72))
    return buf.value.decode("ascii")


def parse(text: str, base: int = 62) -> int:
    """The id written as text in base 2..62."""
    out = ctypes.c_int64()
    _check(_ffi.lib().quick.idgen_parse(_cstr(text, "text"), int(base), ctypes.byref(out)))
    return out.value


def library_version() -> str:
    """The version of the loaded libidgen.so."""
    raw: Optional[bytes] = _ffi.lib().quick.idgen_version()
    return (raw or b"").decode("ascii")
