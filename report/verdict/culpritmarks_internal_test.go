package verdict

import (
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/stretchr/testify/assert"
)

// TestCulpritMarks: what a culprit's change was folded into and a
// function the application ran for less than a sample are marks on the
// function, in every form.
func TestCulpritMarks(t *testing.T) {
	res := &compare.Result{Unit: "instructions/op", AppImpact: &culprit.AppImpact{Basis: culprit.BasisFunctions},
		Culprits: []culprit.Culprit{{Function: "p.a", Base: 10, Head: 20, Delta: 10, Share: 1, InApp: true, AppFloor: true, FoldedInto: []string{"p.a.func1"}}}}
	var text, md strings.Builder
	doc.Text(&text).Table(culpritTable(res, 1))
	doc.Markdown(&md).Table(culpritTable(res, 1))
	assert.Contains(t, text.String(), "p.a ran in the application for less than a sample folded into p.a.func1  10.0 instructions")
	assert.Contains(t, md.String(), "| `p.a` *ran in the application for less than a sample* *folded into* `p.a.func1` | 10.0 instructions |")
}
