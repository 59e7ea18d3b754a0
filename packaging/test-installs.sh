#!/usr/bin/env bash
# test-installs.sh DIST WORK — installs from make dist's artifacts alone,
# each into an empty directory under WORK (made anew), none reading the
# source tree:
#   pip      the x86_64 wheel into a fresh venv: the library and python -m
#            idgen from site-packages; pip refuses the aarch64 wheel here
#   maven    tests/dist/maven, a project depending on org.idgen:idgen 0.1.0,
#            the jar and pom installed in a local repository of its own
#            (Maven's own cache serves the plugins and JNA, read-only)
#   npm      npm install of the tarball; bindings/node's pack check runs on it
#   deb      dpkg --root of each .deb into a scratch root whose database
#            has libc6; a C program built with pkg-config from that root
#            (aarch64: cross-built, run under qemu-aarch64), and its idgen
#   tarball  each C tarball unpacked; a C program built with its
#            relocatable pkg-config file runs through the file's rpath
# Environment: VERSION, MVN, ARM64_CC, QEMU, ARM64_ROOT, M2 (Maven's cache,
# default ~/.m2/repository), PYTHON, PIP.
set -euo pipefail
dist=$(cd "$1" && pwd) work=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
: "${VERSION:?}"
V=$VERSION
MVN=${MVN:-mvn -B -ntp} PYTHON=${PYTHON:-python3}
ARM64_CC=${ARM64_CC:-aarch64-linux-gnu-gcc} QEMU=${QEMU:-qemu-aarch64} ARM64_ROOT=${ARM64_ROOT:-/usr/aarch64-linux-gnu}
M2=${M2:-$HOME/.m2/repository}
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
unset IDGEN_LIBRARY IDGEN_CLI IDGEN_CONFIG
passed=0
last=$SECONDS
ok() { passed=$((passed + 1)); echo "test-installs: $* ($((SECONDS - last)) s)"; last=$SECONDS; }
fail() { echo "test-installs: FAILED: $*" >&2; echo "test-installs: $passed passed, 1 failed"; exit 1; }
fresh() { mkdir -p "$work/$1" && cd "$work/$1"; }
demo_c=$work/demo.c
cp "$repo/cmd/demo/demo.c" "$demo_c"   # the program a user writes, outside any checkout

# ---- pip -----------------------------------------------------------------
fresh pip
# A venv without pip of its own is made in a blink; $PIP (a pip 22.3 or
# newer) installs into it. Without PIP, the venv gets its own pip.
if [ -n "${PIP:-}" ]; then
    "$PYTHON" -m venv --without-pip venv
    pip=("$PIP" --python venv/bin/python)
else
    "$PYTHON" -m venv venv
    pip=(venv/bin/pip)
fi
"${pip[@]}" install -q --no-index --disable-pip-version-check "$dist/idgen-$V-py3-none-manylinux_2_34_x86_64.whl"
out=$(venv/bin/python -c '
import idgen, idgen._ffi as f
g = idgen.Generator("preset=snowflake worker=7")
a, b = g.next_id(), g.next_id()
print(f.library_path(), b > a, g.decode(b).worker)
g.close()')
read -r lib bigger worker <<<"$out"
[ "$bigger $worker" = "True 7" ] || fail "pip: the wheel's generator gave: $out"
case $lib in "$work"/pip/venv/lib/python3*/site-packages/idgen/libidgen.so) ;; *) fail "pip: the library came from $lib" ;; esac
grep -q 'worker=25' <<<"$(venv/bin/python -m idgen decode -c 'preset=snowflake worker=0' 910499571847892992)" \
    || fail "pip: python -m idgen decode"
if msg=$("${pip[@]}" install -q --no-index --disable-pip-version-check "$dist/idgen-$V-py3-none-manylinux_2_34_aarch64.whl" 2>&1); then
    fail "pip installed the aarch64 wheel on x86-64"
fi
grep -q 'is not a supported wheel on this platform' <<<"$msg" || fail "pip refused the aarch64 wheel, but not for its tag: $msg"
ok "pip: the x86_64 wheel in a fresh venv runs (library from site-packages, python -m idgen); the aarch64 wheel is refused by its tag"

# ---- maven ---------------------------------------------------------------
fresh maven
cp -r "$repo/tests/dist/maven/." .
repo_dir=$work/maven-repo/org/idgen/idgen/$V
mkdir -p "$repo_dir"
cp "$dist/idgen-$V.jar" "$dist/idgen-$V.pom" "$repo_dir/"
cat > settings.xml <<EOF
<settings>
  <localRepository>$work/maven-repo</localRepository>
  <mirrors><mirror><id>cache</id><mirrorOf>*</mirrorOf><url>file://$M2</url></mirror></mirrors>
</settings>
EOF
$MVN -q -s settings.xml test > maven.log 2>&1 || { cat maven.log; fail "maven: the project on the installed jar"; }
report=target/surefire-reports/TEST-app.UsesIdgenTest.xml
grep -q 'tests="1" errors="0" skipped="0" failures="0"' "$report" || { cat "$report"; fail "maven: its test did not pass"; }
ok "maven: a project depending on org.idgen:idgen:$V (installed from the jar and pom) builds, and its JUnit test runs on the jar's library"

# ---- npm -----------------------------------------------------------------
fresh npm
npm init -y >/dev/null
npm install --prefer-offline --no-audit --no-fund --loglevel=error "$dist/idgen-$V.tgz" >/dev/null \
    || fail "npm install of idgen-$V.tgz"
cp "$repo/bindings/node/scripts/pack-smoke.mjs" .
grep -q "node_modules/idgen/prebuilds/linux-x64/libidgen.so: ok" <<<"$(node pack-smoke.mjs)" || fail "npm: the pack check"
grep -q 'Machine: *AArch64' <<<"$(readelf -h node_modules/idgen/prebuilds/linux-arm64/libidgen.so)" || fail "npm: no aarch64 library"
ok "npm: npm install of the tarball; the pack check runs on prebuilds/linux-x64/, and prebuilds/linux-arm64/ is AArch64"

# ---- deb -----------------------------------------------------------------
# run ARCH PROGRAM ARGS...: on this machine, or under qemu with the cross sysroot
run() {
    local arch=$1; shift
    if [ "$arch" = arm64 ]; then "$QEMU" -L "$ARM64_ROOT" ${LIBPATH:+-E LD_LIBRARY_PATH=$LIBPATH} "$@"
    else LD_LIBRARY_PATH=${LIBPATH:-} "$@"; fi
}
for debarch in amd64 arm64; do
    case $debarch in
        amd64) triplet=x86_64-linux-gnu cc=cc note= ;;
        arm64) triplet=aarch64-linux-gnu cc=$ARM64_CC note=" (under qemu)" ;;
    esac
    fresh "deb-$debarch"
    root=$PWD/root admin=$PWD/root/var/lib/dpkg
    mkdir -p "$admin/info" "$admin/updates" "$admin/triggers"
    touch "$admin/available" "$admin/info/libc6:$debarch.list"
    # The scratch system has glibc: this machine's libc6 entry, for its architecture.
    dpkg-query -s libc6 | sed "s/^Architecture: .*/Architecture: $debarch/" > "$admin/status"
    [ "$debarch" = amd64 ] || dpkg --root="$root" --add-architecture "$debarch"
    dpkg --root="$root" -i "$dist/idgen_$V-1_$debarch.deb" > dpkg.log 2>&1 || { cat dpkg.log; fail "dpkg -i idgen_$V-1_$debarch.deb"; }
    grep -qx 'Status: install ok installed' <<<"$(dpkg --root="$root" -s "idgen:$debarch")" || fail "deb $debarch: not installed"
    flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$triplet/pkgconfig pkg-config --cflags --libs idgen | sed "s/ *$//")
    [ "$flags" = "-I$root/usr/include -L$root/usr/lib/$triplet -lidgen" ] || fail "deb $debarch: pkg-config gave $flags"
    # shellcheck disable=SC2086  # the flags are words
    $cc -o app "$demo_c" $flags
    out=$(LIBPATH=$root/usr/lib/$triplet run "$debarch" ./app "preset=snowflake worker=3")
    grep -q "^libidgen $V .*worker=3" <<<"$out" || fail "deb $debarch: the C program printed: $out"
    grep -q 'worker=25' <<<"$(run "$debarch" "$root/usr/bin/idgen" decode -c 'preset=snowflake worker=0' 910499571847892992)" \
        || fail "deb $debarch: /usr/bin/idgen"
    ok "deb $debarch: dpkg --root -i; a C program built with pkg-config from the scratch root runs on its libidgen.so.0$note; /usr/bin/idgen runs"
done
loaded=$(LD_LIBRARY_PATH=$work/deb-amd64/root/usr/lib/x86_64-linux-gnu ldd "$work/deb-amd64/app" | awk '/libidgen/ {print $3}')
[ "$loaded" = "$work/deb-amd64/root/usr/lib/x86_64-linux-gnu/libidgen.so.0" ] || fail "deb amd64: the program loaded $loaded"

# ---- C tarballs ----------------------------------------------------------
for arch in x86_64 aarch64; do
    case $arch in x86_64) cc=cc debarch=amd64 note= ;; aarch64) cc=$ARM64_CC debarch=arm64 note=" (under qemu)" ;; esac
    fresh "tar-$arch"
    tar -xzf "$dist/idgen-$V-linux-$arch.tar.gz"
    top=$PWD/idgen-$V-linux-$arch
    flags=$(PKG_CONFIG_PATH=$top/lib/pkgconfig pkg-config --cflags --libs idgen | sed "s/ *$//")
    # shellcheck disable=SC2086
    $cc -o app "$demo_c" $flags
    out=$(run "$debarch" ./app "preset=snowflake worker=4")
    grep -q "^libidgen $V .*worker=4" <<<"$out" || fail "tarball $arch: the C program printed: $out"
    ok "tarball $arch: a C program built with the unpacked tarball's pkg-config file runs through its rpath$note"
done
loaded=$(realpath "$(ldd "$work/tar-x86_64/app" | awk '/libidgen/ {print $3}')")
[ "$loaded" = "$work/tar-x86_64/idgen-$V-linux-x86_64/lib/libidgen.so.0" ] || fail "tarball x86_64: the program loaded $loaded"

echo "test-installs: $passed passed, 0 failed"
