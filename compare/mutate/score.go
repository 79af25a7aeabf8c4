package mutate

import (
	"context"
	"fmt"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// FieldPredictions names ScoreOptions.Predictions in errors (mbopt
// mutate's --from-sensitivity).
const FieldPredictions mbopt.Field = "Predictions"

// ScoreOptions say which predictions [ScoreSensitivity] checks and how it
// compares their mutants.
type ScoreOptions struct {
	// Predictions is how many functions to check, the first of those
	// given (by application share, largest first); at least 1.
	Predictions int
	// Mutants says how to compare each mutant (Compare) and how to size
	// it (SizeBenchmark); Func and Slowdown come from the predictions and
	// must be unset.
	Mutants Options
}

// An Outcome is what two mutants said of one predicted detectable slowdown.
type Outcome string

// The outcomes of a [Prediction], one rule: a prediction with no
// detectable slowdown is Never; else Missed when the mutant at the
// predicted slowdown is not caught (whatever the tenth's verdict); else
// Early when the mutant at a tenth of it is caught too; else Held.
const (
	// Held: the mutant at the predicted slowdown is caught, the one at a
	// tenth of it is not.
	Held Outcome = "held"
	// Missed: the mutant at the predicted slowdown is not caught: the
	// suite is less sensitive than predicted.
	Missed Outcome = "missed"
	// Early: both mutants are caught: the suite is more than ten times
	// as sensitive as predicted (the prediction is conservative).
	Early Outcome = "early"
	// Never: the function is predicted never caught (no benchmark's
	// profile runs it), so no benchmark can size a mutant of it: no
	// mutant is made, and it is not part of the score.
	Never Outcome = "never"
)

// A Prediction is one function's predicted detectable slowdown and the
// two mutants that check it.
type Prediction struct {
	// Function is the function and its prediction, as package
	// sensitivity computed them.
	sensitivity.Function
	// Outcome is what the mutants said.
	Outcome Outcome `json:"outcome"`
	// At is the mutant at the predicted slowdown; nil for Never.
	At *Result `json:"at,omitempty"`
	// Tenth is the mutant at a tenth of it; nil for Never.
	Tenth *Result `json:"tenth,omitempty"`
}

// A Score is the measured mutation score of a suite's predicted detectable
// slowdowns: how many held.
type Score struct {
	// Predictions are the functions checked, in the order given.
	Predictions []Prediction `json:"predictions"`
	// Held counts the predictions whose Outcome is Held.
	Held int `json:"held"`
	// Tested counts the predictions checked by mutants (all but Never).
	Tested int `json:"tested"`
	// Never counts the functions predicted never caught, which have no
	// mutants.
	Never int `json:"never"`
}

// ScoreSensitivity checks the predicted detectable slowdowns of the first
// opt.Predictions of fns (package sensitivity's Result.Functions, by
// application share, largest first) with mutants: each function's at its
// predicted slowdown and at a tenth of it (one sizing for both), made and
// compared as opt.Mutants says. A
// prediction holds when the first mutant is caught and the second is not
// (see [Outcome]). A function predicted never caught gets no mutant and
// counts as Never, outside the score. Mutants run one after another; the
// first error stops the scoring.
func ScoreSensitivity(ctx context.Context, fns []sensitivity.Function, opt ScoreOptions) (*Score, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	sc := &Score{}
	for _, f := range fns[:min(opt.Predictions, len(fns))] {
		p := Prediction{Function: f, Outcome: Never}
		if f.DetectableSlowdown != nil {
			o := opt.Mutants
			o.Func = f.Function
			m, err := prepare(ctx, o)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Function, err)
			}
			s := *f.DetectableSlowdown
			if p.At, err = m.run(ctx, s); err != nil {
				return nil, fmt.Errorf("%s %+.4g%%: %w", f.Function, 100*s, err)
			}
			if p.Tenth, err = m.run(ctx, s/10); err != nil {
				return nil, fmt.Errorf("%s %+.4g%%: %w", f.Function, 10*s, err)
			}
			p.Outcome = outcome(p.At.Caught, p.Tenth.Caught)
		}
		switch p.Outcome {
		case Never:
			sc.Never++
		case Held:
			sc.Held++
			sc.Tested++
		default:
			sc.Tested++
		}
		sc.Predictions = append(sc.Predictions, p)
	}
	return sc, nil
}

// Check reports whether o is valid, as an input error naming the field:
// at least one prediction, no function or slowdown of its own, and a
// comparison that plans the measurements a verdict needs (see
// [Options.Compare]).
func (o ScoreOptions) Check() error {
	if o.Predictions < 1 {
		return mbopt.Errorf("%s %d: give the number of functions to check, at least 1", FieldPredictions, o.Predictions)
	}
	if o.Mutants.Func != "" || o.Mutants.Slowdown != 0 {
		return mbopt.Errorf("%s takes its functions and slowdowns from the predictions: leave out %s and %s", FieldPredictions, FieldFunc, FieldSlowdown)
	}
	return checkSchedule(o.Mutants.Compare.Settings)
}

// outcome is [Outcome]'s rule for a predicted slowdown whose mutant was
// caught (at) or not, and whose mutant at a tenth of it was caught
// (tenth) or not.
func outcome(at, tenth bool) Outcome {
	switch {
	case !at:
		return Missed
	case tenth:
		return Early
	}
	return Held
}
