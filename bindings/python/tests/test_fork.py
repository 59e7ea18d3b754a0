from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from array import array

import pytest

import idgen
import mp_workers
from conftest import run_python


def _wait(pid: int, limit: float) -> int:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child hung")


def test_os_fork_child_gets_forked_error_at_once() -> None:
    g = idgen.Generator("preset=snowflake worker=2")
    before = g.next_id()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        code = 0
        try:
            g.next_id()
            code = 10
        except idgen.ForkedError as e:
            if e.code != -7 or "spawn" not in str(e) or "forkserver" not in str(e):
                code = 11
        for call in (idgen.next_id, lambda: idgen.Generator(), lambda: g.next_ids(3), lambda: idgen.parse("1")):
            try:
                call()
                code = 12
            except idgen.ForkedError:
                pass
        g.close()  # harmless
        os.write(w, b"done")
        os._exit(code)
    os.close(w)
    start = time.monotonic()
    status = _wait(pid, 1.0)
    assert time.monotonic() - start < 1.0
    assert os.read(r, 10) == b"done"
    os.close(r)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert g.next_id() > before, "the parent still works"
    g.close()


def test_multiprocessing_fork_after_load_raises() -> None:
    idgen.next_id()  # this process has loaded the library
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        results = pool.map(mp_workers.try_next, range(2), chunksize=1)
    assert all(r.startswith("forked: ") for r in results), results


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_spawn_and_forkserver_eight_workers_no_duplicates(method: str) -> None:
    ctx = mp.get_context(method)
    n = 125_000  # 8 x 125k = 1M ids
    with ctx.Pool(8) as pool:
        chunks = pool.starmap(mp_workers.make_ids, [(f"preset=snowflake worker={w}", n) for w in range(8)])
    ids = array("q")
    for c in chunks:
        ids.frombytes(c)
    assert len(ids) == 1_000_000
    assert len(set(ids)) == len(ids)
    assert min(ids) > 0


def test_spawn_eight_lease_workers_no_duplicates(lease_dir: str) -> None:
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(8)
    queue = ctx.Queue()
    config = f"preset=snowflake worker=lease lease_dir={lease_dir}"
    procs = [ctx.Process(target=mp_workers.lease_worker, args=(config, 125_000, barrier, queue)) for _ in range(8)]
    for p in procs:
        p.start()
    chunks = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    ids = array("q")
    workers = set()
    with idgen.Generator("preset=snowflake") as g:
        for c in chunks:
            a = array("q")
            a.frombytes(c)
            p0 = g.decode(a[0])
            workers.add((p0.datacenter, p0.worker))
            ids.extend(a)
    assert len(workers) == 8, "eight leases held at once are eight distinct ids"
    assert len(set(ids)) == len(ids) == 1_000_000


def test_import_before_fork_is_harmless() -> None:
    code = """
import os, idgen
pid = os.fork()
if pid == 0:
    i = idgen.Generator('worker=3').next_id()
    os._exit(0 if i > 0 else 1)
_, status = os.waitpid(pid, 0)
print(os.WEXITSTATUS(status))
"""
    r = run_python(code, timeout=20)
    assert r.stdout.strip() == "0", r.stderr
