package proftest

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
)

// Instructions rewrites the CPU profile at src as an instruction profile
// in the shape mbopt profile --source instructions writes (one sample
// type, instructions/instructions, period 1), a thousandth of a
// nanosecond an instruction, and writes it to dst, failing tb on any
// error. The analysis reads it, as a real one, only under AllowNonCPU or
// with a manifest that records the source.
func Instructions(tb testing.TB, src, dst string) {
	tb.Helper()
	f, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	last := len(p.SampleType) - 1
	p.SampleType = []*profile.ValueType{{Type: "instructions", Unit: "instructions"}}
	p.PeriodType, p.Period, p.DefaultSampleType = &profile.ValueType{Type: "instructions", Unit: "instructions"}, 1, ""
	for _, s := range p.Sample {
		s.Value = []int64{s.Value[last] / 1000}
	}
	WriteFile(tb, dst, p)
}
