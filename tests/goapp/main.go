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
	out := filepath.Join(dir, "c.ids")
	cmd, cPair, err := startHolder(holder, config, out)
	if err != nil {
		return err
	}
	defer cmd.Process.Kill()
	goIDs, err := issueBeside(config, cPair)
	if err != nil {
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

// startHolder starts the C program, which takes its pair first, and
// returns the pair it holds.
func startHolder(holder, config, out string) (*exec.Cmd, string, error) {
	cmd := exec.Command(holder, config, out, "100")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return nil, "", fmt.Errorf("the C holder printed no config: %v", err)
	}
	pair := leasedRe.FindStringSubmatch(first)
	if pair == nil {
		cmd.Process.Kill()
		return nil, "", fmt.Errorf("the C holder holds no pair: %q", first)
	}
	return cmd, pair[1], nil
}

// issueBeside opens the pool's other pair from Go, checks that a third
// taker is refused, and issues ids for half a second.
func issueBeside(config, cPair string) (map[int64]bool, error) {
	g, err := idgen.Open(config)
	if err != nil {
		return nil, fmt.Errorf("Go open: %w", err)
	}
	defer g.Close()
	goPair := leasedRe.FindStringSubmatch(g.Config())
	if goPair == nil || goPair[1] == cPair {
		return nil, fmt.Errorf("Go holds %q beside C's %s", g.Config(), cPair)
	}
	fmt.Printf("goapp: C holds %s, Go holds %s\n", cPair, goPair[1])
	if third, err := idgen.Open(config); !errors.Is(err, idgen.ErrWorker) || idgen.Code(err) != -5 {
		if third != nil {
			third.Close()
		}
		return nil, fmt.Errorf("a third taker of a pool of two: %v (want ErrWorker, code -5)", err)
	}
	ids := map[int64]bool{}
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); {
		id, err := g.Next()
		if err != nil {
			return nil, err
		}
		ids[id] = true
	}
	if !strings.Contains(idgen.MetricsText(), `idgen_generator_info{`) {
		return nil, errors.New("MetricsText does not list the Go generator")
	}
	return ids, g.Close()
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
