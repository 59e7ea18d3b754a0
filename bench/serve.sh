#!/usr/bin/env bash
# make bench's id service figures: `idgen serve` under load from wrk (a C
# load generator, Debian's wrk; installed here when missing), on the same
# 2-core host, keep-alive, 32 connections over 2 threads, 5 s a round,
# median of 3 rounds: single-id requests/s, ids/s in batches of 1,000, and
# the 99th percentile latency, for preset=segment step=auto on PostgreSQL
# ($IDGEN_BENCH_PG, as bench/run.sh exports it) and for preset=snowflake
# worker=lease (a host lease directory).
#   bench/serve.sh IDGEN_CLI
set -euo pipefail
CLI=${1:?the idgen command}
if ! command -v wrk >/dev/null; then
    { apt-get install -y -q wrk || { apt-get update -q && apt-get install -y -q wrk; }; } >/dev/null 2>&1 \
      || { echo "(no wrk, and it could not be installed: no id service figures)"; exit 0; }
fi
DIR=$(mktemp -d /tmp/idgen-servebench-XXXXXX)
PORT=18181
GENS=(--gen "snow=preset=snowflake worker=lease lease_dir=$DIR")
if [ -n "${IDGEN_BENCH_PG:-}" ]; then
    GENS+=(--gen "pgseg=preset=segment name=servebench step=auto store=$IDGEN_BENCH_PG")
else
    echo "(no PostgreSQL: the segment rows use the host directory)"
    GENS+=(--gen "pgseg=preset=segment name=servebench step=auto lease_dir=$DIR")
fi
"$CLI" serve --listen 127.0.0.1:$PORT "${GENS[@]}" 2>"$DIR/serve.log" &
SP=$!
trap 'kill -TERM $SP 2>/dev/null; wait $SP 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

# round PATH: "requests/s p99_ms" of one 5 s wrk run.
round() {
    wrk -t2 -c32 -d5s --latency "http://127.0.0.1:$PORT$1" | awk '
        /Requests\/sec/ { rps = $2 }
        / 99% / { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else if (v ~ /s$/) { sub(/s/, "", v); v *= 1000 }; p99 = v }
        END { printf "%.0f %.2f\n", rps, p99 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf "%-44s %14s %14s %10s\n" "idgen serve, wrk -t2 -c32, median of 3 x 5 s" "requests/s" "ids/s" "p99 ms"
for row in "snowflake worker=lease, one id|/v1/ids/snow|1" \
           "snowflake worker=lease, n=1000|/v1/ids/snow?n=1000|1000" \
           "segment step=auto on PostgreSQL, one id|/v1/ids/pgseg|1" \
           "segment step=auto on PostgreSQL, n=1000|/v1/ids/pgseg?n=1000|1000" \
           "segment, Leaf's /api/segment/get|/api/segment/get/pgseg|1"; do
    IFS='|' read -r label path per <<<"$row"
    r1=$(round "$path"); r2=$(round "$path"); r3=$(round "$path")
    rps=$(printf "%s\n%s\n%s\n" "${r1% *}" "${r2% *}" "${r3% *}" | median)
    p99=$(printf "%s\n%s\n%s\n" "${r1#* }" "${r2#* }" "${r3#* }" | median)
    printf "%-44s %14s %14s %10s\n" "$label" "$rps" "$((rps * per))" "$p99"
done
