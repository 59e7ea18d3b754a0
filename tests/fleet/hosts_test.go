//go:build fleet

package fleet

// The fleet's host-language processes (Python, Java) run from copies of
// the wheel's package and the jar taken as the fleet starts: make test
// runs the other suites meanwhile, and they reinstall the wheel and
// repackage the jar, which a process loading them then would race.

import (
	"io"
	"os"
	"path/filepath"
)

// fleetJar is the copy of bindings/java/target/idgen-*.jar; "" if none.
var fleetJar string

// javaJars is the jar the fleet's Java processes run (none: empty).
func javaJars() []string {
	if fleetJar == "" {
		return nil
	}
	return []string{fleetJar}
}

// snapshotHosts copies the venv's idgen package under work (and puts it
// first on PYTHONPATH, so every Python process imports the copy) and the
// jar; what is missing is left missing, for the tests to name.
func snapshotHosts() {
	pkgs, _ := filepath.Glob(filepath.Join(build, "venv", "lib", "python3*", "site-packages", "idgen"))
	if len(pkgs) > 0 {
		dst := filepath.Join(work, "pyhost")
		if copyTree(pkgs[0], filepath.Join(dst, "idgen")) == nil {
			os.Setenv("PYTHONPATH", dst)
		}
	}
	jars, _ := filepath.Glob(filepath.Join(root, "bindings", "java", "target", "idgen-*.jar"))
	if len(jars) > 0 {
		dst := filepath.Join(work, filepath.Base(jars[0]))
		if copyFile(jars[0], dst) == nil {
			fleetJar = dst
		}
	}
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm()|0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
