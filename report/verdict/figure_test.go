package verdict_test

import (
	"bytes"
	"image/png"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/report/verdict"
	"github.com/mbopt/mbopt/testkit/golden"
)

func TestFigure(t *testing.T) {
	r := compareFixtures()["full"]
	f := verdict.Figure(r)
	require.NotNil(t, f)
	var labels []string
	for _, row := range f.Rows {
		labels = append(labels, row.Label)
	}
	assert.Equal(t, []string{
		"storage.BenchmarkSearch", "query.BenchmarkQuery",
		"internal/storage/engine/compaction\n…workers=16%/retention=720h,keep:all", // two lines of at most 48 runes, the plots' label rule
		"query.BenchmarkQuery (B/op)", "github.com/other/lib.BenchmarkHash", "BenchmarkRoot",
	}, labels, "compared results only, in the report's order")
	pngData, err := f.PNG()
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(pngData))
	require.NoError(t, err)
	w, h := f.Size()
	assert.Equal(t, int(w.Dots(96)+0.5), img.Bounds().Dx())
	assert.Equal(t, int(h.Dots(96)+0.5), img.Bounds().Dy())
	svg, err := f.SVG()
	require.NoError(t, err)
	golden.Check(t, filepath.Join("..", "testdata", "compare-full.svg"), svg)

	assert.Nil(t, verdict.Figure(compareFixtures()["nothing"]), "nothing compared, no figure")
}
