#!/usr/bin/env bash
# check-abi.sh LIBRARY ARCH — the ABI of one built libidgen.so, for ARCH
# x86_64 or aarch64: an ELF64 shared object for that machine, SONAME
# libidgen.so.0, exporting exactly the functions include/idgen.h declares
# (each allowed by capi/idgen.map's global patterns), needing only glibc
# (libc.so.6 and the dynamic loader) at symbol versions up to
# GLIBC_$GLIBC_MAX, stripped, and under $MAX_BYTES. One line when it holds.
set -euo pipefail -f   # -f: the map's patterns are globs to match with, not to expand
lib=$1 arch=$2
here=$(cd "$(dirname "$0")/.." && pwd)
GLIBC_MAX=${GLIBC_MAX:-2.34}
MAX_BYTES=${MAX_BYTES:-12000000}
case $arch in
    x86_64) machine='Advanced Micro Devices X86-64' loader=ld-linux-x86-64.so.2 ;;
    aarch64) machine='AArch64' loader=ld-linux-aarch64.so.1 ;;
    *) echo "check-abi: unknown arch $arch" >&2; exit 2 ;;
esac
fail() { echo "check-abi $arch $lib: $*" >&2; exit 1; }

header=$(readelf -h "$lib")
grep -q 'Class: *ELF64' <<<"$header" || fail "not ELF64"
grep -q 'Data: *2.s complement, little endian' <<<"$header" || fail "not little endian"
grep -q 'Type: *DYN' <<<"$header" || fail "not a shared object"
got=$(sed -n 's/^ *Machine: *//p' <<<"$header")
[ "$got" = "$machine" ] || fail "machine is '$got', not '$machine'"

dynamic=$(readelf -d "$lib")
soname=$(sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p' <<<"$dynamic")
[ "$soname" = libidgen.so.0 ] || fail "SONAME is '$soname', not libidgen.so.0"
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic" | sort | tr '\n' ' ')
for n in $needed; do
    [ "$n" = libc.so.6 ] || [ "$n" = "$loader" ] || fail "needs $n (only libc.so.6 and $loader are allowed)"
done

# The map's global patterns (idgen_*), and the header's functions.
patterns=$(sed -n '/global:/,/local:/p' "$here/capi/idgen.map" | grep -o '[A-Za-z_*]*;' | tr -d ';')
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
declared=$(grep -oE '\bidgen_[a-z0-9_]+[[:space:]]*\(' "$here/include/idgen.h" | tr -d '( ' | sort -u)
for s in $exported; do
    ok=
    for p in $patterns; do
        # shellcheck disable=SC2053  # $p is a glob on purpose
        [[ $s == $p ]] && ok=1
    done
    [ -n "$ok" ] || fail "exports $s, which capi/idgen.map does not allow"
done
if [ "$exported" != "$declared" ]; then
    diff <(echo "$declared") <(echo "$exported") | sed 's/^</  declared only:/; s/^>/  exported only:/' | grep only >&2 || true
    fail "exported symbols differ from include/idgen.h's functions"
fi

versions=$(objdump -T "$lib" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV)
newest=$(tail -1 <<<"$versions")
[ "$(printf '%s\n%s\n' "$newest" "$GLIBC_MAX" | sort -V | tail -1)" = "$GLIBC_MAX" ] \
    || fail "needs GLIBC_$newest, newer than $GLIBC_MAX"

! grep -q '\.symtab' <<<"$(readelf -S "$lib")" || fail "not stripped (.symtab)"
size=$(stat -c %s "$lib")
[ "$size" -lt "$MAX_BYTES" ] || fail "$size bytes, not under $MAX_BYTES"

echo "abi $arch: $(basename "$lib") $size bytes, $got, SONAME $soname, needs $needed(glibc $newest), exports the $(wc -w <<<"$exported") functions of include/idgen.h, stripped"
