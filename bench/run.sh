#!/usr/bin/env bash
# make bench: every figure of docs/BENCHMARKS.md, side by side in one run.
# Uses the bench build of the library (build/bench/libidgen.so), which adds
# bare no-op exports as the baselines. Results also go to
# build/bench/results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH=${BENCH:-$ROOT/build/bench}
VPY=${VPY:-$ROOT/build/venv/bin/python}
GO=${GO:-go}
MVN=${MVN:-mvn -B -ntp}
OUT=$BENCH/results.txt
mkdir -p "$BENCH"

{
echo "== machine"
echo "date:   $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "cpu:    $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x $(nproc)"
echo "kernel: $(uname -r); clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')"
echo "go:     $($GO version | cut -d' ' -f3); python: $($VPY -c 'import sys; print(sys.version.split()[0])'); java: $(java -version 2>&1 | head -1)"
echo

echo "== C (bench/c/bench.c), with a local ZooKeeper ensemble, PostgreSQL, a 3-member etcd cluster, MariaDB and Redis for the lease figures"
SRV=$(mktemp -d /tmp/idgen-bench-srv-XXXXXX)
chmod 755 "$SRV"
trap 'tests/servers/zk.sh stop "$SRV/zk" >/dev/null 2>&1; tests/servers/pg.sh stop "$SRV/pg" >/dev/null 2>&1; tests/servers/etcd.sh stop "$SRV/etcd" >/dev/null 2>&1; tests/servers/mariadb.sh stop "$SRV/my" >/dev/null 2>&1; tests/servers/redis.sh stop "$SRV/redis" >/dev/null 2>&1; rm -rf "$SRV"' EXIT
if tests/servers/zk.sh start "$SRV/zk" >/dev/null 2>&1; then
    export IDGEN_BENCH_ZK="zk://$(cat "$SRV/zk/connect")/idgen-bench"
fi
# renewal_cost WHAT CONFIG COUNT UNITS NOTE [SELF]: what one holder of
# CONFIG sends its store in 30 s (open, renewals at lease_ttl=10s, close),
# as the server counts it with the command COUNT (SELF: the counting
# commands themselves, left out).
renewal_cost() {
    local before after hp n
    before=$($3)
    "$BENCH/../holder" "$2" /dev/null 100000 >/dev/null &
    hp=$!
    sleep 30
    kill -TERM $hp; wait $hp || true
    after=$($3)
    n=$(( after - before - ${6:-0} ))
    echo "  $1 renewal cost, one holder, lease_ttl=10s: $n $4 in 30 s ($5) = $(python3 -c "print(round($n / 30, 2))")/s"
}
if tests/servers/pg.sh start "$SRV/pg" >/dev/null 2>&1; then
    export IDGEN_BENCH_PG="$(cat "$SRV/pg/url") lease_table=idgen_bench"
    pg_xacts() { tests/servers/pg.sh psql "$SRV/pg" "SELECT xact_commit FROM pg_stat_database WHERE datname='idgen'"; }
    renewal_cost PostgreSQL "preset=snowflake worker=$(cat "$SRV/pg/url") lease_table=idgen_cost" pg_xacts transactions "open + renewals + close"
fi
if tests/servers/etcd.sh start "$SRV/etcd" >/dev/null 2>&1; then
    export IDGEN_BENCH_ETCD="etcd://root:s3cret@$(cat "$SRV/etcd/endpoints")/idgen-bench"
    # the 3 members' gRPC requests handled, every method
    etcd_reqs() { python3 -c 'import sys, urllib.request as u; print(int(sum(float(l.rsplit(" ", 1)[1]) for p in sys.argv[1:] for l in u.urlopen("http://127.0.0.1:%s/metrics" % p, timeout=5).read().decode().splitlines() if l.startswith("grpc_server_handled_total{"))))' $(cat "$SRV/etcd/port1" "$SRV/etcd/port2" "$SRV/etcd/port3"); }
    renewal_cost etcd "preset=snowflake worker=etcd://root:s3cret@$(cat "$SRV/etcd/endpoints")/idgen-cost" etcd_reqs requests "open + renewals + close; a renewal is a keep-alive and a txn"
fi
if tests/servers/mariadb.sh start "$SRV/my" >/dev/null 2>&1; then
    export IDGEN_BENCH_MYSQL="$(cat "$SRV/my/url") lease_table=idgen_bench"
    my_updates() { tests/servers/mariadb.sh sql "$SRV/my" "SHOW GLOBAL STATUS LIKE 'Com_update'" | cut -f2; }
    renewal_cost MariaDB "preset=snowflake worker=$(cat "$SRV/my/url") lease_table=idgen_cost" my_updates UPDATEs "claim + renewals + release"
fi
if tests/servers/redis.sh start "$SRV/redis" >/dev/null 2>&1; then
    export IDGEN_BENCH_REDIS="$(cat "$SRV/redis/url")"
    # persistence on, as the docs ask: on a fresh server without it a new
    # pool counts as lost and its first open waits max_outage (60 s), which
    # would fill the 30 s window with the open's wait
    tests/servers/redis.sh cli "$SRV/redis" CONFIG SET appendonly yes >/dev/null
    rd_cmds() { tests/servers/redis.sh cli "$SRV/redis" INFO stats | tr -d '\r' | sed -n 's/^total_commands_processed://p'; }
    renewal_cost Redis "preset=snowflake worker=$(cat "$SRV/redis/url")/1" rd_cmds commands "open + renewals + close; the 2 INFO calls left out" 2
fi
"$BENCH/cbench" 1.0
"$BENCH/segbench" 5
# the same sustained figures from a Go process (bench/go/segbench: idgen.Open, 4 goroutines)
(cd bench/go && $GO build -o "$BENCH/gosegbench" ./segbench)
"$BENCH/gosegbench" -secs 5
# the same PostgreSQL step=auto rows with a P to spare for the fetch goroutine
GOMAXPROCS=6 "$BENCH/gosegbench" -secs 5 -check 0 -only "PostgreSQL, step=auto"
"$BENCH/metricsbench"
echo

echo "== the id service (bench/serve.sh: idgen serve under wrk)"
bench/serve.sh "$ROOT/build/idgen"
echo

echo "== the lease simulator (internal/sim): 20,000 schedules from seed 1"
(SIM_SCHEDULES=20000 SIM_SEED=1 $GO run ./internal/sim/cmd/idgen-sim | tail -2)
echo

echo "== Go core beside its peers (bench/go, a separate module; median of 5 runs)"
(cd bench/go && $GO test -run '^$' -bench . -benchtime 1s -count 5 .) \
  | "$VPY" bench/go/summarize.py
echo

echo "== Python (bench/python/bench.py)"
IDGEN_LIBRARY=$BENCH/libidgen.so "$VPY" bench/python/bench.py
echo

echo "== Java (bindings/java/src/test/java/org/idgen/Bench.java)"
(cd bindings/java \
  && $MVN -q -Dstyle.color=never package -DskipTests \
  && $MVN -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
  && java -Didgen.library="$BENCH/libidgen.so" -cp "target/idgen-0.1.0.jar:target/test-classes:$(cat target/cp.txt)" org.idgen.Bench \
  && if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then echo; \
       /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED -Didgen.library="$BENCH/libidgen.so" \
         -cp "target/idgen-0.1.0.jar:target/test-classes:$(cat target/cp.txt)" org.idgen.Bench; \
     else echo "(no JDK 25 at /usr/lib/jvm/temurin-25-jdk-amd64: no java.lang.foreign figures)"; fi)

echo
echo "== Java beside its pure-Java peers, one JVM (bench/java/PeerBench.java)"
(PEERS=$BENCH/java && mkdir -p "$PEERS" \
  && (cd bench/java && $MVN -q dependency:build-classpath -Dmdep.outputFile="$PEERS/cp.txt") \
  && CP="bindings/java/target/idgen-0.1.0.jar:$(cat bindings/java/target/cp.txt):$(cat "$PEERS/cp.txt")" \
  && javac -d "$PEERS" -cp "$CP" bench/java/PeerBench.java \
  && java -Didgen.library="$BENCH/libidgen.so" -cp "$PEERS:$CP" PeerBench 2>&1 | grep -v '^SLF4J' \
  && if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then echo; \
       /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED -Didgen.library="$BENCH/libidgen.so" \
         -cp "$PEERS:$CP" PeerBench 2>&1 | grep -v '^SLF4J'; fi)
} 2>&1 | tee "$OUT"
echo "(saved to $OUT)"
