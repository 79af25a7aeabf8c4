package report_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// With callable targets every format shows where the function is, which
// test package can call it, its callers and the hottest functions beneath;
// with the paper's targets none of it appears.
func TestCallableRecommendationDetails(t *testing.T) {
	doc := func(targets recommend.Targets) *report.Document {
		rep, err := analysis.Run(context.Background(), analysis.Config{
			App: []string{"../testdata/profiles/driver/app.pprof"}, Micro: []string{example + "/micro"},
			Modules: []string{"example.com/tinytsdb"}, Exclude: []string{"./cmd/..."},
			Recommend: 5, Targets: targets,
		})
		require.NoError(t, err)
		return report.Build(rep)
	}
	d := doc(recommend.Callable)
	require.NotEmpty(t, d.Recommendations)
	assert.Equal(t, "callable", d.RecommendationTargets)
	first := d.Recommendations[0]
	assert.Equal(t, "example.com/tinytsdb/query.(*Call).String", first.Function)
	assert.Equal(t, "query", first.Dir)
	assert.Equal(t, "parse.go", first.File[len(first.File)-len("parse.go"):])
	assert.Positive(t, first.Line)
	require.NotNil(t, first.Exported)
	assert.True(t, *first.Exported)
	require.NotEmpty(t, first.Callers)
	assert.Equal(t, "example.com/tinytsdb/cmd/tsdbload/load.(*worker).report", first.Callers[0].Function, "an excluded package still calls")
	require.NotEmpty(t, first.Hottest)

	var md, html bytes.Buffer
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
	require.NoError(t, report.WriteHTML(&html, d, nil))
	for name, out := range map[string]string{"markdown": md.String(), "html": html.String()} {
		assert.Contains(t, out, "query/parse.go:", name)
		assert.Contains(t, out, "called by", name)
		assert.Contains(t, out, "hottest beneath", name)
	}
	var text bytes.Buffer
	require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
	assert.Contains(t, text.String(), "at query/parse.go:")
	assert.Contains(t, text.String(), "external test (package query_test)")

	paper := doc(recommend.AnyFunction)
	assert.Empty(t, paper.RecommendationTargets)
	for _, r := range paper.Recommendations {
		assert.Nil(t, r.Exported, r.Function)
		assert.Empty(t, r.File, r.Function)
		assert.Empty(t, r.Callers, r.Function)
	}
	md.Reset()
	require.NoError(t, report.WriteMarkdown(&md, paper, report.MarkdownOptions{}))
	assert.NotContains(t, md.String(), "hottest beneath")
}

// When thin profiles withhold functions and fewer recommendations come out
// than were asked for, every format says so in the recommendations section
// with what to run (proftest's fsync fixture: BenchmarkPut's 22 samples
// withhold the checksum; 5s gives it about 100).
func TestRecommendationShortfall(t *testing.T) {
	app, profiles, _ := proftest.WriteThin(t, t.TempDir())
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{profiles},
		Modules: []string{proftest.ThinModule}, Targets: recommend.Callable, Recommend: 10})
	require.NoError(t, err)
	d := report.Build(rep)
	require.NotNil(t, d.RecommendationShortfall)
	s := *d.RecommendationShortfall
	assert.Equal(t, report.Shortfall{Asked: 10, Given: 1, Withheld: 1, LongerBenchTime: "5s", Why: s.Why}, s)
	want := "1 of the 10 recommendations asked for came out: 1 project function withheld as possibly run unseen by thin benchmark profiles: profile longer (mbopt profile --benchtime 5s) or record exact coverage (mbopt profile --source cover), then analyze again."
	assert.Equal(t, want, s.Why)

	var text, md, html, js bytes.Buffer
	require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
	require.NoError(t, report.WriteHTML(&html, d, nil))
	require.NoError(t, report.WriteJSON(&js, d))
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String(), "json": js.String()} {
		assert.Contains(t, out, "mbopt profile --benchtime 5s", name)
		assert.Contains(t, out, "1 of the 10 recommendations asked for", name)
	}
	// In the recommendations section, not only under the thin profiles.
	section := text.String()[strings.Index(text.String(), "Recommended benchmark targets"):]
	if i := strings.Index(section, "\n\n"); i >= 0 {
		section = section[:i]
	}
	assert.Contains(t, section, "withheld as possibly run unseen by thin benchmark profiles")
}
