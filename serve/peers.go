package serve

// The URLs of the id services teams migrate from, answered in their
// shapes (docs/SERVICE.md has the bytes and where they come from):
//
//	Meituan Leaf   GET /api/segment/get/{key}, /api/snowflake/get/{key}:
//	               the id as plain text; a generator's failure is Spring
//	               Boot 1.5's error JSON with status 500, as Leaf's
//	               LeafServerException gives
//	Didi tinyid    GET /tinyid/id/nextIdSimple and /tinyid/id/nextId
//	               (bizType, batchSize, token): "4,5,6" as text, or
//	               {"data":[…],"code":200,"message":""}; a generator's
//	               failure is tinyid's: an empty body, or code 6
//	CosId proxy    GET /ids/{name} (a bare JSON number) and
//	               /ids/as-string/{name} (plain text); a failure is its
//	               ErrorResponse with status 500
//
// What is idgen's own making answers as idgen's endpoints do: a name not
// served is 404, a bad parameter 400, a missing or unknown token 401, a
// token not allowed that name 403, each a line of text (tinyid's token
// answers keep tinyid's bodies).

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

const (
	plainUTF8 = "text/plain;charset=UTF-8"
	jsonUTF8  = "application/json;charset=UTF-8"
)

// leaf answers one id of the generator named key, as Leaf does.
func (s *Server) leaf(w http.ResponseWriter, r *http.Request) {
	g := s.gen(w, r.PathValue("key"), bearer(r))
	if g == nil {
		return
	}
	body, err := g.appendIDs(nil, 1, false, '\n')
	if err != nil {
		leafError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", plainUTF8)
	w.Write(body[:len(body)-1]) // Leaf writes no newline
}

// leafError is Spring Boot 1.5's error body for Leaf's LeafServerException
// (its Result: id -3 is a segment's "both segments are null", a failure to
// give an id; our message says why).
func leafError(w http.ResponseWriter, r *http.Request, err error) {
	body, _ := json.Marshal(struct {
		Timestamp int64  `json:"timestamp"`
		Status    int    `json:"status"`
		Error     string `json:"error"`
		Exception string `json:"exception"`
		Message   string `json:"message"`
		Path      string `json:"path"`
	}{time.Now().UnixMilli(), 500, "Internal Server Error", "com.sankuai.inf.leaf.server.exception.LeafServerException",
		"Result{id=-3, status=EXCEPTION}: " + err.Error(), r.URL.Path})
	w.Header().Set("Content-Type", jsonUTF8)
	w.WriteHeader(http.StatusInternalServerError)
	w.Write(body)
}

// tinyidArgs reads bizType, batchSize and token, and finds the generator
// (its failures answered: tokens with tinyid's body, the rest as idgen's).
func (s *Server) tinyidArgs(w http.ResponseWriter, r *http.Request, tokenBody func(int)) (*served, int) {
	q := r.URL.Query()
	n := 1
	if b := q.Get("batchSize"); b != "" {
		v, err := strconv.Atoi(b)
		if err != nil || v < 1 {
			fail(w, http.StatusBadRequest, "batchSize must be a whole number from 1 (above 100000: 100000, as tinyid), got "+strconv.Quote(b))
			return nil, 0
		}
		n = min(v, MaxBatch)
	}
	name := q.Get("bizType")
	if name == "" {
		fail(w, http.StatusBadRequest, "bizType is missing")
		return nil, 0
	}
	if s.tokens != nil {
		if code := s.tokens.check(q.Get("token"), name); code != 0 {
			tokenBody(code)
			return nil, 0
		}
	}
	g, ok := s.gens[name]
	if !ok {
		fail(w, http.StatusNotFound, "no generator named "+strconv.Quote(name)+" is served")
		return nil, 0
	}
	return g, n
}

// tinyidSimple answers "4,5,6"; a failure of the generator is tinyid's
// empty 200.
func (s *Server) tinyidSimple(w http.ResponseWriter, r *http.Request) {
	g, n := s.tinyidArgs(w, r, func(code int) {
		w.Header().Set("Content-Type", plainUTF8)
		w.WriteHeader(code) // tinyid's body for a bad token: empty
	})
	if g == nil {
		return
	}
	body, err := g.appendIDs(nil, n, false, ',')
	w.Header().Set("Content-Type", plainUTF8)
	if err != nil {
		return
	}
	w.Write(body[:len(body)-1])
}

// tinyidResponse is tinyid's envelope, its fields in its order.
type tinyidResponse struct {
	Data    json.RawMessage `json:"data"`
	Code    int             `json:"code"`
	Message string          `json:"message"`
}

func writeTinyid(w http.ResponseWriter, status int, resp tinyidResponse) {
	if resp.Data == nil {
		resp.Data = json.RawMessage("null")
	}
	body, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", jsonUTF8)
	w.WriteHeader(status)
	w.Write(body)
}

// tinyidEnvelope answers {"data":[4,5,6],"code":200,"message":""}; a
// failure of the generator is tinyid's code 6 with the reason.
func (s *Server) tinyidEnvelope(w http.ResponseWriter, r *http.Request) {
	g, n := s.tinyidArgs(w, r, func(code int) {
		writeTinyid(w, code, tinyidResponse{Code: 5, Message: "token is error"})
	})
	if g == nil {
		return
	}
	if !g.numeric {
		fail(w, http.StatusBadRequest, "tinyid's ids are numbers: "+strconv.Quote(r.URL.Query().Get("bizType"))+" makes text ids (use nextIdSimple or /v1/ids)")
		return
	}
	body, err := g.appendIDs([]byte{'['}, n, false, ',')
	if err != nil {
		writeTinyid(w, http.StatusOK, tinyidResponse{Code: 6, Message: err.Error()})
		return
	}
	body[len(body)-1] = ']'
	writeTinyid(w, http.StatusOK, tinyidResponse{Data: body, Code: 200})
}

// cosid answers a bare JSON number.
func (s *Server) cosid(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	g := s.gen(w, name, bearer(r))
	if g == nil {
		return
	}
	if !g.numeric {
		fail(w, http.StatusBadRequest, strconv.Quote(name)+" makes text ids: ask /ids/as-string/"+name)
		return
	}
	s.cosidAnswer(w, g, "application/json")
}

// cosidString answers the id as text.
func (s *Server) cosidString(w http.ResponseWriter, r *http.Request) {
	g := s.gen(w, r.PathValue("name"), bearer(r))
	if g == nil {
		return
	}
	s.cosidAnswer(w, g, plainUTF8)
}

func (s *Server) cosidAnswer(w http.ResponseWriter, g *served, ctype string) {
	body, err := g.appendIDs(nil, 1, false, '\n')
	if err != nil {
		out, _ := json.Marshal(struct {
			Code   string   `json:"code"`
			Errors []string `json:"errors"`
			Msg    string   `json:"msg"`
		}{"500", []string{}, err.Error()})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write(out)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Write(body[:len(body)-1])
}
