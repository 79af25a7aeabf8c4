package recommend

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/internal/lazy"
)

// Options configures [Additional]. The zero value is the paper's
// Algorithm 3 without a limit.
type Options struct {
	// N is the largest number of recommendations; 0 or less means no
	// limit (recommend until every project node is covered).
	N int
	// Targets chooses the candidates: [AnyFunction] (the paper's) or
	// [Callable].
	Targets Targets
	// Details fills each recommendation's Exported, Callers and Hottest
	// fields (see "What a developer needs" in the package documentation).
	Details bool
	// NotTarget, when not nil, leaves the functions of every package for
	// which it reports true out of the [Callable] candidates (they still
	// count when a candidate reaches them); it is ignored with
	// [AnyFunction]. package analysis sets it to leave out the commands
	// under a module's cmd/ directories.
	NotTarget func(pkg string) bool
	// Thin lists the benchmarks whose profiles took too few samples to
	// trust (see "Thin profiles" in the package documentation): with
	// [Callable] targets the nodes they may have run unseen ([Unseen])
	// are neither candidates nor counted in a gain; with [AnyFunction]
	// the recommendations only name them ([Recommendation.Unseen]).
	Thin []Thin
	// Lines, when not nil, holds each application node's declaration
	// size in lines from the source, 0 where unknown (then the profile's
	// bound is used; see "Negligible candidates").
	Lines []int
	// KeepNegligible keeps negligible candidates in Algorithm 3's order
	// with [Callable] targets, as [AnyFunction] always does: they are
	// then only marked ([Recommendation.Negligible]).
	KeepNegligible bool
}

// Details bounds: a recommendation lists at most this many callers and
// hottest functions.
const (
	MaxCallers = 3
	MaxHottest = 3
)

// Recommendation is one recommended function and what a benchmark of it
// would add.
type Recommendation struct {
	// Function is the recommended function's name, Package its package.
	Function, Package string
	// Node is the function's id in the application graph, -1 when only
	// its closures were sampled (with [Callable] targets).
	Node int
	// Closures lists the ids of the closures folded into the function, in
	// increasing order (with [Callable] targets; always nil with
	// [AnyFunction]). A benchmark reaches them by calling what the
	// function returns or starts.
	Closures []int
	// Distance is the shortest call distance from a root, -1 if none.
	Distance int
	// AddedProject and AddedExternal count the newly covered project and
	// external application nodes.
	AddedProject, AddedExternal int
	// AddedNodes lists those nodes' ids in increasing order.
	AddedNodes []int
	// ImpactSeconds is the application flat time of AddedNodes;
	// ImpactShare the same as a share of the application's total.
	ImpactSeconds, ImpactShare float64
	// CumulativeProject and CumulativeOverall are the coverage of the
	// starting set plus this and all earlier recommendations.
	CumulativeProject, CumulativeOverall coverage.Ratio

	// The fields below are set only with [Options.Details].

	// File is the file of the function's declaration as the profile
	// records it (callgraph.Node.File); when the function itself was not
	// sampled, its first closure's. "" when unknown.
	File string
	// Line is the declaration's line (callgraph.Node.Line), or the first
	// closure's, which lies inside the function; 0 when unknown.
	Line int
	// Exported reports that a benchmark in an external test package
	// (package x_test) can call the function: its name and, for a method,
	// its receiver type are exported. Otherwise the benchmark belongs in
	// an internal test (package x).
	Exported bool
	// Callers holds the ids of the application's direct callers of the
	// function and its closures (the closures themselves left out), at
	// most [MaxCallers], by cumulative time (largest first), then name:
	// how the application uses the function, a hint for realistic inputs.
	Callers []int
	// Hottest holds the ids of the project nodes among AddedNodes other
	// than the function and its closures, at most [MaxHottest], by flat
	// time (largest first), then name: the hottest code beneath the
	// function that its benchmark would newly cover.
	Hottest []int

	// Negligible, when not nil, says why the candidate is negligible
	// (see "Negligible candidates" in the package documentation), with
	// either target set.
	Negligible *Negligible
	// Unseen names the thin benchmarks ([Options.Thin], in that order)
	// that may have run one of the function's nodes unseen; only with
	// [AnyFunction], since with [Callable] such nodes are no candidates.
	Unseen []string
}

// Result lists the recommendations in pick order (the dissertation's
// Figure 6.7 curve is their cumulative coverage).
type Result struct {
	// Recommendations are the picks in order.
	Recommendations []Recommendation
	// Covered holds the starting coverage plus all recommended additions.
	Covered bitset.Set
	// Withheld lists the project nodes no benchmark covers that a thin
	// benchmark may have run unseen, in increasing order: with [Callable]
	// targets they were neither recommended nor counted in a gain; nil
	// with [AnyFunction].
	Withheld []int
	// NegligibleLast reports that negligible candidates were ranked after
	// all others ([Callable] targets without [Options.KeepNegligible]).
	NegligibleLast bool
	// Shortfall, when fewer recommendations came out than Options.N
	// asked for, says why; nil otherwise (and with no limit).
	Shortfall *Shortfall
}

// group is a candidate: a target function and the nodes that count for it.
type group struct {
	name string
	// node is the target's id, -1 if it was not sampled.
	node int
	// members are the target's node (if any) and its closures' nodes,
	// increasing; roots their components, without repeats.
	members []int
	roots   []int32
	// first is the node File and Line are taken from.
	first int
	fn    funcName
}

// groups returns the candidates for targets: for [AnyFunction] every
// uncovered project node alone, in id order; for [Callable] the callable
// functions with their closures, in name order, keeping only groups with an
// uncovered project node. A nil cond leaves the groups' roots empty.
func groups(g *callgraph.Graph, cond *callgraph.Condensation, covered bitset.Set, targets Targets, notTarget func(string) bool) []group {
	var out []group
	addRoots := func(gr *group) {
		if cond == nil {
			return
		}
		for _, v := range gr.members {
			c := cond.Comp[v]
			if !slices.Contains(gr.roots, c) {
				gr.roots = append(gr.roots, c)
			}
		}
	}
	if targets != Callable {
		for v, n := range g.Nodes {
			if n.Project && !covered.Has(v) {
				gr := group{name: n.Name, node: v, members: []int{v}, first: v}
				addRoots(&gr)
				out = append(out, gr)
			}
		}
		return out
	}
	byName := map[string]int{}
	for v, n := range g.Nodes {
		if !n.Project {
			continue
		}
		fn, ok := parseFunc(n.Name)
		if !ok || !fn.callable() || !fn.closure && n.File == "<autogenerated>" || notTarget != nil && notTarget(n.Package) {
			continue
		}
		i, seen := byName[fn.named]
		if !seen {
			i = len(out)
			byName[fn.named] = i
			out = append(out, group{name: fn.named, node: -1, first: -1, fn: fn})
		}
		gr := &out[i]
		gr.members = append(gr.members, v) // ids increase
		if !fn.closure {
			gr.node = v
		}
	}
	kept := out[:0]
	for _, gr := range out {
		open := false
		for _, v := range gr.members {
			open = open || !covered.Has(v)
		}
		if !open {
			continue
		}
		gr.first = gr.members[0]
		if gr.node >= 0 {
			gr.first = gr.node
		}
		addRoots(&gr)
		kept = append(kept, gr)
	}
	slices.SortFunc(kept, func(a, b group) int { return strings.Compare(a.name, b.name) })
	return kept
}

// Additional runs Algorithm 3 on the application graph of cov, starting
// from the nodes in covered (usually cov.Covered, the whole suite's
// coverage, or an optimize.Result's Covered), with the candidates
// opts.Targets chooses. covered is not modified.
func Additional(cov *coverage.Result, covered bitset.Set, opts Options) *Result {
	g := cov.App
	done := covered.Clone()
	rules := opts.Targets == Callable
	res := &Result{Covered: done, NegligibleLast: rules && !opts.KeepNegligible}

	closed, thinReach := closeThin(g, covered, opts.Thin, rules, res)
	universe, nproj := openUniverse(g, closed)
	if nproj == 0 {
		res.Shortfall = shortfall(g, done, opts.N, res)
		return res
	}

	cond := g.Condense()
	gains := cond.ReachCounts(universe[:nproj])
	dist := g.RootDistance()
	r := newReach(g, cond, universe)
	cands := groups(g, cond, closed, opts.Targets, opts.NotTarget)
	lines, from := declLines(g, opts.Lines)

	// The first keys: as gains the exact gain of a group of one node and
	// the sum of its components' gains for a larger group, and as
	// external nodes every uncovered one: upper bounds. So they start
	// stale, and a candidate's exact key is computed when it first reaches
	// the top: only candidates that tie on gain and distance with the
	// first pick need a search.
	keys := make([]candidate, 0, len(cands))
	for i, gr := range cands {
		k := candidate{group: i, dist: -1, name: gr.name, ext: len(universe) - nproj}
		for _, ci := range gr.roots {
			k.gain += gains[ci]
		}
		k.gain = min(k.gain, nproj)
		k.negligible = res.NegligibleLast && negligible(cov, covered, &gr, lines, from) != nil
		for _, v := range gr.members {
			if d := dist[v]; d >= 0 && (k.dist < 0 || d < k.dist) {
				k.dist = d
			}
		}
		keys = append(keys, k)
	}
	q := lazy.New(keys, better)
	q.MarkStale()
	for opts.N <= 0 || len(res.Recommendations) < opts.N {
		_, ok := q.Top(func(c *candidate) bool {
			c.gain, c.ext = r.count(cands[c.group].roots)
			return c.gain > 0
		})
		if !ok {
			break
		}
		c := q.Take()
		gr := &cands[c.group]
		nodes := r.take(gr.roots)
		slices.Sort(nodes)
		for _, v := range nodes {
			done.Add(v)
		}
		rec := recommendation(cov, gr, c, nodes, done, opts)
		rec.Negligible = negligible(cov, covered, gr, lines, from)
		if !rules {
			for i, t := range opts.Thin {
				for _, v := range gr.members {
					if thinReach[i].Has(v) {
						rec.Unseen = append(rec.Unseen, t.ID)
						break
					}
				}
			}
		}
		res.Recommendations = append(res.Recommendations, rec)
	}
	res.Shortfall = shortfall(g, done, opts.N, res)
	return res
}

// closeThin returns the nodes closed to recommendations and, per thin
// benchmark of thin, the nodes it may have run unseen (see [Unseen]). The
// closed nodes are covered, and with the rules on also those the thin
// benchmarks may have run unseen (not counted as covered: the project
// ones are listed in res.Withheld).
func closeThin(g *callgraph.Graph, covered bitset.Set, thin []Thin, rules bool, res *Result) (closed bitset.Set, thinReach []bitset.Set) {
	// What the thin benchmarks may have run unseen: with the rules on,
	// closed like covered nodes (but not counted as covered).
	closed = covered
	if rules && len(thin) > 0 {
		closed = covered.Clone()
	}
	thinReach = make([]bitset.Set, len(thin))
	for i, t := range thin {
		thinReach[i] = bitset.New(g.Len())
		for _, v := range Unseen(g, covered, t.Covered) {
			thinReach[i].Add(v)
			if rules {
				closed.Add(v)
			}
		}
	}
	if rules && len(thin) > 0 {
		for v, n := range g.Nodes {
			if n.Project && closed.Has(v) && !covered.Has(v) {
				res.Withheld = append(res.Withheld, v)
			}
		}
	}
	return closed, thinReach
}

// openUniverse returns the universe of Algorithm 3, the nodes of g that
// are not closed: the open project nodes first, in id order, then the
// open external nodes; nproj counts the project nodes.
func openUniverse(g *callgraph.Graph, closed bitset.Set) (universe []int, nproj int) {
	for i, n := range g.Nodes {
		if n.Project && !closed.Has(i) {
			universe = append(universe, i)
		}
	}
	nproj = len(universe)
	if nproj == 0 {
		return universe, 0
	}
	for i, n := range g.Nodes {
		if !n.Project && !closed.Has(i) {
			universe = append(universe, i)
		}
	}
	return universe, nproj
}

// recommendation returns the recommendation of candidate c, the group
// gr, whose pick newly covers nodes (sorted); done holds the nodes covered
// after the pick. Its details are filled in with opts.Details, its
// closures with callable targets; its negligibility and the thin
// benchmarks that may have run it unseen are left to the caller.
func recommendation(cov *coverage.Result, gr *group, c candidate, nodes []int, done bitset.Set, opts Options) Recommendation {
	g := cov.App
	rec := Recommendation{
		Function:      gr.name,
		Package:       g.Nodes[gr.members[0]].Package,
		Node:          gr.node,
		Distance:      c.dist,
		AddedProject:  c.gain,
		AddedExternal: c.ext,
		AddedNodes:    nodes,
	}
	if opts.Targets == Callable {
		for _, v := range gr.members {
			if v != gr.node {
				rec.Closures = append(rec.Closures, v)
			}
		}
	}
	for _, v := range nodes {
		rec.ImpactSeconds += g.Nodes[v].Flat
	}
	rec.ImpactShare = cov.Share(rec.ImpactSeconds)
	rec.CumulativeProject, rec.CumulativeOverall = cov.Ratios(done)
	if opts.Details {
		describe(g, gr, &rec)
	}
	return rec
}

// describe fills rec's detail fields for the candidate gr.
func describe(g *callgraph.Graph, gr *group, rec *Recommendation) {
	first := g.Nodes[gr.first]
	rec.File, rec.Line = first.File, first.Line
	fn := gr.fn
	if fn.named == "" {
		fn, _ = parseFunc(gr.name)
	}
	rec.Exported = fn.exported()
	member := func(v int) bool { _, ok := slices.BinarySearch(gr.members, v); return ok }
	var callers []int
	for _, v := range gr.members {
		if v >= len(g.In) {
			continue // a hand-built graph without In lists
		}
		for _, u := range g.In[v] {
			if !member(int(u)) && !slices.Contains(callers, int(u)) {
				callers = append(callers, int(u))
			}
		}
	}
	rec.Callers = topBy(g, callers, func(n *callgraph.Node) float64 { return n.Cum }, MaxCallers)
	var hot []int
	for _, v := range rec.AddedNodes {
		if g.Nodes[v].Project && !member(v) {
			hot = append(hot, v)
		}
	}
	rec.Hottest = topBy(g, hot, func(n *callgraph.Node) float64 { return n.Flat }, MaxHottest)
}

// topBy returns at most n of ids, by value (largest first), then name.
func topBy(g *callgraph.Graph, ids []int, value func(*callgraph.Node) float64, n int) []int {
	slices.SortFunc(ids, func(a, b int) int {
		return cmp.Or(cmp.Compare(value(&g.Nodes[b]), value(&g.Nodes[a])), strings.Compare(g.Nodes[a].Name, g.Nodes[b].Name))
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	return ids
}

// reach answers, for a component of the condensed application graph, how
// many open nodes (in the universe and not yet taken by a recommendation)
// it reaches, by a search of the DAG that never enters a dead component:
// one whose reach holds no open node. Nodes only close, so a component
// stays dead once it is; every component a recommendation reaches dies
// with it. Memory is O(V), whatever the universe.
type reach struct {
	cond *callgraph.Condensation
	// open[v] reports that node v is in the universe and not taken;
	// openProject[ci] and openExternal[ci] count component ci's open
	// members by kind.
	open                      []bool
	openProject, openExternal []int32
	dead                      []bool
	// seen[ci] == round marks the components visited by the current
	// search.
	seen  []uint32
	round uint32
	stack []frame
}

// frame is a component on the search stack: the index of its next
// out-edge, and whether an open node was found at or below it.
type frame struct {
	comp  int32
	edge  int
	alive bool
}

func newReach(g *callgraph.Graph, cond *callgraph.Condensation, universe []int) *reach {
	nc := len(cond.Members)
	r := &reach{
		cond:         cond,
		open:         make([]bool, g.Len()),
		openProject:  make([]int32, nc),
		openExternal: make([]int32, nc),
		dead:         make([]bool, nc),
		seen:         make([]uint32, nc),
	}
	for _, v := range universe {
		r.open[v] = true
		if g.Nodes[v].Project {
			r.openProject[cond.Comp[v]]++
		} else {
			r.openExternal[cond.Comp[v]]++
		}
	}
	return r
}

// walk visits every component reachable from roots that is not dead, each
// once, calling visit(ci) on entry; components found to reach no open node
// are marked dead on the way out.
func (r *reach) walk(roots []int32, visit func(ci int32)) {
	r.round++
	for _, root := range roots {
		if r.dead[root] || r.seen[root] == r.round {
			continue
		}
		r.seen[root] = r.round
		visit(root)
		r.stack = append(r.stack[:0], frame{comp: root, alive: r.openProject[root]+r.openExternal[root] > 0})
		for len(r.stack) > 0 {
			f := &r.stack[len(r.stack)-1]
			if out := r.cond.Out[f.comp]; f.edge < len(out) {
				cw := out[f.edge]
				f.edge++
				switch {
				case r.dead[cw]:
				case r.seen[cw] == r.round:
					// Finished already (the condensation is acyclic)
					// and not dead: it reaches an open node.
					f.alive = true
				default:
					r.seen[cw] = r.round
					visit(cw)
					r.stack = append(r.stack, frame{comp: cw, alive: r.openProject[cw]+r.openExternal[cw] > 0})
				}
				continue
			}
			done := *f
			r.stack = r.stack[:len(r.stack)-1]
			if !done.alive {
				r.dead[done.comp] = true
			} else if len(r.stack) > 0 {
				r.stack[len(r.stack)-1].alive = true
			}
		}
	}
}

// count returns the open project and external nodes reachable from
// the components roots.
func (r *reach) count(roots []int32) (project, external int) {
	r.walk(roots, func(ci int32) {
		project += int(r.openProject[ci])
		external += int(r.openExternal[ci])
	})
	return project, external
}

// take closes the open nodes reachable from the components roots and
// returns them (in no particular order). Every component it reaches is dead
// afterwards.
func (r *reach) take(roots []int32) []int {
	var nodes []int
	r.walk(roots, func(ci int32) {
		if r.openProject[ci]+r.openExternal[ci] > 0 {
			for _, v := range r.cond.Members[ci] {
				if r.open[v] {
					r.open[v] = false
					nodes = append(nodes, int(v))
				}
			}
			r.openProject[ci], r.openExternal[ci] = 0, 0
		}
		r.dead[ci] = true
	})
	return nodes
}

type candidate struct {
	group int // index into the groups
	// negligible ranks the candidate after every other (only when
	// Result.NegligibleLast).
	negligible bool
	gain       int
	dist       int
	ext        int
	name       string
}

// better orders non-negligible candidates first, then by more project
// nodes added, shorter root distance (-1 last), more external nodes added,
// smaller name.
func better(a, b *candidate) bool {
	if a.negligible != b.negligible {
		return b.negligible
	}
	if a.gain != b.gain {
		return a.gain > b.gain
	}
	if a.dist != b.dist {
		if a.dist < 0 || b.dist < 0 {
			return b.dist < 0
		}
		return a.dist < b.dist
	}
	if a.ext != b.ext {
		return a.ext > b.ext
	}
	return a.name < b.name
}
