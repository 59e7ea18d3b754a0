# Business numbers (reset=, format=): the checks of their own, for running
# them alone. make test already runs every one of them (test-go, test-sim,
# sim-mutants, test-docs, test-fleet); these targets add nothing to it.
.PHONY: test-numbers test-numbers-fleet

# The periods (days of 23 and 25 hours, skipped and repeated midnights),
# the templates (100,000 round trips), the counter's periods against a
# store clock ±2 s off, the in-memory and host-directory contract cases.
test-numbers:
	$(GO) test -race -count=1 ./internal/numbers
	$(GO) test -race -count=1 -run 'Period' ./internal/segment
	$(GO) test -race -count=1 -run 'CounterSuite' ./internal/lease/leasetest

# On the real servers: the contract suite's counters (its periods case on
# every store), 16 processes across period ends, restarts within a period.
test-numbers-fleet: $(BUILD)/holder
	set -o pipefail; IDGEN_FLEET_ALL=1 IDGEN_BUILD=$(BUILD) $(GO) test -tags fleet -count=1 -v -timeout 10m \
	  -run 'TestNumbers|TestStoreSuiteCounters' ./tests/fleet 2>&1 | grep -v '^=== \(RUN\|PAUSE\|CONT\)'
