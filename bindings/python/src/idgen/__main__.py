"""python -m idgen: the idgen command itself (cmd/idgen), which the wheel
carries next to libidgen.so, run with the same arguments.

    python -m idgen next    [-n N] [-c CONFIG]
    python -m idgen decode  [-c CONFIG] [--json] [ID ...]
    python -m idgen explain [-c CONFIG] [--svg FILE]
    python -m idgen explain --keys
    python -m idgen format  [-b BASE] [--fixed] ID ...
    python -m idgen parse   [-b BASE] TEXT ...
    python -m idgen leases  [-c CONFIG] [--json]

One implementation of the words and their wording: this module only finds
the command ($IDGEN_CLI, else the one inside this package) and replaces
the interpreter by it, so its output, exit status, stdin and signals are
the command's own.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from ._ffi import cli_path


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the idgen command with argv (default: this program's
    arguments) in place of this process; returns 1 only if it cannot."""
    args = sys.argv[1:] if argv is None else list(argv)
    path = cli_path()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(path, ["idgen", *args])
    except OSError as e:
        sys.stderr.write(f"idgen: cannot run the idgen command {path}: {e.strerror or e} "
                         "(set IDGEN_CLI to the path of the idgen command)\n")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
