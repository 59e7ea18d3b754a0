"""The built tools the docs are checked against (make test-docs)."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

from docblocks import ROOT, TIMEOUT, DocError

# ---- the tools -------------------------------------------------------------

@dataclass
class Env:
    build: str
    work: str
    bindir: str
    vpy: str
    jar: str | None
    jna: str | None
    javas: list[tuple[str, list[str]]]
    verbose: bool
    notes: list[str] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        e = dict(os.environ)
        e["PATH"] = self.bindir + os.pathsep + e.get("PATH", "")
        for k in ("IDGEN_CONFIG", "IDGEN_LIBRARY", "PYTHONPATH", "VIRTUAL_ENV"):
            e.pop(k, None)
        e["LC_ALL"] = "C.UTF-8"
        return e


def run(cmd: list[str] | str, env: Env, cwd: str, shell: bool = False,
        timeout: int = TIMEOUT) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, shell=shell, executable="/bin/bash" if shell else None, cwd=cwd, env=env.env(),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
        return subprocess.CompletedProcess(cmd, -9, out + f"\n[timed out after {timeout}s]", None)


def setup(build: str, verbose: bool) -> Env:
    need = {"idgen": os.path.join(build, "idgen"), "libidgen.so": os.path.join(build, "libidgen.so"),
            "venv": os.path.join(build, "venv", "bin", "python")}
    missing = [f"{k} ({v})" for k, v in need.items() if not os.path.exists(v)]
    if missing:
        raise DocError(f"not built: {', '.join(missing)}: run make lib {build}/idgen wheel python-env "
                       "(make test-docs does)")
    work = tempfile.mkdtemp(prefix="idgen-docs-")
    bindir = os.path.join(work, "bin")
    os.mkdir(bindir)
    os.symlink(need["idgen"], os.path.join(bindir, "idgen"))
    for name in ("python", "python3"):  # a script, not a link: a linked venv python loses its venv
        with open(os.path.join(bindir, name), "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec "{need["venv"]}" "$@"\n')
        os.chmod(os.path.join(bindir, name), 0o755)
    jar = os.environ.get("IDGEN_DOCS_JAR") or next(iter(sorted(
        p for p in glob.glob(os.path.join(ROOT, "bindings/java/target/idgen-*.jar"))
        if not re.search(r"-(sources|javadoc|tests)\.jar$", p))), None)
    jna = os.environ.get("IDGEN_DOCS_JNA")
    if not jna:
        try:
            with open(os.path.join(ROOT, "bindings/java/pom.xml"), encoding="utf-8") as f:
                ver = re.search(r"<jna.version>([^<]+)</jna.version>", f.read())
            if ver:
                cand = os.path.expanduser(f"~/.m2/repository/net/java/dev/jna/jna/{ver.group(1)}/jna-{ver.group(1)}.jar")
                jna = cand if os.path.exists(cand) else None
        except OSError:
            jna = None
    javas: list[tuple[str, list[str]]] = []
    if shutil.which("java") and shutil.which("javac"):
        javas.append(("java", []))
    jdk25 = os.path.join(os.environ.get("JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
    if os.access(jdk25, os.X_OK):
        javas.append((jdk25, ["--enable-native-access=ALL-UNNAMED"]))
    if jar:  # a copy: make test-java may be writing the jar while this runs
        shutil.copy(jar, os.path.join(work, os.path.basename(jar)))
        jar = os.path.join(work, os.path.basename(jar))
    env = Env(build, work, bindir, need["venv"], jar, jna, javas, verbose)
    # The venv must hold the wheel: a python that imports idgen from the source tree tests nothing.
    r = run([env.vpy, "-c", "import idgen, sys; print(idgen.__file__)"], env, work)
    if r.returncode != 0 or "site-packages" not in r.stdout:
        raise DocError(f"{env.vpy} does not import idgen from an installed wheel: {r.stdout.strip()} "
                       f"(pip install {build}/wheel/*.whl)")
    return env


