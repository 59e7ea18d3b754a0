#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for the fleet tests, run by a
# non-root user (initdb refuses root).
#
#   pg.sh start DIR            install Debian's postgresql if missing; initdb in DIR/data as
#                              user idgen-pg; start on a free port; role idgen (password s3cret,
#                              scram-sha-256 over TCP) owning database idgen; writes DIR/url
#                              and DIR/port
#   pg.sh stop DIR             pg_ctl stop -m fast (kill -9 if that fails)
#   pg.sh stop-immediate DIR   pg_ctl stop -m immediate (a crash)
#   pg.sh restart DIR          start the stopped cluster again
#   pg.sh psql DIR SQL         run SQL as the superuser in database idgen
set -euo pipefail

cmd=${1:?usage: pg.sh start|stop|stop-immediate|restart|psql DIR}
dir=$(realpath -m "${2:?DIR}")
SERVER_USER=idgen-pg
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

pgctl() { as_server_user "$(bindir)/pg_ctl" -D "$dir/data" -w -t 60 "$@"; }

case "$cmd" in
start)
    [ -n "$(bindir)" ] || install_debian postgresql
    make_server_user
    mkdir -p "$dir"
    give_to_server_user "$dir"
    port=$(free_port)
    echo "$port" >"$dir/port"
    as_server_user "$(bindir)/initdb" -D "$dir/data" -U postgres -A trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
shared_buffers = 16MB
max_connections = 100
CONF
    # Local superuser over the socket only; everything over TCP needs a password.
    printf 'local all postgres trust\nhost all all 127.0.0.1/32 scram-sha-256\n' >"$dir/data/pg_hba.conf"
    pgctl -l "$dir/server.log" start >/dev/null || { tail -20 "$dir/server.log" >&2; exit 1; }
    as_server_user psql -h "$dir" -p "$port" -U postgres -q -c "CREATE ROLE idgen LOGIN PASSWORD 's3cret'" -c "CREATE DATABASE idgen OWNER idgen" >/dev/null
    echo "postgres://idgen:s3cret@127.0.0.1:$port/idgen?sslmode=disable" >"$dir/url"
    ;;
stop)
    [ -d "$dir/data" ] || exit 0
    pgctl stop -m fast >/dev/null 2>&1 || pkill -9 -f -- "-D $dir/data" || true
    ;;
stop-immediate)
    pgctl stop -m immediate >/dev/null
    ;;
restart)
    pgctl -l "$dir/server.log" start >/dev/null
    ;;
psql)
    as_server_user psql -h "$dir" -p "$(cat "$dir/port")" -U postgres -d idgen -qAt -c "${3:?SQL}"
    ;;
*)
    echo "pg.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
