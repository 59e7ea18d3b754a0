//go:build fleet

package fleet

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pythonForFleet is a venv python with the idgen wheel: IDGEN_BUILD's,
// else the repository's build/venv ("" if neither).
func pythonForFleet() string {
	for _, dir := range []string{build, filepath.Join(root, "build")} {
		if p := filepath.Join(dir, "venv", "bin", "python"); fileExists(p) {
			return p
		}
	}
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// drawValues runs a host-language process that prints the values it drew,
// one a line, and returns them (from any goroutine: it asserts nothing).
func drawValues(cmd *exec.Cmd) ([]int64, error) {
	cmd.Env = append(os.Environ(), "IDGEN_LIBRARY="+filepath.Join(build, "libidgen.so"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", cmd.Args[0], err, out)
	}
	var vals []int64
	for _, f := range strings.Fields(string(out)) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s printed %q", cmd.Args[0], f)
		}
		vals = append(vals, v)
	}
	return vals, nil
}

func TestSegmentCPythonJavaOnOneCounter(t *testing.T) {
	vpy := pythonForFleet()
	jar := javaJars()
	cp := readTrim(filepath.Join(root, "bindings", "java", "target", "cp.txt"))
	if vpy == "" || len(jar) == 0 || cp == "" {
		if os.Getenv("IDGEN_FLEET_ALL") != "" {
			t.Fatalf("needs the Python venv (make test-python) and the Java jar (make test-java)")
		}
		t.Skip("no Python venv or Java jar built")
	}
	for _, s := range segStores()[:3] { // host, zk, pg
		t.Run(s.name, func(t *testing.T) {
			cfg := "preset=segment name=mixed step=200 " + s.keys(t)
			c := startSegHolder(t, cfg, 200)
			var wg sync.WaitGroup
			var py, java []int64
			var pyErr, javaErr error
			wg.Add(2)
			go func() {
				defer wg.Done()
				py, pyErr = drawValues(exec.Command(vpy, "-c", "import idgen, sys, time\n"+
					"g = idgen.Generator(sys.argv[1]); end = time.time() + 3; vals = []\n"+
					"while time.time() < end:\n    vals.append(g.next_id()); time.sleep(0.0002)\n"+
					"g.close(); print('\\n'.join(map(str, vals)))", cfg))
			}()
			go func() {
				defer wg.Done()
				java, javaErr = drawValues(exec.Command("java", "--enable-native-access=ALL-UNNAMED", "-cp", jar[0]+":"+cp,
					filepath.Join(root, "tests", "fleet", "SegmentHolder.java"), cfg, "3"))
			}()
			wg.Wait()
			require.NoError(t, pyErr)
			require.NoError(t, javaErr)
			time.Sleep(100 * time.Millisecond)
			c.stop()
			cv := c.ids()
			require.NotEmpty(t, cv)
			require.NotEmpty(t, py)
			require.NotEmpty(t, java)
			seen := map[int64]string{}
			for who, vals := range map[string][]int64{"C": cv, "Python": py, "Java": java} {
				for i := 1; i < len(vals); i++ {
					require.Greater(t, vals[i], vals[i-1], "%s: its values increase", who)
				}
				for _, v := range vals {
					require.Empty(t, seen[v], "%d from %s and %s", v, seen[v], who)
					seen[v] = who
				}
			}
			t.Logf("%s: one counter, C %d + Python %d + Java %d values, 0 duplicates, each process's increasing", s.name, len(cv), len(py), len(java))
		})
	}
}
