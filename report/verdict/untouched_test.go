package verdict_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/verdict"
)

// TestCompareUntouched checks that every renderer marks a detection in an
// untouched benchmark as likely noise, and nothing else.
func TestCompareUntouched(t *testing.T) {
	const pkg = fixtureModule + "/storage"
	noise := result(pkg, "BenchmarkNoise", "sec/op", 0.05, 0.03, 0.07, benchstats.DefiniteRegression, nil)
	noise.Untouched = true
	real := result(pkg, "BenchmarkReal", "sec/op", 0.04, 0.02, 0.06, benchstats.DefiniteRegression, nil)
	quiet := result(pkg, "BenchmarkQuiet", "sec/op", 0.001, -0.002, 0.004, benchstats.Unchanged, nil)
	quiet.Untouched = true
	rep := &compare.Report{Schema: compare.SchemaVersion, Module: fixtureModule, Base: baseRev, Head: headRev, Settings: settings(),
		Results: []compare.Result{noise, real, quiet}}

	render := map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return verdict.WriteText(b, rep) },
		"markdown": func(b *bytes.Buffer) error { return verdict.WriteMarkdown(b, rep) },
		"github": func(b *bytes.Buffer) error {
			_, err := verdict.WriteGitHub(b, rep)
			return err
		},
	}
	for name, f := range render {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, f(&b))
			out := b.String()
			mark := "(untouched: likely noise)"
			if name == "github" {
				mark = "(untouched%3A likely noise)" // an escaped annotation title
			}
			assert.Equal(t, 1, strings.Count(out, mark), "exactly the one untouched detection is marked:\n%s", out)
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, mark) {
					assert.Contains(t, l, "BenchmarkNoise", "the mark is on another line:\n%s", out)
				}
			}
			if name != "github" {
				assert.Contains(t, out, "1 untouched and 1 touched detections")
			}
		})
	}
	// Without an untouched detection there is no mark and no legend.
	rep.Results[0].Untouched = false
	var b bytes.Buffer
	require.NoError(t, verdict.WriteText(&b, rep))
	assert.NotContains(t, b.String(), "untouched")
}
