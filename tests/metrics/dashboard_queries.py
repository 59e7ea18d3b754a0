"""The panels of docs/grafana/idgen-dashboard.json and their queries, with
Grafana's template variables substituted as Grafana substitutes them, run
against a Prometheus server's HTTP API as Grafana's Prometheus data source
runs them:

- ``$__interval``: the query step; Grafana's is the range over the panel's
  width in pixels, never below the data source's scrape interval (1 s
  here, the scrape_interval of tests/servers/prometheus.sh). We use 1 s.
- ``$__rate_interval``: max($__interval + scrape interval, 4 × scrape
  interval), Grafana's rule: 4s at a step of 1 s.
- ``$__range``: the dashboard's time range, whole seconds (``${__range_s}s``).
- ``$name`` / ``${name}``: the "All" choice of the ``name`` variable, its
  ``allValue`` ``.*``; or a choice of names, joined as ``(a|b)``.

A target with ``"instant": true`` is an instant query at the range's end
(``/api/v1/query``); every other a range query (``/api/v1/query_range``)
from the start, aligned down to the step as Grafana aligns it, to the end.
"""

from __future__ import annotations

import json
import math
import re
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "docs" / "grafana" / "idgen-dashboard.json"


@dataclass(frozen=True)
class Query:
    panel: dict[str, Any]
    target: dict[str, Any]
    expr: str  # substituted
    instant: bool


@dataclass(frozen=True)
class Window:
    start: float  # unix seconds
    end: float
    step: float = 1.0
    scrape: float = 1.0

    def rate_interval(self) -> float:
        return max(self.step + self.scrape, 4 * self.scrape)

    def aligned_start(self) -> float:
        return math.floor(self.start / self.step) * self.step


def dashboard() -> dict[str, Any]:
    d: dict[str, Any] = json.loads(DASHBOARD.read_text())
    return d


def _all_value(d: dict[str, Any], var: str) -> str:
    for v in d["templating"]["list"]:
        if v["name"] == var:
            return str(v.get("allValue") or ".*")
    raise KeyError(f"dashboard has no template variable {var}")


def _seconds(s: float) -> str:
    return f"{s:g}s"


def substitute(expr: str, w: Window, names: list[str] | None = None, d: dict[str, Any] | None = None) -> str:
    """expr with Grafana's variables replaced; names None: the All choice."""
    d = d or dashboard()
    name = _all_value(d, "name") if names is None else "(" + "|".join(re.escape(n) for n in names) + ")"
    subs = {
        "__rate_interval": _seconds(w.rate_interval()),
        "__interval": _seconds(w.step),
        "__range": _seconds(round(w.end - w.start)),
        "name": name,
    }
    out = re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: subs[m.group(1) or m.group(2)], expr)
    return out


def queries(w: Window, names: list[str] | None = None) -> list[Query]:
    """Every target of every panel, in the dashboard's order."""
    d = dashboard()
    return [
        Query(p, t, substitute(t["expr"], w, names, d), bool(t.get("instant")))
        for p in d["panels"]
        for t in p.get("targets", [])
    ]


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=60) as r:
        body: dict[str, Any] = json.load(r)
    return body


def run(prometheus: str, q: Query, w: Window) -> list[dict[str, Any]]:
    """The query's result: series of {"metric": labels, "values": [(t, v)...]}
    (an instant query's one value as a one-point series). A query Prometheus
    refuses raises urllib.error.HTTPError with its message."""
    if q.instant:
        args = {"query": q.expr, "time": f"{w.end:.3f}"}
        body = _get(f"{prometheus}/api/v1/query?{urllib.parse.urlencode(args)}")
        assert body["status"] == "success", body
        return [{"metric": s["metric"], "values": [s["value"]]} for s in body["data"]["result"]]
    args = {"query": q.expr, "start": f"{w.aligned_start():.3f}", "end": f"{w.end:.3f}", "step": _seconds(w.step)}
    body = _get(f"{prometheus}/api/v1/query_range?{urllib.parse.urlencode(args)}")
    assert body["status"] == "success", body
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def legend(target: dict[str, Any], labels: dict[str, str]) -> str:
    """Grafana's legendFormat: {{label}} replaced by the series' label value."""
    fmt = target.get("legendFormat")
    if not fmt:
        return "{" + ", ".join(f'{k}="{v}"' for k, v in sorted(labels.items()) if k != "__name__") + "}"
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt)


def legend_labels(target: dict[str, Any]) -> list[str]:
    return re.findall(r"\{\{\s*(\w+)\s*\}\}", target.get("legendFormat") or "")
