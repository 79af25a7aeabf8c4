package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// This file generates a Suite's functions, the application's call tree
// with its cross calls and the benchmark-only functions, and plans its
// benchmarks.

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
	// The steps draw from r in this order; another order would give
	// other instances.
	s.drawFunctions(r)
	s.growTree(r)
	s.drawCrossCalls(r)
	s.nApp = n
	s.addBenchmarkFunctions(r)
	s.planBenchmarks(r)
	return s
}

// drawFunctions draws the AppNodes application functions: the fixed
// runtime roots, then for every other function its tree parent, whether it
// is project code, its package and name, and whether it is inlined or
// recursive.
func (s *Suite) drawFunctions(r *rand.Rand) {
	cfg, n := s.cfg, s.cfg.AppNodes
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
}

// growTree gives each application function its file, line, call sites
// and heat, links it to its tree parent and counts its depth and the size
// of its subtree.
func (s *Suite) growTree(r *rand.Rand) {
	n := s.cfg.AppNodes
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
}

// drawCrossCalls picks the hub functions and draws the calls besides the
// tree: cross calls forward (some to hubs), and back calls to a near
// ancestor.
func (s *Suite) drawCrossCalls(r *rand.Rand) {
	n := s.cfg.AppNodes
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
}

// addBenchmarkFunctions adds the functions only benchmarks run: the
// testing and GC frames, the fixture helpers and the code only irrelevant
// benchmarks run.
func (s *Suite) addBenchmarkFunctions(r *rand.Rand) {
	cfg := s.cfg
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
