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
			require.NoError(t, verdict.WriteMutation(&js, &tc.r, "json"))
			var doc map[string]any
			require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
			assert.Equal(t, tc.r.Caught, doc["caught"])
			assert.Contains(t, doc, "comparison")
			assert.Error(t, verdict.WriteMutation(&js, &tc.r, "html"))
		})
	}
}
