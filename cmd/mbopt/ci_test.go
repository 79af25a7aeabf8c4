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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// ciDir holds the CI recipes docs/ci.md includes.
const ciDir = "../../docs/ci"

// TestCIRecipes checks the sharded-collection recipes of docs/ci.md: the
// doc holds each file verbatim; the GitHub Actions workflow has a matrix
// of N shards whose collect job runs --shard ${{ matrix.shard }}/N and a
// merge job that needs it and merges shards 0 to N-1; the Kubernetes
// Indexed Job has completions == parallelism == N and runs --shard /N,
// and the merge Job merges the N shard directories; every mbopt command
// parses with the command's real flags.
func TestCIRecipes(t *testing.T) {
	doc, err := os.ReadFile("../../docs/ci.md")
	require.NoError(t, err)
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(ciDir, name))
		require.NoError(t, err)
		assert.Contains(t, string(doc), "```yaml\n"+string(data)+"```\n", "docs/ci.md includes docs/ci/%s verbatim", name)
		return data
	}

	// GitHub Actions.
	var wf struct {
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
		collectCmds = append(collectCmds, mbopt(t, s.Run, map[string]string{"${{ matrix.shard }}": "1"})...)
	}
	for _, s := range mergeJob.Steps {
		mergeCmds = append(mergeCmds, mbopt(t, s.Run, nil)...)
	}
	checkShardCommands(t, "workflow", collectCmds, mergeCmds, n, fmt.Sprintf("1/%d", n), "shards/shard-%d")

	// Kubernetes.
	type container struct {
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
	}
	type job struct {
		Kind string `yaml:"kind"`
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    *int   `yaml:"completions"`
			Parallelism    *int   `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					RestartPolicy string      `yaml:"restartPolicy"`
					Containers    []container `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	commands := func(j job) [][]string {
		var cmds [][]string
		for _, c := range j.Spec.Template.Spec.Containers {
			switch {
			case len(c.Command) > 0 && c.Command[0] == "mbopt":
				cmds = append(cmds, c.Command)
			case len(c.Command) == 2 && c.Command[0] == "sh" && c.Command[1] == "-c":
				for _, script := range c.Args {
					cmds = append(cmds, mbopt(t, script, map[string]string{"$JOB_COMPLETION_INDEX": "1"})...)
				}
			}
		}
		return cmds
	}
	var collect, merge job
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
	require.NoError(t, o.resolveShard(os.Getenv), recipe)
	assert.Equal(t, n, o.shardSpec.Count, "%s: the N of --shard is the number of shards", recipe)

	m := mergeCmds[0]
	require.Equal(t, "merge", m[1], recipe)
	parseCommand(t, m)
	var dirs []string
	for _, a := range m[2:] {
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

// mbopt returns the mbopt command lines of a shell script, split into
// words after replacing each key of vars by its value.
func mbopt(t *testing.T, script string, vars map[string]string) [][]string {
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
