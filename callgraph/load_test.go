package callgraph_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/testkit/proftest"
)

const exampleApp = "../testdata/profiles/example/app.pprof"

func TestReadProfileRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := callgraph.ReadProfile(dir)
	var fe *callgraph.FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, dir, fe.Path)
	assert.ErrorIs(t, err, callgraph.ErrNotRegular)
	assert.ErrorContains(t, err, "is a directory, not a regular file")
}

func TestReadProfileMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.pprof")
	_, err := callgraph.ReadProfile(path)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.EqualError(t, err, path+": reading profile: no such file or directory (check the path)")
}

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A file over MaxFileBytes is refused from its size: a sparse file of
// 1 GiB costs no read and (almost) no allocation.
func TestFileSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.pprof")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<30))
	require.NoError(t, f.Close())

	for _, tt := range []struct {
		name   string
		limits callgraph.Limits
		max    int64
		msg    string
	}{
		{"default", callgraph.Limits{}, callgraph.DefaultLimits.MaxFileBytes, "file is 1 GiB, over the 256 MiB limit (Limits.MaxFileBytes)"},
		{"small", callgraph.Limits{MaxFileBytes: 1000}, 1000, "file is 1 GiB, over the 1000 B limit (Limits.MaxFileBytes)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			alloc := allocated(func() { _, err = tt.limits.ReadProfile(path) })
			var le *callgraph.LimitError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, callgraph.LimitError{Limit: "MaxFileBytes", Max: tt.max, Size: 1 << 30}, *le)
			assert.EqualError(t, err, path+": "+tt.msg)
			t.Logf("refused after allocating %d bytes", alloc)
			assert.Less(t, alloc, uint64(64<<10), "refused before reading: allocated %d bytes", alloc)
		})
	}

	// Load applies Options.Limits; a raised limit lets the file be read.
	small := filepath.Join(t.TempDir(), "app.pprof")
	data, err := os.ReadFile(exampleApp)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(small, data, 0o644))
	n := int64(len(data))
	_, err = callgraph.Load([]string{small}, callgraph.Options{Limits: callgraph.Limits{MaxFileBytes: n - 1}})
	assert.ErrorAs(t, err, new(*callgraph.LimitError))
	_, err = callgraph.Load([]string{small}, callgraph.Options{Limits: callgraph.Limits{MaxFileBytes: n}})
	assert.NoError(t, err)
}

// gzipBomb returns about 1 MB of gzip that expands to 1 GiB of zeros: 16
// gzip members of 64 MiB each (a gzip stream may hold several members, and
// readers decompress them all).
func gzipBomb(t *testing.T) []byte {
	t.Helper()
	var member bytes.Buffer
	zw, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	require.NoError(t, err)
	zeros := make([]byte, 1<<20)
	for range 64 {
		_, err := zw.Write(zeros)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return bytes.Repeat(member.Bytes(), 16)
}

// A gzip bomb stops decompressing at MaxDecodedBytes: the allocation stays
// near the limit, not the 1 GiB the data expands to.
func TestDecodedSizeLimit(t *testing.T) {
	bomb := gzipBomb(t)
	t.Logf("bomb: %d bytes of gzip, 1 GiB decompressed", len(bomb))
	const max = 1 << 20
	path := filepath.Join(t.TempDir(), "bomb.pprof")
	require.NoError(t, os.WriteFile(path, bomb, 0o644))

	var err error
	lim := callgraph.Limits{MaxDecodedBytes: max}
	alloc := allocated(func() { _, err = lim.ReadProfile(path) })
	var le *callgraph.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "MaxDecodedBytes", le.Limit)
	assert.Equal(t, int64(max), le.Max)
	assert.Greater(t, le.Size, le.Max)
	assert.EqualError(t, err, path+": profile decompresses to more than the 1 MiB limit (Limits.MaxDecodedBytes)")
	t.Logf("refused after allocating %d bytes", alloc)
	// The file itself (1 MB) plus a buffer of about the limit.
	assert.Less(t, alloc, uint64(len(bomb)+8*max), "allocated %d bytes", alloc)

	_, err = lim.ParseProfile("bomb.pprof", bomb)
	assert.ErrorAs(t, err, &le, "ParseProfile applies the same limit")
}

// The decoded limit is exact: a profile of n decoded bytes passes a limit
// of n and fails one of n-1, gzipped or not.
func TestDecodedSizeLimitBoundary(t *testing.T) {
	p, err := callgraph.ReadProfile(exampleApp)
	require.NoError(t, err)
	var raw, gz bytes.Buffer
	require.NoError(t, p.WriteUncompressed(&raw))
	require.NoError(t, p.Write(&gz))
	n := int64(raw.Len())
	for name, data := range map[string][]byte{"raw": raw.Bytes(), "gzip": gz.Bytes()} {
		t.Run(name, func(t *testing.T) {
			_, err := callgraph.Limits{MaxDecodedBytes: n}.ParseProfile("app.pprof", data)
			assert.NoError(t, err)
			_, err = callgraph.Limits{MaxDecodedBytes: n - 1}.ParseProfile("app.pprof", data)
			assert.ErrorAs(t, err, new(*callgraph.LimitError))
		})
	}
}

// A gzip inside a gzip is not decompressed twice (which would escape the
// limit): it fails to parse like any other non-profile.
func TestNestedGzipIsNotAProfile(t *testing.T) {
	var inner, outer bytes.Buffer
	zw := gzip.NewWriter(&inner)
	_, err := zw.Write(make([]byte, 1<<20))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	zw = gzip.NewWriter(&outer)
	_, err = zw.Write(inner.Bytes())
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	_, err = callgraph.Limits{MaxDecodedBytes: 64 << 10}.ParseProfile("nested.pprof", outer.Bytes())
	var fe *callgraph.FileError
	require.ErrorAs(t, err, &fe)
	assert.NotErrorAs(t, err, new(*callgraph.LimitError))
	assert.Contains(t, fe.Hint, "truncated or corrupt")
}

// Load and Merge agree on no input: both are ErrNoProfile errors.
func TestNoProfile(t *testing.T) {
	_, err := callgraph.Load(nil, callgraph.Options{})
	assert.ErrorIs(t, err, callgraph.ErrNoProfile)
	_, err = callgraph.Merge(nil, callgraph.Options{})
	assert.ErrorIs(t, err, callgraph.ErrNoProfile)
	_, err = callgraph.Merge(nil, callgraph.Options{AllowEmpty: true})
	assert.ErrorIs(t, err, callgraph.ErrNoProfile, "AllowEmpty is about empty profiles, not about none")
}

// Load names the file of a profile that parses but cannot be analysed.
func TestLoadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "neg.pprof")
	p := proftest.Profile(proftest.Stack{Frames: []string{"m.Main"}, Nanos: 1e7})
	p.Sample[0].Value[1] = -1
	proftest.WriteFile(t, path, p)
	_, err := callgraph.Load([]string{exampleApp, path}, callgraph.Options{})
	var fe *callgraph.FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, path, fe.Path)
	assert.ErrorIs(t, err, callgraph.ErrNegative)
}

func TestLimitErrorIsNotSilent(t *testing.T) {
	err := &callgraph.LimitError{Limit: "MaxFileBytes", Max: 256 << 20, Size: 300<<20 + 512<<10}
	assert.EqualError(t, err, "file is 300.5 MiB, over the 256 MiB limit (Limits.MaxFileBytes)")
	assert.True(t, errors.As(error(err), new(*callgraph.LimitError)))
}
