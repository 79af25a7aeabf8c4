// Command appbench is tinytsdb's application benchmark. It starts the HTTP
// API in-process on a loopback port (127.0.0.1, chosen by the kernel),
// drives a deterministic concurrent workload against it for a bounded
// time, optionally records a CPU profile of the workload phase, and prints
// a one-line summary to stderr.
//
// Usage:
//
//	appbench [-scenario mixed|ingest|query] [-duration 10s] [-workers 4]
//	         [-seed 1] [-max-requests N] [-cpuprofile FILE]
//
// Scenarios:
//
//	ingest  write-heavy: 90% /write batches, 9% /query, 1% /health,
//	        on a store preloaded with 10 minutes of data
//	query   read-heavy: 94% /query of eight kinds, 5% /write, 1% /health,
//	        on a store preloaded with 6 hours of data
//	mixed   (default) 50% /write, 49% /query, 1% /health, 1 hour preloaded
//
// The simulated fleet has 40 hosts in 4 regions; every host reports
// cpu_usage, mem_used, req_total{code=200|404|500} and
// disk_io{device=sda|sdb} every 10 seconds of data time, i.e. 280 series.
// Data time starts at a fixed instant and advances with the writes, so the
// stored data never depends on the wall clock. Each worker draws its
// requests from its own seeded generator; only how many requests fit in
// -duration depends on the machine.
//
// The CPU profile covers the workload phase only, not the preload. The
// exit status is 1 if any request failed.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"example.com/tinytsdb/httpapi"
	"example.com/tinytsdb/storage"
)

const (
	nHosts   = 40
	nRegions = 4
	tickMs   = 10000         // data-time interval between samples
	t0       = 1700000000000 // data time of tick 0 (Unix ms)
)

var codes = []string{"200", "404", "500"}
var devices = []string{"sda", "sdb"}

// scenario is the request mix of a run.
type scenario struct {
	writeP, queryP float64 // probabilities; the rest are /health
	preloadTicks   int
	gzipP          float64 // share of writes sent gzip-encoded
}

var scenarios = map[string]scenario{
	"ingest": {writeP: 0.90, queryP: 0.09, preloadTicks: 60, gzipP: 0.2},
	"query":  {writeP: 0.05, queryP: 0.94, preloadTicks: 6 * 360, gzipP: 0},
	"mixed":  {writeP: 0.50, queryP: 0.49, preloadTicks: 360, gzipP: 0.1},
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("appbench: ")
	var (
		scenarioName = flag.String("scenario", "mixed", "workload: ingest, query or mixed")
		duration     = flag.Duration("duration", 10*time.Second, "how long to drive the workload")
		workers      = flag.Int("workers", 4, "concurrent clients")
		seed         = flag.Uint64("seed", 1, "random seed of the request generators")
		maxRequests  = flag.Int64("max-requests", 1000000, "stop after this many requests")
		cpuprofile   = flag.String("cpuprofile", "", "write a CPU profile of the workload phase to `file`")
	)
	flag.Parse()
	sc, ok := scenarios[*scenarioName]
	if !ok {
		log.Printf("-scenario %q: valid values are ingest, query, mixed", *scenarioName)
		os.Exit(2)
	}
	if *workers < 1 || *workers > nHosts || *duration <= 0 || *maxRequests <= 0 {
		log.Printf("-workers must be in [1, %d]; -duration and -max-requests must be positive", nHosts)
		os.Exit(2)
	}
	if err := run(*scenarioName, sc, *duration, *workers, *seed, *maxRequests, *cpuprofile); err != nil {
		log.Fatal(err)
	}
}

func run(name string, sc scenario, duration time.Duration, nWorkers int, seed uint64, maxRequests int64, profilePath string) error {
	table := storage.NewTable(storage.Options{})
	api := httpapi.NewServer(table)
	api.Now = func() time.Time { return time.UnixMilli(t0) } // rows always carry timestamps
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: api, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	client := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			Proxy:               nil, // loopback only, never through a proxy
			MaxIdleConnsPerHost: 2 * nWorkers,
		},
	}
	lg := &loadgen{base: "http://" + ln.Addr().String(), client: client, sc: sc}
	workers := make([]*worker, nWorkers)
	for i := range workers {
		workers[i] = newWorker(lg, i, nWorkers, seed)
	}

	// Preload data time [0, preloadTicks) concurrently, outside the profile.
	if err := forEach(workers, func(w *worker) error { return w.preload(sc.preloadTicks) }); err != nil {
		return fmt.Errorf("preload: %w", err)
	}

	if profilePath != "" {
		f, err := os.Create(profilePath)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	start := time.Now()
	deadline := start.Add(duration)
	var budget atomic.Int64
	budget.Store(maxRequests)
	_ = forEach(workers, func(w *worker) error { w.drive(deadline, &budget); return nil })
	elapsed := time.Since(start)
	if profilePath != "" {
		pprof.StopCPUProfile()
	}

	var tot stats
	for _, w := range workers {
		tot.add(&w.stats)
	}
	st := table.Stats()
	log.Printf("scenario=%s workers=%d elapsed=%.1fs requests=%d writes=%d queries=%d health=%d rows=%d errors=%d series=%d points=%d",
		name, nWorkers, elapsed.Seconds(), tot.writes+tot.queries+tot.health, tot.writes, tot.queries, tot.health, tot.rows, tot.errors, st.Series, st.Points)
	if tot.errors > 0 {
		return fmt.Errorf("%d requests failed; first: %v", tot.errors, tot.firstErr)
	}
	return nil
}

func forEach(ws []*worker, fn func(*worker) error) error {
	errs := make([]error, len(ws))
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(w)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// loadgen is the state shared by all workers.
type loadgen struct {
	base   string
	client *http.Client
	sc     scenario
	// newest is the highest tick written by any worker; queries look at
	// data up to it.
	newest atomic.Int64
}

func (lg *loadgen) advance(tick int64) {
	for {
		cur := lg.newest.Load()
		if tick <= cur || lg.newest.CompareAndSwap(cur, tick) {
			return
		}
	}
}

type stats struct {
	writes, queries, health, rows, errors int64
	firstErr                              error
}

func (s *stats) add(o *stats) {
	s.writes += o.writes
	s.queries += o.queries
	s.health += o.health
	s.rows += o.rows
	s.errors += o.errors
	if s.firstErr == nil {
		s.firstErr = o.firstErr
	}
}

// worker is one client. It owns the hosts h with h%nWorkers == id and
// writes their samples tick by tick, so writes of different workers never
// interleave within a series.
type worker struct {
	lg       *loadgen
	rng      *rand.Rand
	hosts    []int
	tick     int64              // next tick to write
	counters map[[2]int]float64 // (host, code) → req_total
	cpu      map[int]float64    // host → last cpu_usage
	body     bytes.Buffer
	gz       *gzip.Writer
	stats
}

func newWorker(lg *loadgen, id, n int, seed uint64) *worker {
	w := &worker{
		lg:       lg,
		rng:      rand.New(rand.NewPCG(seed, uint64(id))),
		counters: make(map[[2]int]float64),
		cpu:      make(map[int]float64),
	}
	for h := id; h < nHosts; h += n {
		w.hosts = append(w.hosts, h)
		w.cpu[h] = 20 + float64(h%10)*5
	}
	w.gz, _ = gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}

// appendTick appends the line protocol of all series of w's hosts at tick.
func (w *worker) appendTick(buf []byte, tick int64) ([]byte, int) {
	ts := strconv.AppendInt(nil, t0+tick*tickMs, 10)
	rows := 0
	line := func(metric string, tags [][2]string, v float64) {
		buf = append(buf, metric...)
		for _, t := range tags {
			buf = append(buf, ',')
			buf = append(buf, t[0]...)
			buf = append(buf, '=')
			buf = append(buf, t[1]...)
		}
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, v, 'f', 2, 64)
		buf = append(buf, ' ')
		buf = append(buf, ts...)
		buf = append(buf, '\n')
		rows++
	}
	for _, h := range w.hosts {
		host := fmt.Sprintf("h%02d", h)
		region := fmt.Sprintf("r%d", h%nRegions)
		c := w.cpu[h] + w.rng.NormFloat64()*2
		c = math.Max(0, math.Min(100, c))
		w.cpu[h] = c
		line("cpu_usage", [][2]string{{"host", host}, {"region", region}}, c)
		line("mem_used", [][2]string{{"host", host}, {"region", region}}, float64(1<<30+h<<20)+float64(w.rng.IntN(1<<20)))
		for i, code := range codes {
			k := [2]int{h, i}
			w.counters[k] += float64(w.rng.IntN(100 >> (2 * i)))
			line("req_total", [][2]string{{"code", code}, {"host", host}, {"region", region}}, w.counters[k])
		}
		for _, d := range devices {
			line("disk_io", [][2]string{{"device", d}, {"host", host}}, w.rng.ExpFloat64()*1e6)
		}
	}
	return buf, rows
}

// write sends ticks [w.tick, w.tick+n) in one /write request.
func (w *worker) write(n int, gzipped bool) error {
	var buf []byte
	rows := 0
	for i := 0; i < n; i++ {
		var r int
		buf, r = w.appendTick(buf, w.tick)
		rows += r
		w.tick++
	}
	body := buf
	if gzipped {
		w.body.Reset()
		w.gz.Reset(&w.body)
		w.gz.Write(buf)
		w.gz.Close()
		body = w.body.Bytes()
	}
	req, err := http.NewRequest("POST", w.lg.base+"/write", bytes.NewReader(body))
	if err != nil {
		return err
	}
	if gzipped {
		req.Header.Set("Content-Encoding", "gzip")
	}
	w.writes++
	w.rows += int64(rows)
	err = w.do(req, http.StatusNoContent)
	w.lg.advance(w.tick - 1)
	return err
}

func (w *worker) preload(ticks int) error {
	for int(w.tick) < ticks {
		if err := w.write(min(30, ticks-int(w.tick)), false); err != nil {
			return err
		}
	}
	return nil
}

// queryKinds are the query templates; $host is replaced by a random host
// and $region by a random region.
var queryKinds = []struct {
	weight int
	q      string
}{
	{4, `cpu_usage{host="$host"}`},
	{3, `avg(cpu_usage{region="$region"}) by (host)`},
	{3, `sum(rate(req_total{code="200"}[1m])) by (region)`},
	{2, `max(mem_used)`},
	{1, `count(disk_io{device=~"sd[ab]"})`},
	{2, `rate(req_total{host="$host",code!="500"}[5m])`},
	{1, `min(cpu_usage{host=~"h1.*"})`},
	{1, `sum(disk_io) by (device)`},
}

var queryWeightSum = func() int {
	s := 0
	for _, k := range queryKinds {
		s += k.weight
	}
	return s
}()

// Query windows in ticks and their steps in seconds.
var windows = []struct{ ticks, step int64 }{{30, 10}, {90, 30}, {360, 60}, {2160, 300}}

func (w *worker) query() error {
	pick := w.rng.IntN(queryWeightSum)
	var tmpl string
	for _, k := range queryKinds {
		if pick < k.weight {
			tmpl = k.q
			break
		}
		pick -= k.weight
	}
	host := fmt.Sprintf("h%02d", w.rng.IntN(nHosts))
	region := fmt.Sprintf("r%d", w.rng.IntN(nRegions))
	win := windows[w.rng.IntN(len(windows))]
	end := w.lg.newest.Load()
	start := max(0, end-win.ticks)
	v := url.Values{
		"query": {strings.NewReplacer("$host", host, "$region", region).Replace(tmpl)},
		"start": {strconv.FormatInt(t0+start*tickMs, 10)},
		"end":   {strconv.FormatInt(t0+end*tickMs, 10)},
		"step":  {strconv.FormatInt(win.step, 10) + "s"},
	}
	req, err := http.NewRequest("GET", w.lg.base+"/query?"+v.Encode(), nil)
	if err != nil {
		return err
	}
	w.queries++
	return w.do(req, http.StatusOK)
}

func (w *worker) checkHealth() error {
	req, err := http.NewRequest("GET", w.lg.base+"/health", nil)
	if err != nil {
		return err
	}
	w.health++
	return w.do(req, http.StatusOK)
}

func (w *worker) do(req *http.Request, want int) error {
	resp, err := w.lg.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d: %.200s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	return nil
}

// drive sends requests until the deadline or until the shared budget of
// requests is used up.
func (w *worker) drive(deadline time.Time, budget *atomic.Int64) {
	sc := w.lg.sc
	for budget.Add(-1) >= 0 && time.Now().Before(deadline) {
		var err error
		switch p := w.rng.Float64(); {
		case p < sc.writeP:
			err = w.write(1+w.rng.IntN(3), w.rng.Float64() < sc.gzipP)
		case p < sc.writeP+sc.queryP:
			err = w.query()
		default:
			err = w.checkHealth()
		}
		if err != nil {
			w.errors++
			if w.firstErr == nil {
				w.firstErr = err
			}
		}
	}
}
