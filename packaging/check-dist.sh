#!/usr/bin/env bash
# check-dist.sh DIST — what make dist wrote, package by package: exactly
# the expected files, SHA256SUMS true; per architecture the tarball's
# library passes check-abi.sh, and the wheel, the .deb, the jar and the npm
# package carry that same library (and the same idgen command) byte for
# byte; auditwheel show names each wheel's manylinux_2_34 tag; lintian finds
# nothing in either .deb that packaging/deb/lintian-overrides does not
# explain; every package says version $VERSION.
set -euo pipefail
dist=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
: "${VERSION:?}"
AUDITWHEEL=${AUDITWHEEL:-auditwheel}
V=$VERSION
t=$(mktemp -d "${TMPDIR:-/tmp}/idgen-check-dist-XXXXXX")
trap 'rm -rf "$t"' EXIT
fail() { echo "check-dist: $*" >&2; exit 1; }
sha() { sha256sum | cut -d' ' -f1; }
cd "$dist"

want="SHA256SUMS
idgen-$V-linux-aarch64.tar.gz
idgen-$V-linux-x86_64.tar.gz
idgen-$V-py3-none-manylinux_2_34_aarch64.whl
idgen-$V-py3-none-manylinux_2_34_x86_64.whl
idgen-$V.jar
idgen-$V.pom
idgen-$V.tgz
idgen_$V-1_amd64.deb
idgen_$V-1_arm64.deb"
got=$(ls -A | LC_ALL=C sort)
[ "$got" = "$(LC_ALL=C sort <<<"$want")" ] || { diff <(echo "$want") <(echo "$got") >&2 || true; fail "the files of $dist are not the expected ones"; }
sha256sum --quiet -c SHA256SUMS || fail "SHA256SUMS does not match"
[ "$(cut -d' ' -f3 SHA256SUMS | LC_ALL=C sort)" = "$(grep -v SHA256SUMS <<<"$want" | LC_ALL=C sort)" ] \
    || fail "SHA256SUMS does not list every artifact"

# Every package's version.
grep -qx "version=$V" <<<"$(unzip -p "idgen-$V.jar" META-INF/maven/org.idgen/idgen/pom.properties)" || fail "jar: not version $V"
grep -q "\"version\": \"$V\"" <<<"$(tar -xzOf "idgen-$V.tgz" package/package.json)" || fail "npm: not version $V"

expect_tar() {  # the tarball's members, in order
    local n=idgen-$V-linux-$1
    printf '%s\n' "$n/" "$n/LICENSE" "$n/bin/" "$n/bin/idgen" "$n/include/" "$n/include/idgen.h" "$n/include/idgen.hpp" \
        "$n/lib/" "$n/lib/libidgen.so" "$n/lib/libidgen.so.0" "$n/lib/pkgconfig/" "$n/lib/pkgconfig/idgen.pc"
}

for arch in x86_64 aarch64; do
    case $arch in
        x86_64) debarch=amd64 triplet=x86_64-linux-gnu jar=linux-x86-64 node=linux-x64 cli_machine='Advanced Micro Devices X86-64' ;;
        aarch64) debarch=arm64 triplet=aarch64-linux-gnu jar=linux-aarch64 node=linux-arm64 cli_machine=AArch64 ;;
    esac
    # The C tarball: its members, its library's ABI, its command's machine.
    tgz=idgen-$V-linux-$arch.tar.gz
    [ "$(tar -tzf "$tgz")" = "$(expect_tar "$arch")" ] || { diff <(expect_tar "$arch") <(tar -tzf "$tgz") >&2 || true; fail "$tgz: unexpected members"; }
    mkdir -p "$t/$arch" && tar -xzf "$tgz" -C "$t/$arch"
    top=$t/$arch/idgen-$V-linux-$arch
    [ "$(readlink "$top/lib/libidgen.so")" = libidgen.so.0 ] || fail "$tgz: lib/libidgen.so is not a link to libidgen.so.0"
    grep -qx 'prefix=${pcfiledir}/../..' "$top/lib/pkgconfig/idgen.pc" || fail "$tgz: idgen.pc is not relocatable"
    grep -qx "Version: $V" "$top/lib/pkgconfig/idgen.pc" || fail "$tgz: idgen.pc is not version $V"
    "$repo/packaging/check-abi.sh" "$top/lib/libidgen.so.0" "$arch"
    grep -q "Machine: *$cli_machine" <<<"$(readelf -h "$top/bin/idgen")" || fail "$tgz: bin/idgen is not for $arch"
    lib=$(sha < "$top/lib/libidgen.so.0") cli=$(sha < "$top/bin/idgen")

    # The same library (and command) in every other package of this arch.
    whl=idgen-$V-py3-none-manylinux_2_34_$arch.whl
    [ "$(unzip -p "$whl" idgen/libidgen.so | sha)" = "$lib" ] || fail "$whl: another libidgen.so than $tgz's"
    [ "$(unzip -p "$whl" idgen/idgen | sha)" = "$cli" ] || fail "$whl: another idgen command than $tgz's"
    grep -qx "Tag: py3-none-manylinux_2_34_$arch" <<<"$(unzip -p "$whl" "idgen-$V.dist-info/WHEEL")" || fail "$whl: WHEEL has another tag"
    deb=idgen_$V-1_$debarch.deb
    dpkg-deb --fsys-tarfile "$deb" > "$t/$debarch.tar"
    [ "$(tar -xOf "$t/$debarch.tar" "./usr/lib/$triplet/libidgen.so.0" | sha)" = "$lib" ] || fail "$deb: another libidgen.so.0 than $tgz's"
    [ "$(tar -xOf "$t/$debarch.tar" ./usr/bin/idgen | sha)" = "$cli" ] || fail "$deb: another idgen command than $tgz's"
    for f in ./usr/include/idgen.h ./usr/include/idgen.hpp "./usr/lib/$triplet/libidgen.so" "./usr/lib/$triplet/pkgconfig/idgen.pc"; do
        tar -tf "$t/$debarch.tar" "$f" >/dev/null 2>&1 || fail "$deb: no $f"
    done
    [ "$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" = "Package: idgen Version: $V-1 Architecture: $debarch " ] \
        || fail "$deb: control says $(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')"
    [ "$(unzip -p "idgen-$V.jar" "$jar/libidgen.so" | sha)" = "$lib" ] || fail "idgen-$V.jar: another $jar/libidgen.so than $tgz's"
    [ "$(tar -xzOf "idgen-$V.tgz" "package/prebuilds/$node/libidgen.so" | sha)" = "$lib" ] || fail "idgen-$V.tgz: another prebuilds/$node/libidgen.so than $tgz's"

    # PyPI's own check of the wheel's platform tag.
    show=$("$AUDITWHEEL" show "$whl" 2>&1) || { echo "$show"; fail "auditwheel show $whl failed"; }
    tr -s ' \n' '  ' <<<"$show" | grep -q "consistent with the following platform tag: \"manylinux_2_34_$arch\"" \
        || { echo "$show"; fail "auditwheel show does not give $whl the tag manylinux_2_34_$arch"; }

    echo "check-dist $arch: $tgz, $whl ($(grep -o 'manylinux_2_34_[a-z0-9_]*' <<<"$show" | head -1) by auditwheel), $deb, idgen-$V.jar $jar/, idgen-$V.tgz prebuilds/$node/: one libidgen.so, $(stat -c %s "$top/lib/libidgen.so.0") bytes stripped"
done

# lintian, both packages in one run: nothing but what the package's
# overrides explain (each with its reason).
report=$(lintian --no-cfg --fail-on none --show-overrides "idgen_${V}-1_amd64.deb" "idgen_${V}-1_arm64.deb" 2>&1)
if grep -E '^[EW]: ' <<<"$report"; then fail "lintian: the tags above are neither fixed nor explained in packaging/deb/lintian-overrides"; fi
echo "check-dist: lintian finds no error or warning in either .deb; $(grep -c '^O: ' <<<"$report" || true) overridden tags, each explained"
echo "check-dist: $(wc -l < SHA256SUMS) artifacts in SHA256SUMS, all as expected"
