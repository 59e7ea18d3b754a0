// Command idgen-sim runs the lease simulator: make sim and make sim-mutants.
//
//	idgen-sim [-mutants] (SIM_SCHEDULES, SIM_SEED, SIM_SECONDS, SIM_TRACE from the environment)
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/idgen/idgen/internal/sim"
)

func main() {
	mutants := flag.Bool("mutants", false, "run each seeded bug until the simulator catches it (needs -tags simmutants)")
	flag.Parse()
	n := envInt("SIM_SCHEDULES", 10000)
	seed, err := strconv.ParseUint(envStr("SIM_SEED", "1"), 0, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "idgen-sim: SIM_SEED:", err)
		os.Exit(2)
	}
	if *mutants {
		os.Exit(runMutants(seed, n))
	}
	limit := time.Duration(envInt("SIM_SECONDS", 0)) * time.Second
	start := time.Now()
	t := sim.Batch(os.Stdout, seed, n, limit, os.Getenv("SIM_TRACE") == "1")
	real := time.Since(start).Seconds()
	fmt.Printf("idgen-sim: %.0f schedules/s, %.0f simulated seconds per second, %.0f ids per schedule\n",
		float64(t.Runs)/real, t.SimTime.Seconds()/real, float64(t.IDs)/float64(max(t.Runs, 1)))
	fmt.Println(sim.Summary(t.Runs, t.Failures, seed))
	if t.Failures > 0 {
		os.Exit(1)
	}
}

func runMutants(seed uint64, n int) int {
	if !sim.MutantsBuilt {
		fmt.Fprintln(os.Stderr, "idgen-sim: build with -tags simmutants for -mutants")
		return 2
	}
	caught := 0
	for _, m := range sim.Mutants {
		if k := sim.CatchMutant(m, seed, n); k > 0 {
			caught++
			fmt.Printf("mutant %s: caught after %d schedules\n", m, k)
		} else {
			fmt.Printf("mutant %s: not caught\n", m)
		}
	}
	fmt.Printf("mutants: %d of %d caught\n", caught, len(sim.Mutants))
	if caught < len(sim.Mutants) {
		return 1
	}
	return 0
}

func envStr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func envInt(k string, def int) int {
	v, err := strconv.Atoi(envStr(k, strconv.Itoa(def)))
	if err != nil || v < 0 {
		fmt.Fprintf(os.Stderr, "idgen-sim: %s: want a number >= 0\n", k)
		os.Exit(2)
	}
	return v
}
