# idgen — the README's commands: make, make demo, make test, make bench.
# Every output goes to build/.

SHELL   := /bin/bash
GO      ?= go
CC      ?= gcc
PYTHON  ?= python3
BUILD   := $(CURDIR)/build
LIB     := $(BUILD)/libidgen.so
VENV    := $(BUILD)/venv
VPY     := $(VENV)/bin/python
GOFLAGS_LIB := -buildmode=c-shared -trimpath
LDFLAGS_LIB := -s -w -buildid= -extldflags '-Wl,--version-script=$(CURDIR)/capi/idgen.map -Wl,-soname,libidgen.so.0'
GO_SRC  := go.mod go.sum $(filter-out %_test.go,$(wildcard *.go)) $(shell find internal capi -name '*.go' -not -name '*_test.go') $(wildcard capi/*.c capi/*.h capi/idgen.map) include/idgen.h
CFLAGS_TEST := -std=c11 -O2 -g -Wall -Wextra -Werror -Iinclude -pthread
RPATH   := -Wl,-rpath,'$$ORIGIN'

.PHONY: all lib demo test test-go test-structure test-goapp test-sim sim sim-mutants test-peers-go test-abi test-c test-cpp test-install install test-purego test-python test-metrics test-java test-docs test-fleet docs-pictures docs-metrics-picture \
        fuzz fuzz-go test-fuzz bench wheel python-env clean

all: lib $(BUILD)/idgen

lib: $(LIB)

# The idgen CLI (Go, on the public package only; no cgo).
$(BUILD)/idgen: $(GO_SRC) $(wildcard cmd/idgen/*.go) $(filter-out %_test.go,$(wildcard serve/*.go))
	@mkdir -p $(BUILD)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -o $@ ./cmd/idgen

# docs/pictures: the bit layout of every preset, drawn by idgen explain --svg.
PRESETS := snowflake hutool mybatis-plus leaf baidu sonyflake sonyflake-v2 js53 zk-session zxid
docs-pictures: $(BUILD)/idgen
	@mkdir -p docs/pictures
	@for p in $(PRESETS); do $(BUILD)/idgen explain -c "preset=$$p worker=0" --svg docs/pictures/$$p.svg >/dev/null || exit 1; done
	@echo "docs/pictures: $(words $(PRESETS)) layouts"

$(LIB): $(GO_SRC)
	@mkdir -p $(BUILD)
	CGO_ENABLED=1 $(GO) build $(GOFLAGS_LIB) -ldflags "$(LDFLAGS_LIB)" -o $@ ./capi
	rm -f $(BUILD)/libidgen.h
	ln -sf libidgen.so $(BUILD)/libidgen.so.0

# docs/pictures/metrics-dashboard.svg: dashboard panels drawn from real
# scrapes through a PostgreSQL outage (tests/metrics/dashboard_picture.py).
docs-metrics-picture: wheel $(VENV)/.prometheus
	$(VPY) -m pip install -q --force-reinstall --no-deps $(BUILD)/wheel/*.whl
	$(VPY) tests/metrics/dashboard_picture.py docs/pictures/metrics-dashboard.svg

# docs/pictures/metrics-dashboard.png: every panel of the dashboard, its
# queries evaluated by a real Prometheus server (tests/servers/prometheus.sh)
# over its scrapes through the same kind of outage, drawn by our page
# (tests/metrics/dashboard_page) in headless Chromium (installed when missing).
.PHONY: docs-dashboard-png
docs-dashboard-png: wheel
	$(VPY) -m pip install -q --force-reinstall --no-deps $(BUILD)/wheel/*.whl
	$(VPY) tests/metrics/dashboard_png.py docs/pictures/metrics-dashboard.png $(BUILD)/dashboard-page

$(BUILD)/demo: cmd/demo/demo.c include/idgen.h $(LIB)
	$(CC) -std=c11 -Wall -Wextra -Iinclude $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

demo: $(BUILD)/demo
	$(BUILD)/demo
	@echo
	$(BUILD)/demo "preset=zk-session worker=5"

# ---- tests, cheapest first -------------------------------------------------

# make test runs the suites that build what the fleet's host-language
# processes load (the venv's wheel, the jar, node's modules, the Rust
# holder) first, the rest after them, and the fleet suites (tests/fleet:
# real servers) last. The fleet takes copies of the wheel's package and the
# jar as it starts.
TEST_HOSTS  := test-python test-java test-node test-rust
TEST_OTHERS := test-go test-structure test-sim test-peers-go test-abi test-c test-arm64 test-goapp test-cpp test-install test-purego \
               test-metrics test-java-frameworks test-docs test-fuzz test-dist

test: $(TEST_HOSTS) $(TEST_OTHERS) test-fleet
	@echo "make test: all suites passed"

test-go:
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || { echo "gofmt: the files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# The house rules a reader can measure (tests/structure, a module of its
# own): no two files of a Go package that use each other's definitions,
# directly or through others; no non-test file over 300 lines; no function
# over 60. Its own test holds it to a package that breaks each rule.
test-structure:
	cd tests/structure && $(GO) vet . && $(GO) test -count=1 . && $(GO) run . $(CURDIR) ./...

# A Go program outside the module (tests/goapp, its go.mod replaces
# github.com/idgen/idgen with this checkout) shares a lease pool with the C
# holder on the built library.
test-goapp: $(BUILD)/holder
	cd tests/goapp && $(GO) vet . && $(GO) build -o $(BUILD)/goapp .
	$(BUILD)/goapp $(BUILD)/holder

# The lease simulator (internal/sim): make sim [SIM_SCHEDULES=N SIM_SEED=S
# SIM_SECONDS=T SIM_TRACE=1]; make sim-mutants runs each seeded bug until it
# is caught. make test runs a fixed-seed batch and every mutant.
# SIM_SECONDS=N alone runs for N seconds (schedules unbounded).
SIM_SECONDS   ?= 0
SIM_SCHEDULES ?= $(if $(filter 0,$(SIM_SECONDS)),10000,1000000000)
SIM_SEED      ?= 1
SIM_TRACE     ?=
SIM_ENV = SIM_SCHEDULES=$(SIM_SCHEDULES) SIM_SEED=$(SIM_SEED) SIM_SECONDS=$(SIM_SECONDS) SIM_TRACE=$(SIM_TRACE)

sim:
	@$(SIM_ENV) $(GO) run ./internal/sim/cmd/idgen-sim

sim-mutants:
	@SIM_SCHEDULES=$(if $(filter command line,$(origin SIM_SCHEDULES)),$(SIM_SCHEDULES),30000) SIM_SEED=$(SIM_SEED) $(GO) run -tags simmutants ./internal/sim/cmd/idgen-sim -mutants -jobs $(SIM_JOBS)

# Mutants run SIM_JOBS at once, each in a process of its own (a schedule
# is one thread's work).
SIM_JOBS ?= 2

test-sim:
	@SIM_SCHEDULES=3000 SIM_SEED=1 $(GO) run ./internal/sim/cmd/idgen-sim
	@SIM_SCHEDULES=30000 SIM_SEED=1 $(GO) run -tags simmutants ./internal/sim/cmd/idgen-sim -mutants -jobs $(SIM_JOBS)

# The Go peers (sony/sonyflake v2, bwmarrin/snowflake) read idgen's ids and
# idgen reads theirs; a module of its own keeps them out of the library's.
test-peers-go:
	cd bench/go && $(GO) test -count=1 -run '^Test' .

# Only idgen_* may be exported, under the right soname; the header must
# compile as C11 and as C++.
test-abi: $(LIB)
	@bad=$$(nm -D --defined-only $(LIB) | awk '{print $$3}' | grep -v '^idgen_' || true); \
	if [ -n "$$bad" ]; then echo "unexpected exported symbols:"; echo "$$bad"; exit 1; fi
	@readelf -d $(LIB) | grep -q 'SONAME.*libidgen.so.0' || { echo "soname is not libidgen.so.0"; exit 1; }
	@echo '#include "idgen.h"' | $(CC) -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -x c -c - -o /dev/null
	@echo '#include "idgen.h"' | g++ -std=c++11 -Wall -Wextra -Werror -pedantic -Iinclude -x c++ -c - -o /dev/null
	@echo "abi: $$(nm -D --defined-only $(LIB) | grep -c ' idgen_') idgen_* symbols, nothing else; header OK as C11 and C++"

$(BUILD)/ctest: ctest/harness.c ctest/check.h include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

$(BUILD)/ctest_textid: ctest/textid.c ctest/check.h include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

$(BUILD)/ctest_forklock: ctest/forklock.c ctest/check.h include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

$(BUILD)/ctest_info: ctest/info.c ctest/check.h include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

$(BUILD)/ctest_runs: ctest/runs.c ctest/check.h ctest/linear.h ctest/hosttake.h include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

# capi/runs.c alone under ThreadSanitizer, its Go side a model (ctest/runs_tsan.c).
$(BUILD)/ctest_runs_tsan: ctest/runs_tsan.c ctest/linear.h ctest/hosttake.h capi/runs.c capi/runs.h capi/runclock.c capi/runclock.h
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O1 -g -Wall -Wextra -Werror -fsanitize=thread -pthread -Icapi ctest/runs_tsan.c capi/runs.c capi/runclock.c -o $@

test-c: $(BUILD)/ctest $(BUILD)/ctest_textid $(BUILD)/ctest_forklock $(BUILD)/ctest_info $(BUILD)/ctest_runs $(BUILD)/ctest_runs_tsan
	cd $(BUILD) && ./ctest && ./ctest_textid && ./ctest_forklock && ./ctest_info && ./ctest_runs && ./ctest_runs_tsan

# make fuzz: the C ABI fuzzer (tests/fuzz): configurations built from the
# library's own key table, each case in a forked worker with a memory cap
# and a time limit. FUZZ_SECONDS (60), FUZZ_SEED (random when empty; the
# run prints it); a finding prints a one-line reproducer, and the run
# exits non-zero. make test runs 30 s from seed 1, and every Go fuzz
# target (func Fuzz* under internal/) for FUZZ_GO_TIME each: a count of
# inputs (Nx), not a duration — a timed -fuzztime can end with go test's
# own "context deadline exceeded" when the deadline meets a worker mid-input.
FUZZ_SECONDS ?= 60
FUZZ_SEED    ?=
FUZZ_GO_TIME ?= 40000x
FUZZ_SRC     := $(wildcard tests/fuzz/*.c tests/fuzz/*.h)

$(BUILD)/fuzz: $(FUZZ_SRC) include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) -Itests/fuzz $(filter %.c,$(FUZZ_SRC)) -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

fuzz: $(BUILD)/fuzz
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) FUZZ_SELF=$(BUILD)/fuzz $(BUILD)/fuzz

fuzz-go:
	@set -o pipefail; grep -rn --include='*_test.go' '^func Fuzz' internal | while IFS=: read -r file _ decl; do \
	  name=$$(sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' <<<"$$decl"); pkg=./$$(dirname "$$file"); \
	  out=$$($(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime=$(FUZZ_GO_TIME) "$$pkg" 2>&1) \
	    || { echo "$$out"; echo "fuzz-go: $$name in $$pkg failed (the input is in $$pkg/testdata/fuzz/$$name)"; exit 1; }; \
	  echo "fuzz-go: $$name ($$pkg) $(FUZZ_GO_TIME): $$(grep -o 'execs: [0-9]*' <<<"$$out" | tail -1 || true)"; \
	done

test-fuzz: $(BUILD)/fuzz $(BUILD)/idgen fuzz-go
	@FUZZ_SECONDS=30 FUZZ_SEED=1 FUZZ_SELF=$(BUILD)/fuzz IDGEN_CLI=$(BUILD)/idgen $(BUILD)/fuzz

# include/idgen.hpp: C++17 RAII over the C ABI, warnings as errors.
$(BUILD)/test_hpp: tests/cpp/test_hpp.cpp tests/cpp/test_calls.cpp tests/cpp/check.hpp include/idgen.hpp include/idgen.h $(LIB)
	g++ -std=c++17 -O2 -Wall -Wextra -Werror -pedantic -Iinclude -pthread $(filter %.cpp,$^) -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

test-cpp: $(BUILD)/test_hpp
	cd $(BUILD) && ./test_hpp

# ---- install: lib/libidgen.so.0 (+ libidgen.so), include/idgen.h(pp), pkg-config

PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := $(shell sed -n 's/^#define IDGEN_VERSION_STRING "\(.*\)"/\1/p' include/idgen.h)

install: $(LIB) $(BUILD)/idgen
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD)/idgen $(DESTDIR)$(PREFIX)/bin/idgen
	install -m 0755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libidgen.so.0
	ln -sf libidgen.so.0 $(DESTDIR)$(PREFIX)/lib/libidgen.so
	install -m 0644 include/idgen.h include/idgen.hpp $(DESTDIR)$(PREFIX)/include/
	sed 's|@PREFIX@|$(PREFIX)|; s|@VERSION@|$(VERSION)|' packaging/idgen.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/idgen.pc
	@echo "installed under $(DESTDIR)$(PREFIX)"

# The README's link line, followed literally against a fresh install.
test-install:
	@command -v pkg-config >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq >/dev/null && apt-get install -y -qq pkgconf >/dev/null; } \
	  || { echo "test-install: pkg-config is missing (apt-get install pkgconf)"; exit 1; }
	rm -rf $(BUILD)/inst && mkdir -p $(BUILD)/inst
	$(MAKE) --no-print-directory install PREFIX=$(BUILD)/inst/usr DESTDIR= >/dev/null
	PKG_CONFIG_PATH=$(BUILD)/inst/usr/lib/pkgconfig; export PKG_CONFIG_PATH; \
	  cc -o $(BUILD)/inst/app-c cmd/demo/demo.c $$(pkg-config --cflags --libs idgen) && \
	  g++ -std=c++17 -o $(BUILD)/inst/app-cpp -x c++ - $$(pkg-config --cflags --libs idgen) <<<'#include <idgen.hpp>'$$'\n''#include <cstdio>'$$'\n''int main() { idgen::Generator g("worker=3"); std::printf("%lld\n", (long long)g.next()); }' && \
	  $(BUILD)/inst/app-c "preset=snowflake worker=3" | grep -q 'worker' && \
	  $(BUILD)/inst/app-cpp | grep -qE '^[0-9]+$$' && \
	  ldd $(BUILD)/inst/app-c | grep -q '$(BUILD)/inst/usr/lib/libidgen.so.0' && \
	  $(BUILD)/inst/usr/bin/idgen decode -c 'preset=snowflake worker=0' 910499571847892992 | grep -q 'worker=25' && \
	  echo "test-install: pkg-config builds C and C++ programs that run against $(BUILD)/inst/usr/lib/libidgen.so.0"

test-purego: $(LIB)
	IDGEN_LIBRARY=$(LIB) $(GO) test -count=1 -tags abi ./abitest

# ---- fleet: real ZooKeeper and PostgreSQL servers (tests/servers/*.sh) -----

$(BUILD)/holder: tests/fleet/holder/holder.c include/idgen.h $(LIB)
	$(CC) $(CFLAGS_TEST) $< -L$(BUILD) -l:libidgen.so $(RPATH) -o $@

$(BUILD)/tcpproxy: tests/fleet/tcpproxy/main.go
	$(GO) build -o $@ ./tests/fleet/tcpproxy

# Starts a 3-node ZooKeeper ensemble and a PostgreSQL cluster (installing
# Debian's packages when missing), runs the fault tests, stops them. The
# outage tests marked t.Parallel (one store each, mostly waiting out their
# outages) run all at once after the others: -parallel 8, not GOMAXPROCS.
test-fleet: $(BUILD)/holder $(BUILD)/tcpproxy
	-cd $(JAVA) && $(MVN) -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null 2>&1
	set -o pipefail; IDGEN_FLEET_ALL=1 IDGEN_BUILD=$(BUILD) $(GO) test -tags fleet -count=1 -v -parallel 8 -timeout 20m ./tests/fleet 2>&1 \
	  | grep -v '^=== \(RUN\|PAUSE\|CONT\)' 

# ---- Python ---------------------------------------------------------------

PYPKG := bindings/python

$(VENV)/.ok:
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q pytest==9.2.0 mypy==2.4.1 build==1.6.1 numpy==2.4.6
	touch $@

# The UUIDv7 peers the Python tests and bench compare with (a stamp of its
# own, so a venv made before them gets them too).
$(VENV)/.uuid-peers: $(VENV)/.ok
	$(VPY) -m pip install -q uuid6==2025.0.1 uuid-utils==1.2.0
	touch $@

# prometheus_client: idgen.prometheus's optional dependency, and the real
# exposition parser the metrics tests read idgen_metrics_text with.
$(VENV)/.prometheus: $(VENV)/.ok
	$(VPY) -m pip install -q prometheus_client==0.26.0
	touch $@

python-env: $(VENV)/.ok

# The wheel carries the library and the idgen command (python -m idgen runs it).
wheel: $(LIB) $(BUILD)/idgen $(VENV)/.ok
	cp $(LIB) $(PYPKG)/src/idgen/libidgen.so
	cp $(BUILD)/idgen $(PYPKG)/src/idgen/idgen
	rm -rf $(BUILD)/wheel $(PYPKG)/build
	$(VPY) -m build --wheel --outdir $(BUILD)/wheel $(PYPKG) > $(BUILD)/wheel.log 2>&1 \
	  || { cat $(BUILD)/wheel.log; rm -f $(PYPKG)/src/idgen/libidgen.so $(PYPKG)/src/idgen/idgen; exit 1; }
	rm -f $(PYPKG)/src/idgen/libidgen.so $(PYPKG)/src/idgen/idgen
	@ls $(BUILD)/wheel

test-python: wheel $(BUILD)/idgen $(VENV)/.uuid-peers $(VENV)/.prometheus
	$(VPY) -m pip install -q --force-reinstall --no-deps $(BUILD)/wheel/*.whl
	cd $(PYPKG) && $(VPY) -m mypy --strict src/idgen tests
	cd $(PYPKG) && IDGEN_BUILD=$(BUILD) IDGEN_WHEEL=$$(ls $(BUILD)/wheel/*.whl) $(VPY) -m pytest -q tests

# The exposition text of generators in every lease state (HELD, RIDING while
# a PostgreSQL is stopped, LOST past the fence), read by prometheus_client's
# parser and linted by promtool (tests/servers/promtool.sh installs Debian's
# prometheus when missing; pg.sh runs the database). test_dashboard_queries.py:
# every query of docs/grafana/idgen-dashboard.json evaluated by a real
# Prometheus server (tests/servers/prometheus.sh) over its 1 s scrapes.
test-metrics: wheel $(VENV)/.prometheus
	$(VPY) -m pip install -q --force-reinstall --no-deps $(BUILD)/wheel/*.whl
	PROMTOOL=$$(tests/servers/promtool.sh) $(VPY) -m pytest -q -p no:cacheprovider tests/metrics

# ---- Java -----------------------------------------------------------------

JAVA := bindings/java
MVN  ?= mvn -B -ntp -Dstyle.color=never

java-lib: $(LIB)
	mkdir -p $(JAVA)/src/main/resources/linux-x86-64
	cp $(LIB) $(JAVA)/src/main/resources/linux-x86-64/libidgen.so

JDK25 := /usr/lib/jvm/temurin-25-jdk-amd64

# JUnit against the packaged jar: on JDK 17 (JNA) and, when a JDK 25 is
# installed, again on it (java.lang.foreign, the jar's versions/22 classes).
test-java: java-lib
	@test -x $(JDK25)/bin/java || echo "test-java: no JDK 25 at $(JDK25): the java.lang.foreign backend is neither built nor tested (JNA only)"
	rm -rf $(JAVA)/target/failsafe-reports* $(JAVA)/target/jdk17-vm.log
	cd $(JAVA) && $(MVN) verify

# ---- the docs test themselves ----------------------------------------------

# Every command of README.md, docs/*.md and the bindings' READMEs shown with
# its output is run against $(BUILD) and its output compared; every C,
# Python and Java snippet is compiled and run (C against $(LIB), Python in
# the venv holding the wheel, Java against the packaged jar, on JDK 17 and
# on JDK 25 when installed). Markers and conventions: tests/docs/check_docs.py.
# make test runs it after test-java, which has just packaged the jar.
JAVA_JAR := $(JAVA)/target/idgen-$(VERSION).jar

$(JAVA_JAR): $(shell find $(JAVA)/src/main -name '*.java' 2>/dev/null) $(JAVA)/pom.xml
	$(MAKE) --no-print-directory java-lib
	cd $(JAVA) && $(MVN) -q -DskipTests package

# README's Spring Boot application is built with Maven against the idgen
# jar and starter installed in ~/.m2 (java-install), as a reader builds it.
test-docs: $(LIB) $(BUILD)/idgen wheel $(JAVA_JAR) $(VENV)/.prometheus java-install
	$(VPY) -m pip install -q --force-reinstall --no-deps $(BUILD)/wheel/*.whl
	IDGEN_BUILD=$(BUILD) JDK25=$(JDK25) $(PYTHON) tests/docs/check_docs.py

# ---- benchmarks -----------------------------------------------------------

BENCH := $(BUILD)/bench

$(BENCH)/libidgen.so: $(GO_SRC)
	@mkdir -p $(BENCH)
	CGO_ENABLED=1 $(GO) build -tags idgenbench $(GOFLAGS_LIB) -ldflags "$(LDFLAGS_LIB)" -o $@ ./capi
	rm -f $(BENCH)/libidgen.h
	ln -sf libidgen.so $(BENCH)/libidgen.so.0

$(BENCH)/cbench: bench/c/bench.c bench/c/common.h include/idgen.h $(BENCH)/libidgen.so
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude $< -L$(BENCH) -l:libidgen.so $(RPATH) -o $@

$(BENCH)/segbench: bench/c/segment.c bench/c/common.h include/idgen.h $(BENCH)/libidgen.so
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude -pthread $< -L$(BENCH) -l:libidgen.so $(RPATH) -o $@

$(BENCH)/metricsbench: bench/c/metrics.c bench/c/common.h include/idgen.h $(BENCH)/libidgen.so
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude -pthread $< -L$(BENCH) -l:libidgen.so $(RPATH) -o $@

# make bench: every figure side by side in one run; see docs/BENCHMARKS.md.
bench: $(BENCH)/cbench $(BENCH)/segbench $(BENCH)/metricsbench $(BUILD)/holder $(BUILD)/idgen wheel java-lib $(VENV)/.uuid-peers
	$(VPY) -m pip install -q --force-reinstall --no-deps $(BUILD)/wheel/*.whl
	BENCH=$(BENCH) VPY=$(VPY) GO=$(GO) MVN="$(MVN)" ./bench/run.sh
	@echo; echo "== Node.js (bench/node) and Rust (bench/rust)"
	@$(MAKE) --no-print-directory bench-node bench-rust

clean:
	rm -rf $(BUILD) $(JAVA)/target $(PYPKG)/src/idgen/libidgen.so $(PYPKG)/src/idgen/idgen $(JAVA)/src/main/resources/linux-x86-64

# The Node.js and Rust bindings (bindings/node, bindings/rust) and the Java
# frameworks (bindings/java/frameworks.mk): their own targets.
include bindings/node/node.mk bindings/rust/rust.mk bindings/java/frameworks.mk

# linux-aarch64 (cross-built, tested under qemu) and make dist: packaging/dist.mk.
include packaging/dist.mk

# Business numbers (reset=, format=): their own checks, tests/numbers.mk.
include tests/numbers.mk
