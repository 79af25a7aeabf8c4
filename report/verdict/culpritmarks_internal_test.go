package verdict

import (
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/stretchr/testify/assert"
)

// TestCulpritMarks: what a culprit's change was folded into, a function
// the application ran for less than a sample and the calling context a
// runtime function was weighed in are marks on the function, in every
// form.
func TestCulpritMarks(t *testing.T) {
	res := &compare.Result{Unit: "instructions/op", AppImpact: &culprit.AppImpact{Basis: culprit.BasisFunctions},
		Culprits: []culprit.Culprit{{Function: "p.a", Base: 10, Head: 20, Delta: 10, Share: 1, InApp: true, AppFloor: true, FoldedInto: []string{"p.a.func1"}}}}
	var text, md strings.Builder
	doc.Text(&text).Table(culpritTable(res, 1))
	doc.Markdown(&md).Table(culpritTable(res, 1))
	assert.Contains(t, text.String(), "p.a ran in the application for less than a sample folded into p.a.func1  10.0 instructions")
	assert.Contains(t, md.String(), "| `p.a` *ran in the application for less than a sample* *folded into* `p.a.func1` | 10.0 instructions |")
	res.Culprits = []culprit.Culprit{{Function: "runtime.memmove", Base: 10, Head: 20, Delta: 10, Share: 1, InApp: true, AppShare: 0.3,
		AppContext: []string{"p.Encode"}, AppContextShare: 0.1}}
	text.Reset()
	doc.Text(&text).Table(culpritTable(res, 1))
	assert.Contains(t, text.String(), "runtime.memmove weighed in the application under p.Encode  10.0 instructions")
}

// TestWhereTable: one column set with and without the application's
// profile, the application's columns first when known, a dash for what
// is not known.
func TestWhereTable(t *testing.T) {
	name := func(res *compare.Result) string { return res.Name }
	with := &compare.Result{Name: "BenchmarkA", Unit: "sec/op", Estimate: &benchstats.Estimate{Change: 0.04}, AppImpact: &culprit.AppImpact{Estimate: 0.02, Low: 0.01, High: 0.03, RelevantShare: 0.5},
		Culprits: []culprit.Culprit{{Function: "p.a", Share: 0.75}}}
	without := &compare.Result{Name: "BenchmarkB", Unit: "sec/op", Estimate: &benchstats.Estimate{Change: -0.01}}
	var md strings.Builder
	doc.Markdown(&md).Table(whereTable([]*compare.Result{with, without}, name))
	assert.Equal(t, "| # | application impact | interval | in the application | change | unit | benchmark | top culprit | share |\n"+
		"|--:|--:|--:|--:|--:|---|---|---|--:|\n"+
		"| 1 | +2.0% | +1.0% … +3.0% | 50.0% | +4.0% | sec/op | `BenchmarkA` | `p.a` | 75.0% |\n"+
		"| 2 | – | – | – | -1.0% | sec/op | `BenchmarkB` | none beyond noise | – |\n", md.String())
	md.Reset()
	doc.Markdown(&md).Table(whereTable([]*compare.Result{without}, name))
	assert.Equal(t, "| # | change | unit | benchmark | top culprit | share |\n|--:|--:|---|---|---|--:|\n| 1 | -1.0% | sec/op | `BenchmarkB` | none beyond noise | – |\n", md.String())
}
