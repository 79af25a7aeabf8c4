package callgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// This file builds a Graph from in-memory profiles: each profile's
// samples added by function name, then the nodes numbered in name order
// with their adjacency lists.

// sampleIndex chooses the sample value that weights the graph and returns
// its index and the factor turning it into the graph's unit.
func sampleIndex(p *profile.Profile, allowNonCPU bool) (idx int, scale float64, unit string, err error) {
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			switch st.Unit {
			case "nanoseconds":
				return i, 1e-9, "seconds", nil
			case "microseconds":
				return i, 1e-6, "seconds", nil
			case "milliseconds":
				return i, 1e-3, "seconds", nil
			case "seconds":
				return i, 1, "seconds", nil
			}
		}
	}
	if !allowNonCPU {
		var types []string
		for _, st := range p.SampleType {
			types = append(types, st.Type+"/"+st.Unit)
		}
		return 0, 0, "", fmt.Errorf("%w: its sample types are [%s]; collect one with 'go test -cpuprofile' or /debug/pprof/profile", ErrNotCPU, strings.Join(types, " "))
	}
	if len(p.SampleType) == 0 {
		return 0, 0, "", fmt.Errorf("%w: the profile declares no sample type", ErrNotCPU)
	}
	idx = len(p.SampleType) - 1
	if p.DefaultSampleType != "" {
		for i, st := range p.SampleType {
			if st.Type == p.DefaultSampleType {
				idx = i
			}
		}
	}
	return idx, 1, p.SampleType[idx].Unit, nil
}

// countIndex returns the index of the last samples/count sample type, -1
// for none: the count of times the profiler sampled (Graph.SamplesTaken).
func countIndex(types []*profile.ValueType) int {
	idx := -1
	for i, st := range types {
		if st.Type == "samples" && st.Unit == "count" {
			idx = i
		}
	}
	return idx
}

// builder accumulates nodes and edges by name across profiles.
type builder struct {
	opts    Options
	exclude excluder
	ids     map[string]int32
	nodes   []Node
	// edges holds caller<<32 | callee for every edge, by builder ids.
	edges map[uint64]struct{}
	// leafCallers holds leaf<<32 | caller → the value of the samples
	// with that leaf frame and the caller right above it (Graph.FlatCallers).
	leafCallers map[uint64]float64
	// leafOwners holds leaf<<32 | owner → the value of the samples with
	// that external leaf frame and that innermost project frame
	// (Graph.FlatOwners).
	leafOwners   map[uint64]float64
	total        float64
	unattributed float64
	outside      float64
	unnamed      int
	unit         string
	count        int
	taken        int64
	duration     float64
	// per-sample scratch for counting Cum once per sample
	seen  []int32
	stamp int32
	// last[i] is the callee of node i whose edge was recorded last, -1
	// for none: most frames repeat it, and skip the edges map.
	last []int32
	// kinds[i] records the kinds of frame node i was seen as:
	// physicalFrame, inlinedFrame or both.
	kinds []uint8
}

// Frame kinds of builder.kinds.
const (
	physicalFrame uint8 = 1 << iota
	inlinedFrame
)

func newBuilder(opts Options) (*builder, error) {
	ex, err := newExcluder(opts.Exclude)
	if err != nil {
		return nil, err
	}
	return &builder{opts: opts, exclude: ex, edges: make(map[uint64]struct{}), leafCallers: make(map[uint64]float64), leafOwners: make(map[uint64]float64)}, nil
}

func (b *builder) node(name string) int32 {
	if id, ok := b.ids[name]; ok {
		return id
	}
	id := int32(len(b.nodes))
	b.ids[name] = id
	pkg := PackageOf(name)
	proj := false
	for _, m := range b.opts.Modules {
		if IsBelow(pkg, m) {
			proj = !b.exclude.match(pkg)
			break
		}
	}
	b.nodes = append(b.nodes, Node{Name: name, Package: pkg, Project: proj})
	b.seen = append(b.seen, 0)
	b.last = append(b.last, -1)
	b.kinds = append(b.kinds, 0)
	return id
}

// add adds the samples of p. validated says that p passed
// profile.CheckValid already (profile.ParseData checks every profile it
// returns), which add otherwise runs first.
func (b *builder) add(p *profile.Profile, validated bool) error {
	if p == nil {
		return fmt.Errorf("%w: the profile is nil", ErrInvalid)
	}
	if !validated {
		if err := p.CheckValid(); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	}
	idx, scale, unit, err := sampleIndex(p, b.opts.AllowNonCPU)
	if err != nil {
		return err
	}
	if b.unit != "" && b.unit != unit {
		return fmt.Errorf("profiles of different units cannot be merged (%s and %s)", b.unit, unit)
	}
	b.unit = unit
	if p.DurationNanos > 0 {
		b.duration += float64(p.DurationNanos) * 1e-9
	}
	countIdx := countIndex(p.SampleType)
	if len(p.Sample) == 0 {
		if !b.opts.AllowEmpty {
			return fmt.Errorf("%w; was the benchmark or workload too short to be sampled, or did it fail?", ErrEmpty)
		}
		return nil
	}

	if b.ids == nil {
		b.ids = make(map[string]int32, len(p.Function))
		b.nodes = make([]Node, 0, len(p.Function))
		b.seen = make([]int32, 0, len(p.Function))
		b.last = make([]int32, 0, len(p.Function))
		b.kinds = make([]uint8, 0, len(p.Function))
	}
	r := newFrameResolver(b, p)
	sum, err := b.addSamples(p, r, idx, countIdx, scale)
	if err != nil {
		return err
	}
	return sum.check(p, idx, r.usedLocations, b.opts.AllowEmpty)
}

// A frameResolver maps each function and location of one profile to the
// builder's node ids once, on its first use by a sample, so the
// per-sample loop never touches names and a function no sample uses gets
// no node. Profiles number functions and locations 1..n, so ids index
// slices; other numberings fall back to maps.
type frameResolver struct {
	b    *builder
	p    *profile.Profile
	fidx idMap
	// fnode[fidx.get(id)] is 0 for a function not seen yet, 1 for one
	// without a name, else its node id + 2.
	fnode []int32
	lidx  idMap
	// lframes[k] holds the named frames of location p.Location[k-1], all
	// in one backing slice, frames, once resolved[k]; leafNamed[k]
	// reports whether its leaf frame has a name.
	lframes   [][]int32
	resolved  []bool
	leafNamed []bool
	frames    []int32
	// usedLocations counts the locations resolved so far.
	usedLocations int
}

// newFrameResolver returns the resolver of p's frames to b's nodes, with
// no location resolved yet.
func newFrameResolver(b *builder, p *profile.Profile) *frameResolver {
	nlines := 0
	for _, l := range p.Location {
		nlines += len(l.Line)
	}
	return &frameResolver{
		b:         b,
		p:         p,
		fidx:      indexIDs(p.Function, func(f *profile.Function) uint64 { return f.ID }),
		fnode:     make([]int32, len(p.Function)+1),
		lidx:      indexIDs(p.Location, func(l *profile.Location) uint64 { return l.ID }),
		lframes:   make([][]int32, len(p.Location)+1),
		resolved:  make([]bool, len(p.Location)+1),
		leafNamed: make([]bool, len(p.Location)+1),
		frames:    make([]int32, 0, nlines),
	}
}

// resolve resolves location p.Location[k-1]: its named frames, leaf
// first, become lframes[k], their functions get nodes (with the file and
// line of their first appearance) and frame kinds, and its unnamed frames
// are counted in the builder's unnamed.
func (r *frameResolver) resolve(k int32) {
	b, p := r.b, r.p
	l := p.Location[k-1]
	start := len(r.frames)
	// Line[0] is the innermost inlined frame, the last one the
	// physical function: leaf-to-root order, like Sample.Location.
	for j, ln := range l.Line {
		fk := r.fidx.get(ln.Function.ID)
		if r.fnode[fk] == 0 {
			r.fnode[fk] = 1
			name := ln.Function.Name
			if name == "" {
				name = ln.Function.SystemName
			}
			if name != "" {
				id := b.node(NormalizeName(name))
				r.fnode[fk] = id + 2
				if n := &b.nodes[id]; n.File == "" && n.Line == 0 {
					n.File, n.Line = ln.Function.Filename, int(ln.Function.StartLine)
				}
			}
		}
		if r.fnode[fk] == 1 {
			b.unnamed++
			continue
		}
		if j == len(l.Line)-1 {
			b.kinds[r.fnode[fk]-2] |= physicalFrame
		} else {
			b.kinds[r.fnode[fk]-2] |= inlinedFrame
		}
		r.frames = append(r.frames, r.fnode[fk]-2)
		if j == 0 {
			r.leafNamed[k] = true
		}
	}
	if len(l.Line) == 0 {
		b.unnamed++
	}
	r.lframes[k] = r.frames[start:len(r.frames):len(r.frames)]
	r.resolved[k] = true
	r.usedLocations++
}

// A sampleSummary is what add checks about a profile's samples once they
// are added.
type sampleSummary struct {
	stacked bool              // some sample has a location
	named   bool              // some sample has a named frame
	nonZero bool              // some sample has a value other than zero
	first   *profile.Location // the leaf location of the first sample with one
}

// addSamples adds the samples of p, each weighing its value idx times
// scale, with the frames r resolves; countIdx is the index of the
// samples/count value, -1 for none (see countIndex). It fails at the first
// sample with too few values, a negative value or a location that is not
// in p's Location table.
func (b *builder) addSamples(p *profile.Profile, r *frameResolver, idx, countIdx int, scale float64) (sampleSummary, error) {
	var (
		sum   sampleSummary
		stack []int32
	)
	for si, s := range p.Sample {
		if idx >= len(s.Value) {
			return sum, fmt.Errorf("%w: sample %d has %d values, want at least %d", ErrInvalid, si+1, len(s.Value), idx+1)
		}
		raw := s.Value[idx]
		if raw < 0 {
			st := p.SampleType[idx]
			return sum, fmt.Errorf("%w: sample %d has %d %s/%s; is the profile the difference of two profiles (go tool pprof -diff_base)? use the profile of one run",
				ErrNegative, si+1, raw, st.Type, st.Unit)
		}
		sum.nonZero = sum.nonZero || raw != 0
		if countIdx >= 0 && countIdx < len(s.Value) && s.Value[countIdx] > 0 {
			b.taken += s.Value[countIdx]
		} else if countIdx < 0 {
			b.taken++
		}
		v := float64(raw) * scale
		stack = stack[:0]
		leaf := false
		for j, l := range s.Location {
			k := r.lidx.get(l.ID)
			if k == 0 || p.Location[k-1] != l {
				return sum, fmt.Errorf("%w: sample %d refers to location %d, which is not in the profile's Location table", ErrInvalid, si+1, l.ID)
			}
			if !r.resolved[k] {
				r.resolve(k)
			}
			if j == 0 {
				leaf = r.leafNamed[k]
				if sum.first == nil {
					sum.first = l
				}
			}
			stack = append(stack, r.lframes[k]...)
		}
		sum.stacked = sum.stacked || len(s.Location) > 0
		sum.named = sum.named || len(stack) > 0
		b.addStack(stack, v, leaf)
	}
	return sum, nil
}

// addStack adds one sample of value v whose named frames are stack, leaf
// first; leaf says that the sample's leaf frame is named, and so
// stack[0]. It adds v to the totals, to the attributed time of the
// innermost project frame (else to the time outside the project), to the
// leaf's flat value and to every frame's cumulative value once, and records
// the stack's edges.
func (b *builder) addStack(stack []int32, v float64, leaf bool) {
	b.count++
	b.total += v
	if !leaf {
		b.unattributed += v
	}
	// The innermost project frame is charged with the whole sample;
	// stack is leaf first, so it is the first project frame found.
	owner := int32(-1)
	for _, id := range stack {
		if b.nodes[id].Project {
			owner = id
			break
		}
	}
	if owner >= 0 {
		b.nodes[owner].Attributed += v
	} else {
		b.outside += v
	}
	if len(stack) == 0 {
		return
	}
	if leaf {
		b.nodes[stack[0]].Flat += v
		if len(stack) > 1 && stack[1] != stack[0] && !b.opts.NoEdges {
			b.leafCallers[uint64(stack[0])<<32|uint64(stack[1])] += v
		}
		if owner >= 0 && !b.nodes[stack[0]].Project && !b.opts.NoEdges {
			b.leafOwners[uint64(stack[0])<<32|uint64(owner)] += v
		}
	}
	b.stamp++
	for i, id := range stack {
		if b.seen[id] != b.stamp {
			b.seen[id] = b.stamp
			b.nodes[id].Cum += v
		}
		if i > 0 && !b.opts.NoEdges && stack[i] != stack[i-1] && b.last[id] != stack[i-1] {
			b.last[id] = stack[i-1]
			b.edges[uint64(id)<<32|uint64(stack[i-1])] = struct{}{}
		}
	}
}

// check returns the error of a profile whose samples, summed up in sum,
// give no graph: none has a stack, none a named frame, or, unless
// allowEmpty, all weigh zero. idx is the index of the value that weighs
// them, usedLocations the number of locations they use.
func (sum sampleSummary) check(p *profile.Profile, idx, usedLocations int, allowEmpty bool) error {
	switch {
	case !sum.stacked:
		return fmt.Errorf("%w: none of its %d samples has a stack, so no function can be put in a graph; collect a CPU profile with runtime/pprof, 'go test -cpuprofile' or /debug/pprof/profile",
			ErrNoLocations, len(p.Sample))
	case !sum.named:
		where := fmt.Sprintf("0x%x", sum.first.Address)
		if sum.first.Mapping != nil && sum.first.Mapping.File != "" {
			where += " in " + sum.first.Mapping.File
		}
		return fmt.Errorf("%w: its %d sampled locations (the first at %s) have no function name; write the profile with runtime/pprof, net/http/pprof or 'go test -cpuprofile', which symbolize it, or symbolize it with 'go tool pprof -proto -symbolize=local BINARY PROFILE > symbolized.pprof', BINARY being the profiled program with its symbols",
			ErrUnsymbolized, usedLocations, where)
	case !sum.nonZero && !allowEmpty:
		st := p.SampleType[idx]
		return fmt.Errorf("%w: its %d samples add up to 0 %s/%s; collect it again from a run that does some work",
			ErrZero, len(p.Sample), st.Type, st.Unit)
	}
	return nil
}

// finish sorts nodes by name, renumbers and builds adjacency lists.
func (b *builder) finish() *Graph {
	n := len(b.nodes)
	type named struct {
		name string
		id   int32
	}
	byName := make([]named, n)
	for i := range byName {
		byName[i] = named{b.nodes[i].Name, int32(i)}
	}
	// Names are unique, so the order is total.
	slices.SortFunc(byName, func(x, y named) int { return strings.Compare(x.name, y.name) })
	newID := make([]int32, n)
	g := &Graph{
		Nodes:          make([]Node, n),
		Out:            make([][]int32, n),
		In:             make([][]int32, n),
		Total:          b.total,
		Unattributed:   b.unattributed,
		OutsideProject: b.outside,
		UnnamedFrames:  b.unnamed,
		Unit:           b.unit,
		Samples:        b.count,
		SamplesTaken:   b.taken,
		Duration:       b.duration,
	}
	if g.Unit == "" {
		g.Unit = "seconds"
	}
	for to, nm := range byName {
		from := nm.id
		newID[from] = int32(to)
		g.Nodes[to] = b.nodes[from]
		g.Nodes[to].Inlined = b.kinds[from] == inlinedFrame
	}
	// Renumber the edges and sort them by (from, to): Out lists come out
	// sorted, and so do In lists filled in that order. Lists share two
	// backing arrays; nodes without edges keep nil lists.
	edges := make([]uint64, 0, len(b.edges))
	outDeg := make([]int32, n)
	inDeg := make([]int32, n)
	for e := range b.edges {
		from, to := newID[e>>32], newID[uint32(e)]
		edges = append(edges, uint64(from)<<32|uint64(to))
		outDeg[from]++
		inDeg[to]++
	}
	slices.Sort(edges)
	outs := make([]int32, len(edges))
	ins := make([]int32, len(edges))
	var o, in int32
	for i := range n {
		if d := outDeg[i]; d > 0 {
			g.Out[i] = outs[o : o : o+d]
			o += d
		}
		if d := inDeg[i]; d > 0 {
			g.In[i] = ins[in : in : in+d]
			in += d
		}
	}
	for _, e := range edges {
		from, to := int32(e>>32), int32(uint32(e))
		g.Out[from] = append(g.Out[from], to)
		g.In[to] = append(g.In[to], from)
	}
	g.FlatCallers = b.byName(b.leafCallers)
	g.FlatOwners = b.byName(b.leafOwners)
	return g
}

// byName returns the values of pairs, keyed leaf<<32 | other by builder
// ids, as m[leaf][other] by name; nil for no pairs.
func (b *builder) byName(pairs map[uint64]float64) map[string]map[string]float64 {
	if len(pairs) == 0 {
		return nil
	}
	m := make(map[string]map[string]float64)
	for e, v := range pairs {
		leaf, other := b.nodes[e>>32].Name, b.nodes[uint32(e)].Name
		if m[leaf] == nil {
			m[leaf] = make(map[string]float64)
		}
		m[leaf][other] += v
	}
	return m
}

// idMap maps the ids of a profile's functions or locations to int32s: a
// slice when the ids are 1..n (as Go writes them), else a map.
type idMap struct {
	dense []int32
	m     map[uint64]int32
}

// indexIDs returns the idMap from the id of each of items (id gives it)
// to the item's position + 1.
func indexIDs[T any](items []T, id func(T) uint64) idMap {
	dense := true
	for _, it := range items {
		if i := id(it); i == 0 || i > uint64(len(items)) {
			dense = false
			break
		}
	}
	var m idMap
	if dense {
		m.dense = make([]int32, len(items)+1)
	} else {
		m.m = make(map[uint64]int32, len(items))
	}
	for i, it := range items {
		m.set(id(it), int32(i+1))
	}
	return m
}

func (m idMap) set(id uint64, v int32) {
	if m.m != nil {
		m.m[id] = v
		return
	}
	m.dense[id] = v
}

// get returns the value of id, 0 if id was never set (as a map would).
func (m idMap) get(id uint64) int32 {
	if m.m != nil {
		return m.m[id]
	}
	if id < uint64(len(m.dense)) {
		return m.dense[id]
	}
	return 0
}
