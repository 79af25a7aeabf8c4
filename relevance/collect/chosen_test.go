package collect_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestChosen: what a front end chose (Config.Chosen) decides the
// benchtime a collection runs at and whether a zero timeout is the
// default or refused; without Chosen, the settings that are not zero are
// the chosen ones.
func TestChosen(t *testing.T) {
	flags := collect.Config{Out: "profiles", BenchTime: collect.DefaultBenchTime, Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}
	with := func(edit func(*collect.Config)) collect.Config { c := flags; edit(&c); return c }
	for _, tc := range []struct {
		name      string
		cfg       collect.Config
		benchTime string
		err       string
	}{
		{"profiles at the flag's default", with(func(c *collect.Config) { c.Chosen = mbopt.ChosenFields() }), collect.DefaultBenchTime, ""},
		{"cover at its own default", with(func(c *collect.Config) { c.Source, c.Chosen = manifest.SourceCover, mbopt.ChosenFields() }), collect.DefaultTimedBenchTime, ""},
		{"cover, scope all", with(func(c *collect.Config) {
			c.Source, c.Scope, c.Chosen = manifest.SourceCover, manifest.ScopeAll, mbopt.ChosenFields()
		}), collect.DefaultCoverBenchTime, ""},
		{"a chosen benchtime", with(func(c *collect.Config) {
			c.Source, c.BenchTime, c.Chosen = manifest.SourceCover, "3x", mbopt.ChosenFields("BenchTime")
		}), "3x", ""},
		{"without Chosen, a benchtime set", with(func(c *collect.Config) { c.Source, c.BenchTime = manifest.SourceCover, "3x" }), "3x", ""},
		{"without Chosen, none", collect.Config{Out: "profiles", Source: manifest.SourceInstructions}, collect.DefaultTimedBenchTime, ""},
		{"a chosen zero timeout", with(func(c *collect.Config) { c.Timeout, c.Chosen = 0, mbopt.ChosenFields("Timeout") }), "", "Config.Timeout must be positive, not 0s"},
		{"a chosen zero discovery timeout", with(func(c *collect.Config) { c.DiscoveryTimeout, c.Chosen = 0, mbopt.ChosenFields("DiscoveryTimeout") }), "", "Config.DiscoveryTimeout must be positive, not 0s"},
		{"zero timeouts left to the defaults", collect.Config{Out: "profiles"}, collect.DefaultBenchTime, ""},
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
