package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/relevance/covdata"
)

func TestCoverAppUsage(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing to run", []string{"cover-app"}, "needs the workload after --"},
		{"both", []string{"cover-app", "--gocoverdir", empty, "--", "./cmd/x"}, "not both"},
		{"no output", []string{"cover-app", "-o", "", "--", "./cmd/x"}, "-o must name"},
		{"empty gocoverdir", []string{"cover-app", "--gocoverdir", empty, "-o", filepath.Join(empty, "x.json")}, "no coverage data"},
		{"not a directory", []string{"cover-app", "--gocoverdir", filepath.Join(empty, "missing"), "-o", filepath.Join(empty, "x.json")}, "not a coverage data directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != cli.BadInput || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("mbopt %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, stderr.String(), cli.BadInput, tc.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("mbopt %s wrote to stdout: %q", strings.Join(tc.args, " "), stdout.String())
			}
		})
	}
}

// TestCoverAppExample runs the example's application workload briefly
// with coverage and a CPU profile, and checks that the function set holds
// every project function the profile sampled, named alike, and none of the
// driver's (package main).
func TestCoverAppExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example application")
	}
	out := filepath.Join(t.TempDir(), "app.cover.json")
	t.Chdir("../../testdata/example")
	var stdout, stderr bytes.Buffer
	code := Main([]string{"cover-app", "-o", out, "--", "./cmd/appbench", "-duration", "1s", "-cpuprofile", "{profile}"}, strings.NewReader(""), &stdout, &stderr)
	if code != cli.OK {
		t.Fatalf("cover-app: exit %d, stderr:\n%s", code, stderr.String())
	}
	set, err := covdata.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range set.Funcs {
		if strings.Contains(f.Name, "/cmd/appbench.") {
			t.Errorf("the set holds the driver's %s; main packages are left out", f.Name)
		}
	}
	prof := strings.TrimSuffix(out, ".json") + ".pprof"
	if _, err := os.Stat(prof); err != nil {
		t.Fatalf("{profile} was not written: %v", err)
	}
	code = Main([]string{"analyze", "--app", prof, "--app-cover", out, "--micro", "../profiles/example/micro", "--module", "example.com/tinytsdb", "--recommend", "0", "--format", "json"}, strings.NewReader(""), &stdout, &stderr)
	if code != cli.OK {
		t.Fatalf("analyze --app-cover: exit %d, stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "0 only in the profile") {
		t.Errorf("analyze --app-cover: the coverage run missed functions the profile sampled:\n%s", stderr.String())
	}
}

// TestCoverAppOutputCheckedFirst: an -o that cannot be written is found
// before the workload runs, not after (issue 25 item 3); so is an -o that
// {profile} would overwrite.
func TestCoverAppOutputCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing directory", []string{"-o", filepath.Join(dir, "missing", "app.cover.json"), "--", "sh", "-c", "touch " + marker},
			"-o " + filepath.Join(dir, "missing", "app.cover.json") + ": the directory " + filepath.Join(dir, "missing") + " does not exist"},
		{"a directory", []string{"-o", dir, "--", "sh", "-c", "touch " + marker}, "-o " + dir + ": is a directory"},
		{"-o is the profile", []string{"-o", filepath.Join(dir, "app.pprof"), "--", "sh", "-c", "touch " + marker + " {profile}"},
			"{profile} is the -o file with .pprof for its extension, which is -o itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(append([]string{"cover-app"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
			if code != cli.BadInput || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), cli.BadInput, tc.want)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the workload ran before -o was checked")
			}
		})
	}
}
