"""A ``prometheus_client`` collector for idgen's metrics.

::

    from prometheus_client import REGISTRY
    from idgen.prometheus import IdgenCollector

    REGISTRY.register(IdgenCollector())

Every scrape of the registry (``generate_latest()``, ``start_http_server``)
then includes the ``idgen_*`` families of every open generator of the
process. ``prometheus_client`` is an optional dependency: importing this
module needs it, importing ``idgen`` does not. Registering does not load the
library (the collector describes nothing up front), so it is safe in a
pre-fork server's parent.
"""

from __future__ import annotations

from typing import Iterable

from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

from ._metrics import metrics_text

__all__ = ["IdgenCollector"]


class IdgenCollector(Collector):
    """Yields the families of :func:`idgen.metrics_text` at each scrape,
    read by prometheus_client's own parser (so names, types, help and
    labels are exactly the library's)."""

    def collect(self) -> Iterable[Metric]:
        return list(text_string_to_metric_families(metrics_text()))

    def describe(self) -> Iterable[Metric]:
        # Nothing up front: registering must not load the library (fork
        # safety), and the series come and go with the generators.
        return []
