"""Unique, time-ordered 64-bit ids from libidgen.

A :class:`Generator` is opened from a configuration string of ``key=value``
pairs (``"preset=snowflake worker=lease"``); the module-level functions use
the process-wide default generator, built on first use from
``$IDGEN_CONFIG`` or ``preset=snowflake worker=lease``. The same string means
the same generator in C, Python and Java.

The library is loaded on first use, not on import. Under ``fork`` a child of
a process that had loaded it gets :class:`ForkedError`; use the ``spawn`` or
``forkserver`` start method, or load idgen only in the children.
"""

from __future__ import annotations

from ._default import configure, decode, format, library_version, next_id, next_ids, parse
from ._errors import (
    ClockError,
    ClosedError,
    ConfigError,
    ForkedError,
    IdgenError,
    InternalError,
    InvalidIdError,
    RangeError,
    TimeOverflowError,
    WorkerError,
)
from ._generator import Generator
from ._parts import Parts

__all__ = [
    "Generator",
    "Parts",
    "IdgenError",
    "ConfigError",
    "InvalidIdError",
    "ClockError",
    "TimeOverflowError",
    "ClosedError",
    "WorkerError",
    "RangeError",
    "ForkedError",
    "InternalError",
    "configure",
    "next_id",
    "next_ids",
    "decode",
    "format",
    "parse",
    "library_version",
    "__version__",
]

__version__ = "0.1.0"
