// Package serve is `idgen serve`: named idgen generators over HTTP, with
// idgen's own endpoints and the URLs of the id services teams migrate
// from (Meituan Leaf, Didi tinyid, CosId's proxy), answered in their
// shapes. It stands on the public package alone.
//
//	serve.go    New: the generators opened (--gen, --gen-file), the routes
//	server.go   the Server: its generators by name, ids as text, closing
//	tokens.go   --token-file: who may ask for which name
//	private.go  the checks of a file that holds secrets
//	own.go      /v1/ids, /v1/decode, /metrics, /healthz
//	peers.go    Leaf's, tinyid's and CosId's URLs
//	answer.go   parameters, errors as one line with a status
package serve

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/idgen/idgen"
)

// Gen is one served generator: its name in URLs and its configuration.
type Gen struct {
	Name   string
	Config string
}

// ParseGen reads a --gen value, NAME=CONFIG. Its message shows none of
// the value: a mistyped one may hold a password anywhere.
func ParseGen(s string) (Gen, error) {
	name, conf, ok := strings.Cut(s, "=")
	if !ok || !nameRE.MatchString(name) {
		return Gen{}, errors.New("--gen wants NAME=CONFIG with a NAME of letters, digits, '_', '.', '-' (up to 128 characters) before the first '='")
	}
	return Gen{Name: name, Config: conf}, nil
}

// ReadGens reads a --gen-file: a NAME=CONFIG line per generator (blank
// lines and lines starting with '#' skipped), so that configurations
// holding passwords stay out of the command line, where any user of the
// host can read them (ps). A message names the line, never its
// configuration.
func ReadGens(path string) ([]Gen, error) {
	f, err := openPrivate("--gen-file", path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var gens []Gen
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, err := ParseGen(line)
		if err != nil {
			return nil, fmt.Errorf("--gen-file %s line %d: %v", path, n, err)
		}
		gens = append(gens, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--gen-file %s: %w", path, err)
	}
	return gens, nil
}

// New opens every generator of gens (all or none: one that fails closes
// those opened before it). tokens may be nil.
func New(gens []Gen, tokens *Tokens) (*Server, error) {
	if len(gens) == 0 {
		return nil, errors.New("no generator to serve: give --gen NAME=CONFIG at least once")
	}
	s := &Server{gens: map[string]*served{}, tokens: tokens}
	for _, g := range gens {
		if _, dup := s.gens[g.Name]; dup {
			s.Close()
			return nil, fmt.Errorf("--gen %s: the name is given twice", g.Name)
		}
		gen, err := idgen.Open(g.Config)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("--gen %s: %w", g.Name, err)
		}
		k := gen.Info().Kind
		s.gens[g.Name] = &served{Generator: gen, numeric: k == idgen.KindNumeric || k == idgen.KindCounter}
		s.names = append(s.names, g.Name)
	}
	sort.Strings(s.names)
	s.routes()
	return s, nil
}

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /v1/ids/{name}", s.ids)
	m.HandleFunc("GET /v1/decode/{name}/{id}", s.decode)
	m.HandleFunc("GET /metrics", s.metrics)
	m.HandleFunc("GET /healthz", s.healthz)
	m.HandleFunc("GET /api/segment/get/{key}", s.leaf)
	m.HandleFunc("GET /api/snowflake/get/{key}", s.leaf)
	m.HandleFunc("GET /tinyid/id/nextIdSimple", s.tinyidSimple)
	m.HandleFunc("GET /tinyid/id/nextId", s.tinyidEnvelope)
	m.HandleFunc("GET /ids/{name}", s.cosid)
	m.HandleFunc("GET /ids/as-string/{name}", s.cosidString)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	s.mux = m
}
