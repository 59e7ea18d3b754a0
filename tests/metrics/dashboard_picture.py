"""Draws docs/pictures/metrics-dashboard.svg: four panels of the Grafana
dashboard (docs/grafana/idgen-dashboard.json) — ids/s, tick waits/s, fence
headroom and lease state per generator — from real scrapes of
idgen.metrics_text(), every 200 ms, while three generators
work and their PostgreSQL is stopped for a while and started again.

    python tests/metrics/dashboard_picture.py OUT.svg   (the venv with idgen and prometheus_client)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

import idgen

ROOT = Path(__file__).resolve().parents[2]
PG = str(ROOT / "tests" / "servers" / "pg.sh")
STEP = 0.2
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"]


def scrape() -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for fam in text_string_to_metric_families(idgen.metrics_text()):
        for s in fam.samples:
            out[(s.name, s.labels["name"])] = s.value
    return out


def record(url: str, lease_dir: str, pgdir: str) -> tuple[list[float], list[dict[tuple[str, str], float]]]:
    stop = threading.Event()
    gens = {
        "orders": idgen.Generator(f"worker='{url}' lease_ttl=2s max_outage=8s name=orders"),
        "invoices": idgen.Generator(f"worker='{url}' lease_ttl=2s max_outage=40s name=invoices"),
        "events": idgen.Generator(f"layout=time:41,worker:10,seq:4 worker=lease lease_dir={lease_dir} name=events"),
    }

    def work(name: str, g: idgen.Generator, per_s: int) -> None:
        while not stop.is_set():
            try:
                for _ in range(per_s // 20):
                    g.next_id()
            except idgen.WorkerError:
                pass
            time.sleep(0.05)

    threads = [threading.Thread(target=work, args=(n, g, r)) for (n, g), r in zip(gens.items(), (2000, 800, 6000))]
    for t in threads:
        t.start()
    times: list[float] = []
    samples: list[dict[tuple[str, str], float]] = []
    start = time.monotonic()
    stopped = False
    while time.monotonic() - start < 34:
        t = time.monotonic() - start
        if t > 8 and not stopped:
            subprocess.run([PG, "stop", pgdir], check=True)
            stopped = True
        if t > 22 and stopped:
            subprocess.run([PG, "restart", pgdir], check=True)
            stopped = False
        times.append(t)
        samples.append(scrape())
        time.sleep(STEP)
    stop.set()
    for th in threads:
        th.join()
    for g in gens.values():
        g.close()
    return times, samples


def panel(title: str, x0: int, y0: int, series: dict[str, list[tuple[float, float]]], unit: str, ymin: float | None = None) -> str:
    w, h, pad = 440, 200, 36
    pts = [p for s in series.values() for p in s]
    tmax = max(p[0] for p in pts)
    lo = min(p[1] for p in pts) if ymin is None else ymin
    hi = max(p[1] for p in pts)
    hi = hi if hi > lo else lo + 1
    sx = lambda t: x0 + pad + (w - pad - 10) * t / tmax  # noqa: E731
    sy = lambda v: y0 + h - 24 - (h - 54) * (v - lo) / (hi - lo)  # noqa: E731
    out = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="#181b1f" rx="4"/>',
           f'<text x="{x0 + 10}" y="{y0 + 18}" fill="#ccccdc" font-size="13">{title}</text>']
    for v in (lo, (lo + hi) / 2, hi):
        out.append(f'<line x1="{x0 + pad}" x2="{x0 + w - 10}" y1="{sy(v):.1f}" y2="{sy(v):.1f}" stroke="#2c3235"/>')
        out.append(f'<text x="{x0 + pad - 4}" y="{sy(v) + 4:.1f}" fill="#8e8e8e" font-size="10" text-anchor="end">{v:.4g}{unit}</text>')
    for i, (name, s) in enumerate(series.items()):
        line = " ".join(f"{sx(t):.1f},{sy(v):.1f}" for t, v in s)
        out.append(f'<polyline points="{line}" fill="none" stroke="{COLORS[i]}" stroke-width="1.6"/>')
        out.append(f'<text x="{x0 + pad + 8 + 120 * i}" y="{y0 + h - 6}" fill="{COLORS[i]}" font-size="11">{name}</text>')
    out.append(f'<text x="{x0 + w - 12}" y="{y0 + h - 6}" fill="#8e8e8e" font-size="10" text-anchor="end">{tmax:.0f} s</text>')
    return "\n".join(out)


def rate(times: list[float], samples: list[dict[tuple[str, str], float]], metric: str, name: str) -> list[tuple[float, float]]:
    out = []
    for i in range(5, len(times)):
        a, b = samples[i - 5].get((metric, name)), samples[i].get((metric, name))
        if a is not None and b is not None:
            out.append((times[i], (b - a) / (times[i] - times[i - 5])))
    return out


def gauge(times: list[float], samples: list[dict[tuple[str, str], float]], metric: str, name: str) -> list[tuple[float, float]]:
    return [(t, s[(metric, name)]) for t, s in zip(times, samples) if (metric, name) in s]


def main() -> None:
    work = tempfile.mkdtemp(prefix="idgen-picture-")
    os.chmod(work, 0o755)
    pgdir = os.path.join(work, "pg")
    lease_dir = os.path.join(work, "leases")
    os.mkdir(lease_dir, 0o700)
    subprocess.run([PG, "start", pgdir], check=True)
    try:
        url = Path(pgdir, "url").read_text().strip()
        times, samples = record(url, lease_dir, pgdir)
    finally:
        subprocess.run([PG, "stop", pgdir])
    names = ["orders", "invoices", "events"]
    leased = ["orders", "invoices"]
    svg = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="470" font-family="sans-serif">',
        '<rect width="900" height="470" fill="#111217"/>',
        '<text x="10" y="20" fill="#ccccdc" font-size="14">idgen — docs/grafana/idgen-dashboard.json, drawn from real scrapes '
        "(PostgreSQL stopped from 8 s to 22 s)</text>",
        panel("Ids issued per second", 10, 30, {n: rate(times, samples, "idgen_ids_issued_total", n) for n in names}, "/s", 0),
        panel("Tick waits per second", 455, 30, {n: rate(times, samples, "idgen_tick_waits_total", n) for n in names}, "/s", 0),
        panel("Lease fence headroom", 10, 250, {n: gauge(times, samples, "idgen_lease_fence_seconds", n) for n in leased}, " s"),
        panel("Lease state (1 held, 2 riding, 3 lost)", 455, 250, {n: gauge(times, samples, "idgen_lease_state", n) for n in leased}, "", 0),
        "</svg>",
    ]
    Path(sys.argv[1]).write_text("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
