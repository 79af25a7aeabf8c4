package opprof

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/google/pprof/profile"
)

// A Profile is one side's cost of one operation, per source line.
type Profile struct {
	// Unit names the values: "instructions" or "nanoseconds".
	Unit string
	// Type is the sample type: "instructions" or "cpu".
	Type string
	// Samples are the lines with their per-operation values.
	Samples []Sample
}

// Instructions builds the per-operation instruction profile of one side
// from two Valgrind output files of the same benchmark at n1 and n2
// iterations (measure's two counts, lower first): the per-line
// difference divided by n2 − n1, so start-up and setup cancel out. Lines
// are credited to the enclosing function by r.
func Instructions(r *Resolver, low, high string, n1, n2 int) (*Profile, error) {
	if n2 <= n1 {
		return nil, fmt.Errorf("opprof: counts %d and %d: the second must be higher", n1, n2)
	}
	a, err := readValgrindFile(low)
	if err != nil {
		return nil, err
	}
	b, err := readValgrindFile(high)
	if err != nil {
		return nil, err
	}
	r.Resolve(a)
	r.Resolve(b)
	for i := range a {
		a[i].Value = -a[i].Value
	}
	p := &Profile{Unit: "instructions", Type: "instructions", Samples: merge(append(b, a...), 1/float64(n2-n1))}
	return p, nil
}

// Whole builds the instruction profile of one whole run from a Valgrind
// output file: every line's count as it is, start-up, setup and
// validation included (what the papers count), lines credited to the
// enclosing function by r.
func Whole(r *Resolver, file string) (*Profile, error) {
	a, err := readValgrindFile(file)
	if err != nil {
		return nil, err
	}
	r.Resolve(a)
	return &Profile{Unit: "instructions", Type: "instructions", Samples: merge(a, 1)}, nil
}

// PerFunction returns p with one sample per function whose value (its
// lines summed) is at least min, at the function's first line in p (by
// file, then line). With min 0.5 every function kept rounds to a count of
// at least 1 in [Profile.WritePprof], and in a profile of [Instructions]
// the functions left out are those that do not grow with the iteration
// count: the setup and validation that cancel out, and noise. Samples
// are sorted by function.
func (p *Profile) PerFunction(min float64) *Profile {
	out := &Profile{Unit: p.Unit, Type: p.Type}
	for _, s := range p.Samples { // merge sorted them by function, file and line
		if n := len(out.Samples); n > 0 && out.Samples[n-1].Function == s.Function {
			out.Samples[n-1].Value += s.Value
			continue
		}
		out.Samples = append(out.Samples, Sample{Function: s.Function, File: s.File, Line: s.Line, Value: s.Value})
	}
	out.Samples = slices.DeleteFunc(out.Samples, func(s Sample) bool { return !(s.Value >= min) })
	return out
}

// FromCPUProfile builds the per-operation profile of a Go CPU profile
// (-test.cpuprofile) of ops operations: each sample's CPU time is credited
// to its innermost frame, inlined frames included, and a sample taken
// during asynchronous preemption to the function it interrupted.
func FromCPUProfile(p *profile.Profile, ops int) (*Profile, error) {
	if ops <= 0 {
		return nil, fmt.Errorf("opprof: %d operations: need at least one", ops)
	}
	col := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			col = i
		}
	}
	if col < 0 {
		return nil, fmt.Errorf("opprof: the profile has no sample type cpu: not a CPU profile (go test -cpuprofile)")
	}
	var s []Sample
	for _, smp := range p.Sample {
		l, ok := innermost(smp)
		if !ok {
			continue
		}
		s = append(s, Sample{Function: l.Function.Name, Symbol: l.Function.Name, File: l.Function.Filename, Line: int(l.Line), Value: float64(smp.Value[col])})
	}
	return &Profile{Unit: "nanoseconds", Type: "cpu", Samples: merge(s, 1/float64(ops))}, nil
}

// preemption are the runtime's functions that a sample can land in while
// the scheduler preempts a goroutine asynchronously: the signal handler
// injects a call to them into whatever the goroutine was running. On a
// loaded machine they take many samples, and their time belongs to the
// function they interrupted.
var preemption = map[string]bool{"runtime.asyncPreempt": true, "runtime.asyncPreempt2": true}

// Preemption reports whether name is one of the runtime's functions that
// a CPU profile's sample lands in while the scheduler preempts a goroutine
// asynchronously: their time belongs to the function they interrupted,
// the frame above them.
func Preemption(name string) bool { return preemption[name] }

// innermost returns the innermost frame of smp (inlined frames included)
// that is not asynchronous preemption, and whether it has one.
func innermost(smp *profile.Sample) (profile.Line, bool) {
	for _, loc := range smp.Location {
		for _, l := range loc.Line {
			if l.Function == nil {
				return profile.Line{}, false
			}
			if !preemption[l.Function.Name] {
				return l, true
			}
		}
	}
	return profile.Line{}, false
}

// merge sums samples with the same function, file and line, scales them
// by f and sorts them by function, file and line.
func merge(s []Sample, f float64) []Sample {
	type key struct {
		fn, file string
		line     int
	}
	idx := map[key]int{}
	var out []Sample
	for _, x := range s {
		k := key{x.Function, x.File, x.Line}
		if i, ok := idx[k]; ok {
			out[i].Value += x.Value
			continue
		}
		idx[k] = len(out)
		out = append(out, x)
	}
	for i := range out {
		out[i].Value *= f
		out[i].Symbol = ""
	}
	slices.SortFunc(out, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Function, b.Function), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return out
}

// Funcs returns the per-operation value of each function.
func (p *Profile) Funcs() map[string]float64 {
	m := map[string]float64{}
	for _, s := range p.Samples {
		m[s.Function] += s.Value
	}
	return m
}

// Total returns the per-operation value of the whole profile.
func (p *Profile) Total() float64 {
	t := 0.0
	for _, s := range p.Samples {
		t += s.Value
	}
	return t
}

// WritePprof writes p as a gzipped pprof profile with one sample per
// line whose value rounds to a non-zero integer, so that
// `go tool pprof -top -diff_base base.pprof head.pprof` shows the same
// per-function diff as [Compare].
func (p *Profile) WritePprof(w io.Writer) error {
	out := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: p.Type, Unit: p.Unit}},
		PeriodType: &profile.ValueType{Type: p.Type, Unit: p.Unit},
		Period:     1,
	}
	funcs := map[[2]string]*profile.Function{}
	for _, s := range p.Samples {
		v := int64(math.Round(s.Value))
		if v == 0 {
			continue
		}
		fk := [2]string{s.Function, s.File}
		fn, ok := funcs[fk]
		if !ok {
			fn = &profile.Function{ID: uint64(len(out.Function) + 1), Name: s.Function, SystemName: s.Function, Filename: s.File}
			funcs[fk] = fn
			out.Function = append(out.Function, fn)
		}
		loc := &profile.Location{ID: uint64(len(out.Location) + 1), Line: []profile.Line{{Function: fn, Line: int64(s.Line)}}}
		out.Location = append(out.Location, loc)
		out.Sample = append(out.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{v}})
	}
	if err := out.CheckValid(); err != nil {
		return fmt.Errorf("opprof: %w", err)
	}
	return out.Write(w)
}
