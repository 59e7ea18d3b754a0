# lib.sh — what every script of tests/servers shares; sourced, never run:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# A script that runs a server sets SERVER_USER, the system user the server
# runs as when the script runs as root (a test server never needs root),
# and uses:
#
#   install_debian PACKAGE...   apt-get install the Debian packages (root only)
#   stop_system_service NAME    stop and disable a service a package started
#   make_server_user            useradd --system SERVER_USER (root, when missing)
#   give_to_server_user PATH... chown -R PATH to SERVER_USER (when root)
#   as_server_user CMD...       run CMD as SERVER_USER (runuser) when root
#   exec_as_server_user CMD...  exec CMD as SERVER_USER (setpriv: the pid stays the server's)
#   spawn DIR LOG PIDFILE CMD...  start CMD in DIR as SERVER_USER in a session of
#                               its own, in the background; its pid goes to PIDFILE
#   kill_pidfile PIDFILE...     kill -9 the processes pid files name; remove the files
#   gone PID                    the process PID has exited (for poll)
#   free_port                   a free TCP port on 127.0.0.1
#   local_addrs DIR N...        127.0.0.1:$(cat DIR/portN) for each N, comma-separated
#   poll SECONDS CMD...         run CMD every 0.1 s until it succeeds (0) or SECONDS pass (1)

SELF=${0##*/}

is_root() { [ "$(id -u)" = 0 ]; }

install_debian() {
    if ! is_root; then
        echo "$SELF: Debian's $* not installed and I am not root: apt-get install $*" >&2
        exit 1
    fi
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "$@" >/dev/null
}

# A package may start a system-wide instance: ours run on ports of their own.
stop_system_service() {
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl disable --now "$1" >/dev/null 2>&1 || true
    else
        service "$1" stop >/dev/null 2>&1 || true
    fi
}

make_server_user() {
    : "${SERVER_USER:?$SELF: SERVER_USER is not set}"
    if is_root && ! id "$SERVER_USER" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$SERVER_USER"
    fi
}

give_to_server_user() {
    if is_root; then chown -R "$SERVER_USER" "$@"; fi
}

as_server_user() {
    if is_root; then
        runuser -u "$SERVER_USER" -- "$@"
    else
        "$@"
    fi
}

exec_as_server_user() {
    if is_root; then
        exec setpriv --reuid="$SERVER_USER" --regid="$SERVER_USER" --init-groups -- "$@"
    fi
    exec "$@"
}

spawn() {
    local dir=$1 log=$2 pidfile=$3
    shift 3
    (cd "$dir" && exec_as_server_user setsid "$@" >"$log" 2>&1 </dev/null) &
    echo $! >"$pidfile"
}

kill_pidfile() {
    local f
    for f in "$@"; do
        [ -f "$f" ] || continue
        kill -9 "$(cat "$f")" 2>/dev/null || true
        rm -f "$f"
    done
}

gone() { ! kill -0 "$1" 2>/dev/null; }

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

local_addrs() {
    local dir=$1 out="" n
    shift
    for n in "$@"; do
        out+="${out:+,}127.0.0.1:$(cat "$dir/port$n")"
    done
    echo "$out"
}

poll() {
    local deadline=$((SECONDS + $1))
    shift
    while :; do
        "$@" && return 0
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
