package config

// The syntax of a configuration string: key=value pairs, quoting.

import (
	"errors"
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// split cuts a config string into key/value pairs. Pairs are separated by
// white space or ';'; a value may be single-quoted ('a b', with \' and \\)
// to hold either.
func split(s string) ([][2]string, error) {
	var out [][2]string
	i := 0
	for {
		for i < len(s) && isSep(s[i]) {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && !isSep(s[i]) && s[i] != '=' {
			i++
		}
		key := s[start:i]
		if i >= len(s) || s[i] != '=' {
			return nil, errs.Key(key, "expected key=value")
		}
		if key == "" {
			return nil, errs.Key("config", "a value without a key near %q", s[start:min(len(s), start+20)])
		}
		val, next, err := value(s, i+1)
		if err != nil {
			return nil, errs.Key(key, "%s", err)
		}
		i = next
		out = append(out, [2]string{key, val})
	}
}

func isSep(c byte) bool {
	return c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// value reads the value that starts at s[i], quoted or not; next is where
// the value ends. The error is what is wrong with it.
func value(s string, i int) (val string, next int, err error) {
	var b strings.Builder
	if i >= len(s) || s[i] != '\'' {
		for i < len(s) && !isSep(s[i]) {
			b.WriteByte(s[i])
			i++
		}
		if b.Len() == 0 {
			return "", i, errors.New("missing value")
		}
		return b.String(), i, nil
	}
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '\'':
			if i+1 < len(s) && !isSep(s[i+1]) {
				return "", i, errors.New("text after a quoted value")
			}
			if b.Len() == 0 {
				return "", i, errors.New("missing value")
			}
			return b.String(), i + 1, nil
		default:
			b.WriteByte(c)
		}
	}
	return "", i, errors.New("unterminated quoted value")
}

// pairs splits s and refuses unknown and repeated keys.
func pairs(s string) (map[string]string, error) {
	split, err := split(s)
	if err != nil {
		return nil, err
	}
	given := map[string]string{}
	for _, p := range split {
		if !contains(keyNames, p[0]) {
			return nil, errs.Key(p[0], "unknown key (known: %s)", strings.Join(keyNames, ", "))
		}
		if _, dup := given[p[0]]; dup {
			return nil, errs.Key(p[0], "given more than once")
		}
		given[p[0]] = p[1]
	}
	return given, nil
}
