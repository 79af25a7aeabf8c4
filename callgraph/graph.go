package callgraph

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Options configures how profiles become graphs. The zero value is valid:
// no module prefixes (every node external), CPU profiles with samples only.
type Options struct {
	// Modules are the module (or package) path prefixes whose packages are
	// project code. Matching is on path boundaries; see [IsBelow].
	Modules []string

	// AllowNonCPU accepts profiles without a CPU sample type. The graph is
	// then weighted by the profile's default sample type, and [Graph.Unit]
	// names that type's unit instead of "seconds".
	AllowNonCPU bool

	// AllowEmpty accepts profiles with no samples, giving an empty graph.
	AllowEmpty bool

	// NoEdges skips the edges: Out and In stay empty. Coverage needs only
	// a benchmark graph's nodes, so benchmark graphs are built this way.
	NoEdges bool
}

// Node is one function of a [Graph].
type Node struct {
	// Name is the normalised function name (see [NormalizeName]).
	Name string
	// Package is the function's import path, "" when it has none.
	Package string
	// Project reports whether Package lies in one of [Options.Modules].
	Project bool
	// Flat is the value of the samples whose leaf frame is this function,
	// in [Graph.Unit] (seconds for CPU profiles).
	Flat float64
	// Cum is the value of the samples with this function anywhere on the
	// stack, each sample counted once.
	Cum float64
}

// Graph is a call graph built from one or more profiles.
type Graph struct {
	// Nodes are sorted by Name; a node's id is its index.
	Nodes []Node
	// Out[i] holds the ids of the callees of node i, sorted ascending.
	Out [][]int32
	// In[i] holds the ids of the callers of node i, sorted ascending.
	In [][]int32
	// Total is the value of all samples, in Unit: the profile's total CPU
	// time for CPU profiles. It equals the sum of every node's Flat.
	Total float64
	// Unit is "seconds" for CPU profiles, else the sample type's unit.
	Unit string
	// Samples is the number of samples read.
	Samples int

	index map[string]int32
}

// Lookup returns the id of the node named name (normalised) and whether it
// exists.
func (g *Graph) Lookup(name string) (int, bool) {
	id, ok := g.index[name]
	return int(id), ok
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.Nodes) }

// ProjectLen returns the number of project nodes.
func (g *Graph) ProjectLen() int {
	n := 0
	for i := range g.Nodes {
		if g.Nodes[i].Project {
			n++
		}
	}
	return n
}

// Errors returned (wrapped) when a profile does not fit the options.
var (
	// ErrNotCPU means the profile has no "cpu" sample type.
	ErrNotCPU = errors.New("not a CPU profile")
	// ErrEmpty means the profile has no samples.
	ErrEmpty = errors.New("profile has no samples")
)

// New builds the graph of one profile. It is [Merge] of a single profile.
func New(p *profile.Profile, opts Options) (*Graph, error) {
	return Merge([]*profile.Profile{p}, opts)
}

// Merge builds one graph from several profiles of the same kind, as if their
// samples had been recorded in one profile: flat and cumulative values add
// up and edges are united. It fails with an error wrapping [ErrNotCPU] or
// [ErrEmpty] when a profile does not fit opts; the error names the profile's
// position only, so callers that read files should add the file name (as
// [Load] does).
func Merge(ps []*profile.Profile, opts Options) (*Graph, error) {
	b := newBuilder(opts)
	for i, p := range ps {
		if err := b.add(p); err != nil {
			if len(ps) > 1 {
				return nil, fmt.Errorf("profile %d: %w", i+1, err)
			}
			return nil, err
		}
	}
	return b.finish(), nil
}

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

// builder accumulates nodes and edges by name across profiles.
type builder struct {
	opts  Options
	ids   map[string]int32
	nodes []Node
	// edges holds caller<<32 | callee for every edge, by builder ids.
	edges map[uint64]struct{}
	total float64
	unit  string
	count int
	// per-sample scratch for counting Cum once per sample
	seen  []int32
	stamp int32
	// last[i] is the callee of node i whose edge was recorded last, -1
	// for none: most frames repeat it, and skip the edges map.
	last []int32
}

func newBuilder(opts Options) *builder {
	return &builder{opts: opts, edges: make(map[uint64]struct{})}
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
			proj = true
			break
		}
	}
	b.nodes = append(b.nodes, Node{Name: name, Package: pkg, Project: proj})
	b.seen = append(b.seen, 0)
	b.last = append(b.last, -1)
	return id
}

func (b *builder) add(p *profile.Profile) error {
	idx, scale, unit, err := sampleIndex(p, b.opts.AllowNonCPU)
	if err != nil {
		return err
	}
	if b.unit != "" && b.unit != unit {
		return fmt.Errorf("profiles of different units cannot be merged (%s and %s)", b.unit, unit)
	}
	b.unit = unit
	if len(p.Sample) == 0 && !b.opts.AllowEmpty {
		return fmt.Errorf("%w; was the benchmark or workload too short to be sampled, or did it fail?", ErrEmpty)
	}

	if b.ids == nil {
		b.ids = make(map[string]int32, len(p.Function))
		b.nodes = make([]Node, 0, len(p.Function))
		b.seen = make([]int32, 0, len(p.Function))
		b.last = make([]int32, 0, len(p.Function))
	}

	// Map each function and location of this profile to global node ids
	// once, so the per-sample loop never touches names. Profiles number
	// functions and locations 1..n, so ids index slices; other numberings
	// fall back to maps.
	fnode := newIDMap(len(p.Function), func(yield func(uint64) bool) {
		for _, f := range p.Function {
			if !yield(f.ID) {
				return
			}
		}
	})
	for _, f := range p.Function {
		name := f.Name
		if name == "" {
			name = f.SystemName
		}
		if name == "" {
			name = fmt.Sprintf("[function %d]", f.ID)
		}
		fnode.set(f.ID, b.node(NormalizeName(name)))
	}
	// lframes[lidx.get(l.ID)] holds the frames of location l, all in one
	// backing slice; lframes[0] is empty, for ids of no location.
	lidx := newIDMap(len(p.Location), func(yield func(uint64) bool) {
		for _, l := range p.Location {
			if !yield(l.ID) {
				return
			}
		}
	})
	lframes := make([][]int32, len(p.Location)+1)
	nlines := 0
	for _, l := range p.Location {
		nlines += max(len(l.Line), 1)
	}
	frames := make([]int32, 0, nlines)
	for i, l := range p.Location {
		start := len(frames)
		// Line[0] is the innermost inlined frame, the last one the
		// physical function: leaf-to-root order, like Sample.Location.
		for _, ln := range l.Line {
			if ln.Function != nil {
				frames = append(frames, fnode.get(ln.Function.ID))
			}
		}
		if len(frames) == start {
			name := fmt.Sprintf("0x%x", l.Address)
			if l.Mapping != nil && l.Mapping.File != "" {
				name = l.Mapping.File + " " + name
			}
			frames = append(frames, b.node(name))
		}
		lframes[i+1] = frames[start:len(frames):len(frames)]
		lidx.set(l.ID, int32(i+1))
	}

	var stack []int32
	for _, s := range p.Sample {
		if idx >= len(s.Value) {
			return fmt.Errorf("sample has %d values, want at least %d", len(s.Value), idx+1)
		}
		v := float64(s.Value[idx]) * scale
		stack = stack[:0]
		for _, l := range s.Location {
			stack = append(stack, lframes[lidx.get(l.ID)]...)
		}
		if len(stack) == 0 {
			continue
		}
		b.count++
		b.total += v
		b.nodes[stack[0]].Flat += v
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
		Nodes:   make([]Node, n),
		Out:     make([][]int32, n),
		In:      make([][]int32, n),
		Total:   b.total,
		Unit:    b.unit,
		Samples: b.count,
		index:   make(map[string]int32, n),
	}
	if g.Unit == "" {
		g.Unit = "seconds"
	}
	for to, nm := range byName {
		from := nm.id
		newID[from] = int32(to)
		g.Nodes[to] = b.nodes[from]
		g.index[nm.name] = int32(to)
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
	return g
}

// idMap maps the ids of a profile's functions or locations to int32s: a
// slice when the ids are 1..n (as Go writes them), else a map.
type idMap struct {
	dense []int32
	m     map[uint64]int32
}

// newIDMap returns an idMap for the n ids that ids yields.
func newIDMap(n int, ids func(yield func(uint64) bool)) idMap {
	for id := range ids {
		if id == 0 || id > uint64(n) {
			return idMap{m: make(map[uint64]int32, n)}
		}
	}
	return idMap{dense: make([]int32, n+1)}
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
