package analysis

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/recommend"
)

func TestDriverTargets(t *testing.T) {
	rec := func(pkgs ...string) *Report {
		r := &Report{Modules: []string{"example.com/m", "example.com/other"}, Recommendations: &recommend.Result{}}
		for _, p := range pkgs {
			r.Recommendations.Recommendations = append(r.Recommendations.Recommendations, recommend.Recommendation{Function: p + ".F", Package: p})
		}
		return r
	}
	tests := []struct {
		name    string
		rep     *Report
		pattern string
		funcs   []string
	}{
		{"none", rec("example.com/m/storage", "example.com/m/query"), "", nil},
		{"no recommendations", &Report{}, "", nil},
		{"under cmd", rec("example.com/m/storage", "example.com/m/cmd/load/app"), "./cmd/...", []string{"example.com/m/cmd/load/app.F"}},
		{"nested cmd", rec("example.com/m/tools/cmd/gen", "example.com/m/tools/cmd/x"), "./tools/cmd/...", []string{"example.com/m/tools/cmd/gen.F", "example.com/m/tools/cmd/x.F"}},
		{"second module", rec("example.com/other/cmd/bench"), "./cmd/...", []string{"example.com/other/cmd/bench.F"}},
		{"cmd outside the project", rec("example.com/thirdparty/cmd/x", "example.com/m/cmdline"), "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := driverTargets(tt.rep)
			if tt.funcs == nil {
				assert.NoError(t, err)
				return
			}
			var w *DriverTargetWarning
			require.ErrorAs(t, err, &w)
			assert.Equal(t, tt.pattern, w.Pattern)
			assert.Equal(t, tt.funcs, w.Functions)
			assert.Contains(t, w.Error(), "Config.Exclude "+tt.pattern)
		})
	}
}
