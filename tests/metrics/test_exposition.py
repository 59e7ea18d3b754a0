"""idgen_metrics_text of a process whose generators go through every lease
state — HELD, RIDING while PostgreSQL is stopped, LOST past the fence —
read by prometheus_client's own parser and linted by `promtool check
metrics` at each step. Run by `make test-metrics` (PROMTOOL names promtool;
tests/servers/pg.sh installs and runs PostgreSQL)."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

import idgen

ROOT = Path(__file__).resolve().parents[2]
PG = str(ROOT / "tests" / "servers" / "pg.sh")


@pytest.fixture(scope="module")
def pg() -> Iterator[tuple[str, str]]:
    """A throwaway PostgreSQL: (its directory, its URL)."""
    work = tempfile.mkdtemp(prefix="idgen-metrics-")
    os.chmod(work, 0o755)  # the server runs as another user
    d = os.path.join(work, "pg")
    try:
        subprocess.run([PG, "start", d], check=True, timeout=300)
        yield d, Path(d, "url").read_text().strip()
    finally:
        subprocess.run([PG, "stop", d], timeout=120)
        subprocess.run(["rm", "-rf", work])


def promtool_ok(text: str) -> None:
    r = subprocess.run([os.environ.get("PROMTOOL", "promtool"), "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "" and r.stderr.strip() == "", f"promtool: {r.stdout}{r.stderr}\n{text}"


def scrape() -> dict[str, dict[str, Sample]]:
    """The text, linted, parsed: samples by generator name, then by sample name."""
    text = idgen.metrics_text()
    promtool_ok(text)
    out: dict[str, dict[str, Sample]] = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            byname = out.setdefault(s.labels["name"], {})
            assert s.name not in byname, f"two {s.name} series for {s.labels['name']}"
            byname[s.name] = s
    return out


def state(name: str) -> float:
    return scrape()[name]["idgen_lease_state"].value


def await_state(name: str, want: int, within: float) -> float:
    """Seconds until generator name's lease_state is want."""
    start = time.monotonic()
    while state(name) != want:
        assert time.monotonic() - start < within, f"{name}: lease_state {want} not within {within} s (now {state(name)})"
        time.sleep(0.05)
    return time.monotonic() - start


def test_every_lease_state_parses_and_lints(pg: tuple[str, str], tmp_path: Path) -> None:
    pgdir, url = pg
    lease_dir = tmp_path / "leases"
    lease_dir.mkdir(mode=0o700)
    with idgen.Generator(f"worker=lease lease_dir={lease_dir} name=host") as host, idgen.Generator(
        f"worker='{url}' lease_ttl=2s max_outage=60s name=riding"
    ) as riding, idgen.Generator(f"worker='{url}' lease_ttl=1s max_outage=3s name=lost") as lost, idgen.Generator(
        "layout=time:41,worker:10,seq:2 worker=1 name=burst"
    ) as burst:
        for g in (host, riding, lost):
            g.next_ids(100)
        for _ in range(300):  # 4 ids a millisecond: single calls wait for ticks
            burst.next_id()
        s = scrape()
        assert "s3cret" not in idgen.metrics_text(), "no password in the text"
        for name in ("host", "riding", "lost"):
            assert s[name]["idgen_lease_state"].value == 1, name
            assert s[name]["idgen_ids_issued_total"].value == 100, name
            assert s[name]["idgen_leases_taken_total"].value == 1, name
        assert s["riding"]["idgen_generator_info"].labels["store"] == "postgres"
        assert s["host"]["idgen_generator_info"].labels["store"] == "host"
        assert 55 < s["riding"]["idgen_lease_fence_seconds"].value <= 60
        assert abs(s["riding"]["idgen_store_clock_skew_seconds"].value) < 1, "same host as the database: no skew"
        assert "idgen_store_clock_skew_seconds" not in s["host"], "the host directory has no clock"
        assert s["burst"]["idgen_ids_issued_total"].value == 300
        assert s["burst"]["idgen_tick_waits_total"].value > 0
        assert s["burst"]["idgen_lease_state"].value == 0 and "idgen_lease_fence_seconds" not in s["burst"]
        time.sleep(1)
        assert scrape()["riding"]["idgen_lease_renewals_total"].value > 0, "renewals move"

        subprocess.run([PG, "stop", pgdir], check=True, timeout=120)
        try:
            await_state("riding", 2, 20)
            await_state("lost", 3, 20)
            s = scrape()
            assert s["riding"]["idgen_lease_renewal_failures_total"].value > 0
            assert s["lost"]["idgen_lease_fence_seconds"].value <= 0, "LOST: the fence is behind"
            assert s["host"]["idgen_lease_state"].value == 1, "the host directory is not affected"
            a = s["riding"]["idgen_lease_fence_seconds"].value
            time.sleep(1.5)
            b = scrape()["riding"]["idgen_lease_fence_seconds"].value
            assert b < a - 1, f"the fence stands still during the outage: {a} then {b}"
            with pytest.raises(idgen.WorkerError):
                lost.next_id()
            riding.next_id()  # RIDING still issues
        finally:
            subprocess.run([PG, "restart", pgdir], check=True, timeout=120)
        await_state("lost", 1, 30)
        await_state("riding", 1, 30)
        assert scrape()["lost"]["idgen_leases_taken_total"].value >= 1
    assert not ({"host", "riding", "lost", "burst"} & scrape().keys()), "closed generators' series go away"
