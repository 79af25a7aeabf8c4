package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/analysis"
)

func TestParseApps(t *testing.T) {
	// A profile whose name ends in ":2", which the short form
	// NAME=FILE:WEIGHT would read as FILE "data" with weight 2.
	dir := t.TempDir()
	colon := filepath.Join(dir, "data:2")
	require.NoError(t, os.WriteFile(colon, nil, 0o644))

	tests := []struct {
		name      string
		apps      []string
		weights   []string
		files     []string
		scenarios []analysis.ScenarioSpec
		err       string
	}{
		{name: "plain files merge", apps: []string{"a.pprof", "b.pprof"}, files: []string{"a.pprof", "b.pprof"}},
		{
			name: "named, weighted, repeated", apps: []string{"ingest=i1.pprof", "query=q.pprof:2.5", "ingest=i2.pprof"},
			files: []string{"i1.pprof", "q.pprof", "i2.pprof"},
			scenarios: []analysis.ScenarioSpec{
				{Name: "ingest", Files: []string{"i1.pprof", "i2.pprof"}},
				{Name: "query", Files: []string{"q.pprof"}, Weight: 2.5, Weighted: true},
			},
		},
		{name: "colon not a weight stays in the path", apps: []string{"s=dir:x/a.pprof"}, files: []string{"dir:x/a.pprof"},
			scenarios: []analysis.ScenarioSpec{{Name: "s", Files: []string{"dir:x/a.pprof"}}}},
		{name: "file ending in :2 exists", apps: []string{"q=" + colon}, files: []string{colon},
			scenarios: []analysis.ScenarioSpec{{Name: "q", Files: []string{colon}}}},
		{name: "file ending in :2 with --weight", apps: []string{"q=" + colon, "r=r.pprof"}, weights: []string{"q=3"},
			files:     []string{colon, "r.pprof"},
			scenarios: []analysis.ScenarioSpec{{Name: "q", Files: []string{colon}, Weight: 3, Weighted: true}, {Name: "r", Files: []string{"r.pprof"}}}},
		{name: "--weight takes the value literally", apps: []string{"q=missing.pprof:2"}, weights: []string{"q=1.5"},
			files: []string{"missing.pprof:2"}, scenarios: []analysis.ScenarioSpec{{Name: "q", Files: []string{"missing.pprof:2"}, Weight: 1.5, Weighted: true}}},
		{name: "--weight repeated alike", apps: []string{"q=q.pprof"}, weights: []string{"q=2", "q=2"},
			files: []string{"q.pprof"}, scenarios: []analysis.ScenarioSpec{{Name: "q", Files: []string{"q.pprof"}, Weight: 2, Weighted: true}}},
		{name: "mixed", apps: []string{"a=x.pprof", "y.pprof"}, err: "--app: give every application profile a scenario name (NAME=FILE) or none; 1 of 2 have none"},
		{name: "zero weight", apps: []string{"a=x.pprof:0"}, err: "--app a=x.pprof:0: the weight must be a positive number, not 0"},
		{name: "two weights", apps: []string{"a=x.pprof:1", "a=y.pprof:2"}, err: "--app: scenario a has two weights, 1 and 2"},
		{name: "no file", apps: []string{"a="}, err: `--app a=: no file after "a="`},
		{name: "--weight without =", apps: []string{"a=x.pprof"}, weights: []string{"a"}, err: "--weight a: want NAME=WEIGHT"},
		{name: "--weight not a number", apps: []string{"a=x.pprof"}, weights: []string{"a=heavy"}, err: "--weight a=heavy: the weight must be a positive number, not heavy"},
		{name: "--weight negative", apps: []string{"a=x.pprof"}, weights: []string{"a=-1"}, err: "--weight a=-1: the weight must be a positive number, not -1"},
		{name: "--weight twice", apps: []string{"a=x.pprof"}, weights: []string{"a=1", "a=2"}, err: "--weight: scenario a has two weights, 1 and 2"},
		{name: "--weight of no scenario", apps: []string{"a=x.pprof"}, weights: []string{"b=2"}, err: "--weight b=2: no --app b=FILE names that scenario"},
		{name: "--weight with plain files", apps: []string{"x.pprof"}, weights: []string{"b=2"}, err: "--weight b=2: no --app b=FILE names that scenario"},
	}
	// The flags' names come from their bindings, which the commands
	// record when they are made.
	newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, scs, err := analysis.ParseApps(tt.apps, tt.weights)
			err = flagbind.Word(err, nil)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				var ie *mbopt.Error
				assert.ErrorAs(t, err, &ie, "a usage error (exit 2)")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.files, files)
			assert.Equal(t, tt.scenarios, scs)
		})
	}
}

// Library warnings and errors name Config fields; the command words them
// with its flags, in the text on stderr and in the JSON document alike.
func TestLibraryMessagesUseFlagNames(t *testing.T) {
	// No --module: the module comes from this repository's go.mod, which
	// no function of the example application belongs to: an error that
	// names the flag and the module to pass, never a Config field.
	code, stdout, stderr := run(t, "analyze", "--app", exampleDir+"/app.pprof", "--micro", exampleDir+"/micro", "--format", "json")
	require.Equal(t, cli.BadInput, code, stderr)
	assert.Contains(t, stderr, "(the module of ")
	assert.Contains(t, stderr, "pass --module example.com/tinytsdb")
	assert.NotContains(t, stderr+stdout, "Config.")

	code, _, stderr = run(t, "analyze", "--app", exampleDir+"/app.pprof", "--micro", exampleDir+"/nosuch", "--module", "m")
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, stderr, "no such file or directory (check the --micro path)")
}
