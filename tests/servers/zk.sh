#!/usr/bin/env bash
# A throwaway 3-node ZooKeeper ensemble on 127.0.0.1 for the fleet tests.
#
#   zk.sh start DIR        install Debian's zookeeper if missing, start 3 servers
#                          (data, logs, pids under DIR), wait for a quorum;
#                          writes DIR/connect ("127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3")
#                          and DIR/port1..3
#   zk.sh stop DIR         kill every server this DIR started
#   zk.sh kill N DIR       kill -9 server N (1..3)
#   zk.sh start1 N DIR     start server N again
#   zk.sh leader DIR       print the number of the current leader
#   zk.sh mode N DIR       print server N's mode (leader, follower, or down)
#
# Run as root, the servers run as the system user idgen-zk (made if missing),
# like pg.sh's idgen-pg: a test server never needs root.
set -euo pipefail

cmd=${1:?usage: zk.sh start|stop|kill|start1|leader|mode ...}
shift

install_zk() {
    [ -f /usr/share/java/zookeeper.jar ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "zk.sh: Debian's zookeeper is not installed and I am not root: apt-get install zookeeper" >&2
        exit 1
    fi
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends zookeeper >/dev/null
}

ZKUSER_OS=idgen-zk

as_zk() { # exec the command as idgen-zk when root (setpriv execs: the pid stays the server's)
    if [ "$(id -u)" = 0 ]; then
        exec setpriv --reuid="$ZKUSER_OS" --regid="$ZKUSER_OS" --init-groups -- "$@"
    fi
    exec "$@"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

ask() { # ask PORT WORD: a four-letter command
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 && echo $2 >&3 && cat <&3" 2>/dev/null || true
}

mode_of() { # mode N DIR
    local port
    port=$(cat "$2/port$1")
    ask "$port" srvr | sed -n 's/^Mode: //p'
}

start_one() { # start_one N DIR
    local n=$1 dir=$2
    (cd "$dir/zk$n" && as_zk setsid java -Xmx64m -Xms16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
        -Dzookeeper.log.dir="$dir/zk$n" -Dzookeeper.root.logger=INFO,CONSOLE \
        -Dlog4j.configuration="file:$dir/log4j.properties" \
        -cp "/usr/share/java/zookeeper.jar" org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zk$n/zoo.cfg" \
        >"$dir/zk$n/server.log" 2>&1 </dev/null) &
    echo $! >"$dir/zk$n/pid"
}

wait_quorum() { # wait_quorum DIR SECONDS
    local dir=$1 deadline=$((SECONDS + $2))
    while [ $SECONDS -lt $deadline ]; do
        local leaders=0 followers=0
        for n in 1 2 3; do
            case "$(mode_of $n "$dir")" in
            leader) leaders=$((leaders + 1)) ;;
            follower) followers=$((followers + 1)) ;;
            esac
        done
        if [ $leaders = 1 ] && [ $followers = 2 ]; then return 0; fi
        sleep 0.3
    done
    echo "zk.sh: no quorum within $2 s; server logs:" >&2
    for n in 1 2 3; do tail -5 "$dir/zk$n/server.log" >&2 || true; done
    return 1
}

case "$cmd" in
start)
    dir=$(realpath -m "${1:?DIR}")
    install_zk
    if [ "$(id -u)" = 0 ] && ! id "$ZKUSER_OS" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$ZKUSER_OS"
    fi
    mkdir -p "$dir"
    cat >"$dir/log4j.properties" <<'L4J'
log4j.rootLogger=WARN, CONSOLE
log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender
log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout
log4j.appender.CONSOLE.layout.ConversionPattern=%d{ISO8601} %-5p %c{1}: %m%n
L4J
    servers=""
    for n in 1 2 3; do
        echo "$(free_port)" >"$dir/port$n"
        servers+="server.$n=127.0.0.1:$(free_port):$(free_port)"$'\n'
    done
    for n in 1 2 3; do
        mkdir -p "$dir/zk$n/data"
        echo $n >"$dir/zk$n/data/myid"
        cat >"$dir/zk$n/zoo.cfg" <<CFG
tickTime=200
initLimit=50
syncLimit=10
dataDir=$dir/zk$n/data
clientPort=$(cat "$dir/port$n")
clientPortAddress=127.0.0.1
minSessionTimeout=400
maxSessionTimeout=30000
admin.enableServer=false
4lw.commands.whitelist=srvr,stat,ruok,mntr
quorumListenOnAllIPs=false
$servers
CFG
    done
    [ "$(id -u)" = 0 ] && chown -R "$ZKUSER_OS" "$dir"
    for n in 1 2 3; do
        start_one $n "$dir"
    done
    echo "127.0.0.1:$(cat "$dir/port1"),127.0.0.1:$(cat "$dir/port2"),127.0.0.1:$(cat "$dir/port3")" >"$dir/connect"
    if ! wait_quorum "$dir" 90; then
        "$0" stop "$dir"
        exit 1
    fi
    ;;
stop)
    dir=${1:?DIR}
    for n in 1 2 3; do
        [ -f "$dir/zk$n/pid" ] || continue
        kill -9 "$(cat "$dir/zk$n/pid")" 2>/dev/null || true
        rm -f "$dir/zk$n/pid"
    done
    ;;
kill)
    n=${1:?N} dir=${2:?DIR}
    kill -9 "$(cat "$dir/zk$n/pid")" 2>/dev/null || true
    rm -f "$dir/zk$n/pid"
    ;;
start1)
    n=${1:?N} dir=${2:?DIR}
    start_one "$n" "$dir"
    ;;
leader)
    dir=${1:?DIR}
    for n in 1 2 3; do
        if [ "$(mode_of $n "$dir")" = leader ]; then echo $n; exit 0; fi
    done
    exit 1
    ;;
mode)
    m=$(mode_of "${1:?N}" "${2:?DIR}")
    echo "${m:-down}"
    ;;
*)
    echo "zk.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
