package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNotRun: the sub-benchmarks a process that ended did not run are
// those another process, of either version, started after the last one it
// started; parents are left out, and a benchmark the other version has
// before that point is not counted.
func TestNotRun(t *testing.T) {
	full := []string{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/b", "BenchmarkP/c"}
	ended := []string{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/b"}
	for _, tc := range []struct {
		name        string
		base, head  [][]string // the orders the processes of each version started
		endedInHead []string   // what the process of the head that ended in BenchmarkP/b started
		want        map[string]string
	}{
		{"the other version ran the rest", [][]string{full}, nil, ended, map[string]string{"BenchmarkP/c": "BenchmarkP/b"}},
		{"an earlier run of the same version ran the rest", nil, [][]string{full}, ended, map[string]string{"BenchmarkP/c": "BenchmarkP/b"}},
		{"no process showed more", [][]string{ended}, nil, ended, nil},
		{"the base lacks the benchmark the head ended in", [][]string{{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/c"}}, nil, ended, map[string]string{"BenchmarkP/c": "BenchmarkP/b"}},
		{"a benchmark only the base has before the end is removed, not kept from running",
			[][]string{{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/old", "BenchmarkP/b", "BenchmarkP/c"}}, nil, ended, map[string]string{"BenchmarkP/c": "BenchmarkP/b"}},
		{"nested: the rest of the parent and the later parents' sub-benchmarks, not the parents",
			[][]string{{"BenchmarkP", "BenchmarkP/x", "BenchmarkP/x/a", "BenchmarkP/x/b", "BenchmarkP/x/c", "BenchmarkP/y", "BenchmarkP/y/1"}}, nil,
			[]string{"BenchmarkP", "BenchmarkP/x", "BenchmarkP/x/a", "BenchmarkP/x/b"},
			map[string]string{"BenchmarkP/x/c": "BenchmarkP/x/b", "BenchmarkP/y/1": "BenchmarkP/x/b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := &unit{name: "BenchmarkP"}
			for _, o := range tc.base {
				u.noteStarts(Base, outcome{started: o})
			}
			for _, o := range tc.head {
				u.noteStarts(Head, outcome{started: o})
			}
			in := tc.endedInHead[len(tc.endedInHead)-1]
			u.noteStarts(Head, outcome{started: tc.endedInHead, ended: in})
			u.noteStarts(Head, outcome{started: tc.endedInHead, ended: in}) // each once
			assert.Len(t, u.endedRuns[Head], 1)
			assert.Equal(t, tc.want, u.notRun(Head))
			assert.Nil(t, u.notRun(Base), "no process of the base ended")
		})
	}
}
