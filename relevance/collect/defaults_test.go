package collect_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestDefaults: a zero setting is the default — the benchtime of the
// Source (and Scope) when BenchTime is empty, the default timeouts when
// they are 0 — and a negative timeout is refused. (A zero given on mbopt's
// command line is refused by the flag: see cmd/mbopt's TestPositiveFlags.)
func TestDefaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cfg       collect.Config
		benchTime string
		err       string
	}{
		{"profiles at their default", collect.Config{Out: "profiles"}, collect.DefaultBenchTime, ""},
		{"cover at its own default", collect.Config{Out: "profiles", Source: manifest.SourceCover}, collect.DefaultTimedBenchTime, ""},
		{"cover, scope all", collect.Config{Out: "profiles", Source: manifest.SourceCover, Scope: manifest.ScopeAll}, collect.DefaultCoverBenchTime, ""},
		{"instructions at their default", collect.Config{Out: "profiles", Source: manifest.SourceInstructions}, collect.DefaultTimedBenchTime, ""},
		{"a benchtime set", collect.Config{Out: "profiles", Source: manifest.SourceCover, BenchTime: "3x"}, "3x", ""},
		{"a negative timeout", collect.Config{Out: "profiles", Timeout: -1}, "", "Config.Timeout must be positive, not -1ns"},
		{"a negative discovery timeout", collect.Config{Out: "profiles", DiscoveryTimeout: -1}, "", "Config.DiscoveryTimeout must be positive, not -1ns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Check()
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.benchTime, tc.cfg.EffectiveBenchTime())
		})
	}
}
