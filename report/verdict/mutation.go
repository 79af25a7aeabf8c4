package verdict

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/mutate"
)

// MutationFormats are the formats [WriteMutation] writes.
var MutationFormats = []string{"text", "json"}

// WriteMutation writes the mutant r to w in format, one of
// [MutationFormats]: text (whether the suite caught it and by which
// benchmarks, how the busy loop was sized, then the comparison as
// [WriteText] writes it, its head named as the base revision with the
// function slowed, "HEAD with F slowed by +10%": both sides are built from
// one revision) or json (the indented mutate.Result: a top-level "caught"
// beside the comparison, whose head spec is the revision's).
func WriteMutation(w io.Writer, r *mutate.Result, format string) error {
	switch format {
	case "json":
		return writeIndented(w, r)
	case "text":
		var b bytes.Buffer
		verdict := "not caught: no benchmark reports a definite regression"
		if r.Caught {
			verdict = "caught by " + strings.Join(r.CaughtBy, ", ")
		}
		fmt.Fprintf(&b, "mutant: %s %+.4g%% of its own cost per call: %s\n", r.Function, 100*r.Slowdown, verdict)
		z := r.Sizing
		fmt.Fprintf(&b, "sized by %s: %.0f own instructions per call, %.3g calls per operation; a busy loop of %d iterations (%.3g instructions each) at its entry in %s",
			r.SizedBy, z.PerCall, z.CallsPerOp, r.Iterations, z.PerIteration, r.File)
		if r.Added > 1.05*r.Slowdown {
			fmt.Fprintf(&b, "; the function is too small for less: the loop adds %+.4g%%", 100*r.Added)
		}
		b.WriteString("\n\n")
		if _, err := w.Write(b.Bytes()); err != nil {
			return err
		}
		return WriteText(w, mutantReport(r))
	}
	return fmt.Errorf("verdict: unknown format %q", format)
}

// mutantReport returns a copy of r's comparison whose head revision says
// it is the mutant: "HEAD with F slowed by +10%" (its commit, the base's,
// is kept).
func mutantReport(r *mutate.Result) *compare.Report {
	rep := *r.Report
	rep.Head.Spec = fmt.Sprintf("%s with %s slowed by %+.4g%%", cmp.Or(rep.Head.Spec, "HEAD"), r.Function, 100*r.Slowdown)
	return &rep
}

// WriteMutations writes the mutants rs, one per function, to w in format:
// one mutant as [WriteMutation] writes it; several in text one after
// another, each as WriteMutation writes it, a blank line and a rule
// between them, and in json an array of mutate.Result.
func WriteMutations(w io.Writer, rs []*mutate.Result, format string) error {
	if len(rs) == 1 {
		return WriteMutation(w, rs[0], format)
	}
	if format == "json" {
		return writeIndented(w, rs)
	}
	for i, r := range rs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"+strings.Repeat("─", 72)+"\n\n"); err != nil {
				return err
			}
		}
		if err := WriteMutation(w, r, format); err != nil {
			return err
		}
	}
	return nil
}

// WriteScore writes the mutation score s to w in format: text (the score,
// then per function its application share, its predicted detectable
// slowdown and benchmark, what each of its two mutants moved and the
// outcome, and how the outcomes are counted) or json (the indented
// mutate.Score, each mutant with its comparison).
func WriteScore(w io.Writer, s *mutate.Score, format string) error {
	switch format {
	case "json":
		return writeIndented(w, s)
	case "text":
		var b bytes.Buffer
		fmt.Fprintf(&b, "mutation score: %d of %d predicted detectable slowdowns held", s.Held, s.Tested)
		if s.Never > 0 {
			fmt.Fprintf(&b, " (%d function(s) predicted never caught: no benchmark runs them, so none can size a mutant; not counted)", s.Never)
		}
		b.WriteString("\n\n")
		for _, p := range s.Predictions {
			fmt.Fprintf(&b, "%s (%.1f%% of the application): ", p.Function.Function, 100*p.AppShare)
			if p.DetectableSlowdown == nil {
				b.WriteString("predicted never caught: no mutant\n")
				continue
			}
			fmt.Fprintf(&b, "predicted caught from %+.4g%% by %s: %s\n", 100**p.DetectableSlowdown, p.Benchmark, p.Outcome)
			for _, m := range []*mutate.Result{p.At, p.Tenth} {
				fmt.Fprintf(&b, "  %+.4g%% (the loop adds %+.4g%%): %s\n", 100*m.Slowdown, 100*m.Added, moved(m, p.Benchmark))
			}
		}
		b.WriteString("\nheld: the mutant at the prediction is caught, the one at a tenth of it is not; missed: the first is not caught; early: both are.\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	return fmt.Errorf("verdict: unknown format %q", format)
}

// moved says whether m was caught and what it did to the benchmark id.
func moved(m *mutate.Result, id string) string {
	verdict := "not caught"
	if m.Caught {
		verdict = "caught by " + strings.Join(m.CaughtBy, ", ")
	}
	for _, r := range m.Report.Results {
		if r.ID == id && r.Estimate != nil {
			return fmt.Sprintf("%s; %s %+.2f%% [%+.2f%%, %+.2f%%] %s", verdict, r.Name, 100*r.Estimate.Change, 100*r.Estimate.CI.Low, 100*r.Estimate.CI.High, r.Verdict)
		}
	}
	return verdict
}
