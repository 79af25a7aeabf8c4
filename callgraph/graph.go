package callgraph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/pprof/profile"
)

// Options configures how profiles become graphs. The zero value is valid:
// no module prefixes (every node external), CPU profiles with samples only,
// files read within [DefaultLimits].
type Options struct {
	// Modules are the module (or package) path prefixes whose packages are
	// project code. Matching is on path boundaries; see [IsBelow].
	Modules []string

	// AllowNonCPU accepts profiles without a CPU sample type. The graph is
	// then weighted by the profile's default sample type, and [Graph.Unit]
	// names that type's unit instead of "seconds".
	AllowNonCPU bool

	// AllowEmpty accepts profiles with no samples, giving an empty graph,
	// and profiles whose sample values are all zero, giving a graph whose
	// values are all zero.
	AllowEmpty bool

	// NoEdges skips the edges: Out and In stay empty. Coverage needs only
	// a benchmark graph's nodes, so benchmark graphs are built this way.
	NoEdges bool

	// Limits bounds the size of the profile files [Load] reads; zero
	// fields mean [DefaultLimits]. [New] and [Merge] read no file.
	Limits Limits
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
//
// [New], [Merge] and [Load] build graphs, but a Graph may also be built by
// hand (in tests, or from another source of call stacks): set Nodes, sorted
// by name with unique names, and Out and In with one list per node (nil
// lists for nodes without edges). Coverage needs only Nodes, so a graph
// used only as a benchmark graph or with [Graph.Lookup] may leave Out and
// In nil; the reachability methods then see a graph without edges. [Graph.Lookup] indexes Nodes
// by name on its first call, so Nodes must not change after that.
type Graph struct {
	// Nodes are sorted by Name, and names are unique; a node's id is its
	// index.
	Nodes []Node
	// Out[i] holds the ids of the callees of node i, sorted ascending.
	Out [][]int32
	// In[i] holds the ids of the callers of node i, sorted ascending.
	In [][]int32
	// Total is the value of all samples, in Unit: the profile's total CPU
	// time for CPU profiles. It equals the sum of every node's Flat plus
	// Unattributed.
	Total float64
	// Unattributed is the part of Total in no node's Flat: the value of
	// the samples whose leaf frame has no function name (see "Unnamed
	// frames" in the package documentation) or that have no stack at all.
	// It is 0 for the profiles Go writes.
	Unattributed float64
	// UnnamedFrames counts the frames left out of the graph because they
	// have no function name: each line (physical or inlined frame) of a
	// location whose function has no name, and each location that is only
	// a code address, counted once per location of each profile used by a
	// sample. It is 0 for the profiles Go writes.
	UnnamedFrames int
	// Unit is "seconds" for CPU profiles, else the sample type's unit.
	Unit string
	// Samples is the number of samples read, including those without a
	// stack or without a named leaf frame.
	Samples int

	indexOnce sync.Once
	index     map[string]int32
}

// Lookup returns the id of the node named name (normalised) and whether it
// exists. The first call indexes Nodes by name (for a graph built by hand,
// the first node of a repeated name wins); Lookup is safe for concurrent
// use.
func (g *Graph) Lookup(name string) (int, bool) {
	g.indexOnce.Do(func() {
		g.index = make(map[string]int32, len(g.Nodes))
		for i := range g.Nodes {
			if _, dup := g.index[g.Nodes[i].Name]; !dup {
				g.index[g.Nodes[i].Name] = int32(i)
			}
		}
	})
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

// Errors returned (wrapped) when a profile does not fit the options or
// cannot be analysed. Each error's message says what is wrong and how to
// get a usable profile.
var (
	// ErrNotCPU means the profile has no "cpu" sample type.
	ErrNotCPU = errors.New("not a CPU profile")
	// ErrEmpty means the profile has no samples.
	ErrEmpty = errors.New("profile has no samples")
	// ErrInvalid means the profile is inconsistent: pprof's
	// [profile.Profile.CheckValid] fails (a sample with the wrong number
	// of values, a location whose line has no function or a function that
	// is not in the profile's Function table, duplicate ids, …), a sample
	// refers to a location that is not in its Location table, or the
	// profile is nil. Parsed profiles are always consistent; this catches
	// profiles built or edited in memory.
	ErrInvalid = errors.New("inconsistent profile")
	// ErrNoLocations means the profile has samples but none of them has a
	// stack, so there is no function to put in a graph.
	ErrNoLocations = errors.New("no sample has a stack")
	// ErrUnsymbolized means the profile's stacks are code addresses
	// without any function name, as in profiles written by tools that do
	// not symbolize or of binaries without symbols: no frame can be named,
	// so the graph would have no node.
	ErrUnsymbolized = errors.New("profile is not symbolized")
	// ErrNegative means a sample has a negative value, as in the
	// difference of two profiles (pprof's -diff_base); a call graph's
	// times cannot be negative.
	ErrNegative = errors.New("negative sample value")
	// ErrZero means the profile has samples but their values are all
	// zero, so it weighs nothing (accepted with [Options.AllowEmpty]).
	ErrZero = errors.New("all sample values are zero")
	// ErrNoProfile means [Merge] or [Load] was given no profile at all.
	ErrNoProfile = errors.New("callgraph: no profile given")
)

// New builds the graph of one profile. It is [Merge] of a single profile.
func New(p *profile.Profile, opts Options) (*Graph, error) {
	return Merge([]*profile.Profile{p}, opts)
}

// Merge builds one graph from several profiles of the same kind, as if their
// samples had been recorded in one profile: flat and cumulative values add
// up and edges are united.
//
// Every profile is validated first ([ErrInvalid]), so an inconsistent
// profile is an error, never a panic. Merge fails with an error wrapping
// [ErrNotCPU], [ErrEmpty], [ErrNoLocations], [ErrUnsymbolized],
// [ErrNegative] or [ErrZero] when a profile does not fit opts or cannot be
// analysed, and with [ErrNoProfile] when ps is empty. The error names the
// profile's position only, so callers that read files should add the file
// name (as [Load] does).
func Merge(ps []*profile.Profile, opts Options) (*Graph, error) {
	if len(ps) == 0 {
		return nil, ErrNoProfile
	}
	b := newBuilder(opts)
	for i, p := range ps {
		if err := b.add(p, false); err != nil {
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
	edges        map[uint64]struct{}
	total        float64
	unattributed float64
	unnamed      int
	unit         string
	count        int
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
	}

	// Map each function and location of this profile to global node ids
	// once, on its first use by a sample, so the per-sample loop never
	// touches names and a function no sample uses gets no node. Profiles
	// number functions and locations 1..n, so ids index slices; other
	// numberings fall back to maps.
	fidx := newIDMap(len(p.Function), func(yield func(uint64) bool) {
		for _, f := range p.Function {
			if !yield(f.ID) {
				return
			}
		}
	})
	for i, f := range p.Function {
		fidx.set(f.ID, int32(i+1))
	}
	// fnode[fidx.get(id)] is 0 for a function not seen yet, 1 for one
	// without a name, else its node id + 2.
	fnode := make([]int32, len(p.Function)+1)
	lidx := newIDMap(len(p.Location), func(yield func(uint64) bool) {
		for _, l := range p.Location {
			if !yield(l.ID) {
				return
			}
		}
	})
	for i, l := range p.Location {
		lidx.set(l.ID, int32(i+1))
	}
	// lframes[k] holds the named frames of location p.Location[k-1], all
	// in one backing slice, once resolved[k]; leafNamed[k] reports whether
	// its leaf frame has a name.
	lframes := make([][]int32, len(p.Location)+1)
	resolved := make([]bool, len(p.Location)+1)
	leafNamed := make([]bool, len(p.Location)+1)
	nlines := 0
	for _, l := range p.Location {
		nlines += len(l.Line)
	}
	frames := make([]int32, 0, nlines)
	usedLocations := 0
	resolve := func(k int32) {
		l := p.Location[k-1]
		start := len(frames)
		// Line[0] is the innermost inlined frame, the last one the
		// physical function: leaf-to-root order, like Sample.Location.
		for j, ln := range l.Line {
			fk := fidx.get(ln.Function.ID)
			if fnode[fk] == 0 {
				fnode[fk] = 1
				name := ln.Function.Name
				if name == "" {
					name = ln.Function.SystemName
				}
				if name != "" {
					fnode[fk] = b.node(NormalizeName(name)) + 2
				}
			}
			if fnode[fk] == 1 {
				b.unnamed++
				continue
			}
			frames = append(frames, fnode[fk]-2)
			if j == 0 {
				leafNamed[k] = true
			}
		}
		if len(l.Line) == 0 {
			b.unnamed++
		}
		lframes[k] = frames[start:len(frames):len(frames)]
		resolved[k] = true
		usedLocations++
	}

	var (
		stack   []int32
		stacked bool // some sample has a location
		named   bool // some sample has a named frame
		nonZero bool // some sample has a value other than zero
		first   *profile.Location
	)
	for si, s := range p.Sample {
		if idx >= len(s.Value) {
			return fmt.Errorf("%w: sample %d has %d values, want at least %d", ErrInvalid, si+1, len(s.Value), idx+1)
		}
		raw := s.Value[idx]
		if raw < 0 {
			st := p.SampleType[idx]
			return fmt.Errorf("%w: sample %d has %d %s/%s; is the profile the difference of two profiles (go tool pprof -diff_base)? use the profile of one run",
				ErrNegative, si+1, raw, st.Type, st.Unit)
		}
		nonZero = nonZero || raw != 0
		v := float64(raw) * scale
		stack = stack[:0]
		leaf := false
		for j, l := range s.Location {
			k := lidx.get(l.ID)
			if k == 0 || p.Location[k-1] != l {
				return fmt.Errorf("%w: sample %d refers to location %d, which is not in the profile's Location table", ErrInvalid, si+1, l.ID)
			}
			if !resolved[k] {
				resolve(k)
			}
			if j == 0 {
				leaf = leafNamed[k]
				if first == nil {
					first = l
				}
			}
			stack = append(stack, lframes[k]...)
		}
		stacked = stacked || len(s.Location) > 0
		b.count++
		b.total += v
		if !leaf {
			b.unattributed += v
		}
		if len(stack) == 0 {
			continue
		}
		named = true
		if leaf {
			b.nodes[stack[0]].Flat += v
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
	switch {
	case !stacked:
		return fmt.Errorf("%w: none of its %d samples has a stack, so no function can be put in a graph; collect a CPU profile with runtime/pprof, 'go test -cpuprofile' or /debug/pprof/profile",
			ErrNoLocations, len(p.Sample))
	case !named:
		where := fmt.Sprintf("0x%x", first.Address)
		if first.Mapping != nil && first.Mapping.File != "" {
			where += " in " + first.Mapping.File
		}
		return fmt.Errorf("%w: its %d sampled locations (the first at %s) have no function name; write the profile with runtime/pprof, net/http/pprof or 'go test -cpuprofile', which symbolize it, or symbolize it with 'go tool pprof -proto -symbolize=local BINARY PROFILE > symbolized.pprof', BINARY being the profiled program with its symbols",
			ErrUnsymbolized, usedLocations, where)
	case !nonZero && !b.opts.AllowEmpty:
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
		Nodes:         make([]Node, n),
		Out:           make([][]int32, n),
		In:            make([][]int32, n),
		Total:         b.total,
		Unattributed:  b.unattributed,
		UnnamedFrames: b.unnamed,
		Unit:          b.unit,
		Samples:       b.count,
	}
	if g.Unit == "" {
		g.Unit = "seconds"
	}
	for to, nm := range byName {
		from := nm.id
		newID[from] = int32(to)
		g.Nodes[to] = b.nodes[from]
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
