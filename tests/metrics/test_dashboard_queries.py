"""Every query of docs/grafana/idgen-dashboard.json, evaluated by a real
Prometheus server (tests/servers/prometheus.sh) over its real scrapes of
idgen.metrics_text() while four generators work through a PostgreSQL
outage (recording.py): each must parse and return series carrying the
labels its legend names, and the panels must show what happened — ids/s
while working, a lost lease issuing nothing, fence headroom falling
through the outage and back after it, the lease state going held,
riding, lost, held. Template variables are substituted as Grafana does
(dashboard_queries.py says how). Run by `make test-metrics`."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from dashboard_queries import Query, Window, legend, legend_labels, queries, run
from recording import Phases, Recording, recorded

Series = dict[str, list[tuple[float, float]]]  # legend name (name #generator) -> points


@pytest.fixture(scope="module")
def rec() -> Iterator[tuple[Recording, Window]]:
    with recorded(Phases()) as r:
        yield r, Window(r.marks["start"], r.marks["end"])


@pytest.fixture(scope="module")
def results(rec: tuple[Recording, Window]) -> list[tuple[Query, list[dict[str, Any]]]]:
    r, w = rec
    return [(q, run(r.prometheus, q, w)) for q in queries(w)]


def panel(results: list[tuple[Query, list[dict[str, Any]]]], title: str) -> Series:
    """A panel's series by generator name (its legend without the number)."""
    for q, res in results:
        if q.panel["title"] == title:
            return {legend(q.target, s["metric"]).split(" #")[0]: [(float(t), float(v)) for t, v in s["values"]] for s in res}
    raise AssertionError(f"no panel {title!r} in the dashboard")


def between(points: list[tuple[float, float]], a: float, b: float) -> list[float]:
    return [v for t, v in points if a <= t <= b]


def test_every_query_parses_and_returns_series(results: list[tuple[Query, list[dict[str, Any]]]]) -> None:
    assert len(results) == 11, [q.panel["title"] for q, _ in results]
    for q, res in results:
        assert "$" not in q.expr, q.expr
        assert res, f"{q.panel['title']}: {q.expr} returned no series"
        for s in res:
            missing = [lb for lb in legend_labels(q.target) if lb not in s["metric"]]
            assert not missing, f"{q.panel['title']}: series {s['metric']} lacks legend labels {missing}"
            assert s["values"], s


def test_ids_per_second_while_working(results: list[tuple[Query, list[dict[str, Any]]]], rec: tuple[Recording, Window]) -> None:
    r, _ = rec
    ids = panel(results, "Ids issued per second")
    assert set(ids) == {"orders", "invoices", "events", "tickets"}
    for name, pts in ids.items():
        working = between(pts, r.marks["start"] + 4, r.marks["pg_stop"])
        assert working and max(working) > 50, f"{name}: ids/s before the outage {working}"
    after = between(ids["orders"], r.marks["held"] + 4, r.marks["end"])
    assert after and max(after) > 50, f"orders: ids/s once held again {after}"
    assert max(between(ids["tickets"], r.marks["start"], r.marks["end"])) > 0
    waits = panel(results, "Tick waits per second")
    assert max(v for _, v in waits["events"]) > 0, "events bursts past 16 ids a millisecond: it must wait for ticks"


def test_lease_state_goes_held_riding_lost_held(results: list[tuple[Query, list[dict[str, Any]]]], rec: tuple[Recording, Window]) -> None:
    r, _ = rec
    state = panel(results, "Lease state")
    changes = {name: [v for i, (_, v) in enumerate(pts) if i == 0 or pts[i - 1][1] != v] for name, pts in state.items()}
    assert changes["orders"] == [1, 2, 3, 1], changes
    assert changes["invoices"] == [1, 2, 1], changes
    assert changes["events"] == [1], changes
    ids = panel(results, "Ids issued per second")
    lost = [t for t, v in state["orders"] if v == 3]
    assert lost and min(between(ids["orders"], lost[0], lost[-1])) == 0, "a lost lease issues nothing"


def test_fence_headroom_falls_through_the_outage(results: list[tuple[Query, list[dict[str, Any]]]], rec: tuple[Recording, Window]) -> None:
    r, _ = rec
    fence = panel(results, "Lease fence headroom")
    inv = fence["invoices"]
    before = between(inv, r.marks["start"], r.marks["pg_stop"])
    during = between(inv, r.marks["pg_stop"] + 3, r.marks["pg_start"])
    after = between(inv, r.marks["held"] + 2, r.marks["end"])
    assert min(before) > 34, f"held: fence about max_outage=40s ahead {before}"
    assert min(during) < min(before) - 6, f"riding: fence headroom falls {before} -> {during}"
    assert all(a >= b for a, b in zip(during, during[1:])), f"riding: never rising {during}"
    assert min(after) > 34, f"held again: back to about max_outage {after}"
    assert min(v for _, v in fence["orders"]) <= 0, "orders' outage outlasted its max_outage=6s"
    fails = panel(results, "Lease renewal failures per second")
    assert max(between(fails["invoices"], r.marks["pg_stop"], r.marks["pg_start"] + 1)) > 0
    assert max(between(fails["invoices"], r.marks["start"], r.marks["pg_stop"])) == 0


def test_other_panels(results: list[tuple[Query, list[dict[str, Any]]]], rec: tuple[Recording, Window]) -> None:
    r, _ = rec
    taken = panel(results, "Leases taken")
    # The store kept every record through its restart: orders, lost, renews
    # the lease it had (no re-lease); nobody switched pairs.
    assert {name: pts[-1][1] for name, pts in taken.items()} == {"orders": 0, "invoices": 0, "events": 0, "tickets": 0}
    skew = panel(results, "Store clock skew")
    assert set(skew) == {"orders", "invoices"}, skew.keys()
    assert all(abs(v) < 1 for pts in skew.values() for _, v in pts), "PostgreSQL runs on this host's clock"
    assert set(panel(results, "Segment values left")) == {"tickets"}
    assert min(v for _, v in panel(results, "Segment values left")["tickets"]) >= 0
    assert set(panel(results, "Clock steps back handled")) == {"orders", "invoices", "events", "tickets"}
    drift = panel(results, "Drift ahead of the clock")
    assert all(0 <= v < 1 for pts in drift.values() for _, v in pts), "no generator borrows: never far ahead"
    table = next(res for q, res in results if q.panel["title"] == "Generators")
    info = {s["metric"]["name"]: (s["metric"]["preset"], s["metric"]["store"]) for s in table}
    assert set(info) == {"orders", "invoices", "events", "tickets"}, info
    assert [info[n] for n in ("orders", "invoices", "events")] == [("snowflake", "postgres"), ("snowflake", "postgres"), ("snowflake", "host")], info
    assert info["tickets"][0] == "segment", info
