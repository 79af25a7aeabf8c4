package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/testkit/hostile"
)

func TestFileName(t *testing.T) {
	tests := []struct {
		name, mod, pkg, bench, want string
	}{
		{"sub-benchmark", "example.com/tinytsdb", "example.com/tinytsdb/storage", "BenchmarkEncode/n=100",
			"storage.BenchmarkEncode_n=100-"},
		{"root package", "example.com/tinytsdb", "example.com/tinytsdb", "BenchmarkX", "tinytsdb.BenchmarkX-"},
		{"nested package", "example.com/m", "example.com/m/a/b", "BenchmarkX", "a_b.BenchmarkX-"},
		{"outside the module", "example.com/m", "other.org/p", "BenchmarkX", "other.org_p.BenchmarkX-"},
		{"metacharacters", "m", "m/p", "BenchmarkA/$x*(y)|'z' #01", "p.BenchmarkA__x__y___z___01-"},
		{"unicode", "m", "m/p", "BenchmarkA/héllo", "p.BenchmarkA_h__llo-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProfileName(tt.mod, tt.pkg, tt.bench)
			if !strings.HasPrefix(got, tt.want) || !strings.HasSuffix(got, ".pprof") || len(got) != len(tt.want)+8+len(".pprof") {
				t.Errorf("ProfileName(%q, %q, %q) = %q, want %q + 8 hex digits + .pprof", tt.mod, tt.pkg, tt.bench, got, tt.want)
			}
		})
	}
}

func TestFileNameUnique(t *testing.T) {
	names := map[string]string{}
	for _, id := range [][2]string{
		{"m/a", "BenchmarkX/y"}, {"m/a", "BenchmarkX_y"}, {"m/a", "BenchmarkX y"},
		{"m/a", "BenchmarkFoo"}, {"m/b", "BenchmarkFoo"}, {"m/a_b", "BenchmarkFoo"}, {"m/a/b", "BenchmarkFoo"},
	} {
		f := ProfileName("m", id[0], id[1])
		if other, dup := names[f]; dup {
			t.Errorf("ProfileName(%v) = %q, same as for %s", id, f, other)
		}
		names[f] = id[0] + "." + id[1]
	}
}

func TestFileNameLong(t *testing.T) {
	f := ProfileName("m", "m/p", "BenchmarkX/"+strings.Repeat("long-", 100))
	assert.LessOrEqual(t, len(f), 120+1+8+len(".pprof"))
	assert.NotEqual(t, f, ProfileName("m", "m/p", "BenchmarkX/"+strings.Repeat("long-", 101)), "truncated names stay distinct")
}

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{
		Module: "example.com/m", GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		VCSRevision: "abc", BenchTime: "1s",
		Benchmarks: []Entry{
			{ID: "example.com/m/z.BenchmarkA", Package: "example.com/m/z", Dir: "z", Name: "BenchmarkA", Status: StatusTimeout, Error: "timed out", Log: "logs/x.log"},
			{ID: "example.com/m/a.BenchmarkB/n=1", Package: "example.com/m/a", Dir: "a", Name: "BenchmarkB/n=1", Status: StatusOK,
				Profile: "a.BenchmarkB_n=1-12345678.pprof", Samples: 3, WallSeconds: 1.5, NsPerOp: 12.25, Iterations: 1000, BenchTime: "1s", TestBinary: "sha256:00"},
			{ID: "example.com/m/a.BenchmarkB", Package: "example.com/m/a", Dir: "a", Name: "BenchmarkB", Status: StatusBuildFailed},
		},
	}
	require.NoError(t, m.Write(dir))
	got, err := Load(dir)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, got.Version)
	assert.Equal(t, m, got)
	assert.Equal(t, []string{"example.com/m/a.BenchmarkB", "example.com/m/a.BenchmarkB/n=1", "example.com/m/z.BenchmarkA"},
		[]string{got.Benchmarks[0].ID, got.Benchmarks[1].ID, got.Benchmarks[2].ID}, "sorted by package, then name")
	assert.Equal(t, 1, got.Count(StatusOK))
	assert.Len(t, got.Problems(), 2)
	e, ok := got.Lookup("example.com/m/a.BenchmarkB/n=1")
	assert.True(t, ok)
	assert.Equal(t, 12.25, e.NsPerOp)
	_, ok = got.Lookup("example.com/m/a.BenchmarkB/n=2")
	assert.False(t, ok)

	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, files, 1, "no temporary file is left behind")
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	assert.Contains(t, string(data), `"wall_seconds": 1.5`)
	assert.Contains(t, string(data), `"test_binary": "sha256:00"`)
	assert.NotContains(t, string(data), `"vcs_modified"`, "false is omitted")
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"not JSON", "{", "parsing manifest"},
		{"other version", `{"version": 4}`, "manifest version 4, want 1, 2 or 3"},
		{"unknown scope", `{"version": 2, "source": "cover", "scope": "loop"}`, `unknown scope "loop"`},
		{"timed profiles", `{"version": 3, "scope": "timed"}`, `scope "timed" in a manifest of source "profile": only function sets`},
		{"timed as version 2", `{"version": 2, "source": "cover", "scope": "timed"}`, `manifest version 2 with scope "timed": version 3 is the version of scope "timed"`},
		{"version 3 of all", `{"version": 3, "source": "cover"}`, `manifest version 3 with scope "all"`},
		{"unknown source", `{"version": 2, "source": "trace"}`, `unknown source "trace"`},
		{"functions in instructions", `{"version": 3, "source": "instructions", "scope": "timed", "benchmarks": [{"id": "m.BenchmarkA", "status": "ok", "functions": "a.funcs.json"}]}`, `a manifest of source "instructions" names a function set file`},
		{"profile in cover", `{"version": 2, "source": "cover", "benchmarks": [{"id": "m.BenchmarkA", "status": "ok", "profile": "a.pprof"}]}`, `benchmark m.BenchmarkA: a manifest of source "cover" names a profile file`},
		{"functions in profile", `{"version": 1, "benchmarks": [{"id": "m.BenchmarkA", "status": "ok", "functions": "a.funcs.json"}]}`, `a manifest of source "profile" names a function set file`},
		{"functions escape", `{"version": 2, "source": "cover", "benchmarks": [{"id": "m.BenchmarkA", "status": "ok", "functions": "../a.funcs.json"}]}`, `functions "../a.funcs.json" is outside`},
		{"duplicate id", `{"version": 1, "benchmarks": [{"id": "m.BenchmarkA"}, {"id": "m.BenchmarkA"}]}`, `duplicate benchmark id "m.BenchmarkA"`},
		{"no id", `{"version": 1, "benchmarks": [{"name": "BenchmarkA"}]}`, `benchmark 0 ("BenchmarkA") has no id`},
		{"shard index past count", `{"version": 1, "shard": {"index": 3, "count": 3, "total": 1, "benchmarks": 1}}`, "shard 3 of 3 (1 of 1 benchmarks) is not a shard"},
		{"shard share larger than the partition", `{"version": 1, "shard": {"index": 0, "count": 2, "total": 1, "benchmarks": 2}}`, "shard 0 of 2 (2 of 1 benchmarks) is not a shard"},
		{"profile escapes", `{"version": 1, "benchmarks": [{"id": "m.BenchmarkA", "status": "ok", "profile": "../../x.pprof"}]}`, `benchmark m.BenchmarkA: profile "../../x.pprof" is outside the manifest's directory`},
		{"absolute profile", `{"version": 1, "benchmarks": [{"id": "m.BenchmarkA", "status": "ok", "profile": "/etc/passwd"}]}`, `profile "/etc/passwd" is outside`},
		{"log escapes", `{"version": 1, "benchmarks": [{"id": "m.BenchmarkA", "status": "failed", "log": "logs/../../x.log"}]}`, `log "logs/../../x.log" is outside`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, FileName), []byte(tt.content), 0o644))
			_, err := Load(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), FileName, "the error names the file")
		})
	}
	_, err := Load(t.TempDir())
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestCoverManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Module: "example.com/m", BenchTime: "1x", Source: SourceCover, Benchmarks: []Entry{
		{ID: "example.com/m/a.BenchmarkB", Package: "example.com/m/a", Dir: "a", Name: "BenchmarkB", Status: StatusOK,
			Functions: FunctionsName("example.com/m", "example.com/m/a", "BenchmarkB"), FunctionsSHA256: "ab", BenchTime: "1x", WallSeconds: 0.1},
	}}
	require.NoError(t, m.Write(dir))
	got, err := Load(dir)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersionCover, got.Version, "a manifest of function sets is version 2")
	assert.Equal(t, m, got)
	assert.True(t, got.IsCover())
	assert.Equal(t, "a.BenchmarkB-"+ProfileName("example.com/m", "example.com/m/a", "BenchmarkB")[len("a.BenchmarkB-"):len("a.BenchmarkB-")+8]+".funcs.json", got.Benchmarks[0].Functions)
	assert.Empty(t, got.Costs(), "a one-pass coverage run says nothing of a benchmark's cost")

	m.Source = ""
	m.Benchmarks = nil
	require.NoError(t, m.Write(dir))
	got, err = Load(dir)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, got.Version, "profile manifests stay version 1")
}

// TestTimedManifestRoundTrip checks that only a cover or instructions
// manifest of the timed scope is version 3, which readers of versions 1
// and 2 refuse, and that an instructions manifest is never version 1.
func TestTimedManifestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		source  Source
		scope   Scope
		version int
	}{
		{SourceCover, ScopeTimed, SchemaVersionTimed},
		{SourceCover, ScopeAll, SchemaVersionCover},
		{SourceCover, "", SchemaVersionCover},
		{SourceInstructions, ScopeTimed, SchemaVersionTimed},
		{SourceInstructions, ScopeAll, SchemaVersionCover},
		{"", "", SchemaVersion},
	} {
		dir := t.TempDir()
		m := &Manifest{Module: "example.com/m", BenchTime: "10x", Source: tc.source, Scope: tc.scope}
		require.NoError(t, m.Write(dir))
		got, err := Load(dir)
		require.NoError(t, err)
		assert.Equal(t, tc.version, got.Version, "%s/%s", tc.source, tc.scope)
		assert.Equal(t, tc.scope == ScopeTimed, got.IsTimed())
		assert.Equal(t, m, got)
	}
}

func TestCosts(t *testing.T) {
	m := &Manifest{Benchmarks: []Entry{
		{ID: "m.BenchmarkWall", Profile: "a.pprof", WallSeconds: 1.5, NsPerOp: 10, Iterations: 10},
		{ID: "m.BenchmarkNs", Profile: "b.pprof", NsPerOp: 2e6, Iterations: 500},
		{ID: "m.BenchmarkNone", Profile: "c.pprof"},
		{ID: "m.BenchmarkFailed", Status: StatusFailed, WallSeconds: 3},
	}}
	assert.Equal(t, map[string]float64{"m.BenchmarkWall": 1.5, "m.BenchmarkNs": 1}, m.Costs())
}

// TestProfileNameHostile: profiles and function sets named after hostile
// sub-benchmarks are plain files in the collection's directory, each its
// own (issue 25: file names derived from benchmark names).
func TestProfileNameHostile(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range hostile.Names {
		for _, f := range []string{ProfileName("example.com/m", "example.com/m/p", hostile.Sub(name)), FunctionsName("example.com/m", "example.com/m/p", hostile.Sub(name))} {
			hostile.CheckFileName(t, f, 120+1+8+len(".funcs.json"))
			assert.False(t, seen[f], "%q twice", f)
			seen[f] = true
		}
	}
}
