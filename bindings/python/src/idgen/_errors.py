"""The error classes, one per IDGEN_E* status, and argument checks."""

from __future__ import annotations

from typing import Any, Optional

from . import _ffi

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


class IdgenError(Exception):
    """An idgen failure; ``code`` is the C status (an ``IDGEN_E*`` value).

    Each subclass names its status (``class ClockError(IdgenError,
    code=ECLOCK)``); the first class of a status is the one raised for it.
    """

    code: int = _ffi.EINTERNAL

    def __init__(self, message: str, code: Optional[int] = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    def __init_subclass__(cls, code: int = _ffi.EINTERNAL, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.code = code
        _ERRORS.setdefault(code, cls)


_ERRORS: dict[int, type[IdgenError]] = {}


class ConfigError(IdgenError, ValueError, code=_ffi.EINVAL):
    """IDGEN_EINVAL: a bad configuration or argument; the message names it."""


class InvalidIdError(IdgenError, ValueError, code=_ffi.EINVAL):
    """IDGEN_EINVAL for an id: negative, or with bits outside the layout."""


class ClockError(IdgenError, code=_ffi.ECLOCK):
    """IDGEN_ECLOCK: the clock went back beyond the configured tolerance."""


class TimeOverflowError(IdgenError, code=_ffi.EOVERFLOW):
    """IDGEN_EOVERFLOW: the layout's time or epoch range is used up."""


class ClosedError(IdgenError, code=_ffi.ECLOSED):
    """IDGEN_ECLOSED: the generator is closed."""


class WorkerError(IdgenError, code=_ffi.EWORKER):
    """IDGEN_EWORKER: no worker id could be had, or its lease was lost."""


class RangeError(IdgenError, ValueError, code=_ffi.ERANGE):
    """IDGEN_ERANGE: a value does not fit its field or type."""


class ForkedError(IdgenError, code=_ffi.EFORKED):
    """IDGEN_EFORKED: idgen used in a child forked after it was loaded."""


class InternalError(IdgenError, code=_ffi.EINTERNAL):
    """IDGEN_EINTERNAL: a bug in idgen."""


# The library names its C functions where a text preset refuses a numeric
# call; this binding names its own methods instead.
_OWN_NAMES = (("idgen_next_text", "next_text()"), ("idgen_decode_text", "decode_text()"))


def _text_only(message: str) -> bool:
    """Whether message is a text preset's refusal of a numeric call."""
    return message.startswith("text preset ")


def _message(code: int) -> str:
    """This thread's last error, in this binding's names."""
    lib = _ffi.lib()
    message = lib.last_error() or lib.strerror(code)
    if code == _ffi.EINVAL and _text_only(message):
        for c_name, own in _OWN_NAMES:
            message = message.replace(c_name, own)
    return message


def _error(code: int) -> IdgenError:
    return _ERRORS.get(code, InternalError)(_message(code), code)


def _check(code: int) -> None:
    if code != _ffi.OK:
        raise _error(code)


def _check_decode(code: int) -> None:
    """_check for decode: IDGEN_EINVAL there is about the id, not a config."""
    if code == _ffi.EINVAL:
        message = _message(code)
        if _text_only(message):  # about the generator, not the id
            raise ConfigError(message, code)
        raise InvalidIdError(message, code)
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
