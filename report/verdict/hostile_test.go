package verdict_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/report/verdict"
	"github.com/mbopt/mbopt/testkit/hostile"
)

// hostileReport is a comparison of the hostile-names fixture: every name
// compared (a definite regression, a potential improvement or unchanged,
// by turns), two benchmarks that failed with hostile messages, a package
// that did not build, and a hostile commit subject, branch and note.
// annotations is the number of annotations WriteGitHub must write.
func hostileReport() (r *compare.Report, names []string, annotations int) {
	const mod = "example.com/m"
	const pkg = mod + "/h"
	r = &compare.Report{
		Schema: compare.SchemaVersion, Module: mod, Settings: settings(),
		Base:  compare.Revision{Spec: "refs/heads/@someone/[x](http://e)", Commit: "0123456789abcdef0123456789abcdef01234567", Subject: "fix <script>alert(1)</script> for @someone, see [x](http://e) ::error::x"},
		Head:  compare.Revision{Spec: "HEAD", Commit: "fedcba9876543210fedcba9876543210fedcba98", Subject: "@org/team www.e.example"},
		Notes: []string{pkg + "." + hostile.Sub("@someone") + " exists in neither revision", "base: <b>@someone</b> [x](http://e)"},
	}
	verdicts := []benchstats.Verdict{benchstats.DefiniteRegression, benchstats.PotentialImprovement, benchstats.Unchanged}
	for i, n := range hostile.Names {
		name := hostile.Sub(n)
		names = append(names, "h."+name)
		v := verdicts[i%3]
		if v != benchstats.Unchanged {
			annotations++
		}
		res := result(pkg, name, "sec/op", 0.2, 0.1, 0.3, v, nil)
		if v == benchstats.DefiniteRegression {
			// Culprits named after the benchmark, and profiles in a
			// directory named so too.
			res.Culprits = []culprit.Culprit{{Function: pkg + ".(*" + n + ").Run", Base: 100, Head: 150, Delta: 50, Share: 0.9, InApp: i%2 == 0}, {Function: n, Base: 10, Head: 11, Delta: 1, Share: 0.02}}
			res.Profiles = &compare.Profiles{Base: "/out/" + n + "/base.pprof", Head: "/out/" + n + "/head.pprof"}
			if i%2 == 0 {
				res.AppImpact = &culprit.AppImpact{Estimate: 0.05, Low: 0.04, High: 0.06, RelevantShare: 0.9}
			}
		}
		r.Results = append(r.Results, res)
	}
	for i, msg := range hostile.Messages {
		name := hostile.Sub(hostile.Names[i])
		r.Results = append(r.Results, compare.Result{ID: pkg + "." + name + "/failed", Package: pkg, Name: name + "/failed", Unit: "sec/op", Status: compare.Failed, Side: "head", Error: msg})
		annotations++
	}
	r.Results = append(r.Results, compare.Result{ID: mod + "/@someone", Package: mod + "/@someone", Status: compare.BuildFailed, Side: "base", Error: hostile.Messages[0]})
	annotations++
	compare.SortResults(r.Results)
	return r, names, annotations
}

// TestHostileNames: names, errors, subjects and notes chosen by whoever
// writes the benchmarks reach every rendering of a comparison inert
// (issue 25, security of what CI publishes): Markdown with no HTML, link
// or @-mention and every name whole in code, annotations escaped to one
// workflow command each, text with no workflow command and no control
// character, JSON that reads back as written.
func TestHostileNames(t *testing.T) {
	r, names, annotations := hostileReport()
	detailsTags := []string{"<details>", "<summary>", "</summary>", "</details>", "<sub>", "</sub>"}

	var md bytes.Buffer
	if err := verdict.WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	hostile.CheckMarkdown(t, md.Bytes(), names, detailsTags, nil)

	var gh bytes.Buffer
	summary, err := verdict.WriteGitHub(&gh, r)
	if err != nil {
		t.Fatal(err)
	}
	hostile.CheckWorkflowCommands(t, gh.Bytes(), annotations)
	hostile.CheckMarkdown(t, summary.Markdown, names, detailsTags, nil)

	var text bytes.Buffer
	if err := verdict.WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	hostile.CheckText(t, text.Bytes())

	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(data, "<>") {
		t.Errorf("JSON holds < or > unescaped: %s", data)
	}
	var back compare.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Results, r.Results) || back.Base != r.Base || !reflect.DeepEqual(back.Notes, r.Notes) {
		t.Errorf("JSON does not read back as written")
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s\nGitHub:\n%s\nText:\n%s", md.Bytes(), gh.Bytes(), text.Bytes())
	}
}
