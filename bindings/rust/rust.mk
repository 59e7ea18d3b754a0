# bindings/rust: the Rust crate `idgen` over libidgen.so. Included by the
# top-level Makefile (it defines BUILD and LIB); on its own:
#   make -f Makefile -f bindings/rust/rust.mk test-rust
#
# test-rust         rustfmt --check, cargo test (every test and doctest) and
#                   clippy -D warnings, linked against $(LIB) via IDGEN_LIB_DIR;
#                   rustdoc -D warnings; rustfmt and clippy on bench/rust too;
#                   tests/rocketmq/rust: the rocketmq crate's message ids
#                   decoded by the crate (test scope, a crate of its own)
# test-rust-install the same tests linked through pkg-config against a fresh
#                   `make install` under $(BUILD)/rust/inst (no IDGEN_LIB_DIR)
# rust-package      cargo package (verified: builds the packaged crate)
# bench-rust        next() vs a bare call into the bench build's
#                   idgen_bench_noop vs the snowflake crate, as ratios
#
# Every cargo output goes to $(BUILD)/rust (CARGO_TARGET_DIR), so the tree
# keeps no target/ directory. Cargo.lock is committed; --locked holds to it.

BUILD ?= $(CURDIR)/build
LIB   ?= $(BUILD)/libidgen.so

RUST_DIR    := $(CURDIR)/bindings/rust
RUST_OUT    := $(BUILD)/rust
# cargo on PATH, else rustup's default place (a non-login shell may lack it).
ifeq ($(origin CARGO),undefined)
CARGO       := $(shell command -v cargo 2>/dev/null || echo $(HOME)/.cargo/bin/cargo)
endif
RUST_PATH   := $(dir $(CARGO)):$(PATH)
# cargo in the crate's directory, its outputs under $(BUILD)/rust;
# RUST_CARGO links $(LIB) through IDGEN_LIB_DIR.
RUST_ENV    := cd $(RUST_DIR) && PATH="$(RUST_PATH)" CARGO_TARGET_DIR=$(RUST_OUT)
RUST_CARGO  := $(RUST_ENV) IDGEN_LIB_DIR=$(BUILD) $(CARGO)

.PHONY: test-rust test-rust-install rust-tools rust-package bench-rust

# clippy and rustfmt come with rustup's default profile; add them if not.
rust-tools:
	@PATH="$(RUST_PATH)"; $(CARGO) clippy --version >/dev/null 2>&1 && $(CARGO) fmt --version >/dev/null 2>&1 \
	  || rustup component add clippy rustfmt

test-rust: $(LIB) rust-tools
	$(RUST_CARGO) fmt --check
	$(RUST_CARGO) test --locked
	$(RUST_CARGO) clippy --locked --all-targets -- -D warnings
	$(RUST_ENV) RUSTDOCFLAGS="-D warnings" IDGEN_LIB_DIR=$(BUILD) $(CARGO) doc --locked --no-deps --quiet
	cd $(CURDIR)/bench/rust && PATH="$(RUST_PATH)" CARGO_TARGET_DIR=$(RUST_OUT)/bench IDGEN_LIB_DIR=$(BUILD) \
	  sh -c '$(CARGO) fmt --check && $(CARGO) clippy --locked --all-targets -- -D warnings'
	cd $(CURDIR)/tests/rocketmq/rust && PATH="$(RUST_PATH)" CARGO_TARGET_DIR=$(RUST_OUT)/rocketmq IDGEN_LIB_DIR=$(BUILD) \
	  LD_LIBRARY_PATH=$(BUILD) sh -c '$(CARGO) fmt --check && $(CARGO) test --locked'

# Through pkg-config instead: a fresh install, IDGEN_LIB_DIR unset, cargo's
# outputs apart (the build script's choice differs).
test-rust-install: rust-tools
	rm -rf $(RUST_OUT)/inst
	$(MAKE) --no-print-directory install PREFIX=$(RUST_OUT)/inst DESTDIR= >/dev/null
	cd $(RUST_DIR) && env -u IDGEN_LIB_DIR PATH="$(RUST_PATH)" CARGO_TARGET_DIR=$(RUST_OUT)/pkgconfig \
	  PKG_CONFIG_PATH=$(RUST_OUT)/inst/lib/pkgconfig $(CARGO) test --locked
	ldd $$(find $(RUST_OUT)/pkgconfig/debug/deps -name 'api-*' -type f -executable) | grep -q '$(RUST_OUT)/inst/lib/libidgen.so.0' \
	  && echo "test-rust-install: the crate's tests ran against $(RUST_OUT)/inst/lib/libidgen.so.0, found by pkg-config"

# The .crate file (in $(BUILD)/rust/package), verified by building the
# packaged sources against $(LIB).
rust-package: $(LIB)
	$(RUST_CARGO) package --locked --allow-dirty

# The bench build of the library (the top-level Makefile's rule) exports
# idgen_bench_noop, the bare-call baseline; bench/rust is a crate of its
# own (its Cargo.lock beside it) so that rs-snowflake stays out of idgen's.
BENCH ?= $(BUILD)/bench

bench-rust: $(BENCH)/libidgen.so
	cd $(CURDIR)/bench/rust && PATH="$(RUST_PATH)" CARGO_TARGET_DIR=$(RUST_OUT)/bench IDGEN_LIB_DIR=$(BENCH) \
	  $(CARGO) run --locked --release --quiet
