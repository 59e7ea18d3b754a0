#!/usr/bin/env bash
# dist.sh OUT WORK — make dist's packaging: from the built libraries,
# commands, jar and npm tarball named below, every artifact into OUT (made
# anew), staging in WORK, and OUT/SHA256SUMS. Byte for byte the same for
# the same inputs: sorted archive members, every date SOURCE_DATE_EPOCH,
# owner root, fixed modes, gzip without names or times.
#
#   idgen-V-linux-ARCH.tar.gz                  lib/ include/ lib/pkgconfig/ bin/ (relocatable .pc)
#   idgen_V-1_DEBARCH.deb                      /usr/lib/TRIPLET/libidgen.so.0, /usr/include,
#                                              /usr/lib/TRIPLET/pkgconfig/idgen.pc, /usr/bin/idgen
#   idgen-V-py3-none-manylinux_2_N_ARCH.whl    one per ARCH
#   idgen-V.jar, idgen-V.pom                   org.idgen:idgen, linux-x86-64/ and linux-aarch64/
#   idgen-V.tgz                                the npm package, prebuilds/linux-x64/ and linux-arm64/
#
# Environment: VERSION, SOURCE_DATE_EPOCH, PY (a python with setuptools and
# build), LIB_x86_64, CLI_x86_64, LIB_aarch64, CLI_aarch64, JAR, POM, NPM.
set -euo pipefail
out=$1 work=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
: "${VERSION:?}" "${SOURCE_DATE_EPOCH:?}" "${PY:?}" "${JAR:?}" "${POM:?}" "${NPM:?}"
export SOURCE_DATE_EPOCH TZ=UTC LC_ALL=C
case $PY in /*) ;; */*) PY=$PWD/$PY ;; esac   # the wheel is built from another directory
umask 022
rm -rf "$out" "$work"
mkdir -p "$out" "$work"

# Every file and directory under $1 dated SOURCE_DATE_EPOCH.
redate() { find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; }

# The newest GLIBC_2.N symbol version a library needs: N.
glibc_minor() { objdump -T "$1" | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -n | tail -1; }

# ---- C tarball: idgen-V-linux-ARCH/{bin,include,lib,lib/pkgconfig}
tarball() {
    local arch=$1 lib=$2 cli=$3 name=idgen-$VERSION-linux-$1
    local top=$work/tar/$name
    install -d -m 0755 "$top/bin" "$top/include" "$top/lib/pkgconfig"
    install -m 0755 "$cli" "$top/bin/idgen"
    install -m 0644 "$repo/include/idgen.h" "$repo/include/idgen.hpp" "$top/include/"
    install -m 0755 "$lib" "$top/lib/libidgen.so.0"
    ln -s libidgen.so.0 "$top/lib/libidgen.so"
    # Relocatable: the prefix is where the .pc file lies, two levels up.
    sed 's|@PREFIX@|${pcfiledir}/../..|; s|@VERSION@|'"$VERSION"'|' "$repo/packaging/idgen.pc.in" > "$top/lib/pkgconfig/idgen.pc"
    chmod 0644 "$top/lib/pkgconfig/idgen.pc"
    install -m 0644 "$repo/LICENSE" "$top/LICENSE"
    redate "$top"
    tar --sort=name --owner=0 --group=0 --numeric-owner --format=gnu -C "$work/tar" -cf - "$name" \
        | gzip -6n > "$out/$name.tar.gz"
}

# ---- Debian package: one per architecture, the library, headers, .pc and command
deb() {
    local arch=$1 lib=$2 cli=$3 debarch triplet
    case $arch in
        x86_64) debarch=amd64 triplet=x86_64-linux-gnu ;;
        aarch64) debarch=arm64 triplet=aarch64-linux-gnu ;;
    esac
    local root=$work/deb-$debarch doc=usr/share/doc/idgen
    local libdir=usr/lib/$triplet
    install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/usr/include" "$root/$libdir/pkgconfig" \
        "$root/$doc" "$root/usr/share/lintian/overrides"
    install -m 0755 "$cli" "$root/usr/bin/idgen"
    install -m 0644 "$repo/include/idgen.h" "$repo/include/idgen.hpp" "$root/usr/include/"
    install -m 0644 "$lib" "$root/$libdir/libidgen.so.0"
    ln -s libidgen.so.0 "$root/$libdir/libidgen.so"
    # The system's library directory: no rpath needed.
    sed 's|@PREFIX@|/usr|; s|@VERSION@|'"$VERSION"'|; s|^libdir=.*|libdir=${prefix}/lib/'"$triplet"'|; s| -Wl,-rpath,${libdir}||' \
        "$repo/packaging/idgen.pc.in" > "$root/$libdir/pkgconfig/idgen.pc"
    chmod 0644 "$root/$libdir/pkgconfig/idgen.pc"
    sed "s/@YEAR@/$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)/" "$repo/packaging/deb/copyright" > "$root/$doc/copyright"
    chmod 0644 "$root/$doc/copyright"
    install -m 0644 "$repo/packaging/deb/lintian-overrides" "$root/usr/share/lintian/overrides/idgen"
    {
        echo "idgen ($VERSION-1) unstable; urgency=medium"
        echo
        echo "  * Built by make dist from the idgen sources."
        echo
        echo " -- idgen maintainers <maintainers@users.noreply.a-seed-5c3b4d0c.example>  $(date -R -d "@$SOURCE_DATE_EPOCH")"
    } | gzip -9n > "$root/$doc/changelog.Debian.gz"
    chmod 0644 "$root/$doc/changelog.Debian.gz"
    cat > "$root/DEBIAN/control" <<EOF
Package: idgen
Version: $VERSION-1
Architecture: $debarch
Maintainer: idgen maintainers <maintainers@users.noreply.a-seed-5c3b4d0c.example>
Installed-Size: $(du -sk --apparent-size "$root/usr" | cut -f1)
Depends: libc6 (>= 2.$(glibc_minor "$lib"))
Section: libs
Priority: optional
Description: unique, time-ordered ids through a C ABI
 libidgen generates unique ids in Go and serves them to C, C++ and any
 language with a C FFI: 64-bit time-ordered ids (Snowflake and its
 relatives, ZooKeeper session ids and zxids), counters handed out in
 segments, RocketMQ message ids, UUIDv7 and ULID, with worker ids leased
 on the host or from a coordinator.
 .
 This package holds the shared library libidgen.so.0, its headers
 (idgen.h, and idgen.hpp for C++17), its pkg-config file idgen.pc and
 the idgen command.
EOF
    echo "libidgen 0 idgen (>= $VERSION)" > "$root/DEBIAN/shlibs"
    echo "activate-noawait ldconfig" > "$root/DEBIAN/triggers"
    (cd "$root" && find usr -type f | sort | xargs md5sum) > "$root/DEBIAN/md5sums"
    chmod 0644 "$root/DEBIAN/"*
    redate "$root"
    dpkg-deb --root-owner-group -Zxz -z1 --build "$root" "$out/idgen_${VERSION}-1_$debarch.deb" >/dev/null
}

# ---- wheel: a copy of bindings/python with this ARCH's library and command
wheel() {
    local arch=$1 lib=$2 cli=$3 pkg=$work/python-$1
    mkdir -p "$pkg"
    cp -r "$repo/bindings/python/setup.py" "$repo/bindings/python/pyproject.toml" "$repo/bindings/python/README.md" \
        "$repo/bindings/python/src" "$pkg/"
    rm -rf "$pkg/src/idgen/libidgen.so" "$pkg/src/idgen/idgen"
    find "$pkg" \( -name __pycache__ -o -name '*.egg-info' \) -prune -exec rm -rf {} +
    install -m 0644 "$lib" "$pkg/src/idgen/libidgen.so"
    install -m 0755 "$cli" "$pkg/src/idgen/idgen"
    (cd "$pkg" && "$PY" -m build --wheel --no-isolation --outdir "$out" \
        -C--build-option=--plat-name=linux_"$arch" . > "$work/wheel-$arch.log" 2>&1) \
        || { cat "$work/wheel-$arch.log"; exit 1; }
}

for arch in x86_64 aarch64; do
    lib=LIB_$arch cli=CLI_$arch
    : "${!lib:?}" "${!cli:?}"
    tarball "$arch" "${!lib}" "${!cli}"
    deb "$arch" "${!lib}" "${!cli}"
    wheel "$arch" "${!lib}" "${!cli}"
done
cp "$JAR" "$out/idgen-$VERSION.jar"
cp "$POM" "$out/idgen-$VERSION.pom"
cp "$NPM" "$out/idgen-$VERSION.tgz"
chmod 0644 "$out"/*
(cd "$out" && sha256sum -- * > SHA256SUMS)
echo "dist: $(ls "$out" | grep -vc SHA256SUMS) artifacts and SHA256SUMS in $out:"
(cd "$out" && stat -c '  %n %s bytes' -- *)
