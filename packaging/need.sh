#!/usr/bin/env bash
# need.sh COMMAND-OR-FILE PACKAGE... — installs Debian's PACKAGEs when
# COMMAND is not on PATH (or, for a path, the file does not exist): as
# root with apt-get, else it says what to install and fails.
set -euo pipefail
what=$1; shift
if command -v "$what" >/dev/null 2>&1 || [ -e "$what" ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "need.sh: $what is missing and I am not root: apt-get install $*" >&2
    exit 1
fi
echo "need.sh: $what is missing: apt-get install $*" >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "$@" >/dev/null
command -v "$what" >/dev/null 2>&1 || [ -e "$what" ] || { echo "need.sh: $* installed, still no $what" >&2; exit 1; }
