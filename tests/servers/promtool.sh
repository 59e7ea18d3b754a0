#!/usr/bin/env bash
# Prints the path of promtool (`promtool check metrics` lints an exposition
# text), installing Debian's prometheus package when it is missing.
#
#   promtool.sh          the path, on stdout
set -euo pipefail

if ! command -v promtool >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || { echo "promtool.sh: promtool is not installed and I am not root: apt-get install prometheus" >&2; exit 1; }
    apt-get update -qq >/dev/null
    # --no-install-recommends: promtool only, not a running Prometheus's helpers.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
    # The package starts a Prometheus server under systemd where there is one: not ours to run.
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl disable --now prometheus >/dev/null 2>&1 || true
    fi
fi
command -v promtool
