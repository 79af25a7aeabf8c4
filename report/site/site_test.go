package site_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/report/site"
	"github.com/mbopt/mbopt/testkit/dirtest"
	"github.com/mbopt/mbopt/testkit/hostile"
)

func TestPageNames(t *testing.T) {
	long := strings.Repeat("BenchmarkVeryLong/", 20)
	tests := []struct {
		name string
		s    site.Series
		want string // the readable part, before the hash
	}{
		{"plain", site.Series{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op"}, "example.com_m.BenchmarkQuery_sec_op-"},
		{"script", site.Series{ID: "p.BenchmarkNames/<script>alert(1)</script>", Unit: "sec/op"}, "p.BenchmarkNames__script_alert_1___script__sec_op-"},
		{"markdown link", site.Series{ID: "p.B/[x](http://e)", Unit: "sec/op"}, "p.B__x__http___e__sec_op-"},
		{"mention", site.Series{ID: "p.B/@someone", Unit: "B/op"}, "p.B__someone_B_op-"},
		{"workflow command", site.Series{ID: "p.B/::error::x", Unit: "sec/op"}, "p.B___error__x_sec_op-"},
		{"path", site.Series{ID: "../../etc", Unit: "sec/op"}, "_______etc_sec_op-"},
		{"leading dot", site.Series{ID: ".hidden", Unit: "x"}, "_.hidden_x-"},
		{"dots", site.Series{ID: "p.B/a...b", Unit: "x"}, "p.B_a__.b_x-"},
		{"long", site.Series{ID: long, Unit: "sec/op"}, long[:80]},
		{"non-ASCII", site.Series{ID: "p.B/größe=1", Unit: "sec/op"}, "p.B_gr____e=1_sec_op-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := site.PageNames([]site.Series{tt.s})[0]
			want := strings.ReplaceAll(strings.ReplaceAll(tt.want, "/", "_"), "<", "_")
			assert.True(t, strings.HasPrefix(name, want), "PageNames(%q) = %q, want it to begin %q", tt.s.ID, name, want)
			assert.True(t, strings.HasSuffix(name, ".html"))
			assert.LessOrEqual(t, len(name), 80+1+8+len(".html"))
			assert.NotContains(t, name, "/")
			assert.NotContains(t, name, `\`)
			assert.NotContains(t, name, "..")
			assert.False(t, strings.HasPrefix(name, "."), "%q", name)
			assert.Equal(t, filepath.Base(name), name)
		})
	}
}

func TestPageNamesUnique(t *testing.T) {
	// Series that differ only in characters benchname.FileName maps to "_", or in
	// the machine, still get their own pages.
	series := []site.Series{
		{ID: "p.B/a<b", Unit: "sec/op"},
		{ID: "p.B/a>b", Unit: "sec/op"},
		{ID: "p.B/a>b", Unit: "sec/op", Machine: "other"},
		{ID: "p.B/a>b", Unit: "sec/op", Machine: "other"}, // the same series twice: numbered
	}
	names := site.PageNames(series)
	seen := map[string]bool{}
	for _, n := range names {
		assert.False(t, seen[n], "%q twice", n)
		seen[n] = true
	}
	assert.True(t, strings.HasSuffix(names[3], "-2.html"), names[3])
	assert.Equal(t, names, site.PageNames(series), "deterministic")
}

func TestCheckCommitURL(t *testing.T) {
	tests := []struct {
		url  string
		want string // "" for no error
	}{
		{"", ""},
		{"https://github.com/o/r/commit/{commit}", ""},
		{"http://git.example.com/c?id={commit}", ""},
		{"https://github.com/o/r/commit/", "has no {commit}"},
		{"javascript:alert(1)//{commit}", "must be an http or https URL"},
		{"data:text/html,{commit}", "must be an http or https URL"},
		{"//github.com/{commit}", "must be an http or https URL"},
		{"https://{commit}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := site.CheckCommitURL(tt.url)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestDataCheck(t *testing.T) {
	valid := func() *site.Data {
		return &site.Data{Commits: []site.Commit{{Hash: "a"}, {Hash: "b"}}, Series: []site.Series{{ID: "p.B", Unit: "sec/op",
			Points:     []site.Point{{Commit: 0}, {Commit: 1, Point: detect.Point{Change: 0.1}}},
			Detections: []detect.Detection{{Index: 1, Kind: detect.Jump}}}}}
	}
	tests := []struct {
		name   string
		change func(d *site.Data)
		want   string
	}{
		{"valid", func(*site.Data) {}, ""},
		{"commit out of range", func(d *site.Data) { d.Series[0].Points[1].Commit = 2 }, "point 1: commit 2 is not after 0 and below 2"},
		{"commits out of order", func(d *site.Data) { d.Series[0].Points[1].Commit = 0 }, "point 1: commit 0 is not after 0"},
		{"detection out of range", func(d *site.Data) { d.Series[0].Detections[0].Index = 2 }, "detection at point 2 of 2"},
		{"not finite", func(d *site.Data) { d.Series[0].Points[0].CI.High = inf() }, "point 0: a value is not finite"},
		{"application out of range", func(d *site.Data) {
			d.Application = &site.Application{Name: "app", Points: []site.AppPoint{{Commit: 5}}}
		}, "application app, point 0: commit 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := valid()
			tt.change(d)
			err := d.Check()
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func inf() float64 { var z float64; return 1 / z }

// dataLiteral returns the JSON literal a data script passes.
func dataLiteral(t *testing.T, js []byte) []byte {
	t.Helper()
	s := string(js)
	i := strings.IndexAny(s, "{[")
	j := strings.LastIndex(s, ");")
	require.True(t, i > 0 && j > i, "%.80s", s)
	return []byte(s[i:j])
}

func TestFilesKeepNamesInert(t *testing.T) {
	d := fixtureData(t, true)
	files, err := site.Files(d, site.Options{CommitURL: "https://github.com/o/r/commit/{commit}"})
	require.NoError(t, err)
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Data
		for _, bad := range []string{"<script>alert", "</script>alert", "<img_src", "<b>copy"} {
			assert.NotContains(t, string(f.Data), bad, "%s", f.Name)
		}
		for _, part := range strings.Split(f.Name, "/") {
			if part != ".mbopt-site" { // the site's marker, a fixed name
				hostile.CheckFileName(t, part, 120)
			}
		}
	}
	// The names survive as data: the index's JSON holds them exactly.
	var idx struct {
		Series []struct{ Name, Page string }
	}
	require.NoError(t, json.Unmarshal(dataLiteral(t, byName["data/index.js"]), &idx))
	var names []string
	for _, s := range idx.Series {
		names = append(names, s.Name)
		assert.Contains(t, byName, s.Page, "the page of %q", s.Name)
	}
	for _, n := range hostile.Names {
		assert.Contains(t, names, "BenchmarkNames/"+n)
	}
	// The pages' titles are escaped, and no page has inline script or
	// event handlers.
	for name, b := range byName {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		page := string(b)
		assert.Contains(t, page, `http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'`, name)
		assert.NotRegexp(t, `<script>|<script [^>]*>[^<]`, page, "%s: inline script", name)
		assert.NotRegexp(t, `\son[a-z]+=`, page, "%s: event handler attribute", name)
		if strings.Contains(page, "alert(1)") {
			assert.Contains(t, page, "&lt;script&gt;alert(1)&lt;/script&gt;", name)
		}
	}
}

func TestFilesEmpty(t *testing.T) {
	files, err := site.Files(&site.Data{Title: "empty"}, site.Options{})
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{".mbopt-site", "assets/favicon.svg", "assets/site.css", "assets/site.js", "data/chunk-000.js", "data/index.js", "index.html"}, names)
}

func TestFilesDeterministic(t *testing.T) {
	d := fixtureData(t, true)
	a, err := site.Files(d, site.Options{})
	require.NoError(t, err)
	b, err := site.Files(d, site.Options{})
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

func TestOrder(t *testing.T) {
	imp := func(v float64) *site.Impact { return &site.Impact{Reference: v} }
	pts := []site.Point{{Commit: 0}, {Commit: 1}, {Commit: 2}}
	det := func(i int, definite bool) []detect.Detection {
		return []detect.Detection{{Index: i, Kind: detect.Jump, Definite: definite}}
	}
	series := []site.Series{
		{ID: "a", Points: pts, Impact: imp(0.5)},                            // no detection, high impact
		{ID: "b", Points: pts, Detections: det(1, true), Impact: imp(0.1)},  // older detection
		{ID: "c", Points: pts, Detections: det(2, false), Impact: imp(0.1)}, // latest, potential
		{ID: "d", Points: pts, Detections: det(2, true)},                    // latest, definite, impact unknown
		{ID: "e", Points: pts},                                              // no detection, impact unknown
		{ID: "f", Points: pts, Impact: imp(0.9)},                            // no detection, highest impact
	}
	assert.Equal(t, []int{3, 2, 1, 5, 0, 4}, site.Order(series))
}

// TestWriteReplaces: a second site replaces the first one's files and
// removes those it has not; a file of the site's name that no site wrote
// is refused unless Force.
func TestWriteReplaces(t *testing.T) {
	d := fixtureData(t, false)
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, site.Write(dir, d, site.Options{}))
	first := dirtest.Names(t, filepath.Join(dir, "series"))
	require.Len(t, first, len(d.Series))
	// The second site has one series fewer: its page goes.
	fewer := *d
	fewer.Series = d.Series[1:]
	require.NoError(t, site.Write(dir, &fewer, site.Options{}))
	assert.Len(t, dirtest.Names(t, filepath.Join(dir, "series")), len(d.Series)-1)
	for _, f := range []string{"index.html", "data/index.js", "assets/site.js", site.Marker} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	list, err := os.ReadFile(filepath.Join(dir, site.Marker))
	require.NoError(t, err)
	assert.Contains(t, string(list), "\nindex.html\n", "the manifest lists the site's files")
	assert.Contains(t, string(list), "\ndata/chunk-000.js\n")

	foreign := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "index.html"), []byte("mine"), 0o644))
	err = site.Write(foreign, d, site.Options{})
	var fe *site.ForeignError
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "index.html", fe.File)
	assert.Contains(t, err.Error(), "holds index.html, which the site would overwrite and no earlier mbopt site wrote")
	b, err := os.ReadFile(filepath.Join(foreign, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b), "left untouched")
	assert.Equal(t, []string{"index.html"}, dirtest.Names(t, foreign), "nothing written")
	require.NoError(t, site.Write(foreign, d, site.Options{Force: true}))
	b, err = os.ReadFile(filepath.Join(foreign, "index.html"))
	require.NoError(t, err)
	assert.NotEqual(t, "mine", string(b), "Force overwrites it")

	err = site.Write(filepath.Join(t.TempDir(), "x"), d, site.Options{CommitURL: "javascript:alert(1)//{commit}"})
	assert.ErrorContains(t, err, "must be an http or https URL")
}

// TestWriteKeepsOtherFiles: a site directory that also holds other files
// (the history database, a Pages CNAME, the --plot figures, a file in
// series/) keeps them through two sites (issue 31 item 2: history --html
// deleted everything in the directory it did not write, the history
// database included), and so does a site written before the manifest.
func TestWriteKeepsOtherFiles(t *testing.T) {
	d := fixtureData(t, false)
	others := map[string]string{
		"CNAME":                  "bench.example.com\n",
		"history.db":             "SQLite format 3\x00…",
		"history.db-wal":         "wal",
		"BenchmarkQuery-sec.svg": "<svg/>",
		"series/notes.txt":       "mine",
	}
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "manifest", true: "site before the manifest"}[legacy], func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range others {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
			}
			if legacy {
				// What the old Write left: its marker and its files, one
				// of them a page the new site has not.
				require.NoError(t, os.WriteFile(filepath.Join(dir, site.Marker), []byte("an mbopt history site: mbopt history --html replaces this directory as a whole\n"), 0o644))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "series", "gone-0123abcd.html"), nil, 0o644))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("old"), 0o644))
			}
			for range 2 {
				require.NoError(t, site.Write(dir, d, site.Options{}))
				for name, data := range others {
					b, err := os.ReadFile(filepath.Join(dir, name))
					require.NoError(t, err, name)
					assert.Equal(t, data, string(b), name)
				}
				assert.FileExists(t, filepath.Join(dir, "index.html"))
			}
			assert.NoFileExists(t, filepath.Join(dir, "series", "gone-0123abcd.html"))
			for _, n := range dirtest.Names(t, dir) {
				assert.False(t, strings.Contains(n, ".tmp-"), "a temporary file is left: %s", n)
			}
		})
	}
}

// TestWriteStaysInside: a symbolic link in the site directory leads the
// site's files nowhere outside it.
func TestWriteStaysInside(t *testing.T) {
	d := fixtureData(t, false)
	dir, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "series")))
	require.Error(t, site.Write(dir, d, site.Options{Force: true}))
	assert.Empty(t, dirtest.Names(t, outside), "nothing written through the link")
}

// firstLoad is what a browser downloads to show the overview: the page,
// the assets and the first data chunk.
var firstLoad = []string{"index.html", "assets/site.css", "assets/site.js", "assets/favicon.svg", "data/index.js", "data/chunk-000.js"}

// TestPageWeight checks the overview of 500 series × 200 commits stays
// under 5 MB on the wire (docs/ci/history.md gives the figures).
func TestPageWeight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 500 series × 200 commits")
	}
	files, err := site.Files(syntheticData(t, 500, 200), site.Options{CommitURL: "https://github.com/o/r/commit/{commit}"})
	require.NoError(t, err)
	sizes := map[string]int{}
	total := 0
	for _, f := range files {
		sizes[f.Name] = len(f.Data)
		total += len(f.Data)
	}
	first := 0
	for _, n := range firstLoad {
		first += sizes[n]
	}
	t.Logf("first load %d bytes (index.js %d, chunk-000.js %d), whole site %d bytes in %d files", first, sizes["data/index.js"], sizes["data/chunk-000.js"], total, len(files))
	assert.Less(t, first, 5<<20, "first load")
}

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "site-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	d := &site.Data{
		Title:    "example.com/m",
		Baseline: site.Commit{Hash: "1111111111111111111111111111111111111111"},
		Commits:  []site.Commit{{Hash: "2222222222222222222222222222222222222222"}, {Hash: "3333333333333333333333333333333333333333"}},
		Series: []site.Series{{
			ID: "example.com/m.BenchmarkQuery", Package: "example.com/m", Name: "BenchmarkQuery", Unit: "sec/op",
			Impact: &site.Impact{Reference: 0.4},
			Points: []site.Point{
				{Commit: 0, Point: detect.Point{Change: 0.001, CI: benchstats.Interval{Low: -0.004, High: 0.006}}, Threshold: 0.02},
				{Commit: 1, Point: detect.Point{Change: 0.09, CI: benchstats.Interval{Low: 0.085, High: 0.095}}, Threshold: 0.02, Verdict: benchstats.DefiniteRegression},
			},
			Detections: []detect.Detection{{Index: 1, Kind: detect.Jump, Direction: detect.Up, Change: 0.089, Threshold: 0.02, Definite: true}},
		}},
	}
	if err := site.Write(filepath.Join(dir, "site"), d, site.Options{CommitURL: "https://github.com/example/m/commit/{commit}"}); err != nil {
		panic(err)
	}
	err = filepath.WalkDir(filepath.Join(dir, "site"), func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(dir, "site"), p)
			fmt.Println(filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// .mbopt-site
	// assets/favicon.svg
	// assets/site.css
	// assets/site.js
	// data/chunk-000.js
	// data/index.js
	// index.html
	// series/example.com_m.BenchmarkQuery_sec_op-d588824e.html
}

// TestDrawsItsOwnCharts checks the site imports no plotting library: its
// charts are SVG its script draws, and only the report's figures use
// gonum/plot.
func TestDrawsItsOwnCharts(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "github.com/mbopt/mbopt/report/site").Output()
	require.NoError(t, err)
	for _, imp := range strings.Fields(string(out)) {
		assert.False(t, strings.HasPrefix(imp, "gonum.org/v1/plot"), "report/site imports %s", imp)
	}
}

func TestWriteRefusesFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "history.db")
	require.NoError(t, os.WriteFile(file, []byte("data"), 0o644))
	for _, force := range []bool{false, true} {
		err := site.Write(file, fixtureData(t, false), site.Options{Force: force})
		var fe *site.ForeignError
		require.True(t, errors.As(err, &fe), "%v", err)
		assert.True(t, fe.NotDir)
		b, _ := os.ReadFile(file)
		assert.Equal(t, "data", string(b), "the file is untouched")
	}
}
