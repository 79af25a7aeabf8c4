package callgraph

// A Function names one function of a function set: a list of functions
// known to have run, from a source other than a CPU profile (coverage data,
// see package covdata).
type Function struct {
	// Name is the function's name; [FromFunctions] normalises it.
	Name string
	// File and Line locate its declaration, as for [Node]; "" and 0 when
	// unknown.
	File string
	// Line is the declaration's line in File, 0 when unknown.
	Line int
}

// FromFunctions returns the graph of a function set: one node per distinct
// (normalised) name, classified as project or external by opts.Modules and
// opts.Exclude like the nodes of [New], with no edges, and every value
// (Flat, Cum, Attributed, Total, Samples, Duration) zero, so it serves
// wherever a benchmark graph is compared by its nodes only. A name given
// more than once keeps the File and Line of its first occurrence. Unit is
// "functions", which no profile has: the graph records no time. It fails only when opts.Exclude holds an invalid pattern
// (the error wraps [ErrPattern]); opts' other fields are ignored.
func FromFunctions(fns []Function, opts Options) (*Graph, error) {
	b, err := newBuilder(Options{Modules: opts.Modules, Exclude: opts.Exclude})
	if err != nil {
		return nil, err
	}
	b.ids = make(map[string]int32, len(fns))
	for _, f := range fns {
		name := NormalizeName(f.Name)
		if _, dup := b.ids[name]; dup {
			continue
		}
		id := b.node(name)
		b.nodes[id].File, b.nodes[id].Line = f.File, f.Line
	}
	g := b.finish()
	g.Unit = "functions"
	return g, nil
}
