package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// workflow is the part of a GitHub Actions workflow the recipe tests read.
type workflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		RunsOn string `yaml:"runs-on"`
		Steps  []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

var (
	shellVar = regexp.MustCompile(`\$\{?[A-Za-z_][A-Za-z0-9_]*\}?`)
	ghExpr   = regexp.MustCompile(`\$\{\{[^}]*\}\}`)
)

// mboptCommands returns the mbopt command lines of a step's script,
// continuation lines joined, GitHub expressions and shell variables
// replaced by placeholder words.
func mboptCommands(t *testing.T, script string) [][]string {
	t.Helper()
	var cmds [][]string
	lines := strings.Split(strings.ReplaceAll(script, "\\\n", " "), "\n")
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "mbopt ") {
			continue
		}
		l = shellVar.ReplaceAllString(ghExpr.ReplaceAllString(l, "EXPR"), "VAR")
		words, err := splitWords(l, false)
		require.NoError(t, err, "recipe line %q", l)
		cmds = append(cmds, words[1:])
	}
	return cmds
}

// TestCompareRecipe checks the pull-request comparison recipe of
// docs/ci: the workflow file is valid YAML of the expected shape, the
// guide links it, and it runs mbopt compare with the GitHub output and a
// gate (TestCIRecipeFlags checks its flags).
func TestCompareRecipe(t *testing.T) {
	var wf workflow
	require.NoError(t, yaml.Unmarshal(recipeReader(t)("compare.yml"), &wf))
	assert.Contains(t, wf.On, "pull_request")
	require.Contains(t, wf.Jobs, "compare")
	job := wf.Jobs["compare"]
	assert.Equal(t, "ubuntu-latest", job.RunsOn, "one runner")
	var checkout bool
	var cmds [][]string
	for _, st := range job.Steps {
		if strings.HasPrefix(st.Uses, "actions/checkout@") {
			checkout = true
			assert.Equal(t, "0", st.With["fetch-depth"], "the merge-base needs the history")
		}
		cmds = append(cmds, mboptCommands(t, st.Run)...)
	}
	assert.True(t, checkout)
	var compared bool
	for _, args := range cmds {
		if args[0] == "compare" {
			compared = true
			assert.Contains(t, args, "--format")
			assert.Equal(t, "github", args[slices.Index(args, "--format")+1])
			assert.Contains(t, args, "--fail-on")
		}
	}
	assert.True(t, compared, "the recipe runs mbopt compare")
}

// A ciWorkflow is one GitHub Actions workflow of docs/ci: its file name,
// its bytes and what the recipe tests read of it.
type ciWorkflow struct {
	name string
	data []byte
	wf   workflow
}

// ciWorkflows reads the GitHub Actions workflows of docs/ci, each of which
// docs/ci.md must link, in file-name order; the Kubernetes Jobs beside them
// (files without jobs) are left out.
func ciWorkflows(t *testing.T) []ciWorkflow {
	t.Helper()
	read := recipeReader(t)
	entries, err := os.ReadDir(ciDir)
	require.NoError(t, err)
	var out []ciWorkflow
	for _, e := range entries {
		w := ciWorkflow{name: e.Name(), data: read(e.Name())}
		require.NoError(t, yaml.Unmarshal(w.data, &w.wf), e.Name())
		if len(w.wf.Jobs) == 0 {
			continue // a Kubernetes Job
		}
		out = append(out, w)
	}
	return out
}

// TestCIRecipeFlags checks every recipe of docs/ci: the guide links it,
// and every mbopt command line of a GitHub Actions workflow uses a
// subcommand and flags that exist (the Kubernetes Jobs' commands are
// parsed by TestCIRecipes and TestCompareShardRecipes).
func TestCIRecipeFlags(t *testing.T) {
	rootCmd := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	wfs := ciWorkflows(t)
	for _, e := range wfs {
		var cmds [][]string
		for _, job := range e.wf.Jobs {
			for _, st := range job.Steps {
				cmds = append(cmds, mboptCommands(t, st.Run)...)
			}
		}
		assert.NotEmpty(t, cmds, "%s runs mbopt", e.name)
		for _, args := range cmds {
			require.NotEmpty(t, args)
			cmd, rest, err := rootCmd.Find(args)
			require.NoError(t, err, "%s: mbopt %s", e.name, strings.Join(args, " "))
			require.NotEqual(t, rootCmd, cmd, "%s: mbopt %s: no such subcommand", e.name, strings.Join(args, " "))
			for _, a := range rest {
				name, ok := strings.CutPrefix(a, "--")
				if !ok {
					continue
				}
				name, _, _ = strings.Cut(name, "=")
				assert.True(t, lookupFlag(cmd, name), "%s: mbopt %s: the recipe uses --%s, which the command does not have", e.name, args[0], name)
			}
		}
	}
	assert.GreaterOrEqual(t, len(wfs), 3, "docs/ci holds the GitHub Actions workflows")
}

// lookupFlag reports whether cmd has the flag, its own or inherited.
func lookupFlag(cmd *cobra.Command, name string) bool {
	return cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil
}

// workflowSecurity returns what is wrong, if anything, with the
// permissions and triggers of a GitHub Actions workflow (issue 25,
// security of what CI publishes): pull requests run with `pull_request`,
// never `pull_request_target` (which runs a fork's code with the base
// repository's token and secrets); the workflow's own `permissions:` are
// read-only; and a job may ask for a write permission only in a workflow
// that no pull request triggers and whose pushes are limited to the main
// branch (the job that writes the history, and the one that publishes it).
func workflowSecurity(data []byte) []string {
	var wf struct {
		On          any `yaml:"on"`
		Permissions any `yaml:"permissions"`
		Jobs        map[string]struct {
			Permissions any `yaml:"permissions"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		return []string{err.Error()}
	}
	// on: is a trigger, a list of triggers or a map from trigger to its
	// filters.
	on := map[string]any{}
	switch v := wf.On.(type) {
	case string:
		on[v] = nil
	case []any:
		for _, e := range v {
			on[fmt.Sprint(e)] = nil
		}
	case map[string]any:
		on = v
	default:
		return []string{fmt.Sprintf("on: %v: want a trigger, a list or a map of triggers", wf.On)}
	}
	var problems []string
	writes := func(p any) []string {
		switch p := p.(type) {
		case string:
			if p != "read-all" {
				return []string{p}
			}
		case map[string]any:
			var w []string
			for scope, level := range p {
				if level != "read" && level != "none" {
					w = append(w, scope+": "+fmt.Sprint(level))
				}
			}
			slices.Sort(w)
			return w
		case nil:
		default:
			return []string{fmt.Sprint(p)}
		}
		return nil
	}
	for _, trigger := range slices.Sorted(maps.Keys(on)) {
		if trigger == "pull_request_target" || trigger == "workflow_run" {
			problems = append(problems, "triggered by "+trigger+", which runs with the base repository's token and secrets; use pull_request")
		}
	}
	if wf.Permissions == nil {
		problems = append(problems, "no top-level permissions: (the token would get the repository's defaults); set contents: read")
	} else if w := writes(wf.Permissions); len(w) > 0 {
		problems = append(problems, fmt.Sprintf("top-level permissions %v are not read-only; give write permissions to the one job that needs them", w))
	}
	_, byPR := on["pull_request"]
	mainOnly := true
	if push, ok := on["push"]; ok {
		p, _ := push.(map[string]any)
		branches, _ := p["branches"].([]any)
		mainOnly = len(branches) == 1 && (branches[0] == "main" || branches[0] == "master")
	}
	for _, name := range slices.Sorted(maps.Keys(wf.Jobs)) {
		w := writes(wf.Jobs[name].Permissions)
		switch {
		case len(w) == 0:
		case byPR:
			problems = append(problems, fmt.Sprintf("job %s has permissions %v in a workflow that pull requests trigger", name, w))
		case !mainOnly:
			problems = append(problems, fmt.Sprintf("job %s has permissions %v in a workflow that pushes to any branch trigger; limit push to branches: [main]", name, w))
		}
	}
	return problems
}

// TestCIRecipeSecurity: every GitHub Actions workflow of docs/ci runs pull
// requests with pull_request and read-only permissions, and only the jobs
// of the main branch's history write (see workflowSecurity).
func TestCIRecipeSecurity(t *testing.T) {
	wfs := ciWorkflows(t)
	var writers int
	for _, e := range wfs {
		for _, p := range workflowSecurity(e.data) {
			t.Errorf("%s: %s", e.name, p)
		}
		if bytes.Contains(e.data, []byte(": write")) {
			writers++
		}
	}
	assert.GreaterOrEqual(t, len(wfs), 5, "docs/ci holds the GitHub Actions workflows")
	assert.Equal(t, 1, writers, "one workflow writes: the history on pushes to main")
}

// TestHistoryActionSecurity holds the composite action (action.yml) to
// the rules of TestCIRecipeSecurity, as far as an action can be: the docs'
// example of a workflow calling it passes workflowSecurity (a composite
// action cannot set its own permissions or triggers: the calling workflow
// does); the action reads nothing of a pull request; and its first step
// refuses to run for one (pull_request or pull_request_target), before
// installing anything, while other events pass the guard.
func TestHistoryActionSecurity(t *testing.T) {
	guide, err := os.ReadFile("../../docs/ci.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(guide), actionExample)
	require.True(t, ok, "docs/ci.md has the example workflow that calls the action")
	example, _, _ := strings.Cut(rest, "```")
	assert.Empty(t, workflowSecurity([]byte(example)), "docs/ci.md's example of the action")
	assert.Contains(t, example, "contents: write", "the example's job writes the history branch")

	data, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	_, steps, ok := strings.Cut(string(data), "\nruns:")
	require.True(t, ok)
	for _, bad := range []string{"pull_request_target", "github.event.pull_request", "github.head_ref"} {
		assert.NotContains(t, steps, bad, "action.yml's steps")
	}
	a := readAction(t)
	require.NotEmpty(t, a.Runs.Steps)
	first := a.Runs.Steps[0]
	require.Equal(t, "bash", first.Shell)
	for _, tc := range []struct {
		event   string
		refused bool
	}{
		{"pull_request", true},
		{"pull_request_target", true},
		{"push", false},
		{"schedule", false},
	} {
		t.Run(tc.event, func(t *testing.T) {
			tmp := t.TempDir()
			ghPath := filepath.Join(tmp, "github_path")
			cmd := exec.Command("bash", "-e", "-c", first.Run)
			// The action's directory does not exist: a step that passes
			// the guard fails at its cd, having installed nothing.
			cmd.Env = append(os.Environ(), "GITHUB_EVENT_NAME="+tc.event, "GITHUB_ACTION_PATH="+filepath.Join(tmp, "missing"),
				"RUNNER_TEMP="+tmp, "GITHUB_PATH="+ghPath)
			out, err := cmd.CombinedOutput()
			require.Error(t, err, "%s", out)
			refused := strings.Contains(string(out), "::error::the mbopt history action writes the history branch")
			assert.Equal(t, tc.refused, refused, "%s", out)
			if tc.refused {
				assert.Contains(t, string(out), "never for a pull request ("+tc.event+")")
				assert.NoFileExists(t, ghPath, "nothing installed")
				assert.NoDirExists(t, filepath.Join(tmp, "bin"))
			}
		})
	}
}

// TestWorkflowSecurityCatches: the check refuses each unsafe pattern.
func TestWorkflowSecurityCatches(t *testing.T) {
	const jobs = "jobs:\n  a:\n    runs-on: ubuntu-latest\n"
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"safe pull request", "on:\n  pull_request:\npermissions:\n  contents: read\n" + jobs, ""},
		{"safe history", "on:\n  push:\n    branches: [main]\npermissions:\n  contents: read\n" + jobs + "    permissions:\n      contents: write\n", ""},
		{"pull_request_target", "on:\n  pull_request_target:\npermissions:\n  contents: read\n" + jobs, "pull_request_target"},
		{"no permissions", "on:\n  pull_request:\n" + jobs, "no top-level permissions"},
		{"write-all", "on:\n  pull_request:\npermissions: write-all\n" + jobs, "not read-only"},
		{"top-level write", "on:\n  push:\n    branches: [main]\npermissions:\n  contents: write\n" + jobs, "not read-only"},
		{"job write on pull requests", "on:\n  pull_request:\n  push:\n    branches: [main]\npermissions:\n  contents: read\n" + jobs + "    permissions:\n      pull-requests: write\n", "pull requests trigger"},
		{"job write on any push", "on:\n  push:\npermissions:\n  contents: read\n" + jobs + "    permissions:\n      contents: write\n", "any branch"},
		{"pull_request_target as a word", "on: pull_request_target\npermissions:\n  contents: read\n" + jobs, "pull_request_target"},
		{"pull_request_target in a list", "on: [push, pull_request_target]\npermissions:\n  contents: read\n" + jobs, "pull_request_target"},
		{"job write on a listed push", "on: [push]\npermissions:\n  contents: read\n" + jobs + "    permissions:\n      contents: write\n", "any branch"},
		{"job write on a listed pull request", "on: [pull_request]\npermissions: read-all\n" + jobs + "    permissions: write-all\n", "pull requests trigger"},
		{"safe list", "on: [pull_request]\npermissions: read-all\n" + jobs, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(workflowSecurity([]byte(tc.yaml)), "; ")
			if tc.want == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.want)
			}
		})
	}
}
