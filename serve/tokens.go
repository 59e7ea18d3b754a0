package serve

// --token-file: lines "TOKEN NAME[,NAME…]" or "TOKEN *" ('#' starts a
// comment), read from a private file (private.go).

import (
	"bufio"
	"crypto/subtle"
	"fmt"
	"regexp"
	"strings"
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

// ReadTokens reads and checks a token file (a private file).
func ReadTokens(path string) (*Tokens, error) {
	f, err := openPrivate("--token-file", path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
