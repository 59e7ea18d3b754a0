// Command structure holds the Go code of a module to the house rules of
// ../shared/STYLE.md that a reader can measure: no two files of a package
// use each other's definitions, directly or through others (every use of
// a package-level name, a method or a field is followed to the file that
// defines it, with types resolved, and strongly connected components are
// looked for); no non-test file over 300 lines; no function over 60.
//
//	go run . DIR PATTERN...
//
// prints what it finds and exits 1 if anything breaks a rule.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: structure DIR PATTERN...")
		os.Exit(2)
	}
	found, err := Check(os.Args[1], os.Args[2:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "structure:", err)
		os.Exit(2)
	}
	for _, f := range found {
		fmt.Println(f)
	}
	if len(found) > 0 {
		os.Exit(1)
	}
	fmt.Println("structure: no file cycles, no file over 300 lines, no function over 60")
}
