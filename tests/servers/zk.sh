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

SERVER_USER=idgen-zk
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

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
    spawn "$dir/zk$n" "$dir/zk$n/server.log" "$dir/zk$n/pid" java -Xmx64m -Xms16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
        -Dzookeeper.log.dir="$dir/zk$n" -Dzookeeper.root.logger=INFO,CONSOLE \
        -Dlog4j.configuration="file:$dir/log4j.properties" \
        -cp "/usr/share/java/zookeeper.jar" org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zk$n/zoo.cfg"
}

quorum() { # quorum DIR: one leader and two followers answer
    local n leaders=0 followers=0
    for n in 1 2 3; do
        case "$(mode_of $n "$1")" in
        leader) leaders=$((leaders + 1)) ;;
        follower) followers=$((followers + 1)) ;;
        esac
    done
    [ $leaders = 1 ] && [ $followers = 2 ]
}

case "$cmd" in
start)
    dir=$(realpath -m "${1:?DIR}")
    [ -f /usr/share/java/zookeeper.jar ] || install_debian zookeeper
    make_server_user
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
    give_to_server_user "$dir"
    for n in 1 2 3; do
        start_one $n "$dir"
    done
    local_addrs "$dir" 1 2 3 >"$dir/connect"
    if ! poll 90 quorum "$dir"; then
        echo "zk.sh: no quorum within 90 s; server logs:" >&2
        for n in 1 2 3; do tail -5 "$dir/zk$n/server.log" >&2 || true; done
        "$0" stop "$dir"
        exit 1
    fi
    ;;
stop)
    kill_pidfile "${1:?DIR}"/zk{1,2,3}/pid
    ;;
kill)
    kill_pidfile "${2:?DIR}/zk${1:?N}/pid"
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
