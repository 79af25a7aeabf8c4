package query

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"example.com/tinytsdb/storage"
)

// Params is the evaluation range of a query, in Unix milliseconds.
type Params struct {
	Start, End, Step int64
}

// Label is one name=value pair of a result series.
type Label struct {
	Name, Value string
}

// Series is one output series: a label set and one value per step.
// Steps without data are NaN.
type Series struct {
	Labels []Label // sorted by Name
	Values []float64
}

// Result is the answer to a query.
type Result struct {
	Query  string
	Params Params
	Series []Series // sorted by label set
}

// Engine evaluates queries against a table.
type Engine struct {
	Table *storage.Table
	// MaxSteps bounds (End-Start)/Step+1; 0 means 11000.
	MaxSteps int
	// MaxSeries bounds the number of series one selector may read;
	// 0 means 10000.
	MaxSeries int
}

// Exec parses q and evaluates it over p. It fails on syntax errors, on
// an invalid range, and when a limit is exceeded.
func (e *Engine) Exec(q string, p Params) (*Result, error) {
	expr, err := Parse(q)
	if err != nil {
		return nil, err
	}
	series, err := e.Eval(expr, p)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", q, err)
	}
	return &Result{Query: q, Params: p, Series: series}, nil
}

// Eval evaluates a parsed expression over p; output series are sorted by
// their label sets.
func (e *Engine) Eval(expr Expr, p Params) ([]Series, error) {
	if p.Step <= 0 || p.End < p.Start {
		return nil, fmt.Errorf("invalid range start=%d end=%d step=%d", p.Start, p.End, p.Step)
	}
	maxSteps := e.MaxSteps
	if maxSteps <= 0 {
		maxSteps = 11000
	}
	if n := (p.End-p.Start)/p.Step + 1; n > int64(maxSteps) {
		return nil, fmt.Errorf("range needs %d steps, more than the limit of %d", n, maxSteps)
	}
	out, err := e.eval(expr, p)
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return labelsLess(out[i].Labels, out[j].Labels) })
	return out, nil
}

func (e *Engine) eval(expr Expr, p Params) ([]Series, error) {
	switch x := expr.(type) {
	case *Selector:
		return e.selectSeries(x, p, false)
	case *Call:
		if x.Func == "rate" {
			return e.selectSeries(x.Arg.(*Selector), p, true)
		}
		in, err := e.eval(x.Arg, p)
		if err != nil {
			return nil, err
		}
		return aggregate(x.Func, x.By, in), nil
	}
	return nil, fmt.Errorf("unknown expression %T", expr)
}

func steps(p Params) int { return int((p.End-p.Start)/p.Step) + 1 }

// selectSeries reads the series matched by s and samples them on the step
// grid. Without rate, each step takes the last sample in (t-window, t];
// with rate, the per-second increase over that window, corrected for
// counter resets.
func (e *Engine) selectSeries(s *Selector, p Params, rate bool) ([]Series, error) {
	ids := e.Table.Search(s.Metric, s.Matchers)
	maxSeries := e.MaxSeries
	if maxSeries <= 0 {
		maxSeries = 10000
	}
	if len(ids) > maxSeries {
		return nil, fmt.Errorf("selector %s matches %d series, more than the limit of %d", s, len(ids), maxSeries)
	}
	window := s.Range
	if window == 0 {
		window = p.Step
	}
	out := make([]Series, 0, len(ids))
	var ts []int64
	var vs []float64
	for _, id := range ids {
		var err error
		ts, vs, err = e.Table.ReadRange(id, p.Start-window+1, p.End, ts[:0], vs[:0])
		if err != nil {
			return nil, err
		}
		if len(ts) == 0 {
			continue
		}
		meta := e.Table.Meta(id)
		var values []float64
		if rate {
			values = rateGrid(ts, vs, p, window)
		} else {
			values = lastGrid(ts, vs, p, window)
		}
		out = append(out, Series{Labels: labelsOf(&meta, !rate), Values: values})
	}
	return out, nil
}

func labelsOf(m *storage.SeriesMeta, withName bool) []Label {
	ls := make([]Label, 0, len(m.Tags)+1)
	if withName {
		ls = append(ls, Label{"__name__", m.Metric})
	}
	for _, t := range m.Tags {
		ls = append(ls, Label{t.Key, t.Value})
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
	return ls
}

// lastGrid samples sorted points on the step grid.
func lastGrid(ts []int64, vs []float64, p Params, window int64) []float64 {
	out := make([]float64, steps(p))
	j := 0 // first point after the current step
	for i := range out {
		t := p.Start + int64(i)*p.Step
		for j < len(ts) && ts[j] <= t {
			j++
		}
		if j > 0 && ts[j-1] > t-window {
			out[i] = vs[j-1]
		} else {
			out[i] = math.NaN()
		}
	}
	return out
}

// rateGrid computes the per-second rate of a counter on the step grid.
func rateGrid(ts []int64, vs []float64, p Params, window int64) []float64 {
	out := make([]float64, steps(p))
	lo, hi := 0, 0 // points in (t-window, t] are ts[lo:hi]
	for i := range out {
		t := p.Start + int64(i)*p.Step
		for hi < len(ts) && ts[hi] <= t {
			hi++
		}
		for lo < hi && ts[lo] <= t-window {
			lo++
		}
		if hi-lo < 2 {
			out[i] = math.NaN()
			continue
		}
		var inc float64
		for k := lo + 1; k < hi; k++ {
			if d := vs[k] - vs[k-1]; d >= 0 {
				inc += d
			} else {
				inc += vs[k] // counter reset: it restarted from zero
			}
		}
		out[i] = inc / (float64(ts[hi-1]-ts[lo]) / 1000)
	}
	return out
}

type group struct {
	labels []Label
	acc    []float64
	count  []int
}

// aggregate combines series step by step, grouped by the values of the by
// tags. NaN inputs are skipped; a step with no inputs stays NaN.
func aggregate(fn string, by []string, in []Series) []Series {
	groups := make(map[string]*group)
	var order []*group
	var key strings.Builder
	for _, s := range in {
		key.Reset()
		var labels []Label
		for _, name := range by {
			v := labelValue(s.Labels, name)
			key.WriteString(name)
			key.WriteByte(0)
			key.WriteString(v)
			key.WriteByte(0)
			if v != "" {
				labels = append(labels, Label{name, v})
			}
		}
		g := groups[key.String()]
		if g == nil {
			sort.Slice(labels, func(i, j int) bool { return labels[i].Name < labels[j].Name })
			g = &group{labels: labels, acc: make([]float64, len(s.Values)), count: make([]int, len(s.Values))}
			groups[key.String()] = g
			order = append(order, g)
		}
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			g.count[i]++
			switch {
			case g.count[i] == 1 && fn != "count":
				g.acc[i] = v
			case fn == "sum" || fn == "avg":
				g.acc[i] += v
			case fn == "min":
				g.acc[i] = math.Min(g.acc[i], v)
			case fn == "max":
				g.acc[i] = math.Max(g.acc[i], v)
			}
		}
	}
	out := make([]Series, 0, len(order))
	for _, g := range order {
		for i, n := range g.count {
			switch {
			case n == 0:
				g.acc[i] = math.NaN()
			case fn == "avg":
				g.acc[i] /= float64(n)
			case fn == "count":
				g.acc[i] = float64(n)
			}
		}
		out = append(out, Series{Labels: g.labels, Values: g.acc})
	}
	return out
}

func labelValue(ls []Label, name string) string {
	for _, l := range ls {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

func labelsLess(a, b []Label) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Name != b[i].Name {
			return a[i].Name < b[i].Name
		}
		if a[i].Value != b[i].Value {
			return a[i].Value < b[i].Value
		}
	}
	return len(a) < len(b)
}
