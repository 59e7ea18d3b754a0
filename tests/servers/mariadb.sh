#!/usr/bin/env bash
# A throwaway MariaDB server on 127.0.0.1 for the fleet tests, run by a
# non-root user in a directory of its own.
#
#   mariadb.sh start DIR            install Debian's mariadb-server if missing; mariadb-install-db
#                                   into DIR/data as user idgen-my; start on a free port (socket
#                                   DIR/mysqld.sock); database idgen, user idgen (password s3cret,
#                                   all privileges on idgen), and a least-privilege user idgen_lp
#                                   (password lp-pw) with only SELECT, INSERT, UPDATE on the table
#                                   idgen.idgen_dba a DBA made; writes DIR/url, DIR/url_lp, DIR/port
#   mariadb.sh stop DIR             shut down cleanly (kill -9 if that fails)
#   mariadb.sh stop-immediate DIR   kill -9 (a crash)
#   mariadb.sh restart DIR          start the stopped server again
#   mariadb.sh sql DIR SQL          run SQL as root in database idgen (tab-separated, no headers)
set -euo pipefail

cmd=${1:?usage: mariadb.sh start|stop|stop-immediate|restart|sql DIR}
dir=$(realpath -m "${2:?DIR}")
SERVER_USER=idgen-my
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

client() { mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot "$@"; }

pid() { cat "$dir/mysqld.pid" 2>/dev/null || true; }

answers() { mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot ping >/dev/null 2>&1; }

# run starts mariadbd in the background and waits until it answers.
run() {
    as_server_user setsid mariadbd --defaults-file="$dir/my.cnf" </dev/null >>"$dir/server.log" 2>&1 &
    poll 60 answers || { tail -20 "$dir/server.log" >&2; return 1; }
}

# The table as a DBA would make it beforehand (the store's own DDL).
DBA_TABLE="CREATE TABLE idgen.idgen_dba (
  pool VARCHAR(191) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  datacenter BIGINT NOT NULL, worker BIGINT NOT NULL,
  holder VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, expires_at DATETIME(6) NULL,
  issued_up_to BIGINT NOT NULL DEFAULT 0, backwards BIGINT NOT NULL DEFAULT 0, next_seq BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (pool, datacenter, worker), KEY expiry (pool, expires_at)) ENGINE=InnoDB"

case "$cmd" in
start)
    command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null || install_debian mariadb-server
    make_server_user
    mkdir -p "$dir"
    give_to_server_user "$dir"
    port=$(free_port)
    echo "$port" >"$dir/port"
    cat >"$dir/my.cnf" <<CONF
[mariadbd]
datadir = $dir/data
socket = $dir/mysqld.sock
pid-file = $dir/mysqld.pid
log-error = $dir/server.log
port = $port
bind-address = 127.0.0.1
skip-networking = 0
skip-name-resolve
skip-log-bin
performance_schema = OFF
innodb_buffer_pool_size = 32M
innodb_log_file_size = 16M
innodb_flush_log_at_trx_commit = 2
max_connections = 400
CONF
    as_server_user mariadb-install-db --no-defaults --datadir="$dir/data" --auth-root-authentication-method=normal \
        --skip-test-db >"$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; exit 1; }
    run
    client <<SQL
DELETE FROM mysql.global_priv WHERE User = '' OR (User = 'root' AND Host <> 'localhost');
FLUSH PRIVILEGES;
CREATE DATABASE idgen;
CREATE USER 'idgen'@'%' IDENTIFIED BY 's3cret';
GRANT ALL PRIVILEGES ON idgen.* TO 'idgen'@'%';
$DBA_TABLE;
CREATE USER 'idgen_lp'@'%' IDENTIFIED BY 'lp-pw';
GRANT SELECT, INSERT, UPDATE ON idgen.idgen_dba TO 'idgen_lp'@'%';
SQL
    echo "mysql://idgen:s3cret@127.0.0.1:$port/idgen" >"$dir/url"
    echo "mysql://idgen_lp:lp-pw@127.0.0.1:$port/idgen" >"$dir/url_lp"
    ;;
stop)
    p=$(pid)
    [ -n "$p" ] || exit 0
    mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot --shutdown-timeout=20 shutdown >/dev/null 2>&1 || true
    poll 10 gone "$p" || kill -9 "$p" 2>/dev/null || true
    ;;
stop-immediate)
    p=$(pid)
    [ -n "$p" ] || { echo "mariadb.sh: not running" >&2; exit 1; }
    kill -9 "$p"
    while kill -0 "$p" 2>/dev/null; do sleep 0.05; done
    ;;
restart)
    p=$(pid)
    if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
        echo "mariadb.sh: already running" >&2
        exit 1
    fi
    run
    ;;
sql)
    client -D idgen -N -B -e "${3:?SQL}"
    ;;
*)
    echo "mariadb.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
