"""python -m idgen leases runs the idgen command itself: the same listing,
byte for byte (here the one $IDGEN_CLI names)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import idgen

GO = Path(os.environ.get("IDGEN_BUILD") or Path(__file__).resolve().parents[3] / "build") / "idgen"


def both(*args: str) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    assert GO.exists(), f"{GO} is missing: make builds it"
    env = {**os.environ, "IDGEN_CLI": str(GO)}
    go = subprocess.run([str(GO), *args], capture_output=True, text=True, env=env, timeout=60)
    py = subprocess.run([sys.executable, "-m", "idgen", *args], capture_output=True, text=True, env=env, timeout=60)
    return go, py


def unfenced(s: str) -> str:
    """s without its fences, which a renewal between two listings moves."""
    return re.sub(r'fence[=":]+[0-9T:.Z-]+', "fence", s)


def test_leases_lists_a_held_pair_as_the_go_command_does(lease_dir: str) -> None:
    cfg = f"worker=lease lease_dir={lease_dir} name=listed"
    with idgen.Generator(cfg) as g:
        g.next_id()
        st = g.stats()
        go, py = both("leases", "-c", cfg)
        assert go.returncode == 0 and py.returncode == 0, go.stderr + py.stderr
        assert unfenced(py.stdout) == unfenced(go.stdout) and py.stderr == go.stderr
        first = go.stdout.splitlines()[0]
        assert first.startswith(f"datacenter={st.datacenter} worker={st.worker} state=held fence=")
        assert first.endswith(f" holder={socket.gethostname()}:{os.getpid()}")
        assert go.stdout.splitlines()[-1] == "pairs=1 held=1 blocked=0 free=0"
        go, py = both("leases", "--json", "-c", cfg)
        assert unfenced(py.stdout) == unfenced(go.stdout)
        assert [r["state"] for r in json.loads(py.stdout)] == ["held"]


def test_leases_errors_and_usage_match() -> None:
    for args in (["leases", "-c", "worker=3"], ["leases", "-n", "2"], ["leases", "extra"]):
        go, py = both(*args)
        assert (py.returncode, py.stdout, py.stderr) == (go.returncode, go.stdout, go.stderr), args
        assert go.returncode in (1, 2)
