package reference_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/reference"
	"github.com/mbopt/mbopt/testkit/proftest"
)

func profileBytes(t *testing.T) []byte {
	t.Helper()
	app, _, _ := proftest.Figure62()
	var buf bytes.Buffer
	require.NoError(t, app.Write(&buf))
	return buf.Bytes()
}

func TestProfileURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:6060", "http://127.0.0.1:6060/debug/pprof/profile?seconds=30"},
		{"http://127.0.0.1:6060/", "http://127.0.0.1:6060/debug/pprof/profile?seconds=30"},
		{"http://h/custom/profile", "http://h/custom/profile?seconds=30"},
		{"http://h/debug/pprof/profile?seconds=5", "http://h/debug/pprof/profile?seconds=5"},
	}
	for _, tt := range tests {
		got, err := reference.ProfileURL(tt.in, 30)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "ProfileURL(%q)", tt.in)
	}
	_, err := reference.ProfileURL("ftp://h", 30)
	assert.ErrorContains(t, err, "want http")
}

func TestCapture(t *testing.T) {
	data := profileBytes(t)
	var gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/debug/pprof/profile":
			gotQuery = r.URL.RawQuery
			w.Write(data)
		case "/garbage":
			io.WriteString(w, "<html>not a profile</html>")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()

	out := filepath.Join(dir, "app.pprof")
	require.NoError(t, reference.Capture(context.Background(), srv.URL, 1, out))
	assert.Equal(t, "seconds=1", gotQuery)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, data, got)

	bad := filepath.Join(dir, "bad.pprof")
	err = reference.Capture(context.Background(), srv.URL+"/missing", 1, bad)
	assert.ErrorContains(t, err, "404")
	err = reference.Capture(context.Background(), srv.URL+"/garbage", 1, bad)
	assert.ErrorContains(t, err, "unrecognized profile format")
	_, err = os.Stat(bad)
	assert.True(t, os.IsNotExist(err), "nothing written on failure")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file left behind")
}

func TestFindPGO(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"cmd/server/default.pgo", "cmd/cli/default.pgo", "vendor/x/default.pgo", "testdata/default.pgo", ".git/default.pgo"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644))
	}
	got, err := reference.FindPGO(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "cmd/cli/default.pgo"), filepath.Join(dir, "cmd/server/default.pgo")}, got)

	_, err = reference.FindPGO(t.TempDir())
	assert.ErrorContains(t, err, "no default.pgo")
}

// srcProfile writes a profile as src.pprof in a new temporary directory,
// for a workload to copy, and returns both.
func srcProfile(t *testing.T) (dir, src string) {
	t.Helper()
	dir = t.TempDir()
	src = filepath.Join(dir, "src.pprof")
	require.NoError(t, os.WriteFile(src, profileBytes(t), 0o644))
	return dir, src
}

func TestRun(t *testing.T) {
	dir, src := srcProfile(t)
	out := filepath.Join(dir, "app.pprof")
	var log bytes.Buffer

	require.NoError(t, reference.Run(context.Background(), "echo working; cp "+src+" {profile}", dir, out, time.Minute, &log))
	assert.Equal(t, "working\n", log.String())
	_, err := os.Stat(out)
	assert.NoError(t, err)

	tests := []struct {
		name, cmd string
		timeout   time.Duration
		want      string
	}{
		{"no placeholder", "true", 0, "must contain {profile}"},
		{"fails", "exit 3 # {profile}", 0, "exit status 3"},
		{"writes nothing", "true {profile}", 0, "wrote no profile"},
		{"writes garbage", "echo hi > {profile}", 0, "unrecognized profile format"},
		{"env var", `cp ` + src + ` "$MBOPT_CPUPROFILE"; exit 1 # {profile}`, 0, "exit status 1"},
		{"hangs", "sleep 30 # {profile}", 300 * time.Millisecond, "timed out after 300ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outDir := t.TempDir()
			out := filepath.Join(outDir, "app.pprof")
			err := reference.Run(context.Background(), tt.cmd, dir, out, tt.timeout, io.Discard)
			assert.ErrorContains(t, err, tt.want)
			left, _ := os.ReadDir(outDir)
			assert.Empty(t, left, "no profile and no temporary file on failure")
		})
	}
}

// TestRunKillsBackgroundProcesses: a workload that leaves a process running
// in the background (a server it forgot to stop) does not leave it behind.
func TestRunKillsBackgroundProcesses(t *testing.T) {
	dir, src := srcProfile(t)
	pidFile := filepath.Join(dir, "pid")
	out := filepath.Join(dir, "app.pprof")
	start := time.Now()
	require.NoError(t, reference.Run(context.Background(), "cp "+src+" {profile}; sleep 60 & echo $! > "+pidFile, dir, out, time.Minute, io.Discard))
	assert.Less(t, time.Since(start), 30*time.Second, "Run waited for the background process")
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid := strings.TrimSpace(string(data))
	assert.Eventually(t, func() bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return true
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		return len(f) > 0 && f[0] == "Z"
	}, 5*time.Second, 20*time.Millisecond, "background process %s still running", pid)
}

// TestCheckSet: the function set's file must be named and writable, and
// not be the CPU profile the workload writes beside it.
func TestCheckSet(t *testing.T) {
	dir := t.TempDir()
	workload := []string{"sh", "-c", "load " + reference.Placeholder}
	tests := []struct {
		name string
		args []string
		set  string
		want string // part of the error, "" for none
	}{
		{"a new file", workload, filepath.Join(dir, "app.cover.json"), ""},
		{"unnamed", workload, "", "Config.Set must name the function set file to write"},
		{"a directory", workload, dir, "is a directory"},
		{"the profile", workload, filepath.Join(dir, "app.pprof"), "{profile} is the Config.Set file with .pprof for its extension"},
		{"no profile written", []string{"load"}, filepath.Join(dir, "app.pprof"), ""},
	}
	for _, tt := range tests {
		co := reference.CoverOptions{Args: tt.args, Profile: reference.CoverProfile(tt.set)}
		err := co.CheckSet("Set", tt.set)
		if tt.want == "" {
			assert.NoError(t, err, tt.name)
		} else if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
		}
	}
}
