package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyExample copies the example's application profile and benchmark
// profiles into a temporary directory, so tests may aim -o at them.
func copyExample(t *testing.T) (app, micro string) {
	t.Helper()
	dir := t.TempDir()
	app = filepath.Join(dir, "app.pprof")
	data, err := os.ReadFile(exampleDir + "/app.pprof")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(app, data, 0o644))
	micro = filepath.Join(dir, "micro")
	require.NoError(t, os.Mkdir(micro, 0o755))
	entries, err := os.ReadDir(exampleDir + "/micro")
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(exampleDir, "micro", e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(micro, e.Name()), data, 0o644))
	}
	return app, micro
}

// -o naming an input is refused (7.6): the input stays as it was.
func TestOutputOntoAnInputIsRefused(t *testing.T) {
	app, micro := copyExample(t)
	link := filepath.Join(t.TempDir(), "link.json")
	require.NoError(t, os.Symlink(app, link))
	costs := filepath.Join(t.TempDir(), "costs.csv")
	require.NoError(t, os.WriteFile(costs, []byte("id,seconds\n"), 0o644))
	bench := filepath.Join(micro, "query__BenchmarkQuery.pprof")
	tests := []struct {
		name, output, input string
		extra               []string
	}{
		{"the application profile", app, app, nil},
		{"a link to the application profile", link, app, nil},
		{"a benchmark profile in --micro", bench, bench, nil},
		{"a --micro file", bench, bench, []string{"--micro", bench}},
		{"the --costs file", costs, costs, []string{"--costs", costs}},
	}
	for _, cmd := range []string{"analyze", "suite"} {
		for _, tt := range tests {
			t.Run(cmd+" "+tt.name, func(t *testing.T) {
				before, err := os.ReadFile(tt.input)
				require.NoError(t, err)
				args := append([]string{cmd, "--app", app, "--micro", micro, "--module", "example.com/tinytsdb", "-o", tt.output}, tt.extra...)
				code, stdout, stderr := run(t, args...)
				assert.Equal(t, cli.BadInput, code, stderr)
				assert.Empty(t, stdout)
				assert.Contains(t, stderr, "-o "+tt.output+" is the input "+tt.input+": writing the result there would overwrite it")
				after, err := os.ReadFile(tt.input)
				require.NoError(t, err)
				assert.Equal(t, before, after, "the input is untouched")
			})
		}
	}
}

// -o onto a symbolic link writes its target and keeps the link; -o onto an
// existing file keeps its mode (atomicfile's rules, through the command).
func TestOutputKeepsLinksAndModes(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink("target.json", link))

	code, _, stderr := run(t, exampleArgs("--format", "json", "-o", link)...)
	require.Equal(t, 0, code, stderr)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode()&os.ModeSymlink, "the link stays a link")
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"minimal_suite"`, "the target holds the result")
	fi, err = os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "an existing file keeps its mode")

	private := filepath.Join(dir, "private.txt")
	require.NoError(t, os.WriteFile(private, nil, 0o600))
	code, _, stderr = run(t, exampleArgs("-o", private)...)
	require.Equal(t, 0, code, stderr)
	fi, err = os.Stat(private)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	assert.Positive(t, fi.Size())
}

// --cpuprofile is written only when the command succeeds (7.17): a failed
// run leaves neither the profile nor a temporary file.
func TestCPUProfileOnlyAfterSuccess(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "mbopt.pprof")
	code, _, stderr := run(t, append([]string{"--cpuprofile", prof}, exampleArgs("--format", "json", "-o", os.DevNull)...)...)
	require.Equal(t, 0, code, stderr)
	f, err := os.Open(prof)
	require.NoError(t, err)
	_, err = profile.Parse(f)
	f.Close()
	require.NoError(t, err, "a complete CPU profile")

	failed := filepath.Join(dir, "failed.pprof")
	code, _, _ = run(t, "--cpuprofile", failed, "analyze", "--app", filepath.Join(dir, "missing.pprof"), "--micro", exampleDir+"/micro")
	assert.Equal(t, cli.BadInput, code)
	assert.NoFileExists(t, failed)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "only the first run's profile, no temporary file")
}
