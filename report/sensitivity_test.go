package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report"
)

// TestSensitivitySections: an analysis with the detectable slowdowns shows
// them in the text, the Markdown and the JSON; one without shows none.
func TestSensitivitySections(t *testing.T) {
	cfg := analysis.Config{App: []string{"../testdata/profiles/example/app.pprof"}, Micro: []string{"../testdata/profiles/example/micro"}, Modules: []string{"example.com/tinytsdb"}}
	plain, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	cfg.Sensitivity = &analysis.SensitivityConfig{}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	for _, tc := range []struct {
		rep  *analysis.Report
		want bool
	}{{rep, true}, {plain, false}} {
		d := report.Build(tc.rep)
		var text, md, js bytes.Buffer
		require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
		require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
		require.NoError(t, report.WriteJSON(&js, d))
		var doc map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
		_, hasJSON := doc["sensitivity"]
		assert.Equal(t, tc.want, hasJSON)
		assert.Equal(t, tc.want, bytes.Contains(text.Bytes(), []byte("A 10.0% slowdown would be caught in functions that take 23.2% of the application's CPU (by the minimal suite: 0.0%).")), text.String())
		assert.Equal(t, tc.want, bytes.Contains(md.Bytes(), []byte("## What the suite would catch")))
		assert.Equal(t, tc.want, bytes.Contains(md.Bytes(), []byte("| 8 | `example.com/tinytsdb/storage.(*Table).Stats` | 0.6% | never | - |")), md.String())
	}
}
