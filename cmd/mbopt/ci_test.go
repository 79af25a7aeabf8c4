package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// ciDir holds the CI recipes docs/ci.md links.
const ciDir = "../../docs/ci"

// recipeReader returns a function that reads a recipe of docs/ci and
// checks that docs/ci.md links it (a Markdown link to ci/NAME), so that
// every tested recipe is one the guide points to.
func recipeReader(t *testing.T) func(name string) []byte {
	doc, err := os.ReadFile("../../docs/ci.md")
	require.NoError(t, err)
	return func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(ciDir, name))
		require.NoError(t, err)
		assert.Contains(t, string(doc), "](ci/"+name+")", "docs/ci.md links docs/ci/%s", name)
		return data
	}
}

// ghWorkflow is the part of a GitHub Actions workflow the recipe tests
// check.
type ghWorkflow struct {
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		Strategy struct {
			Matrix map[string][]int `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Run string `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// k8sContainer and k8sJob are the parts of a Kubernetes Job the recipe
// tests check.
type k8sContainer struct {
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
}

type k8sJob struct {
	Kind string `yaml:"kind"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    *int   `yaml:"completions"`
		Parallelism    *int   `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				RestartPolicy string         `yaml:"restartPolicy"`
				Containers    []k8sContainer `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestCIRecipes checks the sharded-collection recipes of docs/ci: the
// guide links each file; the GitHub Actions workflow has a matrix
// of N shards whose collect job runs --shard ${{ matrix.shard }}/N and a
// merge job that needs it and merges shards 0 to N-1; the Kubernetes
// Indexed Job has completions == parallelism == N and runs --shard /N,
// and the merge Job merges the N shard directories; every mbopt command
// parses with the command's real flags.
func TestCIRecipes(t *testing.T) {
	read := recipeReader(t)

	// GitHub Actions.
	var wf ghWorkflow
	require.NoError(t, yaml.Unmarshal(read("collect-sharded.yml"), &wf))
	collectJob, mergeJob := wf.Jobs["collect"], wf.Jobs["merge"]
	shards := collectJob.Strategy.Matrix["shard"]
	n := len(shards)
	require.Greater(t, n, 1, "a matrix of shards")
	for k, s := range shards {
		assert.Equal(t, k, s, "the matrix lists shards 0 to N-1")
	}
	assert.Equal(t, "collect", mergeJob.Needs, "merge waits for every collect job")
	var collectCmds, mergeCmds [][]string
	for _, s := range collectJob.Steps {
		collectCmds = append(collectCmds, mboptLines(t, s.Run, map[string]string{"${{ matrix.shard }}": "1"})...)
	}
	for _, s := range mergeJob.Steps {
		mergeCmds = append(mergeCmds, mboptLines(t, s.Run, nil)...)
	}
	checkShardCommands(t, "workflow", collectCmds, mergeCmds, n, fmt.Sprintf("1/%d", n), "shards/shard-%d")

	// Kubernetes.
	commands := func(j k8sJob) [][]string {
		var cmds [][]string
		for _, c := range j.Spec.Template.Spec.Containers {
			switch {
			case len(c.Command) > 0 && c.Command[0] == "mbopt":
				cmds = append(cmds, c.Command)
			case len(c.Command) == 2 && c.Command[0] == "sh" && c.Command[1] == "-c":
				for _, script := range c.Args {
					cmds = append(cmds, mboptLines(t, script, map[string]string{"$JOB_COMPLETION_INDEX": "1"})...)
				}
			}
		}
		return cmds
	}
	var collect, merge k8sJob
	require.NoError(t, yaml.Unmarshal(read("collect-indexed-job.yaml"), &collect))
	require.NoError(t, yaml.Unmarshal(read("merge-job.yaml"), &merge))
	assert.Equal(t, "Job", collect.Kind)
	assert.Equal(t, "Indexed", collect.Spec.CompletionMode)
	require.NotNil(t, collect.Spec.Completions)
	require.NotNil(t, collect.Spec.Parallelism)
	assert.Equal(t, *collect.Spec.Completions, *collect.Spec.Parallelism, "completions == parallelism: every shard at once")
	assert.Equal(t, "Never", collect.Spec.Template.Spec.RestartPolicy)
	assert.Equal(t, "Job", merge.Kind)
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	checkShardCommands(t, "Indexed Job", commands(collect), commands(merge), *collect.Spec.Completions, fmt.Sprintf("/%d", *collect.Spec.Completions), "/shared/shards/%d")

	// The linters, when installed.
	if path, err := exec.LookPath("actionlint"); err == nil {
		out, err := exec.Command(path, "-shellcheck=", "-pyflakes=", filepath.Join(ciDir, "collect-sharded.yml")).CombinedOutput()
		assert.NoError(t, err, "actionlint:\n%s", out)
	} else {
		t.Log("actionlint not installed: the workflow is checked by shape only")
	}
	if path, err := exec.LookPath("kubeconform"); err == nil {
		out, err := exec.Command(path, "-strict", "-summary", filepath.Join(ciDir, "collect-indexed-job.yaml"), filepath.Join(ciDir, "merge-job.yaml")).CombinedOutput()
		assert.NoError(t, err, "kubeconform:\n%s", out)
	} else {
		t.Log("kubeconform not installed: the Jobs are checked by shape only")
	}
}

// checkShardCommands checks a recipe's commands: one profile --shard
// whose value is shardArg, one merge of the n directories
// fmt.Sprintf(dirFormat, k); each parses with the real flags.
func checkShardCommands(t *testing.T, recipe string, collectCmds, mergeCmds [][]string, n int, shardArg, dirFormat string) {
	t.Helper()
	require.Len(t, collectCmds, 1, "%s: one mbopt command collects", recipe)
	require.Len(t, mergeCmds, 1, "%s: one mbopt command merges", recipe)
	o := parseCommand(t, collectCmds[0])
	require.NotNil(t, o, "%s: %v is mbopt profile", recipe, collectCmds[0])
	assert.Equal(t, shardArg, o.shard, recipe)
	spec, _, err := manifest.ResolveShard(o.shard, o.shardCosts, os.Getenv)
	require.NoError(t, err, recipe)
	assert.Equal(t, n, spec.Count, "%s: the N of --shard is the number of shards", recipe)

	m := mergeCmds[0]
	require.Equal(t, "merge", m[1], recipe)
	parseCommand(t, m)
	checkMergeDirs(t, recipe, m[2:], n, dirFormat)
}

// checkMergeDirs checks that a merge command's directory arguments (args up
// to the first flag) are the n shard directories fmt.Sprintf(dirFormat, k).
func checkMergeDirs(t *testing.T, recipe string, args []string, n int, dirFormat string) {
	t.Helper()
	var dirs []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			break
		}
		dirs = append(dirs, a)
	}
	var want []string
	for k := range n {
		want = append(want, fmt.Sprintf(dirFormat, k))
	}
	assert.Equal(t, want, dirs, "%s: merge is given every shard", recipe)
}

// mboptLines returns the mbopt command lines of a shell script, split into
// words after replacing each key of vars by its value.
func mboptLines(t *testing.T, script string, vars map[string]string) [][]string {
	t.Helper()
	var cmds [][]string
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "mbopt ") {
			continue
		}
		for k, v := range vars {
			line = strings.ReplaceAll(line, k, v)
		}
		line = strings.ReplaceAll(line, `"$PROFILES"`, ".mbopt/profiles")
		words, err := splitWords(line, false)
		require.NoError(t, err, line)
		cmds = append(cmds, words)
	}
	return cmds
}

// parseCommand parses args (starting with "mbopt") with the command tree's
// real flags and argument checks, running nothing; for profile it returns
// the options the command would run with.
func parseCommand(t *testing.T, args []string) *profileOptions {
	t.Helper()
	require.Equal(t, "mbopt", args[0])
	s := &streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if args[1] == "profile" {
		var got *profileOptions
		cmd := profileCmd(s, func(_ context.Context, _ *streams, o *profileOptions) error {
			got = o
			return nil
		})
		cmd.SetArgs(args[2:])
		cmd.SetOut(s.Out)
		cmd.SetErr(s.Err)
		t.Setenv("JOB_COMPLETION_INDEX", "1")
		require.NoError(t, cmd.Execute(), "%v", args)
		return got
	}
	root := newRootCmd(s)
	cmd, rest, err := root.Find(args[1:])
	require.NoError(t, err, "%v", args)
	require.NoError(t, cmd.ParseFlags(rest), "%v", args)
	require.NoError(t, cmd.ValidateArgs(cmd.Flags().Args()), "%v", args)
	return nil
}

// TestCompareShardRecipes checks the sharded-comparison recipes of
// docs/ci like TestCIRecipes checks the collection's: the guide links
// each file; the workflow's matrix of N compare jobs runs
// compare --shard ${{ matrix.shard }}/N with one seed for all, and the merge
// job needs them and merges shards 0 to N-1 with the gate; the Indexed Job
// has completions == parallelism == N and runs --shard /N, and its merge Job
// merges the N directories; every mbopt command parses with the real flags.
func TestCompareShardRecipes(t *testing.T) {
	read := recipeReader(t)
	check := func(recipe string, compareCmds, mergeCmds [][]string, n int, shardArg, dirFormat string) {
		t.Helper()
		require.Len(t, compareCmds, 1, "%s: one mbopt command compares", recipe)
		require.Len(t, mergeCmds, 1, "%s: one mbopt command merges", recipe)
		c := compareCmds[0]
		require.Equal(t, "compare", c[1], recipe)
		parseCommand(t, c)
		o := &compareOptions{shard: flagValue(c, "--shard")}
		assert.Equal(t, shardArg, o.shard, recipe)
		assert.NotEmpty(t, flagValue(c, "--seed"), "%s: every shard needs the same --seed", recipe)
		assert.Equal(t, "never", flagValue(c, "--fail-on"), "%s: a shard does not gate on its share", recipe)
		var opt compare.Options
		require.NoError(t, flow.ResolveShards(&opt, o.shard, o.trialShard, o.shardCosts, os.Getenv), recipe)
		assert.Equal(t, n, opt.Shard.Count, "%s: the N of --shard is the number of shards", recipe)

		m := mergeCmds[0]
		require.Equal(t, []string{"compare", "merge"}, m[1:3], recipe)
		parseCommand(t, m)
		checkMergeDirs(t, recipe, m[3:], n, dirFormat)
		assert.Equal(t, "definite-regression", flagValue(m, "--fail-on"), "%s: the merge gates", recipe)
	}

	var wf ghWorkflow
	require.NoError(t, yaml.Unmarshal(read("compare-sharded.yml"), &wf))
	cmpJob, mergeJob := wf.Jobs["compare"], wf.Jobs["merge"]
	shards := cmpJob.Strategy.Matrix["shard"]
	require.Greater(t, len(shards), 1, "a matrix of shards")
	for k, s := range shards {
		assert.Equal(t, k, s, "the matrix lists shards 0 to N-1")
	}
	assert.Equal(t, "compare", mergeJob.Needs, "merge waits for every compare job")
	var cmpCmds, mergeCmds [][]string
	for _, s := range cmpJob.Steps {
		cmpCmds = append(cmpCmds, mboptLines(t, joinContinued(s.Run), map[string]string{"${{ matrix.shard }}": "1",
			`"$base"`: "base", `"$GITHUB_RUN_ID"`: "42", `"$RUNNER_TEMP/shard"`: "shard"})...)
	}
	for _, s := range mergeJob.Steps {
		mergeCmds = append(mergeCmds, mboptLines(t, s.Run, nil)...)
	}
	check("workflow", cmpCmds, mergeCmds, len(shards), fmt.Sprintf("1/%d", len(shards)), "shards/compare-shard-%d")

	var jobs []k8sJob
	dec := yaml.NewDecoder(bytes.NewReader(read("compare-indexed-job.yaml")))
	for {
		var j k8sJob
		if err := dec.Decode(&j); err != nil {
			break
		}
		jobs = append(jobs, j)
	}
	require.Len(t, jobs, 2, "the Indexed Job and the merge Job")
	run, merge := jobs[0], jobs[1]
	assert.Equal(t, "Indexed", run.Spec.CompletionMode)
	require.NotNil(t, run.Spec.Completions)
	require.NotNil(t, run.Spec.Parallelism)
	assert.Equal(t, *run.Spec.Completions, *run.Spec.Parallelism)
	assert.Equal(t, "Never", run.Spec.Template.Spec.RestartPolicy)
	var runCmds, mergeK8s [][]string
	for _, c := range run.Spec.Template.Spec.Containers {
		for _, script := range c.Args {
			runCmds = append(runCmds, mboptLines(t, script, map[string]string{`"$BASE"`: "base", `"$HEAD_COMMIT"`: "head",
				`"/shared/compare/$JOB_COMPLETION_INDEX"`: "/shared/compare/1"})...)
		}
	}
	for _, c := range merge.Spec.Template.Spec.Containers {
		mergeK8s = append(mergeK8s, c.Command)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	check("Indexed Job", runCmds, mergeK8s, *run.Spec.Completions, fmt.Sprintf("/%d", *run.Spec.Completions), "/shared/compare/%d")

	if path, err := exec.LookPath("actionlint"); err == nil {
		out, err := exec.Command(path, "-shellcheck=", "-pyflakes=", filepath.Join(ciDir, "compare-sharded.yml")).CombinedOutput()
		assert.NoError(t, err, "actionlint:\n%s", out)
	}
}

// flagValue returns the value of --name in args ("--name value" or
// "--name=value"), or "".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// joinContinued joins shell lines continued with a backslash.
func joinContinued(script string) string {
	return strings.ReplaceAll(script, "\\\n", " ")
}
