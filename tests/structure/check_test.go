package main

import (
	"strings"
	"testing"
)

// The checker finds what it is for: testdata/cyclic has three files in a
// circle through a method and a field (a.go -> b.go -> c.go -> a.go), one
// file apart, a file of 301 lines and a function of 61.
func TestCheckFindsCyclesAndLengths(t *testing.T) {
	found, err := Check("testdata/cyclic", ".")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(found, "\n")
	for _, want := range []string{
		"files that use each other: a.go, b.go, c.go",
		"a.go -> b.go: helper",
		"b.go -> c.go: count",
		"c.go -> a.go: Thing",
		"long.go: 301 lines (at most 300)",
		"func tooLong is 61 lines (at most 60)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, "apart.go") {
		t.Errorf("apart.go uses a.go without being used back, yet was named:\n%s", all)
	}
	if len(found) != 3 {
		t.Errorf("want 3 findings, got %d:\n%s", len(found), all)
	}
}
