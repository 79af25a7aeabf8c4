package callgraph_test

import (
	"errors"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// good returns a valid two-sample CPU profile to break in one way.
func good() *profile.Profile {
	return proftest.Profile(
		proftest.Stack{Frames: []string{"m.Main", "m.A", "m.Leaf"}, Nanos: 1e7},
		proftest.Stack{Frames: []string{"m.Main", "m.B"}, Nanos: 2e7},
	)
}

// unsymbolized strips every function name (keepNames false) or every line
// of p, and gives its locations a mapping when file is not "".
func unsymbolized(p *profile.Profile, dropLines bool, file string) *profile.Profile {
	var m *profile.Mapping
	if file != "" {
		m = &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x10000, File: file}
		p.Mapping = []*profile.Mapping{m}
	}
	for _, l := range p.Location {
		l.Mapping = m
		if dropLines {
			l.Line = nil
		}
	}
	if dropLines {
		p.Function = nil
	}
	for _, f := range p.Function {
		f.Name, f.SystemName = "", ""
	}
	return p
}

// Profiles that parse but cannot be analysed, and inconsistent in-memory
// profiles, are errors wrapping a documented sentinel; never a panic.
func TestBadProfiles(t *testing.T) {
	tests := []struct {
		name    string
		profile func() *profile.Profile
		opts    callgraph.Options
		want    error
		msg     string // a part of the message
	}{
		{"addresses only", func() *profile.Profile { return unsymbolized(good(), true, "") },
			callgraph.Options{}, callgraph.ErrUnsymbolized, "its 4 sampled locations (the first at 0x1000) have no function name"},
		{"addresses in a mapping", func() *profile.Profile { return unsymbolized(good(), true, "/usr/bin/app") },
			callgraph.Options{}, callgraph.ErrUnsymbolized, "the first at 0x1000 in /usr/bin/app"},
		{"functions without names", func() *profile.Profile { return unsymbolized(good(), false, "/usr/bin/app") },
			callgraph.Options{}, callgraph.ErrUnsymbolized, "go tool pprof -proto -symbolize=local BINARY PROFILE"},
		{"no stacks", func() *profile.Profile {
			p := good()
			for _, s := range p.Sample {
				s.Location = nil
			}
			return p
		}, callgraph.Options{}, callgraph.ErrNoLocations, "none of its 2 samples has a stack"},
		{"negative value", func() *profile.Profile {
			p := good()
			p.Sample[1].Value[1] = -2e7
			return p
		}, callgraph.Options{}, callgraph.ErrNegative, "sample 2 has -20000000 cpu/nanoseconds"},
		{"all zero", func() *profile.Profile {
			p := good()
			for _, s := range p.Sample {
				s.Value = []int64{0, 0}
			}
			return p
		}, callgraph.Options{}, callgraph.ErrZero, "its 2 samples add up to 0 cpu/nanoseconds"},
		{"no sample type", func() *profile.Profile {
			p := good()
			p.SampleType = nil
			return p
		}, callgraph.Options{AllowNonCPU: true}, callgraph.ErrInvalid, "missing sample type information"},
		{"nil profile", func() *profile.Profile { return nil },
			callgraph.Options{}, callgraph.ErrInvalid, "the profile is nil"},
		{"too few values", func() *profile.Profile {
			p := good()
			p.Sample[0].Value = p.Sample[0].Value[:1]
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "sample has 1 values vs. 2 types"},
		{"nil sample", func() *profile.Profile {
			p := good()
			p.Sample[1] = nil
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "nil sample"},
		{"nil location in a sample", func() *profile.Profile {
			p := good()
			p.Sample[0].Location[1] = nil
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "sample has nil location"},
		{"location outside the table", func() *profile.Profile {
			p := good()
			p.Sample[0].Location[0] = &profile.Location{ID: 99, Line: []profile.Line{{Function: p.Function[0]}}}
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "sample 1 refers to location 99, which is not in the profile's Location table"},
		{"copy of a location with a table id", func() *profile.Profile {
			p := good()
			l := *p.Location[0]
			p.Sample[1].Location[0] = &l
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "sample 2 refers to location 1"},
		{"line without function", func() *profile.Profile {
			p := good()
			p.Location[1].Line[0].Function = nil
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "location id: 2 has a line with nil function"},
		{"function outside the table", func() *profile.Profile {
			p := good()
			p.Location[1].Line[0].Function = &profile.Function{ID: 42, Name: "m.Ghost"}
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "inconsistent function"},
		{"duplicate function id", func() *profile.Profile {
			p := good()
			p.Function[1].ID = p.Function[0].ID
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "multiple functions with same id"},
		{"zero location id", func() *profile.Profile {
			p := good()
			p.Location[0].ID = 0
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "reserved id=0"},
		{"mapping outside the table", func() *profile.Profile {
			p := good()
			p.Location[0].Mapping = &profile.Mapping{ID: 7}
			return p
		}, callgraph.Options{}, callgraph.ErrInvalid, "inconsistent mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g *callgraph.Graph
			var err error
			require.NotPanics(t, func() { g, err = callgraph.New(tt.profile(), tt.opts) })
			assert.Nil(t, g)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			for _, other := range sentinels {
				if other != tt.want {
					assert.False(t, errors.Is(err, other), "%v also matches %v", err, other)
				}
			}
		})
	}
}

// In a merge, the error names the position of the bad profile.
func TestMergeNamesBadProfile(t *testing.T) {
	bad := good()
	bad.Sample[0].Value[1] = -1
	_, err := callgraph.Merge([]*profile.Profile{good(), bad}, callgraph.Options{})
	assert.ErrorIs(t, err, callgraph.ErrNegative)
	assert.ErrorContains(t, err, "profile 2: negative sample value")
}

// AllowEmpty accepts all-zero profiles, giving their nodes with no weight.
func TestAllowEmptyAcceptsZero(t *testing.T) {
	p := good()
	for _, s := range p.Sample {
		s.Value = []int64{0, 0}
	}
	g, err := callgraph.New(p, callgraph.Options{AllowEmpty: true})
	require.NoError(t, err)
	assert.Equal(t, 4, g.Len())
	assert.Zero(t, g.Total)
}

// Frames without a function name are left out and counted: they never
// become a node, so they cannot match across profiles, and the time of
// samples whose leaf is unnamed is Unattributed, part of Total.
func TestUnnamedFramesAreDropped(t *testing.T) {
	// Stacks, root first: Main→A→?→Leaf (an unnamed middle frame),
	// Main→B→? (an unnamed leaf) and Main→C+? (an unnamed function
	// inlined into C: one location, two lines).
	build := func(addrBase uint64, file string) *profile.Profile {
		p := proftest.Profile(
			proftest.Stack{Frames: []string{"m.Main", "m.A", "?1", "m.Leaf"}, Nanos: 1e7},
			proftest.Stack{Frames: []string{"m.Main", "m.B", "?2"}, Nanos: 2e7},
			proftest.Stack{Frames: []string{"m.Main", "m.C+?3"}, Nanos: 4e7},
		)
		m := &profile.Mapping{ID: 1, Start: addrBase, Limit: addrBase + 0x10000, File: file}
		p.Mapping = []*profile.Mapping{m}
		for _, l := range p.Location {
			l.Mapping = m
			l.Address += addrBase
			switch l.Line[0].Function.Name {
			case "?1":
				l.Line = nil // a bare address
			case "?2", "?3":
				l.Line[0].Function.Name, l.Line[0].Function.SystemName = "", ""
			}
		}
		return p
	}
	app := build(0x400000, "/bin/app")
	g, err := callgraph.New(app, callgraph.Options{})
	require.NoError(t, err)

	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	assert.Equal(t, []string{"m.A", "m.B", "m.C", "m.Leaf", "m.Main"}, names)
	assert.Equal(t, 3, g.UnnamedFrames, "one bare address, two unnamed functions")
	assert.Equal(t, 3, g.Samples)
	assert.InDelta(t, 0.07, g.Total, tol, "every sample's time is in Total")
	assert.InDelta(t, 0.06, g.Unattributed, tol, "the samples ending in ?2 and ?3")
	checkGraph(t, g)

	node := func(name string) callgraph.Node {
		id, ok := g.Lookup(name)
		require.True(t, ok, name)
		return g.Nodes[id]
	}
	assert.InDelta(t, 0.01, node("m.Leaf").Flat, tol)
	assert.InDelta(t, 0, node("m.B").Flat, tol, "B's unnamed callee keeps its time")
	assert.InDelta(t, 0.02, node("m.B").Cum, tol)
	assert.InDelta(t, 0, node("m.C").Flat, tol, "the unnamed inlined leaf keeps its time")
	a, _ := g.Lookup("m.A")
	leaf, _ := g.Lookup("m.Leaf")
	assert.Equal(t, []int32{int32(leaf)}, g.Out[a], "A reaches Leaf through the unnamed frame")

	// A benchmark with unnamed frames of its own (another binary, other
	// addresses) covers none of the application's unnamed code.
	bench, err := callgraph.New(build(0x800000, "/tmp/pkg.test"), callgraph.Options{})
	require.NoError(t, err)
	cov := coverage.Compute(g, []coverage.Benchmark{{ID: "b", Graph: bench}})
	assert.Equal(t, g.Len(), cov.Sets[0].OverallNodes, "only named functions match")
	_, ok := g.Lookup("[...]")
	assert.False(t, ok, "unnamed frames no longer share the node [...]")
}

// A Graph built by hand indexes itself on the first Lookup, so coverage
// works on it; concurrent Lookups are safe (run with -race).
func TestHandBuiltGraph(t *testing.T) {
	app := &callgraph.Graph{
		Nodes: []callgraph.Node{
			{Name: "p.A", Package: "p", Project: true, Flat: 1, Cum: 3},
			{Name: "p.B", Package: "p", Project: true, Flat: 2, Cum: 2},
			{Name: "q.C", Package: "q", Flat: 0, Cum: 1},
		},
		Total: 3,
		Unit:  "seconds",
	}
	bench := &callgraph.Graph{Nodes: []callgraph.Node{{Name: "p.B"}, {Name: "q.C"}, {Name: "z.Other"}}}

	done := make(chan bool)
	for range 4 {
		go func() {
			id, ok := app.Lookup("p.B")
			done <- ok && id == 1
		}()
	}
	for range 4 {
		assert.True(t, <-done, "concurrent Lookup")
	}
	cov := coverage.Compute(app, []coverage.Benchmark{{ID: "b", Graph: bench}})
	assert.Equal(t, 2, cov.Sets[0].OverallNodes)
	assert.Equal(t, 1, cov.Sets[0].ProjectNodes)
	_, ok := app.Lookup("z.Other")
	assert.False(t, ok)
}
