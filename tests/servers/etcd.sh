#!/usr/bin/env bash
# A throwaway 3-member etcd cluster on 127.0.0.1 for the fleet tests, with
# authentication on (user root, password s3cret; simple tokens that expire
# after 3 s unused, so clients re-authenticate).
#
#   etcd.sh start DIR        install Debian's etcd-server and etcd-client if missing; start
#                            3 members (data, logs, pids under DIR); wait until all are healthy;
#                            enable auth; writes DIR/endpoints ("127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3")
#                            and DIR/port1..3
#   etcd.sh stop DIR         kill every member this DIR started
#   etcd.sh kill N DIR       kill -9 member N (1..3)
#   etcd.sh start1 N DIR     start member N again (on its data)
#   etcd.sh leader DIR       print the number of the current leader
#   etcd.sh health N DIR     print "ok" when member N answers and has a leader, else "down"
#   etcd.sh ctl DIR ARGS...  etcdctl as root against the 3 members
#
# Run as root, the members run as the system user idgen-etcd (made if
# missing), like zk.sh's idgen-zk: a test server never needs root.
set -euo pipefail

cmd=${1:?usage: etcd.sh start|stop|kill|start1|leader|health|ctl ...}
shift

SERVER_USER=idgen-etcd
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export ETCDCTL_API=3

endpoints() { cat "$1/endpoints"; }

ctl() { # ctl DIR ARGS...: etcdctl as root (without a user before auth is on)
    local dir=$1
    shift
    local auth=()
    [ -f "$dir/auth" ] && auth=(--user root:s3cret)
    etcdctl --endpoints="$(endpoints "$dir")" --dial-timeout=2s --command-timeout=5s "${auth[@]}" "$@"
}

start_one() { # start_one N DIR
    local n=$1 dir=$2
    spawn "$dir/m$n" "$dir/m$n/server.log" "$dir/m$n/pid" etcd --name "m$n" --data-dir "$dir/m$n/data" \
        --listen-client-urls "http://127.0.0.1:$(cat "$dir/port$n")" \
        --advertise-client-urls "http://127.0.0.1:$(cat "$dir/port$n")" \
        --listen-peer-urls "http://127.0.0.1:$(cat "$dir/peer$n")" \
        --initial-advertise-peer-urls "http://127.0.0.1:$(cat "$dir/peer$n")" \
        --initial-cluster "$(cat "$dir/cluster")" --initial-cluster-token "$(cat "$dir/token")" \
        --initial-cluster-state new --heartbeat-interval 100 --election-timeout 1000 \
        --auth-token simple --auth-token-ttl 3 --logger zap --log-level warn
}

health_of() { # health_of N DIR: ok when member N commits a proposal (it has a leader)
    local port auth=()
    port=$(cat "$2/port$1")
    [ -f "$2/auth" ] && auth=(--user root:s3cret)
    if etcdctl --endpoints="127.0.0.1:$port" --dial-timeout=2s --command-timeout=4s "${auth[@]}" endpoint health >/dev/null 2>&1; then
        echo ok
    else
        echo down
    fi
}

all_healthy() { # all_healthy DIR: the 3 members answer with a leader
    local n
    for n in 1 2 3; do
        [ "$(health_of $n "$1")" = ok ] || return 1
    done
}

leader_of() { # leader_of DIR: print the number of the member that is leader
    local n line
    for n in 1 2 3; do
        [ -f "$1/m$n/pid" ] || continue
        line=$(etcdctl --endpoints="127.0.0.1:$(cat "$1/port$n")" --dial-timeout=2s --command-timeout=5s \
            --user root:s3cret endpoint status 2>/dev/null || true)
        # endpoint, ID, version, db size, is leader, ...
        if [ "$(echo "$line" | awk -F', ' '{print $5}')" = true ]; then
            echo $n
            return 0
        fi
    done
    return 1
}

case "$cmd" in
start)
    dir=$(realpath -m "${1:?DIR}")
    # The package may start a system-wide etcd on 2379: not ours, left
    # alone; the test cluster uses free ports.
    command -v etcd >/dev/null && command -v etcdctl >/dev/null || install_debian etcd-server etcd-client
    make_server_user
    mkdir -p "$dir"
    cluster=""
    for n in 1 2 3; do
        free_port >"$dir/port$n"
        free_port >"$dir/peer$n"
        mkdir -p "$dir/m$n"
        cluster+="${cluster:+,}m$n=http://127.0.0.1:$(cat "$dir/peer$n")"
    done
    echo "$cluster" >"$dir/cluster"
    echo "idgen-$$-$RANDOM" >"$dir/token"
    local_addrs "$dir" 1 2 3 >"$dir/endpoints"
    give_to_server_user "$dir"
    for n in 1 2 3; do
        start_one $n "$dir"
    done
    if ! poll 90 all_healthy "$dir"; then
        echo "etcd.sh: the cluster is not healthy within 90 s; member logs:" >&2
        for n in 1 2 3; do tail -5 "$dir/m$n/server.log" >&2 || true; done
        "$0" stop "$dir"
        exit 1
    fi
    if ! { ctl "$dir" user add root:s3cret && ctl "$dir" role add root &&
        ctl "$dir" user grant-role root root && ctl "$dir" auth enable; } >"$dir/auth.log" 2>&1; then
        cat "$dir/auth.log" >&2
        "$0" stop "$dir"
        exit 1
    fi
    touch "$dir/auth"
    ;;
stop)
    kill_pidfile "${1:?DIR}"/m{1,2,3}/pid
    ;;
kill)
    kill_pidfile "${2:?DIR}/m${1:?N}/pid"
    ;;
start1)
    n=${1:?N} dir=$(realpath -m "${2:?DIR}")
    start_one "$n" "$dir"
    ;;
leader)
    dir=${1:?DIR}
    # a loaded machine answers slowly; an election takes a moment
    poll 20 leader_of "$dir" || { echo "etcd.sh: no leader within 20 s" >&2; exit 1; }
    ;;
health)
    health_of "${1:?N}" "${2:?DIR}"
    ;;
ctl)
    dir=${1:?DIR}
    shift
    ctl "$dir" "$@"
    ;;
*)
    echo "etcd.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
