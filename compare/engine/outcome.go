package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
)

// An outcome is what one process of a unit gave in a version (with a
// counting metric, the unit's measurements in one run), read for the
// unit's benchmarks only: a benchmark's own output and the failure of one
// of its sub-benchmarks never cost the results of the others.
type outcome struct {
	// results holds the configuration and result lines of the unit's
	// benchmarks that finished, in the Go benchmark format.
	results []byte
	// unitFailed, when not empty, is why the unit as a whole failed (it
	// timed out, or ended in its own code): results is then not recorded,
	// and the rest of its schedule in the version is skipped.
	unitFailed string
	// failed are the unit's sub-benchmarks that failed, with why; the
	// unit's other benchmarks go on.
	failed []testbin.BenchFailure
	// skipped are the unit's benchmarks (itself, or sub-benchmarks) that
	// skipped themselves (b.Skip), with what they logged; the others go
	// on.
	skipped []testbin.BenchSkip
	// ended is the sub-benchmark whose failure ended the process: the
	// benchmarks after it did not run. "" when none.
	ended string
	// started are the unit's benchmarks the process started, in order
	// (testbin.Output.Started).
	started []string
	// ignored names the benchmarks of lines in the output that looked like
	// results but are not results of the unit's benchmarks.
	ignored []string
	wall    time.Duration
}

// failure returns why the unit, or else the first of its benchmarks that
// failed, failed ("" when none did): the unit's message, or the
// benchmark's name and message.
func (o outcome) failure() string {
	switch {
	case o.unitFailed != "":
		return o.unitFailed
	case len(o.failed) > 0:
		return o.failed[0].Name + ": " + o.failed[0].Message
	}
	return ""
}

// outcomeOf reads the result of one process of unit u with the time
// metric (run with testbin.BenchArgs; timeout is its limit):
//
//   - only results of u's top-level benchmark and its sub-benchmarks
//     count (testbin.ParseOutput): names known from discovery;
//   - a sub-benchmark that reported a failure (b.Fatal) fails alone;
//   - a benchmark that skipped itself (b.Skip: "--- SKIP:") is skipped,
//     with what it logged: no failure;
//   - a panic, a fatal error or an exit while a sub-benchmark ran
//     (-test.v names it; an os.Exit(0) is a panic with
//     -test.paniconexit0) fails that sub-benchmark and ends the process:
//     ended names it;
//   - a timeout, or a failure that names no sub-benchmark, fails the unit.
func outcomeOf(u *unit, res testbin.Result, timeout time.Duration) outcome {
	p := testbin.ParseOutput(res.Output, benchname.Top(u.name))
	o := outcome{results: p.Results, ignored: p.Ignored, skipped: p.Skipped, started: p.Started, wall: res.Wall}
	switch {
	case res.TimedOut:
		o.unitFailed = fmt.Sprintf("timed out after %s\n%s", timeout, testbin.Failure(res.Output, 8))
	case res.Err != nil:
		// A panic first, so that a report's one line shows it.
		msg := testbin.PanicMessage(res.Output)
		why := fmt.Sprintf("%v\n%s", res.Err, testbin.Tail(res.Output, 8))
		if msg != "" {
			why = fmt.Sprintf("%s\n(%v)", msg, res.Err)
		}
		o.fail(u, p, msg != "", why)
	case p.Running != "" && p.Running != u.name:
		o.fail(u, p, true, "the process exited (status 0) while it ran, before its result")
	}
	return o
}

// fail records how a failed process of u ended: the failures its output
// reports, and when crashed is set or it reports none, why (the process
// ended) against the benchmark that was running. A failure of u itself, or
// of a benchmark outside it (its parent), fails the unit, with why.
func (o *outcome) fail(u *unit, p testbin.Output, crashed bool, why string) {
	sub := func(name string) bool { return strings.HasPrefix(name, u.name+"/") }
	for _, f := range p.Failed {
		if !sub(f.Name) {
			o.unitFailed, o.failed = why, nil
			return
		}
		if f.Message == "" {
			f.Message = "failed"
		}
		o.failed = append(o.failed, f)
	}
	if !crashed && len(o.failed) > 0 {
		return
	}
	if !sub(p.Running) {
		o.unitFailed, o.failed = why, nil
		return
	}
	o.failed = append(o.failed, testbin.BenchFailure{Name: p.Running, Message: why})
	o.ended = p.Running
}

// ignored notes, once per unit and version, the lines of its output that
// looked like results of benchmarks it was not asked to run.
func (r *runner) ignored(u *unit, side Side, names []string) {
	key := side.String() + "\x00" + u.id()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noisy[key] {
		return
	}
	r.noisy[key] = true
	r.note(fmt.Sprintf("%s (%s): its output has lines that look like benchmark results but are not results of the benchmarks it ran (named %s; printed by a benchmark itself?): ignored",
		u.id(), side, strings.Join(names, ", ")))
}
