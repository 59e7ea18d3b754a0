"""Unique, time-ordered ids from libidgen: 64-bit numbers and text ids.

A :class:`Generator` is opened from a configuration string of ``key=value``
pairs (``"preset=snowflake worker=lease"``); the module-level functions use
the process-wide default generator, built on first use from
``$IDGEN_CONFIG`` or ``preset=snowflake worker=lease``. The same string means
the same generator in C, Python and Java.

Text ids: the text presets make RocketMQ's message ids (``preset=rocketmq``,
the 32- or 56-character ``UNIQ_KEY``; ``preset=rocketmq-v1``, the 5.x
client's 34-character id), UUIDv7s (``preset=uuidv7``, also as
:class:`uuid.UUID` through :meth:`Generator.next_uuid`) and ULIDs
(``preset=ulid``), and any numeric preset writes its ids in the form of its
``text=`` key (``dec``, ``base36``, ``base62``), through
:meth:`Generator.next_text`; :meth:`Generator.decode_text` reads them back
into a :class:`TextParts`.

:meth:`Generator.stats` reports what a generator has done and where its
lease stands (:class:`Stats`, :class:`LeaseState`), for monitoring.

:func:`metrics_text` writes every open generator's stats in the Prometheus
text format; :class:`idgen.prometheus.IdgenCollector` hands them to
``prometheus_client`` (an optional dependency).

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
from ._metrics import metrics_text
from ._parts import Parts, TextParts
from ._stats import LeaseState, Stats

__all__ = [
    "Generator",
    "Parts",
    "TextParts",
    "Stats",
    "LeaseState",
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
    "metrics_text",
    "__version__",
]

__version__ = "0.1.0"
