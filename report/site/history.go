package site

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/measure"
)

// WriteHistory writes the site of a history into dir: [FromHistory] of set
// and what [history.Set.Detect] found in it, then [Write] with opt. title
// heads the pages; empty, the module path of the history's latest
// comparison does.
func WriteHistory(dir, title string, set *history.Set, detected []history.Detected, opt Options) error {
	d, err := FromHistory(set, detected)
	if err != nil {
		return err
	}
	d.Title = cmp.Or(title, d.Title)
	return Write(dir, d, opt)
}

// FromHistory returns the site data of a history: set is what
// [history.Store.Series] returned and detected what [history.Set.Detect]
// found in it (its series in set's order). The title is set's module
// path. The application's series is measured only: set's measurements of
// the application benchmark when it has any, else the application measured
// on both versions of its comparisons ([history.Set].Confirmations), at
// the commits the series have (a reference profile's total is no
// measurement and is not drawn); each point keeps its comparison's
// estimated application impact ([Point].App); the bridges are set's, and each point
// measured against an older baseline says which. A series' metric is its
// comparisons' (compare --metric, time by default) when the series is in
// that metric's unit.
// Commits are ordered so that every series keeps its own order; commits
// no series orders are ordered by commit time, then hash. A series'
// settings are the history's names of what sets it apart
// (history.Series.Distinct), its impact the reference impact stored with
// its latest comparison that had one (not an estimate), and its points keep the values
// and the verdict threshold stored with them.
func FromHistory(set *history.Set, detected []history.Detected) (*Data, error) {
	if len(set.Series) != len(detected) {
		return nil, fmt.Errorf("site: %d series in the history but %d detected", len(set.Series), len(detected))
	}
	b := set.Baseline
	d := &Data{Title: set.Module, Baseline: Commit{Hash: b.Commit, Time: b.Time, Subject: b.Subject}, Series: []Series{}}
	commits, index := commitOrder(set)
	for _, h := range commits {
		d.Commits = append(d.Commits, Commit{Hash: h.Commit, Time: h.Time, Subject: h.Subject})
	}
	for i, s := range set.Series {
		hs := detected[i]
		if hs.Series.ID != s.ID || hs.Series.Unit != s.Unit || len(hs.Thresholds) != len(s.Points) {
			return nil, fmt.Errorf("site: series %d is %s (%s) in the history but %s (%s) in its detections", i, s.ID, s.Unit, hs.Series.ID, hs.Series.Unit)
		}
		out := Series{ID: s.ID, Package: s.Package, Name: s.Name, Unit: s.Unit, Machine: s.Machine.String(),
			InitialThreshold: hs.InitialThreshold, ThresholdSource: hs.ThresholdSource}
		if m := cmp.Or(s.Settings.Metric, measure.Time); m.Unit() == s.Unit {
			out.Metric = string(m)
		}
		out.Settings = s.Distinct
		for j, p := range s.Points {
			pt := Point{Commit: index[p.Head.Commit], Point: p.Point,
				Threshold: hs.Thresholds[j], Verdict: p.Verdict, VerdictThreshold: p.Threshold,
				Base: p.BaseValue, Head: p.HeadValue, Against: p.Base}
			if a := p.AppImpact; a != nil {
				pt.App = &Estimate{Change: a.Estimate, CI: benchstats.Interval{Low: a.Low, High: a.High}, Basis: a.Basis, NoImpact: a.NoImpact, Culprits: p.Culprits}
			}
			out.Points = append(out.Points, pt)
			if p.Impact != nil {
				out.Impact = &Impact{Reference: p.Impact.Flat} // the latest comparison's
			}
		}
		out.Detections = append(out.Detections, hs.Detections...)
		d.Series = append(d.Series, out)
	}
	for _, b := range set.Bridges {
		d.Bridges = append(d.Bridges, Bridge{From: commitOf(b.From), To: commitOf(b.To)})
	}
	d.Application = application(set, index)
	markApplication(d)
	return d, d.Check()
}

// markApplication finds the application benchmark's own series among
// d's (its measurements are one of them: the one series of its name and
// unit), flags it (Series.Application) and sets AppPoint.Detected where
// it has a detection.
func markApplication(d *Data) {
	a := d.Application
	if a == nil || a.Source != history.FromMeasurements {
		return
	}
	var own *Series
	for i, s := range d.Series {
		if s.Name == a.Name && s.Unit == a.Unit {
			if own != nil {
				return // two packages name it: which is unknown
			}
			own = &d.Series[i]
		}
	}
	if own == nil {
		return
	}
	own.Application = true
	at := map[int]int{} // commit → index of the point of a
	for i, p := range a.Points {
		at[p.Commit] = i
	}
	for _, det := range own.Detections {
		i, ok := at[own.Points[det.Index].Commit]
		if !ok {
			continue
		}
		p := &a.Points[i]
		if !p.Detected || det.Definite && !p.Definite {
			p.Detected, p.Definite, p.Kind = true, det.Definite, det.Kind
		}
	}
}

func commitOf(r compare.Revision) Commit {
	return Commit{Hash: r.Commit, Time: r.Time, Subject: r.Subject}
}

// application returns the application's measured series: the
// application benchmark's stored measurements when there are any, else
// the application measured on both versions of the comparisons
// (set.Confirmations, as [history.Confirmation.Application]); only at
// the commits of index (the series' commits), in their order. Name and
// unit are the latest point's; points in another unit are left out. A
// reference profile's total is no measurement: it is not drawn.
func application(set *history.Set, index map[string]int) *Application {
	var kept []history.AppPoint
	for _, p := range set.Application {
		if _, ok := index[p.Head.Commit]; ok && p.Source == history.FromMeasurements {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		for _, c := range set.Confirmations {
			if _, ok := index[c.Head.Commit]; ok {
				kept = append(kept, history.AppPoint{Head: c.Head, Comparison: c.Comparison, Application: c.Application()})
			}
		}
	}
	if len(kept) == 0 {
		return nil
	}
	slices.SortStableFunc(kept, func(a, b history.AppPoint) int { return cmp.Compare(index[a.Head.Commit], index[b.Head.Commit]) })
	last := kept[len(kept)-1]
	a := &Application{Name: last.Name, Unit: last.Unit, Source: last.Source}
	for _, p := range kept {
		if p.Unit == last.Unit {
			a.Points = append(a.Points, AppPoint{Commit: index[p.Head.Commit], Value: p.Value, CI: p.CI})
		}
	}
	return a
}

// commitOrder returns the head commits of set in an order that keeps
// every series' order (Kahn's algorithm over consecutive points; of the
// commits free to come next, the earliest by time, then hash), and each
// commit's index in it.
func commitOrder(set *history.Set) ([]commitNode, map[string]int) {
	nodes := map[string]*commitNode{}
	for _, s := range set.Series {
		var prev *commitNode
		for _, p := range s.Points {
			n := nodes[p.Head.Commit]
			if n == nil {
				n = &commitNode{Commit: p.Head.Commit, Time: p.Head.Time, Subject: p.Head.Subject, next: map[string]bool{}}
				nodes[p.Head.Commit] = n
			}
			if prev != nil && prev != n && !prev.next[n.Commit] {
				prev.next[n.Commit] = true
				n.in++
			}
			prev = n
		}
	}
	var ready commitHeap
	for _, n := range nodes {
		if n.in == 0 {
			ready = append(ready, n)
		}
	}
	heap.Init(&ready)
	var order []commitNode
	index := map[string]int{}
	for ready.Len() > 0 {
		n := heap.Pop(&ready).(*commitNode)
		index[n.Commit] = len(order)
		order = append(order, *n)
		for c := range n.next {
			m := nodes[c]
			if m.in--; m.in == 0 {
				heap.Push(&ready, m)
			}
		}
	}
	// Series that disagree on the order leave a cycle: its commits go last,
	// by time and hash.
	if len(order) < len(nodes) {
		var rest commitHeap
		for _, n := range nodes {
			if _, ok := index[n.Commit]; !ok {
				rest = append(rest, n)
			}
		}
		heap.Init(&rest)
		for rest.Len() > 0 {
			n := heap.Pop(&rest).(*commitNode)
			index[n.Commit] = len(order)
			order = append(order, *n)
		}
	}
	return order, index
}

type commitNode struct {
	Commit, Subject string
	Time            time.Time
	next            map[string]bool
	in              int
}

type commitHeap []*commitNode

func (h commitHeap) Len() int { return len(h) }
func (h commitHeap) Less(i, j int) bool {
	if c := h[i].Time.Compare(h[j].Time); c != 0 {
		return c < 0
	}
	return cmp.Less(h[i].Commit, h[j].Commit)
}
func (h commitHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *commitHeap) Push(x any)   { *h = append(*h, x.(*commitNode)) }
func (h *commitHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}
