package suite_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/suite"
)

// TestAffected checks that affected benchmarks are listed per invocation,
// marked in the shell and list formats, and that OnlyAffected plans just
// them.
func TestAffected(t *testing.T) {
	sel := []suite.Benchmark{
		{Package: "example.com/m/q", Name: "BenchmarkQuery", Affected: true},
		{Package: "example.com/m/s", Name: "BenchmarkScan"},
		{Package: "example.com/m/q", Name: "BenchmarkParse/n=1"},
		{Package: "example.com/m/q", Name: "BenchmarkParse/n=2", Affected: true},
	}
	tests := []struct {
		name  string
		opts  suite.Options
		shell string
		list  string
	}{
		{
			name: "tagged",
			shell: `go test -run '^$' -bench '^BenchmarkParse$/^(n=1|n=2)$|^BenchmarkQuery$' example.com/m/q  # affected: BenchmarkParse/n=2 BenchmarkQuery
go test -run '^$' -bench '^BenchmarkScan$' example.com/m/s
`,
			list: `example.com/m/q BenchmarkParse/n=1
example.com/m/q BenchmarkParse/n=2 affected
example.com/m/q BenchmarkQuery affected
example.com/m/s BenchmarkScan
`,
		},
		{
			name: "only affected",
			opts: suite.Options{OnlyAffected: true},
			shell: `go test -run '^$' -bench '^BenchmarkParse$/^n=2$|^BenchmarkQuery$' example.com/m/q  # affected: BenchmarkParse/n=2 BenchmarkQuery
`,
			list: `example.com/m/q BenchmarkParse/n=2 affected
example.com/m/q BenchmarkQuery affected
`,
		},
		{
			name: "top counts affected benchmarks only",
			opts: suite.Options{OnlyAffected: true, Top: 1},
			shell: `go test -run '^$' -bench '^BenchmarkQuery$' example.com/m/q  # affected: BenchmarkQuery
`,
			list: "example.com/m/q BenchmarkQuery affected\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs, err := suite.Plan(sel, tt.opts)
			require.NoError(t, err)
			var shell, list bytes.Buffer
			require.NoError(t, suite.Write(&shell, invs, suite.FormatShell))
			require.NoError(t, suite.Write(&list, invs, suite.FormatList))
			assert.Equal(t, tt.shell, shell.String())
			assert.Equal(t, tt.list, list.String())
		})
	}
	invs, err := suite.Plan(sel[1:3], suite.Options{OnlyAffected: true})
	require.NoError(t, err)
	assert.Empty(t, invs, "no affected benchmark plans nothing, without an error")
}

func TestReadJSON(t *testing.T) {
	invs, err := suite.Plan([]suite.Benchmark{
		{Package: "example.com/m/q", Dir: "q", Name: "BenchmarkQuery", Affected: true},
		{Package: "example.com/m/s", Name: "BenchmarkScan/n=1"},
	}, suite.Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, suite.Write(&buf, invs, suite.FormatJSON))
	got, err := suite.ReadJSON(&buf)
	require.NoError(t, err)
	assert.Equal(t, invs, got)
	assert.Equal(t, []suite.Benchmark{
		{Package: "example.com/m/q", Dir: "q", Name: "BenchmarkQuery"},
		{Package: "example.com/m/s", Name: "BenchmarkScan/n=1"},
	}, suite.Benchmarks(got))

	for _, bad := range []struct{ in, want string }{
		{`[]`, "not a suite written by mbopt suite --format json"},
		{`{}`, `no "invocations" list`},
		{`{"invocations": [{"benchmarks": ["BenchmarkX"]}]}`, "invocation 0 has no package"},
		{`{"invocations": [{"package": "p"}]}`, "invocation 0 (p) lists no benchmarks"},
	} {
		_, err := suite.ReadJSON(bytes.NewReader([]byte(bad.in)))
		if assert.Error(t, err, bad.in) {
			assert.Contains(t, err.Error(), bad.want)
		}
	}
}
