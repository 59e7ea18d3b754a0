package serve

// --token-file: lines "TOKEN NAME[,NAME…]" or "TOKEN *" ('#' starts a
// comment). The file is read like a lease file: opened without following
// a symlink, and refused unless it is a regular file owned by this user
// that no other user may read or write (mode 0600 or stricter).

import (
	"bufio"
	"crypto/subtle"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
)

// nameRE is what a generator name may be, in URLs and in token files.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)

// MinTokenLen is the shortest token accepted: a guessable token is no
// guard.
const MinTokenLen = 16

// Tokens says which token may ask for which names.
type Tokens struct {
	entries []tokenEntry
}

type tokenEntry struct {
	token []byte
	all   bool
	names map[string]bool
}

// ReadTokens reads and checks a token file.
func ReadTokens(path string) (*Tokens, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("--token-file %s: %w (a symlink is not followed)", path, err)
	}
	defer f.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return nil, fmt.Errorf("--token-file %s: %w", path, err)
	}
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		return nil, fmt.Errorf("--token-file %s: not a regular file", path)
	case int(st.Uid) != os.Geteuid():
		return nil, fmt.Errorf("--token-file %s: owned by uid %d, not by this user (uid %d)", path, st.Uid, os.Geteuid())
	case st.Mode&0o077 != 0:
		return nil, fmt.Errorf("--token-file %s: mode %04o lets other users read or write it (chmod 600)", path, st.Mode&0o7777)
	}
	t := &Tokens{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if err := t.addLine(sc.Text()); err != nil {
			return nil, fmt.Errorf("--token-file %s line %d: %v", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--token-file %s: %w", path, err)
	}
	if len(t.entries) == 0 {
		return nil, fmt.Errorf("--token-file %s: no token in it", path)
	}
	return t, nil
}

// addLine reads one line. A message never holds the token.
func (t *Tokens) addLine(line string) error {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(line)
	switch {
	case len(fields) == 0:
		return nil
	case len(fields) != 2:
		return fmt.Errorf("want TOKEN NAME[,NAME...] or TOKEN *, got %d words", len(fields))
	case len(fields[0]) < MinTokenLen:
		return fmt.Errorf("a token must be at least %d characters", MinTokenLen)
	}
	e := tokenEntry{token: []byte(fields[0]), all: fields[1] == "*", names: map[string]bool{}}
	if !e.all {
		for _, name := range strings.Split(fields[1], ",") {
			if !nameRE.MatchString(name) {
				return fmt.Errorf("%q is not a generator name", name)
			}
			e.names[name] = true
		}
	}
	t.entries = append(t.entries, e)
	return nil
}

// check says whether token may ask for name: 0 when it may, 401 for a
// missing or unknown token, 403 for a token not allowed that name. Every
// token is compared, in constant time, whatever matches.
func (t *Tokens) check(token, name string) int {
	if token == "" {
		return 401
	}
	known, allowed := 0, 0
	for _, e := range t.entries {
		eq := subtle.ConstantTimeCompare(e.token, []byte(token))
		known |= eq
		if e.all || e.names[name] {
			allowed |= eq
		}
	}
	switch {
	case allowed == 1:
		return 0
	case known == 1:
		return 403
	}
	return 401
}
