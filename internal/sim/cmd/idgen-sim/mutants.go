package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/idgen/idgen/internal/sim"
)

// runMutants runs each seeded bug until the simulator catches it (up to n
// schedules from seed) and prints a line for each, in the list's order,
// then the count. A mutant is process-wide state, so with jobs > 1 each
// runs in a process of its own (this program again, -only), jobs at once.
func runMutants(seed uint64, n, jobs int, only string) int {
	if !sim.MutantsBuilt {
		fmt.Fprintln(os.Stderr, "idgen-sim: build with -tags simmutants for -mutants")
		return 2
	}
	if only != "" {
		line, caught := catchOne(only, seed, n)
		fmt.Println(line)
		if !caught {
			return 1
		}
		return 0
	}
	lines := make([]string, len(sim.Mutants))
	caught := make([]bool, len(sim.Mutants))
	run := func(i int) { lines[i], caught[i] = catchOne(sim.Mutants[i], seed, n) }
	if jobs > 1 {
		run = func(i int) { lines[i], caught[i] = catchApart(sim.Mutants[i], seed, n) }
	}
	slots := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	for i := range sim.Mutants {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			run(i)
		}()
	}
	wg.Wait()
	total := 0
	for i, line := range lines {
		fmt.Println(line)
		if caught[i] {
			total++
		}
	}
	fmt.Printf("mutants: %d of %d caught\n", total, len(sim.Mutants))
	if total < len(sim.Mutants) {
		return 1
	}
	return 0
}

// catchOne runs the mutant in this process: its line, and whether it was caught.
func catchOne(name string, seed uint64, n int) (string, bool) {
	if k := sim.CatchMutant(name, seed, n); k > 0 {
		return fmt.Sprintf("mutant %s: caught after %d schedules", name, k), true
	}
	return fmt.Sprintf("mutant %s: not caught", name), false
}

// catchApart runs the mutant in a process of its own (-only).
func catchApart(name string, seed uint64, n int) (string, bool) {
	self, err := os.Executable()
	if err != nil {
		return fmt.Sprintf("mutant %s: not run: %v", name, err), false
	}
	cmd := exec.Command(self, "-mutants", "-only", name)
	cmd.Env = append(os.Environ(), "SIM_SEED="+strconv.FormatUint(seed, 10), "SIM_SCHEDULES="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	line := strings.TrimSpace(string(out))
	if err != nil && !strings.HasPrefix(line, "mutant "+name+": ") {
		return fmt.Sprintf("mutant %s: not run: %v", name, err), false
	}
	return line, err == nil
}
