package report_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/testkit/dirtest"
)

// withoutRecommendations returns a copy of d without recommendations, whose
// report has no recommendation figure.
func withoutRecommendations(d *report.Document) *report.Document {
	c := *d
	c.Recommendations = []report.Recommendation{}
	return &c
}

func TestWriteDir(t *testing.T) {
	d := exampleDoc(t)
	files, err := report.Files(d)
	require.NoError(t, err)
	want := []string{report.IndexFile}
	for _, f := range files {
		want = append(want, f.Name)
	}
	slices.Sort(want)
	assert.Equal(t, []string{".mbopt-report", "recommend-coverage.png", "recommend-coverage.svg", "report.html", "report.json", "report.md",
		"suite-coverage.png", "suite-coverage.svg", "suite-impact.png", "suite-impact.svg"}, want, "every figure of Figures, in both formats, and the pages")

	parent := t.TempDir()
	dir := filepath.Join(parent, "sub", "report")
	require.NoError(t, report.WriteDir(dir, d, report.DirOptions{}), "a missing directory is created with its parents")
	assert.Equal(t, want, dirtest.Names(t, dir))
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		require.NoError(t, err)
		assert.Equal(t, f.Data, got, f.Name)
	}

	t.Run("stale files are removed", func(t *testing.T) {
		require.NoError(t, report.WriteDir(dir, withoutRecommendations(d), report.DirOptions{}))
		got := dirtest.Names(t, dir)
		assert.NotContains(t, got, "recommend-coverage.png", "a report without recommendations keeps no old recommendation plot")
		assert.NotContains(t, got, "recommend-coverage.svg")
		assert.Contains(t, got, "report.md")
		assert.Equal(t, []string{"sub"}, dirtest.Names(t, parent), "no temporary directory left beside it")
	})

	t.Run("a failed write leaves the old set", func(t *testing.T) {
		before := map[string][]byte{}
		for _, name := range dirtest.Names(t, dir) {
			before[name], err = os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
		}
		boom := errors.New("killed")
		*report.WriteHook = func(name string) error {
			if name == "report.json" {
				return boom
			}
			return nil
		}
		t.Cleanup(func() { *report.WriteHook = nil })
		err := report.WriteDir(dir, d, report.DirOptions{})
		require.ErrorIs(t, err, boom)
		after := map[string][]byte{}
		for _, name := range dirtest.Names(t, dir) {
			after[name], err = os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
		}
		assert.Equal(t, before, after, "the old report, every file of it and nothing else")
		assert.Equal(t, []string{"report"}, dirtest.Names(t, filepath.Join(parent, "sub")), "the half-built directory is removed")
	})
}

func TestWriteDirRefusesForeignFiles(t *testing.T) {
	d := withoutRecommendations(exampleDoc(t))
	want := []string{report.IndexFile, "report.html", "report.json", "report.md",
		"suite-coverage.png", "suite-coverage.svg", "suite-impact.png", "suite-impact.svg"}
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		foreign string // "" when the directory may be replaced
	}{
		{"empty directory", func(t *testing.T, dir string) {}, ""},
		{"a user's file", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
		}, "notes.txt"},
		{"a subdirectory", func(t *testing.T, dir string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, "data"), 0o755))
		}, "data"},
		{"a report file the index does not list", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, report.IndexFile), []byte("report.md\n"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "report.md"), nil, 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "report.html"), nil, 0o644))
		}, "report.html"},
		{"a report written before the index", func(t *testing.T, dir string) {
			for _, name := range []string{"report.md", "report.json", "recommend-coverage.png"} {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
			}
		}, ""},
		{"a temporary file of a killed write", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".report.md.tmp-123"), nil, 0o644))
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			before := dirtest.Names(t, dir)
			err := report.WriteDir(dir, d, report.DirOptions{})
			if tt.foreign == "" {
				require.NoError(t, err)
				assert.Equal(t, want, dirtest.Names(t, dir), "the report's files and nothing else")
				return
			}
			var fe *report.ForeignFileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, report.ForeignFileError{Dir: dir, File: tt.foreign}, *fe)
			assert.Contains(t, err.Error(), tt.foreign)
			assert.Equal(t, before, dirtest.Names(t, dir), "the directory is left as it was")

			require.NoError(t, report.WriteDir(dir, d, report.DirOptions{Force: true}), "Force replaces it")
			assert.Equal(t, want, dirtest.Names(t, dir))
		})
	}
}
