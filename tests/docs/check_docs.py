#!/usr/bin/env python3
"""make test-docs: the documentation tests itself.

Every fenced block of README.md, docs/*.md, bindings/python/README.md,
bindings/java/README.md and bindings/node/README.md that a reader could
run is run, against the built tools, the way Go's Example functions and
Python's doctest keep examples true:

  ```console   `$ command` lines (a trailing `\\` continues one), each followed
               by the output it prints; run with bash in a scratch directory
               whose PATH has `idgen` (IDGEN_BUILD/idgen) and `python`
               (the venv holding the wheel) first. stdout and stderr are
               compared, together, with the lines shown (trailing blanks
               ignored); the exit status must be 0.
  ```c         compiled with -Wall -Wextra -Werror against include/idgen.h
               and IDGEN_BUILD/libidgen.so, then run (exit status 0). A
               fragment without main() is put into one: its #include lines
               first (stdio, stdlib, string, stdint are given), the rest as
               the body of `int main(void)`.
  ```cpp       the same with g++ -std=c++17 (include/idgen.hpp).
  ```go        a whole program (package main), built in a module of its own
               that imports github.com/idgen/idgen from this checkout (a
               replace directive) and run; exit status 0.
  ```python    run with the venv's python (the installed wheel, never the
               source tree), exactly as written (nothing is given: each
               block imports what it uses); exit status 0.
  ```pycon     run as a doctest (ELLIPSIS on).
  ```js        (or ```javascript, ```mjs) run with node as written, an ES
               module when it has an import line; `idgen` is bindings/node
               (make test-docs installs its koffi) on IDGEN_BUILD/libidgen.so;
               exit status 0.
  ```java      compiled against the packaged jar (bindings/java/target/
               idgen-*.jar, or $IDGEN_DOCS_JAR) and JNA, and run on the java
               on PATH (JNA) and, when $JDK25/bin/java exists, on it too
               (java.lang.foreign, with --enable-native-access=ALL-UNNAMED),
               both with -Didgen.library=IDGEN_BUILD/libidgen.so. A fragment
               without a class is put into main() of one; its import lines
               first (org.idgen.* is given).

A block may be preceded by one marker comment (blank lines between allowed):

  <!-- docs-test: skip <why> -->        not run (reported as skipped)
  <!-- docs-test: pattern T=RE ... -->  in the shown output, each literal T
                                        stands for anything matching the
                                        regular expression RE (for ids,
                                        times, pids: what differs each run);
                                        RE may name a shape: ID (a decimal
                                        id), UUIDV7, ULID, ROCKETMQ (32 or
                                        56 upper hex)
  <!-- docs-test: c-header -->          a C block that restates declarations
                                        of include/idgen.h: compiled beside
                                        the header, and every struct must
                                        have the header's size and field
                                        offsets, every #define its value
  <!-- docs-test: compile-only -->      C/C++/Java: compile, do not run
  <!-- docs-test: project P; file F -->  any block: written, as shown, to F
                                        (a relative path) in project P's
                                        directory, a scratch directory of
                                        its own; not run by itself
  <!-- docs-test: project P -->         a console block: run in project P's
                                        directory, after the files written
                                        before it (in the order of the
                                        files given), with PROJECT_TIMEOUT:
                                        an application a reader builds
                                        from an empty directory

Directives combine with `;`. Unknown directives are errors, and so is a
pattern whose literal the output does not contain.

A ```sh/```bash block is not run (it is for commands whose output is not
shown), but an `idgen` or `python -m idgen` line followed by a `# ...`
comment line there is an error: that is output, and belongs in a
```console block where it is checked.

Environment: IDGEN_BUILD (default <repo>/build) holds idgen, libidgen.so
and venv/; IDGEN_DOCS_JAR, IDGEN_DOCS_JNA override the jar and JNA's jar;
JDK25 (default /usr/lib/jvm/temurin-25-jdk-amd64) the second JDK.
Usage: check_docs.py [-v] [--list] [FILE.md ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time


from docblocks import Block, DEFAULT_FILES, DocError, PROJECT_TIMEOUT, ROOT, RUN_LANGS, TIMEOUT, extract, lint_sh  # noqa: E402
from toolenv import Env, run, setup  # noqa: E402
from snippets import check_c, check_go, check_java, check_js, check_python  # noqa: E402

# ---- checks ----------------------------------------------------------------

def normalize(text: str) -> str:
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)  # colour codes a reader never sees (Debian's mvn resets them on exit)
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    while lines and lines[0] == "":
        lines.pop(0)
    return "\n".join(lines)


# Shapes a pattern may name instead of spelling a regular expression.
SHAPES = {
    "ID": r"[0-9]{1,19}",                                                   # a 64-bit id in decimal
    "UUIDV7": r"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
    "ULID": r"[0-7][0-9A-HJKMNP-TV-Z]{25}",
    "ROCKETMQ": r"[0-9A-F]{32}|[0-9A-F]{56}",                               # IPv4 or IPv6 host
}


def parse_patterns(b: Block) -> list[tuple[str, str]]:
    pats = []
    for word in b.directives.get("pattern", "").split():
        lit, eq, rx = word.partition("=")
        if not eq or not lit or not rx:
            raise DocError(f"{b.where}: pattern {word!r} is not LITERAL=REGEX (or LITERAL=" + "|".join(SHAPES) + ")")
        rx = SHAPES.get(rx, rx)
        try:
            re.compile(rx)
        except re.error as e:
            raise DocError(f"{b.where}: pattern {word!r}: {e}") from None
        pats.append((lit, rx))
    return sorted(pats, key=lambda p: -len(p[0]))


def matches(expected: str, actual: str, pats: list[tuple[str, str]]) -> bool:
    if not pats:
        return expected == actual
    rx = dict(pats)
    parts = re.split("(" + "|".join(re.escape(p) for p, _ in pats) + ")", expected)
    full = "".join(f"(?:{rx[p]})" if k % 2 else re.escape(p) for k, p in enumerate(parts))
    return re.fullmatch(full, actual) is not None


def console_commands(b: Block) -> list[tuple[int, str, str]]:
    cmds: list[tuple[int, str, list[str]]] = []
    lines = b.text.split("\n")
    k = 0
    while k < len(lines):
        ln = lines[k]
        if ln.startswith("$ ") or ln == "$":
            cmd, at = ln[2:], k
            while cmd.endswith("\\") and k + 1 < len(lines):
                k += 1
                cmd = cmd[:-1] + "\n" + lines[k]
            cmds.append((b.line + 1 + at, cmd, []))
        elif cmds:
            cmds[-1][2].append(ln)
        elif ln.strip():
            raise DocError(f"{b.where}: a console block must begin with a `$ command` line")
        k += 1
    return [(n, c, normalize("\n".join(o))) for n, c, o in cmds]


def check_console(b: Block, env: Env) -> tuple[int, list[str]]:
    pats = parse_patterns(b)
    cmds = console_commands(b)
    shown = "\n".join(o for _, _, o in cmds)
    for lit, _ in pats:
        if lit not in shown:
            raise DocError(f"{b.where}: pattern literal {lit!r} appears in no output of the block")
    timeout = PROJECT_TIMEOUT if "project" in b.directives else TIMEOUT
    cwd = project_dir(b, env, create=False) if "project" in b.directives else tempfile.mkdtemp(dir=env.work, prefix="console-")
    fails = []
    for line, cmd, want in cmds:
        r = run(cmd, env, cwd, shell=True, timeout=timeout)
        got = normalize(r.stdout)
        if r.returncode != 0 or not matches(want, got, pats):
            fails.append(f"{b.path}:{line}: $ {cmd}\n" + indent_diff(want, got, r.returncode, b.directives.get("pattern", "").split()))
        elif env.verbose:
            print(f"  ok {b.path}:{line}: $ {cmd}")
    return len(cmds), fails


def project_dir(b: Block, env: Env, create: bool) -> str:
    name = b.directives.get("project", "")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise DocError(f"{b.where}: project {name!r}: want a name of letters, digits, '.', '_' or '-'")
    d = os.path.join(env.work, "project-" + name)
    if not create and not os.path.isdir(d):
        raise DocError(f"{b.where}: project {name!r} has no file written before this block")
    os.makedirs(d, exist_ok=True)
    return d


def write_file(b: Block, env: Env) -> tuple[int, list[str]]:
    """A `file F` block: its text, as shown, becomes F in its project's directory."""
    rel = b.directives.get("file", "")
    if not rel or os.path.isabs(rel) or ".." in rel.split("/"):
        raise DocError(f"{b.where}: file {rel!r}: want a relative path inside the project")
    if "project" not in b.directives:
        raise DocError(f"{b.where}: file {rel!r} without a project")
    path = os.path.join(project_dir(b, env, create=True), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(b.text + "\n")
    if env.verbose:
        print(f"  wrote {b.where}: {b.directives['project']}/{rel}")
    return 1, []


def indent_diff(want: str, got: str, rc: int, pats: list[str]) -> str:
    s = "    shown:\n" + "".join(f"      {ln}\n" for ln in want.split("\n"))
    s += f"    printed (exit status {rc}):\n" + "".join(f"      {ln}\n" for ln in got.split("\n"))
    if pats:
        s += "    patterns: " + " ".join(pats) + "\n"
    return s.rstrip("\n")


CHECKERS = {"console": check_console, "shell-session": check_console, "c": check_c, "cpp": check_c,
            "c++": check_c, "go": check_go, "python": check_python, "py": check_python, "pycon": check_python,
            "java": check_java, "js": check_js, "javascript": check_js, "mjs": check_js}


# ---- main ------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="markdown files, relative to the repository (default: all)")
    ap.add_argument("--list", action="store_true", help="list the examples, run nothing")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    files = args.files or DEFAULT_FILES
    build = os.path.abspath(os.environ.get("IDGEN_BUILD") or os.path.join(ROOT, "build"))

    failures: list[str] = []
    per_file: list[tuple[str, dict[str, int], list[str]]] = []
    blocks: dict[str, list[Block]] = {}
    try:
        for p in files:
            blocks[p] = extract(p)
            for b in blocks[p]:
                if b.lang in ("sh", "bash", "shell", "") and "skip" not in b.directives:
                    failures += lint_sh(b)
                if b.directives and b.lang not in RUN_LANGS and "skip" not in b.directives and "file" not in b.directives:
                    failures.append(f"{b.where}: a docs-test marker before a ```{b.lang} block, which is never run")
    except (DocError, OSError) as e:
        print(f"docs: {e}", file=sys.stderr)
        return 1

    if args.list:
        for p, bs in blocks.items():
            for b in bs:
                if b.lang in RUN_LANGS or "file" in b.directives:
                    what = "skip: " + b.directives["skip"] if "skip" in b.directives else ", ".join(b.directives) or "run"
                    print(f"{b.where}: {b.lang} ({what})")
        return 0

    try:
        env = setup(build, args.verbose)
    except DocError as e:
        print(f"docs: {e}", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    total = 0
    try:
        for p in files:
            counts: dict[str, int] = {}
            skipped: list[str] = []
            for b in blocks[p]:
                if b.lang not in CHECKERS and "file" not in b.directives:
                    continue
                if "skip" in b.directives:
                    skipped.append(f"{b.where} ({b.directives['skip'] or 'no reason given'})")
                    continue
                try:
                    n, fails = (write_file if "file" in b.directives else CHECKERS[b.lang])(b, env)
                except DocError as e:
                    n, fails = 1, [str(e)]
                kind = "files" if "file" in b.directives else {"console": "commands", "shell-session": "commands", "cpp": "c++", "c++": "c++",
                        "py": "python", "pycon": "python", "javascript": "js", "mjs": "js"}.get(b.lang, b.lang)
                counts[kind] = counts.get(kind, 0) + n
                total += n
                failures += fails
            per_file.append((p, counts, skipped))
    finally:
        if failures:
            print(f"docs: scratch directory kept: {env.work}")
        else:
            shutil.rmtree(env.work, ignore_errors=True)

    for p, counts, skipped in per_file:
        what = ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "nothing to run"
        print(f"docs: {p}: {what}" + (f"; skipped {len(skipped)}: " + "; ".join(skipped) if skipped else ""))
    if env.jar is None or not env.javas:
        print("docs: note: no java examples could run (no jar or no JDK)")
    for f in failures:
        print("FAIL " + f)
    javas = " and ".join(os.path.basename(os.path.dirname(os.path.dirname(j))) if os.sep in j else j
                         for j, _ in env.javas)
    print(f"docs: {total} examples checked against {build} (java on {javas or 'none'}) in "
          f"{time.monotonic() - t0:.1f}s, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
