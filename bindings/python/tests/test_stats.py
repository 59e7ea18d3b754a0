"""Generator.stats(): idgen_stats as a Stats, lease_state as a LeaseState."""

from __future__ import annotations

import dataclasses
import os
import stat
import time

import pytest

import idgen
from idgen import _ffi
from idgen._stats import _stats


def test_stats_struct_matches_header() -> None:
    assert [f[0] for f in _ffi.Stats._fields_] == [f.name for f in dataclasses.fields(idgen.Stats)]
    assert _ffi.Stats._fields_[0][0] == "issued" and _ffi.Stats._fields_[-1][0] == "segment_left"
    assert [int(s) for s in idgen.LeaseState] == [0, 1, 2, 3]


def test_sentinels_become_none_only_where_documented() -> None:
    raw = _ffi.Stats(*range(1, 15))
    raw.lease_state, raw.skew_ms, raw.segment_left, raw.fence_unix_ms = 2, -(1 << 63), -1, -1
    st = _stats(raw)
    assert st.lease_state is idgen.LeaseState.RIDING and st.issued == 1 and st.leases_taken == 12
    assert st.skew_ms is None and st.segment_left is None and st.fence_unix_ms == -1
    raw.skew_ms, raw.segment_left = -1, 0  # a real skew of -1 ms, an empty segment
    st = _stats(raw)
    assert st.skew_ms == -1 and st.segment_left == 0
    raw.lease_state = 4
    with pytest.raises(idgen.InternalError, match="lease state 4"):
        _stats(raw)


def test_fixed_worker_reports_none_and_counts_ids() -> None:
    with idgen.Generator("preset=snowflake worker=3 datacenter=1") as g:
        st = g.stats()
        assert st.lease_state is idgen.LeaseState.NONE
        assert (st.datacenter, st.worker) == (1, 3)
        assert st.fence_unix_ms == -1 and st.renewed_unix_ms == -1
        assert st.leases_taken == 0 and st.renewals == 0 and st.issued == 0
        assert st.skew_ms is None and st.segment_left is None
        ids = g.next_ids(100)
        assert g.stats().issued == 100
        assert g.next_id() > ids[-1]
        assert g.stats().issued == 101
        with pytest.raises(dataclasses.FrozenInstanceError):
            st.issued = 5  # type: ignore[misc]


def test_text_preset_has_no_pair() -> None:
    with idgen.Generator("preset=uuidv7") as g:
        g.next_text()
        st = g.stats()
        assert st.lease_state is idgen.LeaseState.NONE
        assert (st.datacenter, st.worker, st.fence_unix_ms) == (-1, -1, -1)


@pytest.mark.parametrize("preset", ["uuidv7", "ulid", "rocketmq"])
def test_text_ids_count_as_issued(preset: str) -> None:
    with idgen.Generator(f"preset={preset}") as g:
        for _ in range(7):
            g.next_text()
        assert g.stats().issued == 7


def test_leased_generator_reports_held_its_pair_and_fence(lease_dir: str) -> None:
    info = os.stat(lease_dir)
    assert stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
    before = int(time.time() * 1000)
    with idgen.Generator(f"preset=snowflake worker=lease lease_dir={lease_dir}") as g:
        p = g.decode(g.next_id())
        st = g.stats()
        assert st.lease_state is idgen.LeaseState.HELD
        assert (st.datacenter, st.worker) == (p.datacenter, p.worker)
        assert f"leased={st.datacenter}/{st.worker}" in g.config
        assert before < st.fence_unix_ms < before + 5000, "fence ~ now + max_outage (1s on the host)"
        assert st.leases_taken == 1 and st.issued >= 1


def test_first_fence_counts_as_renewed(lease_dir: str) -> None:
    # The take's first fence is an acknowledged write: a standing fence is
    # never reported "never renewed" (renewed_unix_ms -1) before the first
    # renewal, which lease_ttl=30s puts far off.
    before = int(time.time() * 1000)
    cfg = f"preset=snowflake worker=lease lease_dir={lease_dir} lease_ttl=30s max_outage=60s"
    with idgen.Generator(cfg) as g:
        after = int(time.time() * 1000)
        st = g.stats()
        assert st.lease_state is idgen.LeaseState.HELD and st.fence_unix_ms > before
        assert st.renewals == 0
        assert before <= st.renewed_unix_ms <= after


def test_closed_generator_raises_closed_error() -> None:
    g = idgen.Generator("preset=snowflake worker=3")
    g.close()
    with pytest.raises(idgen.ClosedError) as e:
        g.stats()
    assert e.value.code == _ffi.ECLOSED
