package verdict_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/report/verdict"
)

func TestWriteMutation(t *testing.T) {
	z := mutate.Sizing{SelfPerOp: 2000, CallsPerOp: 1, PerCall: 2000, PerIteration: 4}
	for _, tc := range []struct {
		name string
		r    mutate.Result
		text string
	}{
		{"caught", mutate.Result{Function: "example.com/m/p.Parse", Slowdown: 0.1, File: "p/parse.go", SizedBy: "example.com/m/p.BenchmarkParse", Sizing: z, Iterations: 50,
			Caught: true, CaughtBy: []string{"example.com/m/p.BenchmarkParse"}, Report: &compare.Report{}},
			"mutant: example.com/m/p.Parse +10% of its own cost per call: caught by example.com/m/p.BenchmarkParse\nsized by example.com/m/p.BenchmarkParse: 2000 own instructions per call, 1 calls per operation; a busy loop of 50 iterations (4 instructions each) at its entry in p/parse.go\n"},
		{"not caught", mutate.Result{Function: "example.com/m/p.Parse", Slowdown: 0.1, File: "p/parse.go", SizedBy: "example.com/m/p.BenchmarkParse", Sizing: z, Iterations: 50, Report: &compare.Report{}},
			"mutant: example.com/m/p.Parse +10% of its own cost per call: not caught: no benchmark reports a definite regression\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var text, js bytes.Buffer
			require.NoError(t, verdict.WriteMutation(&text, &tc.r, "text"))
			assert.True(t, strings.HasPrefix(text.String(), tc.text), text.String())
			// Both sides are built from HEAD: the header says which one is
			// the mutant (the test's reports name no revision: HEAD).
			assert.Contains(t, text.String(), "\nbase  \nhead  HEAD with example.com/m/p.Parse slowed by +10%\n", text.String())
			require.NoError(t, verdict.WriteMutation(&js, &tc.r, "json"))
			var doc map[string]any
			require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
			assert.Equal(t, tc.r.Caught, doc["caught"])
			assert.Contains(t, doc, "comparison")
			assert.Error(t, verdict.WriteMutation(&js, &tc.r, "html"))
		})
	}
	// A named revision is kept, with its commit, on both sides; the
	// JSON's head spec stays the revision's.
	rev := compare.Revision{Spec: "v1.2", Commit: "0123456789abcdef"}
	r := mutate.Result{Function: "example.com/m/p.Parse", Slowdown: 0.05, Sizing: z, Report: &compare.Report{Base: rev, Head: rev}}
	var text, js bytes.Buffer
	require.NoError(t, verdict.WriteMutation(&text, &r, "text"))
	assert.Contains(t, text.String(), "\nbase  v1.2  0123456789ab\nhead  v1.2 with example.com/m/p.Parse slowed by +5%  0123456789ab\n", text.String())
	require.NoError(t, verdict.WriteMutation(&js, &r, "json"))
	assert.Contains(t, js.String(), `"spec": "v1.2"`)
	assert.NotContains(t, js.String(), "slowed")
}

// TestWriteScore: the text says the score, each prediction with what its
// two mutants did and its outcome, and a never-caught function without
// mutants; the JSON holds the counts and each prediction's outcome.
func TestWriteScore(t *testing.T) {
	z := mutate.Sizing{SelfPerOp: 2000, CallsPerOp: 1, PerCall: 2000, PerIteration: 4}
	mutant := func(s float64, caught bool) *mutate.Result {
		r := &mutate.Result{Function: "example.com/m/p.Hash", Slowdown: s, Added: s, Sizing: z, Report: &compare.Report{}, Caught: caught}
		if caught {
			r.CaughtBy = []string{"example.com/m/p.BenchmarkHash"}
		}
		return r
	}
	d := 0.04
	sc := &mutate.Score{Held: 1, Tested: 1, Never: 1, Predictions: []mutate.Prediction{
		{Function: sensitivity.Function{Function: "example.com/m/p.Hash", AppShare: 0.3, DetectableSlowdown: &d, Benchmark: "example.com/m/p.BenchmarkHash"},
			Outcome: mutate.Held, At: mutant(d, true), Tenth: mutant(d/10, false)},
		{Function: sensitivity.Function{Function: "example.com/m/p.Other", AppShare: 0.3}, Outcome: mutate.Never},
	}}
	var text, js bytes.Buffer
	require.NoError(t, verdict.WriteScore(&text, sc, "text"))
	for _, want := range []string{
		"mutation score: 1 of 1 predicted detectable slowdowns held (1 function(s) predicted never caught",
		"example.com/m/p.Hash (30.0% of the application): predicted caught from +4% by example.com/m/p.BenchmarkHash: held\n",
		"  +4% (the loop adds +4%): caught by example.com/m/p.BenchmarkHash\n",
		"  +0.4% (the loop adds +0.4%): not caught\n",
		"example.com/m/p.Other (30.0% of the application): predicted never caught: no mutant\n",
	} {
		assert.Contains(t, text.String(), want)
	}
	require.NoError(t, verdict.WriteScore(&js, sc, "json"))
	var doc struct {
		Held, Tested, Never int
		Predictions         []struct{ Function, Outcome string }
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
	assert.Equal(t, [3]int{1, 1, 1}, [3]int{doc.Held, doc.Tested, doc.Never})
	require.Len(t, doc.Predictions, 2)
	assert.Equal(t, "held", doc.Predictions[0].Outcome)
	assert.Equal(t, "example.com/m/p.Other", doc.Predictions[1].Function)
	assert.Error(t, verdict.WriteScore(&js, sc, "html"))
}

// TestWriteMutations: one mutant is written as WriteMutation writes it;
// several are a JSON array, and in text one after another.
func TestWriteMutations(t *testing.T) {
	z := mutate.Sizing{SelfPerOp: 2000, CallsPerOp: 1, PerCall: 2000, PerIteration: 4}
	a := &mutate.Result{Function: "example.com/m/p.A", Slowdown: 0.1, Sizing: z, Report: &compare.Report{}}
	b := &mutate.Result{Function: "example.com/m/p.B", Slowdown: 0.1, Sizing: z, Report: &compare.Report{}, Caught: true, CaughtBy: []string{"example.com/m/p.BenchmarkB"}}
	var one, want bytes.Buffer
	require.NoError(t, verdict.WriteMutations(&one, []*mutate.Result{a}, "json"))
	require.NoError(t, verdict.WriteMutation(&want, a, "json"))
	assert.Equal(t, want.String(), one.String())
	var js, text bytes.Buffer
	require.NoError(t, verdict.WriteMutations(&js, []*mutate.Result{a, b}, "json"))
	var doc []mutate.Result
	require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
	require.Len(t, doc, 2)
	assert.Equal(t, []bool{false, true}, []bool{doc[0].Caught, doc[1].Caught})
	require.NoError(t, verdict.WriteMutations(&text, []*mutate.Result{a, b}, "text"))
	i, j := strings.Index(text.String(), "mutant: example.com/m/p.A"), strings.Index(text.String(), "mutant: example.com/m/p.B")
	assert.True(t, i >= 0 && j > i, text.String())
}
