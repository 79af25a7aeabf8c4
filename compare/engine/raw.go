package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
)

// markerPrefix starts the line that says where the benchmark lines after
// it come from: "# mbopt-compare side=base commit=<hash> trial=1 run=2".
//
// The provenance is a comment, not configuration lines: benchstat groups
// results into tables by every configuration key, so "trial: 1" lines
// would split one benchmark into a table per trial and per run, and a
// "revision:" line that differs between the two files would keep benchstat
// from comparing them at all. The Go benchmark format ignores lines that
// are neither configuration nor results, so benchstat base.txt head.txt
// compares the files as they are, and [Data.Read] (compare.Analyze) reads
// the comments back.
const markerPrefix = "# mbopt-compare "

// A marker is the provenance of the benchmark lines that follow it.
type marker struct {
	side   Side
	commit string
	trial  int // from 1
	run    int // from 1
}

func (m marker) String() string {
	return fmt.Sprintf("%sside=%s commit=%s trial=%d run=%d", markerPrefix, m.side, m.commit, m.trial, m.run)
}

// parseMarker parses a marker line; ok is false for other lines.
func parseMarker(line string) (m marker, ok bool, err error) {
	rest, ok := strings.CutPrefix(line, markerPrefix)
	if !ok {
		return marker{}, false, nil
	}
	seen := 0
	for _, f := range strings.Fields(rest) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "side":
			switch v {
			case "base":
				m.side = Base
			case "head":
				m.side = Head
			default:
				return m, true, fmt.Errorf("side=%q: want base or head", v)
			}
			seen |= 1
		case "commit":
			m.commit = v
		case "trial", "run":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return m, true, fmt.Errorf("%s=%q: want a number from 1", k, v)
			}
			if k == "trial" {
				m.trial, seen = n, seen|2
			} else {
				m.run, seen = n, seen|4
			}
		}
	}
	if seen != 7 {
		return m, true, fmt.Errorf("want side=, trial= and run= in %q", line)
	}
	return m, true, nil
}

// A rawWriter writes one version's raw results in the Go benchmark
// format: test binary output, with a marker line before each process's
// results.
type rawWriter struct {
	buf bytes.Buffer // the file's content, once flushed
	w   *bufio.Writer
	bw  *benchfmt.Writer
}

// newRawWriter returns a writer of one version's raw file, which starts
// with a comment line of header.
func newRawWriter(header string) *rawWriter {
	rw := &rawWriter{}
	rw.w = bufio.NewWriter(&rw.buf)
	fmt.Fprintf(rw.w, "# %s\n", header)
	rw.bw = benchfmt.NewWriter(rw.w)
	return rw
}

// testConfig are the configuration keys a Go test binary prints before
// its benchmarks. Other "key: value" lines in its output are printed by
// the benchmarks themselves (a benchmark that logs "seed: 42"); the Go
// benchmark format reads them as configuration too, and benchstat would
// split its tables by them, so they are kept out of the raw files.
var testConfig = map[string]bool{"goos": true, "goarch": true, "pkg": true, "cpu": true}

// write writes the results of one process: its output's benchmark lines
// and the test binary's configuration lines (testConfig) after the marker
// m.
func (rw *rawWriter) write(m marker, output []byte) error {
	fmt.Fprintf(rw.w, "\n%s\n", m)
	r := benchfmt.NewReader(bytes.NewReader(output), "")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			res.Config = slices.DeleteFunc(res.Config, func(c benchfmt.Config) bool { return c.File && !testConfig[c.Key] })
			if err := rw.bw.Write(res); err != nil {
				return err
			}
		}
	}
	// The writer repeats configuration lines only when they change;
	// forget them, so every block after a marker is complete on its own
	// (a shard's file can be cut at markers).
	rw.bw = benchfmt.NewWriter(rw.w)
	return r.Err()
}

func (rw *rawWriter) flush() error { return rw.w.Flush() }

// A Sample is the measurements of one benchmark and unit in one version.
type Sample struct {
	// H holds the measurements in the RMIT hierarchy (trial → run →
	// measurement).
	H benchstats.Hierarchy
	// Better is +1 when higher is better, else lower is (the unit's
	// direction, golang.org/x/perf/benchfmt's GetBetter).
	Better int
}

// A Key identifies a benchmark and unit.
type Key struct {
	// ID is the benchmark id (see package benchname) and Unit the unit,
	// such as "sec/op".
	ID, Unit string
}

// Data is what raw result files hold: per version, per benchmark and
// unit, the measurements in the RMIT hierarchy.
type Data struct {
	// Samples are the measurements, by [Side], then benchmark and unit.
	Samples [2]map[Key]*Sample
	// Commits are the commits the files name, by [Side] ("" when none).
	Commits [2]string
	// Order is every key, in first-seen order.
	Order []Key
	// Benches are the package and full name of each benchmark id.
	Benches map[string]Bench
}

// A Bench is the package ("pkg:" configuration, may be empty) and full
// name of the results with one benchmark id.
type Bench struct {
	// Package is the import path and Name the full name.
	Package, Name string
}

// NewData returns empty [Data].
func NewData() *Data {
	return &Data{Samples: [2]map[Key]*Sample{{}, {}}, Benches: map[string]Bench{}}
}

// Read adds the results of one raw file, named name in errors. Results
// before the first "# mbopt-compare" line are an error: without it, the
// side is unknown.
func (d *Data) Read(name string, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	// The marker in force at each line.
	lines := bytes.Split(data, []byte("\n"))
	at := make([]int, len(lines)+1) // line number (from 1) → index into marks, -1 for none
	var marks []marker
	cur := -1
	for i, l := range lines {
		m, ok, err := parseMarker(strings.TrimSuffix(string(l), "\r"))
		if err != nil {
			return fmt.Errorf("%s:%d: bad mbopt-compare line: %v", name, i+1, err)
		}
		if ok {
			marks = append(marks, m)
			cur = len(marks) - 1
		}
		at[i+1] = cur
	}
	units := benchfmt.UnitMetadataMap{}
	br := benchfmt.NewReader(bytes.NewReader(data), name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return fmt.Errorf("%v", rec)
		case *benchfmt.UnitMetadata:
			units[benchfmt.UnitMetadataKey{Unit: rec.Unit, Key: rec.Key}] = rec
		case *benchfmt.Result:
			_, line := rec.Pos()
			if line >= len(at) || at[line] < 0 {
				return fmt.Errorf("%s:%d: benchmark result before the first %q line: not a file written by mbopt compare", name, line, strings.TrimSpace(markerPrefix))
			}
			m := marks[at[line]]
			if c := d.Commits[m.side]; c != "" && m.commit != "" && c != m.commit {
				return fmt.Errorf("%s:%d: %s commit %s, but an earlier result of the %s is of commit %s: the files compare more than two revisions", name, line, m.side, m.commit, m.side, c)
			}
			if m.commit != "" {
				d.Commits[m.side] = m.commit
			}
			b := Bench{Package: rec.GetConfig("pkg"), Name: fullName(rec.Name)}
			id := b.Name
			if b.Package != "" {
				id = benchname.ID(b.Package, b.Name)
			}
			d.Benches[id] = b
			for _, v := range rec.Values {
				k := Key{id, v.Unit}
				s := d.Samples[m.side][k]
				if s == nil {
					if d.Samples[1-m.side][k] == nil {
						d.Order = append(d.Order, k)
					}
					s = &Sample{Better: units.GetBetter(v.Unit)}
					d.Samples[m.side][k] = s
				}
				s.add(m.trial, m.run, v.Value)
			}
		}
	}
	return br.Err()
}

// add adds one measurement of run r of trial t (both from 1).
func (s *Sample) add(t, r int, v float64) { s.H = addAt(s.H, t, r, v) }

// addAt returns h with v added to run r of trial t (both from 1), the
// trials and runs before them made as needed: a measurement into the RMIT
// hierarchy, a value (sample) or a per-function profile (funcProfiles).
func addAt[T any](h [][][]T, t, r int, v T) [][][]T {
	for len(h) < t {
		h = append(h, nil)
	}
	for len(h[t-1]) < r {
		h[t-1] = append(h[t-1], nil)
	}
	h[t-1][r-1] = append(h[t-1][r-1], v)
	return h
}

// fullName returns the benchmark's full name as go test -bench selects it:
// "Benchmark" + the name without its "-N" GOMAXPROCS suffix.
func fullName(n benchfmt.Name) string {
	s := string(n)
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '-' && i < len(s)-1 {
			s = s[:i]
			break
		}
		if s[i] < '0' || s[i] > '9' {
			break
		}
	}
	return "Benchmark" + s
}

// ReadFiles reads the named raw files.
func ReadFiles(files []string) (*Data, error) {
	d := NewData()
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		err = d.Read(f, fh)
		fh.Close()
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}
