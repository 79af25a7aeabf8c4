package verdict

import (
	"bytes"
	"fmt"
	"io"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/github"
	"github.com/mbopt/mbopt/report/internal/render"
)

// maxAnnotations is how many annotations of one level GitHub shows per
// step; WriteGitHub folds the rest into the last one.
const maxAnnotations = 10

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

// annotations returns the annotations of r: one per detection
// (see annotationLevel) and one warning per benchmark that failed to
// build or run (none for one that skipped itself: the step summary lists
// it), in r's order within each level, errors first. Beyond
// maxAnnotations of a level, the last one shown counts the rest.
func annotations(r *compare.Report) []github.Annotation {
	conf := fmt.Sprintf("%g%% CI", 100*r.Settings.Confidence)
	byLevel := map[string][]github.Annotation{}
	for i := range r.Results {
		res := &r.Results[i]
		id := displayName(r.Module, res)
		switch {
		case res.Status == compare.Compared && res.Estimate != nil && res.Verdict != benchstats.Unchanged:
			e := res.Estimate
			msg := fmt.Sprintf("%s %s %s (%s %s) in %s", verdictWords(res.Verdict), render.SignedPct(e.Change), res.Unit, conf, ciText(e.CI), res.ID)
			if im := res.Impact; im != nil {
				msg += fmt.Sprintf(", which covers %s of the application's %s (%s flat)", render.Pct(im.Attributed), appMeasure(im), render.Pct(im.Flat))
			}
			title := fmt.Sprintf("%s %s: %s", render.SignedPct(e.Change), res.Unit, id)
			if noisy(res) {
				title += " " + untouchedMark
				msg += "; the benchmark covers no function the change touches, so this is likely noise"
			}
			lvl := annotationLevel(res.Verdict)
			byLevel[lvl] = append(byLevel[lvl], github.Annotation{Level: lvl, Title: title, Message: msg})
		case res.Status == compare.BuildFailed || res.Status == compare.Failed:
			byLevel["warning"] = append(byLevel["warning"], github.Annotation{Level: "warning", Title: otherStatus(res) + ": " + id, Message: res.ID + ": " + res.Error})
		}
	}
	var out []github.Annotation
	for _, lvl := range []string{"error", "warning", "notice"} {
		as := byLevel[lvl]
		if len(as) > maxAnnotations {
			rest := len(as) - (maxAnnotations - 1)
			as = append(as[:maxAnnotations-1], github.Annotation{Level: lvl, Title: fmt.Sprintf("%d more", rest), Message: fmt.Sprintf("%d more benchmarks at this level: see the job's summary", rest)})
		}
		out = append(out, as...)
	}
	return out
}

// WriteGitHub writes r's annotations to w, one GitHub Actions workflow
// command per line (a step's standard output is where the runner reads
// them): ::error for a definite regression, ::warning for a potential
// regression or a benchmark that failed to build or run, ::notice for an
// improvement; errors first, then warnings, then notices, each in r's
// order, at most 10 of a level (the last one then counts the rest), as
// GitHub shows no more per step. It returns the step summary, whose
// Markdown is [WriteMarkdown]'s (append it with [github.StepSummary.Append])
// and whose Suite is empty. It returns the first write error.
func WriteGitHub(w io.Writer, r *compare.Report) (*github.StepSummary, error) {
	if err := github.WriteAnnotations(w, annotations(r)); err != nil {
		return nil, fmt.Errorf("writing the annotations: %w", err)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		return nil, err
	}
	return &github.StepSummary{Markdown: md.Bytes()}, nil
}
