"""The error classes, one per IDGEN_E* status, and argument checks."""

from __future__ import annotations

from typing import Optional

from . import _ffi

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


class IdgenError(Exception):
    """An idgen failure; ``code`` is the C status (an ``IDGEN_E*`` value)."""

    code: int = _ffi.EINTERNAL

    def __init__(self, message: str, code: Optional[int] = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class ConfigError(IdgenError, ValueError):
    """IDGEN_EINVAL: a bad configuration or argument; the message names it."""

    code = _ffi.EINVAL


class InvalidIdError(IdgenError, ValueError):
    """IDGEN_EINVAL for an id: negative, or with bits outside the layout."""

    code = _ffi.EINVAL


class ClockError(IdgenError):
    """IDGEN_ECLOCK: the clock went back beyond the configured tolerance."""

    code = _ffi.ECLOCK


class TimeOverflowError(IdgenError):
    """IDGEN_EOVERFLOW: the layout's time or epoch range is used up."""

    code = _ffi.EOVERFLOW


class ClosedError(IdgenError):
    """IDGEN_ECLOSED: the generator is closed."""

    code = _ffi.ECLOSED


class WorkerError(IdgenError):
    """IDGEN_EWORKER: no worker id could be had, or its lease was lost."""

    code = _ffi.EWORKER


class RangeError(IdgenError, ValueError):
    """IDGEN_ERANGE: a value does not fit its field or type."""

    code = _ffi.ERANGE


class ForkedError(IdgenError):
    """IDGEN_EFORKED: idgen used in a child forked after it was loaded."""

    code = _ffi.EFORKED


class InternalError(IdgenError):
    """IDGEN_EINTERNAL: a bug in idgen."""

    code = _ffi.EINTERNAL


_ERRORS: dict[int, type[IdgenError]] = {
    cls.code: cls
    for cls in (ConfigError, ClockError, TimeOverflowError, ClosedError, WorkerError, RangeError, ForkedError)
}


def _error(code: int) -> IdgenError:
    lib = _ffi.lib()
    message = lib.last_error() or lib.strerror(code)
    return _ERRORS.get(code, InternalError)(message, code)


def _check(code: int) -> None:
    if code != _ffi.OK:
        raise _error(code)


def _check_decode(code: int) -> None:
    """_check for decode: IDGEN_EINVAL there is about the id, not a config."""
    if code == _ffi.EINVAL:
        lib = _ffi.lib()
        raise InvalidIdError(lib.last_error() or lib.strerror(code), code)
    _check(code)


def _check_id(value: int, what: str = "id") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise RangeError(f"{what} {value} does not fit in 64 bits", _ffi.ERANGE)
    return value


def _cstr(text: Optional[str], what: str) -> Optional[bytes]:
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    if "\x00" in text:
        raise ConfigError(f"{what} contains a NUL character", _ffi.EINVAL)
    return text.encode("utf-8")
