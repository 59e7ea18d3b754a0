"""Text ids: Generator's next_text, next_uuid and decode_text (the TextIds
mixin), and what they reuse from call to call.

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
import uuid
from typing import Any, Callable

from . import _ffi
from ._errors import ConfigError, InvalidIdError, _check_decode, _error
from ._parts import TextParts, _text_parts

# IDGEN_TEXT_MAX: the longest text of every form (56 hex characters for a
# rocketmq id of an IPv6 host) and its NUL.
_CAP = _ffi.TEXT_MAX

NextText = tuple[Callable[[], int], Any]
NextUUID = tuple[Callable[[], int], Any]
DecodeText = tuple[Callable[[bytes, Any], int], _ffi.TextParts, Any]


def next_text_call(fn: Any, handle: Any) -> NextText:
    """idgen_next_text bound to a handle and a new buffer, and the buffer."""
    buf = ctypes.create_string_buffer(_CAP)
    return functools.partial(fn, handle, buf, _CAP), buf


def next_uuid_call(fn: Any, handle: Any) -> NextUUID:
    """idgen_next_uuids bound to a handle, a new 16-byte buffer and n = 1,
    and the buffer."""
    buf = ctypes.create_string_buffer(16)
    return functools.partial(fn, handle, buf, 1), buf


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


class TextIds:
    """The text-id methods of Generator, which sets the attributes below
    in its __init__."""

    __slots__ = ()

    _h: _ffi.Handle
    # idgen_next_text, from the view (GIL kept or released) next_id uses.
    _text_fn: Any
    # The pools of bound calls (see the module's docstring).
    _texts: list[NextText]
    _uuids: list[NextUUID]
    # idgen_next_uuids, from the same view as _text_fn.
    _uuid_fn: Any
    _decodes: list[DecodeText]
    # preset=uuidv7: next_uuid works.
    _uuid: bool

    @property
    def config(self) -> str:
        raise NotImplementedError

    def next_text(self) -> str:
        """The next id as text: a rocketmq id (32 upper-case hex characters,
        56 for an IPv6 host), a rocketmq-v1 id (34), a UUIDv7 (36, canonical
        lower case), a ULID (26, Crockford base32), or a numeric preset's
        id in its ``text=`` form (decimal; base36 and base62 fixed width,
        13 and 11 characters, so that they sort like the numbers).

        Ids of a numeric preset come from the same sequence as next_id's:
        every one is larger than any id handed out before it.
        """
        # The buffer of a pooled call: no allocation but the str.
        try:
            entry = self._texts.pop()
        except IndexError:
            entry = next_text_call(self._text_fn, self._h)
        call, buf = entry
        n: int = call()
        if n < 0:
            self._texts.append(entry)
            raise _error(n)
        text: str = buf.value.decode()
        self._texts.append(entry)
        return text

    def next_uuid(self) -> uuid.UUID:
        """The next id of a ``preset=uuidv7`` generator as a
        :class:`uuid.UUID` (version 7, RFC 9562 variant); the same id
        :meth:`next_text` would give, strictly increasing across threads.

        Other presets raise :class:`ConfigError` and consume nothing: a
        ULID is not a UUID (take ``ulid``'s ids as text, :meth:`next_text`;
        ``uuid.UUID(int=...)`` of one would lose its form).
        """
        if not self._uuid:
            raise ConfigError(
                f"next_uuid: {self.config!r} makes no UUIDs; only preset=uuidv7 does "
                "(every preset's ids come as text from next_text())", _ffi.EINVAL)
        # The UUID's 16 bytes (RFC 9562 order, big-endian), not its text:
        # uuid.UUID(int=) skips parsing 36 characters.
        try:
            entry = self._uuids.pop()
        except IndexError:
            entry = next_uuid_call(self._uuid_fn, self._h)
        call, buf = entry
        rc: int = call()
        if rc < 0:
            self._uuids.append(entry)
            raise _error(rc)
        value = int.from_bytes(buf.raw, "big")
        self._uuids.append(entry)
        return uuid.UUID(int=value)

    def decode_text(self, text: str) -> TextParts:
        """The fields of a text id of this generator's form (hex and base32
        in either case; uuidv7 and ulid fill ``unix_ms`` and ``datetime``
        only, and read any UUIDv7 or ULID). Text that is not exactly that
        form raises
        :class:`InvalidIdError`; anything but a str, TypeError."""
        raw = text_arg(text)
        try:
            entry = self._decodes.pop()
        except IndexError:
            entry = decode_text_call(_ffi.lib().quick.idgen_decode_text, self._h)
        call, parts, ref = entry
        try:
            _check_decode(call(raw, ref))
            return _text_parts(parts)
        finally:
            self._decodes.append(entry)
