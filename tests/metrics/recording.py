"""A recording for the dashboard: a real Prometheus server scraping, every
second, this process's idgen.metrics_text() over HTTP while four generators
work — two on a PostgreSQL that is stopped for a while and started again
(orders: max_outage shorter than the outage, so it rides then loses its
lease; invoices: a long max_outage, so it only rides), one bursting past
its tick's sequence on the host lease directory (events), and a segment
counter (tickets).

    with recorded(Phases(...)) as rec:   # rec.prometheus: the server's URL
        ...query it...                   # rec.marks: when PostgreSQL stopped, restarted

tests/servers/pg.sh runs PostgreSQL, tests/servers/prometheus.sh the
Prometheus server (both install their Debian package when missing); both
are stopped, and the exporter shut down, when the block ends.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import idgen

ROOT = Path(__file__).resolve().parents[2]
PG = str(ROOT / "tests" / "servers" / "pg.sh")
PROMETHEUS = str(ROOT / "tests" / "servers" / "prometheus.sh")
SCRAPE_S = 1.0  # prometheus.sh's scrape_interval


@dataclass(frozen=True)
class Phases:
    """Seconds of work before the outage, of the outage, and after every
    PostgreSQL generator holds its lease again."""

    before: float = 6
    outage: float = 14
    after: float = 6


@dataclass
class Recording:
    prometheus: str = ""
    # Unix seconds: start (the generators work), pg_stop (PostgreSQL asked to
    # stop), pg_start (it answers again), held (both its generators hold
    # their lease again), end.
    marks: dict[str, float] = field(default_factory=dict)


class _Metrics(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path != "/metrics":
            self.send_error(404)
            return
        body = idgen.metrics_text().encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def _exporter() -> Iterator[str]:
    """An HTTP server on a free 127.0.0.1 port serving /metrics: its host:port."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Metrics)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        yield f"127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
        th.join()


def _server(script: str, *args: str) -> None:
    subprocess.run([script, *args], check=True, timeout=600)


@contextlib.contextmanager
def _generators(url: str, lease_dir: str) -> Iterator[dict[str, idgen.Generator]]:
    specs = {
        "orders": f"worker='{url}' lease_ttl=2s max_outage=6s name=orders",
        "invoices": f"worker='{url}' lease_ttl=2s max_outage=40s name=invoices",
        "events": f"layout=time:41,worker:10,seq:4 worker=lease lease_dir={lease_dir} name=events",
        "tickets": f"preset=segment step=500 lease_dir={lease_dir} name=tickets",
    }
    gens: dict[str, idgen.Generator] = {}
    try:
        for name, spec in specs.items():
            gens[name] = idgen.Generator(spec)
        yield gens
    finally:
        for g in gens.values():
            g.close()


def _work(gens: dict[str, idgen.Generator], stop: threading.Event) -> list[threading.Thread]:
    """A thread per generator taking ids in batches every 50 ms (events: a
    burst past its 16 ids per millisecond); a lost lease is skipped over."""
    per_batch = {"orders": 100, "invoices": 40, "events": 300, "tickets": 60}

    def run(g: idgen.Generator, n: int) -> None:
        while not stop.is_set():
            with contextlib.suppress(idgen.WorkerError):
                for _ in range(n):
                    g.next_id()
            stop.wait(0.05)

    threads = [threading.Thread(target=run, args=(g, per_batch[name])) for name, g in gens.items()]
    for t in threads:
        t.start()
    return threads


def _await_held(gens: list[idgen.Generator], within: float) -> None:
    deadline = time.monotonic() + within
    while any(g.stats().lease_state != idgen.LeaseState.HELD for g in gens):
        if time.monotonic() > deadline:
            raise AssertionError(f"PostgreSQL generators not held again within {within} s: {[g.stats().lease_state for g in gens]}")
        time.sleep(0.1)


def _scenario(rec: Recording, gens: dict[str, idgen.Generator], pgdir: str, phases: Phases) -> None:
    stop = threading.Event()
    threads = _work(gens, stop)
    try:
        rec.marks["start"] = time.time()
        time.sleep(phases.before)
        rec.marks["pg_stop"] = time.time()  # asked to stop: renewals may fail from here
        _server(PG, "stop", pgdir)
        time.sleep(phases.outage)
        _server(PG, "restart", pgdir)
        rec.marks["pg_start"] = time.time()
        _await_held([gens["orders"], gens["invoices"]], 60)
        rec.marks["held"] = time.time()
        time.sleep(phases.after)
        time.sleep(2 * SCRAPE_S)  # the last second is scraped
        rec.marks["end"] = time.time()
    finally:
        stop.set()
        for t in threads:
            t.join()


@contextlib.contextmanager
def recorded(phases: Phases = Phases()) -> Iterator[Recording]:
    """Runs the scenario; yields while Prometheus still serves what it scraped."""
    work = tempfile.mkdtemp(prefix="idgen-dashboard-")
    os.chmod(work, 0o755)  # the servers run as other users
    pgdir, promdir, lease_dir = (os.path.join(work, d) for d in ("pg", "prom", "leases"))
    os.mkdir(lease_dir, 0o700)
    rec = Recording()
    try:
        _server(PG, "start", pgdir)
        url = Path(pgdir, "url").read_text().strip()
        with _exporter() as target, _generators(url, lease_dir) as gens:
            _server(PROMETHEUS, "start", promdir, target)
            rec.prometheus = Path(promdir, "url").read_text().strip()
            _scenario(rec, gens, pgdir, phases)
        yield rec
    finally:
        subprocess.run([PROMETHEUS, "stop", promdir], timeout=120)
        subprocess.run([PG, "stop", pgdir], timeout=120)
        shutil.rmtree(work, ignore_errors=True)
