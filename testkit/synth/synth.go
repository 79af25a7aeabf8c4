package synth

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
