package trend_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
	"github.com/mbopt/mbopt/testkit/hostile"
)

// TestHostileNames: the history of the hostile-names fixture, with hostile
// commit subjects and a hostile machine, renders inert (issue 25, security
// of what CI publishes): text with no workflow command or control
// character, Markdown with no HTML, link or @-mention and every name whole
// in code, JSON that holds no raw < or > and reads back.
func TestHostileNames(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	set := &history.Set{Baseline: compare.Revision{Commit: "1111111111111111111111111111111111111111", Subject: "<script>alert(1)</script> @someone"}}
	var ids []string
	for i, name := range hostile.Names {
		id := "example.com/m." + hostile.Sub(name)
		ids = append(ids, id)
		s := history.Series{ID: id, Unit: "sec/op", SettingsHash: "3f2a",
			Machine: history.Machine{GOOS: "linux", GOARCH: "amd64", CPU: "@someone [x](http://e) \x1b[31m::error::cpu", GoVersion: "go1.26.8"}}
		for j, c := range []float64{0.001, -0.002, 0.06, 0.061} {
			e := benchstats.Estimate{Change: c, CI: benchstats.Interval{Low: c - 0.005, High: c + 0.005}}
			s.Points = append(s.Points, history.Point{
				Head:  compare.Revision{Commit: fmt.Sprintf("%040d", 10*i+j+2), Subject: hostile.Messages[j%2] + " " + name, Time: t0.Add(time.Duration(j) * 24 * time.Hour)},
				Point: detect.Point{Change: c, CI: e.CI}, BaseValue: 1.2e-3, HeadValue: 1.2e-3 * (1 + c),
				Verdict: benchstats.Classify(e, 0.01, false), Threshold: 0.01,
			})
		}
		set.Series = append(set.Series, s)
	}
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02
	detected, err := set.Detect(opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := trend.NewDocument(set.Baseline, opt, detected)

	var text bytes.Buffer
	if err := trend.WriteText(&text, doc); err != nil {
		t.Fatal(err)
	}
	hostile.CheckText(t, text.Bytes())

	var md bytes.Buffer
	if err := trend.WriteMarkdown(&md, doc); err != nil {
		t.Fatal(err)
	}
	hostile.CheckMarkdown(t, md.Bytes(), ids, nil, nil)

	var js bytes.Buffer
	if err := trend.WriteJSON(&js, doc); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(js.Bytes(), "<>") {
		t.Errorf("JSON holds < or > unescaped")
	}
	var back trend.Document
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for i, s := range back.Series {
		if s.ID != doc.Series[i].ID || s.Machine != doc.Series[i].Machine {
			t.Errorf("series %d reads back as %q on %q", i, s.ID, s.Machine)
		}
	}
	used := map[string]bool{}
	for _, s := range doc.Series {
		hostile.CheckFileName(t, trend.FigureName(s, used), 200+len("-99.svg"))
	}
	if len(used) != len(doc.Series) {
		t.Errorf("%d figure names for %d series", len(used), len(doc.Series))
	}
	if t.Failed() {
		t.Logf("text:\n%s\nMarkdown:\n%s", text.Bytes(), md.Bytes())
	}
}
