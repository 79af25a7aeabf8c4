// Package load is the workload driver behind cmd/tsdbload. It lives in a
// package of its own, not in package main, the way real projects keep a
// command's code (cmd/x/app, cmd/x/command, internal/bench): so its
// functions are project code of the module, example.com/tinytsdb, although
// no benchmark would ever target them. mbopt's --exclude ./cmd/... takes
// it out of the project.
//
// The driver embeds the library directly, without HTTP: every worker
// writes line-protocol batches (encoding.Parse, storage.Table.AddRows),
// runs queries (query.Engine.Exec), and every 8 rounds reports the
// table's size (storage.Table.Stats) and the series it read
// (storage.SeriesMeta.String) and queries (query.Expr's String), with
// backup.FormatSize and query.FormatDuration.
package load

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/tinytsdb/backup"
	"example.com/tinytsdb/encoding"
	"example.com/tinytsdb/query"
	"example.com/tinytsdb/storage"
)

// Config sets the workload's size.
type Config struct {
	// Duration bounds the run; Rounds bounds each worker's rounds.
	Duration time.Duration
	Rounds   int
	// Workers is the number of concurrent workers; Seed seeds them.
	Workers int
	Seed    uint64
}

// Stats counts what a run did.
type Stats struct {
	Rows, Queries, Reports int64
}

const (
	hosts  = 20
	tickMs = 10000
	t0     = 1700000000000
)

var queries = []string{
	`cpu_usage{region="r1"}`,
	`sum(cpu_usage) by (region)`,
	`avg(mem_used) by (host)`,
	`rate(req_total{code="500"}[1m])`,
}

// Command returns the workload as the function a command runs, the way a
// CLI framework's command holds its RunE closure: the driver's entry is a
// closure, as in many real drivers.
func Command(cfg Config) func() (Stats, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Rounds <= 0 {
		cfg.Rounds = 1 << 30
	}
	if cfg.Duration <= 0 {
		cfg.Duration = time.Second
	}
	if cfg.Workers > hosts {
		panic(fmt.Sprintf("load: %d workers for %d hosts", cfg.Workers, hosts))
	}
	return func() (Stats, error) {
		t := storage.NewTable(storage.Options{})
		e := &query.Engine{Table: t}
		deadline := time.Now().Add(cfg.Duration)
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			total Stats
			first error
		)
		for i := range cfg.Workers {
			w := &worker{id: i, n: cfg.Workers, t: t, e: e, rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, err := w.run(deadline, cfg.Rounds)
				mu.Lock()
				defer mu.Unlock()
				total.Rows += st.Rows
				total.Queries += st.Queries
				total.Reports += st.Reports
				if err != nil && first == nil {
					first = err
				}
			}()
		}
		wg.Wait()
		return total, first
	}
}

// worker drives one share of the hosts.
type worker struct {
	id, n int
	t     *storage.Table
	e     *query.Engine
	rng   *rand.Rand
	tick  int64
	buf   strings.Builder
	rows  []encoding.Row
	// progress is the last report's line.
	progress string
}

func (w *worker) run(deadline time.Time, rounds int) (Stats, error) {
	var st Stats
	for r := 0; r < rounds && time.Now().Before(deadline); r++ {
		n, err := w.write()
		if err != nil {
			return st, err
		}
		st.Rows += int64(n)
		if err := w.query(); err != nil {
			return st, err
		}
		st.Queries++
		if r%8 == 7 {
			w.report()
			st.Reports++
		}
	}
	return st, nil
}

// write sends one tick of data for the worker's hosts.
func (w *worker) write() (int, error) {
	w.buf.Reset()
	ts := t0 + w.tick*tickMs
	w.tick++
	for h := w.id; h < hosts; h += w.n {
		host := "h" + strconv.Itoa(h)
		region := "r" + strconv.Itoa(h%4)
		fmt.Fprintf(&w.buf, "cpu_usage,host=%s,region=%s %g %d\n", host, region, 100*w.rng.Float64(), ts)
		fmt.Fprintf(&w.buf, "mem_used,host=%s,region=%s %d %d\n", host, region, w.rng.IntN(1<<30), ts)
		fmt.Fprintf(&w.buf, "req_total,host=%s,region=%s,code=%d %d %d\n", host, region, []int{200, 404, 500}[w.rng.IntN(3)], w.tick*100, ts)
	}
	var err error
	w.rows, err = encoding.Parse(w.rows[:0], w.buf.String())
	if err != nil {
		return 0, err
	}
	return len(w.rows), w.t.AddRows(w.rows)
}

// query runs one query over the last ten minutes of data time.
func (w *worker) query() error {
	end := t0 + w.tick*tickMs
	q := queries[w.rng.IntN(len(queries))]
	_, err := w.e.Exec(q, query.Params{Start: end - 600000, End: end, Step: 60000})
	return err
}

// report reads the table's counters and describes a few series and the
// queries, as a driver's progress line would.
func (w *worker) report() {
	st := w.t.Stats()
	ids := w.t.Search("cpu_usage", nil)
	var b strings.Builder
	for _, id := range ids[:min(len(ids), 3)] {
		m := w.t.Meta(id)
		b.WriteString(m.String())
	}
	for _, q := range queries {
		if expr, err := query.Parse(q); err == nil {
			b.WriteString(expr.String())
		}
	}
	w.progress = fmt.Sprintf("%d series, %d points (%s), %s of data: %s",
		st.Series, st.Points, backup.FormatSize(st.Points*16), query.FormatDuration(w.tick*tickMs), b.String())
}
