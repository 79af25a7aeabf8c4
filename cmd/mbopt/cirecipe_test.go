package main

import (
	"io"
	"os"
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

// TestCIRecipeFlags checks every recipe of docs/ci: the guide links it,
// and every mbopt command line of a GitHub Actions workflow uses a
// subcommand and flags that exist (the Kubernetes Jobs' commands are
// parsed by TestCIRecipes and TestCompareShardRecipes).
func TestCIRecipeFlags(t *testing.T) {
	read := recipeReader(t)
	entries, err := os.ReadDir(ciDir)
	require.NoError(t, err)
	rootCmd := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	var workflows int
	for _, e := range entries {
		data := read(e.Name())
		var wf workflow
		require.NoError(t, yaml.Unmarshal(data, &wf), e.Name())
		if len(wf.Jobs) == 0 {
			continue // a Kubernetes Job
		}
		workflows++
		var cmds [][]string
		for _, job := range wf.Jobs {
			for _, st := range job.Steps {
				cmds = append(cmds, mboptCommands(t, st.Run)...)
			}
		}
		assert.NotEmpty(t, cmds, "%s runs mbopt", e.Name())
		for _, args := range cmds {
			require.NotEmpty(t, args)
			cmd, rest, err := rootCmd.Find(args)
			require.NoError(t, err, "%s: mbopt %s", e.Name(), strings.Join(args, " "))
			require.NotEqual(t, rootCmd, cmd, "%s: mbopt %s: no such subcommand", e.Name(), strings.Join(args, " "))
			for _, a := range rest {
				name, ok := strings.CutPrefix(a, "--")
				if !ok {
					continue
				}
				name, _, _ = strings.Cut(name, "=")
				assert.True(t, lookupFlag(cmd, name), "%s: mbopt %s: the recipe uses --%s, which the command does not have", e.Name(), args[0], name)
			}
		}
	}
	assert.GreaterOrEqual(t, workflows, 3, "docs/ci holds the GitHub Actions workflows")
}

// lookupFlag reports whether cmd has the flag, its own or inherited.
func lookupFlag(cmd *cobra.Command, name string) bool {
	return cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil
}
