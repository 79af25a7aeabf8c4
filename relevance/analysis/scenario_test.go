package analysis_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
)

func TestValidScenarioName(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"mixed", true}, {"ingest-2", true}, {"q.v1_b", true}, {"0", true}, {"GOGC", true},
		{"", false}, {"-x", false}, {"_x", false}, {".x", false}, {"a b", false}, {"a=b", false}, {"a/b", false}, {"a:b", false},
	} {
		assert.Equal(t, tt.ok, analysis.ValidScenarioName(tt.name), "%q", tt.name)
	}
}

// TestRunChecksScenarios: Run refuses scenario specs that break the name
// rule, repeat a name or have no file, before reading any profile.
func TestRunChecksScenarios(t *testing.T) {
	for _, tt := range []struct {
		specs []analysis.ScenarioSpec
		want  string
	}{
		{[]analysis.ScenarioSpec{{Name: "a b", Files: []string{"x"}}}, `Config.Scenarios[0].Name "a b": a scenario name is`},
		{[]analysis.ScenarioSpec{{Name: "a", Files: []string{"x"}}, {Name: "a", Files: []string{"y"}}}, `Config.Scenarios: two scenarios are named "a"`},
		{[]analysis.ScenarioSpec{{Name: "a"}}, "Config.Scenarios[0] (a) has no Files"},
	} {
		_, err := analysis.Run(context.Background(), analysis.Config{App: []string{"x"}, Micro: []string{"m"}, Modules: []string{"p"}, Scenarios: tt.specs})
		require.Error(t, err)
		assert.ErrorIs(t, err, mbopt.ErrInput)
		assert.ErrorContains(t, err, tt.want)
	}
}
