"""python -m idgen: the words of the idgen command, with the same output.

    python -m idgen next    [-n N] [-c CONFIG]
    python -m idgen decode  [-c CONFIG] [--json] [ID ...]
    python -m idgen explain [-c CONFIG]
    python -m idgen format  [-b BASE] [--fixed] ID ...
    python -m idgen parse   [-b BASE] TEXT ...
    python -m idgen leases  [-c CONFIG] [--json]

leases runs the idgen command itself ($IDGEN_CLI, else idgen on PATH):
one implementation of the store listings and their wording.

Flags may come before or after the word; CONFIG defaults to $IDGEN_CONFIG.
Exit status 0, 1 on an idgen error (message on stderr), 2 on a usage error.
bindings/python/tests/test_cli.py checks that the output matches the Go
command's byte for byte.
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import subprocess
import sys
from typing import IO, Optional, Sequence

import idgen

from ._cli_lines import _MAX_MS, _TEXT_EXPLAIN, _TEXT_FORMS, _TEXT_PRESETS, decode_one, parse_id, rfc3339

WORDS = {
    "next": "idgen next [-n N] [-c CONFIG]: print N new ids, one per line",
    "decode": "idgen decode [-c CONFIG] [--json] [ID ...]: print the fields of ids (decimal or 0x hex; stdin lines when none)",
    "explain": "idgen explain [-c CONFIG] [--svg FILE]: draw the bit layout and print its limits",
    "format": "idgen format [-b BASE] [--fixed] ID ...: print ids as text in base 2..62 (default 62)",
    "parse": "idgen parse [-b BASE] TEXT ...: print the ids that text in base 2..62 stands for",
    "leases": "idgen leases [-c CONFIG] [--json]: list the pool of a lease source as the store holds it, taking nothing",
}


class UsageError(Exception):
    pass


def usage() -> str:
    lines = ["usage:"] + ["  " + WORDS[w] for w in ("next", "decode", "explain", "format", "parse", "leases")]
    lines.append("flags may come before or after the word; CONFIG defaults to $IDGEN_CONFIG, then the defaults")
    return "\n".join(lines) + "\n"


class Opts:
    def __init__(self) -> None:
        self.word = ""
        self.config: Optional[str] = None
        self.n = 1
        self.json = False
        self.svg = ""
        self.base = 62
        self.fixed = False
        self.help = False
        self.args: list[str] = []


def parse_args(argv: Sequence[str]) -> Opts:
    o = Opts()
    i = 0
    while i < len(argv):
        a = argv[i]
        if not a.startswith("-") or a == "-" or (len(a) > 1 and a[1].isdigit()):
            if not o.word:
                if a not in WORDS:
                    raise UsageError(f'unknown word "{a}"')
                o.word = a
            else:
                o.args.append(a)
            i += 1
            continue
        name, eq, val = a.partition("=")

        def get() -> str:
            nonlocal i
            if eq:
                return val
            if i + 1 >= len(argv):
                raise UsageError(f"{name} needs a value")
            i += 1
            return argv[i]

        if name in ("-h", "--help"):
            o.help = True
        elif name in ("-c", "--config"):
            o.config = get()
        elif name == "-n":
            s = get()
            if not s.isdigit():
                raise UsageError(f'-n wants a whole number >= 0, got "{s}"')
            o.n = int(s)
        elif name == "--json":
            o.json = True
        elif name == "--svg":
            o.svg = get()
        elif name in ("-b", "--base"):
            s = get()
            try:
                o.base = int(s)
            except ValueError:
                raise UsageError(f'-b wants a number from 2 to 62, got "{s}"') from None
        elif name == "--fixed":
            o.fixed = True
        else:
            raise UsageError(f"unknown flag {name}")
        i += 1
    if o.config is None:
        o.config = os.environ.get("IDGEN_CONFIG", "")
    return o


def _pairs(config: str) -> list[tuple[str, str]]:
    """The key=value pairs of a configuration string (the library's syntax)."""
    out: list[tuple[str, str]] = []
    i, n, seps = 0, len(config), " \t\n\r\v\f;"
    while True:
        while i < n and config[i] in seps:
            i += 1
        if i >= n:
            return out
        start = i
        while i < n and config[i] not in seps and config[i] != "=":
            i += 1
        key = config[start:i]
        i += 1
        val = []
        if i < n and config[i] == "'":
            i += 1
            while i < n:
                c = config[i]
                i += 1
                if c == "\\" and i < n:
                    val.append(config[i])
                    i += 1
                    continue
                if c == "'":
                    break
                val.append(c)
        else:
            while i < n and config[i] not in seps:
                val.append(config[i])
                i += 1
        out.append((key, "".join(val)))


def _quote(v: str) -> str:
    if v and not any(c in v for c in " \t\n\r\v\f;'\\"):
        return v
    return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"


def no_lease(config: str) -> str:
    """The configuration with a fixed worker: the same layout, unit and
    epoch, taking no lease (decode and explain never lease)."""
    pairs = _pairs(config)
    keys = dict(pairs)
    if keys.get("preset") in _TEXT_PRESETS:
        return config  # text presets take no worker id or lease
    leasing = keys.get("worker", "lease") == "lease" or "://" in keys.get("worker", "")
    wall = keys.get("clock") == "wall"
    drop = {"lease_dir", "lease_ttl", "lease_table", "max_wait", "leased"}
    if leasing:
        drop |= {"worker"} | (set() if wall else {"on_clock_back"})
    kept = [f"{k}={_quote(v)}" for k, v in pairs if k not in drop]
    if leasing:
        kept.append("worker=0")
    return " ".join(kept)


_LETTERS = {"time": "t", "datacenter": "d", "worker": "w", "seq": "s", "epoch": "e", "counter": "c", "backwards": "b"}


def explain_text(resolved: str) -> str:
    """The same drawing and limits as idgen explain, from a generator's
    resolved configuration string."""
    kv = dict(_pairs(resolved))
    preset = kv["preset"]
    scheme = "session" if preset == "zk-session" else "zxid" if preset == "zxid" else "time"
    fields: list[tuple[str, int]] = []
    for part in kv["layout"].split(","):
        name, _, width = part.partition(":")
        fields.append(("seq" if name == "sequence" else name, int(width)))
    bits = sum(w for _, w in fields)
    unit = kv.get("unit", "")
    unit_ms = int(unit[:-2]) if unit.endswith("ms") else int(unit[:-1]) * 1000 if unit else 0
    epoch = int(kv.get("epoch", "0"))
    out = [f"preset={preset} layout={kv['layout']}"]
    if scheme != "zxid":
        out[0] += f" unit={unit} epoch={rfc3339(epoch)}"
    out[0] += "\n\n"
    bar = "0" * (64 - bits) + "".join(_LETTERS[k] * w for k, w in fields)
    out.append("  63" + " " * 60 + "0\n  |" + bar + "|\n")

    def plural(n: int) -> str:
        return "" if n == 1 else "s"

    if 64 - bits > 0:
        out.append("  bits %2d..%-2d  %-10s %2d bit%s  always 0 (ids are never negative)\n" % (63, bits, "-", 64 - bits, plural(64 - bits)))
    shift = bits
    info: dict[str, int] = {}
    for k, w in fields:
        shift -= w
        mx = min((1 << w) - 1, ((1 << 63) - 1) >> shift)
        info[k] = mx
        desc = f"0..{mx}"
        if k == "time":
            desc = f"units of {unit} since the epoch"
            if scheme == "session":
                desc = "low bits of the ms at opening, carried into by the sequence"
        elif k == "seq":
            desc = f"0..{mx} per tick"
        out.append("  bits %2d..%-2d  %-10s %2d bit%s  %s\n" % (shift + w - 1, shift, k, w, plural(w), desc))
    out.append("\n")
    workers = info.get("worker", 0) + 1
    dcs = info.get("datacenter", 0) + 1
    if scheme == "time":
        out.append(f"ids per second per worker: {(info['seq'] + 1) * 1000 // unit_ms}\n")
    elif scheme == "session":
        out.append("ids per second per worker: no fixed limit (the counter may run ahead of the clock)\n")
    else:
        out.append(f"ids per epoch: {info['counter']}; epochs: {info['epoch'] + 1}\n")
    if dcs > 1:
        out.append(f"workers: {dcs * workers} ({dcs} datacenters x {workers} workers)\n")
    else:
        out.append(f"workers: {workers}\n")
    if scheme == "time" and "time" in info:
        end = (info["time"] + 1) * unit_ms + epoch
        if end <= _MAX_MS:
            out.append(f"time field runs out: {rfc3339(end)} (year {_dt.datetime.fromtimestamp(end // 1000, _dt.timezone.utc).year})\n")
        else:
            out.append("time field runs out: after year 9999\n")
    return "".join(out)


def _go_command(argv: Sequence[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Runs the idgen command (Go) with argv: the words only it implements."""
    cli = os.environ.get("IDGEN_CLI") or shutil.which("idgen")
    if not cli:
        stderr.write("idgen: leases needs the idgen command (build/idgen, `make install`): "
                     "put it on PATH or name it in $IDGEN_CLI\n")
        return 1
    r = subprocess.run([cli, *argv], capture_output=True, text=True)
    stdout.write(r.stdout)
    stderr.write(r.stderr)
    return r.returncode


def run(argv: Sequence[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    try:
        o = parse_args(argv)
    except UsageError as e:
        stderr.write(f"idgen: {e}\n{usage()}")
        return 2
    if o.word == "leases":
        return _go_command(argv, stdout, stderr)
    if o.help or not o.word:
        if o.word:
            stdout.write("usage: " + WORDS[o.word] + "\n")
            return 0
        if o.help:
            stdout.write(usage())
            return 0
        stderr.write(f"idgen: which word?\n{usage()}")
        return 2
    config = o.config or ""
    try:
        if o.word == "next":
            if o.args:
                raise UsageError("next takes no arguments")
            keys = dict(_pairs(config))
            form = _TEXT_FORMS.get(keys.get("text", "dec"))
            with idgen.Generator(config) as g:
                if keys.get("preset") in _TEXT_PRESETS:
                    for _ in range(o.n):
                        stdout.write(g.next_text() + "\n")
                left = 0 if keys.get("preset") in _TEXT_PRESETS else o.n
                while left > 0:
                    chunk = g.next_ids(min(left, 4096))
                    if form is None:
                        stdout.write("\n".join(map(str, chunk)) + "\n")
                    else:
                        stdout.write("\n".join(idgen.format(i, form[0], True) for i in chunk) + "\n")
                    left -= len(chunk)
        elif o.word == "decode":
            inputs = o.args or [line for line in stdin.read().splitlines() if line.strip()]
            failed = False
            keys = dict(_pairs(config))
            with idgen.Generator(no_lease(config)) as g:
                for s in inputs:
                    try:
                        stdout.write(decode_one(g, keys, s, o.json) + "\n")
                    except idgen.IdgenError as e:
                        stdout.flush()
                        stderr.write(f"idgen: {e}\n")
                        failed = True
            if failed:
                stderr.write("idgen: some ids did not decode\n")
                return 1
        elif o.word == "explain":
            if o.args:
                raise UsageError("explain takes no arguments")
            if o.svg:
                raise UsageError("--svg is drawn by the Go command only (build/idgen explain --svg)")
            preset = dict(_pairs(config)).get("preset", "")
            if preset in _TEXT_PRESETS:
                idgen.Generator(config).close()  # the configuration is checked as the Go command checks it
                stdout.write(_TEXT_EXPLAIN[preset])
            else:
                with idgen.Generator(no_lease(config)) as g:
                    stdout.write(explain_text(g.config))
        elif o.word == "format":
            if not o.args:
                raise UsageError("format needs ids")
            for s in o.args:
                stdout.write(idgen.format(parse_id(s), o.base, o.fixed) + "\n")
        elif o.word == "parse":
            if not o.args:
                raise UsageError("parse needs text")
            for s in o.args:
                stdout.write(f"{idgen.parse(s, o.base)}\n")
    except UsageError as e:
        stderr.write(f"idgen: {e}\nusage: {WORDS[o.word]}\n")
        return 2
    except idgen.IdgenError as e:
        stderr.write(f"idgen: {e}\n")
        return 1
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    return run(sys.argv[1:] if argv is None else argv, sys.stdin, sys.stdout, sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
