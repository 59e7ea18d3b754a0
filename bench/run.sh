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

echo "== C (bench/c/bench.c)"
"$BENCH/cbench" 1.0
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
  && java -Didgen.library="$BENCH/libidgen.so" -cp "target/idgen-0.1.0.jar:target/test-classes:$(cat target/cp.txt)" org.idgen.Bench)
} 2>&1 | tee "$OUT"
echo "(saved to $OUT)"
