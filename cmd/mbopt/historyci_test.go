package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// The history recipe (docs/ci/history.yml), the composite action at the
// repository root (action.yml), and the tests that keep them working:
// actionlint over every workflow and the action, the action's steps equal
// to the recipe's, and the recipe's shell steps run against a fixture
// repository, a failed run included.

// actionStep is a step of a workflow job or of a composite action.
type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

// historyWorkflow is the part of docs/ci/history.yml the tests read.
type historyWorkflow struct {
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Concurrency struct {
		Group            string `yaml:"group"`
		CancelInProgress bool   `yaml:"cancel-in-progress"`
	} `yaml:"concurrency"`
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs       any               `yaml:"needs"`
		Permissions map[string]string `yaml:"permissions"`
		Environment struct {
			Name string `yaml:"name"`
		} `yaml:"environment"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// compositeAction is the part of action.yml the tests read.
type compositeAction struct {
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

func readHistoryRecipe(t *testing.T) historyWorkflow {
	t.Helper()
	var wf historyWorkflow
	require.NoError(t, yaml.Unmarshal(recipeReader(t)("history.yml"), &wf))
	return wf
}

func readAction(t *testing.T) compositeAction {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	var a compositeAction
	require.NoError(t, yaml.Unmarshal(data, &a))
	return a
}

// TestHistoryRecipeShape checks what keeps the history safe and the
// permissions small: push and schedule triggers and never a pull request,
// read-only by default, one writer (a concurrency group that queues),
// contents: write only for the job that writes the history, and Pages
// deployed by a job of its own with pages and id-token.
func TestHistoryRecipeShape(t *testing.T) {
	wf := readHistoryRecipe(t)
	assert.Contains(t, wf.On, "push")
	assert.Contains(t, wf.On, "schedule")
	assert.NotContains(t, wf.On, "pull_request")
	assert.NotContains(t, wf.On, "pull_request_target")
	assert.Equal(t, map[string]string{"contents": "read"}, wf.Permissions)
	assert.NotEmpty(t, wf.Concurrency.Group)
	assert.False(t, wf.Concurrency.CancelInProgress, "a queued run must not cancel the one writing the history")
	require.Contains(t, wf.Jobs, "history")
	require.Contains(t, wf.Jobs, "pages")
	assert.Equal(t, map[string]string{"contents": "write"}, wf.Jobs["history"].Permissions)
	assert.Equal(t, map[string]string{"pages": "write", "id-token": "write"}, wf.Jobs["pages"].Permissions)
	assert.Equal(t, "github-pages", wf.Jobs["pages"].Environment.Name)
	assert.Equal(t, "history", wf.Jobs["pages"].Needs)
	var save *actionStep
	for i, st := range wf.Jobs["history"].Steps {
		if st.Name == "Save the history" {
			save = &wf.Jobs["history"].Steps[i]
		}
		for _, line := range strings.Split(st.Run, "\n") {
			if strings.Contains(line, "git push") {
				assert.NotRegexp(t, `--force|\s-f\b|\s\+|--mirror|--delete`, line, "%s: never force-push or delete the history", st.Name)
			}
		}
		assert.NotContains(t, st.Run, "${{", "%s: expressions in scripts are an injection risk; use env", st.Name)
	}
	require.NotNil(t, save)
	assert.Equal(t, "always()", save.If, "the history is saved whatever failed before")
	// The optional flags, added to an array, are compare's (the mbopt
	// lines themselves are checked by TestCIRecipeFlags).
	compareCmd, _, err := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}).Find([]string{"compare"})
	require.NoError(t, err)
	var optional int
	for _, st := range wf.Jobs["history"].Steps {
		for _, m := range regexp.MustCompile(`opt\+=\((--[a-z-]+)`).FindAllStringSubmatch(st.Run, -1) {
			optional++
			assert.True(t, lookupFlag(compareCmd, m[1][2:]), "%s: mbopt compare has no %s", st.Name, m[1])
		}
	}
	assert.Equal(t, 2, optional, "--suite and --metric")
	wf2 := readAction(t)
	for _, st := range wf2.Runs.Steps {
		assert.NotContains(t, st.Run, "${{", "action step %s: expressions in scripts are an injection risk; use env", st.Name)
	}
}

// TestHistoryActionMatchesRecipe checks that action.yml runs the recipe's
// steps: every step of the action with a script has the recipe's script of
// the same name (the install step aside), and every variable it reads
// comes from its env, set from an input.
func TestHistoryActionMatchesRecipe(t *testing.T) {
	wf := readHistoryRecipe(t)
	a := readAction(t)
	assert.Equal(t, "composite", a.Runs.Using)
	recipe := map[string]actionStep{}
	for _, st := range wf.Jobs["history"].Steps {
		recipe[st.Name] = st
	}
	inputRef := regexp.MustCompile(`^\$\{\{ inputs\.([a-z-]+) \}\}$`)
	var shared int
	for _, st := range a.Runs.Steps {
		if st.Run == "" {
			continue
		}
		assert.Equal(t, "bash", st.Shell, st.Name)
		if strings.HasPrefix(st.Name, "Install mbopt") {
			continue
		}
		r, ok := recipe[st.Name]
		if !assert.True(t, ok, "action step %q has no step of that name in the recipe", st.Name) {
			continue
		}
		shared++
		assert.Equal(t, r.Run, st.Run, "step %q: the action's script differs from the recipe's", st.Name)
		assert.Equal(t, r.If, st.If, "step %q", st.Name)
		for k, v := range st.Env {
			m := inputRef.FindStringSubmatch(v)
			if assert.NotNil(t, m, "step %q: env %s = %q is not an input", st.Name, k, v) {
				assert.Contains(t, a.Inputs, m[1], "step %q: env %s", st.Name, k)
			}
			assert.Contains(t, wf.Env, k, "step %q: the recipe's env has no %s", st.Name, k)
		}
		for _, v := range scriptVars(st.Run) {
			// The runner's variables, and HISTORY_DIR from the checkout
			// step's $GITHUB_ENV, are there without an env entry.
			if _, ok := st.Env[v]; !ok && !strings.HasPrefix(v, "GITHUB_") && !strings.HasPrefix(v, "RUNNER_") && v != "HISTORY_DIR" {
				t.Errorf("action step %q reads $%s, which its env does not set", st.Name, v)
			}
		}
	}
	assert.Equal(t, 5, shared, "valgrind, checkout, compare, save and render")
	assert.True(t, a.Inputs["baseline"].Required)
	for name, in := range a.Inputs {
		assert.NotEmpty(t, in.Description, "input %s", name)
	}
}

// scriptVars returns the upper-case variables a script reads.
func scriptVars(script string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\$\{?([A-Z][A-Z0-9_]*)`).FindAllStringSubmatch(script, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// actionExample is the marker of the docs' example of a workflow that
// calls the action.
const actionExample = "```yaml action-example\n"

// TestActionlint runs actionlint (pinned in go.mod as a tool) over every
// GitHub Actions workflow of docs/ci, over the composite action's steps
// (as the job of a workflow_dispatch workflow whose inputs are the
// action's), and over the docs' example of a workflow that calls the
// action (which also checks the inputs it passes).
func TestActionlint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds actionlint on first use")
	}
	proj := t.TempDir()
	wfDir := filepath.Join(proj, ".github", "workflows")
	require.NoError(t, os.MkdirAll(wfDir, 0o755))
	require.NoError(t, exec.Command("git", "init", "-q", proj).Run())
	var files []string
	for _, e := range ciWorkflows(t) {
		p := filepath.Join(wfDir, e.name)
		require.NoError(t, os.WriteFile(p, e.data, 0o644))
		files = append(files, p)
	}
	assert.Contains(t, files, filepath.Join(wfDir, "history.yml"))

	// The action: its metadata beside the example that uses it as ./, and
	// its steps as a workflow job.
	action, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(proj, "action.yml"), action, 0o644))
	guide, err := os.ReadFile("../../docs/ci.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(guide), actionExample)
	require.True(t, ok, "docs/ci.md has the example workflow that calls the action")
	example, _, _ := strings.Cut(rest, "```")
	require.Contains(t, example, "uses: mbopt/mbopt@")
	example = regexp.MustCompile(`uses: mbopt/mbopt@\S+`).ReplaceAllString(example, "uses: ./")
	p := filepath.Join(wfDir, "action-example.yml")
	require.NoError(t, os.WriteFile(p, []byte(example), 0o644))
	files = append(files, p)

	var a struct {
		Inputs map[string]map[string]any `yaml:"inputs"`
		Runs   struct {
			Steps []map[string]any `yaml:"steps"`
		} `yaml:"runs"`
	}
	require.NoError(t, yaml.Unmarshal(action, &a))
	inputs := map[string]any{}
	for name, in := range a.Inputs {
		inputs[name] = map[string]any{"description": in["description"], "required": in["required"], "default": in["default"], "type": "string"}
	}
	steps := append([]map[string]any{{"uses": "actions/checkout@v4"}}, a.Runs.Steps...)
	asWorkflow, err := yaml.Marshal(map[string]any{
		"name": "action steps",
		"on":   map[string]any{"workflow_dispatch": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{
			"runs-on":     "ubuntu-latest",
			"permissions": map[string]string{"contents": "write", "pages": "write", "id-token": "write"},
			"environment": "github-pages",
			"steps":       steps,
		}},
	})
	require.NoError(t, err)
	p = filepath.Join(wfDir, "action-steps.yml")
	require.NoError(t, os.WriteFile(p, asWorkflow, 0o644))
	files = append(files, p)

	cmd := exec.Command("go", append([]string{"tool", "actionlint", "-shellcheck=", "-pyflakes=", "-no-color"}, files...)...)
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "actionlint:\n%s", out)
}

// TestHistoryRecipeRuns runs the history recipe's shell steps as a runner
// would (bash -e -o pipefail, $GITHUB_ENV and $GITHUB_PATH between steps,
// a failed step skipping the steps without if: always()) against a fixture
// repository with a bare origin, with mbopt built from this package:
//
//  1. a push: the history branch is created with one comparison and the
//     site is rendered;
//  2. a run whose comparison fails: nothing is pushed;
//  3. a run whose mbopt damages the database and fails: the save step
//     refuses it and nothing is pushed;
//  4. a nightly run on a new commit: the history has both commits and the
//     A/A calibration;
//  5. a nightly run on a third commit whose comparison is stored but whose
//     A/A comparison then fails: the run fails, and the stored comparison
//     is saved all the same (the history survives a failed run).
func TestHistoryRecipeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four comparisons")
	}
	wf := readHistoryRecipe(t)
	bin := buildMbopt(t)
	repo := cmpfixture.Repo(t, cmpfixture.Variant{})
	origin := filepath.Join(t.TempDir(), "origin.git")
	gitIn(t, "", "clone", "--quiet", "--bare", repo, origin)
	gitIn(t, repo, "remote", "add", "origin", origin)
	baseline := strings.TrimSpace(gitIn(t, repo, "rev-parse", "main"))
	// Time, not the recipe's instructions: the same steps, without
	// Valgrind's slowness (compare's own tests cover the metrics).
	env := map[string]string{
		"BASELINE":      baseline,
		"METRIC":        "time", // the default would count where Valgrind is installed
		"SUITE":         "",
		"COMPARE_FLAGS": "--trials 2 --runs 1 --count 2 --benchtime 20ms --resamples 200 --app-benchmark BenchmarkSame",
	}
	branchTip := func() string {
		out, err := exec.Command("git", "--git-dir", origin, "rev-parse", "--verify", "--quiet", "refs/heads/"+wf.Env["HISTORY_BRANCH"]).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}

	// 1. The first push starts the history.
	r := runRecipe(t, wf, repo, bin, "push", env)
	require.Empty(t, r.failed, "steps: %v", r.log)
	tip1 := branchTip()
	require.NotEmpty(t, tip1, "the history branch exists")
	points := storedPoints(t, origin, wf.Env["HISTORY_BRANCH"], wf.Env["HISTORY_FILE"])
	assert.Equal(t, map[string]int{"BenchmarkFaster": 1, "BenchmarkSame": 1, "BenchmarkSlower": 1, "application BenchmarkSame (measurements)": 1}, points, "with --app-benchmark among the compare flags, the application's measurement too")
	assert.FileExists(t, filepath.Join(r.temp, "site", "index.html"))

	// 2. The comparison fails: the save step runs, finds nothing changed.
	bad := map[string]string{"BASELINE": "no-such-revision"}
	for k, v := range env {
		if _, ok := bad[k]; !ok {
			bad[k] = v
		}
	}
	r = runRecipe(t, wf, repo, bin, "push", bad)
	assert.Equal(t, "Compare with the baseline", r.failed)
	assert.Contains(t, r.ran, "Save the history")
	assert.NotContains(t, r.ran, "Render the site")
	assert.Equal(t, tip1, branchTip(), "a failed comparison pushes nothing")

	// 3. An mbopt that damages the database, then fails: the save step
	// refuses to push what it cannot read.
	damaging := filepath.Join(t.TempDir(), "mbopt")
	require.NoError(t, os.WriteFile(damaging, []byte("#!/bin/sh\nif [ \"$1\" = compare ]; then\n  printf 'not a database' > \"$HISTORY_DIR/$HISTORY_FILE\"\n  exit 1\nfi\nexec "+bin+" \"$@\"\n"), 0o755))
	r = runRecipe(t, wf, repo, damaging, "push", env)
	assert.Equal(t, "Compare with the baseline", r.failed)
	assert.Contains(t, r.log["Save the history"], "mbopt cannot read the history this run left")
	assert.Equal(t, tip1, branchTip(), "a damaged database is never pushed")
	assert.Equal(t, points, storedPoints(t, origin, wf.Env["HISTORY_BRANCH"], wf.Env["HISTORY_FILE"]))

	// 4. A nightly run on a new commit adds to the history.
	gitIn(t, repo, "commit", "--quiet", "--allow-empty", "-m", "another commit")
	r = runRecipe(t, wf, repo, bin, "schedule", env)
	require.Empty(t, r.failed, "steps: %v", r.log)
	assert.NotEqual(t, tip1, branchTip())
	out := gitIn(t, "", "--git-dir", origin, "rev-list", "--count", wf.Env["HISTORY_BRANCH"])
	assert.Equal(t, "2", strings.TrimSpace(out), "one commit of the history per saved run")
	assert.Equal(t, map[string]int{"BenchmarkFaster": 2, "BenchmarkSame": 2, "BenchmarkSlower": 2, "application BenchmarkSame (measurements)": 2}, storedPoints(t, origin, wf.Env["HISTORY_BRANCH"], wf.Env["HISTORY_FILE"]))
	assert.FileExists(t, filepath.Join(r.temp, "site", "index.html"))

	// 5. The comparison is stored, then the A/A comparison fails: the
	// step fails, and the save step keeps what was stored.
	tip2 := branchTip()
	gitIn(t, repo, "commit", "--quiet", "--allow-empty", "-m", "a third commit")
	failingAA := filepath.Join(t.TempDir(), "mbopt")
	require.NoError(t, os.WriteFile(failingAA, []byte("#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = --aa ]; then echo 'the A/A comparison failed' >&2; exit 1; fi\ndone\nexec "+bin+" \"$@\"\n"), 0o755))
	r = runRecipe(t, wf, repo, failingAA, "schedule", env)
	assert.Equal(t, "Compare with the baseline", r.failed)
	assert.Contains(t, r.ran, "Save the history")
	assert.NotContains(t, r.ran, "Render the site")
	assert.NotEqual(t, tip2, branchTip(), "the comparison stored before the failure is pushed")
	assert.Equal(t, map[string]int{"BenchmarkFaster": 3, "BenchmarkSame": 3, "BenchmarkSlower": 3, "application BenchmarkSame (measurements)": 3}, storedPoints(t, origin, wf.Env["HISTORY_BRANCH"], wf.Env["HISTORY_FILE"]))
}

// gitIn runs git in dir and returns its output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

// storedPoints reads the history database of the branch in the bare
// repository origin and returns, per benchmark name, the number of commits
// of its sec/op series.
func storedPoints(t *testing.T, origin, branch, file string) map[string]int {
	t.Helper()
	data, err := exec.Command("git", "--git-dir", origin, "show", branch+":"+file).Output()
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "history.db")
	require.NoError(t, os.WriteFile(p, data, 0o644))
	ctx := context.Background()
	st, err := history.Open(ctx, p)
	require.NoError(t, err)
	defer st.Close()
	set, err := st.Series(ctx, history.Query{Unit: "sec/op"})
	require.NoError(t, err)
	out := map[string]int{}
	for _, s := range set.Series {
		out[s.Name] = len(s.Points)
	}
	for _, p := range set.Application {
		out["application "+p.Name+" ("+p.Source+")"]++
	}
	return out
}

// recipeRun is what runRecipe saw.
type recipeRun struct {
	temp   string            // RUNNER_TEMP
	ran    []string          // the steps run, by name
	failed string            // the first step that failed
	log    map[string]string // each step's output
}

// runRecipe runs the shell steps of the history job in repo as a runner
// does for event, with mbopt (the file bin) on PATH in place of the
// install step and env over the recipe's env. Steps that use an action
// stand for what the fixture already is (checkout, setup-go) or for what
// happens outside (the Pages upload), and are skipped.
func runRecipe(t *testing.T, wf historyWorkflow, repo, bin, event string, env map[string]string) recipeRun {
	t.Helper()
	temp := t.TempDir()
	r := recipeRun{temp: temp, log: map[string]string{}}
	binDir := filepath.Join(temp, "bin")
	require.NoError(t, os.MkdirAll(binDir, 0o755))
	require.NoError(t, os.Symlink(bin, filepath.Join(binDir, "mbopt")))
	files := map[string]string{}
	for _, f := range []string{"GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"} {
		files[f] = filepath.Join(temp, strings.ToLower(f))
		require.NoError(t, os.WriteFile(files[f], nil, 0o644))
	}
	head := strings.TrimSpace(gitIn(t, repo, "rev-parse", "HEAD"))
	vars := map[string]string{
		"HOME": os.Getenv("HOME"), "GOPATH": os.Getenv("GOPATH"), "GOCACHE": os.Getenv("GOCACHE"), "GOMODCACHE": os.Getenv("GOMODCACHE"),
		"GOFLAGS": os.Getenv("GOFLAGS"), "GOTOOLCHAIN": "local", "CI": "true", "GITHUB_ACTIONS": "true",
		"RUNNER_TEMP": temp, "GITHUB_WORKSPACE": repo, "GITHUB_EVENT_NAME": event, "GITHUB_SHA": head,
		"GITHUB_RUN_ID": "12345", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "example/fixture",
	}
	maps := []map[string]string{wf.Env, env, files}
	for _, m := range maps {
		for k, v := range m {
			vars[k] = v
		}
	}
	path := binDir + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, st := range wf.Jobs["history"].Steps {
		switch {
		case st.Uses != "":
			continue
		case strings.HasPrefix(st.Name, "Install mbopt"):
			continue
		}
		switch st.If {
		case "":
			if r.failed != "" {
				continue
			}
		case "always()":
		default:
			t.Fatalf("step %q: the test runs only steps without if or with if: always(), not %q", st.Name, st.If)
		}
		script := filepath.Join(temp, "step.sh")
		require.NoError(t, os.WriteFile(script, []byte(st.Run), 0o644))
		cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", script)
		cmd.Dir = repo
		cmd.Env = []string{"PATH=" + path}
		for k, v := range vars {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		r.ran = append(r.ran, st.Name)
		r.log[st.Name] = string(out)
		if err != nil && r.failed == "" {
			r.failed = st.Name
		}
		t.Logf("%s step %q: %v\n%s", event, st.Name, err, out)
		// $GITHUB_ENV and $GITHUB_PATH take effect for the next steps.
		for k, v := range readLines(t, files["GITHUB_ENV"]) {
			vars[k] = v
		}
		for _, p := range readPathLines(t, files["GITHUB_PATH"]) {
			path = p + string(os.PathListSeparator) + path
		}
		require.NoError(t, os.WriteFile(files["GITHUB_PATH"], nil, 0o644))
	}
	return r
}

// readLines reads NAME=VALUE lines.
func readLines(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

func readPathLines(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	return strings.Fields(string(data))
}

// TestCompareFlagsNotGlobbed: the compare step of the action and of the
// history recipe splits $COMPARE_FLAGS into words without expanding a
// pattern against the checkout (issue 31: "--bench Benchmark*" became the
// names of the files matching it). The step runs in bash with a stand-in
// mbopt that prints its arguments, in a directory with a file the
// pattern would match, for a scheduled run (both comparisons).
func TestCompareFlagsNotGlobbed(t *testing.T) {
	steps := map[string]string{}
	for _, st := range readAction(t).Runs.Steps {
		if st.Name == "Compare with the baseline" {
			steps["action.yml"] = st.Run
		}
	}
	for _, st := range readHistoryRecipe(t).Jobs["history"].Steps {
		if st.Name == "Compare with the baseline" {
			steps["docs/ci/history.yml"] = st.Run
		}
	}
	require.Len(t, steps, 2, "the compare step of the action and of the recipe")
	for name, script := range steps {
		t.Run(name, func(t *testing.T) {
			dir, bin := t.TempDir(), t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "Benchmark_test.go"), nil, 0o644))
			log := filepath.Join(t.TempDir(), "args")
			fake := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> " + log + "; done\necho --- >> " + log + "\n"
			require.NoError(t, os.WriteFile(filepath.Join(bin, "mbopt"), []byte(fake), 0o755))
			cmd := exec.Command("bash", "-e", "-c", script)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"COMPARE_FLAGS=--bench Benchmark* --budget 30m", "GITHUB_EVENT_NAME=schedule",
				"BASELINE=main", "HISTORY_DIR="+dir, "HISTORY_FILE=h.db", "RUNNER_TEMP="+dir, "GITHUB_RUN_ID=1", "SUITE=", "METRIC=")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			data, err := os.ReadFile(log)
			require.NoError(t, err)
			runs := strings.Split(strings.TrimSuffix(string(data), "---\n"), "---\n")
			require.Len(t, runs, 2, "two comparisons on a schedule")
			for _, args := range runs {
				assert.Contains(t, args, "\n--bench\nBenchmark*\n--budget\n30m\n", "the flags as given, one word each")
				assert.NotContains(t, args, "Benchmark_test.go")
			}
		})
	}
}
