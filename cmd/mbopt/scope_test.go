package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/measure"
)

// TestScopeOnTimedFixture collects testdata/timed (a benchmark that calls
// SetupOnly before b.ResetTimer, Hot in its loop and ValidateOnly after
// b.StopTimer, and the same with b.Loop; an application that spends its
// time in all three) with --source cover and --source instructions (under
// Valgrind, skipped without it) in both scopes and analyzes each
// against the fixture's application profile: with --scope timed (the
// default) the benchmarks cover Hot alone, the analysis says so, and the
// first recommendation is SetupOnly or ValidateOnly; with --scope all they
// cover the three, as the papers count, and nothing is left to recommend.
func TestScopeOnTimedFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/timed")
	}
	const p = "example.com/timed/app."
	_, noValgrind := measure.FindValgrind("")
	for _, tc := range []struct {
		source    string
		scope     []string
		covered   int
		firstRecs []string // the first recommendation is one of these; none when empty
		text      string
	}{
		{"cover", nil, 1, []string{p + "SetupOnly", p + "ValidateOnly"}, "function sets of scope timed: each benchmark's timed loop only"},
		{"cover", []string{"--scope", "all"}, 3, nil, ""},
		{"instructions", nil, 1, []string{p + "SetupOnly", p + "ValidateOnly"}, "instruction profiles of scope timed: each benchmark's timed loop only"},
		{"instructions", []string{"--scope", "all"}, 3, nil, "instruction profiles of whole runs (scope all), as the papers count"},
	} {
		t.Run(filepath.Join(append([]string{tc.source, "scope"}, tc.scope...)...), func(t *testing.T) {
			if tc.source == "instructions" && noValgrind != nil {
				t.Skip(noValgrind)
			}
			out := filepath.Join(t.TempDir(), "sets")
			args := append([]string{"profile", "-C", "../../testdata/timed", "--source", tc.source, "--out", out}, tc.scope...)
			code, _, errText := run(t, args...)
			require.Equal(t, 0, code, errText)
			analyze := []string{"analyze", "--app", "../../testdata/profiles/timed/app.pprof", "--micro", out, "--module", "example.com/timed", "--recommend", "3"}
			code, text, errText := run(t, analyze...)
			require.Equal(t, 0, code, errText)
			if tc.text != "" {
				assert.Contains(t, text, tc.text)
			}
			if tc.firstRecs == nil {
				assert.NotContains(t, text, "timed loops")
			}
			code, js, errText := run(t, append(analyze, "--format", "json")...)
			require.Equal(t, 0, code, errText)
			var d struct {
				Scope    string `json:"scope"`
				Source   string `json:"source"`
				Coverage struct {
					Project struct{ Covered, Total int }
				}
				Benchmarks []struct {
					ID           string
					ProjectNodes int `json:"project_nodes"`
				}
				Recommendations []struct{ Function string }
			}
			require.NoError(t, json.Unmarshal([]byte(js), &d))
			assert.Equal(t, tc.source, d.Source)
			assert.Equal(t, tc.covered, d.Coverage.Project.Covered)
			assert.Equal(t, 3, d.Coverage.Project.Total, "SetupOnly, Hot and ValidateOnly")
			require.Len(t, d.Benchmarks, 2)
			for _, b := range d.Benchmarks {
				assert.Equal(t, tc.covered, b.ProjectNodes, b.ID)
			}
			if tc.firstRecs == nil {
				assert.Empty(t, d.Recommendations)
				assert.Empty(t, d.Scope)
				return
			}
			assert.Equal(t, "timed", d.Scope)
			require.NotEmpty(t, d.Recommendations)
			assert.Contains(t, tc.firstRecs, d.Recommendations[0].Function)
		})
	}
}
