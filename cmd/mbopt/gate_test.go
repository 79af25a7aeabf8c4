package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/internal/flagbind"
)

// TestGateWorded: a failed gate names its flag, as every error the command
// prints names flags, not the library's fields (compare and compare merge
// said "FailOn definite-regression: the gate failed …"), and exits 3.
func TestGateWorded(t *testing.T) {
	// The flags' names come from their bindings, which the commands
	// record when they are made.
	newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	rep := &compare.Report{Settings: compare.Settings{AppImpactThreshold: 0.001}, Results: []compare.Result{{ID: "p.BenchmarkA", Name: "BenchmarkA", Unit: "sec/op",
		Status: compare.Compared, Verdict: benchstats.DefiniteRegression, AppImpact: &culprit.AppImpact{Estimate: 0.05, RelevantShare: 1}}}}
	for _, f := range []compare.FailOn{compare.FailOnDefiniteRegression, compare.FailOnAppImpact} {
		err := flagbind.Word(gate(rep, f), nil) // as execute words what it returns
		require.Error(t, err)
		assert.Equal(t, "--fail-on "+string(f)+": the gate failed on 1 benchmark: p.BenchmarkA (sec/op)", err.Error())
		assert.Equal(t, cli.Gate, cli.Code(err, nil), "exit 3")
	}
}
