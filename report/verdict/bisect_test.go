package verdict_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/bisect"
	"github.com/mbopt/mbopt/report/verdict"
)

// WriteBisect writes a bisection as its log, or as JSON; an Explanation,
// the comparison of the last good with the first bad commit, follows the
// log.
func ExampleWriteBisect() {
	r := &bisect.Result{Bench: "example.com/m.BenchmarkQuery", Good: "0123456789abcdef", Bad: "fedcba9876543210",
		FirstBad: "fedcba9876543210", LastGood: "0123456789abcdef",
		Steps: []bisect.Step{{Commit: "fedcba9876543210", Subject: "query: sort the keys", Change: 0.25, Low: 0.2, High: 0.3, Trials: 3, Unit: "sec/op", Decision: bisect.Bad}}}
	if err := verdict.WriteBisect(os.Stdout, r, "text"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// bisect example.com/m.BenchmarkQuery: good 0123456789ab, bad fedcba987654; wall time per operation (--metric instructions counts instructions under Valgrind, steadier on a shared machine)
	//   fedcba987654  bad        +25.0% [+20.0%, +30.0%] 3 trials  query: sort the keys
	// first bad commit: fedcba9876543210 (last good 0123456789abcdef)
}

func TestWriteBisect(t *testing.T) {
	r := &bisect.Result{Bench: "example.com/m.BenchmarkQuery", Good: "0123456789abcdef", Bad: "fedcba9876543210"}
	explained := *r
	explained.Explanation = &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/m",
		Base: compare.Revision{Commit: "0123456789abcdef"}, Head: compare.Revision{Commit: "fedcba9876543210"}}
	for _, tc := range []struct {
		name   string
		r      *bisect.Result
		format string
		want   []string // in order
		absent string
		err    bool
	}{
		{name: "text", r: r, format: "text", want: []string{"bisect example.com/m.BenchmarkQuery", "not located\n"}, absent: "culprit"},
		{name: "text with explanation", r: &explained, format: "text", want: []string{"not located\n", "\nlast good → first bad, with the culprit functions:\n\n"}},
		{name: "json", r: &explained, format: "json", want: []string{"{\n  \"bench\": \"example.com/m.BenchmarkQuery\"", `"explanation": {`}, absent: "last good →"},
		{name: "unknown", r: r, format: "markdown", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			err := verdict.WriteBisect(&b, tc.r, tc.format)
			if (err != nil) != tc.err {
				t.Fatalf("WriteBisect: %v", err)
			}
			out := b.String()
			for _, w := range tc.want {
				i := strings.Index(out, w)
				if i < 0 {
					t.Fatalf("missing %q in\n%s", w, out)
				}
				out = out[i+len(w):]
			}
			if tc.absent != "" && strings.Contains(b.String(), tc.absent) {
				t.Errorf("%q in\n%s", tc.absent, b.String())
			}
		})
	}
}
