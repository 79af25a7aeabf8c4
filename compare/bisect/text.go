package bisect

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes r as a short log: a line naming the benchmark, the
// two revisions and the metric with how to measure the other
// (measure.Metric.Choice), one line per measurement (commit,
// decision, change with its interval, subject or the reason for a skip),
// then the skipped commits and the outcome: the first bad commit, the
// candidates that skipped commits leave, or the changes the steps show
// when there is more than one.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "bisect %s: good %s, bad %s; %s\n", r.Bench, short(r.Good), short(r.Bad), r.Metric.Choice())
	for _, s := range r.Steps {
		if s.Decision == Skip && s.Trials > 0 && s.Unit == "" {
			fmt.Fprintf(&b, "  %s  %-7s  %s\n", short(s.Commit), s.Decision, s.Reason)
			continue
		}
		fmt.Fprintf(&b, "  %s  %-7s  %+7.1f%% [%+.1f%%, %+.1f%%] %d trials  %s", short(s.Commit), s.Decision, 100*s.Change, 100*s.Low, 100*s.High, s.Trials, s.Subject)
		if s.Reason != "" {
			fmt.Fprintf(&b, " (%s)", s.Reason)
		}
		b.WriteByte('\n')
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %s: %s\n", short(s.Commit), s.Reason)
	}
	switch {
	case r.FirstBad != "":
		fmt.Fprintf(&b, "first bad commit: %s (last good %s)\n", r.FirstBad, r.LastGood)
	case len(r.Changes) > 0:
		fmt.Fprintf(&b, "not located: the steps show %d changes, not one:\n", len(r.Changes))
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "  %s..%s  %+7.1f%% [%+.1f%%, %+.1f%%]\n", short(c.From), short(c.To), 100*c.Change, 100*c.Low, 100*c.High)
		}
		b.WriteString("bisect each range on its own, or raise --threshold above the smaller changes to locate the larger\n")
	case len(r.Candidates) > 0:
		fmt.Fprintf(&b, "not located: the first bad commit is one of %s\n", strings.Join(r.Candidates, " "))
	default:
		b.WriteString("not located\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
