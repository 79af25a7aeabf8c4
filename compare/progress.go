package compare

import (
	"fmt"
	"io"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/progress"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/measure"
)

// A ProgressPrinter renders a comparison's events as mbopt compare prints
// them on stderr: a redrawn bar with an ETA on a terminal, a line per
// finished process otherwise; failures and benchmarks stopped early
// (Settings.UntilStable) either way. Set [Options.Progress] to its Event
// method, and call Clear when [Run] returns.
type ProgressPrinter struct {
	W        io.Writer        // where it prints (stderr)
	Terminal bool             // W is a terminal: draw a status line
	Width    int              // of the terminal
	Now      func() time.Time // the clock
	// Metric, when set, is the metric measured (Settings.RunMetric): the
	// first event prints a line that names it and how to measure the
	// other (measure.Metric.Choice) before its own, so that the line
	// comes once the comparison has passed its checks and started.
	Metric measure.Metric
	said   bool // the metric's line is printed

	line     progress.Line
	runStart time.Time
	runs     int
}

// NewProgressPrinter returns the printer of a comparison's progress on w
// (stderr) with the wall clock: a bar when w is a terminal
// (progress.IsTerminal), else lines. metric, when set, is the metric
// measured (see ProgressPrinter.Metric).
func NewProgressPrinter(w io.Writer, metric measure.Metric) *ProgressPrinter {
	terminal, width := progress.IsTerminal(w)
	return &ProgressPrinter{W: w, Terminal: terminal, Width: width, Now: time.Now, Metric: metric}
}

// Event is the [Options.Progress] hook.
func (p *ProgressPrinter) Event(ev Event) {
	p.line.W, p.line.Terminal, p.line.Width = p.W, p.Terminal, p.Width
	if p.Metric != "" && !p.said {
		p.said = true
		p.line.Println("measuring " + p.Metric.Choice())
	}
	switch ev.Kind {
	case EventBuild:
		what := "built"
		if ev.Cached {
			what = "cached"
		}
		if ev.Err != nil {
			p.line.Println(fmt.Sprintf("build failed (%s) %s: %s", ev.Side, ev.Package, textutil.FirstLine(ev.Err.Error())))
		} else if !p.Terminal {
			p.line.Println(fmt.Sprintf("[%d/%d] %-6s %s %s", ev.Done, ev.Total, what, ev.Side, ev.Package))
		}
		p.line.Draw(fmt.Sprintf("building test binaries %d/%d", ev.Done, ev.Total))
	case EventRun:
		if p.runStart.IsZero() {
			p.runStart = p.Now().Add(-ev.Wall)
		}
		p.runs++
		what := ev.Name // the application command has no package
		if ev.Package != "" {
			what = benchname.ID(ev.Package, ev.Name)
		}
		line := fmt.Sprintf("[%d/%d] trial %d run %d %s %s %.2fs", ev.Done, ev.Total, ev.Trial, ev.Run, ev.Side, what, ev.Wall.Seconds())
		if ev.Err != nil {
			p.line.Println(line + ": failed: " + ev.Err.Error())
		} else if !p.Terminal {
			p.line.Println(line)
		}
		p.line.Draw(fmt.Sprintf("%s %d/%d  ETA %s  trial %d run %d %s %s", progress.Bar(ev.Done, ev.Total), ev.Done, ev.Total, progress.ETA(p.Now().Sub(p.runStart), p.runs, ev.Total-ev.Done), ev.Trial, ev.Run, ev.Side, ev.Name))
	case EventStable:
		p.line.Println(fmt.Sprintf("stable after trial %d: %s (no more runs)", ev.Trial, benchname.ID(ev.Package, ev.Name)))
	}
}

// Clear erases the status line, before the report prints.
func (p *ProgressPrinter) Clear() { p.line.Clear() }
