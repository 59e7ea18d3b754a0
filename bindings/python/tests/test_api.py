from __future__ import annotations

import array
import datetime as dt
import random
import sys
import threading
from typing import Any

import pytest

import idgen
from idgen import _ffi


def test_version_matches_library() -> None:
    assert idgen.__version__ == idgen.library_version()


def test_seed_004_example() -> None:
    with idgen.Generator("preset=snowflake") as g:
        p = g.decode(910499571847892992)
        assert p == idgen.Parts(910499571847892992, 1505914988849, 1505914988849 - 1288834974657, -1, 17, 25, 0)
        assert p.datetime == dt.datetime(2017, 9, 20, 13, 43, 8, 849000, tzinfo=dt.timezone.utc)
        assert g.compose(unix_ms=1505914988849, datacenter=17, worker=25, sequence=0) == 910499571847892992
        assert g.compose(time=p.time, datacenter=17, worker=25) == 910499571847892992


def test_next_ids_increase_and_carry_the_config() -> None:
    with idgen.Generator("preset=leaf worker=7") as g:
        assert "worker=7" in g.config and "preset=leaf" in g.config
        a = g.next_id()
        ids = g.next_ids(10000)
        assert len(ids) == 10000
        assert all(x < y for x, y in zip([a] + ids, ids))
        assert {g.decode(i).worker for i in ids[:50]} == {7}
        assert g.next_ids(0) == []


@pytest.mark.parametrize("make", [
    lambda n: array.array("q", bytes(8 * n)),
    lambda n: array.array("l", bytes(8 * n)),
    lambda n: memoryview(bytearray(8 * n)).cast("q"),
])
def test_next_ids_into_fills_in_place(make: Any) -> None:
    buf = make(5000)
    with idgen.Generator("layout=time:41,seq:22") as g:
        g.next_ids_into(buf)
        vals = list(buf)
        assert all(x < y for x, y in zip(vals, vals[1:]))
        assert vals[0] > 0
        g.next_ids_into(make(0))


def test_next_ids_into_numpy() -> None:
    np = pytest.importorskip("numpy")
    a = np.zeros(100000, dtype=np.int64)
    with idgen.Generator() as g:
        g.next_ids_into(a)
        assert (np.diff(a) > 0).all()
        with pytest.raises(TypeError):
            g.next_ids_into(np.zeros(10, dtype=np.int32))
        with pytest.raises(TypeError):
            g.next_ids_into(a[::2])


def test_next_ids_into_rejects_bad_buffers() -> None:
    with idgen.Generator() as g:
        with pytest.raises(TypeError):
            g.next_ids_into(bytes(80))  # read-only
        with pytest.raises(TypeError):
            g.next_ids_into(bytearray(80))  # bytes, not int64
        with pytest.raises(TypeError):
            g.next_ids_into(array.array("i", [0] * 4))
        with pytest.raises(TypeError):
            g.next_ids_into([0, 0])


def test_every_preset_opens() -> None:
    for cfg in ["preset=snowflake", "preset=hutool", "preset=leaf", "preset=sonyflake",
                "preset=zk-session worker=3", "preset=zxid", "preset=baidu"]:
        with idgen.Generator(cfg) as g:
            assert cfg.split()[0] in g.config


def test_errors_map_to_classes() -> None:
    with pytest.raises(idgen.ConfigError) as e:
        idgen.Generator("worker=99")
    assert e.value.code == -1 and "worker" in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(idgen.ConfigError, match="bogus"):
        idgen.Generator("bogus=1")
    with idgen.Generator("preset=baidu worker=0") as g:
        with pytest.raises(idgen.TimeOverflowError, match="2024-11-20") as e2:
            g.next_id()
        assert e2.value.code == -3
        with pytest.raises(idgen.TimeOverflowError):
            g.next_ids(3)
    with idgen.Generator("worker=0") as g:
        with pytest.raises(idgen.RangeError) as e3:
            g.compose(unix_ms=1505914988849, worker=32)
        assert isinstance(e3.value, ValueError) and e3.value.code == -6
        with pytest.raises(idgen.ConfigError):
            g.compose(unix_ms=1505914988849, epoch=3)
        with pytest.raises(idgen.InvalidIdError, match="negative") as e4:
            g.decode(-1)
        assert isinstance(e4.value, ValueError) and not isinstance(e4.value, idgen.ConfigError)
        with pytest.raises(idgen.InvalidIdError, match="-1"):
            idgen.decode(-1)
        with pytest.raises(idgen.RangeError):
            g.decode(1 << 64)
        with pytest.raises(TypeError):
            g.decode("12")  # type: ignore[arg-type]
        with pytest.raises(idgen.ConfigError):
            g.next_ids(-1)
    with pytest.raises(idgen.ConfigError, match="lease_dir.*/nonexistent/x"):
        idgen.Generator("worker=lease lease_dir=/nonexistent/x")
    with pytest.raises(idgen.ConfigError):
        idgen.Generator("preset=snowflake\x00 worker=3")


def test_clock_error_from_a_lease_record_ahead(lease_dir: str) -> None:
    import glob

    # A pool of one pair: in a pool with a never-used pair, the open takes it.
    cfg = f"layout=time:41,seq:22 worker=lease lease_dir={lease_dir}"
    with idgen.Generator(cfg) as g:
        g.next_id()
    import zlib

    (path,) = glob.glob(f"{lease_dir}/*.lease")
    body = "idgen-lease 1 %020d %03d " % (1 << 41, 0)
    with open(path, "w") as f:
        f.write("%s%08x\n" % (body, zlib.crc32(body.encode())))
    with pytest.raises(idgen.ClockError, match="max_wait") as e:
        idgen.Generator(f"{cfg} max_wait=20ms")
    assert e.value.code == -2


def test_close_is_idempotent_and_use_after_close_raises() -> None:
    g = idgen.Generator()
    g.next_id()
    g.close()
    g.close()
    with pytest.raises(idgen.ClosedError) as e:
        g.next_id()
    assert e.value.code == -4
    with pytest.raises(idgen.ClosedError):
        g.next_ids(2)
    with pytest.raises(idgen.ClosedError):
        g.decode(1)
    with pytest.raises(idgen.ClosedError):
        _ = g.config
    assert "closed" in repr(g)


def test_finaliser_closes_a_dropped_generator(lease_dir: str) -> None:
    import gc

    cfg = f"layout=time:41,worker:1,seq:21 worker=lease lease_dir={lease_dir}"
    g1 = idgen.Generator(cfg)
    g2 = idgen.Generator(cfg)
    with pytest.raises(idgen.WorkerError, match="all 2 pairs"):
        idgen.Generator(cfg)
    del g1
    gc.collect()
    g3 = idgen.Generator(cfg)  # the finaliser released g1's lease
    assert g3.decode(g3.next_id()).worker != g2.decode(g2.next_id()).worker
    g2.close()
    g3.close()


def test_module_level_default_generator() -> None:
    idgen.configure("preset=snowflake datacenter=3 worker=4")
    a = idgen.next_id()
    p = idgen.decode(a)
    assert (p.datacenter, p.worker) == (3, 4)
    ids = idgen.next_ids(1000)
    assert ids[0] > a and all(x < y for x, y in zip(ids, ids[1:]))
    with pytest.raises(idgen.ConfigError):
        idgen.configure("preset=nope")
    assert idgen.decode(idgen.next_id()).worker == 4, "a failed configure keeps the old one"


def test_text_forms() -> None:
    assert idgen.format(910499571847892992) == "15G63YLn9Ae"
    assert idgen.format(35, base=36, fixed_width=True) == "000000000000z"
    assert idgen.parse("15G63YLn9Ae") == 910499571847892992
    assert idgen.parse("z", 36) == 35
    ids = sorted([5, 62, 1 << 40, (1 << 63) - 1, 0])
    texts = [idgen.format(i, fixed_width=True) for i in ids]
    assert texts == sorted(texts)
    for bad in ["", "12 3", "-1", "é", "a\x00b"]:
        with pytest.raises(idgen.ConfigError):
            idgen.parse(bad)
    with pytest.raises(idgen.RangeError):
        idgen.parse("zzzzzzzzzzzz")
    with pytest.raises(idgen.ConfigError):
        idgen.format(-1)
    with pytest.raises(idgen.ConfigError):
        idgen.format(1, base=63)
    with pytest.raises(TypeError):
        idgen.parse(b"12")  # type: ignore[arg-type]


@pytest.mark.parametrize("config", ["layout=time:41,seq:22", "preset=snowflake worker=1"])
def test_eight_threads_share_one_generator(config: str) -> None:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads inside next_id as often as possible
    try:
        g = idgen.Generator(config)
        results: list[list[int]] = [[] for _ in range(8)]

        def work(k: int) -> None:
            out, buf, rnd = results[k], array.array("q", bytes(8 * 7)), random.Random(k)
            for _ in range(20_000):
                x = rnd.random()
                if x < 0.002:
                    out.extend(g.next_ids(5))
                elif x < 0.004:
                    g.next_ids_into(buf)
                    out.extend(buf)
                else:
                    out.append(g.next_id())

        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        g.close()
    finally:
        sys.setswitchinterval(old)
    everything = [i for r in results for i in r]
    assert len(everything) >= 8 * 20_000
    assert len(everything) == len(set(everything))
    for r in results:
        assert all(a < b for a, b in zip(r, r[1:]))


def test_library_override_is_honoured(tmp_path: Any) -> None:
    from conftest import run_python

    r = run_python("import idgen; idgen.next_id()", env={"IDGEN_LIBRARY": str(tmp_path / "missing.so")})
    assert r.returncode != 0 and "missing.so" in r.stderr and "IDGEN_LIBRARY" in r.stderr


def test_import_does_not_load_the_library() -> None:
    from conftest import run_python

    r = run_python("import idgen, idgen._ffi as f; print(f.loaded()); idgen.next_id(); print(f.loaded())")
    assert r.stdout.split() == ["False", "True"], r.stderr


def test_python_dash_m() -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "idgen", "next", "-n", "3", "--config", "worker=5"],
                       capture_output=True, text=True, timeout=60)
    ids = [int(x) for x in r.stdout.split()]
    assert r.returncode == 0 and len(ids) == 3 and ids == sorted(set(ids)), r.stderr
    r = subprocess.run([sys.executable, "-m", "idgen", "decode", "--config", "preset=zxid", "21474836487"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "epoch=5" in r.stdout and "sequence=7" in r.stdout and "time=" not in r.stdout, r.stdout


def test_cli() -> None:
    from conftest import run_python

    r = run_python("from idgen.__main__ import main; raise SystemExit(main(['next', '-n', '3', '--config', 'worker=5']))")
    ids = [int(x) for x in r.stdout.split()]
    assert r.returncode == 0 and len(ids) == 3 and ids == sorted(ids)
    r = run_python("from idgen.__main__ import main; raise SystemExit(main(['decode', '910499571847892992', '--config', 'preset=snowflake']))")
    assert r.returncode == 0
    assert "datacenter=17 worker=25 sequence=0" in r.stdout and "time=2017-09-20T13:43:08.849Z" in r.stdout
    r = run_python("from idgen.__main__ import main; raise SystemExit(main(['next', '--config', 'bogus=1']))")
    assert r.returncode == 1 and "bogus" in r.stderr


def test_parts_struct_matches_header() -> None:
    assert [f[0] for f in _ffi.Parts._fields_] == list(idgen.Parts._fields)


def test_the_defaults_lease() -> None:
    with idgen.Generator() as a, idgen.Generator("") as b:
        assert "worker=lease" in a.config and "leased=" in a.config
        assert a.config != b.config, "two default generators hold two pairs"
