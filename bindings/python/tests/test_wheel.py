from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_wheel_installs_and_works_in_a_clean_venv(tmp_path: Path) -> None:
    wheel = os.environ.get("IDGEN_WHEEL")
    assert wheel, "set IDGEN_WHEEL to the built wheel (make test-python does)"
    # The platform tag names the newest glibc the library needs, as objdump
    # reads it (auditwheel's check): pip installs it where it works only.
    import re
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        lib = z.read("idgen/libidgen.so")
        # python -m idgen's command, executable, and nothing of a CLI of its own
        assert (z.getinfo("idgen/idgen").external_attr >> 16) & 0o111 == 0o111
        assert not {"idgen/_cli_lines.py", "idgen/_cli.py"} & set(z.namelist())
    so = tmp_path / "libidgen.so"
    so.write_bytes(lib)
    syms = subprocess.run(["objdump", "-T", str(so)], capture_output=True, text=True, check=True).stdout
    newest = max(int(v) for v in re.findall(r"GLIBC_2\.(\d+)", syms))
    assert wheel.endswith(f"-py3-none-manylinux_2_{newest}_x86_64.whl"), wheel
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-index", "--no-deps", wheel], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("IDGEN_LIBRARY", "IDGEN_CLI")}
    code = (
        "import idgen, idgen._ffi as f, sys;"
        "g = idgen.Generator('worker=1'); i = g.next_id();"
        "print(i > 0, f.lib().path.startswith(sys.prefix), idgen.__version__ == idgen.library_version())"
    )
    r = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.stdout.split() == ["True", "True", "True"], r.stderr
    # No console script takes the Go command's name (build/idgen): the
    # package's CLI is python -m idgen.
    assert not (venv / "bin" / "idgen").exists()
    r = subprocess.run([py, "-m", "idgen", "next", "-n", "2"], capture_output=True, text=True,
                       env={**env, "IDGEN_CONFIG": "worker=4"}, cwd=tmp_path)
    assert r.returncode == 0 and len(r.stdout.split()) == 2, r.stderr
    r = subprocess.run([py, "-m", "idgen", "explain", "-c", "preset=snowflake"], capture_output=True, text=True,
                       env={**env, "PATH": "/nonexistent"}, cwd=tmp_path)
    assert r.returncode == 0 and "ids per second per worker: 4096000" in r.stdout, r.stderr
