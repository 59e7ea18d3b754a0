from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest


@pytest.fixture
def lease_dir(tmp_path: Path) -> Iterator[str]:
    """A lease directory as the library wants one: the caller's own, 0700."""
    d = tmp_path / "leases"
    d.mkdir(mode=0o700)
    d.chmod(0o700)
    yield str(d)


def run_python(code: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs code in a fresh interpreter (the one running the tests)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
