#!/usr/bin/env bash
# Prints the path of promtool (`promtool check metrics` lints an exposition
# text), installing Debian's prometheus package when it is missing.
#
#   promtool.sh          the path, on stdout
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if ! command -v promtool >/dev/null 2>&1; then
    # --no-install-recommends (install_debian): promtool only, not a running
    # Prometheus's helpers; the server the package starts is not ours to run.
    install_debian prometheus
    stop_system_service prometheus
fi
command -v promtool
