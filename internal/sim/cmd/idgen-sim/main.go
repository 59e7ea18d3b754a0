// Command idgen-sim runs the lease simulator: make sim and make sim-mutants.
//
//	idgen-sim [-mutants [-jobs N] [-only NAME]] (SIM_SCHEDULES, SIM_SEED, SIM_SECONDS, SIM_TRACE from the environment)
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
	jobs := flag.Int("jobs", 1, "with -mutants: how many mutants run at once, each in a process of its own")
	only := flag.String("only", "", "with -mutants: this mutant alone")
	flag.Parse()
	n := envInt("SIM_SCHEDULES", 10000)
	seed, err := strconv.ParseUint(envStr("SIM_SEED", "1"), 0, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "idgen-sim: SIM_SEED:", err)
		os.Exit(2)
	}
	if *mutants {
		os.Exit(runMutants(seed, n, *jobs, *only))
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
