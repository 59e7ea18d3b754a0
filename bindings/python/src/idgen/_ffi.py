"""The one table of libidgen.so's C calls (_SIGNATURES), its structs and
status codes, and the two files the package carries: the library, loaded
lazily on first use, and the idgen command (cmd/idgen) that python -m idgen
runs.

Importing idgen does not load the library, so importing it in a pre-fork
server parent is harmless; the first call does. Two views of the library
are kept: ``quick`` (ctypes.PyDLL: the GIL stays held, ~2x cheaper for a
call that returns at once) and ``waiting`` (ctypes.CDLL: the GIL is
released, for calls that may wait: opening with a lease, batches, and
next on layouts whose tick is longer than a millisecond).
"""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import POINTER, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint8, c_void_p
from importlib import resources
from typing import Any, Optional, Union

OK = 0
EINVAL = -1
ECLOCK = -2
EOVERFLOW = -3
ECLOSED = -4
EWORKER = -5
ERANGE = -6
EFORKED = -7
EINTERNAL = -99

# IDGEN_TEXT_MAX: a capacity that holds every text id and its NUL.
TEXT_MAX = 57

# A generator's handle as the binding passes it: a small token as a Python
# int (the cheapest argument ctypes has), else a c_void_p.
Handle = Union[int, c_void_p]


class Parts(ctypes.Structure):
    """idgen_parts."""

    _fields_ = [
        ("id", c_int64),
        ("unix_ms", c_int64),
        ("time", c_int64),
        ("epoch", c_int64),
        ("datacenter", c_int64),
        ("worker", c_int64),
        ("sequence", c_int64),
    ]


class TextParts(ctypes.Structure):
    """idgen_text_parts."""

    _fields_ = [
        ("id", c_int64),
        ("unix_ms", c_int64),
        ("sequence", c_int64),
        ("pid", c_int64),
        ("loader_hash", c_int64),
        ("addr_len", c_int32),
        ("addr", c_uint8 * 16),
    ]


class Stats(ctypes.Structure):
    """idgen_stats: fields are only ever appended (pass its sizeof)."""

    _fields_ = [
        ("issued", c_int64),
        ("tick_waits", c_int64),
        ("clock_backs", c_int64),
        ("drift_ms", c_int64),
        ("lease_state", c_int64),
        ("datacenter", c_int64),
        ("worker", c_int64),
        ("fence_unix_ms", c_int64),
        ("renewed_unix_ms", c_int64),
        ("renewals", c_int64),
        ("renewal_failures", c_int64),
        ("leases_taken", c_int64),
        ("skew_ms", c_int64),
        ("segment_left", c_int64),
    ]


class Info(ctypes.Structure):
    """idgen_info: what a generator is; fields are only ever appended (pass
    its sizeof)."""

    _fields_ = [
        ("kind", c_int64),
        ("leased", c_int64),
        ("tick_ns", c_int64),
        ("text_len", c_int64),
        ("longest_run", c_int64),
    ]


# IDGEN_KIND_*: Info.kind.
KIND_NUMERIC = 1
KIND_UUIDV7 = 2
KIND_ULID = 3
KIND_ROCKETMQ = 4
KIND_COUNTER = 5
KIND_NUMBER = 6


# name: (restype, argtypes). argtypes None: the arguments pass unconverted.
# ctypes' per-argument conversion (from_param) costs ~150 ns, as much as
# the call itself: the hot calls get only what needs none, a small int or a
# ctypes.c_void_p for the handle (see Generator.__init__), a ctypes char
# array or a byref() (passed as pointers), bytes and a small int (_text.py).
_SIGNATURES: dict[str, tuple[Any, Optional[list[Any]]]] = {
    "idgen_version": (c_char_p, []),
    "idgen_strerror": (c_char_p, [c_int]),
    "idgen_last_error": (c_char_p, []),
    "idgen_open": (c_int, [c_char_p, POINTER(c_void_p)]),
    "idgen_close": (None, [c_void_p]),
    "idgen_next": (c_int64, None),  # (handle)
    "idgen_next_batch": (c_int, [c_void_p, c_void_p, c_size_t]),
    "idgen_next_run": (c_int, [c_void_p, c_void_p, c_size_t, c_void_p]),
    "idgen_decode_with": (c_int, [c_void_p, c_int64, POINTER(Parts)]),
    "idgen_compose": (c_int, [c_void_p, POINTER(Parts), POINTER(c_int64)]),
    "idgen_config_string": (c_int, [c_void_p, c_char_p, c_size_t]),
    "idgen_get_stats": (c_int, [c_void_p, POINTER(Stats), c_size_t]),
    "idgen_get_info": (c_int, [c_void_p, POINTER(Info), c_size_t]),
    "idgen_metrics_text": (c_int64, [c_char_p, c_size_t]),
    "idgen_configure": (c_int, [c_char_p]),
    "idgen_next_id": (c_int64, []),
    "idgen_next_ids": (c_int, [c_void_p, c_size_t]),
    "idgen_decode": (c_int, [c_int64, POINTER(Parts)]),
    "idgen_format": (c_int, [c_int64, c_int, c_int, c_char_p, c_size_t]),
    "idgen_parse": (c_int, [c_char_p, c_int, POINTER(c_int64)]),
    "idgen_next_text": (c_int, None),  # (handle, char array, cap)
    "idgen_next_uuids": (c_int, None),  # (handle, char array, n)
    "idgen_decode_text": (c_int, None),  # (handle, bytes, byref(TextParts))
}


class Library:
    """Both views of one loaded libidgen.so."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.quick = ctypes.PyDLL(path)
        self.waiting = ctypes.CDLL(path)
        for view in (self.quick, self.waiting):
            for name, (restype, argtypes) in _SIGNATURES.items():
                fn = getattr(view, name)
                fn.restype = restype
                fn.argtypes = argtypes

    def last_error(self) -> str:
        raw: Optional[bytes] = self.quick.idgen_last_error()
        return (raw or b"").decode("utf-8", "replace")

    def strerror(self, code: int) -> str:
        raw: Optional[bytes] = self.quick.idgen_strerror(code)
        return (raw or b"").decode("utf-8", "replace")


_lock = threading.Lock()
_lib: Optional[Library] = None


def _packaged(env: str, name: str) -> str:
    """$env, else the file name inside this package."""
    return os.environ.get(env) or str(resources.files("idgen").joinpath(name))


def library_path() -> str:
    """$IDGEN_LIBRARY, else the libidgen.so inside this package."""
    return _packaged("IDGEN_LIBRARY", "libidgen.so")


def cli_path() -> str:
    """$IDGEN_CLI, else the idgen command inside this package."""
    return _packaged("IDGEN_CLI", "idgen")


def lib() -> Library:
    """The library, loaded on first use."""
    global _lib
    loaded = _lib
    if loaded is not None:
        return loaded
    with _lock:
        if _lib is None:
            path = library_path()
            try:
                _lib = Library(path)
            except OSError as e:
                raise OSError(
                    f"idgen: cannot load {path}: {e} "
                    "(set IDGEN_LIBRARY to the path of libidgen.so)"
                ) from e
        return _lib


def loaded() -> bool:
    """Whether the library has been loaded in this process."""
    return _lib is not None
