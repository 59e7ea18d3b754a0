// goapp is a Go program outside the idgen module (its go.mod replaces
// github.com/idgen/idgen with this checkout) that shares a host lease pool
// with a C program on libidgen.so:
//
//	goapp HOLDER
//
// HOLDER is the fleet tests' C holder (tests/fleet/holder/holder.c). The
// pool has two pairs: the C holder takes one, this program the other, a
// third taker is refused with ErrWorker, and the ids of the two
// processes never meet. It prints what it checked and exits 1 on a
// failure.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/idgen/idgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goapp HOLDER")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "goapp:", err)
		os.Exit(1)
	}
}

var leasedRe = regexp.MustCompile(`leased=(\d+/\d+)`)

func run(holder string) error {
	dir, err := os.MkdirTemp("", "goapp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	config := "layout=time:41,worker:1,seq:21 worker=lease lease_dir=" + filepath.Join(dir, "leases")
	if err := os.Mkdir(filepath.Join(dir, "leases"), 0o755); err != nil {
		return err
	}

	// The C program takes its pair first.
	out := filepath.Join(dir, "c.ids")
	cmd := exec.Command(holder, config, out, "100")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Process.Kill()
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("the C holder printed no config: %v", err)
	}
	cPair := leasedRe.FindStringSubmatch(first)
	if cPair == nil {
		return fmt.Errorf("the C holder holds no pair: %q", first)
	}

	g, err := idgen.Open(config)
	if err != nil {
		return fmt.Errorf("Go open: %w", err)
	}
	goPair := leasedRe.FindStringSubmatch(g.Config())
	if goPair == nil || goPair[1] == cPair[1] {
		return fmt.Errorf("Go holds %q beside C's %s", g.Config(), cPair[1])
	}
	fmt.Printf("goapp: C holds %s, Go holds %s\n", cPair[1], goPair[1])

	if third, err := idgen.Open(config); !errors.Is(err, idgen.ErrWorker) || idgen.Code(err) != -5 {
		if third != nil {
			third.Close()
		}
		return fmt.Errorf("a third taker of a pool of two: %v (want ErrWorker, code -5)", err)
	}

	goIDs := map[int64]bool{}
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); {
		id, err := g.Next()
		if err != nil {
			return err
		}
		goIDs[id] = true
	}
	if !strings.Contains(idgen.MetricsText(), `idgen_generator_info{`) {
		return errors.New("MetricsText does not list the Go generator")
	}
	if err := g.Close(); err != nil {
		return err
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("C holder: %v", err)
	}
	return compare(out, goIDs)
}

// compare reads the C holder's ids and checks that none is one of Go's.
func compare(path string, goIDs map[int64]bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(b) == 0 || len(b)%8 != 0 {
		return fmt.Errorf("the C holder wrote %d bytes of ids", len(b))
	}
	for i := 0; i < len(b); i += 8 {
		if id := int64(binary.LittleEndian.Uint64(b[i:])); goIDs[id] {
			return fmt.Errorf("id %d was issued by both", id)
		}
	}
	fmt.Printf("goapp: %d ids from C, %d from Go, none in both\n", len(b)/8, len(goIDs))
	return nil
}
