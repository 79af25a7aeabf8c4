package synth

import (
	"math/rand/v2"
	"slices"

	"github.com/google/pprof/profile"
)

// This file generates the profiles of a Suite: the application's and
// each benchmark's, stacks of the generated functions as samples.

// App returns the application's CPU profile. Its graph has exactly
// Config.AppNodes nodes. Cost O(AppNodes × depth).
func (s *Suite) App() *profile.Profile {
	r := rand.New(rand.NewPCG(s.cfg.Seed, 0xa99))
	pb := newBuilder(s, r)
	var path []int32
	for i := range s.fns[:s.nApp] {
		f := &s.fns[i]
		path = s.rootPath(path[:0], int32(i))
		if len(f.children) == 0 || r.Float64() < 0.3 {
			pb.sample(path, f.heat*(0.5+r.ExpFloat64()))
		}
		for _, to := range f.cross {
			p := append(path, to)
			p = s.descend(r, p, to, 3)
			pb.sample(p, s.fns[p[len(p)-1]].heat*r.ExpFloat64())
		}
	}
	return pb.p
}

// rootPath appends the tree path from a root to v (recursive functions
// twice) to path.
func (s *Suite) rootPath(path []int32, v int32) []int32 {
	start := len(path)
	for u := v; u >= 0; u = s.fns[u].parent {
		path = append(path, u)
		if s.fns[u].selfRec {
			path = append(path, u)
		}
	}
	slices.Reverse(path[start:])
	return path
}

// descend appends up to steps random tree calls below v.
func (s *Suite) descend(r *rand.Rand, path []int32, v int32, steps int) []int32 {
	for ; steps > 0 && len(s.fns[v].children) > 0; steps-- {
		v = s.fns[v].children[r.IntN(len(s.fns[v].children))]
		path = append(path, v)
	}
	return path
}

// Benchmark returns the CPU profile of benchmark k (see [Suite.Benchmarks]).
// Cost O(Size × depth × SampleRepeat).
func (s *Suite) Benchmark(k int) *profile.Profile {
	b := s.benches[k]
	r := rand.New(rand.NewPCG(s.cfg.Seed, uint64(k)<<8|0xbe))
	pb := newBuilder(s, r)
	benchFn := pb.extra(b.Function, "/home/dev/synth/bench_test.go")
	prefix := []int32{fnGoexit, s.launch, s.runN, benchFn}
	if b.VariantOf >= 0 {
		prefix = append(prefix, pb.extra(b.Function+".func1", "/home/dev/synth/bench_test.go"))
	}
	// Setup through a fixture helper, and GC work shared with the app.
	fix := s.fixtures[k%len(s.fixtures)]
	pb.sample([]int32{fnGoexit, s.launch, s.runN, benchFn, fix}, 2)
	pb.sample([]int32{fnGoexit, fnGCWorker, s.gcDrain, s.scanobject}, 1+5*r.ExpFloat64())
	pb.sample([]int32{fnGoexit, fnGCWorker, s.gcDrain}, 1)

	if b.Entry < 0 {
		// Irrelevant: code the application never runs.
		prev := int32(-1)
		for range 1 + r.IntN(len(s.orphans)) {
			o := s.orphans[r.IntN(len(s.orphans))]
			stack := append(slices.Clone(prefix), o)
			if prev >= 0 && prev != o {
				stack = append(stack, prev)
			}
			pb.sample(stack, 1+r.ExpFloat64())
			prev = o
		}
		return pb.p
	}

	// Region: breadth-first from the entry along tree calls and, half
	// the time, cross calls; via records the call that reached a node.
	via := map[int32]int32{int32(b.Entry): -1}
	order := []int32{int32(b.Entry)}
	hasChild := map[int32]bool{}
	for q := 0; q < len(order) && len(order) < b.Size; q++ {
		v := order[q]
		f := &s.fns[v]
		visit := func(w int32) {
			if _, ok := via[w]; !ok && len(order) < b.Size {
				via[w] = v
				order = append(order, w)
				hasChild[v] = true
			}
		}
		for _, w := range f.children {
			visit(w)
		}
		for _, w := range f.cross {
			if r.Float64() < 0.5 {
				visit(w)
			}
		}
	}
	var path []int32
	for _, v := range order {
		if hasChild[v] && r.Float64() >= 0.3 {
			continue
		}
		path = path[:0]
		for u := v; u >= 0; u = via[u] {
			path = append(path, u)
			if s.fns[u].selfRec {
				path = append(path, u)
			}
		}
		slices.Reverse(path)
		stack := append(slices.Clone(prefix), path...)
		for range s.cfg.SampleRepeat {
			pb.sample(stack, s.fns[v].heat*(0.2+r.ExpFloat64()))
		}
	}
	return pb.p
}

// builder assembles one profile: functions and locations are created on
// first use, locations per (call site, inlined caller).
type builder struct {
	s      *Suite
	r      *rand.Rand
	p      *profile.Profile
	funcs  map[int32]*profile.Function
	locs   map[locKey]*profile.Location
	extras map[string]int32 // per-profile functions outside s.fns
	xfns   []fn
}

type locKey struct {
	fn, caller int32 // caller is -1 unless fn is inlined into it
	site       int
}

func newBuilder(s *Suite, r *rand.Rand) *builder {
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x4000000, File: "/tmp/go-build/b001/synth.test", HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	return &builder{s: s, r: r,
		p: &profile.Profile{
			SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
			PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
			Period:        10_000_000,
			DurationNanos: 10e9,
			Mapping:       []*profile.Mapping{m},
		},
		funcs:  map[int32]*profile.Function{},
		locs:   map[locKey]*profile.Location{},
		extras: map[string]int32{},
	}
}

// extra returns the id of a function of this profile only. Ids beyond
// s.fns index b.xfns.
func (b *builder) extra(name, file string) int32 {
	if id, ok := b.extras[name]; ok {
		return id
	}
	id := int32(len(b.s.fns) + len(b.xfns))
	b.xfns = append(b.xfns, fn{name: name, file: file, line: 12, parent: -1, sites: 1, heat: 1})
	b.extras[name] = id
	return id
}

func (b *builder) fn(id int32) *fn {
	if int(id) < len(b.s.fns) {
		return &b.s.fns[id]
	}
	return &b.xfns[int(id)-len(b.s.fns)]
}

func (b *builder) function(id int32) *profile.Function {
	if pf, ok := b.funcs[id]; ok {
		return pf
	}
	f := b.fn(id)
	pf := &profile.Function{ID: uint64(len(b.p.Function) + 1), Name: f.name, SystemName: f.name, Filename: f.file, StartLine: f.line}
	b.funcs[id] = pf
	b.p.Function = append(b.p.Function, pf)
	return pf
}

func (b *builder) location(k locKey) *profile.Location {
	if l, ok := b.locs[k]; ok {
		return l
	}
	f := b.fn(k.fn)
	l := &profile.Location{ID: uint64(len(b.p.Location) + 1), Mapping: b.p.Mapping[0],
		Address: 0x401000 + uint64(k.fn)*64 + uint64(k.site)*4}
	l.Line = append(l.Line, profile.Line{Function: b.function(k.fn), Line: f.line + 3 + 7*int64(k.site)})
	if k.caller >= 0 {
		c := b.fn(k.caller)
		l.Line = append(l.Line, profile.Line{Function: b.function(k.caller), Line: c.line + 5})
	}
	b.locs[k] = l
	b.p.Location = append(b.p.Location, l)
	return l
}

// sample adds a sample of stack (root to leaf) weighing about weight
// periods, keeping its leaf-most Config.MaxStack frames when that is set.
func (b *builder) sample(stack []int32, weight float64) {
	if limit := b.s.cfg.MaxStack; limit > 0 && len(stack) > limit {
		stack = stack[len(stack)-limit:]
	}
	count := max(1, int64(weight))
	smp := &profile.Sample{Value: []int64{count, count * b.p.Period}, Location: make([]*profile.Location, 0, len(stack))}
	for i := len(stack) - 1; i >= 0; i-- {
		f := b.fn(stack[i])
		k := locKey{fn: stack[i], caller: -1, site: b.r.IntN(f.sites)}
		if f.inlined && i > 0 && stack[i-1] == f.parent && stack[i-1] != stack[i] {
			k.caller = stack[i-1]
			k.site = 0
			i--
		}
		smp.Location = append(smp.Location, b.location(k))
	}
	b.p.Sample = append(b.p.Sample, smp)
}
