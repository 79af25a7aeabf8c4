// Package httpapi serves a [storage.Table] over HTTP:
//
//	POST /write    line protocol in the body (optionally gzip-encoded);
//	               204 on success, 400 with a JSON error otherwise
//	GET  /query    ?query=Q&start=MS&end=MS&step=DURATION; the JSON of
//	               query.AppendJSON
//	GET  /health   {"status":"ok", ...table statistics}
package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"example.com/tinytsdb/encoding"
	"example.com/tinytsdb/query"
	"example.com/tinytsdb/storage"
)

// MaxBodyBytes bounds the size of a decompressed /write body.
const MaxBodyBytes = 32 << 20

// Server is an http.Handler for one table.
type Server struct {
	table  *storage.Table
	engine *query.Engine
	mux    *http.ServeMux
	// Now is the clock used for rows without a timestamp and for /query
	// without end; nil means time.Now.
	Now func() time.Time

	writes, queries, failures atomic.Int64
}

// NewServer returns a server for t.
func NewServer(t *storage.Table) *Server {
	s := &Server{table: t, engine: &query.Engine{Table: t}, mux: http.NewServeMux()}
	s.mux.HandleFunc("POST /write", s.handleWrite)
	s.mux.HandleFunc("GET /query", s.handleQuery)
	s.mux.HandleFunc("GET /health", s.handleHealth)
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// writeState is the reusable memory of one /write request.
type writeState struct {
	body bytes.Buffer
	rows []encoding.Row
}

var writePool = sync.Pool{New: func() any { return new(writeState) }}

func (s *Server) handleWrite(w http.ResponseWriter, r *http.Request) {
	s.writes.Add(1)
	st := writePool.Get().(*writeState)
	defer writePool.Put(st)
	st.body.Reset()

	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			s.fail(w, http.StatusBadRequest, fmt.Errorf("reading gzip body: %w", err))
			return
		}
		defer zr.Close()
		body = zr
	}
	n, err := st.body.ReadFrom(io.LimitReader(body, MaxBodyBytes+1))
	if err != nil {
		s.fail(w, http.StatusBadRequest, fmt.Errorf("reading body: %w", err))
		return
	}
	if n > MaxBodyBytes {
		s.fail(w, http.StatusRequestEntityTooLarge, fmt.Errorf("body larger than %d bytes", MaxBodyBytes))
		return
	}

	// The rows point into st.body; AddRows copies what it keeps.
	st.rows, err = encoding.Parse(st.rows[:0], st.body.String())
	if err != nil {
		s.fail(w, http.StatusBadRequest, err)
		return
	}
	nowMs := s.now().UnixMilli()
	for i := range st.rows {
		if st.rows[i].Timestamp == 0 {
			st.rows[i].Timestamp = nowMs
		}
	}
	if err := s.table.AddRows(st.rows); err != nil {
		s.fail(w, http.StatusBadRequest, err)
		return
	}
	clear(st.rows) // drop references to the body
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request) {
	s.queries.Add(1)
	p, q, err := s.queryParams(r)
	if err != nil {
		s.fail(w, http.StatusBadRequest, err)
		return
	}
	res, err := s.engine.Exec(q, p)
	if err != nil {
		s.fail(w, http.StatusBadRequest, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if err := query.WriteJSON(w, res); err != nil {
		s.failures.Add(1) // the client went away; nothing more to say
	}
}

// queryParams reads query, start, end and step. end defaults to now,
// start to end minus one hour, step to 1/100th of the range (at least 1s).
func (s *Server) queryParams(r *http.Request) (query.Params, string, error) {
	v := r.URL.Query()
	q := v.Get("query")
	if q == "" {
		return query.Params{}, "", errors.New("missing query parameter")
	}
	var p query.Params
	var err error
	if p.End, err = intParam(v.Get("end"), s.now().UnixMilli()); err != nil {
		return p, q, fmt.Errorf("end: %w", err)
	}
	if p.Start, err = intParam(v.Get("start"), p.End-3600*1000); err != nil {
		return p, q, fmt.Errorf("start: %w", err)
	}
	p.Step = max((p.End-p.Start)/100, 1000)
	if step := v.Get("step"); step != "" {
		if p.Step, err = query.ParseDuration(step); err != nil {
			return p, q, fmt.Errorf("step: %w", err)
		}
	}
	return p, q, nil
}

func intParam(s string, def int64) (int64, error) {
	if s == "" {
		return def, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

type health struct {
	Status  string `json:"status"`
	Writes  int64  `json:"writes"`
	Queries int64  `json:"queries"`
	Errors  int64  `json:"errors"`
	storage.Stats
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	h := health{Status: "ok", Writes: s.writes.Load(), Queries: s.queries.Load(), Errors: s.failures.Load(), Stats: s.table.Stats()}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(h)
}

func (s *Server) fail(w http.ResponseWriter, code int, err error) {
	s.failures.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}
