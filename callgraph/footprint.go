package callgraph

import (
	"slices"
	"strings"
	"sync"

	"github.com/mbopt/mbopt/internal/bitset"
)

// Table is an interned function table: it numbers normalised function
// names for [Footprint]s. The ids 0 to g.Len()-1 are the nodes of the graph
// g it is made from, in order; a name that is not a node of g gets the next
// free id the first time a footprint has it. Which extra name gets which
// id depends on the order footprints are made in, so compare footprints of
// different tables by name ([Table.Name]), never by extra id. A Table is
// safe for concurrent use.
type Table struct {
	g     *Graph
	mu    sync.RWMutex
	extra map[string]int32 // names beyond g's nodes, by id
	names []string         // names[i] is the name of id g.Len()+i
}

// NewTable returns the table of g's nodes. g must not change afterwards.
func NewTable(g *Graph) *Table {
	return &Table{g: g, extra: map[string]int32{}}
}

// Graph returns the graph the table was made from.
func (t *Table) Graph() *Graph { return t.g }

// Len returns the number of ids given out so far.
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.g.Len() + len(t.names)
}

// Name returns the name of id, which must be below [Table.Len].
func (t *Table) Name(id int) string {
	if id < t.g.Len() {
		return t.g.Nodes[id].Name
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.names[id-t.g.Len()]
}

// Lookup returns the id of a normalised function name, and false when no
// footprint has had it and it is not a node of the table's graph.
func (t *Table) Lookup(name string) (int, bool) {
	if id, ok := t.g.Lookup(name); ok {
		return id, true
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	id, ok := t.extra[name]
	return int(id), ok
}

// intern returns the ids of names, none of which is a node of the graph,
// giving new names the next free ids in order. names may be views of a
// buffer that is reused: a new name is copied.
func (t *Table) intern(names []string, ids []int32) []int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, name := range names {
		id, ok := t.extra[name]
		if !ok {
			id = int32(t.g.Len() + len(t.names))
			name = strings.Clone(name)
			t.extra[name] = id
			t.names = append(t.names, name)
		}
		ids = append(ids, id)
	}
	return ids
}

// Footprint is a profile reduced to what coverage needs: the functions on
// the stacks of its samples, as ids of a [Table], and the figures analysis
// reports about the profile. Its functions are exactly the nodes of the
// graph [Load] builds from the same profile; [Table.Load] makes it without
// building that graph.
type Footprint struct {
	// Table numbers the functions.
	Table *Table
	// Nodes holds the footprint's functions that are nodes of the table's
	// graph: a set over its node ids (of bitset.New(Table.Graph().Len())).
	Nodes bitset.Set
	// Others holds the table ids of its other functions, ascending.
	Others []int32
	// Unit, SamplesTaken and Duration are those of the profile's graph
	// (see [Graph]).
	Unit string
	// SamplesTaken is the number of times the profiler sampled (see
	// [Graph.SamplesTaken]).
	SamplesTaken int64
	// Duration is the wall-clock time the profile covers, in seconds; 0
	// when it does not record it.
	Duration float64
}

// Len returns the number of functions in the footprint: the number of
// nodes of the profile's graph.
func (f *Footprint) Len() int { return f.Nodes.Len() + len(f.Others) }

// Has reports whether the footprint holds the function of table id id.
func (f *Footprint) Has(id int) bool {
	if n := f.Table.g.Len(); id < n {
		return f.Nodes.Has(id)
	}
	_, ok := slices.BinarySearch(f.Others, int32(id))
	return ok
}

// Names returns the names of the footprint's functions, sorted.
func (f *Footprint) Names() []string {
	names := make([]string, 0, f.Len())
	f.Nodes.Each(func(i int) { names = append(names, f.Table.g.Nodes[i].Name) })
	for _, id := range f.Others {
		names = append(names, f.Table.Name(int(id)))
	}
	slices.Sort(names)
	return names
}

// Footprint returns the footprint of g's nodes, with g's Unit,
// SamplesTaken and Duration, for graphs built otherwise than by
// [Table.Load] (a function set's, say).
func (t *Table) Footprint(g *Graph) *Footprint {
	f := &Footprint{Table: t, Nodes: bitset.New(t.g.Len()), Unit: g.Unit, SamplesTaken: g.SamplesTaken, Duration: g.Duration}
	var others []string
	for i := range g.Nodes {
		name := g.Nodes[i].Name
		if id, ok := t.g.Lookup(name); ok {
			f.Nodes.Add(id)
		} else {
			others = append(others, name)
		}
	}
	f.Others = sortedIDs(t.intern(others, nil))
	return f
}

// sortedIDs sorts ids and removes duplicates.
func sortedIDs(ids []int32) []int32 {
	slices.Sort(ids)
	return slices.Clip(slices.Compact(ids))
}

// scratchPool holds the decoders of [Table.Load], reused across profiles.
var scratchPool = sync.Pool{New: func() any { return new(decoder) }}

// Load reads the profile at path within opts.Limits into its footprint
// over t: the nodes, Unit, SamplesTaken and Duration of the graph
// Load([]string{path}, opts) builds (opts.NoEdges is implied), with the
// same errors, but without building the graph or keeping the decoded
// profile. It decodes gzipped and plain pprof protobuf itself, reading
// only what the footprint needs and checking everything pprof's
// profile.Parse checks; any other input (legacy pprof formats), and every
// profile that is an error, goes through [Load] instead, so the results
// and errors are Load's whatever the input.
func (t *Table) Load(path string, opts Options) (*Footprint, error) {
	if _, err := newExcluder(opts.Exclude); err == nil {
		d := scratchPool.Get().(*decoder)
		f, ok := d.footprint(t, path, opts)
		d.release()
		scratchPool.Put(d)
		if ok {
			return f, nil
		}
	}
	opts.NoEdges = true
	g, err := Load([]string{path}, opts)
	if err != nil {
		return nil, err
	}
	return t.Footprint(g), nil
}
