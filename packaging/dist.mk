# ---- linux-aarch64, and the packages that carry both architectures ---------
# Included by the top-level Makefile (GO, PYTHON, BUILD, LIB, GO_SRC,
# GOFLAGS_LIB, LDFLAGS_LIB, CFLAGS_TEST, RPATH, VERSION, JAVA, JAVA_JAR,
# MVN and node.mk's NODEPKG come from there). Debian's tools are installed
# when missing (packaging/need.sh).
#   make lib-arm64    build/arm64/libidgen.so and build/arm64/idgen, cross-built
#                     with gcc-aarch64-linux-gnu, the same flags as make lib
#   make test-arm64   its ABI checks, go vet of the cgo boundary, and the C
#                     harness (ctest/: all but textid.c) and the Go tests of
#                     TEST_ARM64_PKGS run under qemu-aarch64
#   make dist         every artifact into build/dist/ (DIST), with SHA256SUMS
#                     (packaging/dist.sh says what and how)
#   make test-dist    make dist; the artifacts' contents, ABI, tags (auditwheel),
#                     lintian; a second make dist from a fresh build directory
#                     gives the same SHA256SUMS; installs from the artifacts alone

ARM64           := $(BUILD)/arm64
ARM64_LIB       := $(ARM64)/libidgen.so
ARM64_CLI       := $(ARM64)/idgen
ARM64_CC        ?= aarch64-linux-gnu-gcc
ARM64_ROOT      ?= /usr/aarch64-linux-gnu
QEMU            ?= qemu-aarch64
ARM64_CTESTS    := $(addprefix $(ARM64)/,ctest ctest_forklock ctest_info ctest_runs)
TEST_ARM64_PKGS := . internal/layout internal/clock internal/lease
CLI_SRC         := $(GO_SRC) $(wildcard cmd/idgen/*.go) $(filter-out %_test.go,$(wildcard serve/*.go))

.PHONY: lib-arm64 test-arm64 dist test-dist clean-dist

lib-arm64: $(ARM64_LIB) $(ARM64_CLI)

$(ARM64_LIB): $(GO_SRC)
	@packaging/need.sh $(ARM64_CC) gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	@packaging/need.sh $(ARM64_ROOT)/include/stdio.h libc6-dev-arm64-cross
	@mkdir -p $(ARM64)
	CGO_ENABLED=1 GOARCH=arm64 CC=$(ARM64_CC) $(GO) build $(GOFLAGS_LIB) -ldflags "$(LDFLAGS_LIB)" -o $@ ./capi
	rm -f $(ARM64)/libidgen.h
	ln -sf libidgen.so $(ARM64)/libidgen.so.0

$(ARM64_CLI): $(CLI_SRC)
	@mkdir -p $(ARM64)
	CGO_ENABLED=0 GOARCH=arm64 $(GO) build -trimpath -ldflags "-s -w" -o $@ ./cmd/idgen

$(ARM64)/ctest: ctest/harness.c ctest/check.h include/idgen.h $(ARM64_LIB)
	$(ARM64_CC) $(CFLAGS_TEST) $< -L$(ARM64) -l:libidgen.so $(RPATH) -o $@

$(ARM64)/ctest_%: ctest/%.c ctest/check.h ctest/linear.h ctest/hosttake.h include/idgen.h $(ARM64_LIB)
	$(ARM64_CC) $(CFLAGS_TEST) $< -L$(ARM64) -l:libidgen.so $(RPATH) -o $@

# Kept cheap (a minute with Go's cache warm, three from cold, on this
# 2-core machine): ctest/textid.c stays on x86-64 (a minute
# under qemu for Go's text codecs, which internal/layout's tests cover
# here), runs_tsan.c is C alone, and internal/segment's tests (load tests
# that time microseconds, and flake when emulated beside other work) and
# the rest of internal/ run on x86-64 only. qemu on x86-64 keeps x86-64's
# stronger memory order, so it tests the aarch64 code, its ABI and its
# system calls, not aarch64's weaker ordering.
test-arm64: $(ARM64_CTESTS)
	@packaging/need.sh $(QEMU) qemu-user
	@packaging/check-abi.sh $(ARM64_LIB) aarch64
	CGO_ENABLED=1 GOARCH=arm64 CC=$(ARM64_CC) $(GO) vet . ./capi
	@GO=$(GO) ARM64_CC=$(ARM64_CC) QEMU=$(QEMU) ARM64_ROOT=$(ARM64_ROOT) \
	  packaging/test-arm64.sh $(ARM64) $(TEST_ARM64_PKGS)

# The jar and the npm package carry both libraries.
JAVA_ARM64_SO := $(JAVA)/src/main/resources/linux-aarch64/libidgen.so
NODE_ARM64_SO := $(NODEPKG)/prebuilds/linux-arm64/libidgen.so

java-lib: $(JAVA_ARM64_SO)
$(JAVA_JAR): $(LIB) $(ARM64_LIB)
node-package: $(NODE_ARM64_SO)

$(JAVA_ARM64_SO) $(NODE_ARM64_SO): $(ARM64_LIB)
	mkdir -p $(@D)
	cp $< $@

# ---- make dist --------------------------------------------------------------

DIST       ?= $(BUILD)/dist
# The packaging tools (setuptools, build, auditwheel) stay in ./build
# whatever BUILD is, so that test-dist's second run reuses them.
DIST_VENV  := $(CURDIR)/build/dist-venv
DIST_PY    := $(DIST_VENV)/bin/python
DIST_AGAIN := $(CURDIR)/build/dist-again
# Every date in the artifacts: the last commit's time (read once).
ifndef SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || echo 1735689600)
endif

$(DIST_VENV)/.ok:
	$(PYTHON) -m venv $(DIST_VENV)
	$(DIST_PY) -m pip install -q setuptools==80.9.0 build==1.6.1 auditwheel==6.8.2
	touch $@

dist: $(LIB) $(BUILD)/idgen $(ARM64_LIB) $(ARM64_CLI) $(JAVA_JAR) node-pack $(DIST_VENV)/.ok
	@packaging/need.sh dpkg-deb dpkg
	@VERSION=$(VERSION) SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) PY=$(DIST_PY) \
	  LIB_x86_64=$(LIB) CLI_x86_64=$(BUILD)/idgen LIB_aarch64=$(ARM64_LIB) CLI_aarch64=$(ARM64_CLI) \
	  JAR=$(JAVA_JAR) POM=$(JAVA)/pom.xml NPM=$(BUILD)/node/idgen-$(VERSION).tgz \
	  packaging/dist.sh $(DIST) $(BUILD)/dist-work

# The second make dist rebuilds every input in a build directory of its own
# (the Go libraries and commands, the jar, the npm tarball: Go's cache
# makes it links, not compiles) and must give the same bytes.
test-dist: dist
	@packaging/need.sh lintian lintian
	@packaging/need.sh pkg-config pkgconf
	@packaging/need.sh unzip unzip
	@packaging/need.sh $(QEMU) qemu-user
	@AUDITWHEEL=$(DIST_VENV)/bin/auditwheel VERSION=$(VERSION) packaging/check-dist.sh $(DIST)
	@rm -rf $(DIST_AGAIN) && mkdir -p $(DIST_AGAIN)
	@$(MAKE) --no-print-directory BUILD=$(DIST_AGAIN) DIST=$(DIST_AGAIN)/dist SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) dist \
	  > $(DIST_AGAIN)/make.log 2>&1 \
	  || { cat $(DIST_AGAIN)/make.log; echo "test-dist: the second make dist failed"; exit 1; }
	@cmp -s $(DIST)/SHA256SUMS $(DIST_AGAIN)/dist/SHA256SUMS \
	  || { diff $(DIST)/SHA256SUMS $(DIST_AGAIN)/dist/SHA256SUMS; echo "test-dist: a second build gives other bytes"; exit 1; }
	@echo "test-dist: a second make dist from a fresh build directory gives the same $$(wc -l < $(DIST)/SHA256SUMS) SHA256SUMS"
	@VERSION=$(VERSION) MVN="$(MVN)" PIP=$(DIST_VENV)/bin/pip ARM64_CC=$(ARM64_CC) QEMU=$(QEMU) ARM64_ROOT=$(ARM64_ROOT) \
	  packaging/test-installs.sh $(DIST) $(BUILD)/dist-test

clean-dist:
	rm -rf $(dir $(JAVA_ARM64_SO)) $(dir $(NODE_ARM64_SO))

clean: clean-dist
