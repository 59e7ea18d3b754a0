# ---- Node.js: bindings/node, the npm package `idgen` (koffi over libidgen.so)
# Included by the top-level Makefile (LIB, BUILD come from there).
#   make test-node   the package's tests (node --test), then `npm pack` and the
#                    tarball installed into an empty project outside the
#                    repository, where scripts/pack-smoke.mjs must pass
#   make node-pack   only the tarball, in build/node/

NODE    ?= node
NPM     ?= npm
NODEPKG := bindings/node
# The packaged library's place: prebuilds/<process.platform>-<process.arch>/.
NODE_PLATFORM := $(shell $(NODE) -p 'process.platform + "-" + process.arch' 2>/dev/null || echo linux-x64)
NODE_SO := $(NODEPKG)/prebuilds/$(NODE_PLATFORM)/libidgen.so
NODE_DEPS := $(NODEPKG)/node_modules/.package-lock.json
NPM_FLAGS := --no-audit --no-fund --loglevel=error

.PHONY: node-package node-pack test-node

$(NODE_SO): $(LIB)
	mkdir -p $(dir $@)
	cp $(LIB) $@

# koffi from the lockfile: from npm's cache when it has it, else the registry.
$(NODE_DEPS): $(NODEPKG)/package.json $(NODEPKG)/package-lock.json
	cd $(NODEPKG) && { $(NPM) ci --prefer-offline $(NPM_FLAGS) || $(NPM) ci --offline $(NPM_FLAGS); } \
	  || { echo "test-node: npm ci failed: no registry and koffi not in npm's cache"; exit 1; }
	touch $@

node-package: $(NODE_SO) $(NODE_DEPS)

node-pack: node-package
	rm -rf $(BUILD)/node && mkdir -p $(BUILD)/node
	cd $(NODEPKG) && $(NPM) pack --pack-destination $(BUILD)/node $(NPM_FLAGS) >/dev/null
	@ls $(BUILD)/node/idgen-*.tgz

test-node: node-pack
	cd $(NODEPKG) && env -u IDGEN_LIBRARY $(NODE) --test test/
	@app=$$(mktemp -d /tmp/idgen-npm-XXXXXX) && trap 'rm -rf "$$app"' EXIT && cd "$$app" && \
	  $(NPM) init -y >/dev/null && \
	  $(NPM) install --prefer-offline $(NPM_FLAGS) $(BUILD)/node/idgen-*.tgz >/dev/null && \
	  cp $(CURDIR)/$(NODEPKG)/scripts/pack-smoke.mjs . && \
	  env -u IDGEN_LIBRARY $(NODE) pack-smoke.mjs

# README.md's Node.js examples run against this package (tests/docs).
test-docs: node-package

# make bench-node: per call, g.next() against empty koffi calls into the bench
# build of the library (one entering Go, one staying in C) and against
# @sapphire/snowflake, on the main thread and on a worker thread (bench/node).
.PHONY: bench-node
bench-node: node-package $(BUILD)/bench/libidgen.so
	cd bench/node && { $(NPM) ci --prefer-offline $(NPM_FLAGS) || $(NPM) ci --offline $(NPM_FLAGS); }
	IDGEN_BENCH_LIB=$(BUILD)/bench/libidgen.so $(NODE) bench/node/bench.js
