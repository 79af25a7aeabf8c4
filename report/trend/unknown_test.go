package trend

import (
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare/history"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnknownValues: a value not known is a dash in every form, "-" in
// the text and "–" in Markdown, not a blank cell.
func TestUnknownValues(t *testing.T) {
	d := &Document{Series: []Series{{ID: "x.BenchmarkA", Unit: "sec/op"}}}
	var md strings.Builder
	require.NoError(t, WriteMarkdown(&md, d))
	assert.Contains(t, md.String(), "| `x.BenchmarkA` | sec/op | 0 | – | – | – | 0 | 0 |\n", "a series without points")

	s := Series{ID: "x.BenchmarkB", Unit: "sec/op", Points: []Point{{Point: history.Point{BaseValue: 1e-3, HeadValue: 1e-3}}, {}}}
	s.Points[0].Head.Commit, s.Points[1].Head.Commit = "aaaaaaaaaaaa", "bbbbbbbbbbbb"
	var text strings.Builder
	require.NoError(t, WriteText(&text, &Document{Series: []Series{s}}))
	assert.Regexp(t, `\n +1 bbbbbbbbbb +- +- +- +\+0\.0%`, text.String(), "a point without a date or values")
}
