#!/usr/bin/env bash
# A throwaway Prometheus server on 127.0.0.1 that scrapes one target every
# second, run by a non-root user, its database in a temp directory.
#
#   prometheus.sh start DIR HOST:PORT   install Debian's prometheus if missing; start
#                                       /usr/bin/prometheus as user idgen-prom on a free
#                                       port, scraping http://HOST:PORT/metrics every 1 s
#                                       (job idgen); wait for its first scrape; writes
#                                       DIR/port, DIR/url and DIR/prometheus.pid
#   prometheus.sh stop DIR              SIGTERM (kill -9 if it does not exit within 10 s)
set -euo pipefail

cmd=${1:?usage: prometheus.sh start|stop DIR [HOST:PORT]}
dir=$(realpath -m "${2:?DIR}")
SERVER_USER=idgen-prom
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PROMETHEUS=/usr/bin/prometheus

api() { curl -fsS "http://127.0.0.1:$(cat "$dir/port")$1" 2>/dev/null; }

# Scraped once: Prometheus hands new targets to its scrapers up to 5 s
# after it starts.
scraped() { api /api/v1/targets | grep -Eq '"health":"(up|down)"'; }

case "$cmd" in
start)
    target=${3:?prometheus.sh start DIR HOST:PORT}
    if [ ! -x "$PROMETHEUS" ]; then
        install_debian prometheus
        stop_system_service prometheus
    fi
    command -v curl >/dev/null || install_debian curl ca-certificates
    make_server_user
    mkdir -p "$dir/data"
    port=$(free_port)
    echo "$port" >"$dir/port"
    cat >"$dir/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: idgen
    static_configs:
      - targets: ['$target']
CONF
    chmod 644 "$dir/prometheus.yml"
    give_to_server_user "$dir"
    spawn "$dir" "$dir/prometheus.log" "$dir/prometheus.pid" "$PROMETHEUS" \
        --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
        --web.listen-address="127.0.0.1:$port" --storage.tsdb.retention.time=1d \
        --web.console.templates="$dir" --web.console.libraries="$dir"
    poll 60 scraped || { tail -20 "$dir/prometheus.log" >&2; kill_pidfile "$dir/prometheus.pid"; exit 1; }
    echo "http://127.0.0.1:$port" >"$dir/url"
    ;;
stop)
    [ -f "$dir/prometheus.pid" ] || exit 0
    p=$(cat "$dir/prometheus.pid")
    kill "$p" 2>/dev/null || true
    poll 10 gone "$p" || true
    kill_pidfile "$dir/prometheus.pid"
    ;;
*)
    echo "prometheus.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
