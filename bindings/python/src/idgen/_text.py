"""What Generator.next_text and decode_text reuse from call to call.

Each generator keeps a pool (a list) of calls bound to its handle and to a
buffer of their own: a call takes one from the pool (list.pop is atomic,
also without the GIL), uses its buffer, and puts it back, so two threads
never share a buffer and the pool holds as many as there were concurrent
callers. The pool starts empty: a generator that never makes text never
allocates one. A bound call passes its arguments to ctypes unconverted
(see _ffi.Library): a C int, a ctypes array or a byref(), bytes.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any, Callable

from . import _ffi
from ._errors import InvalidIdError

# Enough for the longest text of every form (56 hex characters for a
# rocketmq id of an IPv6 host) and its NUL.
_CAP = 64

NextText = tuple[Callable[[], int], Any]
DecodeText = tuple[Callable[[bytes, Any], int], _ffi.TextParts, Any]


def next_text_call(fn: Any, handle: Any) -> NextText:
    """idgen_next_text bound to a handle and a new buffer, and the buffer."""
    buf = ctypes.create_string_buffer(_CAP)
    return functools.partial(fn, handle, buf, _CAP), buf


def decode_text_call(fn: Any, handle: Any) -> DecodeText:
    """idgen_decode_text bound to a handle, a new idgen_text_parts, and a
    reference to pass it by: call(text, ref) fills parts."""
    parts = _ffi.TextParts()
    return functools.partial(fn, handle), parts, ctypes.byref(parts)


def text_arg(text: str) -> bytes:
    """text as the C string decode_text passes; TypeError if it is not a
    str, InvalidIdError if it cannot be one (a NUL, a lone surrogate)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if "\x00" in text:
        raise InvalidIdError(f"{text!r} is not a text id: it contains a NUL character", _ffi.EINVAL)
    try:
        return text.encode()
    except UnicodeEncodeError:
        raise InvalidIdError(f"{text!r} is not a text id: it is not valid Unicode", _ffi.EINVAL) from None
