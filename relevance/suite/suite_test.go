package suite_test

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/suite"
)

// fixtureLeaves are the benchmarks `go test -bench . -cpu 1` reports in
// ../testdata/suitefix, by package.
var fixtureLeaves = map[string][]string{
	"example.com/suitefix/a": {
		"BenchmarkFoo", "BenchmarkFoo2", "BenchmarkFooBar",
		"BenchmarkSub/x", "BenchmarkSub/x#01", "BenchmarkSub/xy", "BenchmarkSub/a+b",
		"BenchmarkSub/(paren)", "BenchmarkSub/[br]", "BenchmarkSub/a|b", "BenchmarkSub/$dollar^",
		"BenchmarkSub/dot.star", "BenchmarkSub/dotXstar", "BenchmarkSub/with_space",
		"BenchmarkSub/n=1", "BenchmarkSub/n=10", "BenchmarkSub/sl/ash", `BenchmarkSub/back\slash`,
		"BenchmarkNest/p/q", "BenchmarkNest/p/r", "BenchmarkNest/s/q", "BenchmarkNest/s/r",
	},
	"example.com/suitefix/b": {"BenchmarkFoo", "BenchmarkSub/x", "BenchmarkSub/y"},
}

// selectionCases are selections from the suitefix module together with the
// leaves each must run (want), when that differs from the selection itself.
var selectionCases = []struct {
	name string
	sel  []suite.Benchmark
	want []suite.Benchmark // nil: the selection
}{
	{name: "prefix of other names", sel: bms("a", "BenchmarkFoo")},
	{name: "two top-level", sel: bms("a", "BenchmarkFoo", "BenchmarkFooBar")},
	{name: "same name in two packages", sel: append(bms("a", "BenchmarkFoo"), bms("b", "BenchmarkFoo")...)},
	{name: "same name other package only", sel: bms("b", "BenchmarkSub/y")},
	{name: "sub prefix of sibling", sel: bms("a", "BenchmarkSub/x")},
	{name: "uniquified repeat", sel: bms("a", "BenchmarkSub/x#01")},
	{name: "n=1 not n=10", sel: bms("a", "BenchmarkSub/n=1")},
	{name: "metacharacters", sel: bms("a", "BenchmarkSub/a+b", "BenchmarkSub/(paren)", "BenchmarkSub/[br]",
		"BenchmarkSub/a|b", "BenchmarkSub/$dollar^", "BenchmarkSub/dot.star", `BenchmarkSub/back\slash`)},
	{name: "space as written in b.Run", sel: bms("a", "BenchmarkSub/with space"), want: bms("a", "BenchmarkSub/with_space")},
	{name: "slash inside a sub-benchmark name", sel: bms("a", "BenchmarkSub/sl/ash")},
	{name: "nested non-product", sel: bms("a", "BenchmarkNest/p/q", "BenchmarkNest/s/r")},
	{name: "nested with top-level sibling", sel: bms("a", "BenchmarkNest/s/q", "BenchmarkFoo2", "BenchmarkSub/xy")},
	{name: "top-level unit selects its subs", sel: bms("a", "BenchmarkNest"),
		want: bms("a", "BenchmarkNest/p/q", "BenchmarkNest/p/r", "BenchmarkNest/s/q", "BenchmarkNest/s/r")},
	{name: "everything", sel: all()},
}

func bms(pkg string, names ...string) []suite.Benchmark {
	var out []suite.Benchmark
	for _, n := range names {
		out = append(out, suite.Benchmark{Package: "example.com/suitefix/" + pkg, Dir: pkg, Name: n})
	}
	return out
}

func all() []suite.Benchmark {
	var out []suite.Benchmark
	for _, pkg := range []string{"a", "b"} {
		out = append(out, bms(pkg, fixtureLeaves["example.com/suitefix/"+pkg]...)...)
	}
	return out
}

// ids returns "package name" strings, sorted.
func ids(bs []suite.Benchmark) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Package+" "+benchname.Rewrite(b.Name))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// selected returns the fixture leaves that the invocations' patterns select,
// according to benchname.Filter.
func selected(t *testing.T, invs []suite.Invocation) []string {
	t.Helper()
	var out []string
	for _, inv := range invs {
		f, err := benchname.CompileFilter(inv.Bench)
		require.NoError(t, err)
		for _, leaf := range fixtureLeaves[inv.Package] {
			if f.Selects(leaf) {
				out = append(out, inv.Package+" "+leaf)
			}
		}
	}
	slices.Sort(out)
	return out
}

func TestPlanSelectsExactly(t *testing.T) {
	for _, tc := range selectionCases {
		t.Run(tc.name, func(t *testing.T) {
			invs, err := suite.Plan(tc.sel, suite.Options{})
			require.NoError(t, err)
			want := tc.want
			if want == nil {
				want = tc.sel
			}
			assert.Equal(t, ids(want), selected(t, invs), "patterns %v", patterns(invs))
		})
	}
}

// TestPlanSelectsExactlyRandom checks random subsets of the fixture's leaves
// (seeded, so the subsets are the same on every run).
func TestPlanSelectsExactlyRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	universe := all()
	for i := range 500 {
		var sel []suite.Benchmark
		for _, b := range universe {
			if r.IntN(3) == 0 {
				sel = append(sel, b)
			}
		}
		invs, err := suite.Plan(sel, suite.Options{})
		require.NoError(t, err)
		if got := selected(t, invs); !slices.Equal(got, ids(sel)) {
			t.Fatalf("subset %d: patterns %v select %v, want %v", i, patterns(invs), got, ids(sel))
		}
	}
}

func patterns(invs []suite.Invocation) []string {
	var out []string
	for _, inv := range invs {
		out = append(out, inv.Bench)
	}
	return out
}

// resultLine matches a benchmark result line printed with -cpu 1.
var resultLine = regexp.MustCompile(`(?m)^(Benchmark\S*)\s+\d+\s+\S+ ns/op`)

// TestInvocationsRunExactly runs the emitted go test commands with
// -benchtime 1x on the suitefix module and checks which benchmarks report
// results.
func TestInvocationsRunExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on testdata/suitefix")
	}
	for _, tc := range selectionCases {
		t.Run(tc.name, func(t *testing.T) {
			invs, err := suite.Plan(tc.sel, suite.Options{Flags: []string{"-benchtime", "1x", "-cpu", "1"}})
			require.NoError(t, err)
			var ran []string
			for _, inv := range invs {
				require.Equal(t, "go", inv.Args[0])
				cmd := exec.CommandContext(t.Context(), "go", inv.Args[1:]...)
				cmd.Dir = "../../testdata/suitefix"
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "%s:\n%s", inv.Command(), out)
				for _, m := range resultLine.FindAllStringSubmatch(string(out), -1) {
					ran = append(ran, inv.Package+" "+m[1])
				}
			}
			slices.Sort(ran)
			want := tc.want
			if want == nil {
				want = tc.sel
			}
			assert.Equal(t, ids(want), ran, "patterns %v", patterns(invs))
		})
	}
}

func TestPlan(t *testing.T) {
	sel := []suite.Benchmark{
		{Package: "m/z", Dir: "z", Name: "BenchmarkB"},
		{Package: "m/a", Dir: "a", Name: "BenchmarkY/it's"},
		{Package: "m/z", Dir: "z", Name: "BenchmarkB"},
		{Package: "m/z", Name: "BenchmarkA"},
		{Package: "m/a", Name: "BenchmarkX"},
	}
	invs, err := suite.Plan(sel, suite.Options{Flags: []string{"-count", "10"}})
	require.NoError(t, err)
	want := []suite.Invocation{
		{Package: "m/a", Dir: "a", Benchmarks: []string{"BenchmarkX", "BenchmarkY/it's"},
			Bench: "^BenchmarkX$|^BenchmarkY$/^it's$",
			Args:  []string{"go", "test", "-run", "^$", "-bench", "^BenchmarkX$|^BenchmarkY$/^it's$", "-count", "10", "m/a"}},
		{Package: "m/z", Dir: "z", Benchmarks: []string{"BenchmarkA", "BenchmarkB"},
			Bench: "^(BenchmarkA|BenchmarkB)$",
			Args:  []string{"go", "test", "-run", "^$", "-bench", "^(BenchmarkA|BenchmarkB)$", "-count", "10", "m/z"}},
	}
	assert.Equal(t, want, invs)
	assert.Equal(t, `go test -run '^$' -bench '^BenchmarkX$|^BenchmarkY$/^it'\''s$' -count 10 m/a`, invs[0].Command())

	top, err := suite.Plan(sel, suite.Options{Top: 2})
	require.NoError(t, err)
	assert.Equal(t, "m/a", top[0].Package)
	assert.Equal(t, []string{"BenchmarkY/it's"}, top[0].Benchmarks)
	assert.Equal(t, []string{"BenchmarkB"}, top[1].Benchmarks, "Top counts distinct benchmarks in selection order")
}

func TestPlanErrors(t *testing.T) {
	tests := []struct {
		name string
		sel  []suite.Benchmark
		want string
	}{
		{"no package", []suite.Benchmark{{Name: "BenchmarkA"}}, `benchmark 0 ("BenchmarkA") has no package`},
		{"not a benchmark", []suite.Benchmark{{Package: "m/a", Name: "TestA"}}, `benchmark 0 (m/a "TestA"): name must start with "Benchmark"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := suite.Plan(tt.sel, suite.Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestWrite(t *testing.T) {
	invs, err := suite.Plan([]suite.Benchmark{
		{Package: "m/a", Dir: "a", Name: "BenchmarkX/n=1"},
		{Package: "m/a", Dir: "a", Name: "BenchmarkX/n=2"},
		{Package: "m/b", Dir: "b", Name: "BenchmarkY"},
	}, suite.Options{})
	require.NoError(t, err)
	tests := []struct {
		format suite.Format
		want   string
	}{
		{suite.FormatShell, "go test -run '^$' -bench '^BenchmarkX$/^(n=1|n=2)$' m/a\n" +
			"go test -run '^$' -bench '^BenchmarkY$' m/b\n"},
		{suite.FormatList, "m/a BenchmarkX/n=1\nm/a BenchmarkX/n=2\nm/b BenchmarkY\n"},
		{suite.FormatJSON, `{
  "invocations": [
    {
      "package": "m/a",
      "dir": "a",
      "benchmarks": [
        "BenchmarkX/n=1",
        "BenchmarkX/n=2"
      ],
      "bench": "^BenchmarkX$/^(n=1|n=2)$",
      "args": [
        "go",
        "test",
        "-run",
        "^$",
        "-bench",
        "^BenchmarkX$/^(n=1|n=2)$",
        "m/a"
      ]
    },
    {
      "package": "m/b",
      "dir": "b",
      "benchmarks": [
        "BenchmarkY"
      ],
      "bench": "^BenchmarkY$",
      "args": [
        "go",
        "test",
        "-run",
        "^$",
        "-bench",
        "^BenchmarkY$",
        "m/b"
      ]
    }
  ]
}
`},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, suite.Write(&buf, invs, tt.format))
			assert.Equal(t, tt.want, buf.String())
		})
	}
	var buf bytes.Buffer
	err = suite.Write(&buf, invs, "yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "valid values are {shell|json|list}")
	assert.Empty(t, buf.String())

	buf.Reset()
	require.NoError(t, suite.Write(&buf, nil, suite.FormatJSON))
	assert.Equal(t, "{\n  \"invocations\": []\n}\n", buf.String(), "no invocations is an empty list, not null")
}
