"""Draws docs/pictures/metrics-dashboard.png: every panel of
docs/grafana/idgen-dashboard.json, from what its queries return when a real
Prometheus server evaluates them (dashboard_queries.py: Grafana's variables
substituted as Grafana does) over its 1 s scrapes of idgen.metrics_text()
through the recording of recording.py (a PostgreSQL outage under four
generators). Our page (dashboard_page/: title, unit, legend of each panel)
draws them; headless Chromium (Debian's, installed when missing) takes the
screenshot. Not Grafana, which cannot be installed here.

    python tests/metrics/dashboard_png.py OUT.png PAGEDIR   (the venv with idgen)

PAGEDIR receives the page and its data (data.js) and is kept for a look.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from dashboard_queries import Query, Window, legend, queries, run
from recording import Phases, recorded

HERE = Path(__file__).resolve().parent
LIB = HERE.parents[1] / "tests" / "servers" / "lib.sh"
WIDTH = 1400
PHASES = Phases(before=10, outage=18, after=8)


def chromium() -> str:
    """The path of Debian's chromium, installed (with a font) when missing."""
    if not shutil.which("chromium"):
        subprocess.run(["bash", "-c", f'. "{LIB}"; install_debian chromium fonts-dejavu-core'], check=True)
    path = shutil.which("chromium")
    assert path, "chromium is not installed"
    return path


def _number(v: str) -> float | None:
    f = float(v)
    return None if f != f else f


def panel_data(q: Query, series: list[dict[str, Any]]) -> dict[str, Any]:
    """What page.js draws for one panel: its options and its series."""
    p, defaults = q.panel, q.panel.get("fieldConfig", {}).get("defaults", {})
    out: dict[str, Any] = {
        "title": p["title"],
        "type": p["type"],
        "unit": defaults.get("unit", ""),
        "grid": p["gridPos"],
        "thresholds": defaults.get("thresholds", {}).get("steps"),
        "thresholdsStyle": defaults.get("custom", {}).get("thresholdsStyle", {}).get("mode"),
        "mappings": {k: v for m in defaults.get("mappings", []) for k, v in m["options"].items()},
        "series": sorted(
            ({"name": legend(q.target, s["metric"]), "points": [[float(t), _number(v)] for t, v in s["values"]]} for s in series),
            key=lambda s: str(s["name"]),
        ),
    }
    if p["type"] == "table":
        hidden = {k for t in p.get("transformations", []) for k in t.get("options", {}).get("excludeByName", {})}
        columns = sorted({k for s in series for k in s["metric"]} - hidden)
        out["table"] = {"columns": columns, "rows": sorted((s["metric"] for s in series), key=lambda m: m.get("name", ""))}
    return out


def clock(t: float) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(t))


def note(prometheus: str, w: Window, marks: dict[str, float]) -> list[str]:
    with urllib.request.urlopen(f"{prometheus}/api/v1/status/buildinfo", timeout=30) as r:
        version = json.load(r)["data"]["version"]
    return [
        f"The panels of docs/grafana/idgen-dashboard.json: its queries evaluated by a real Prometheus {version} server over "
        "its 1 s scrapes of idgen.metrics_text(), drawn by our page in headless Chromium (not Grafana).",
        f"Range queries (the table: instant), step {w.step:g}s; $__rate_interval={w.rate_interval():g}s, $__range={round(w.end - w.start)}s, $name=All (.*).",
        "Generators: orders, invoices on PostgreSQL (max_outage 6 s, 40 s); events on the host lease directory "
        "(16 ids/ms, bursting); tickets, a segment counter.",
        f'<span class="mark">- - -</span> PostgreSQL stopped at {clock(marks["pg_stop"])}, started again at {clock(marks["pg_start"])} (UTC).',
    ]


def screenshot(page: Path, out: Path, height: int) -> None:
    profile = tempfile.mkdtemp(prefix="idgen-chromium-")
    try:
        subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
             f"--user-data-dir={profile}", f"--screenshot={out}", f"--window-size={WIDTH},{height}",
             page.as_uri()],
            check=True, timeout=180, capture_output=True,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main() -> None:
    out, pagedir = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    chromium()
    with recorded(PHASES) as rec:
        w = Window(rec.marks["start"], rec.marks["end"])
        panels = [panel_data(q, run(rec.prometheus, q, w)) for q in queries(w)]
        lines = note(rec.prometheus, w, rec.marks)
    data = {"title": "idgen", "start": w.start, "end": w.end, "step": w.step, "note": lines, "panels": panels,
            "marks": [{"t": rec.marks[k]} for k in ("pg_stop", "pg_start")]}
    pagedir.mkdir(parents=True, exist_ok=True)
    for f in ("page.html", "page.css", "page.js"):
        shutil.copy(HERE / "dashboard_page" / f, pagedir / f)
    (pagedir / "data.js").write_text("window.DASHBOARD = " + json.dumps(data) + ";\n")
    rows = max(p["grid"]["y"] + p["grid"]["h"] for p in panels)
    screenshot(pagedir / "page.html", out, 150 + rows * 38)
    for p in panels:
        figures = ", ".join(f"{s['name']}: last {s['points'][-1][1]}" for s in p["series"])
        print(f"{p['title']}: {figures}")
    print(f"{out}: {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
