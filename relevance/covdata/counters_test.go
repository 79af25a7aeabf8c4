package covdata_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/covdata"
)

// TestReadCountersCommitted reads the committed coverage data directories
// of testdata/covdirs (testdata/mod's benchmark run with -covermode set,
// count twice into one directory, and atomic; see testdata/covdirs/README)
// and compares the text with what go tool covdata textfmt printed for them,
// committed next to them.
func TestReadCountersCommitted(t *testing.T) {
	for _, mode := range []string{"set", "count", "atomic"} {
		t.Run(mode, func(t *testing.T) {
			dir := filepath.Join("testdata", "covdirs", mode)
			c, err := covdata.ReadCounters(dir)
			require.NoError(t, err)
			assert.Equal(t, mode, c.Mode)
			want, err := os.ReadFile(dir + ".txt")
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, c.WriteText(&got))
			assert.Equal(t, string(want), got.String())
		})
	}
}

// TestReadCountersMatchesTextfmt builds every fixture module's benchmarks
// with -cover in each counter mode, runs them into a coverage data
// directory (twice into one, for two counter files) and checks that
// ReadCounters gives, byte for byte, the text go tool covdata textfmt
// prints for the same directory.
func TestReadCountersMatchesTextfmt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture modules' benchmarks with -cover")
	}
	for _, tc := range []struct {
		name, mod, pkg, mode, bench string
		runs                        int
	}{
		{"mod/set", mod, "./store", "set", ".", 1},
		{"mod/count", mod, "./store", "count", ".", 2},
		{"mod/atomic", mod, "./store", "atomic", ".", 1},
		{"example/storage", "../../testdata/example", "./storage", "count", ".", 1},
		{"example/httpapi", "../../testdata/example", "./httpapi", "atomic", ".", 2},
		{"faults/healthy", "../../testdata/faults", "./healthy", "set", "Fast|Sub", 1},
		{"timed", "../../testdata/timed", "./app", "atomic", ".", 2},
		{"heavysetup", "../../testdata/heavysetup", "./index", "count", "Lookup", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			bin := filepath.Join(tmp, "pkg.test")
			goRun(t, tc.mod, "test", "-c", "-cover", "-covermode="+tc.mode, "-coverpkg=./...", "-o", bin, tc.pkg)
			covdir := filepath.Join(tmp, "cov")
			require.NoError(t, os.Mkdir(covdir, 0o755))
			for range tc.runs {
				cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", tc.bench, "-test.benchtime", "2x", "-test.gocoverdir", covdir)
				cmd.Dir = filepath.Join(tc.mod, tc.pkg)
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "%s", out)
			}
			want := filepath.Join(tmp, "textfmt.txt")
			goRun(t, tc.mod, "tool", "covdata", "textfmt", "-i", covdir, "-o", want)
			wantText, err := os.ReadFile(want)
			require.NoError(t, err)
			c, err := covdata.ReadCounters(covdir)
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, c.WriteText(&got))
			assert.Equal(t, string(wantText), got.String())
			assert.Greater(t, strings.Count(got.String(), "\n"), 1, "units read")
		})
	}
}

// TestReadCountersErrors checks the errors of directories that hold no
// data, or data that does not decode.
func TestReadCountersErrors(t *testing.T) {
	src := filepath.Join("testdata", "covdirs", "count")
	ents, err := os.ReadDir(src)
	require.NoError(t, err)
	copyDir := func(t *testing.T, edit func(name string, data []byte) []byte) string {
		dir := t.TempDir()
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			require.NoError(t, err)
			if data = edit(e.Name(), data); data != nil {
				require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644))
			}
		}
		return dir
	}
	keep := func(_ string, data []byte) []byte { return data }
	for _, tc := range []struct {
		name string
		edit func(name string, data []byte) []byte
		want string
	}{
		{"no meta-data", func(name string, data []byte) []byte {
			if strings.HasPrefix(name, "covmeta.") {
				return nil
			}
			return data
		}, "no coverage data"},
		{"truncated meta-data", func(name string, data []byte) []byte {
			if strings.HasPrefix(name, "covmeta.") {
				return data[:120]
			}
			return data
		}, "meta-data file: package 0 lies outside the file"},
		{"truncated counters", func(name string, data []byte) []byte {
			if strings.HasPrefix(name, "covcounters.") {
				return append(data[:40:40], data[len(data)-16:]...)
			}
			return data
		}, "counter file: segment 0 is truncated"},
		{"newer meta-data", func(name string, data []byte) []byte {
			if strings.HasPrefix(name, "covmeta.") {
				data = bytes.Clone(data)
				data[4] = 2
			}
			return data
		}, "meta-data file version 2, this mbopt reads version 1"},
		{"not a counter file", func(name string, data []byte) []byte {
			if strings.HasPrefix(name, "covcounters.") {
				return []byte("hello")
			}
			return data
		}, "counter file: no counter file header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, tc.edit)
			_, err := covdata.ReadCounters(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), dir)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	t.Run("orphan counters are ignored", func(t *testing.T) {
		dir := copyDir(t, keep)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "covcounters.00ff.1.2"), []byte("junk"), 0o644))
		_, err := covdata.ReadCounters(dir)
		require.NoError(t, err)
	})
	_, err = covdata.ReadCounters(filepath.Join(t.TempDir(), "missing"))
	assert.ErrorContains(t, err, "not a coverage data directory")
}

// FuzzReadCounters feeds mutations of the committed meta-data and counter
// files to ReadCounters: it must return data or an error, never panic.
func FuzzReadCounters(f *testing.F) {
	src := filepath.Join("testdata", "covdirs", "count")
	ents, err := os.ReadDir(src)
	if err != nil {
		f.Fatal(err)
	}
	var meta, counters []byte
	var metaName, counterName string
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		if strings.HasPrefix(e.Name(), "covmeta.") {
			meta, metaName = data, e.Name()
		} else {
			counters, counterName = data, e.Name()
		}
	}
	f.Add(meta, counters)
	f.Add(meta[:100], counters[:40])
	f.Fuzz(func(t *testing.T, m, c []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, metaName), m, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, counterName), c, 0o644); err != nil {
			t.Fatal(err)
		}
		if cs, err := covdata.ReadCounters(dir); err == nil {
			cs.WriteText(&bytes.Buffer{})
		}
	})
}

// TestGrown checks what grows between two counts: the units that ran more
// often, by how much more; units that ran as often, less often (which two
// runs of one program cannot give, but counts must not wrap), or that the
// base lacks.
func TestGrown(t *testing.T) {
	unit := func(fn string, line, count uint32) covdata.Unit {
		return covdata.Unit{Package: "m/p", File: "m/p/p.go", Func: fn, StartLine: line, StartCol: 2, EndLine: line + 1, EndCol: 3, Stmts: 1, Count: count}
	}
	base := &covdata.Counters{Mode: "atomic", Units: []covdata.Unit{unit("setup", 1, 2), unit("hot", 5, 3), unit("hot", 6, 0), unit("odd", 9, 7)}}
	c := &covdata.Counters{Mode: "atomic", Units: []covdata.Unit{unit("setup", 1, 2), unit("hot", 5, 11), unit("hot", 6, 4), unit("odd", 9, 5), unit("new", 12, 1)}}
	got := c.Grown(base)
	var counts []uint32
	for _, u := range got.Units {
		counts = append(counts, u.Count)
	}
	assert.Equal(t, []uint32{0, 8, 4, 0, 1}, counts)
	assert.Equal(t, uint32(11), c.Units[1].Count, "c is not changed")

	set := &covdata.Counters{Mode: "set", Units: []covdata.Unit{unit("hot", 5, 1)}}
	assert.Zero(t, set.Grown(&covdata.Counters{Mode: "set"}).Units[0].Count, "set mode cannot tell counts")
}

// TestGrownOnCommittedData reads the committed count-mode directory (two
// runs of testdata/mod's benchmark at 1x) against itself: nothing grows.
func TestGrownOnCommittedData(t *testing.T) {
	c, err := covdata.ReadCounters(filepath.Join("testdata", "covdirs", "count"))
	require.NoError(t, err)
	for _, u := range c.Grown(c).Units {
		assert.Zero(t, u.Count, "%s:%d", u.File, u.StartLine)
	}
}
