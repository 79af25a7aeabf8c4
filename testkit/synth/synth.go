// Package synth generates large, realistic, deterministic CPU profiles of a
// synthetic application and its microbenchmark suite, for mbopt's
// performance benchmarks.
//
// # The application
//
// An application of [Config.AppNodes] functions is a call tree rooted in a
// few runtime entry points (runtime.goexit, runtime.main, runtime.mcall,
// runtime.mstart, with main.main below runtime.main and the GC workers
// below runtime.goexit). Every other function is called by a parent chosen
// among the functions before it, with a bias towards recent ones, giving
// stacks about 2·ln(AppNodes) deep. About 30% of the functions are project functions in
// packages below [Config.Module]; they are more common near the roots, while
// the rest (runtime, standard library and third-party names, some generic)
// are more common near the leaves, as in real Go programs. Besides the tree,
// a quarter of the functions make a cross call to a later function (half of
// them to a few hub functions such as allocators), 1% call back to a near
// ancestor (mutual recursion: small strongly connected components) and 1%
// call themselves. Some calls are inlined, giving locations with two lines,
// and functions have one to three call sites (locations).
//
// With [Config.Chain] most functions instead extend the call chain of the
// function generated before them, giving stacks hundreds of functions
// deep; [Config.MaxStack] then truncates samples to their leaf-most
// frames, as the Go runtime's CPU profiler does at 64.
//
// The application profile holds a sample for every leaf, for 30% of the
// inner functions and for every cross call, so its graph has exactly
// AppNodes nodes. Sample values are skewed (log-normal per function), so a
// few functions hold most of the flat time, as in real profiles.
//
// # The benchmarks
//
// Benchmark k exercises a region of the application: a breadth-first walk
// from an entry project function along calls (cross calls followed half the
// time) of a log-uniform size between [Config.MinBenchNodes] and
// [Config.MaxBenchNodes] (at most a quarter of the application). Entries are
// drawn among the functions whose subtree is large enough, in the 60% of the
// project packages that have benchmarks, so regions nest and overlap
// heavily as in real suites; 15% of the benchmarks are smaller
// variants of the previous one (redundant) and 3% exercise only code the
// application never runs (irrelevant). Every benchmark profile also has its
// own nodes — testing.(*B).launch, testing.(*B).runN, the Benchmark function,
// a fixture helper — and GC stacks shared with the application.
//
// # Determinism
//
// Everything derives from [Config.Seed] through explicit PCG sources: the
// same Config gives identical profiles on every run and machine, and each
// benchmark profile is generated independently of the others, so they can be
// produced in any order or in parallel.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Version changes whenever the generator's output changes, so caches of
// generated files can be keyed by it.
const Version = 1

// Config describes a synthetic instance. Zero fields take the defaults
// documented on each field.
type Config struct {
	// Seed seeds every random choice.
	Seed uint64
	// AppNodes is the number of application functions (graph nodes);
	// default 5000, at least 16.
	AppNodes int
	// Benchmarks is the number of benchmark profiles; default 500.
	Benchmarks int
	// Module is the project's module path; default "example.com/synth".
	Module string
	// MinBenchNodes and MaxBenchNodes bound the number of application
	// functions a benchmark exercises; defaults 30 and 2000. The maximum
	// is capped at AppNodes/4.
	MinBenchNodes, MaxBenchNodes int
	// SampleRepeat is how many samples a benchmark takes per stack it
	// samples, each through randomly chosen call sites; default 1. Raise
	// it to make larger files, as longer benchmark runs do.
	SampleRepeat int
	// Chain is the probability that a function is called by the function
	// generated just before it, extending that function's call chain
	// instead of branching. The default 0 gives the shallow tree above;
	// 0.9 gives stacks about 150 deep on average and over 300 at most for
	// 100,000 functions, as in applications with many layers or recursive
	// descent.
	Chain float64
	// MaxStack, when positive, is the most frames a sample records: deeper
	// stacks lose their root-side frames, as the Go runtime records at
	// most 64 frames per CPU profile sample. The default 0 records whole
	// stacks (the shallow default tree never comes close to 64).
	MaxStack int
}

func (c Config) withDefaults() Config {
	if c.AppNodes == 0 {
		c.AppNodes = 5000
	}
	c.AppNodes = max(c.AppNodes, 16)
	if c.Benchmarks == 0 {
		c.Benchmarks = 500
	}
	if c.Module == "" {
		c.Module = "example.com/synth"
	}
	if c.MinBenchNodes == 0 {
		c.MinBenchNodes = 30
	}
	if c.MaxBenchNodes == 0 {
		c.MaxBenchNodes = 2000
	}
	c.MaxBenchNodes = max(min(c.MaxBenchNodes, c.AppNodes/4), 1)
	c.MinBenchNodes = max(min(c.MinBenchNodes, c.MaxBenchNodes), 1)
	if c.SampleRepeat <= 0 {
		c.SampleRepeat = 1
	}
	return c
}

// Fixed application functions.
const (
	fnGoexit = iota
	fnRuntimeMain
	fnMcall
	fnMstart
	fnMainMain
	fnGCWorker
	fnFirstFree
)

// fn is one function of the synthetic world (application or benchmark).
type fn struct {
	name     string
	file     string
	line     int64
	parent   int32   // tree parent, -1 for roots
	children []int32 // tree children, ascending
	cross    []int32 // extra callees, ascending
	project  bool
	inlined  bool // inlined into its tree parent
	selfRec  bool // calls itself
	tested   bool // a project function of a package that has benchmarks
	sites    int  // call sites (locations), 1..3
	heat     float64
	subtree  int32 // size of the tree below, itself included
	depth    int32
}

// Benchmark describes one generated benchmark.
type Benchmark struct {
	// ID is a file-name-safe unique id, in increasing order of index.
	ID string
	// Function is the Benchmark function's name.
	Function string
	// Entry is the application function it calls (see [Suite.Name]), -1
	// for an irrelevant benchmark; Size the number of application functions it aims at.
	Entry, Size int
	// VariantOf is the index of the benchmark it is a smaller variant of,
	// or -1.
	VariantOf int
}

// Suite is a generated application and benchmark suite. Its methods are
// safe for concurrent use.
type Suite struct {
	cfg     Config
	fns     []fn // application functions, then benchmark-only functions
	nApp    int
	hubs    []int32
	benches []Benchmark
	// Fixed benchmark-only functions.
	launch, runN, gcDrain, scanobject int32
	fixtures                          []int32
	orphans                           []int32 // code only irrelevant benchmarks run
}

var projPkgs = []string{"storage", "query", "index", "api", "codec", "cache", "wal", "compact", "ingest", "cluster", "auth", "internal/pool", "internal/encoding", "metrics", "rules"}

var extPkgs = []string{"runtime", "runtime", "runtime", "sync", "sync/atomic", "internal/runtime/maps", "strconv", "strings", "bytes", "fmt", "sort", "slices", "encoding/json", "encoding/binary", "compress/flate", "hash/crc32", "io", "bufio", "os", "syscall", "net", "net/http", "time", "math", "reflect", "regexp", "github.com/golang/snappy", "github.com/klauspost/compress/zstd", "golang.org/x/sys/unix", "google.golang.org/protobuf/internal/impl", "github.com/prometheus/client_golang/prometheus", "gopkg.in/yaml%2ev3"}

var verbs = []string{"Read", "Write", "Encode", "Decode", "Lock", "Unlock", "Hash", "Compare", "grow", "alloc", "scan", "Parse", "Format", "Get", "Put", "copy", "Append", "Flush", "Next", "Seek", "merge", "Sum", "Load", "Store"}

// New generates the application of cfg and plans its benchmarks. Benchmark
// profiles are generated on demand by [Suite.Benchmark]. Cost O(AppNodes +
// Benchmarks).
func New(cfg Config) *Suite {
	cfg = cfg.withDefaults()
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	s := &Suite{cfg: cfg}
	n := cfg.AppNodes
	s.fns = make([]fn, n, n+n/10+64)

	fixed := []string{"runtime.goexit", "runtime.main", "runtime.mcall", "runtime.mstart", "main.main", "runtime.gcBgMarkWorker"}
	for i, name := range fixed {
		s.fns[i] = fn{name: name, parent: -1}
	}
	s.fns[fnMainMain].parent = fnRuntimeMain
	s.fns[fnGCWorker].parent = fnGoexit

	nProjPkgs := max(1, n*3/10/50)
	nExtPkgs := max(1, n*7/10/80)
	for i := fnFirstFree; i < n; i++ {
		f := &s.fns[i]
		// Parent: the previous function (Chain), else biased towards
		// recent functions, so depth ≈ 2·ln(i) without chains. No draw
		// for Chain 0 keeps the default instances unchanged.
		if cfg.Chain > 0 && r.Float64() < cfg.Chain {
			f.parent = int32(i - 1)
		} else {
			switch u := r.Float64(); {
			case u < 0.003:
				f.parent = fnGoexit // a goroutine's entry
			case u < 0.004:
				f.parent = int32([]int{fnMcall, fnMstart}[r.IntN(2)])
			default:
				f.parent = int32(fnMainMain + int(float64(i-fnMainMain)*math.Sqrt(r.Float64())))
			}
		}
		f.project = r.Float64() < 0.5-0.4*float64(i)/float64(n)
		if f.project {
			k := r.IntN(nProjPkgs)
			f.tested = k%5 < 3
			pkg := cfg.Module + "/" + projPkgs[k%len(projPkgs)]
			if k >= len(projPkgs) {
				pkg += fmt.Sprint(k / len(projPkgs))
			}
			f.name = funcName(r, pkg, i)
			f.file = "/home/dev/synth/" + strings.TrimPrefix(pkg, cfg.Module+"/") + fmt.Sprintf("/file%d.go", i%7)
		} else {
			k := r.IntN(nExtPkgs)
			pkg := extPkgs[k%len(extPkgs)]
			if k >= len(extPkgs) && !strings.HasPrefix(pkg, "runtime") {
				pkg += fmt.Sprintf("/v%d", k/len(extPkgs))
			}
			f.name = funcName(r, pkg, i)
			f.file = "/usr/local/go/src/" + strings.ReplaceAll(pkg, "%2e", ".") + fmt.Sprintf("/x%d.go", i%5)
		}
		f.inlined = r.Float64() < 0.1
		f.selfRec = r.Float64() < 0.01
	}
	for i := range s.fns[:n] {
		f := &s.fns[i]
		if f.file == "" {
			f.file = "/usr/local/go/src/runtime/proc.go"
		}
		f.line = int64(20 + r.IntN(400))
		f.sites = 1 + r.IntN(3)
		f.heat = math.Exp(1.5 * r.NormFloat64())
		if f.parent >= 0 {
			s.fns[f.parent].children = append(s.fns[f.parent].children, int32(i))
			f.depth = s.fns[f.parent].depth + 1
		}
	}
	for i := n - 1; i >= 0; i-- {
		s.fns[i].subtree++
		if p := s.fns[i].parent; p >= 0 {
			s.fns[p].subtree += s.fns[i].subtree
		}
	}
	// Hubs: late external functions many others call (allocators, copy).
	for i := n - 1; i >= n/2 && len(s.hubs) < max(4, n/100); i -= 1 + r.IntN(8) {
		if !s.fns[i].project {
			s.hubs = append(s.hubs, int32(i))
		}
	}
	// Cross calls go forward (to a later function), so together with the
	// tree they form a DAG; back calls to a near ancestor add small cycles.
	for i := fnFirstFree; i < n-1; i++ {
		f := &s.fns[i]
		if r.Float64() < 0.25 {
			var to int32
			if h := s.hubs[r.IntN(len(s.hubs))]; r.Float64() < 0.5 && int(h) > i {
				to = h
			} else {
				to = int32(i + 1 + r.IntN(n-1-i))
			}
			if to != f.parent && !slices.Contains(f.children, to) && !slices.Contains(f.cross, to) {
				f.cross = append(f.cross, to)
			}
		}
		if r.Float64() < 0.01 && f.depth > 3 {
			a := f.parent
			for k := r.IntN(3); k > 0 && s.fns[a].parent >= fnFirstFree; k-- {
				a = s.fns[a].parent
			}
			if a >= fnFirstFree && !slices.Contains(f.cross, a) && a != f.parent {
				f.cross = append(f.cross, a)
			}
		}
		slices.Sort(f.cross)
	}
	s.nApp = n

	// Benchmark-only functions.
	add := func(name, file string) int32 {
		s.fns = append(s.fns, fn{name: name, file: file, line: int64(20 + r.IntN(400)), parent: -1, sites: 1, heat: 1})
		return int32(len(s.fns) - 1)
	}
	s.launch = add("testing.(*B).launch", "/usr/local/go/src/testing/benchmark.go")
	s.runN = add("testing.(*B).runN", "/usr/local/go/src/testing/benchmark.go")
	s.gcDrain = add("runtime.gcDrain", "/usr/local/go/src/runtime/mgcmark.go")
	s.scanobject = add("runtime.scanobject", "/usr/local/go/src/runtime/mgcmark.go")
	for k := range 20 {
		s.fixtures = append(s.fixtures, add(fmt.Sprintf("%s/internal/testutil.NewFixture%d", cfg.Module, k), "/home/dev/synth/internal/testutil/fixture.go"))
	}
	for k := range 40 {
		s.orphans = append(s.orphans, add(fmt.Sprintf("%s/legacy.Convert%d", cfg.Module, k), "/home/dev/synth/legacy/convert.go"))
	}

	s.planBenchmarks(r)
	return s
}

// funcName returns a unique, realistic function name in pkg for function i.
func funcName(r *rand.Rand, pkg string, i int) string {
	v := verbs[r.IntN(len(verbs))]
	switch r.IntN(10) {
	case 0, 1, 2:
		return fmt.Sprintf("%s.(*%s%d).%s", pkg, typeName(r), i%13, v+fmt.Sprint(i))
	case 3:
		return fmt.Sprintf("%s.%s%d.func%d", pkg, v, i, 1+r.IntN(3))
	case 4:
		return fmt.Sprintf("%s.%s%d[go.shape.int,go.shape.string]", pkg, v, i)
	case 5:
		return fmt.Sprintf("%s.(*%s%d[go.shape.*uint8]).%s%d", pkg, typeName(r), i%13, v, i)
	default:
		if strings.HasPrefix(pkg, "runtime") || r.IntN(2) == 0 {
			v = strings.ToLower(v[:1]) + v[1:]
		}
		return fmt.Sprintf("%s.%s%d", pkg, v, i)
	}
}

func typeName(r *rand.Rand) string {
	return []string{"Table", "Block", "Reader", "Writer", "Series", "Index", "Buffer", "Decoder", "Conn", "Tree"}[r.IntN(10)]
}

// planBenchmarks draws every benchmark's entry, size and name.
func (s *Suite) planBenchmarks(r *rand.Rand) {
	// Entries: project functions by subtree size, so one of at least a
	// given size is a binary search away.
	var entries []int32
	for i := fnFirstFree; i < s.nApp; i++ {
		if s.fns[i].tested {
			entries = append(entries, int32(i))
		}
	}
	slices.SortFunc(entries, func(a, b int32) int {
		if d := s.fns[a].subtree - s.fns[b].subtree; d != 0 {
			return int(d)
		}
		return int(a - b)
	})
	lo, hi := math.Log(float64(s.cfg.MinBenchNodes)), math.Log(float64(s.cfg.MaxBenchNodes))
	s.benches = make([]Benchmark, s.cfg.Benchmarks)
	for k := range s.benches {
		b := Benchmark{Entry: -1, VariantOf: -1}
		b.Size = int(math.Exp(lo + (hi-lo)*r.Float64()))
		switch u := r.Float64(); {
		case k > 0 && u < 0.15 && s.benches[k-1].Entry >= 0:
			prev := s.benches[k-1]
			b.VariantOf = k - 1
			if prev.VariantOf >= 0 {
				b.VariantOf = prev.VariantOf
			}
			b.Entry = prev.Entry
			b.Size = max(1, prev.Size/(2+r.IntN(4)))
		case u < 0.18 || len(entries) == 0:
			// irrelevant: Entry stays -1
		default:
			at, _ := slices.BinarySearchFunc(entries, int32(b.Size), func(e, size int32) int { return int(s.fns[e].subtree - size) })
			// Some slack above the first large-enough entry, so entries
			// vary for equal sizes.
			at = min(at+r.IntN(max(1, (len(entries)-at)/4)), len(entries)-1)
			b.Entry = int(entries[at])
		}
		pkg, base := s.cfg.Module+"/legacy", fmt.Sprintf("Convert%d", k)
		if b.Entry >= 0 {
			name := s.fns[b.Entry].name
			pkg = name[:strings.LastIndexByte(name, '/')+1+strings.IndexByte(name[strings.LastIndexByte(name, '/')+1:], '.')]
			base = fmt.Sprintf("Op%d", b.Entry)
		}
		short := pkg[strings.LastIndexByte(pkg, '/')+1:]
		if b.VariantOf >= 0 {
			b.Function = s.benches[b.VariantOf].Function
			b.ID = fmt.Sprintf("b%05d_%s__Benchmark%s-size_%d", k, short, base, b.Size)
		} else {
			b.Function = pkg + ".Benchmark" + base
			b.ID = fmt.Sprintf("b%05d_%s__Benchmark%s", k, short, base)
		}
		s.benches[k] = b
	}
}

// Config returns the configuration with defaults filled in.
func (s *Suite) Config() Config { return s.cfg }

// Modules returns the project module paths, for callgraph.Options.
func (s *Suite) Modules() []string { return []string{s.cfg.Module} }

// Name returns the name of application function i, as profiles spell it
// (not normalised), for i in [0, AppNodes).
func (s *Suite) Name(i int) string { return s.fns[:s.nApp][i].name }

// Benchmarks returns the planned benchmarks in index order. The slice must
// not be modified.
func (s *Suite) Benchmarks() []Benchmark { return s.benches }

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
