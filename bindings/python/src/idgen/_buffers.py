"""The int64 buffers batches of ids land in: a new list, or the caller's
own writable buffer."""

from __future__ import annotations

import ctypes
from array import array
from typing import Any, Callable

from . import _ffi
from ._errors import ConfigError, _check

_ZERO = (0,)


def id_list(n: int, fill: Callable[[int], int]) -> list[int]:
    """n ids as a list: fill(address) writes them into an int64 buffer."""
    if n < 0:
        raise ConfigError(f"n must be >= 0, got {n}", _ffi.EINVAL)
    if n == 0:
        return []
    out = array("q", _ZERO) * n
    addr, _ = out.buffer_info()
    _check(fill(addr))
    return out.tolist()


def int64_buffer(buf: Any) -> tuple[Any, int]:
    """A ctypes view of a writable, contiguous buffer of int64, and its length."""
    try:
        view = memoryview(buf)
    except TypeError:
        raise TypeError(f"expected a writable buffer of int64, not {type(buf).__name__}") from None
    fmt = view.format.lstrip("@=<")
    if view.itemsize != 8 or fmt not in ("q", "l"):
        raise TypeError(f"expected a buffer of int64 (format 'q'), got format {view.format!r}")
    if view.readonly:
        raise TypeError("the buffer is read-only")
    if not view.c_contiguous:
        raise TypeError("the buffer must be contiguous")
    n = view.nbytes // 8
    if n == 0:
        return None, 0
    return (ctypes.c_int64 * n).from_buffer(view), n
