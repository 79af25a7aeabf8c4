package collect

import (
	"fmt"
	"io"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/progress"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// A ProgressPrinter renders a collection's events as mbopt profile prints
// them on stderr: a redrawn bar with an ETA on a terminal, one line per
// finished benchmark otherwise, a line per heartbeat of a process still
// running either way; then, with [ProgressPrinter.Summary], the
// collection's summary, with a note on each of [SlowParents]. Set
// [Config.Progress] to its Event method.
type ProgressPrinter struct {
	W        io.Writer        // where it prints (stderr)
	Terminal bool             // W is a terminal: draw a status line
	Width    int              // of the terminal
	Now      func() time.Time // the clock
	Start    time.Time        // of the command, for the summary's time

	line     progress.Line
	runStart time.Time // of the first profile run
	ran      int       // benchmarks finished by a run (not reused, not decided early)
	done     int
	total    int
	counts   map[manifest.Status]int
	reused   int
	current  string
}

// Event is the [Config.Progress] hook.
func (p *ProgressPrinter) Event(ev Event) {
	p.line.W, p.line.Terminal, p.line.Width = p.W, p.Terminal, p.Width
	switch ev.Kind {
	case EventBuild:
		// Build failures are reported with their benchmarks' entries.
		p.line.Draw(fmt.Sprintf("building test binaries %d/%d", ev.Done, ev.Total))
	case EventDiscover:
		p.line.Draw(fmt.Sprintf("listing sub-benchmarks %d/%d", ev.Done, ev.Total))
	case EventStart:
		if p.runStart.IsZero() {
			p.runStart = p.Now()
		}
		p.total = ev.Total
		p.current = benchname.ID(ev.Package, ev.Name)
		p.line.Draw(p.bar())
	case EventDiscoverStart:
		// In a log, say what runs before the first heartbeat could.
		if !p.Terminal {
			p.line.Println(fmt.Sprintf("  finding the sub-benchmarks of %s (a -benchtime 1x run, its setup included)", benchname.ID(ev.Package, ev.Name)))
		}
	case EventRunning:
		// Printed on a terminal and in logs alike: a CI log that stays
		// silent for minutes looks hung.
		p.line.Println(fmt.Sprintf("  still running after %v (%s): %s", ev.Elapsed.Round(time.Second), ev.Phase, benchname.ID(ev.Package, ev.Name)))
		p.line.Draw(p.bar())
	case EventFinish:
		p.total, p.done = ev.Total, ev.Done
		if p.counts == nil {
			p.counts = map[manifest.Status]int{}
		}
		e := ev.Entry
		p.counts[e.Status]++
		switch {
		case ev.Reused:
			p.reused++
		case !p.runStart.IsZero():
			p.ran++
		}
		if !p.Terminal || e.Status != manifest.StatusOK {
			status := string(e.Status)
			if ev.Reused {
				status = "reused"
			}
			line := fmt.Sprintf("[%*d/%d] %-12s %6.1fs  %s", len(fmt.Sprint(ev.Total)), ev.Done, ev.Total, status, e.WallSeconds, e.ID)
			if e.Error != "" {
				line += ": " + textutil.FirstLine(e.Error)
			}
			p.line.Println(line)
		}
		p.line.Draw(p.bar())
	}
}

// bar returns the progress bar line for the profile phase.
func (p *ProgressPrinter) bar() string {
	failed := p.done - p.counts[manifest.StatusOK] - p.counts[manifest.StatusSkipped]
	return fmt.Sprintf("%s %d/%d  ok %d  failed %d  ETA %s  %s", progress.Bar(p.done, p.total),
		p.done, p.total, p.counts[manifest.StatusOK], failed, progress.ETA(p.Now().Sub(p.runStart), p.ran, p.total-p.done), p.current)
}

// Clear erases the status line, before the collection's result prints.
func (p *ProgressPrinter) Clear() { p.line.Clear() }

// Summary prints the counts by status and every problem of m, collected
// into out.
func (p *ProgressPrinter) Summary(m *manifest.Manifest, out string) {
	elapsed := p.Now().Sub(p.Start).Round(100 * time.Millisecond)
	reused := ""
	if p.reused > 0 {
		reused = fmt.Sprintf(", %d reused from an earlier run", p.reused)
	}
	share := ""
	if sh := m.Shard; sh != nil {
		share = fmt.Sprintf(" (shard %d/%d: %d of the %d benchmarks found)", sh.Index, sh.Count, sh.Benchmarks, sh.Total)
	}
	fmt.Fprintf(p.W, "profiled %s%s in %v%s: %s\n", textutil.Plural(len(m.Benchmarks), "benchmark"), share, elapsed, reused, m.Counts())
	for _, sp := range SlowParents(m) {
		fmt.Fprintf(p.W, "note: %s\n", sp)
	}
	if len(m.Problems()) > 0 {
		m.WriteProblems(p.W)
		fmt.Fprintf(p.W, "details: the manifest and logs in %s\n", out)
	}
}
