#!/usr/bin/env bash
# A throwaway Redis on 127.0.0.1 for the fleet tests, without persistence
# (a restart comes back empty: the data loss the Redis lease store must
# survive without a duplicate).
#
#   redis.sh start DIR     install Debian's redis-server if missing; start it on a free
#                          port as user idgen-redis with 4096 databases, the default
#                          user's password s3cret and an ACL user idgen (password
#                          s3cret), and a TLS port with a CA of its own; writes DIR/port,
#                          DIR/url (redis://idgen:s3cret@…), DIR/tlsport and DIR/ca.pem
#   redis.sh stop DIR      SHUTDOWN NOSAVE (kill -9 if that fails)
#   redis.sh kill9 DIR     kill -9 the server (it loses everything)
#   redis.sh restart DIR   start it again on the same port, empty
#   redis.sh replica DIR   start a replica of it (DIR/replica: port, redis.pid), wait for its link
#   redis.sh replica-stop DIR   kill -9 the replica
#   redis.sh cli DIR ARGS  run redis-cli ARGS against it
set -euo pipefail

cmd=${1:?usage: redis.sh start|stop|kill9|restart|replica|replica-stop|cli DIR ...}
dir=$(realpath -m "${2:?DIR}")
shift 2
SERVER_USER=idgen-redis
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cli() { redis-cli -h 127.0.0.1 -p "$(cat "$dir/port")" -a s3cret --no-auth-warning "$@"; }

pid() { cat "$dir/redis.pid" 2>/dev/null || true; }

answers() { [ "$(cli ping 2>/dev/null)" = PONG ]; }

run() {
    as_server_user redis-server "$dir/redis.conf" >/dev/null
    poll 10 answers || { tail -20 "$dir/redis.log" >&2; exit 1; }
}

replica_linked() { # replica_linked PORT
    redis-cli -h 127.0.0.1 -p "$1" -a s3cret --no-auth-warning info replication 2>/dev/null | grep -q master_link_status:up
}

case "$cmd" in
start)
    if ! command -v redis-server >/dev/null; then
        install_debian redis-server
        stop_system_service redis-server
    fi
    make_server_user
    mkdir -p "$dir"
    give_to_server_user "$dir"
    port=$(free_port)
    tlsport=$(free_port)
    echo "$port" >"$dir/port"
    echo "$tlsport" >"$dir/tlsport"
    # A CA and a server certificate for 127.0.0.1 (rediss://): clients trust
    # DIR/ca.pem through SSL_CERT_FILE.
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=idgen-test-ca \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout "$dir/server.key" -out "$dir/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=IP:127.0.0.1\n' >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
        -extfile "$dir/san.ext" -out "$dir/server.pem" >/dev/null 2>&1
    chmod 644 "$dir"/*.pem "$dir"/*.key
    cat >"$dir/redis.conf" <<CONF
bind 127.0.0.1
port $port
protected-mode yes
daemonize yes
pidfile $dir/redis.pid
logfile $dir/redis.log
dir $dir
databases 4096
save ""
appendonly no
requirepass s3cret
user idgen on >s3cret ~* &* +@all
tls-port $tlsport
tls-cert-file $dir/server.pem
tls-key-file $dir/server.key
tls-ca-cert-file $dir/ca.pem
tls-auth-clients no
CONF
    chmod 644 "$dir/redis.conf"
    run
    echo "redis://idgen:s3cret@127.0.0.1:$port" >"$dir/url"
    ;;
stop)
    kill_pidfile "$dir/replica/redis.pid"
    [ -f "$dir/port" ] || exit 0
    p=$(pid)
    cli shutdown nosave >/dev/null 2>&1 || true
    if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
        sleep 0.5
        kill -9 "$p" 2>/dev/null || true
    fi
    ;;
kill9)
    p=$(pid)
    [ -n "$p" ] && kill -9 "$p"
    poll 5 gone "$p" || true
    rm -f "$dir/redis.pid"
    ;;
restart)
    run
    ;;
replica)
    r="$dir/replica"
    mkdir -p "$r"
    give_to_server_user "$r"
    rport=$(free_port)
    echo "$rport" >"$r/port"
    cat >"$r/redis.conf" <<CONF
bind 127.0.0.1
port $rport
daemonize yes
pidfile $r/redis.pid
logfile $r/redis.log
dir $r
databases 4096
save ""
appendonly no
requirepass s3cret
user idgen on >s3cret ~* &* +@all
masterauth s3cret
replicaof 127.0.0.1 $(cat "$dir/port")
CONF
    chmod 644 "$r/redis.conf"
    as_server_user redis-server "$r/redis.conf" >/dev/null
    poll 10 replica_linked "$rport" || { tail -20 "$r/redis.log" >&2; exit 1; }
    ;;
replica-stop)
    kill_pidfile "$dir/replica/redis.pid"
    ;;
cli)
    cli "$@"
    ;;
*)
    echo "redis.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
