"""Fenced blocks of the docs and their docs-test markers (make test-docs)."""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_FILES = ["README.md", *sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))),
                 "bindings/python/README.md", "bindings/java/README.md",
                 "bindings/node/README.md"]
TIMEOUT = 120
PROJECT_TIMEOUT = 900  # a console block in a project: a build tool may fetch its dependencies first

RUN_LANGS = {"console", "shell-session", "c", "cpp", "c++", "go", "python", "py", "pycon", "java", "js", "javascript", "mjs"}
KNOWN_DIRECTIVES = {"skip", "pattern", "c-header", "compile-only", "project", "file"}


@dataclass
class Block:
    path: str
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    directives: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


class DocError(Exception):
    pass


# ---- extraction ------------------------------------------------------------

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)")
MARKER = re.compile(r"<!--\s*docs-test:(.*?)-->", re.S)


def parse_directives(raw: str, where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in raw.split(";"):
        part = part.strip()
        if not part:
            continue
        name, _, arg = part.partition(" ")
        if name not in KNOWN_DIRECTIVES:
            raise DocError(f"{where}: unknown docs-test directive {name!r} (known: {', '.join(sorted(KNOWN_DIRECTIVES))})")
        out[name] = arg.strip()
    return out


def extract(path: str) -> list[Block]:
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence[0] * len(fence))
                                      and lines[i].strip().strip(fence[0]) == ""):
            ln = lines[i]
            body.append(ln[indent:] if ln[:indent].strip() == "" else ln.lstrip())
            i += 1
        i += 1  # the closing fence
        # A marker: the comment that ends on the last non-blank line before the fence.
        j = start - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        directives: dict[str, str] = {}
        if j >= 0 and lines[j].rstrip().endswith("-->"):
            k = j
            while k >= 0 and "<!--" not in lines[k]:
                k -= 1
            mm = MARKER.search("\n".join(lines[max(k, 0):j + 1]))
            if mm:
                directives = parse_directives(" ".join(mm.group(1).split()), f"{path}:{start + 1}")
        blocks.append(Block(path, start + 1, lang, "\n".join(body), directives))
    return blocks


def lint_sh(b: Block) -> list[str]:
    """An idgen command in a ```sh block followed by a `# ...` line shows output that nothing checks."""
    problems = []
    lines = b.text.split("\n")
    for n, (a, c) in enumerate(zip(lines, lines[1:])):
        if re.match(r"\s*(idgen|python3? -m idgen)\s", a) and re.match(r"\s*#", c):
            problems.append(f"{b.path}:{b.line + n + 2}: output shown after `{a.strip()[:60]}` in a ```{b.lang or 'sh'} block, "
                            "where it is not checked: make it a ```console block (`$ command`, then its output)")
    return problems


