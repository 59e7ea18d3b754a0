#!/usr/bin/env bash
# test-arm64.sh DIR PACKAGE... — make test-arm64's runs under qemu-aarch64:
# the C harness binaries in DIR (cross-built against DIR/libidgen.so) and
# the Go tests of each PACKAGE (a directory of this module, built here with
# GOARCH=arm64 into DIR/gotest), in two lanes side by side (the machine has
# two cores), each binary in its own directory as go test would run it.
#
# Two of them exec themselves (ctest/forklock.c through /proc/self/exe, the
# root package's lease test through os.Args[0]): that works only when the
# kernel runs aarch64 ELF files through qemu (binfmt_misc). When no handler
# is registered, this registers one for the run (root) and removes it after.
#
# Environment: GO, ARM64_CC, QEMU (qemu-aarch64), ARM64_ROOT (the cross
# sysroot the emulated loader reads: /usr/aarch64-linux-gnu).
set -euo pipefail
dir=$1; shift
pkgs=("$@")
repo=$(cd "$(dirname "$0")/.." && pwd)
GO=${GO:-go} QEMU=${QEMU:-qemu-aarch64} ARM64_ROOT=${ARM64_ROOT:-/usr/aarch64-linux-gnu}
export QEMU_LD_PREFIX=$ARM64_ROOT GODEBUG=cgocheck=1
logs=$dir/logs
rm -rf "$logs" "$dir/gotest" && mkdir -p "$logs" "$dir/gotest"

# ---- binfmt_misc: aarch64 ELF executables run through qemu
BINFMT=/proc/sys/fs/binfmt_misc
ours=
aarch64_handler() {
    local f
    for f in "$BINFMT"/*; do
        case ${f##*/} in register|status) continue ;; esac
        grep -qs '^enabled' "$f" && grep -qs '^magic 7f454c460201010000000000000000000200b700' "$f" && return 0
    done
    return 1
}
if ! aarch64_handler; then
    [ "$(id -u)" = 0 ] || { echo "test-arm64: no binfmt_misc handler runs aarch64 programs through qemu, and registering one needs root" >&2; exit 1; }
    [ -e "$BINFMT/register" ] || mount -t binfmt_misc binfmt_misc "$BINFMT"
    # Debian's qemu-aarch64 magic and mask (qemu-user-binfmt's), without
    # flags: the kernel runs `qemu-aarch64 PROGRAM ARGS...`.
    printf '%s' ':idgen-test-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$(command -v "$QEMU")"':' > "$BINFMT/register"
    ours=$BINFMT/idgen-test-aarch64
    trap 'echo -1 > "$ours"' EXIT
fi

# ---- the Go tests, cross-built (compiles are cached; the links are not)
imports=()
for p in "${pkgs[@]}"; do imports+=("./$p"); done
start=$SECONDS
(cd "$repo" && CGO_ENABLED=1 GOARCH=arm64 CC=${ARM64_CC:-aarch64-linux-gnu-gcc} "$GO" test -c -trimpath -o "$dir/gotest/" "${imports[@]}")
echo "test-arm64: ${#pkgs[@]} Go test binaries built in $((SECONDS - start))s; running them and the C harness under $QEMU"

# run NAME WORKDIR PROGRAM ARGS...: one binary under qemu, its output in
# logs/NAME.log, its status and seconds in logs/NAME.rc.
run() {
    local name=$1 wd=$2; shift 2
    local start=$SECONDS rc=0
    (cd "$wd" && timeout 600 "$QEMU" "$@") > "$logs/$name.log" 2>&1 || rc=$?
    echo "$rc $((SECONDS - start))" > "$logs/$name.rc"
}
gotests() {
    local p name
    for p in "${pkgs[@]}"; do
        name=$(cd "$repo" && "$GO" list -f '{{.ImportPath}}' "./$p")
        run "go-${name##*/}" "$repo/$p" "$dir/gotest/${name##*/}.test" -test.v -test.timeout=5m
    done
}

run ctest "$dir" ./ctest &
lane=$!
gotests
run ctest_forklock "$dir" ./ctest_forklock
run ctest_info "$dir" ./ctest_info
run ctest_runs "$dir" ./ctest_runs
wait "$lane"

# ---- what each found: the C programs' own "N passed, M failed" lines and
# go test's top-level --- PASS/FAIL/SKIP lines, added up
bad=0 npass=0 nfail=0 nskip=0
for f in "$logs"/*.rc; do
    name=$(basename "$f" .rc)
    read -r rc secs < "$f"
    log=$logs/$name.log
    if [ "${name#go-}" != "$name" ]; then
        p=$(grep -c '^--- PASS' "$log" || true) x=$(grep -c '^--- FAIL' "$log" || true) s=$(grep -c '^--- SKIP' "$log" || true)
    else
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)
        p=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' <<<"$line") x=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line") s=0
    fi
    p=${p:-0} x=${x:-0}
    if [ "$rc" != 0 ] && [ "$x" = 0 ]; then x=1; fi   # a crash, a timeout: one failure
    npass=$((npass + p)) nfail=$((nfail + x)) nskip=$((nskip + s))
    if [ "$rc" = 0 ]; then
        echo "test-arm64: $name: ok in ${secs}s ($p passed, $s skipped)"
    else
        bad=1
        echo "test-arm64: $name: FAILED (status $rc) in ${secs}s ($p passed, $x failed); the end of $log:"
        tail -40 "$log" | sed 's/^/    /'
    fi
done
echo "test-arm64: under $QEMU with $ARM64_ROOT's loader; skipped: the Go tests that skip themselves (as on x86-64)"
echo "test-arm64: $npass passed, $nfail failed, $nskip skipped"
[ "$bad" = 0 ] && [ "$nfail" = 0 ]
