// Package proftest builds small CPU profiles in memory for tests and
// benchmarks, and holds named fixtures such as the dissertation's Figure 6.2.
package proftest

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
)

// Stack is one sample: Frames from the root (outermost caller) to the leaf,
// and its CPU time in nanoseconds.
type Stack struct {
	// Frames are function names, root first, leaf last.
	Frames []string
	// Nanos is the sample's CPU time in nanoseconds.
	Nanos int64
}

// Profile returns a CPU profile in the shape Go writes one (sample types
// samples/count and cpu/nanoseconds, 10ms period) holding stacks in order.
// A frame name of the form "outer+inner" yields one location with an
// inlined frame inner inside outer.
func Profile(stacks ...Stack) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "samples", Unit: "count"},
			{Type: "cpu", Unit: "nanoseconds"},
		},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10_000_000,
		DurationNanos: 1e9,
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	fn := func(name string) *profile.Function {
		if f, ok := funcs[name]; ok {
			return f
		}
		f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name}
		funcs[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	loc := func(frame string) *profile.Location {
		if l, ok := locs[frame]; ok {
			return l
		}
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + 16*len(p.Location))}
		// "outer+inner": Line[0] is the innermost (inlined) frame.
		parts := splitInline(frame)
		for i := len(parts) - 1; i >= 0; i-- {
			l.Line = append(l.Line, profile.Line{Function: fn(parts[i]), Line: int64(10 + i)})
		}
		locs[frame] = l
		p.Location = append(p.Location, l)
		return l
	}
	for _, s := range stacks {
		smp := &profile.Sample{Value: []int64{max(1, s.Nanos/p.Period), s.Nanos}}
		for i := len(s.Frames) - 1; i >= 0; i-- { // leaf first
			smp.Location = append(smp.Location, loc(s.Frames[i]))
		}
		p.Sample = append(p.Sample, smp)
	}
	return p
}

func splitInline(frame string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(frame); i++ {
		if frame[i] == '+' {
			parts = append(parts, frame[start:i])
			start = i + 1
		}
	}
	return append(parts, frame[start:])
}

// WriteFile writes p to path, gzipped as Go writes profiles, failing tb on
// any error.
func WriteFile(tb testing.TB, path string, p *profile.Profile) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		f.Close()
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}
