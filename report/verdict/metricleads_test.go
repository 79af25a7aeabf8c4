package verdict_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/report/verdict"
)

// The metric asked for leads the headline: with --metric instructions, a
// definite −1.4% in instructions/op is named before a larger definite
// −7.4% in B/op of the same benchmark (issue 33: on a real compression
// library the B/op led the report).
func TestMetricLeadsHeadline(t *testing.T) {
	s := settings()
	s.Metric = measure.Instructions
	r := &compare.Report{Schema: compare.SchemaVersion, Module: fixtureModule, Base: baseRev, Head: headRev, Settings: s}
	r.Results = []compare.Result{
		result(fixtureModule+"/flate", "BenchmarkEncode", "B/op", -0.074, -0.178, -0.011, benchstats.DefiniteImprovement, nil),
		result(fixtureModule+"/flate", "BenchmarkEncode", "instructions/op", -0.014, -0.016, -0.012, benchstats.DefiniteImprovement, nil),
	}
	var b bytes.Buffer
	if err := verdict.WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	var head string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "A definite") {
			head = l
			break
		}
	}
	if !strings.Contains(head, "-1.4%") || !strings.Contains(head, "instructions/op") {
		t.Errorf("headline %q: want the instructions/op change\n%s", head, b.String())
	}
}
