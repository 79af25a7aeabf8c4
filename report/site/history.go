package site

import (
	"cmp"
	"container/heap"
	"fmt"
	"time"

	"github.com/mbopt/mbopt/history"
)

// WriteHistory writes the site of a history into dir: [FromHistory] of set
// and what [history.Set.Detect] found in it, then [Write] with opt. title heads the pages, such as the module path (may
// be empty).
func WriteHistory(dir, title string, set *history.Set, detected []history.Detected, opt Options) error {
	d, err := FromHistory(set, detected)
	if err != nil {
		return err
	}
	d.Title = title
	return Write(dir, d, opt)
}

// FromHistory returns the site data of a history: set is what
// [history.Store.Series] returned and detected what [history.Set.Detect]
// found in it (its series in set's order).
// Commits are ordered so that every series keeps its own order; commits
// no series orders are ordered by commit time, then hash. A series'
// settings are the history's names of what sets it apart
// (history.Series.Distinct), its impact the reference impact stored with
// its latest comparison that had one, and its points keep the values
// and the verdict threshold stored with them.
func FromHistory(set *history.Set, detected []history.Detected) (*Data, error) {
	if len(set.Series) != len(detected) {
		return nil, fmt.Errorf("site: %d series in the history but %d detected", len(set.Series), len(detected))
	}
	b := set.Baseline
	d := &Data{Baseline: Commit{Hash: b.Commit, Time: b.Time, Subject: b.Subject}, Series: []Series{}}
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
		out.Settings = s.Distinct
		for j, p := range s.Points {
			out.Points = append(out.Points, Point{Commit: index[p.Head.Commit], Change: p.Change, CI: p.CI,
				Threshold: hs.Thresholds[j], Verdict: p.Verdict, VerdictThreshold: p.Threshold,
				Base: p.BaseValue, Head: p.HeadValue})
			if p.Impact != nil {
				out.Impact = &Impact{Reference: p.Impact.Flat} // the latest comparison's
			}
		}
		out.Detections = append(out.Detections, hs.Detections...)
		d.Series = append(d.Series, out)
	}
	return d, d.Check()
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
