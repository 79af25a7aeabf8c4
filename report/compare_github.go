package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
)

// maxAnnotations is how many annotations of one level GitHub shows per
// step; CompareGitHub folds the rest into the last one.
const maxAnnotations = 10

// annotation is one GitHub Actions workflow command such as ::error.
type annotation struct {
	level, title, message string
}

// escapeData escapes an annotation's message as GitHub's workflow
// commands require.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes an annotation's property value (the title).
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// annotationLevel returns the level of a detection's annotation: "error"
// for a definite regression, "warning" for a potential one, "notice" for
// an improvement.
func annotationLevel(v benchstats.Verdict) string {
	switch v {
	case benchstats.DefiniteRegression:
		return "error"
	case benchstats.PotentialRegression:
		return "warning"
	}
	return "notice"
}

// compareAnnotations returns the annotations of r: one per detection
// (see annotationLevel) and one warning per benchmark that failed to
// build or run, in r's order within each level, errors first. Beyond
// maxAnnotations of a level, the last one shown counts the rest.
func compareAnnotations(r *compare.Report) []annotation {
	conf := fmt.Sprintf("%g%% CI", 100*r.Settings.Confidence)
	byLevel := map[string][]annotation{}
	for i := range r.Results {
		res := &r.Results[i]
		id := displayName(r.Module, res)
		switch {
		case res.Status == compare.Compared && res.Estimate != nil && res.Verdict != benchstats.Unchanged:
			e := res.Estimate
			msg := fmt.Sprintf("%s %s %s (%s %s) in %s", verdictWords(res.Verdict), signedPct(e.Change), res.Unit, conf, ciText(e.CI), res.ID)
			if im := res.Impact; im != nil {
				msg += fmt.Sprintf(", which covers %s of the application's CPU time (%s flat)", pct(im.Attributed), pct(im.Flat))
			}
			title := fmt.Sprintf("%s %s: %s", signedPct(e.Change), res.Unit, id)
			if noisy(res) {
				title += " " + untouchedMark
				msg += "; the benchmark covers no function the change touches, so this is likely noise"
			}
			lvl := annotationLevel(res.Verdict)
			byLevel[lvl] = append(byLevel[lvl], annotation{lvl, title, msg})
		case res.Status == compare.BuildFailed || res.Status == compare.Failed:
			byLevel["warning"] = append(byLevel["warning"], annotation{"warning", otherStatus(res) + ": " + id, res.ID + ": " + res.Error})
		}
	}
	var out []annotation
	for _, lvl := range []string{"error", "warning", "notice"} {
		as := byLevel[lvl]
		if len(as) > maxAnnotations {
			rest := len(as) - (maxAnnotations - 1)
			as = append(as[:maxAnnotations-1], annotation{lvl, fmt.Sprintf("%d more", rest), fmt.Sprintf("%d more benchmarks at this level: see the job's summary", rest)})
		}
		out = append(out, as...)
	}
	return out
}

// CompareGitHub writes r's annotations to w, one GitHub Actions workflow
// command per line (a step's standard output is where the runner reads
// them): ::error for a definite regression, ::warning for a potential
// regression or a benchmark that failed to build or run, ::notice for an
// improvement; errors first, then warnings, then notices, each in r's
// order, at most 10 of a level (the last one then counts the rest), as
// GitHub shows no more per step. It returns the step summary, whose
// Markdown is [CompareMarkdown]'s (append it with [StepSummary.Append])
// and whose Suite is empty. It returns the first write error.
func CompareGitHub(w io.Writer, r *compare.Report) (*StepSummary, error) {
	ew := &errWriter{w: w}
	for _, a := range compareAnnotations(r) {
		fmt.Fprintf(ew, "::%s title=%s::%s\n", a.level, escapeProperty(a.title), escapeData(a.message))
	}
	if ew.err != nil {
		return nil, fmt.Errorf("writing the annotations: %w", ew.err)
	}
	var md bytes.Buffer
	if err := CompareMarkdown(&md, r); err != nil {
		return nil, err
	}
	return &StepSummary{Markdown: md.Bytes()}, nil
}
