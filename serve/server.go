package serve

// The Server's state: its generators, by name, and its tokens; finding
// the generator a request names; closing.

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/idgen/idgen"
)

// Server answers HTTP requests for its generators. Close it to close them
// (leases released, segment tails given back).
type Server struct {
	gens   map[string]*served
	names  []string // sorted, for /healthz
	tokens *Tokens  // nil: no tokens (loopback only)
	mux    *http.ServeMux

	closeOnce sync.Once
	closeErr  error
}

// served is one generator as the server keeps it: whether its ids are
// numbers (numeric and counter kinds) or text is asked once, at open.
type served struct {
	*idgen.Generator
	numeric bool
}

// Names are the served generators' names, sorted.
func (s *Server) Names() []string { return append([]string(nil), s.names...) }

// gen finds the generator name, after the token's check (tokens on): a
// request without a known token learns nothing of the names (401), one
// whose token does not cover the name is 403 whether or not it is served;
// a name not served is 404.
// On failure it has answered, and returns nil.
func (s *Server) gen(w http.ResponseWriter, name, token string) *served {
	if s.tokens != nil {
		switch s.tokens.check(token, name) {
		case 401:
			fail(w, http.StatusUnauthorized, "a token is needed: Authorization: Bearer TOKEN (tinyid: token=)")
			return nil
		case 403:
			fail(w, http.StatusForbidden, "this token may not ask for "+strconv.Quote(name))
			return nil
		}
	}
	g, ok := s.gens[name]
	if !ok {
		fail(w, http.StatusNotFound, "no generator named "+strconv.Quote(name)+" is served")
		return nil
	}
	return g
}

// Close closes every generator; the first error is returned, and closing
// twice returns it again.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		for _, g := range s.gens {
			if err := g.Close(); err != nil && s.closeErr == nil {
				s.closeErr = err
			}
		}
	})
	return s.closeErr
}

// appendIDs appends n ids of g to dst as text — numbers in decimal, text
// ids as they are — each in quotes when quote is set, and followed by sep.
func (g *served) appendIDs(dst []byte, n int, quote bool, sep byte) ([]byte, error) {
	open := func() {
		if quote {
			dst = append(dst, '"')
		}
	}
	end := func() {
		if quote {
			dst = append(dst, '"')
		}
		dst = append(dst, sep)
	}
	if !g.numeric {
		for i := 0; i < n; i++ {
			t, err := g.NextText()
			if err != nil {
				return dst, err
			}
			open()
			dst = append(dst, t...)
			end()
		}
		return dst, nil
	}
	ids := make([]int64, n)
	if err := g.NextBatch(ids); err != nil {
		return dst, err
	}
	for _, id := range ids {
		open()
		dst = strconv.AppendInt(dst, id, 10)
		end()
	}
	return dst, nil
}
