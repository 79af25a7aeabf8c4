package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
	"github.com/mbopt/mbopt/report/plot"
)

// HTMLImage is a drawn figure for [WriteHTML].
type HTMLImage struct {
	// Figure is the figure's data: title, caption and name.
	Figure plot.Figure
	// PNG is the figure drawn as PNG; it is inlined as a data: URI.
	PNG []byte
}

// WriteHTML writes d as one self-contained HTML page: styles inline and
// every figure inlined as a data: URI, so the file can be mailed, archived
// as a CI artifact or opened offline.
func WriteHTML(w io.Writer, d *Document, images []HTMLImage) error {
	type img struct {
		Title, Caption, Name string
		Src                  template.URL
	}
	data := struct {
		D      *Document
		Images []img
		// Notes, Picks, Recommendations, Benchmarks and Thin are
		// printed by package doc's HTML printer.
		Notes, Picks, Recommendations, Benchmarks, Thin template.HTML
		SensitivityCurve, SensitivityRecs               template.HTML
		// Scenarios and Overlaps are the scenario and overlap tables,
		// ScopeNote the scope note.
		Scenarios, Overlaps, ScopeNote template.HTML
		SensitivityHeadline            string
		Suite                          string
		Stop                           string
		ThinFix                        []string
		// SuiteProject and SuiteOverall are the minimal (or selected)
		// suite's own coverage: its last pick's cumulative ratios.
		SuiteProject, SuiteOverall float64
	}{D: d}
	if n := len(d.MinimalSuite); n > 0 {
		data.SuiteProject = d.MinimalSuite[n-1].CumulativeProjectRatio
		data.SuiteOverall = d.MinimalSuite[n-1].CumulativeOverallRatio
	}
	for _, im := range images {
		data.Images = append(data.Images, img{
			Title: im.Figure.Title, Caption: im.Figure.Caption, Name: im.Figure.Name,
			Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(im.PNG)),
		})
	}
	data.Notes = printHTML(func(p doc.Printer) { printNotes(p, d.suiteNotes()) })
	data.Picks = printHTML(func(p doc.Printer) { p.Table(d.picksTable(false)) })
	data.Recommendations = printHTML(func(p doc.Printer) { p.Table(d.recommendationsTable(false)) })
	data.Benchmarks = printHTML(func(p doc.Printer) { p.Table(d.benchmarksTable(0)) })
	data.Thin = printHTML(func(p doc.Printer) { p.Table(d.thinTable()) })
	if s := d.Sensitivity; s != nil {
		data.SensitivityHeadline = sensitivityHeadline(s, d.appMeasure("CPU"))
		data.SensitivityCurve = printHTML(func(p doc.Printer) { p.Table(sensitivityCurveTable(s)) })
		data.SensitivityRecs = printHTML(func(p doc.Printer) { p.Table(sensitivityRecommendationsTable(s)) })
	}
	if sc := d.Scenarios; sc != nil {
		data.Scenarios = printHTML(func(p doc.Printer) { p.Table(scenariosTable(sc)) })
		data.Overlaps = printHTML(func(p doc.Printer) {
			for _, o := range overlaps(sc) {
				p.Table(o.table)
				p.Note(o.common)
			}
		})
	}
	var sb strings.Builder
	writeSuiteHeading(func(f string, a ...any) { fmt.Fprintf(&sb, f, a...) }, d)
	data.Suite = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(sb.String(), "**", ""), "## ", ""))
	data.ScopeNote = printHTML(func(p doc.Printer) { p.Note(d.scopeNote()) })
	if len(d.ThinBenchmarks) > 0 {
		data.ThinFix = d.thinFix()
	}
	return htmlTemplate.Execute(w, data)
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":        render.Pct,
	"secs":       secs,
	"weight":     func(d *Document, v float64) string { return d.weight(v) },
	"mdes":       func(d *Document) string { return mdesText(d.Sensitivity, d.MDEHistory) },
	"appNoun":    func(d *Document) string { return d.appMeasure("CPU") },
	"attributed": func(d *Document) bool { return d.attributed() },
	"impactName": func(d *Document) string { return d.impactName() },
	"join":       strings.Join,
	// The marks of issue 24: marginal picks, negligible and maybe-unseen
	// recommendations, thin benchmark profiles.
	"anyMarginal": func(d *Document) bool {
		return slices.ContainsFunc(d.MinimalSuite, func(p Pick) bool { return p.Marginal })
	},
	"anyNegligible": func(d *Document) bool {
		return slices.ContainsFunc(d.Recommendations, func(r Recommendation) bool { return r.Negligible != nil })
	},
	"anyUnseen": func(d *Document) bool {
		return slices.ContainsFunc(d.Recommendations, func(r Recommendation) bool { return len(r.MaybeCoveredBy) > 0 })
	},
	"lines": func(s string) []string { return strings.Split(s, "\n\n") },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mbopt report: {{join .D.Modules ", "}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; padding-bottom: .2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .92em; }
th, td { border: 1px solid #ddd; padding: .3em .6em; } th { background: #f4f4f4; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } td code { font-size: .95em; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #555; font-size: .9em; max-width: 60em; }
.kpi { display: flex; gap: 1.5em; flex-wrap: wrap; } .kpi div { background: #f6f8fa; padding: .8em 1.2em; border-radius: 6px; }
.kpi b { display: block; font-size: 1.6em; }
.note { background: #fffbe6; border-left: 4px solid #f0c000; padding: .5em 1em; }
.scope { background: #eef4fb; border-left: 4px solid #4a7fc1; padding: .5em 1em; }
.mark { display: inline-block; font-size: .8em; padding: 0 .4em; margin-left: .3em; border-radius: 3px; background: #eee; color: #444; white-space: nowrap; }
.mark.thin { background: #fde2e1; color: #8a1c14; } .mark.marginal { background: #fff1cc; color: #6b4e00; } .mark.negligible { background: #e8e8e8; color: #555; } .mark.unseen { background: #e3ecfa; color: #1f4b8f; }
</style>
</head>
<body>
<h1>mbopt: microbenchmark suite relevance for <code>{{join .D.Modules ", "}}</code></h1>
<div class="kpi">
<div><b>{{pct .D.Coverage.Project.Ratio}}</b>project-only coverage by all {{len .D.Benchmarks}} benchmarks ({{.D.Coverage.Project.Covered}}/{{.D.Coverage.Project.Total}})</div>
<div><b>{{pct .D.Coverage.Overall.Ratio}}</b>overall coverage by all {{len .D.Benchmarks}} benchmarks ({{.D.Coverage.Overall.Covered}}/{{.D.Coverage.Overall.Total}})</div>
<div><b>{{len .D.MinimalSuite}} / {{len .D.Benchmarks}}</b>benchmarks in the suite</div>
<div><b>{{pct .SuiteOverall}}</b>overall coverage by the suite (project-only {{pct .SuiteProject}})</div>
<div><b>{{weight .D .D.Application.TotalSeconds}}</b>application {{appNoun .D}} ({{.D.Application.Nodes}} functions, {{.D.Application.ProjectNodes}} project{{if attributed .D}}; {{weight .D .D.Application.OutsideProjectSeconds}} outside project code{{end}})</div>
</div>
{{.ScopeNote}}{{with .D.ThinBenchmarks}}<p class="scope"><span class="mark thin">thin</span> {{len .}} of the {{len $.D.Benchmarks}} benchmarks took too few CPU samples to trust (see <a href="#thin">Thin benchmark profiles</a>).</p>
{{end}}
{{range lines .Suite}}<p>{{.}}</p>
{{end}}{{.Notes}}
<h2>Figures</h2>
{{range .Images}}<figure id="{{.Name}}"><img src="{{.Src}}" alt="{{.Title}}"><figcaption>{{.Caption}}</figcaption></figure>
{{end}}
{{if .D.MinimalSuite}}<h2>Suite, pick by pick</h2>
{{.Picks}}{{if anyMarginal .D}}<p><span class="mark marginal">marginal</span> the functions the pick adds take under 1% of the application's {{.D.Impact}} time: it keeps the suite's coverage through code that barely runs; whether it is worth running is your call.</p>
{{end}}{{end}}
{{if or .D.Recommendations .D.RecommendationShortfall}}<h2>Recommended benchmark targets (Algorithm 3)</h2>{{end}}
{{with .D.RecommendationShortfall}}<p class="shortfall">{{.Why}}</p>
{{end}}{{if .D.Recommendations}}{{$details := .D.RecommendationTargets}}{{.Recommendations}}{{if $details}}<p>Functions a benchmark can call, closures folded into the function that returns or starts them. <i>test</i>: an external test package (<code>x_test</code>) can call it, else an internal test; <i>called by</i>: the application's direct callers; <i>hottest beneath</i>: the project functions its benchmark would newly cover.</p>
{{end}}{{if anyNegligible .D}}<p><span class="mark negligible">negligible</span> under 0.2% of the application's time and small (inlined into covered callers, or at most 5 lines): a benchmark of it would measure little.{{if .D.NegligibleLast}} Negligible functions are ranked after all others (--keep-negligible keeps Algorithm 3's order).{{end}}</p>
{{end}}{{if anyUnseen .D}}<p><span class="mark unseen">may have run unseen</span> a thin benchmark profile (see below) may have run the function without a sample.</p>
{{end}}{{end}}
{{with .D.Sensitivity}}<h2 id="sensitivity">What the suite would catch</h2>
<p>{{$.SensitivityHeadline}} A function's detectable slowdown is the smallest slowdown of its own cost some benchmark would report as a definite regression: the comparisons' {{pct .Threshold}} threshold plus the benchmark's minimum detectable effect (a definite regression's whole interval lies beyond the threshold; {{mdes $.D}}), over the function's share of the benchmark{{if ne .Source "instructions"}}; the shares are from CPU samples, so a small one is known only roughly (collect with <code>--source instructions</code> for exact ones){{end}}. See the figure <a href="#caught-curve">What the suite would catch</a>.</p>
{{$.SensitivityCurve}}{{if .Recommendations}}<h3>Benchmark on their own: a +{{pct .RecommendSlowdown}} slowdown would go unnoticed in</h3>
{{$.SensitivityRecs}}<p><i>unnoticed in</i>: the share of the application's {{appNoun $.D}} a +{{pct .RecommendSlowdown}} slowdown of the function (with its closures) would go unnoticed in; <i>noticed from</i>: its detectable slowdown today, <i>never</i> when no benchmark runs it.</p>
{{end}}{{end}}
{{with .D.ThinBenchmarks}}<h2 id="thin">Thin benchmark profiles</h2>
<p>These profiles took under 100 CPU samples (1 s of CPU at 100 Hz), so functions their benchmarks ran briefly may be missing from their coverage. <i>may hide</i>: the project functions no benchmark is seen to cover that the application's call graph reaches from a function the profile covers.</p>
{{$.Thin}}<p>{{join $.ThinFix " "}}</p>
{{end}}
{{with .D.Scenarios}}<h2>Scenarios</h2>
{{$.Scenarios}}<p>Pair-wise overlap (the dissertation's Table 6.4): each cell counts the functions both scenarios call and, in brackets, their share of the <b>row</b> scenario's functions.</p>
{{$.Overlaps}}{{end}}
<h2>Benchmarks by {{impactName .D}}</h2>
{{.Benchmarks}}{{if .D.Skipped}}<h2>Skipped benchmark profiles</h2><ul>
{{range .D.Skipped}}<li><code>{{.File}}</code>: {{.Reason}}</li>
{{end}}</ul>{{end}}
{{if .D.Warnings}}<h2>Warnings</h2><ul>
{{range .D.Warnings}}<li>{{.}}</li>
{{end}}</ul>{{end}}
</body>
</html>
`))

// printHTML returns what print prints with package doc's HTML printer.
func printHTML(print func(doc.Printer)) template.HTML {
	var b strings.Builder
	print(doc.HTML(&b))
	return template.HTML(b.String()) // escaped by the printer
}
