package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// figure62Collection writes the Figure 6.2 profiles as a collection with a
// manifest and returns the app profile and the collection directory.
func figure62Collection(t *testing.T) (app, micro string) {
	t.Helper()
	a, b1, b2 := proftest.Figure62()
	dir := t.TempDir()
	app = writeProfile(t, dir, "app.pprof", a)
	micro = filepath.Join(dir, "profiles")
	require.NoError(t, os.Mkdir(micro, 0o755))
	writeProfile(t, micro, "one.pprof", b1)
	writeProfile(t, micro, "two.pprof", b2)
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: proftest.Figure62Module, BenchTime: "1s",
		Benchmarks: []manifest.Entry{
			{ID: "example.com/fig/app.BenchmarkOne", Package: "example.com/fig/app", Dir: "app", Name: "BenchmarkOne", Status: manifest.StatusOK, Profile: "one.pprof", WallSeconds: 1},
			{ID: "example.com/fig/other.BenchmarkTwo/n=1", Package: "example.com/fig/other", Dir: "other", Name: "BenchmarkTwo/n=1", Status: manifest.StatusOK, Profile: "two.pprof", WallSeconds: 1},
		}}
	require.NoError(t, m.Write(micro))
	return app, micro
}

func TestSuiteCommand(t *testing.T) {
	app, micro := figure62Collection(t)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "go test -run '^$' -bench '^BenchmarkOne$' example.com/fig/app\n" +
			"go test -run '^$' -bench '^BenchmarkTwo$/^n=1$' example.com/fig/other\n"},
		{[]string{"--format", "list"}, "example.com/fig/app BenchmarkOne\nexample.com/fig/other BenchmarkTwo/n=1\n"},
		{[]string{"--top", "1", "--format", "list"}, "example.com/fig/other BenchmarkTwo/n=1\n"},
	}
	for _, tt := range tests {
		args := append([]string{"suite", "--app", app, "--micro", micro}, tt.args...)
		code, out, errOut := run(t, args...)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, tt.want, out, "%v", tt.args)
	}
	code, _, errOut := run(t, "suite", "--app", app, "--micro", micro, "--format", "yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "valid values are {shell|json|list}")
}

// TestSuiteHelpFlags: suite --help lists exactly the flags that change the
// suite or its output; the analysis flags it ignores are accepted but not
// listed.
func TestSuiteHelpFlags(t *testing.T) {
	code, out, errOut := run(t, "suite", "--help")
	require.Equal(t, 0, code, errOut)
	var listed []string
	for _, line := range strings.Split(out[strings.Index(out, "\nFlags:\n"):strings.Index(out, "\nGlobal Flags:")], "\n") {
		if i := strings.Index(line, "--"); i >= 0 && strings.HasPrefix(strings.TrimSpace(line), "-") {
			listed = append(listed, strings.Fields(line[i+2:])[0])
		}
	}
	assert.ElementsMatch(t, []string{
		"allow-empty", "allow-non-cpu", "app", "app-cover", "budget", "changed-since", "costs", "default-cost", "exclude", "format", "help", "impact",
		"history", "max-decoded-bytes", "max-instability", "max-profile-bytes", "micro", "min-gain", "module", "nodes", "objective",
		"only-affected", "output", "strict", "top", "weight",
	}, listed)
	for _, name := range suiteIgnores {
		assert.NotContains(t, listed, name)
	}
	// A hidden flag is still accepted, so one flag set serves every
	// command, and changes nothing.
	app, micro := figure62Collection(t)
	_, plain, _ := run(t, "suite", "--app", app, "--micro", micro)
	code, out, errOut = run(t, "suite", "--app", app, "--micro", micro, "--recommend", "3", "--certify")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, plain, out)
}
