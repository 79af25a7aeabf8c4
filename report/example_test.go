package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report"
)

// analyse runs the analysis of the bundled example's committed profiles
// (its application and its benchmarks), with recommend recommendations.
func analyse(recommend int) *analysis.Report {
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App:       []string{"../testdata/profiles/example/app.pprof"},
		Micro:     []string{"../testdata/profiles/example/micro"},
		Modules:   []string{"example.com/tinytsdb"},
		Recommend: recommend,
	})
	if err != nil {
		log.Fatal(err)
	}
	return rep
}

// Build turns an analysis into the JSON document that mbopt analyze
// --format json writes; its fields are the documented schema.
func ExampleBuild() {
	d := report.Build(analyse(1))
	fmt.Printf("schema %d, criterion %s, impact %s, application %d nodes (%d project), %.2fs\n",
		d.Version, d.Criterion, d.Impact, d.Application.Nodes, d.Application.ProjectNodes, d.Application.TotalSeconds)
	b := d.Benchmarks[0] // the largest attributed impact (the default)
	fmt.Printf("top benchmark %s: attributed impact %.2fs (%.1f%%), reference impact %.2fs (%.1f%%), selected %v\n",
		b.ID, b.AttributedImpactSeconds, 100*b.AttributedImpactShare, b.ImpactSeconds, 100*b.ImpactShare, b.Selected)
	for _, p := range d.MinimalSuite {
		fmt.Printf("pick %s: +%d, cumulative %.3f\n", p.ID, p.Added, p.CumulativeProjectRatio)
	}

	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, d); err != nil {
		log.Fatal(err)
	}
	var back report.Document
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		log.Fatal(err)
	}
	fmt.Println("round trip:", back.Coverage == d.Coverage, len(back.MinimalSuite) == len(d.MinimalSuite))
	// Output:
	// schema 1, criterion project, impact attributed, application 605 nodes (51 project), 11.66s
	// top benchmark httpapi__BenchmarkQueryHandler: attributed impact 8.06s (69.1%), reference impact 8.73s (74.9%), selected true
	// pick query__BenchmarkQuery: +32, cumulative 0.627
	// pick httpapi__BenchmarkQueryHandler: +9, cumulative 0.804
	// pick httpapi__BenchmarkWrite: +5, cumulative 0.902
	// pick storage__BenchmarkSearch: +1, cumulative 0.922
	// round trip: true true
}

// Figures returns the data of the report's plots; PNG and SVG draw them.
func ExampleFigures() {
	for _, f := range report.Figures(report.Build(analyse(1))) {
		points := 0
		for _, s := range f.Lines {
			points += len(s.X)
		}
		if f.Bars != nil {
			points = len(f.Bars.Values)
		}
		fmt.Printf("%s: %q, %d points\n", f.Name, f.Title, points)
	}
	// Output:
	// suite-coverage: "Coverage of the application by the minimal suite", 15 points
	// recommend-coverage: "Coverage if the recommended functions were benchmarked", 4 points
	// suite-impact: "Attributed impact of the selected benchmarks", 4 points
}

// Render is what mbopt analyze prints in each format; github returns the
// suite as go test command lines and the step summary that shows it.
func ExampleRender() {
	rep := analyse(0)
	for _, format := range []string{"text", "json", "github"} {
		out, sum, err := report.Render(rep, format, report.TextOptions{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(format, len(out) > 0, sum != nil && bytes.Contains(sum.Markdown, out))
	}
	// Output:
	// text true false
	// json true false
	// github true true
}
