"""idgen.metrics_text() and idgen.prometheus.IdgenCollector, read by
prometheus_client's own parser and scraped through a CollectorRegistry."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

import idgen
from idgen.prometheus import IdgenCollector

from conftest import run_python

COUNTERS = {
    "idgen_ids_issued",
    "idgen_tick_waits",
    "idgen_clock_backs",
    "idgen_lease_renewals",
    "idgen_lease_renewal_failures",
    "idgen_leases_taken",
}


def samples(text: str, name: str) -> dict[str, Sample]:
    """The samples of generators named name, by sample name (one each)."""
    out: dict[str, Sample] = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            if s.labels.get("name") == name:
                assert s.name not in out, f"two {s.name} series for {name}"
                out[s.name] = s
    return out


def test_families_types_and_labels(lease_dir: str) -> None:
    with idgen.Generator("preset=snowflake worker=7 datacenter=2 name=orders") as fixed, idgen.Generator(
        f"worker=lease lease_dir={lease_dir} name=leased"
    ) as leased, idgen.Generator("preset=ulid") as text_gen:
        fixed.next_ids(40)
        leased.next_id()
        text_gen.next_text()
        text = idgen.metrics_text()
        fams = {f.name: f for f in text_string_to_metric_families(text)}
        for c in COUNTERS:
            assert fams[c].type == "counter", c
        for g in ("idgen_drift_seconds", "idgen_lease_state", "idgen_lease_fence_seconds", "idgen_generator_info"):
            assert fams[g].type == "gauge", g
        assert all(f.documentation for f in fams.values()), "every family has HELP"
        assert "idgen_segment_left" not in fams and "idgen_store_clock_skew_seconds" not in fams, "no series: no family"

        o = samples(text, "orders")
        assert o["idgen_ids_issued_total"].value == 40
        assert o["idgen_lease_state"].value == 0
        assert "idgen_lease_fence_seconds" not in o, "no lease: no fence"
        assert o["idgen_generator_info"].labels == {
            "name": "orders",
            "generator": o["idgen_ids_issued_total"].labels["generator"],
            "preset": "snowflake",
            "store": "none",
            "datacenter": "2",
            "worker": "7",
        }
        st = leased.stats()
        held = samples(text, "leased")
        assert held["idgen_lease_state"].value == 1 and held["idgen_leases_taken_total"].value == 1
        assert 0 < held["idgen_lease_fence_seconds"].value <= 1.5, "fence ~ now + max_outage (1 s)"
        info = held["idgen_generator_info"].labels
        assert (info["store"], info["datacenter"], info["worker"]) == ("host", str(st.datacenter), str(st.worker))
        u = samples(text, "ulid")["idgen_generator_info"].labels
        assert (u["preset"], u["datacenter"], u["worker"]) == ("ulid", "", "")
        gens = {s.labels["generator"] for f in fams.values() for s in f.samples if s.labels.get("name") in ("orders", "leased", "ulid")}
        assert len(gens) == 3, "one generator number each"
    assert "name=\"orders\"" not in idgen.metrics_text(), "a closed generator's series go away"


def test_values_move_and_a_burst_waits_for_the_tick() -> None:
    # seq:2 is 4 ids a millisecond: 300 single calls must wait for ticks.
    with idgen.Generator("layout=time:41,worker:10,seq:2 worker=1 name=burst") as g:
        before = samples(idgen.metrics_text(), "burst")
        assert before["idgen_ids_issued_total"].value == 0 and before["idgen_tick_waits_total"].value == 0
        for _ in range(300):
            g.next_id()
        after = samples(idgen.metrics_text(), "burst")
        assert after["idgen_ids_issued_total"].value == 300
        assert after["idgen_tick_waits_total"].value > 0
        assert after["idgen_tick_waits_total"].value == g.stats().tick_waits
        assert after["idgen_generator_info"].labels["preset"] == "snowflake"


def test_collector_in_a_registry_scraped_by_generate_latest() -> None:
    registry = CollectorRegistry()
    registry.register(IdgenCollector())
    with idgen.Generator("preset=snowflake worker=11 name=scraped") as g:
        g.next_ids(5)
        out = generate_latest(registry).decode()
        assert "# TYPE idgen_ids_issued_total counter" in out
        assert samples(out, "scraped")["idgen_ids_issued_total"].value == 5
        g.next_ids(5)
        assert samples(generate_latest(registry).decode(), "scraped")["idgen_ids_issued_total"].value == 10
    assert "scraped" not in generate_latest(registry).decode()


def test_registering_the_collector_does_not_load_the_library() -> None:
    r = run_python(
        "from prometheus_client import REGISTRY\n"
        "from idgen import _ffi\n"
        "from idgen.prometheus import IdgenCollector\n"
        "REGISTRY.register(IdgenCollector())\n"
        "print(_ffi.loaded())\n"
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_default_generator_is_listed() -> None:
    r = run_python(
        "import idgen\n"
        "idgen.configure('preset=snowflake worker=12 name=dflt')\n"
        "idgen.next_ids(3)\n"
        "print(idgen.metrics_text())\n"
        "idgen.configure('preset=snowflake worker=13 name=dflt2')\n"
        "print(idgen.metrics_text())\n"
    )
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.split("# HELP idgen_ids_issued_total", 2)[1:]
    assert samples("# HELP idgen_ids_issued_total" + first, "dflt")["idgen_ids_issued_total"].value == 3
    assert "dflt\"" not in second and "name=\"dflt2\"" in second, "a replaced default generator's series go away"
