package main

import (
	"io"
	"os"
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

// workflow is the part of a GitHub Actions workflow the recipe test reads.
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

// TestCompareRecipe checks the CI recipe of docs/ci.md: the workflow file
// is valid YAML of the expected shape, docs/ci.md includes it verbatim,
// and every mbopt command line in it uses a subcommand and flags that
// exist.
func TestCompareRecipe(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "docs", "examples", "compare.yml"))
	require.NoError(t, err)
	ci, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	require.NoError(t, err)
	assert.Contains(t, string(ci), "```yaml\n"+string(data)+"```\n", "docs/ci.md must include docs/examples/compare.yml verbatim")

	var wf workflow
	require.NoError(t, yaml.Unmarshal(data, &wf))
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

	rootCmd := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	var compared bool
	for _, args := range cmds {
		require.NotEmpty(t, args)
		cmd, rest, err := rootCmd.Find(args)
		known := func(name string) bool { return lookupFlag(cmd, name) }
		require.NoError(t, err, "mbopt %s", strings.Join(args, " "))
		require.NotEqual(t, rootCmd, cmd, "mbopt %s: no such subcommand", strings.Join(args, " "))
		if args[0] == "compare" {
			compared = true
			assert.Contains(t, args, "--format")
			assert.Equal(t, "github", args[slices.Index(args, "--format")+1])
			assert.Contains(t, args, "--fail-on")
		}
		for _, a := range rest {
			name, ok := strings.CutPrefix(a, "--")
			if !ok {
				continue
			}
			name, _, _ = strings.Cut(name, "=")
			assert.True(t, known(name), "mbopt %s: the recipe uses --%s, which the command does not have", args[0], name)
		}
	}
	assert.True(t, compared, "the recipe runs mbopt compare")
}

// lookupFlag reports whether cmd has the flag, its own or inherited.
func lookupFlag(cmd *cobra.Command, name string) bool {
	return cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil
}
