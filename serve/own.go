package serve

// idgen's own endpoints: GET /v1/ids/{name}?n=N, GET /v1/decode/{name}/{id},
// GET /metrics, GET /healthz.

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"

	"github.com/idgen/idgen"
)

// ids answers {"ids":["…",…]}: ids as strings (a 64-bit id does not fit a
// JSON number as JavaScript reads it).
func (s *Server) ids(w http.ResponseWriter, r *http.Request) {
	g := s.gen(w, r.PathValue("name"), bearer(r))
	if g == nil {
		return
	}
	n, bad := count(r.URL.Query().Get("n"), "n")
	if bad != "" {
		fail(w, http.StatusBadRequest, bad)
		return
	}
	body, err := g.appendIDs(append(make([]byte, 0, 24*n+16), `{"ids":[`...), n, true, ',')
	if err != nil {
		fail(w, status(err), err.Error())
		return
	}
	body[len(body)-1] = ']' // the last comma
	writeJSON(w, append(body, "}\n"...))
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// decoded is /v1/decode's answer; fields a form lacks are left out.
type decoded struct {
	ID         string `json:"id"`
	UnixMs     *int64 `json:"unix_ms,omitempty"`
	Datacenter *int64 `json:"datacenter,omitempty"`
	Worker     *int64 `json:"worker,omitempty"`
	Sequence   *int64 `json:"sequence,omitempty"`
	Epoch      *int64 `json:"epoch,omitempty"`
	PID        *int64 `json:"pid,omitempty"`
	LoaderHash *int64 `json:"loader_hash,omitempty"`
	Addr       string `json:"addr,omitempty"`
}

func some(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

// decode answers the fields of an id: a decimal id of a numeric or
// counter generator, the text of a text one.
func (s *Server) decode(w http.ResponseWriter, r *http.Request) {
	g := s.gen(w, r.PathValue("name"), bearer(r))
	if g == nil {
		return
	}
	raw := r.PathValue("id")
	var d decoded
	if g.numeric {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			fail(w, http.StatusBadRequest, "id must be a decimal 64-bit number, got "+strconv.Quote(raw))
			return
		}
		p, err := g.Decode(id)
		if err != nil {
			fail(w, status(err), err.Error())
			return
		}
		d = decoded{ID: raw, UnixMs: some(p.UnixMs), Datacenter: some(p.Datacenter), Worker: some(p.Worker), Sequence: some(p.Sequence), Epoch: some(p.Epoch)}
	} else {
		p, err := g.DecodeText(raw)
		if err != nil {
			fail(w, status(err), err.Error())
			return
		}
		d = decoded{ID: raw, UnixMs: some(p.UnixMs), Sequence: some(p.Sequence), PID: some(p.PID), LoaderHash: some(p.LoaderHash), Addr: addr(p.Addr)}
	}
	body, _ := json.Marshal(d)
	writeJSON(w, append(body, '\n'))
}

// addr prints an address a text id carries: IPv4, IPv6 or a MAC.
func addr(b []byte) string {
	switch len(b) {
	case 4, 16:
		return net.IP(b).String()
	case 6:
		return net.HardwareAddr(b).String()
	}
	return ""
}

// metrics answers every served generator's metrics (Prometheus text).
func (s *Server) metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Write(idgen.AppendMetricsText(nil))
}

// health is /healthz's answer for one generator.
type health struct {
	Lease       string `json:"lease"`
	Issued      int64  `json:"issued"`
	FenceUnixMs int64  `json:"fence_unix_ms"`
	SegmentLeft int64  `json:"segment_left"`
}

// healthz is 200 while no generator's lease is lost, else 503; the body
// says each generator's state, as JSON.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	out := struct {
		Status     string            `json:"status"`
		Generators map[string]health `json:"generators"`
	}{Status: "UP", Generators: map[string]health{}}
	code := http.StatusOK
	for _, name := range s.names {
		st := s.gens[name].Stats()
		if st.LeaseState == idgen.LeaseLost {
			out.Status, code = "DOWN", http.StatusServiceUnavailable
		}
		out.Generators[name] = health{Lease: st.LeaseState.String(), Issued: st.Issued, FenceUnixMs: st.FenceUnixMs, SegmentLeft: st.SegmentLeft}
	}
	body, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(body, '\n'))
}
