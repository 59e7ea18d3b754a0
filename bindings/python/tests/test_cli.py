"""python -m idgen and the Go command (build/idgen) say the same things:
the same words, the same stdout byte for byte, the same exit codes; for
python -m idgen runs the copy of that command the wheel carries."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import idgen._ffi


def _without_cli() -> dict[str, str]:
    """The environment without $IDGEN_CLI: python -m idgen runs the
    command inside the package."""
    return {k: v for k, v in os.environ.items() if k != "IDGEN_CLI"}


GO = Path(os.environ.get("IDGEN_BUILD") or Path(__file__).resolve().parents[3] / "build") / "idgen"

CASES = [
    ["decode", "-c", "preset=snowflake", "910499571847892992", "1", "0xca2be895c239000"],
    ["decode", "910499571847892992", "--config=preset=snowflake worker=lease"],
    ["-c", "preset=zxid", "decode", "--json", "21474836487"],
    ["decode", "--json", "-c", "preset=leaf", "910499571847892992"],
    ["decode", "-c", "preset=zk-session worker=3", "216172782113783808"],
    ["decode", "-c", "preset=snowflake", "12abc"],
    ["decode", "-c", "preset=snowflake", "-5"],
    ["format", "--fixed", "910499571847892992", "0"],
    ["format", "-b", "36", "35", "1234567"],
    ["parse", "15G63YLn9Ae", "zz"],
    ["parse", "-b", "10", "12#4"],
    ["bogus"],
    ["next", "--nope"],
    ["next", "-c", "bogus=1"],
    ["format"],
    ["decode", "-h"],
] + [["explain", "-c", f"preset={p}"] for p in
     ("snowflake", "hutool", "mybatis-plus", "leaf", "baidu", "sonyflake", "sonyflake-v2", "js53", "zk-session", "zxid")] + [
    ["explain", "-c", "layout=time:40,worker:3,seq:20 unit=1s epoch=2020-01-01T00:00:00Z"],
    ["explain", "-c", "layout=time:50,seq:13 unit=24h epoch=0"],
    ["explain", "-c", "preset=baidu-cached layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00"],
    ["explain", "-c", "layout=time:41,backwards:2,worker:8,seq:12"],
    ["decode", "-c", "layout=time:41,backwards:2,worker:8,seq:12", "2125144375465881600"],
    # text ids: the text presets and the text= forms
    ["explain", "-c", "preset=rocketmq"],
    ["explain", "-c", "preset=rocketmq-v1"],
    ["explain", "-c", "preset=rocketmq worker=3"],
    ["decode", "-c", "preset=rocketmq tz=UTC", "0A010203123412345678783ABE6F0000", "0a010203123412345678783abe6f0001"],
    ["decode", "--json", "-c", "preset=rocketmq tz=UTC", "FD0000000000000000000000000000025587E2D61E667839E70D0000"],
    ["decode", "--json", "-c", "preset=rocketmq-v1", "0102FC000000011170000000010000002A"],
    ["decode", "-c", "preset=rocketmq-v1", "0102FC00000001117000000001000000", "zz"],
    ["decode", "-c", "preset=snowflake text=base62", "15G63YLn9Ae", "910499571847892992"],
    ["decode", "-c", "preset=snowflake text=base36", "06x155swzxs74", "6wvgiunwrrsw0"],
    ["explain", "-c", "preset=uuidv7"],
    ["explain", "-c", "preset=ulid"],
    ["decode", "-c", "preset=uuidv7", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "017f22e2-79b0-4cc3-98c4-dc0c0c07398f"],
    ["decode", "--json", "-c", "preset=ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAI"],
    ["next", "-c", "preset=uuidv7 worker=1"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(a)[:60] for a in CASES])
def test_same_output_as_the_go_command(args: list[str]) -> None:
    assert GO.exists(), f"{GO} is missing: make builds it"
    env = {**_without_cli(), "IDGEN_CONFIG": ""}
    go = subprocess.run([str(GO), *args], capture_output=True, text=True, env=env, timeout=60)
    py = subprocess.run([sys.executable, "-m", "idgen", *args], capture_output=True, text=True, env=env, timeout=60)
    assert py.stdout == go.stdout
    assert py.returncode == go.returncode, (py.stderr, go.stderr)
    if go.returncode:
        assert py.stderr.splitlines()[0] == go.stderr.splitlines()[0]


def test_next_prints_ids_like_the_go_command() -> None:
    for cmd in ([str(GO)], [sys.executable, "-m", "idgen"]):
        r = subprocess.run([*cmd, "next", "-n", "5000", "-c", "layout=time:41,seq:22 worker=0"],
                           capture_output=True, text=True, timeout=60, env=_without_cli())
        ids = [int(x) for x in r.stdout.split()]
        assert r.returncode == 0 and len(ids) == 5000 and ids == sorted(set(ids))


def test_next_prints_text_ids_like_the_go_command() -> None:
    cfgs = {"preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC": 32,
            "preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=1": 34,
            "preset=snowflake worker=1 text=base62": 11,
            "preset=uuidv7": 36,
            "preset=ulid": 26}
    for cfg, width in cfgs.items():
        outs = []
        for cmd in ([str(GO)], [sys.executable, "-m", "idgen"]):
            r = subprocess.run([*cmd, "next", "-n", "300", "-c", cfg], capture_output=True, text=True, timeout=60,
                               env=_without_cli())
            assert r.returncode == 0, r.stderr
            lines = r.stdout.split()
            assert len(lines) == 300 and len(set(lines)) == 300
            assert all(len(x) == width for x in lines)
            outs.append(lines)
        if "rocketmq " in cfg:  # same fixed part and counter sequence in both
            assert [x[:20] + x[28:] for x in outs[0]] == [x[:20] + x[28:] for x in outs[1]]


def test_the_command_comes_with_the_package() -> None:
    path = Path(idgen._ffi.cli_path())
    assert path.parent == Path(idgen.__file__).parent and os.access(path, os.X_OK), path
    # the same program as build/idgen: the same usage text, also in argv[0]'s stead
    r = subprocess.run([str(path), "-h"], capture_output=True, text=True, env=_without_cli(), timeout=60)
    g = subprocess.run([str(GO), "-h"], capture_output=True, text=True, env=_without_cli(), timeout=60)
    assert r.returncode == 0 and r.stdout == g.stdout and "leases" in r.stdout


def test_decode_reads_stdin_and_explain_draws_svg_like_the_go_command(tmp_path: Path) -> None:
    ids = "910499571847892992\n\n0xca2be895c239000\n"
    outs = []
    for name, cmd in (("go", [str(GO)]), ("py", [sys.executable, "-m", "idgen"])):
        r = subprocess.run([*cmd, "decode", "-c", "preset=snowflake"], input=ids, capture_output=True,
                           text=True, env=_without_cli(), timeout=60)
        assert r.returncode == 0 and len(r.stdout.splitlines()) == 2, r.stderr
        svg = tmp_path / f"{name}.svg"
        e = subprocess.run([*cmd, "explain", "-c", "preset=leaf", "--svg", str(svg)], capture_output=True,
                           text=True, env=_without_cli(), timeout=60)
        assert e.returncode == 0, e.stderr
        outs.append((r.stdout, e.stdout, svg.read_text()))
    assert outs[0] == outs[1] and outs[0][2].startswith("<svg")


def test_idgen_cli_names_another_command(tmp_path: Path) -> None:
    echo = tmp_path / "echo-args"
    echo.write_text('#!/bin/sh\nprintf "%s|" "$@"; cat; exit 7\n')
    echo.chmod(0o755)
    env = {**os.environ, "IDGEN_CLI": str(echo)}
    r = subprocess.run([sys.executable, "-m", "idgen", "decode", "a b", "", "-c", "x=1"], input="in",
                       capture_output=True, text=True, env=env, timeout=60)
    assert (r.returncode, r.stdout) == (7, "decode|a b||-c|x=1|in")
    env["IDGEN_CLI"] = str(tmp_path / "missing")
    r = subprocess.run([sys.executable, "-m", "idgen", "next"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    assert "missing" in r.stderr and "IDGEN_CLI" in r.stderr
