package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The checker finds what it is for: testdata/cyclic has three files in a
// circle through a method and a field (a.go -> b.go -> c.go -> a.go) and
// one file apart; the test adds a file of 301 lines with a function of 61.
func TestCheckFindsCyclesAndLengths(t *testing.T) {
	dir := t.TempDir()
	files, err := filepath.Glob("testdata/cyclic/*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, filepath.Base(f)), string(b))
	}
	write(t, filepath.Join(dir, "go.mod"), "module cyclic\n\ngo 1.24\n")
	long := "package cyclic\n\nfunc tooLong() int {\n\tx := 0\n" + strings.Repeat("\tx++\n", 57) + "\treturn x\n}\n"
	long += strings.Repeat("// filler\n", 301-strings.Count(long, "\n"))
	write(t, filepath.Join(dir, "long.go"), long)

	found, err := Check(dir, ".")
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

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
