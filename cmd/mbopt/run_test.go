package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/flow"
)

// TestRunExample runs the whole pipeline on a copy of the bundled example
// module: its application workload, every benchmark, the analysis; then
// again with two workload scenarios, reusing the benchmark profiles. Each
// time the printed follow-up suite command gives the suite run chose.
func TestRunExample(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles the example module (about a minute); run without -short")
	}
	dir := filepath.Join(t.TempDir(), "example")
	require.NoError(t, os.CopyFS(dir, os.DirFS("../../testdata/example")))
	t.Setenv("CI", "true")
	code, stdout, stderr := run(t, "run", dir,
		"--app-cmd", "go run ./cmd/appbench -duration 2s -cpuprofile {profile}", "--app-runs", "2",
		"--benchtime", "100ms", "--format", "json", "--recommend", "3", "--nodes", "all")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "running the workload, run 2 of 2")
	assert.Regexp(t, `mbopt: workload: 2 runs: \d+ functions seen, \d+ in every run, \d+ in only some \(project: \d+ seen, \d+ in every run, \d+ in only some\)\n`, stderr)
	assert.Contains(t, stderr, "example.com/tinytsdb/storage.BenchmarkAddRows", "plain per-benchmark lines under CI")

	doc := decodeRun(t, stdout)
	assert.Equal(t, []string{"example.com/tinytsdb"}, doc.Modules, "module from the manifest")
	assert.GreaterOrEqual(t, len(doc.Benchmarks), 20, "every sub-benchmark is a benchmark")
	for _, b := range doc.Benchmarks {
		assert.True(t, strings.HasPrefix(b.ID, "example.com/tinytsdb/"), b.ID)
	}
	assert.NotEmpty(t, doc.MinimalSuite)
	assert.Greater(t, doc.Coverage.Project.Covered, doc.Coverage.Project.Total/2)

	// The files: the application profile beside the benchmark profiles,
	// .mbopt ignored by git.
	state := filepath.Join(dir, ".mbopt")
	profiles := filepath.Join(state, "profiles")
	for _, f := range []string{"cmd-1.pprof", "cmd-1.log", "cmd-2.pprof", "cmd-2.log"} {
		assert.FileExists(t, filepath.Join(state, "app", f))
		assert.NoFileExists(t, filepath.Join(profiles, f))
	}
	assert.FileExists(t, filepath.Join(profiles, "manifest.json"))
	gi, err := os.ReadFile(filepath.Join(state, ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "*\n", string(gi))

	// The end of stderr says where the profiles are and what to run next.
	wantEnd := fmt.Sprintf(`mbopt: application profile: %[1]s/app/cmd-1.pprof (workload output: %[1]s/app/cmd-1.log)
mbopt: application profile: %[1]s/app/cmd-2.pprof (workload output: %[1]s/app/cmd-2.log)
mbopt: benchmark profiles: %[1]s/profiles (%[2]d benchmarks)
mbopt: to analyse these profiles again without profiling (from this directory):
  mbopt suite --app %[1]s/app/cmd-1.pprof --app %[1]s/app/cmd-2.pprof --micro %[1]s/profiles --module example.com/tinytsdb --nodes=all
  mbopt report --app %[1]s/app/cmd-1.pprof --app %[1]s/app/cmd-2.pprof --micro %[1]s/profiles --module example.com/tinytsdb --nodes=all --recommend=3 --out %[1]s/report
`, state, len(doc.Benchmarks))
	assert.True(t, strings.HasSuffix(stderr, wantEnd), "stderr ends with\n%s\ngot\n%s", wantEnd, stderr)
	assertSuiteReproduced(t, stderr, doc)

	// Again, with two workload scenarios that copy committed profiles and
	// print: their output goes to their logs, not to the terminal.
	abs, err := filepath.Abs(exampleDir)
	require.NoError(t, err)
	code, stdout, stderr = run(t, "run", dir,
		"--app-cmd", "mixed=printf 'workload-%s\\n' marker; cp "+abs+"/app.pprof {profile}",
		"--app-cmd", "query=printf 'workload-%s\\n' marker >&2; cp "+abs+"/app-query.pprof {profile}",
		"--weight", "query=2", "--benchtime", "100ms", "--format", "json")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "reused", "the benchmark profiles of the first run")
	assert.NotContains(t, stderr, "workload-marker")
	for _, name := range []string{"mixed", "query"} {
		log, err := os.ReadFile(filepath.Join(state, "app", name+".log"))
		require.NoError(t, err)
		assert.Contains(t, string(log), "workload-marker\n", name)
	}
	doc = decodeRun(t, stdout)
	require.NotNil(t, doc.Scenarios)
	assert.Equal(t, []string{"mixed", "query"}, doc.Scenarios.Names)
	assert.Equal(t, []float64{1, 2}, doc.Scenarios.Weights)
	assert.Contains(t, stderr, fmt.Sprintf("mbopt: application profile (scenario query): %[1]s/app/query.pprof (workload output: %[1]s/app/query.log)\n", state))
	assert.Contains(t, stderr, fmt.Sprintf("  mbopt suite --app mixed=%[1]s/app/mixed.pprof --app query=%[1]s/app/query.pprof --weight query=2 --micro %[1]s/profiles --module example.com/tinytsdb\n", state))
	assertSuiteReproduced(t, stderr, doc)
}

// runDoc is what TestRunExample reads of run's JSON output.
type runDoc struct {
	Modules    []string
	Coverage   struct{ Project struct{ Covered, Total int } }
	Benchmarks []struct {
		ID string
	}
	MinimalSuite []struct{ ID string } `json:"minimal_suite"`
	Scenarios    *struct {
		Names   []string
		Weights []float64
	}
}

func decodeRun(t *testing.T, stdout string) runDoc {
	t.Helper()
	var doc runDoc
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	return doc
}

// assertSuiteReproduced runs the "mbopt suite" command that run printed on
// stderr and checks that it selects the benchmarks of run's minimal suite.
func assertSuiteReproduced(t *testing.T, stderr string, doc runDoc) {
	t.Helper()
	var line string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "  mbopt suite ") {
			line = l
		}
	}
	require.NotEmpty(t, line, "no suite command in\n%s", stderr)
	args, err := splitWords(strings.TrimSpace(line), false)
	require.NoError(t, err)
	code, out, errOut := run(t, append(args[1:], "--format", "list")...)
	require.Equal(t, 0, code, errOut)
	var want, got []string
	for _, s := range doc.MinimalSuite {
		want = append(want, s.ID)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		pkg, name, _ := strings.Cut(l, " ")
		got = append(got, pkg+"."+name)
	}
	assert.ElementsMatch(t, want, got, "the printed suite command reproduces run's suite")
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no application source", []string{"run", "../../testdata/example"}, "no application profile"},
		{"not a directory", []string{"run", filepath.Join(dir, "nope"), "--app-pgo"}, "not a directory"},
		{"micro given", []string{"run", "../../testdata/example", "--app", "x.pprof", "--micro", "y"}, "--micro must be empty: the pipeline profiles the benchmarks itself; analyse existing profiles with package analysis (mbopt analyze)"},
		{"no default.pgo", []string{"run", "../../testdata/example", "--app-pgo", "--out", dir}, "no default.pgo"},
		{"workload fails", []string{"run", "../../testdata/example", "--app-cmd", "exit 4 # {profile}", "--out", filepath.Join(dir, "profiles"), "--app-out", filepath.Join(dir, "app")}, "exit status 4"},
		{"workload without placeholder", []string{"run", "../../testdata/example", "--app-cmd", "true", "--out", dir}, "--app-cmd \"true\": it must contain {profile}"},
		{"runs without a workload", []string{"run", "../../testdata/example", "--app-pgo", "--app-runs", "2", "--out", dir}, "--app-runs repeats the workload of --app-cmd, which is not set"},
		{"zero runs", []string{"run", "../../testdata/example", "--app-cmd", "true", "--app-runs", "0"}, "--app-runs must be positive, not 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.args...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestParseAppCmds(t *testing.T) {
	tests := []struct {
		values    []string
		plain     string
		workloads []flow.Workload
		err       string
	}{
		{[]string{"go run ./cmd/load -cpuprofile {profile}"}, "go run ./cmd/load -cpuprofile {profile}", nil, ""},
		{[]string{"go run ./x -o={profile}"}, "go run ./x -o={profile}", nil, ""},
		{[]string{"read=go run ./x -mix=r {profile}", "write.v2=cp w {profile}"}, "",
			[]flow.Workload{{Name: "read", Command: "go run ./x -mix=r {profile}"}, {Name: "write.v2", Command: "cp w {profile}"}}, ""},
		{[]string{"env GOGC=off go run ./x {profile}"}, "env GOGC=off go run ./x {profile}", nil, ""},
		{[]string{"GOGC=off go run ./x {profile}"}, "", nil, "--app-cmd GOGC=off go run ./x {profile}: GOGC= could be a scenario name or an environment variable; write 'env GOGC=...' for a variable"},
		{[]string{"a {profile}", "b {profile}"}, "", nil, "two unnamed workload commands"},
		{[]string{"q="}, "", nil, `--app-cmd q=: no command after "q="`},
	}
	for _, tt := range tests {
		plain, ws, err := flow.ParseWorkloads(tt.values)
		err = flagbind.Word(err, nil)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, "%q", tt.values)
			assert.Equal(t, 2, cli.Code(err, nil), "%q: exit 2", tt.values)
			continue
		}
		require.NoError(t, err, "%q", tt.values)
		assert.Equal(t, tt.plain, plain, "%q", tt.values)
		assert.Equal(t, tt.workloads, ws, "%q", tt.values)
	}
}

// TestRunAppCmdScenarioErrors: the --app-cmd scenario mistakes are bad
// input, worded with flags, before anything runs.
func TestRunAppCmdScenarioErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"named and unnamed", []string{"--app-cmd", "a=cp x {profile}", "--app-cmd", "cp y {profile}"},
			"the application profiles are named scenarios, but --app-cmd would add unnamed ones"},
		{"named and a plain --app", []string{"--app-cmd", "a=cp x {profile}", "--app", exampleDir + "/app.pprof"},
			"but --app would add unnamed ones"},
		{"duplicate", []string{"--app-cmd", "a=cp x {profile}", "--app-cmd", "a=cp y {profile}"}, `--app-cmd NAME=CMD: two workloads are named "a"`},
		{"no placeholder", []string{"--app-cmd", "a=true"}, `--app-cmd NAME=CMD[0] (a) "true": it must contain {profile}`},
		{"two weights", []string{"--app-cmd", "a=cp x {profile}", "--weight", "a=2", "--weight", "a=3"}, "scenario a has two weights, 2 and 3"},
		{"weight of no scenario", []string{"--app-cmd", "a=cp x {profile}", "--weight", "b=2"}, "--weight b=2: no --app b=FILE names that scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"run", dir}, tt.args...)...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.want)
			assert.NoDirExists(t, filepath.Join(dir, ".mbopt"))
		})
	}
}
