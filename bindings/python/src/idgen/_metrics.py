"""idgen.metrics_text(): every open generator of the process in the
Prometheus text format, as the library writes it."""

from __future__ import annotations

import ctypes

from . import _ffi
from ._errors import _error


def metrics_text() -> str:
    """Every open generator of the process (the default one included) in
    the Prometheus text exposition format 0.0.4: the ``idgen_*`` families,
    each series labelled ``name`` and ``generator``. Serve it as
    ``text/plain; version=0.0.4``, or register
    :class:`idgen.prometheus.IdgenCollector` with ``prometheus_client``."""
    lib = _ffi.lib().waiting
    cap = 4096
    while True:
        buf = ctypes.create_string_buffer(cap)
        n: int = lib.idgen_metrics_text(buf, cap)
        if n < 0:
            raise _error(n)
        if n < cap:
            return buf.raw[:n].decode("utf-8")
        cap = n + n // 4 + 256  # the text grows between calls: leave room
